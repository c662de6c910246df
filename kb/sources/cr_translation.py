"""A translation of the whole Comprehensive Rules, in any language and script, laid out like
the official English file (the Chinese and Korean community translations, a French CR).

Such a file has the English file's shape, in its own words: a title, the date the rules take
effect, an introduction, a table of contents ("1. 游戏概念", "100. 总则" ... then the back
matter, "词汇表", "版权信息"), the numbered rules with their examples, the glossary, the
credits. It is parsed by the English parser (:mod:`kb.sources.cr_text`) with a
:class:`~kb.sources.cr_text.Layout` read from the file itself, never from its name:

- the language: :func:`kb.text.language.detect` on the text of the numbered rules (by script
  for Han, Hangul, kana, Cyrillic ..., by function words for Latin-script languages);
- the contents heading: the line above the contents' first entry ("1." followed by "100.");
- the back matter: the unnumbered lines the contents list after the rules, the first being
  the glossary and the second the credits, as in every English file;
- the example lines: the word before a colon that most unnumbered lines of the body start
  with ("Example", "例如", "Exemple"), any other word that starts a quarter as many, and
  the English "Example" (an example left untranslated);
- the date: the first date of the head (:func:`kb.text.dates.find_date`, month names of the
  detected language);
- each paragraph's language: a paragraph in another language than the document's is that
  language's and flagged ``untranslated`` (the rule titles the Korean translation left in
  English). In a Latin-script document a paragraph whose words decide nothing is the
  document's language. In a document of another script, a paragraph with any letter of that
  script was written by the translator and is the document's (a Korean sentence listing a
  hundred English creature types, 205.3m); one without is in the language its words say,
  and English when they say nothing ("Fateseal"): a translation is made from the English
  rules.

Ids are ``cr:<language>:<date>:<number>`` (``cr:zh:2022-06-10:702.19b``). The rules are
paired with the English rules of their date by :mod:`kb.link.translation`.
"""

from __future__ import annotations

import re
from collections import Counter

from kb.model import ParseResult
from kb.sources import cr_text
from kb.sources.cr_text import ENGLISH, Layout
from kb.text.dates import find_date
from kb.text.language import detect, script, scripts

FORMAT = "cr_translation"

_TOC_LINE = re.compile(r"^(?P<num>\d{3}|[1-9])\.\s+\S")
_NUMBERED = re.compile(r"^\s*(?P<num>\d{3}\.\d{1,3}[a-z]{0,2})\.?(?:\s+|(?=[^\W\d_a-z]))\S")
_EXAMPLE_WORD = re.compile(r"^(?P<word>[^\d:：]{1,15}?)\s*[:：]")
# With a contents list ("1." then "100.") and a date before it, this many numbered rules make
# a CR translation, a partial one too (a chapter); a page quoting one or two rules is not one.
MIN_RULES = 10
# An example word is one that starts at least this many unnumbered body lines.
MIN_EXAMPLES = 2


def sniff(text: str) -> bool:
    """True for a CR laid out like the English file that the English parser does not claim:
    a contents list, many numbered rules, and a date before the contents."""
    if cr_text.sniff(text):
        return False
    lines = text.split("\n")
    contents = _contents_start(lines)
    if contents is None or sum(1 for line in lines if _NUMBERED.match(line)) < MIN_RULES:
        return False
    return _head_date(lines, contents, read_layout(lines, contents).language) is not None


def parse(text: str, file: str) -> ParseResult:
    lines = text.split("\n")
    contents = _contents_start(lines)
    if contents is None:
        raise ValueError(f"{file}: no table of contents ('1. ...' then '100. ...')")
    layout = read_layout(lines, contents)
    version = _head_date(lines, contents, layout.language)
    if version is None:
        raise ValueError(f"{file}: no date before the table of contents")
    return cr_text.parse_layout(text, file, version, layout, FORMAT)


def layout_of(text: str) -> Layout | None:
    """The layout of a translation's text, None without a contents list."""
    lines = text.split("\n")
    contents = _contents_start(lines)
    return None if contents is None else read_layout(lines, contents)


def read_layout(lines: list[str], contents: int) -> Layout:
    """The layout of a translation whose contents' first entry is line ``contents``."""
    heading = next((lines[i].strip() for i in range(contents - 1, -1, -1) if lines[i].strip()),
                   "")
    back = _back_matter(lines, contents)
    end = next((i for i in range(len(lines) - 1, contents, -1)
                if back and lines[i].strip() == back[0]), len(lines))
    body = [line for line in lines[contents:end] if line.strip()]
    rules = [m.string[m.end() - 1:] for line in body if (m := _NUMBERED.match(line))]
    language = detect("\n".join(rules[:400]))
    document_script = script("\n".join(rules[:400]))

    def paragraph_language(text: str) -> str:
        if document_script in (None, "LATIN"):
            found = detect(text)
            return language if found == "und" else found
        letters = scripts(text)
        if not letters or letters.get(document_script):
            return language
        found = detect(text)
        return "en" if found in ("und", language) else found

    return Layout(language, heading, back[0] if back else None,
                  back[1] if len(back) > 1 else None, frozenset(back),
                  _example_words(body), paragraph_language)


def _contents_start(lines: list[str]) -> int | None:
    """The line of the contents' first entry: "1. ..." followed, after blank lines, by
    "100. ..."."""
    for i, line in enumerate(lines):
        m = _TOC_LINE.match(line.strip())
        if m and m["num"] == "1":
            following = next((x.strip() for x in lines[i + 1:] if x.strip()), "")
            n = _TOC_LINE.match(following)
            if n and n["num"] == "100":
                return i
    return None


def _back_matter(lines: list[str], contents: int) -> list[str]:
    """The unnumbered lines the contents list after its last rule entry, before the body
    opens again at "1."."""
    back: list[str] = []
    seen: set[str] = set()
    for line in lines[contents:]:
        text = line.strip()
        m = _TOC_LINE.match(text)
        if m:
            if m["num"] in seen or back:  # the body begins
                break
            seen.add(m["num"])
        elif text:
            back.append(text)
    return back


def _example_words(body: list[str]) -> tuple[str, ...]:
    """The words example lines start with (see the module docstring)."""
    counts = Counter(m["word"].strip() for line in body
                     if not _NUMBERED.match(line) and (m := _EXAMPLE_WORD.match(line.strip())))
    if not counts:
        return ENGLISH.examples
    top = counts.most_common(1)[0][1]
    return tuple(dict.fromkeys([*(word for word, n in counts.most_common()
                                  if n >= MIN_EXAMPLES and n * 4 >= top), *ENGLISH.examples]))


def _head_date(lines: list[str], contents: int, language: str | None = None) -> str | None:
    day = find_date("\n".join(lines[:contents]), language)
    return day.isoformat() if day else None
