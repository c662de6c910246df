"""kb's numbering table of every published version of the Comprehensive Rules
(kb/link/numbering.py, shipped as corpus/numbering/cr-en.tsv).

Facts from the shared corpus's SOURCES.md and read in the rules files: Fuse is "702.100. Fuse"
in the rules of 2013-05-01 (cr-archive/2013-04-29.txt.gz) and "702.102. Fuse" today
(MagicCompRules 20260417.txt); Echo is 702.27 in the rules of 2009-07-11 and 702.30 today; split
cards are "708. Split Cards" in 2013 and "709. Split Cards" today; 310 was "Phenomena" in 2013
and is "Battles" since 2023, another rule under the same number. The archive holds 105 files
(SOURCES.md), and the embedded corpus the rules of 2026-04-17: 106 versions.

The regeneration test is slow (the whole archive: about two minutes on two idle cores).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from kb.corpus import embedded_corpus
from kb.link.numbering import TABLE_PATH, NumberingTable, Run, TableSource, find_table, make_table

ARCHIVE = Path(os.environ.get("KB_CR_ARCHIVE")
               or Path(__file__).resolve().parents[3] / "shared" / "cr-archive")
SHIPPED = embedded_corpus() / TABLE_PATH


def archive_file(name: str) -> Path:
    path = ARCHIVE / name
    if not path.is_file():
        pytest.skip(f"no CR archive at {ARCHIVE}: set KB_CR_ARCHIVE")
    return path


@pytest.fixture(scope="module")
def shipped() -> NumberingTable:
    return NumberingTable.read(SHIPPED)


# -- the table as data ---------------------------------------------------------------------------


def small() -> NumberingTable:
    """Three versions: Fuse at 702.100, then 702.101, then 702.101 again; 702.100 Extort
    added in the second; 708.4 removed after the first."""
    sources = [TableSource(v, f"{v}.txt", "0" * 64, n) for v, n in
               (("2013-05-01", 3), ("2013-07-13", 3), ("2013-09-27", 3))]
    runs = [Run(0, 0, 0, "702.100", "Fuse"), Run(0, 1, 2, "702.101", "Fuse", "title", 1.0),
            Run(1, 0, 2, "708", "Split Cards"), Run(2, 0, 0, "708.4", None),
            Run(3, 1, 2, "702.100", "Extort")]
    return NumberingTable(sources, runs, {"date": "2026-01-01"})


def test_a_rule_is_followed_by_identity_not_by_number() -> None:
    table = small()
    assert table.trace("2013-05-01", "702.100") == {
        "2013-05-01": "702.100", "2013-07-13": "702.101", "2013-09-27": "702.101"}
    assert table.trace("2013-09-27", "702.100") == {"2013-07-13": "702.100",
                                                     "2013-09-27": "702.100"}
    assert table.title("2013-07-13", "702.100") == "Extort"
    assert not table.holds("2013-05-01", "702.101") and table.holds("2013-07-13", "702.101")
    followed = table.follow("2013-05-01", "702.100", "2013-09-27")
    assert followed is not None and followed.number == "702.101"
    assert followed.steps == (("title", "2013-07-13", 1.0),)
    assert table.follow("2013-05-01", "708.4", "2013-09-27") is None
    assert table.numbers("2013-05-01") == {"702.100", "708", "708.4"}
    assert list(table.renumbered()) == [("2013-05-01", "702.100", "2013-07-13", "702.101")]
    assert table.summary() == {"versions": 3, "first": "2013-05-01", "latest": "2013-09-27",
                               "rules": 4, "runs": 5, "renumberings": 1, "additions": 1,
                               "removals": 1}


def test_the_file_reads_back_as_written() -> None:
    table = small()
    out = io.StringIO()
    table.write(out)
    again = NumberingTable.parse(out.getvalue())
    assert again.sources == table.sources and again.runs == table.runs
    assert again.made == {"date": "2026-01-01"}
    assert "R\t0-0\t702.100\tFuse" in out.getvalue().splitlines()
    assert ">\t1-2\t702.101\tFuse\ttitle\t1" in out.getvalue().splitlines()


def test_a_damaged_line_is_named() -> None:
    with pytest.raises(ValueError, match="line 2"):
        NumberingTable.parse("V\t2013-05-01\tf\tsha\t1\nR\t0-5\t702.100\tFuse\n", "t")


def test_a_users_newer_table_wins(tmp_path: Path) -> None:
    newer = tmp_path / "mine"
    (newer / "numbering").mkdir(parents=True)
    (newer / TABLE_PATH).write_text("V\t2027-01-01\tf\tsha\t1\nR\t0-0\t100.1\t\n", "utf-8")
    assert find_table([embedded_corpus(), newer]) == newer / TABLE_PATH
    assert find_table([embedded_corpus(), tmp_path]) == SHIPPED


# -- the table shipped with kb -------------------------------------------------------------------


def test_the_shipped_table_holds_every_published_version(shipped: NumberingTable) -> None:
    assert len(shipped.versions) == 106
    assert (shipped.versions[0], shipped.versions[-1]) == ("2003-03-15", "2026-04-17")
    assert list(shipped.versions) == sorted(set(shipped.versions))
    assert shipped.made["kb"] and re.fullmatch(r"\d{4}-\d\d-\d\d", shipped.made["date"])
    assert SHIPPED.stat().st_size < 400_000  # runs of versions, not 106 copies


def test_the_renumberings_sources_md_names(shipped: NumberingTable) -> None:
    assert shipped.title("2013-05-01", "702.100") == "Fuse"
    assert shipped.follow("2013-05-01", "702.100", "2026-04-17").number == "702.102"
    assert shipped.title("2009-07-11", "702.27") == "Echo"
    assert shipped.follow("2009-07-11", "702.27", "2026-04-17").number == "702.30"
    assert shipped.title("2013-05-01", "708") == "Split Cards"
    assert shipped.follow("2013-05-01", "708", "2026-04-17").number == "709"
    assert shipped.title("2013-05-01", "310") == "Phenomena"
    assert shipped.title("2023-04-14", "310") == "Battles"
    assert "2013-05-01" not in shipped.trace("2023-04-14", "310")
    # The rules in force on 2013-03-21 (those of 2012-10-01) had no 702.100.
    assert not shipped.holds("2012-10-01", "702.100")


def test_the_shipped_sources_are_the_archives_files(shipped: NumberingTable) -> None:
    """Provenance: each version names its file and the sha256 of the document as kb reads it
    (decompressed); the archive's files have those hashes."""
    archive_file("2013-04-29.txt.gz")
    for source in shipped.sources:
        path = (ARCHIVE / source.file if (ARCHIVE / source.file).is_file()
                else embedded_corpus() / source.file)
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        assert hashlib.sha256(data).hexdigest() == source.sha256, source.file


# -- making it -----------------------------------------------------------------------------------


def test_two_archive_files_make_a_table_of_two_versions(tmp_path: Path) -> None:
    """2013-04-29.txt.gz has "702.100. Fuse"; 2013-07-11.txt.gz (the rules of 2013-07-13) has
    "702.100. Extort" and "702.101. Fuse"."""
    for name in ("2013-04-29.txt.gz", "2013-07-11.txt.gz"):
        (tmp_path / name).write_bytes(archive_file(name).read_bytes())
    (tmp_path / "notes.txt").write_text("not the rules\n", "utf-8")
    made = make_table([tmp_path])
    assert made.table.versions == ("2013-05-01", "2013-07-13")
    assert made.skipped == [("notes.txt", "not a Comprehensive Rules text file")]
    assert made.table.follow("2013-05-01", "702.100", "2013-07-13").number == "702.101"
    assert made.table.title("2013-07-13", "702.100") == "Extort"


HEADING = re.compile(r"^(\d{3}\.\d{1,3})\. (\S.*)$")


def headings(path: Path) -> dict[str, str]:
    """Number -> title of the numbered headings ("702.100. Fuse") of a rules file, read from
    its lines (the body's only: the contents list no rule of that form)."""
    from kb.text.decode import decode

    found: dict[str, str] = {}
    for line in decode(gzip.decompress(path.read_bytes())).text.split("\n"):
        m = HEADING.match(line.strip())
        if m:
            found.setdefault(m[1], m[2].strip())
    return found


@pytest.mark.slow
def test_regenerated_from_the_archive_it_is_the_shipped_table(shipped: NumberingTable) -> None:
    archive_file("2013-04-29.txt.gz")
    made = make_table([ARCHIVE, embedded_corpus()])
    assert made.table.sources == shipped.sources
    assert made.table.runs == shipped.runs
    # Every renumbering the files show by their headings: a title that is one heading's in
    # two consecutive files, at two numbers, is followed from the first to the second.
    files = {s.version: s.file for s in shipped.sources if s.file.endswith(".gz")}
    days = sorted(files)
    titled = {day: headings(ARCHIVE / files[day]) for day in days}
    checked = 0
    for old, new in zip(days, days[1:], strict=False):
        before = Counter(titled[old].values())
        after = {t: n for n, t in titled[new].items()}
        after_count = Counter(titled[new].values())
        for number, title in titled[old].items():
            if before[title] == 1 and after_count[title] == 1 and after[title] != number:
                followed = shipped.follow(old, number, new)
                assert followed is not None and followed.number == after[title], (
                    old, number, title, new)
                checked += 1
    assert checked > 100
