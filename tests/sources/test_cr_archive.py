"""Every Comprehensive Rules version of the shared archive (``../shared/cr-archive``, 105 files,
2003-2026) parses to the rules, examples and glossary entries a plain count of its lines finds.

Slow (about a minute on two idle cores): marked ``slow`` and skipped unless ``KB_SLOW=1`` or
``-m slow`` is given (see ``tests/conftest.py``). The archive is found at ``$KB_CR_ARCHIVE``,
else beside the checkout's parent as ``shared/cr-archive``.

The counts below are written from the files' layout, not from kb's parser:

* the rules body runs from the second line that starts with ``1.`` (the first is the contents'
  first chapter) to the last line that says ``Glossary``; the glossary from there to the last
  ``Credits``;
* a rule is a body line that starts, after any spaces, with a rule number: ``1.``, ``100.``,
  ``100.1``, ``100.1a`` (and the typos ``606. 8b``, ``306.b``, ``901.4.All``); in a
  hard-wrapped file (a PDF extract, where text lines follow each other) only after a blank
  line, as a paragraph starts;
* an example is a body line that starts with ``Example``;
* a glossary entry is a term: a line not indented, with a definition line after it, after a
  blank line or (a glossary missing its blank line) a short line without a sentence in it
  after a line that ends one.
"""

from __future__ import annotations

import gzip
import os
import re
from collections import Counter
from pathlib import Path

import pytest

from kb.lineage import Lineage
from kb.link.identity import build_lineage
from kb.model import Example, Fragment, GlossaryEntry, Rule
from kb.sources import cr_text
from kb.text.decode import decode

pytestmark = pytest.mark.slow

ARCHIVE = Path(os.environ.get("KB_CR_ARCHIVE")
               or Path(__file__).resolve().parents[3] / "shared" / "cr-archive")
FILES = sorted(ARCHIVE.glob("*.txt.gz")) if ARCHIVE.is_dir() else []

_RULE = re.compile(r"^\s*(?:\d{3}\.\d{1,3}[a-z]{0,2}\.?|\d{3}\.[a-z]?|\d\.)(?:\s+\S|[A-Z])")
_FINISHED = re.compile(r"[.:;!?)\"”]\s*$")


def text_of(path: Path) -> str:
    return decode(gzip.decompress(path.read_bytes())).text


def plain_counts(text: str) -> dict[str, int]:
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("1.")]
    glossary = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    credits = max(i for i, line in enumerate(lines) if line.strip() == "Credits")
    body = range(starts[1], glossary)
    wrapped = sum(1 for i in body if lines[i].strip() and lines[i - 1].strip()) > len(body) / 4
    rules = sum(1 for i in body if _RULE.match(lines[i])
                and not (wrapped and lines[i - 1].strip()))
    examples = sum(1 for i in body if lines[i].lstrip().startswith("Example"))
    terms = 0
    for i in range(glossary + 1, credits):
        line, before, after = lines[i], lines[i - 1].rstrip(), lines[i + 1]
        term = line.strip() and not line[0].isspace() and after.strip()
        if term and (not before or (re.search(r"\.[\"”]?$", before) and len(line.strip()) < 50
                                    and not _FINISHED.search(line))):
            terms += 1
    return {"rule": rules, "example": examples, "glossary": terms}


def kb_counts(records) -> dict[str, int]:
    kinds = Counter(type(r) for r in records)
    return {"rule": kinds[Rule], "example": kinds[Example], "glossary": kinds[GlossaryEntry]}


@pytest.fixture(scope="module")
def parsed():
    if not FILES:
        pytest.skip(f"no CR archive at {ARCHIVE}: set KB_CR_ARCHIVE")
    return {path.name: cr_text.parse(text_of(path), path.name) for path in FILES}


def test_the_archive_holds_105_versions(parsed):
    assert len(parsed) == 105


@pytest.mark.parametrize("path", FILES, ids=[p.name.split(".")[0] for p in FILES])
def test_counts_match_a_plain_count_of_the_lines(path, parsed):
    result = parsed[path.name]
    assert kb_counts(result.records) == plain_counts(text_of(path))
    # At most one stray line in a body (2003-03-15 line 755, 2021-11-15 line 4540: "f").
    body = [r for r in result.records if isinstance(r, Fragment) and "rules body" in r.reason]
    assert len(body) <= 1, body


@pytest.fixture(scope="module")
def lineage(parsed) -> Lineage:
    versions: dict[str, list[Rule]] = {}
    for result in parsed.values():  # 2006-06-01 repeats the 2004-06-01 rules: one version
        versions.setdefault(result.version, [r for r in result.records if isinstance(r, Rule)])
    return build_lineage(versions)


def test_trample_runs_back_through_the_magic_2010_rewrite_to_502_9(lineage):
    """Trample is 702.19 today, 702.17 in the Magic 2010 rewrite (2009-07-11) and 502.9
    before it, back to the oldest version."""
    trace = lineage.trace(lineage.versions[-1], "702.19")
    assert trace["2009-07-11"] == "702.17"
    assert trace["2009-05-01"] == trace["2003-03-15"] == "502.9"
    assert len(trace) == len(lineage.versions)


def test_the_layer_rule_418_5a_is_613_1_today(lineage):
    """418.5a (2003-10-01 to 2009-05-01, the whole layer list) became 612.1 in the rewrite
    (its list split into 612.1a-g) and 613.1 from 2009-10-01."""
    trace = lineage.trace("2009-05-01", "418.5a")
    assert trace["2003-10-01"] == "418.5a"
    assert trace["2009-07-11"] == "612.1"
    assert trace["2009-10-01"] == trace[lineage.versions[-1]] == "613.1"
