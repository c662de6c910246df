"""The official Comprehensive Rules as published in plain text, every version since 2006.

The document is, in order: a title and its effective date, an introduction, a table of contents
(sections, rules, then "Glossary" and "Credits"), the rules body (which starts by repeating the
first contents line), the glossary (a term line, then its definition, blocks separated by blank
lines), and the credits.

In the body a line that starts with a number is a rule: a heading (``1. Game Concepts``,
``100. General``, ``702.19. Trample``) or a rule with text (``702.19b The controller ...``).
A line starting with ``Example:`` belongs to the rule above it; an indented line continues the
record above it. Any other line is kept as an unparsed fragment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from kb.link.citations import find_citations
from kb.model import (
    Example,
    Fragment,
    GlossaryEntry,
    Loc,
    ParseResult,
    Passage,
    Record,
    Rule,
    TocEntry,
)
from kb.rulenum import RuleNumber
from kb.sources.ids import UniqueIds, slug

FORMAT = "cr_text"

_DATE = re.compile(
    r"(?:effective|current) as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})", re.IGNORECASE
)
_RULE_LINE = re.compile(
    r"^(?P<num>\d{3}\.\d{1,3}[a-z]{0,2}|\d{3}|[1-9])\.?(?:[ \t]+|(?=[A-Z]))(?P<rest>.*)$"
)
_TOC_LINE = re.compile(r"^(?P<num>\d{3}|[1-9])\.\s+(?P<title>.+)$")
_TITLE_END = re.compile(r"[.:;,)\"”]$")
_BACK_MATTER = {"Glossary", "Credits", "Questions?", "Customer Service Information"}


def sniff(text: str) -> bool:
    """True for a Comprehensive Rules text file: its title, effective date and contents."""
    head = text[:3000]
    return (
        "Comprehensive Rules" in head
        and _DATE.search(head) is not None
        and re.search(r"^Contents\s*$", head, re.MULTILINE) is not None
    )


def effective_date(text: str) -> str | None:
    m = _DATE.search(text[:3000])
    if not m:
        return None
    return datetime.strptime(m["date"], "%B %d, %Y").date().isoformat()


def parse(text: str, file: str) -> ParseResult:
    """Parse the text of one CR file (already decoded, ``\\n`` line ends)."""
    version = effective_date(text)
    if version is None:
        raise ValueError(f"{file}: no 'These rules are effective as of ...' line")
    lines = text.split("\n")
    source_id = f"cr:en:{version}"
    parser = _Parser(source_id, file, version, lines)
    records = tuple(parser.run())
    title = lines[0].strip().replace("_", "") if lines else None
    return ParseResult(FORMAT, "en", version, records, title=title, source_id=source_id)


@dataclass
class _Open:
    """A record whose text may still grow with indented continuation lines."""

    kind: str  # "rule" or "example"
    number: str
    line: int
    parts: list[str]
    title: str | None = None
    ordinal: int = 0
    rule_id: str = ""


@dataclass
class _Parser:
    source_id: str
    file: str
    version: str
    lines: list[str]
    unique: UniqueIds = field(default_factory=UniqueIds)

    def loc(self, index: int) -> Loc:
        return Loc(self.file, index + 1)


    def fragment(self, index: int, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, self.loc(index), self.lines[index], reason)

    # -- document layout -------------------------------------------------------------------

    def run(self) -> Iterator[Record]:
        lines = self.lines
        contents = _find(lines, "Contents", 0)
        if contents is None:
            yield from self.passage("introduction", 0, len(lines))
            return
        first_toc = next(
            (i for i in range(contents + 1, len(lines)) if lines[i].strip()), len(lines)
        )
        body = _find(lines, lines[first_toc].strip(), first_toc + 1) if first_toc < len(
            lines
        ) else None
        body = body if body is not None else len(lines)
        glossary = _find_last(lines, "Glossary", body)
        credits = _find_last(lines, "Credits", glossary if glossary is not None else body)
        end_body = glossary if glossary is not None else (credits or len(lines))

        yield from self.passage("introduction", 0, contents)
        yield from self.toc(contents + 1, body)
        yield from self.body(body, end_body)
        if glossary is not None:
            yield from self.glossary(glossary + 1, credits if credits is not None else len(lines))
        if credits is not None:
            yield from self.passage("credits", credits, len(lines))

    def passage(self, role: str, start: int, stop: int) -> Iterator[Record]:
        chunk = self.lines[start:stop]
        while chunk and not chunk[-1].strip():
            chunk.pop()
        first = next((i for i, line in enumerate(chunk) if line.strip()), None)
        if first is None:
            return
        text = "\n".join(chunk[first:])
        yield Passage(
            self.unique(f"{self.source_id}:{role}"),
            role,
            text,
            "en",
            self.version,
            self.loc(start + first),
        )

    def toc(self, start: int, stop: int) -> Iterator[Record]:
        for i in range(start, stop):
            line = self.lines[i].strip()
            if not line:
                continue
            m = _TOC_LINE.match(line)
            if m:
                number, title = m["num"], m["title"].strip()
            elif line in _BACK_MATTER:
                number, title = None, line
            else:
                yield self.fragment(i, "unrecognized line in the table of contents")
                continue
            yield TocEntry(
                self.unique(f"{self.source_id}:toc/{number or slug(title)}"),
                number,
                title,
                "en",
                self.version,
                self.loc(i),
            )

    # -- rules body ------------------------------------------------------------------------

    def body(self, start: int, stop: int) -> Iterator[Record]:
        current: _Open | None = None
        rule: _Open | None = None  # the rule examples attach to
        for i in range(start, stop):
            raw = self.lines[i]
            if not raw.strip():
                continue
            m = _RULE_LINE.match(raw)
            if m and RuleNumber.try_parse(m["num"]) is not None:
                if current:
                    yield self.close(current)
                current = rule = self.open_rule(m["num"], m["rest"], i)
            elif raw.startswith("Example"):
                if current:
                    yield self.close(current)
                current = None
                if rule is None:
                    yield self.fragment(i, "example before any rule")
                    continue
                rule.ordinal += 1
                current = _Open("example", rule.number, i, [raw.rstrip()], ordinal=rule.ordinal,
                                rule_id=rule.rule_id)
            elif raw[:1].isspace() and current is not None:
                current.parts.append(raw.strip())
            else:
                if current:
                    yield self.close(current)
                current = None
                yield self.fragment(i, "line in the rules body that is neither rule nor example")
        if current:
            yield self.close(current)

    def open_rule(self, number: str, rest: str, index: int) -> _Open:
        parsed = RuleNumber.parse(number)
        rest = rest.rstrip()
        rule_id = self.unique(f"{self.source_id}:{parsed}")
        is_title = parsed.depth <= 1 or (
            parsed.depth == 2 and len(rest) < 60 and not _TITLE_END.search(rest)
        )
        if is_title:
            return _Open("rule", str(parsed), index, [rest], title=rest, rule_id=rule_id)
        return _Open("rule", str(parsed), index, [rest], rule_id=rule_id)

    def close(self, node: _Open) -> Record:
        text = "\n".join(node.parts)
        if node.kind == "example":
            eid = self.unique(f"{node.rule_id}/ex{node.ordinal}")
            return Example(
                eid, node.number, node.ordinal, text, "en", self.version, self.loc(node.line),
                citations=find_citations(eid, text),
            )
        parent = RuleNumber.parse(node.number).parent
        return Rule(
            node.rule_id,
            node.number,
            text,
            "en",
            self.version,
            self.loc(node.line),
            title=node.title,
            parent=str(parent) if parent else None,
            citations=find_citations(node.rule_id, text),
        )

    # -- glossary --------------------------------------------------------------------------

    def glossary(self, start: int, stop: int) -> Iterator[Record]:
        block: list[int] = []
        for i in range(start, stop + 1):
            if i < stop and self.lines[i].strip():
                block.append(i)
                continue
            if len(block) >= 2:
                term = self.lines[block[0]].strip()
                definition = "\n".join(self.lines[j].strip() for j in block[1:])
                gid = self.unique(f"{self.source_id}:glossary/{slug(term)}")
                yield GlossaryEntry(
                    gid, term, definition, "en", self.version, self.loc(block[0]),
                    citations=find_citations(gid, definition),
                )
            elif block:
                yield self.fragment(block[0], "glossary line with no definition")
            block = []


def _find(lines: list[str], wanted: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == wanted), None)


def _find_last(lines: list[str], wanted: str, start: int) -> int | None:
    return next(
        (i for i in range(len(lines) - 1, start - 1, -1) if lines[i].strip() == wanted), None
    )
