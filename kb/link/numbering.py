"""The published numbering of the Comprehensive Rules, as one small table that ships with kb.

A rule's number is not its identity: Fuse is 702.100 in the rules of 2013-05-01 and 702.102
today, Echo 702.27 in 2009 and 702.30 today, split cards 708 until 2021 and 709 since. A
document cites the numbers of its day. To read it against today's rules, kb must know every
published version's numbering, not only the versions whose texts happen to be indexed: the
default install holds today's rules alone.

The table holds, for every published version (its effective date, its file and that file's
sha256, its count of rules), every rule's number and heading title, and each rule's identity
across versions, as the build's matcher pairs consecutive versions
(:func:`kb.link.identity.compare_versions`). It is stored as *runs*: a rule keeps one number and
title through a run of consecutive versions; a renumbering or a new title starts its next run,
with how the matcher found it and its confidence. A hundred versions of 3,000 rules are some
10,000 runs, not 300,000 rows.

``kb numbering --from DIR`` makes it from a folder of rules files (the archive of every
version); ``corpus/numbering/cr-en.tsv`` is the table shipped with kb, found in any corpus
folder's ``numbering/`` (:data:`TABLE_PATH`). The file is text, one line per run::

    V  2013-05-01  2013-04-29.txt.gz  <sha256>  2063        a version (in order: positions 0..)
    R  42-59  702.100  Fuse                                 a rule's first run (versions 42..59)
    >  60-105  702.102  Fuse  moved  0.9                    its next run, and how it was found

This module reads, writes and makes the table; it answers which versions hold a number, with
what title, and where a rule of one version stands in another (:meth:`NumberingTable.trace`).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from importlib.metadata import version as package_version
from pathlib import Path

from kb.corpus import CorpusFile, Unreadable, discover, read_bytes
from kb.lineage import Counterpart, Lineage
from kb.link.identity import compare_versions, index_version
from kb.model import Rule
from kb.rulenum import sort_key
from kb.sources import cr_text
from kb.text.decode import decode

TABLE_PATH = Path("numbering") / "cr-en.tsv"  # inside a corpus folder
FORMAT = "kb numbering table 1"


@dataclass(frozen=True, slots=True)
class TableSource:
    """A published version of the rules, and the file the table read it from."""

    version: str  # effective date, read from the text
    file: str
    sha256: str  # of the document as kb reads it (decompressed)
    rules: int


@dataclass(frozen=True, slots=True)
class Run:
    """A rule's number and title through consecutive versions ``first..last`` (positions)."""

    rule: int  # which rule: runs of one rule share it, in version order
    first: int
    last: int
    number: str
    title: str | None
    how: str = ""  # how the matcher found this run from the rule's previous run ("" first)
    confidence: float = 1.0  # of that step


@dataclass(frozen=True, slots=True)
class Followed:
    """Where a rule of one version stands in another: the number there, and the steps taken
    on the way that changed its number or title (``how``, version, confidence)."""

    number: str
    steps: tuple[tuple[str, str, float], ...] = ()

    @property
    def confidence(self) -> float:
        return min((c for _, _, c in self.steps), default=1.0)


class NumberingTable:
    """Every published version's rule numbers and heading titles, and each rule's runs."""

    def __init__(self, sources: Sequence[TableSource], runs: Iterable[Run],
                 made: dict[str, str] | None = None) -> None:
        self.sources = tuple(sources)
        self.versions = tuple(s.version for s in self.sources)
        self.position = {v: i for i, v in enumerate(self.versions)}
        self.runs = tuple(runs)
        self.made = dict(made or {})
        self._by_number: dict[str, list[Run]] = defaultdict(list)
        self._of_rule: dict[int, list[Run]] = defaultdict(list)
        for run in self.runs:
            self._by_number[run.number].append(run)
            self._of_rule[run.rule].append(run)

    # -- reading ---------------------------------------------------------------------------

    def run_at(self, version: str, number: str) -> Run | None:
        """The run holding ``number`` in ``version``, or None when that version has no such
        rule (or is not in the table)."""
        at = self.position.get(version)
        if at is None:
            return None
        return next((r for r in self._by_number.get(number, ()) if r.first <= at <= r.last),
                    None)

    def holds(self, version: str, number: str) -> bool:
        return self.run_at(version, number) is not None

    def title(self, version: str, number: str) -> str | None:
        run = self.run_at(version, number)
        return run.title if run else None

    def numbers(self, version: str) -> set[str]:
        """Every rule number of ``version``."""
        at = self.position[version]
        return {r.number for r in self.runs if r.first <= at <= r.last}

    def trace(self, version: str, number: str) -> dict[str, str]:
        """The rule's number in every version that has it, oldest first; {} when ``version``
        has no rule ``number``."""
        run = self.run_at(version, number)
        if run is None:
            return {}
        return {self.versions[i]: r.number for r in self._of_rule[run.rule]
                for i in range(r.first, r.last + 1)}

    def follow(self, version: str, number: str, to: str) -> Followed | None:
        """Where rule ``number`` of ``version`` stands in version ``to`` (later or earlier),
        with the renumberings and retitlings between; None when it is not there (added
        after, or removed before, or not in the table)."""
        run, end = self.run_at(version, number), self.position.get(to)
        if run is None or end is None:
            return None
        start = self.position[version]
        low, high = min(start, end), max(start, end)
        runs = self._of_rule[run.rule]
        target = next((r for r in runs if r.first <= end <= r.last), None)
        if target is None:
            return None
        steps = tuple((r.how, self.versions[r.first], r.confidence) for r in runs
                      if r.how and low < r.first <= high)
        return Followed(target.number, steps)

    def renumbered(self) -> Iterator[tuple[str, str, str, str]]:
        """(old version, old number, new version, new number) of every renumbering."""
        for runs in self._of_rule.values():
            for before, after in zip(runs, runs[1:], strict=False):
                if before.number != after.number:
                    yield (self.versions[before.last], before.number,
                           self.versions[after.first], after.number)

    def summary(self) -> dict[str, object]:
        """Counts for people: versions, rules, renumberings, additions, removals."""
        starts = [runs[0] for runs in self._of_rule.values()]
        ends = [runs[-1] for runs in self._of_rule.values()]
        last = len(self.versions) - 1
        return {
            "versions": len(self.versions),
            "first": self.versions[0] if self.versions else None,
            "latest": self.versions[-1] if self.versions else None,
            "rules": len(self._of_rule),
            "runs": len(self.runs),
            "renumberings": sum(1 for _ in self.renumbered()),
            "additions": sum(1 for r in starts if r.first > 0),
            "removals": sum(1 for r in ends if r.last < last),
        }

    # -- the file --------------------------------------------------------------------------

    def lines(self) -> Iterator[str]:
        """The table as text lines (see the module docstring); ``made`` first, as comments
        that a reader keeps as provenance."""
        yield f"# {FORMAT}: the numbering of every published version of the Comprehensive Rules"
        yield "# (kb/link/numbering.py). Made by: kb numbering --from DIR --out FILE"
        for key, value in self.made.items():
            yield f"M\t{key}\t{_clean(value)}"
        yield "# V version file sha256 rules   (positions 0.. in this order)"
        for s in self.sources:
            yield f"V\t{s.version}\t{_clean(s.file)}\t{s.sha256}\t{s.rules}"
        yield "# R first-last number title   (a rule's first run)"
        yield "# > first-last number title how confidence   (its next run)"
        for runs in self._of_rule.values():
            for run in runs:
                head = f"{run.first}-{run.last}\t{run.number}\t{_clean(run.title or '')}"
                yield (f">\t{head}\t{run.how}\t{run.confidence:g}" if run.how
                       else f"R\t{head}")

    def write(self, handle) -> None:  # noqa: ANN001 - any text file object
        for line in self.lines():
            handle.write(line + "\n")

    @classmethod
    def read(cls, path: Path) -> NumberingTable:
        """The table in ``path``; a line it cannot read is an error naming the line."""
        return cls.parse(path.read_text(encoding="utf-8"), str(path))

    @classmethod
    def parse(cls, text: str, name: str = "numbering table") -> NumberingTable:
        sources: list[TableSource] = []
        runs: list[Run] = []
        made: dict[str, str] = {}
        rule = -1
        for n, line in enumerate(text.splitlines(), 1):
            if not line or line.startswith("#"):
                continue
            kind, *fields = line.split("\t")
            try:
                if kind == "M":
                    made[fields[0]] = fields[1]
                elif kind == "V":
                    sources.append(TableSource(fields[0], fields[1], fields[2], int(fields[3])))
                elif kind in ("R", ">"):
                    first, last = (int(p) for p in fields[0].split("-"))
                    rule += kind == "R"
                    how, confidence = (fields[3], float(fields[4])) if kind == ">" else ("", 1.0)
                    if rule < 0 or last >= len(sources) or first > last:
                        raise ValueError("a run outside the versions")
                    runs.append(Run(rule, first, last, fields[1], fields[2] or None, how,
                                    confidence))
                else:
                    raise ValueError(f"unknown line kind {kind!r}")
            except (IndexError, ValueError) as exc:
                raise ValueError(f"{name}: line {n}: {exc}") from exc
        return cls(sources, runs, made)


def _clean(text: str) -> str:
    return " ".join(text.split())


# -- finding the table -----------------------------------------------------------------------


def find_table(folders: Iterable[Path]) -> Path | None:
    """The numbering table of the corpus folders (``numbering/cr-en.tsv`` in any of them);
    of several, the one whose newest version is newest (a user's table made from newer files
    over the one shipped with kb), the first folder's on a tie."""
    best: tuple[str, Path] | None = None
    for folder in folders:
        path = folder / TABLE_PATH
        if not path.is_file():
            continue
        newest = _newest_version(path)
        if best is None or newest > best[0]:
            best = (newest, path)
    return best[1] if best else None


def _newest_version(path: Path) -> str:
    newest = ""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("V\t"):
                newest = max(newest, line.split("\t")[1])
            elif line.startswith(("R\t", ">\t")):
                break
    return newest


# -- making the table ------------------------------------------------------------------------


@dataclass
class Made:
    """A table made from rules files, and what was left out and why."""

    table: NumberingTable
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)


Progress = Callable[[list[CorpusFile]], Iterable[CorpusFile]]


def make_table(folders: Sequence[Path], progress: Progress | None = None,
               today: date | None = None) -> Made:
    """Read every Comprehensive Rules file of ``folders`` (gzip or not), order the versions
    by the effective date written in them, pair each version with the next one as the
    build's link stage does, and keep the runs. Files of another kind are skipped and
    named; of two files of one effective date, the first by name is kept."""
    skipped: list[tuple[str, str]] = []
    found: dict[str, tuple[CorpusFile, str]] = {}  # version -> (file, sha256)
    items: list[CorpusFile] = []
    for item in discover(list(folders)):
        if isinstance(item, Unreadable):
            skipped.append((str(item.path), item.reason))
        else:
            items.append(item)
    for item in (progress or _identity)(items):
        data = read_bytes(item.path)
        text = decode(data).text
        version = cr_text.effective_date(text) if cr_text.sniff(text) else None
        if version is None:
            skipped.append((item.display, "not a Comprehensive Rules text file"))
        elif version in found:
            skipped.append((item.display, f"the same effective date ({version}) as "
                                          f"{found[version][0].display}"))
        else:
            found[version] = (item, hashlib.sha256(data).hexdigest())
    sources: list[TableSource] = []
    numbers: dict[str, list[str]] = {}
    titles: dict[str, dict[str, str | None]] = {}
    matches: list[Counterpart] = []
    previous = None
    for version in sorted(found):
        item, sha = found[version]
        parsed = cr_text.parse(decode(read_bytes(item.path)).text, item.display)
        indexed = index_version([r for r in parsed.records if isinstance(r, Rule)])
        if previous is not None:
            matches += compare_versions(previous, indexed).matches
        numbers[version] = list(indexed.rules)
        titles[version] = {n: r.title for n, r in indexed.rules.items()}
        sources.append(TableSource(version, item.display, sha, len(indexed.rules)))
        previous = indexed
    made = {"date": (today or date.today()).isoformat(), "kb": package_version("kb"),
            "files": str(len(sources)),
            "from": ", ".join(sorted({str(f.name) for f in folders}))}
    return Made(NumberingTable(sources, _runs(Lineage.from_matches(numbers, matches), titles),
                               made), skipped)


def _identity(items: list[CorpusFile]) -> list[CorpusFile]:
    return items


def _runs(lineage: Lineage, titles: dict[str, dict[str, str | None]]) -> list[Run]:
    """Every rule's runs, rules in order of their first version then number."""
    versions = lineage.versions
    steps = {(m.new_version, m.new_number): m for d in lineage.diffs.values() for m in d.matches}
    out: list[Run] = []
    rule = 0
    for at, version in enumerate(versions):
        for number in sorted(lineage.numbers[version], key=sort_key):
            if (version, number) in lineage.backward:
                continue  # not the rule's first version
            current: Run | None = None
            for i, (day, n) in enumerate(_path(lineage, at, number)):
                title = titles[day].get(n)
                if current is not None and (n, title) == (current.number, current.title):
                    current = Run(rule, current.first, at + i, n, title, current.how,
                                  current.confidence)
                    out[-1] = current
                    continue
                step = steps.get((day, n)) if current is not None else None
                current = Run(rule, at + i, at + i, n, title, step.how if step else "",
                              step.confidence if step else 1.0)
                out.append(current)
            rule += 1
    return out


def _path(lineage: Lineage, at: int, number: str) -> Iterator[tuple[str, str]]:
    versions = lineage.versions
    for i in range(at, len(versions)):
        yield versions[i], number
        following = lineage.forward.get((versions[i], number))
        if following is None:
            return
        number = following
