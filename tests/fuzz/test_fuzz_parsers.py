"""Property-based fuzzing of every parser, from real documents damaged the ways scrapes are.

The properties are those of :mod:`tests.fuzz.properties` (no exception, determinism,
well-formed records, conservation of the text); the damage is :mod:`tests.fuzz.mutations`.
The number of examples comes from a hypothesis profile named by ``KB_FUZZ_PROFILE``: ``ci``
(the default: 40 per seed, the same ones every run, the whole module in about 10 s) or
``long`` (10,000 per seed, new ones every run; ``bench/fuzz_long.py`` runs 10,000 per parser
in parallel and reports figures). ``KB_FUZZ_EXAMPLES`` overrides the count.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings

from kb.model import kind_of
from kb.sources.registry import parser_for
from tests.conftest import REPO
from tests.fuzz.mutations import documents
from tests.fuzz.properties import check, ingest
from tests.fuzz.seeds import SEEDS, seed_text, shared_corpus_reason

# "ci" draws the same examples on every run, so that a failure is never a fluke of one run;
# "long" draws new ones each time (a failure prints the blob that replays it).
settings.register_profile("ci", max_examples=40, deadline=None, database=None,
                          derandomize=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, database=None,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])


def profile() -> settings:
    chosen = settings.get_profile(os.environ.get("KB_FUZZ_PROFILE", "ci"))
    examples = os.environ.get("KB_FUZZ_EXAMPLES")
    return settings(chosen, max_examples=int(examples)) if examples else chosen


def seed(name: str) -> str:
    text = seed_text(name)
    if text is None:
        pytest.skip(shared_corpus_reason())
    return text


@pytest.mark.parametrize("name", list(SEEDS))
def test_seed_is_read_whole_by_its_parser(name: str) -> None:
    """The seeds are good documents: the fuzzing starts from text its parser reads whole."""
    text = seed(name)
    expected_format, _ = SEEDS[name]
    assert expected_format == parser_for(text).FORMAT
    outcome = check(text.encode("utf-8"))
    assert "fragment" not in {kind_of(r) for r in outcome.result.records}


@pytest.mark.parametrize("name", list(SEEDS))
def test_damaged_documents_are_ingested_whole(name: str) -> None:
    @profile()
    @given(documents(seed(name)))
    def damaged(data: bytes) -> None:
        check(data)

    damaged()


@pytest.mark.parametrize("name", list(SEEDS))
def test_an_enormous_line_is_read_in_bounded_time(name: str) -> None:
    """A line of 300,000 characters (one of the seed's, repeated) in the middle of the seed:
    every stage stays about linear, where a quadratic pattern would take minutes."""
    lines = seed(name).split("\n")
    middle = len(lines) // 2
    unit = lines[middle] + " " if lines[middle].strip() else "word "
    huge = unit * (300_000 // len(unit))
    data = "\n".join([*lines[:middle], huge, *lines[middle:]]).encode()
    started = time.perf_counter()
    check(data)
    assert time.perf_counter() - started < 20


def _digest_of_seeds() -> str:
    """The records of every seed and of a damaged copy of each (half its lines), hashed."""
    digest = hashlib.sha256()
    for name in SEEDS:
        text = seed_text(name)
        if text is None:
            continue
        lines = text.split("\n")
        for data in (text.encode(), "\n".join(lines[::2]).encode("utf-16-le")):
            digest.update(repr(ingest(data).result).encode())
    return digest.hexdigest()


def test_records_do_not_depend_on_hash_randomization() -> None:
    """Parsers that iterated a set would give records in another order in another process."""
    code = "from tests.fuzz.test_fuzz_parsers import _digest_of_seeds; print(_digest_of_seeds())"
    digests = {
        subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                       env={**os.environ, "PYTHONHASHSEED": seed_value},
                       check=True).stdout
        for seed_value in ("1", "2")
    }
    assert len(digests) == 1
