"""HTML rendering: the Jinja2 environment (autoescape on) and the filters that turn corpus text
into safe markup.

Every filter escapes each piece of corpus text itself and adds only markup of its own (links
to cited rules, mana symbols, highlighted words, diff marks), so a ``<script>`` in a card name
or a rule text is shown as text, never run. The pages carry no inline script at all; the
Content-Security-Policy (see :mod:`kb.web.app`) allows only the site's own script file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from kb import i18n
from kb.history import Piece
from kb.labels import change_label, field_label, label, language_name
from kb.link.citations import find_citations
from kb.views import CitedRule
from kb.web.data import record_url, rule_url, slug

_MANA = re.compile(r"\{([0-9A-Z/½∞]{1,5})\}")
_MARKED = re.compile(r"\*\*(.+?)\*\*")
# Colours of the mana symbols; anything else (numbers, X, hybrid) is drawn grey.
_COLOURS = {"W": "w", "U": "u", "B": "b", "R": "r", "G": "g", "C": "c", "T": "t", "Q": "q",
            "S": "s", "E": "e"}


def mana(symbol: str) -> Markup:
    """One mana symbol ``{U}`` drawn by CSS: a round badge whose class names its colour; the
    symbol's text stays for screen readers and copying."""
    colours = [_COLOURS.get(part, "n") for part in symbol.split("/")]
    shown = "↷" if symbol == "T" else "↶" if symbol == "Q" else symbol
    return Markup('<abbr class="ms {}" title="{{{}}}">{}</abbr>').format(
        " ".join(f"ms-{c}" for c in colours), symbol, shown)


def rich(text: str | None, version: str | None = None, latest: str | None = None,
         cited: Iterable[CitedRule] = ()) -> Markup:
    """Corpus text, escaped, with its rule citations linked to the cited rule (in
    ``version``) and its mana symbols drawn; line breaks kept.

    ``cited`` are the citations of another document's text as the build read them
    (:class:`kb.views.CitedRule`): each links to today's rule, and says so where the number
    changed since ("règle 708" of 2013: today's 709, "708 in 2013, today 709")."""
    if not text:
        return Markup("")
    read = {c.number: c for c in cited if c.version is not None}
    spans: list[tuple[int, int, Markup]] = []
    at = 0
    for citation in find_citations("", text):
        start = text.find(citation.written, at)
        if start < 0:
            continue
        end = start + len(citation.written)
        at = end
        then = read.get(citation.first)
        if then is not None and then.note:
            link = (Markup('<a class="cite" href="{}">{}</a>').format(
                rule_url(then.today, None, latest), citation.written) if then.today
                else escape(citation.written))
            spans.append((start, end, link + Markup(' <span class="then">({})</span>').format(
                then.note)))
            continue
        spans.append((start, end, Markup('<a class="cite" href="{}">{}</a>').format(
            rule_url(citation.first, version, latest), citation.written)))
    for m in _MANA.finditer(text):
        if not any(s <= m.start() < e for s, e, _ in spans):
            spans.append((m.start(), m.end(), mana(m.group(1))))
    out, at = [], 0
    for start, end, markup in sorted(spans, key=lambda s: s[0]):
        out += [_lines(text[at:start]), markup]
        at = end
    out.append(_lines(text[at:]))
    return Markup("").join(out)


def _lines(text: str) -> Markup:
    return Markup("<br>").join(escape(line) for line in text.split("\n"))


def snippet(text: str) -> Markup:
    """A search snippet: ``**word**`` marks become ``<mark>``, the rest escaped."""
    return Markup(_MARKED.sub(r"<mark>\1</mark>", str(escape(text))))


def word_diff(pieces: Iterable[Piece | dict[str, Any]]) -> Markup:
    """A word diff as ``<del>``/``<ins>`` runs."""
    out = []
    for piece in pieces:
        op, text = (piece["op"], piece["text"]) if isinstance(piece, dict) else (
            piece.op, piece.text)
        tag = {"delete": "del", "insert": "ins"}.get(op)
        out.append(Markup("<{0}>{1}</{0}>").format(tag, text) if tag else escape(text))
    return Markup("").join(out)


def query(base: dict[str, Any], **changes: Any) -> str:
    """A query string: ``base`` with ``changes``, empty values left out."""
    merged = {**base, **changes}
    return urlencode({k: v for k, v in merged.items() if v not in (None, "", False)})


def environment() -> Environment:
    folder = resources.files("kb.web") / "templates"
    env = Environment(loader=FileSystemLoader(str(folder)),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True, auto_reload=False,
                      extensions=["jinja2.ext.i18n"])
    # ``{% trans %}`` and ``_()`` in templates speak the request's language (kb.i18n.using);
    # whitespace in a trans block is trimmed, as the extractor trims it (babel.cfg).
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True,  # type: ignore[attr-defined]
                                  pgettext=i18n.pgettext)
    env.policies["ext.i18n.trimmed"] = True
    env.filters.update(rich=rich, snippet=snippet, word_diff=word_diff, slug=slug, mana=mana,
                       label=label, language_name=language_name, field_label=field_label)
    env.globals.update(rule_url=rule_url, record_url=record_url, query=query,
                       change_label=change_label,
                       ui_language=i18n.current, ui_languages=i18n.NAMES)
    return env
