"""Snippets: the part of a record's text where the searched terms are densest, marked.

Done with kb's own analysis chain (the terms a token gives are exactly those the index holds),
so a French text's ``sacrifiez`` is marked for a query ``sacrifier`` as the index matched it.
"""

from __future__ import annotations

from kb.index.analysis import language

MARK = "**"  # around a matched word; the CLI shows it in bold on a terminal
SNIPPET_CHARS = 220


def snippet(text: str, lang: str, terms: set[str], width: int = SNIPPET_CHARS) -> str:
    """A window of about ``width`` characters of ``text`` with matched words marked."""
    text = " ".join(text.split())
    matches = [(t.start, t.end) for t in language(lang).tokens(text) if t.term in terms]
    start = _best_window(matches, len(text), width)
    end = min(len(text), start + width)
    if end < len(text):  # end on a word boundary
        cut = text.rfind(" ", start, end)
        end = cut if cut > start else end
    if start > 0:
        space = text.find(" ", start, end)
        start = space + 1 if space != -1 else start
    out, pos = [], start
    for s, e in matches:
        if s < start or e > end:
            continue
        out += [text[pos:s], MARK, text[s:e], MARK]
        pos = e
    out.append(text[pos:end])
    return ("…" if start > 0 else "") + "".join(out) + ("…" if end < len(text) else "")


def _best_window(matches: list[tuple[int, int]], length: int, width: int) -> int:
    """The start of the window holding most matches (a little context before the first)."""
    if not matches or length <= width:
        return 0
    best, best_count = 0, 0
    for i, (s, _) in enumerate(matches):
        count = sum(1 for m in matches[i:] if m[1] <= s + width)
        if count > best_count:
            best, best_count = s, count
    return max(0, min(best - 40, length - width))
