"""A French web page about one keyword ability, quoting its rules in French and in English.

The page reads, one paragraph a line::

    Il s'agit d'une ancienne Capacité à mot-clé dont les règles ont été modifiées ...
    La traduction française des règles a dit :
    702.27. Écho
    702.27a L'écho est une capacité déclenchée. ...
    - Les anciennes règles indiquaient ...          (commentary bullets)
    La version originale officielle des règles a dit :
    702.27. Echo
    702.27a Echo is a triggered ability. ...

A "... des règles a dit :" line announces a quotation of the rules and says its language ("La
traduction française" = French, "La version originale" = English); the parser keeps it out of
the records (the test names it as boilerplate) and uses it to set the language of the rules
that follow. Rule lines become :class:`Rule` records; every other paragraph (the introduction
and the ``-`` bullets) becomes a :class:`Note` about the keyword, with one claim per sentence.

Version. The page does not say which rules it quotes. It says the rules changed with Time
Spiral (2006), and the quoted text is indeed the post-Time Spiral wording; but the 2006 rules
number Echo 502.19: the number 702.27 exists only in the rules of Magic 2010 (effective
2009-07-11) until Magic 2012 inserted hexproof at 702.11 (2011), when Echo became 702.28. The
number is the stronger evidence, so rules read here get the first version that numbered the
keyword that way (:data:`NUMBERED_SINCE`); the Time Spiral era stays in the introduction note.
A page about a keyword missing from that table gets version ``"unknown"``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from kb.link.citations import find_citations
from kb.model import Fragment, Loc, Note, ParseResult, Record, Rule
from kb.rulenum import RuleNumber
from kb.sources.ids import UniqueIds
from kb.text.language import detect

FORMAT = "keyword_page"

# (keyword slug, rule number) -> effective date of the first rules that numbered it so.
NUMBERED_SINCE: dict[tuple[str, str], str] = {("echo", "702.27"): "2009-07-11"}
UNKNOWN_VERSION = "unknown"

_QUOTE_MARKER = re.compile(r"^La (?P<what>.+?) des règles a dit\s*:\s*$")
_RULE_LINE = re.compile(r"^(?P<num>\d{3}\.\d{1,3}[a-z]{0,2})\.?(?:\s+(?P<rest>.*))?$")
_BULLET = re.compile(r"^\s*[-–•*]\s+")
_ANY_MARKER = re.compile(r"^La .+? des règles a dit\s*:\s*$", re.MULTILINE)
_ANY_RULE = re.compile(r"^\d{3}\.\d{1,3}[a-z]{0,2}\.?\s+\S", re.MULTILINE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý«“\"(])")


def sniff(text: str) -> bool:
    """True for a keyword page: a rules quotation marker and at least one rule line."""
    return bool(_ANY_MARKER.search(text) and _ANY_RULE.search(text))


def quote_language(marker: str) -> str:
    """The language a quotation marker announces: a translation is French, an original
    (or anything said to be English) is English."""
    what = marker.lower()
    return "fr" if "traduction" in what or "français" in what else "en"


def ascii_slug(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^0-9a-z]+", "-", folded.lower()).strip("-") or "x"


def claims_of(text: str) -> tuple[str, ...]:
    """Split a note into its sentences, each one claim about the rules."""
    return tuple(part.strip() for part in _SENTENCE_END.split(text) if part.strip())


def parse(text: str, file: str) -> ParseResult:
    """Parse a keyword page (already decoded, ``\\n`` line ends)."""
    lines = text.split("\n")
    titles = _keyword_titles(lines)
    keyword = next(iter(titles.values()), None)
    commentary = [ln for ln in lines if ln.strip() and not _is_quoted(ln)]
    page_language = detect("\n".join(commentary)) if commentary else "und"
    slug = ascii_slug(titles.get("en", keyword or file.rsplit(".", 1)[0]))
    source_id = f"kw:{page_language}:{slug}"
    version = _version(slug, lines)
    parser = _Parser(source_id, file, version, lines, titles)
    records = tuple(parser.run())
    return ParseResult(
        FORMAT,
        page_language,
        None if version == UNKNOWN_VERSION else version,
        records,
        title=keyword,
        source_id=source_id,
    )


def _is_quoted(line: str) -> bool:
    return bool(_QUOTE_MARKER.match(line.strip()) or _rule_match(line))


def _rule_match(line: str) -> re.Match[str] | None:
    m = _RULE_LINE.match(line.strip())
    return m if m and RuleNumber.try_parse(m["num"]) is not None else None


def _keyword_titles(lines: list[str]) -> dict[str, str]:
    """The keyword's name in each quoted language, from the rule headings ("702.27. Écho")."""
    titles: dict[str, str] = {}
    language = None
    for line in lines:
        marker = _QUOTE_MARKER.match(line.strip())
        if marker:
            language = quote_language(marker["what"])
            continue
        m = _rule_match(line)
        if m and m["rest"] and RuleNumber.parse(m["num"]).depth == 2:
            lang = language or detect(m["rest"])
            titles.setdefault(lang, m["rest"].strip())
    return titles


def _version(slug: str, lines: list[str]) -> str:
    for line in lines:
        m = _rule_match(line)
        if m:
            number = RuleNumber.parse(m["num"])
            key = str(number) if number.depth == 2 else str(number.parent)
            return NUMBERED_SINCE.get((slug, key), UNKNOWN_VERSION)
    return UNKNOWN_VERSION


@dataclass
class _Parser:
    source_id: str
    file: str
    version: str
    lines: list[str]
    titles: dict[str, str]
    unique: UniqueIds = field(default_factory=UniqueIds)
    notes: int = 0


    def fragment(self, index: int, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, Loc(self.file, index + 1), self.lines[index],
                                    reason)

    def run(self) -> Iterator[Record]:
        language: str | None = None  # set by a quotation marker
        marker: int | None = None  # a marker line still waiting for its first rule
        for i, raw in enumerate(self.lines):
            line = raw.strip()
            if not line:
                continue
            m = _QUOTE_MARKER.match(line)
            if m:
                if marker is not None:
                    yield self.fragment(marker, "rules quotation marker with no rule after it")
                language, marker = quote_language(m["what"]), i
                continue
            rule = _rule_match(raw)
            if rule and not rule["rest"]:
                yield self.fragment(i, "rule number without text")
            elif rule:
                marker = None
                yield self.rule(rule["num"], rule["rest"].strip(), i, language)
            else:
                yield self.note(raw, i)
        if marker is not None:
            yield self.fragment(marker, "rules quotation marker with no rule after it")

    def rule(self, written: str, text: str, index: int, language: str | None) -> Rule:
        number = RuleNumber.parse(written)
        lang = language or detect(text)
        rid = self.unique(f"{self.source_id}:{lang}:{number}")
        parent = number.parent
        return Rule(
            rid,
            str(number),
            text,
            lang,
            self.version,
            Loc(self.file, index + 1),
            title=text if number.depth == 2 else None,
            parent=str(parent) if parent else None,
            citations=find_citations(rid, text),
        )

    def note(self, raw: str, index: int) -> Note:
        text = _BULLET.sub("", raw).strip()
        language = detect(text)
        self.notes += 1
        rid = self.unique(f"{self.source_id}:note/{self.notes}")
        topic = self.titles.get(language) or next(iter(self.titles.values()), None)
        return Note(
            rid,
            text,
            language,
            Loc(self.file, index + 1),
            topic=topic,
            citations=find_citations(rid, text),
            claims=claims_of(text),
        )
