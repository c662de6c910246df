"""The interface's language: every word kb itself writes (web pages, command-line help and
messages, JSON errors) goes through :func:`gettext`, which answers in the language of the
current context.

The language is a context variable, not a global: a web request sets it for its own task (and
the worker threads it calls, which copy the context), the command line once at start. The
catalogues are gettext's (``kb/locale/<lang>/LC_MESSAGES/kb.mo``), read by the standard
library; a message with no translation is shown in English.
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from importlib import resources

DOMAIN = "kb"
LANGUAGES = ("en", "fr")  # the interface's languages; English is the source text
DEFAULT = "en"

_language: ContextVar[str] = ContextVar("kb_ui_language", default=DEFAULT)


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The catalogue of ``language`` (no translation at all for English or a missing file)."""
    if language == DEFAULT:
        return _gettext.NullTranslations()
    folder = resources.files("kb") / "locale"
    return _gettext.translation(DOMAIN, str(folder), languages=[language], fallback=True)


def current() -> str:
    """The interface language of this context."""
    return _language.get()


@contextlib.contextmanager
def using(language: str) -> Iterator[None]:
    """Speak ``language`` inside the ``with`` block (an unknown one is English)."""
    token = _language.set(language if language in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _language.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n``, in the current language."""
    return translations(current()).ngettext(singular, plural, n)


_ = gettext
