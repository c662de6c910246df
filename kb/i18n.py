"""The interface's language: every word kb itself writes (web pages, command-line help and
messages, JSON errors) goes through :func:`gettext`, which answers in the language of the
current context.

The language is a context variable, not a global: a web request sets it for its own task (and
the worker threads it calls, which run in a copy of its context), the command line once at
start. The catalogues are gettext's (``kb/locale/<lang>/LC_MESSAGES/kb.mo``, compiled from
``kb.po`` by Babel: see :mod:`kb.i18n_catalog`), read by the standard library; a message with
no translation is shown in English, the language the code is written in.

Where the language comes from is decided here too, so that the command line and the site
agree: ``--ui-lang``, else the POSIX locale variables (:func:`from_environment`); on the web a
switch, else the browser's ``Accept-Language`` (:func:`from_accept_language`).
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "kb"
LANGUAGES = ("en", "fr")  # the interface's languages; English is the source text
DEFAULT = "en"
# The names of the languages in themselves, for the switch between them.
NAMES = {"en": "English", "fr": "Français"}

_language: ContextVar[str] = ContextVar("kb_ui_language", default=DEFAULT)


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The catalogue of ``language`` (no translation at all for English or a missing file)."""
    if language == DEFAULT:
        return _gettext.NullTranslations()
    # The package's own folder, not importlib.resources: its import costs a cold command 10 ms.
    folder = Path(__file__).with_name("locale")
    return _gettext.translation(DOMAIN, str(folder), languages=[language], fallback=True)


def current() -> str:
    """The interface language of this context."""
    return _language.get()


def supported(language: str | None) -> str | None:
    """``language`` as one of :data:`LANGUAGES` (``fr_FR.UTF-8``, ``fr-CA``, ``FR`` -> fr),
    or None."""
    if not language:
        return None
    primary = re.split(r"[-_.@]", language.strip(), maxsplit=1)[0].lower()
    return primary if primary in LANGUAGES else None


@contextlib.contextmanager
def using(language: str) -> Iterator[None]:
    """Speak ``language`` inside the ``with`` block (an unknown one is English)."""
    token = _language.set(supported(language) or DEFAULT)
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


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where its English is ambiguous: "added" of one
    rule and "added" heading a count of rules are two French words."""
    return translations(current()).pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for it)
    """Mark ``message`` for the catalogue without translating it now: it is translated where
    it is shown (a table of labels built at import time, say)."""
    return message


_ = gettext


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a help text, each on one line: the unit of translation of click's
    help (click rewraps the text to the terminal, so the source's line breaks mean nothing),
    the same for the extractor and for the display."""
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def translate_text(text: str) -> str:
    """A help text translated paragraph by paragraph (see :func:`paragraphs`)."""
    return "\n\n".join(gettext(p) for p in paragraphs(text))


# -- where the language comes from ------------------------------------------------------------

# POSIX's order: LC_ALL overrides LC_MESSAGES, which overrides LANG.
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def from_environment(environ: Mapping[str, str]) -> str:
    """The language of the locale the environment names (``LANG=fr_FR.UTF-8`` -> fr): the
    first of LC_ALL, LC_MESSAGES, LANG that is set decides, as for every POSIX program
    (``LC_ALL=C`` is English whatever LANG says)."""
    for name in LOCALE_VARIABLES:
        value = environ.get(name)
        if value:
            return supported(value) or DEFAULT
    return DEFAULT


def from_accept_language(header: str | None) -> str | None:
    """The interface language a browser asks for (RFC 9110's ``Accept-Language``: ``fr-CH,
    fr;q=0.9, en;q=0.8``): the supported one of highest weight, None if none is."""
    best: tuple[float, int, str] | None = None
    for position, part in enumerate((header or "").split(",")):
        tag, _sep, params = part.partition(";")
        weight = 1.0
        name, _eq, value = params.partition("=")
        if name.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue  # a weight that is no number: the entry says nothing
        language = supported(tag)
        if language and weight > 0 and (best is None or (weight, -position) > best[:2]):
            best = (weight, -position, language)
    return best[2] if best else None


# -- click's own words --------------------------------------------------------------------------

# Click's modules that say their messages when they are needed (decorators.py makes its help
# texts at import time, in English: kb.cli._command translates them where they are shown).
CLICK_MODULES = ("core", "exceptions", "types", "parser", "formatting", "termui", "_termui_impl")


@cache
def install_click() -> None:
    """Make click speak the current language: its messages ("Usage:", "Missing argument",
    "Try 'kb --help' for help.") call the standard library's global gettext, whose language
    comes from the environment alone and whose catalogue is its own domain's, so each of its
    modules is given this module's functions instead (kb's catalogue holds click's messages;
    :mod:`kb.i18n_catalog` extracts them from the same modules)."""
    import importlib

    for name in CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]
