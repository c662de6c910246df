"""A French Comprehensive Rules page scraped from an HTML table (the ``003_*`` seed).

The scrape wrote each table cell on its own line, ending with `` |``:

* the first row holds the whole table of contents run together on one line
  (``1. Concepts du jeu 100. Généralités 101. Règles d’or de Magic ... 905. Drafts Conspiracy |``);
* then every row is a number cell (``707.2a |``, or a bare ``|`` when the cell is empty)
  followed by a text cell: a rule paragraph, or an example (``Exemple : ...``) that belongs to
  the rule above it.

**Lost numbers.** The scrape kept lettered numbers (``707.2a``) but lost every number written
with a final period (``707.3.``), so some rule paragraphs come with an empty number cell. Their
number is inferred from position: among the numbers strictly between the known numbers before
and after, the parser picks the sequence that skips the fewest numbers the Comprehensive Rules
would have (a lettered subrule always follows its parent; letters skip ``l`` and ``o``), and on a
tie the one with fewer lettered numbers, since lettered numbers are the ones the scrape kept.
The result is a ``Rule`` with ``inferred=True``; a paragraph with no unique best number, or in
a run of more than :data:`MAX_GAP` unnumbered paragraphs (a damaged page, not this scrape's
loss), is a ``Fragment``. In this seed the unnumbered paragraphs are 707.1-707.14 (all depth
two), which the English rules confirm; 707.9a (Quirion Elves) is absent from the page. A number
cell followed by an example, not a rule, is kept as a ``Fragment``.

**Language.** Paragraphs the translators left in English become records with language ``en``
(rules also get ``untranslated=True``); the document's language is ``fr``.

**Version.** The page names no date. Its contents list rules 719 Case Cards and 725 Rad Counters
(added by the February 2024 update) and still calls 308 "Tribal" (renamed Kindred in June 2024);
its English leftovers say "transforming double-faced" and "enters the battlefield", wording
replaced later in 2024. So it is the French counterpart of an early-2024 English CR: version
``2024``, ids ``cr:fr:2024:707.2a``.

**Stripped mana symbols.** The scrape dropped the symbol images, leaving double spaces,
"« :" or a space before closing punctuation; :func:`stripped_symbols` lists those places.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from kb.link.citations import find_citations
from kb.model import Example, Fragment, Loc, ParseResult, Record, Rule, TocEntry
from kb.rulenum import RuleNumber
from kb.sources.ids import UniqueIds
from kb.text.language import detect

FORMAT = "cr_table"
LANGUAGE = "fr"
VERSION = "2024"
SOURCE_ID = f"cr:{LANGUAGE}:{VERSION}"

_NUMBER_CELL = re.compile(r"^\s*(?P<num>\d{3}(?:\.\d{1,3}[a-z]{0,2})?|[1-9])?\.?\s*\|\s*$")
_CELL_END = re.compile(r"\s*\|\s*$")
_TOC_ITEM = re.compile(r"(?:^|(?<=\s))(?P<num>\d{3}|[1-9])\.\s+")
_EXAMPLE = re.compile(r"^(?:Exemple|Example)\s*:\s*")
_TITLE_END = re.compile(r"[.:;,)\"”»]$")
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # subrule letters: the CR skips "l" and "o"



def sniff(text: str) -> bool:
    """True for the table scrape: nearly every line is a cell ending with ``|`` and some are
    number cells."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 3:
        return False
    cells = sum(1 for line in lines if line.rstrip().endswith("|"))
    numbers = sum(1 for line in lines if _NUMBER_CELL.match(line))
    return cells >= 0.8 * len(lines) and numbers >= 2


def language(text: str) -> str:
    """"fr" or "en" (the languages of this page); "und" when the paragraph gives no evidence."""
    lang = detect(text)
    return lang if lang in ("fr", "en") else "und"


def cell_text(line: str) -> str:
    """A text cell without its `` |`` delimiter."""
    return _CELL_END.sub("", line).strip()


# -- rows ------------------------------------------------------------------------------------


@dataclass
class _Paragraph:
    """A text cell and the number cell that preceded it (None when empty or absent)."""

    line: int  # 0-based index of the text cell
    text: str
    number: RuleNumber | None
    number_line: int | None = None
    dangling: bool = False  # a number cell with no text cell: kept as a fragment


    @property
    def is_example(self) -> bool:
        return _EXAMPLE.match(self.text) is not None


def parse(text: str, file: str) -> ParseResult:
    """Parse the decoded text of a table scrape."""
    lines = text.split("\n")
    parser = _Parser(file, lines)
    records = tuple(parser.run())
    return ParseResult(FORMAT, LANGUAGE, VERSION, records, source_id=SOURCE_ID)


@dataclass
class _Parser:
    file: str
    lines: list[str]
    unique: UniqueIds = field(default_factory=UniqueIds)

    def loc(self, index: int) -> Loc:
        return Loc(self.file, index + 1)


    def fragment(self, index: int, text: str, reason: str) -> Fragment:
        return self.unique.unparsed(SOURCE_ID, self.loc(index), text, reason)

    def run(self) -> Iterator[Record]:
        paragraphs: list[_Paragraph] = []
        for item in self.rows():
            if not paragraphs and not item.number and (toc := split_toc(item.text)):
                yield from self.toc(item.line, toc)
            else:
                paragraphs.append(item)
        yield from self.body(paragraphs)

    def rows(self) -> Iterator[_Paragraph]:
        """Pair each text cell with the number cell before it."""
        pending: tuple[int, RuleNumber | None] | None = None
        for i, raw in enumerate(self.lines):
            if not raw.strip():
                continue
            m = _NUMBER_CELL.match(raw)
            if m:
                if pending is not None and pending[1] is not None:
                    yield self.dangling(*pending)
                number = RuleNumber.try_parse(m["num"]) if m["num"] else None
                pending = (i, number)
                continue
            number = pending[1] if pending else None
            number_line = pending[0] if pending and number else None
            pending = None
            yield _Paragraph(i, cell_text(raw), number, number_line)
        if pending is not None and pending[1] is not None:
            yield self.dangling(*pending)

    def dangling(self, index: int, number: RuleNumber) -> _Paragraph:
        """A number cell with no text: still an anchor for the numbers lost around it."""
        return _Paragraph(index, cell_text(self.lines[index]), number, index, dangling=True)

    def toc(self, index: int, entries: list[tuple[str, str]]) -> Iterator[TocEntry]:
        for number, title in entries:
            yield TocEntry(
                self.unique(f"{SOURCE_ID}:toc/{number}"),
                number,
                title,
                LANGUAGE,
                VERSION,
                self.loc(index),
            )

    def body(self, paragraphs: list[_Paragraph]) -> Iterator[Record]:
        rules = [p for p in paragraphs if not p.is_example]
        numbers, inferred = infer_numbers([p.number for p in rules])
        number_of = {id(p): (n, inf) for p, n, inf in zip(rules, numbers, inferred, strict=True)}
        rule_id: str | None = None
        rule_number: str | None = None
        ordinal = 0
        for p in paragraphs:
            if p.is_example:
                if p.number_line is not None:
                    yield self.fragment(p.number_line, cell_text(self.lines[p.number_line]),
                                        "number cell followed by an example, not a rule")
                if rule_id is None or rule_number is None:
                    yield self.fragment(p.line, p.text, "example with no numbered rule above it")
                    continue
                ordinal += 1
                yield self.example(p, rule_id, rule_number, ordinal)
                continue
            number, was_inferred = number_of[id(p)]
            ordinal = 0
            if p.dangling:
                rule_id = rule_number = None
                yield self.fragment(p.line, p.text, "number cell with no text cell")
                continue
            if number is None:
                rule_id = rule_number = None
                yield self.fragment(p.line, p.text, "paragraph whose lost number cannot be "
                                    "inferred from its neighbours")
                continue
            rule = self.rule(p, number, was_inferred)
            rule_id, rule_number = rule.id, rule.number
            yield rule

    def rule(self, p: _Paragraph, number: RuleNumber, was_inferred: bool) -> Rule:
        rid = self.unique(f"{SOURCE_ID}:{number}")
        lang = language(p.text)
        lang = LANGUAGE if lang == "und" else lang
        is_title = number.depth <= 1 or (
            number.depth == 2 and len(p.text) < 60 and not _TITLE_END.search(p.text)
        )
        parent = number.parent
        return Rule(
            rid,
            str(number),
            p.text,
            lang,
            VERSION,
            self.loc(p.line if p.number_line is None else p.number_line),
            title=p.text if is_title else None,
            parent=str(parent) if parent else None,
            citations=find_citations(rid, p.text),
            inferred=was_inferred,
            untranslated=lang != LANGUAGE,
        )

    def example(self, p: _Paragraph, rule_id: str, rule_number: str, ordinal: int) -> Example:
        eid = self.unique(f"{rule_id}/ex{ordinal}")
        lang = language(_EXAMPLE.sub("", p.text))
        return Example(
            eid,
            rule_number,
            ordinal,
            p.text,
            LANGUAGE if lang == "und" else lang,
            VERSION,
            self.loc(p.line),
            citations=find_citations(eid, p.text),
        )


# -- table of contents -----------------------------------------------------------------------


def split_toc(text: str) -> list[tuple[str, str]] | None:
    """Split a contents line run together ("1. Concepts du jeu 100. Généralités ...") into
    (number, title) pairs; None unless it starts with an item and holds at least three.

    A "N. " inside a title is taken as the start of an item only if N comes after the
    previous item's number, so the pairs always run in rules order.
    """
    starts: list[tuple[int, int, str]] = []  # (start of "N. ", start of title, number)
    last: RuleNumber | None = None
    for m in _TOC_ITEM.finditer(text):
        number = RuleNumber.parse(m["num"])
        if last is None or last < number:
            starts.append((m.start(), m.end(), m["num"]))
            last = number
    if len(starts) < 3 or starts[0][0] != 0:
        return None
    ends = [s[0] for s in starts[1:]] + [len(text)]
    return [(num, text[begin:end].strip()) for (_, begin, num), end in zip(starts, ends,
                                                                            strict=True)]


# -- lost numbers ----------------------------------------------------------------------------


def letter_index(letter: str) -> int:
    """1 for "a", 11 for "m" (after "k", since "l" is skipped), 25 for "aa"."""
    index = 0
    for ch in letter:
        if ch not in LETTERS:
            raise ValueError(f"not a subrule letter: {letter!r}")
        index = index * len(LETTERS) + LETTERS.index(ch) + 1
    return index


def _letter_index(letter: str) -> int | None:
    """:func:`letter_index`, or None for letters the rules never print (``l``, ``o``): a
    document may write them, but such a number anchors no inference."""
    try:
        return letter_index(letter)
    except ValueError:
        return None


def letter_at(index: int) -> str:
    out = ""
    while index > 0:
        index, rest = divmod(index - 1, len(LETTERS))
        out = LETTERS[rest] + out
    return out


def skipped_between(a: RuleNumber, b: RuleNumber) -> int | None:
    """How many numbers the rules would print between ``a`` and ``b`` (None: b cannot follow
    a, e.g. a lettered subrule whose parent is missing). Letters after ``a`` are unknowable
    and not counted: 707.2c is followed by 707.3 at no cost."""
    if not a < b:
        return None
    if b.depth <= 1:
        return 0
    if b.depth == 2:
        same_rule = a.rule == b.rule and a.sub is not None
        return b.sub - (a.sub if same_rule else 0) - 1
    parent, index = b.parent, _letter_index(b.letter)
    if index is None:
        return None
    if a == parent:
        return index - 1
    if a.parent == parent and (before := _letter_index(a.letter)) is not None:
        return index - before - 1
    return None


def infer_numbers(
    numbers: list[RuleNumber | None],
) -> tuple[list[RuleNumber | None], list[bool]]:
    """Fill the ``None`` entries of a sequence of rule numbers from their neighbours.

    Returns the completed numbers (``None`` where no unique best number exists) and, for each,
    whether it was inferred.
    """
    out = list(numbers)
    inferred = [False] * len(numbers)
    i = 0
    while i < len(numbers):
        if numbers[i] is not None:
            i += 1
            continue
        j = i
        while j < len(numbers) and numbers[j] is None:
            j += 1
        prev = numbers[i - 1] if i > 0 else None
        after = numbers[j] if j < len(numbers) else None
        filled = _fill_gap(prev, after, j - i)
        if filled is not None:
            out[i:j] = filled
            inferred[i:j] = [True] * (j - i)
        i = j
    return out, inferred


# Runs of lost numbers longer than this stay fragments: the search grows as the cube of the
# run's length, and a run this long is a damaged page rather than the scrape's usual loss.
MAX_GAP = 30

# The best paths found to a number: (numbers skipped, lettered numbers used, how many paths
# share that cost, the number before on the best one, meaningful only when it is the only one).
_Paths = tuple[int, int, int, int]


def _better(best: _Paths | None, new: _Paths) -> _Paths:
    """Keep the cheaper paths; on a tie, count both."""
    if best is None or new[:2] < best[:2]:
        return new
    if new[:2] == best[:2]:
        return best[0], best[1], best[2] + new[2], best[3]
    return best


def _fill_gap(
    prev: RuleNumber | None, after: RuleNumber | None, count: int
) -> list[RuleNumber] | None:
    """The one cheapest sequence of ``count`` numbers between ``prev`` and ``after``, or None.

    Dynamic programming over the numbers in rules order, ``nodes[0]`` being the start and the
    rest the candidates: ``layers[k][i]`` holds the best paths of ``k`` picks ending at node
    ``i``."""
    anchor = prev or after
    if anchor is None or anchor.rule is None or count > MAX_GAP:
        return None
    start = prev or RuleNumber(anchor.section, anchor.rule)  # a gap at the top of a rule
    nodes = [start, *_candidates(start, after, count)]
    steps = _Steps(nodes)
    layers: list[list[_Paths | None]] = [[(0, 0, 1, -1)] + [None] * (len(nodes) - 1)]
    for _ in range(count):
        layers.append(steps.next_layer(layers[-1]))
    end: _Paths | None = None
    for i, paths in enumerate(layers[-1]):
        skip = 0 if after is None else skipped_between(nodes[i], after)
        if paths is not None and skip is not None:
            end = _better(end, (paths[0] + skip, paths[1], paths[2], i))
    if end is None or end[2] != 1:
        return None
    chosen: list[RuleNumber] = []
    i = end[3]
    for layer in reversed(layers[1:]):
        chosen.append(nodes[i])
        i = layer[i][3]  # type: ignore[index]
    return chosen[::-1]


class _Steps:
    """The cost of a step to each node, by what it depends on.

    A step to a subrule costs the sub numbers it skips, so it depends on the previous node only
    through its rule and sub; a step to a lettered subrule comes from its parent or an earlier
    sibling and costs the letters it skips (see :func:`skipped_between`). So a layer is built
    in one pass over the nodes in order, keeping running bests of the nodes before: per rule
    by ``cost - sub``, per rule by cost, over nodes without a sub, and per parent by
    ``cost - letter index``."""

    def __init__(self, nodes: list[RuleNumber]) -> None:
        self.nodes = nodes
        index = {n: i for i, n in enumerate(nodes)}
        # For a lettered node: its letter's index, and its parent's node (-1 if none).
        self.letter = [_letter_index(n.letter) if n.depth == 3 else None for n in nodes]
        self.parent = [index.get(n.parent, -1) if n.depth == 3 else -1 for n in nodes]

    def next_layer(self, previous: list[_Paths | None]) -> list[_Paths | None]:
        nodes, out = self.nodes, [None] * len(self.nodes)
        by_sub: dict[int | None, _Paths] = {}
        by_rule: dict[int | None, _Paths] = {}
        no_sub: _Paths | None = None
        by_letter: dict[RuleNumber | None, _Paths] = {}
        for i in range(1, len(nodes)):
            p, paths = nodes[i - 1], previous[i - 1]  # every node before i is now known
            if paths is not None:
                skip, lettered, ways = paths[:3]
                if p.sub is None:
                    no_sub = _better(no_sub, (skip, lettered, ways, i - 1))
                else:
                    by_sub[p.rule] = _better(by_sub.get(p.rule), (skip - p.sub, lettered, ways,
                                                                   i - 1))
                    by_rule[p.rule] = _better(by_rule.get(p.rule), (skip, lettered, ways, i - 1))
                if (letter := self.letter[i - 1]) is not None:
                    by_letter[p.parent] = _better(by_letter.get(p.parent),
                                                  (skip - letter, lettered, ways, i - 1))
            c = nodes[i]
            best: _Paths | None = None
            if c.depth == 2:
                options = [by_sub.get(c.rule), no_sub,
                           *(v for rule, v in by_rule.items() if rule != c.rule)]
                for o in options:
                    if o is not None:
                        best = _better(best, (o[0] + c.sub - 1, o[1], o[2], o[3]))
            elif (letter := self.letter[i]) is not None:
                parent = self.parent[i]
                from_parent = previous[parent] if parent >= 0 else None
                if from_parent is not None:
                    best = (from_parent[0] + letter - 1, from_parent[1] + 1, from_parent[2],
                            parent)
                if (o := by_letter.get(c.parent)) is not None:
                    best = _better(best, (o[0] + letter - 1, o[1] + 1, o[2], o[3]))
            out[i] = best
        return out


def _candidates(start: RuleNumber, after: RuleNumber | None, count: int) -> list[RuleNumber]:
    """The numbers a gap of ``count`` paragraphs could hold, in rules order."""
    out: set[RuleNumber] = set()
    rules = {start.rule} | ({after.rule} if after is not None and after.rule else set())
    for rule in rules:
        section = rule // 100
        low = (start.sub or 1) if rule == start.rule else 1  # lower subs come before start
        for sub in range(low, (start.sub or 0) + count + 2):
            base = RuleNumber(section, rule, sub)
            out.add(base)
            out.update(base.with_letter(letter_at(n)) for n in range(1, count + 2 + _known(
                base, start, after)))
    if after is not None:
        for sub in range(1, (after.sub or 0) + 1):
            out.add(RuleNumber(after.section, after.rule, sub))
    return sorted(c for c in out if start < c and (after is None or c < after))


def _known(base: RuleNumber, start: RuleNumber, after: RuleNumber | None) -> int:
    """The highest letter index known under ``base`` from the gap's ends."""
    found = [n for n in (start, after) if n is not None and n.depth == 3 and n.parent == base]
    return max((_letter_index(n.letter) or 0 for n in found), default=0)


# -- stripped symbols ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SymbolGap:
    """A place where the scrape seems to have dropped a mana symbol image."""

    line: int  # 1-based
    column: int  # 1-based, in the line
    rule: str | None  # number of the rule the paragraph is (or whose example it is)
    pattern: str  # which clue matched
    context: str  # some text around the gap


_GAP_PATTERNS = (
    ("double space", re.compile(r"(?<=\S) {2,}(?=\S)")),
    # (not an English ellipsis: "as . . . enters")
    ("space before closing punctuation", re.compile(r"(?<=\w) (?=\)|[.,;](?! ?\.))")),
    ("quote opens on a colon", re.compile(r"[«“\"]\s*:")),
    ("unbalanced brace", re.compile(r"\{[^}]*$|^[^{]*\}")),
    ("« si a » with no subject", re.compile(r"\bsi a\b")),
)


def stripped_symbols(text: str) -> list[SymbolGap]:
    """Where mana symbols seem stripped from the paragraphs, to compare with the English."""
    rule_at: dict[int, str] = {}
    for record in parse(text, "").records:
        if isinstance(record, Rule):
            rule_at[record.loc.line] = record.number
        elif isinstance(record, Example):
            rule_at[record.loc.line] = record.rule
    gaps: list[SymbolGap] = []
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        line = cell_text(raw)
        if not line or _NUMBER_CELL.match(raw):
            continue
        number = rule_at.get(i + 1) or rule_at.get(i)  # a rule's Loc is its number cell
        for name, pattern in _GAP_PATTERNS:
            for m in pattern.finditer(line):
                context = line[max(0, m.start() - 30): m.end() + 30]
                gaps.append(SymbolGap(i + 1, m.start() + 1, number, name, context))
    return sorted(gaps, key=lambda g: (g.line, g.column))
