"""The official Comprehensive Rules as published in plain text, every version since 2006.

The document is, in order: a title and its effective date, an introduction, a table of contents
(sections, rules, then "Glossary" and "Credits"), the rules body, the glossary (a term line,
then its definition, blocks separated by blank lines), and the credits.

The body starts at its first numbered rule (``100.1.``) with the headings just above it: not
where the first contents line repeats, because the Magic 2010 rewrite (2009-07-11) lists
"1. Game Concepts" in its contents and opens its body with "1. The Game".

In the body a line that starts with a number is a rule, even after stray spaces (three 2009
files write `` 509.1c``): a heading (``1. Game Concepts``, ``100. General``, ``702.19.
Trample``; a section or three-digit number needs its period) or a rule with text (``702.19b
The controller ...``). A line starting with ``Example:`` belongs to the rule above it; an
indented line continues the record above it as a new paragraph. Any other line is kept as an
unparsed fragment, except in hard-wrapped files (the 2003-2004 PDF extracts, found by their
many such lines), where a line that directly follows a record without a blank line continues
it (joined with a space, or with nothing after a hyphen), and so does a number there that
cannot come next ("1 until end of turn." after rule 502.9).

Two source typos are repaired and reported: "606. 8b" (rule 606.8b, not a second 606) and
"306.b" (306.3b, after 306.3a); such rules are ``inferred``. A file whose numbered lines are
mostly not read as rules is reported too (``ParseResult.problems``).

What depends on the document's language is a :class:`Layout`: the contents heading, the back
matter the contents list (glossary, credits), how an example line starts, and the language of
each paragraph. :data:`ENGLISH` is the official file's; :mod:`kb.sources.cr_translation` finds
a translation's in the file itself and parses it with this same parser. Nothing else here is
English: a title is a short depth-two rule that does not end with punctuation (Unicode's, so
"。" ends a sentence as "." does), and a rule number may be followed by any letter that cannot
continue it ("100.6b牌手").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
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
from kb.rulenum import RuleNumber, sort_key
from kb.sources.ids import UniqueIds, slug

FORMAT = "cr_text"

_DATE = re.compile(
    r"(?:effective|current) as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})", re.IGNORECASE
)
_RULE_LINE = re.compile(
    r"^(?:(?P<num>\d{3}\.\d{1,3}[a-z]{0,2})\.?|(?P<head>\d{3}|[1-9])\.)"
    r"(?:\s+|(?=[^\W\d_a-z]))(?P<rest>.*)$"
)
# Source typos: "606. 8b Players ..." (606.8b) and "306.b If ..." (a letter without its rule).
_SPLIT_NUMBER = re.compile(r"^(?P<head>\d{3})\. (?P<tail>\d{1,3}[a-z]{1,2})[ \t]+(?P<rest>\S.*)$")
_LETTER_ONLY = re.compile(r"^(?P<head>\d{3})\.(?P<letter>[a-z])[ \t]+(?P<rest>\S.*)$")
_SUBRULE = re.compile(r"^\s*\d{3}\.\d{1,3}[a-z]{0,2}\b")  # a numbered line of the body
# A file whose rules are fewer than this share of its numbered lines was misread.
_MIN_READ = 0.9
# Lines continuing a record without a blank line, as a share of the body's lines, that make a
# file hard-wrapped (a PDF extract). Unwrapped files have none.
_WRAPPED_SHARE = 0.05
_TOC_LINE = re.compile(r"^(?P<num>\d{3}|[1-9])\.\s+(?P<title>.+)$")


@dataclass(frozen=True)
class Layout:
    """What in a CR file depends on its language (see the module docstring)."""

    language: str
    contents: str  # the heading of the table of contents
    glossary: str | None  # the headings of the back matter, as the contents list them
    credits: str | None
    back_matter: frozenset[str]  # every unnumbered line the contents list after the rules
    examples: tuple[str, ...]  # the words an example line starts with ("Example", "例如")
    # The language of one paragraph (a rule left in English inside a translation); None: the
    # document's language everywhere.
    paragraph_language: Callable[[str], str] | None = None

    def language_of(self, text: str) -> str:
        return self.paragraph_language(text) if self.paragraph_language else self.language

    def is_example(self, line: str) -> bool:
        return line.lstrip().startswith(self.examples)


ENGLISH = Layout("en", "Contents", "Glossary", "Credits",
                 frozenset({"Glossary", "Credits", "Questions?", "Customer Service Information"}),
                 ("Example",))


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
    return parse_layout(text, file, version, ENGLISH, FORMAT)


def parse_layout(text: str, file: str, version: str, layout: Layout,
                 format_name: str) -> ParseResult:
    """Parse a CR file of any language whose :class:`Layout` is known."""
    lines = text.split("\n")
    source_id = f"cr:{layout.language}:{version}"
    parser = _Parser(source_id, file, version, lines, layout)
    records = tuple(parser.run())
    title = lines[0].strip().replace("_", "") if lines else None
    return ParseResult(format_name, layout.language, version, records, title=title,
                       source_id=source_id,
                       problems=(*parser.problems, *_misread(lines, records)))


def _misread(lines: list[str], records: tuple[Record, ...]) -> list[str]:
    """A problem when most numbered lines were not read as rules (a body not found)."""
    numbered = sum(1 for line in lines if _SUBRULE.match(line))
    read = sum(1 for r in records if isinstance(r, Rule) and "." in r.number)
    if numbered and read < _MIN_READ * numbered:
        return [f"only {read} rules read from {numbered} numbered lines: the rules body was "
                "not recognized (see kb export --kind fragment)"]
    return []


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
    layout: Layout = ENGLISH
    unique: UniqueIds = field(default_factory=UniqueIds)
    problems: list[str] = field(default_factory=list)
    wrapped: bool = False
    inferred: set[str] = field(default_factory=set)  # numbers repaired from a typo

    def loc(self, index: int) -> Loc:
        return Loc(self.file, index + 1)


    def fragment(self, index: int, reason: str) -> Fragment:
        return self.unique.unparsed(self.source_id, self.loc(index), self.lines[index], reason)

    # -- document layout -------------------------------------------------------------------

    def run(self) -> Iterator[Record]:
        lines, layout = self.lines, self.layout
        contents = _find(lines, layout.contents, 0)
        if contents is None:
            yield from self.passage("introduction", 0, len(lines))
            return
        body = _body_start(lines, contents + 1, layout.back_matter)
        glossary = _find_last(lines, layout.glossary, body)
        credits = _find_last(lines, layout.credits,
                             glossary if glossary is not None else body)
        end_body = glossary if glossary is not None else (credits or len(lines))

        yield from self.passage("introduction", 0, contents)
        yield from self.toc(contents + 1, body)
        self.wrapped = _is_wrapped(lines[body:end_body], layout)
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
            self.layout.language,
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
            elif line in self.layout.back_matter:
                number, title = None, line
            else:
                yield self.fragment(i, "unrecognized line in the table of contents")
                continue
            yield TocEntry(
                self.unique(f"{self.source_id}:toc/{number or slug(title)}"),
                number,
                title,
                self.layout.language,
                self.version,
                self.loc(i),
            )

    # -- rules body ------------------------------------------------------------------------

    def body(self, start: int, stop: int) -> Iterator[Record]:
        current: _Open | None = None
        rule: _Open | None = None  # the rule examples attach to
        after_blank = True
        for i in range(start, stop):
            raw = self.lines[i]
            if not raw.strip():
                after_blank = True
                continue
            adjacent, after_blank = not after_blank and current is not None, False
            number, rest = self.rule_number(raw.strip(), i, rule)
            if number is not None and not (self.wrapped and adjacent and current is not None
                                           and _continues(current, rule, number)):
                if current:
                    yield self.close(current)
                current = rule = self.open_rule(number, rest, i)
            elif self.layout.is_example(raw):
                if current:
                    yield self.close(current)
                current = None
                if rule is None:
                    yield self.fragment(i, "example before any rule")
                    continue
                rule.ordinal += 1
                current = _Open("example", rule.number, i, [raw.strip()], ordinal=rule.ordinal,
                                rule_id=rule.rule_id)
            elif raw[:1].isspace() and current is not None:
                current.parts.append(raw.strip())
            elif self.wrapped and adjacent and current is not None:
                current.parts[-1] = _unwrap(current.parts[-1], raw.strip())
            else:
                if current:
                    yield self.close(current)
                current = None
                yield self.fragment(i, "line in the rules body that is neither rule nor example")
        if current:
            yield self.close(current)

    def rule_number(self, line: str, index: int,
                    previous: _Open | None) -> tuple[str | None, str]:
        """The rule number a body line starts with and the rest of the line, or (None, "").
        The two source typos are repaired, flagged (``inferred``) and reported."""
        m = _RULE_LINE.match(line)
        split = _SPLIT_NUMBER.match(line)
        if split and RuleNumber.try_parse(f"{split['head']}.{split['tail']}") is not None:
            number = f"{split['head']}.{split['tail']}"
            self.repaired(index, line[:len(split["head"]) + len(split["tail"]) + 2], number)
            return number, split["rest"]
        if m:
            number = m["num"] or m["head"]
            if RuleNumber.try_parse(number) is not None:
                return number, m["rest"]
            return None, ""
        letter = _LETTER_ONLY.match(line)
        if letter and previous is not None:
            base = re.sub(r"[a-z]+$", "", previous.number)
            number = f"{base}{letter['letter']}"
            if base.startswith(f"{letter['head']}.") and RuleNumber.try_parse(number):
                self.repaired(index, line.split()[0], number)
                return number, letter["rest"]
        return None, ""

    def repaired(self, index: int, written: str, number: str) -> None:
        self.problems.append(f"line {index + 1}: {written!r} read as rule {number} "
                             "(a typo in the source; the rule is flagged inferred)")
        self.inferred.add(number)

    def open_rule(self, number: str, rest: str, index: int) -> _Open:
        parsed = RuleNumber.parse(number)
        rest = rest.rstrip()
        rule_id = self.unique(f"{self.source_id}:{parsed}")
        is_title = parsed.depth <= 1 or (
            parsed.depth == 2 and len(rest) < 60 and not _ends_with_punctuation(rest)
        )
        if is_title:
            return _Open("rule", str(parsed), index, [rest], title=rest, rule_id=rule_id)
        return _Open("rule", str(parsed), index, [rest], rule_id=rule_id)

    def close(self, node: _Open) -> Record:
        text = "\n".join(node.parts)
        language = self.layout.language_of(text)
        if node.kind == "example":
            eid = self.unique(f"{node.rule_id}/ex{node.ordinal}")
            return Example(
                eid, node.number, node.ordinal, text, language, self.version,
                self.loc(node.line), citations=find_citations(eid, text),
            )
        parent = RuleNumber.parse(node.number).parent
        return Rule(
            node.rule_id,
            node.number,
            text,
            language,
            self.version,
            self.loc(node.line),
            title=node.title,
            parent=str(parent) if parent else None,
            citations=find_citations(node.rule_id, text),
            inferred=node.number in self.inferred,
            untranslated=language != self.layout.language,
        )

    # -- glossary --------------------------------------------------------------------------

    def glossary(self, start: int, stop: int) -> Iterator[Record]:
        block: list[int] = []
        for i in range(start, stop + 1):
            if i < stop and self.lines[i].strip():
                block.append(i)
                continue
            for entry in ([block] if self.wrapped else _entries(self.lines, block, self.layout)):
                yield from self.glossary_entry(entry)
            block = []

    def glossary_entry(self, block: list[int]) -> Iterator[Record]:
        if len(block) < 2:
            if block:
                yield self.fragment(block[0], "glossary line with no definition")
            return
        term = self.lines[block[0]].strip()
        paragraphs: list[str] = []
        for j in block[1:]:
            line = self.lines[j]
            if paragraphs and self.wrapped and not line[:1].isspace():
                paragraphs[-1] = _unwrap(paragraphs[-1], line.strip())
            else:
                paragraphs.append(line.strip())
        definition = "\n".join(paragraphs)
        gid = self.unique(f"{self.source_id}:glossary/{slug(term)}")
        yield GlossaryEntry(
            gid, term, definition, self.layout.language, self.version, self.loc(block[0]),
            citations=find_citations(gid, definition),
        )


def _find(lines: list[str], wanted: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == wanted), None)


def _find_last(lines: list[str], wanted: str | None, start: int) -> int | None:
    if wanted is None:
        return None
    return next(
        (i for i in range(len(lines) - 1, start - 1, -1) if lines[i].strip() == wanted), None
    )


def _body_start(lines: list[str], start: int, back_matter: frozenset[str]) -> int:
    """Where the rules body begins: the first numbered rule after the contents (``100.1.``),
    with the headings above it that are its ancestors (``1. The Game``, ``100. General``)."""
    first = next((i for i in range(start, len(lines)) if _SUBRULE.match(lines[i])), None)
    if first is None:
        return len(lines)
    number = RuleNumber.try_parse(lines[first].split()[0].rstrip("."))
    ancestors = {str(a) for a in number.ancestors()} if number else set()
    body = first
    for i in range(first - 1, start - 1, -1):
        line = lines[i].strip()
        m = _TOC_LINE.match(line)
        if m and m["num"] in ancestors:
            body = i
        elif m or line in back_matter:  # the contents: another chapter, Glossary, Credits
            break
    return body


def _is_wrapped(lines: list[str], layout: Layout) -> bool:
    """True for a hard-wrapped body: many lines neither rule nor example right after another
    non-blank line (wrapped text), where a file with one paragraph per line has none."""
    wrapped = 0
    for before, line in zip(lines, lines[1:], strict=False):
        text = line.strip()
        if before.strip() and text and not line[:1].isspace() and not (
            _RULE_LINE.match(text) or layout.is_example(text)
        ):
            wrapped += 1
    return wrapped >= max(10, _WRAPPED_SHARE * sum(1 for line in lines if line.strip()))


def _ends_with_punctuation(text: str) -> bool:
    """True when ``text`` ends with a punctuation mark of any script (". : ; , ) ” 。"), as a
    sentence does and a title does not; but an exclamation or a question mark can end a
    title (702.163 "For Mirrodin!")."""
    return (bool(text) and unicodedata.category(text[-1]) in ("Po", "Pe", "Pf")
            and text[-1] not in "!?！？")


def _continues(current: _Open, rule: _Open | None, number: str) -> bool:
    """In a hard-wrapped body, a number on the line right after a record continues it when
    the record's last line ends mid-sentence ("See rule" / "419.8 ...") or the number cannot
    come next ("-1/-" / "1 until end of turn.")."""
    if not _SENTENCE_END.search(current.parts[-1]):
        return True
    return rule is not None and sort_key(number) <= sort_key(rule.number)


def _unwrap(text: str, continuation: str) -> str:
    """A wrapped line joined to the text it continues: a space, none after a hyphen."""
    return text + continuation if text.endswith("-") else f"{text} {continuation}"


_TERM = re.compile(r"^[A-Z\"“][^.:;!?]{0,48}$")  # a short line with no sentence in it
_SENTENCE_END = re.compile(r"[.:;!?)\"”]$")


def _entries(lines: list[str], block: list[int], layout: Layout) -> Iterator[list[int]]:
    """A glossary block cut into entries where a term line follows a finished definition
    without the blank line that usually separates them (a glossary written without blank
    lines would otherwise become a few huge entries). A term is a short line without a
    sentence in it, after a line that ends one, and before a definition."""
    start = 0
    for k in range(2, len(block) - 1):
        line, before = lines[block[k]], lines[block[k - 1]].rstrip()
        if (not line[:1].isspace() and _TERM.match(line.rstrip())
                and not layout.is_example(line) and _SENTENCE_END.search(before)
                and k - start >= 2):
            yield block[start:k]
            start = k
    yield block[start:]
