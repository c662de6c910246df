"""Search: quality on players' real questions and speed, kb beside SQLite FTS5 bm25.

One run, one index (the embedded corpus and the shared corpus), measured three ways:

- kb through the CLI path (``kb.api.search``: a new ``Searcher`` per query, as ``kb search``
  opens one), kb through one warm ``Searcher``, and, as the plain baseline, an FTS5 table
  (unicode61 tokenizer, diacritics removed, bm25) of the records kb answers rules questions
  from: today's English rules and examples and every text of a rule or example in another
  language (the French pages), filled from kb's own store; a query is its words ORed.
- kb with each of its mechanisms switched off in turn (kb.mechanisms), through a warm
  ``Searcher``: what each one adds, on the same questions.
- hit@1, hit@3 and MRR@10 over answers (a rule's texts in every language are one answer;
  FTS5's records are folded the same way, to today's rule number), for each of {whole
  question, key words} x {en, fr} on the development half, the held-out half and the held-out
  questions French players wrote (tests/search/players/, split by source); a question kb
  refuses counts as a miss and is counted.
- the held-out key words again with one typo each (:func:`mistyped`), kb with and without its
  typo correction beside FTS5: players' own questions hold too few typos to tell.
- the answers among the first three that are texts of a third language only, neither the
  query's nor English (:func:`foreign_answers`): false friends, which hit@k does not see.

Speed, in the same run: warm p50 and p95 on the held-out half's queries beside FTS5 (repeated,
and each seen once after a warm-up on the dev half), a 40-word question warm, a cold ``kb
search`` of a word and of that question in a new process beside a cold FTS5 process;
the relevance set's hit@3 is printed as the regression check. Figures are medians and
ratios, so that machine noise cancels out.

Semantic ranking (kb.index.semantic) is measured when the index was built with a sentence
model (``--model DIR``, or ``--index`` of an index built with ``kb build --model``); without
one, "kb without semantic" is kb.

Run: ``python bench/bench_search.py [--builds 3] [--rounds 5] [--index DIR] [--model DIR]
[--misses F]``; ``--index`` measures an index already built (no build timing).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kb import api  # noqa: E402
from kb.build import build  # noqa: E402
from kb.corpus import embedded_corpus  # noqa: E402
from kb.errors import KbError  # noqa: E402
from kb.indexdir import STORE_FILE, IndexDir  # noqa: E402
from kb.mechanisms import ALL, Mechanisms  # noqa: E402
from kb.search import Searcher  # noqa: E402
from kb.store import Store, record_number, record_text, record_title  # noqa: E402
from tests.search import players, relevance  # noqa: E402
from tests.search.players import FORMS, LANGS, Question  # noqa: E402

SHARED = Path(os.environ.get("KB_SHARED_CORPUS", REPO.parent / "shared" / "corpus"))
KB = Path(sys.executable).with_name("kb")
COLD_QUERY = "piétinement"
# A whole question of 40 words, as pasted from a forum (the bound: 100 ms warm).
LONG_QUESTION = (
    "when a creature with first strike and trample attacks and is blocked by a creature with "
    "deathtouch and lifelink what happens to the damage dealt to the defending player and the "
    "creatures that are blocking it in the combat damage step")
FTS_POOL = 50  # FTS5 rows read to make ten distinct answers
VARIANTS = [(form, lang) for form in FORMS for lang in LANGS]
# The kinds of record FTS5 holds: the rules and their examples, in every language.
FTS_KINDS = ("rule", "example")
# About half the held-out half is players' bug reports to one engine, worded as reports, not
# questions: the held-out figures are printed with and without that source.
BUG_REPORTS = "XMage issue tracker"


@dataclass(frozen=True, slots=True)
class Outcome:
    question: Question
    form: str
    lang: str
    rank: int | None
    refused: bool
    got: tuple[str, ...]  # the first three answers, for the misses file


# -- FTS5 ------------------------------------------------------------------------------------

def fts_build(store_path: Path, target: Path) -> float:
    """The FTS5 table of today's English rules and examples and the other languages' rule and
    example texts, each row with the number of the rule it answers today (a French page's
    707.2a is today's rule its "current" link names)."""
    started = time.perf_counter()
    conn = sqlite3.connect(target)
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, rule UNINDEXED, body,"
                 " tokenize='unicode61 remove_diacritics 2')")
    store = Store.open(store_path)
    latest = store.versions()[-1]
    rows = []
    for kind in FTS_KINDS:
        for record in store.query(kind=kind):
            language, version = record.language, getattr(record, "version", None)
            if language == "en" and version != latest:
                continue  # kb searches today's English rules by default
            body = f"{record_title(record) or ''} {record_text(record)}"
            rows.append((record.id, _today(store, record, latest), body))
    conn.executemany("INSERT INTO docs VALUES (?, ?, ?)", rows)
    store.close()
    conn.commit()
    conn.close()
    return time.perf_counter() - started


def _today(store: Store, record: object, latest: str) -> str:
    number = record_number(record) or ""  # type: ignore[arg-type]
    if getattr(record, "version", None) == latest and getattr(record, "language", "") == "en":
        return number
    rule_id = record.id.split("/")[0]  # type: ignore[attr-defined]
    current = store.links(from_id=rule_id, relation="current")
    return current[0].to_id.rsplit(":", 1)[-1] if current else number


def fts_query(words: str) -> str:
    tokens = re.findall(r"\w+", words)
    return " OR ".join(f'"{t}"' for t in tokens) or '""'


def fts_answers(conn: sqlite3.Connection, text: str) -> list[str]:
    rows = conn.execute("SELECT rule FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT ?",
                        (fts_query(text), FTS_POOL)).fetchall()
    return list(dict.fromkeys(rule for (rule,) in rows))[:players.DEPTH]


# -- quality ---------------------------------------------------------------------------------

Answerer = Callable[[str], list]


def judge(questions: list[Question], answer: Answerer,
          variants: list[tuple[str, str]] = VARIANTS,
          alter: Callable[[str], str] = str) -> list[Outcome]:
    outcomes = []
    for q in questions:
        for form, lang in variants:
            refused = False
            try:
                got = answer(alter(q.text(form, lang)))
            except KbError:
                got, refused = [], True
            outcomes.append(Outcome(q, form, lang, players.rank(got, q.answers), refused,
                                    tuple(str(g) for g in got[:3])))
    return outcomes


def with_kb(searcher: Searcher) -> Answerer:
    return lambda text: players.answer_numbers(searcher.search(text, limit=players.DEPTH))


def cli_path(index: Path) -> Answerer:
    return lambda text: players.answer_numbers(api.search(text, index=index, limit=players.DEPTH))


def foreign_answers(searcher: Searcher, questions: list[Question]) -> dict[str, int]:
    """How many of the first three answers of each query (by its form and language) are texts
    of a third language only: a false friend's answers (a French question's "monter" found
    the Portuguese glossary's "montar"), which the players' figures, counting rules only, do
    not see."""
    found = {f"{form} {lang}": 0 for form, lang in VARIANTS}
    for q in questions:
        for form, lang in VARIANTS:
            try:
                groups = searcher.search(q.text(form, lang), limit=3).groups()
            except KbError:
                continue
            found[f"{form} {lang}"] += sum(
                1 for group in groups[:3]
                if not {hit.language for hit in group} & {lang, "en"})
    return found


def mistyped(text: str) -> str:
    """Key words with one typo, as fingers make them: the longest word (of five letters or
    more) with two letters swapped, one dropped, one doubled or one replaced by the next
    letter of the alphabet, the kind chosen by the word itself (the same typo in every run).
    Players' own questions hold few typos in the words that matter: the typo mechanism is
    measured on these, never tuned on them."""
    words = [w for w in re.findall(r"[^\W\d_]+", text) if len(w) >= 5]
    if not words:
        return text
    word = max(words, key=len)
    i = len(word) // 2
    head, letter, tail = word[:i], word[i], word[i + 1:]
    typos = (head[:-1] + letter + head[-1] + tail,  # swapped with the letter before
             head + tail,  # dropped
             head + letter + letter + tail,  # doubled
             head + ("a" if letter in "zZ" else chr(ord(letter) + 1)) + tail)  # replaced
    return text.replace(word, typos[zlib.crc32(word.encode("utf-8")) % len(typos)], 1)


def cell(outcomes: list[Outcome], form: str, lang: str) -> relevance.Scores | None:
    ranks = [o.rank for o in outcomes if o.form == form and o.lang == lang]
    return relevance.measures(ranks) if ranks else None


def subsets(questions: dict[str, list[Question]]) -> Iterator[tuple[str, list[Question]]]:
    yield "dev", questions["dev"]
    yield "held-out", questions["held-out"]
    yield f"held-out without {BUG_REPORTS}", [q for q in questions["held-out"]
                                               if q.source != BUG_REPORTS]
    yield "held-out, French players'", [q for q in questions["held-out"] if q.lang == "fr"]


def print_table(title: str, runs: dict[str, list[Outcome]]) -> None:
    print(f"\n{title}: hit@1 / hit@3 / MRR@10 (refused)")
    head = "".join(f"{f'{form[:8]} {lang}':>22}" for form, lang in VARIANTS)
    print(f"{'':34}{head}")
    for name, outcomes in runs.items():
        line = ""
        for form, lang in VARIANTS:
            s = cell(outcomes, form, lang)
            refused = sum(o.refused for o in outcomes if o.form == form and o.lang == lang)
            line += (f"{'-':>22}" if s is None else
                     f"{f'{s.hit1:.2f}/{s.hit3:.2f}/{s.mrr10:.2f} ({refused})':>22}")
        print(f"{name:34}{line}")


def counts(questions: dict[str, list[Question]]) -> None:
    print("\nQuestions per source and written language (half: source en fr)")
    for half, qs in questions.items():
        by: dict[str, dict[str, int]] = {}
        for q in qs:
            by.setdefault(q.source, {"en": 0, "fr": 0})[q.lang] += 1
        for source, n in sorted(by.items()):
            print(f"  {half:9} {source:44} {n['en']:4} {n['fr']:4}")
        print(f"  {half:9} {'all':44} {sum(q.lang == 'en' for q in qs):4} "
              f"{sum(q.lang == 'fr' for q in qs):4}")


# -- speed -----------------------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--builds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--index", type=Path, help="an index already built (no build timing)")
    parser.add_argument("--misses", type=Path, help="write kb's and FTS5's misses (JSON Lines)")
    parser.add_argument("--model", type=Path,
                        help="build with this sentence model (kb build --model): semantic "
                             "ranking is then measured, and switched off in its own row")
    args = parser.parse_args()
    if args.index is None and not (SHARED / "SOURCES.md").is_file():
        sys.exit(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    work = Path(tempfile.mkdtemp(prefix="kb-bench-search-"))

    kb_build, fts_times = [], []
    if args.index is None:
        for n in range(args.builds):
            started = time.perf_counter()
            build(work / f"index{n}", [embedded_corpus(), SHARED], model=args.model)
            kb_build.append(time.perf_counter() - started)
    index = args.index or work / "index0"
    store = IndexDir(index).current() / STORE_FILE  # type: ignore[operator]
    for n in range(max(1, len(kb_build))):
        fts_times.append(fts_build(store, work / f"fts{n}.sqlite"))
    conn = sqlite3.connect(work / "fts0.sqlite")

    questions = {half: players.load(half) for half in players.HALVES}
    everything = [q for qs in questions.values() for q in qs]
    with Searcher(index) as searcher:
        warm_runs = judge(everything, with_kb(searcher))
        regression = relevance.scores([relevance.judge(searcher, q) for q in relevance.load()])
    runs = {"kb, CLI path": judge(everything, cli_path(index)), "kb, warm Searcher": warm_runs,
            "FTS5 bm25 (words ORed)": judge(everything, lambda t: fts_answers(conn, t))}
    for name in Mechanisms.names():
        with Searcher(index, replace(ALL, **{name: False})) as searcher:
            runs[f"kb without {name.replace('_', ' ')}"] = judge(everything, with_kb(searcher))

    counts(questions)
    for title, qs in subsets(questions):
        ids = {q.id for q in qs}
        print_table(f"{title} ({len(qs)} questions)",
                    {name: [o for o in outcomes if o.question.id in ids]
                     for name, outcomes in runs.items()})
    keywords = [(form, lang) for form, lang in VARIANTS if form == "keywords"]
    held_out = questions["held-out"]
    with Searcher(index) as on, Searcher(index, replace(ALL, typos=False)) as off:
        print_table(f"held-out key words with one typo each ({len(held_out)} questions)", {
            "kb, warm Searcher": judge(held_out, with_kb(on), keywords, mistyped),
            "FTS5 bm25 (words ORed)": judge(held_out, lambda t: fts_answers(conn, t),
                                            keywords, mistyped),
            "kb without typos": judge(held_out, with_kb(off), keywords, mistyped)})
    print(f"\nrelevance set (regression), warm Searcher: hit@1 {regression.hit1:.3f}  "
          f"hit@3 {regression.hit3:.3f}  MRR@10 {regression.mrr10:.3f}")
    with Searcher(index) as searcher:
        for half, qs in questions.items():
            strays = foreign_answers(searcher, qs)
            print(f"{half}: answers among the first three in a third language only (neither "
                  f"the query's nor English): " + ", ".join(f"{k} {n}" for k, n in strays.items()))
    if args.misses:
        write_misses(args.misses, runs)

    mix = [q.text(form, lang) for q in questions["held-out"] for form, lang in VARIANTS]
    warm, warm_fts, long_question = [], [], []
    with Searcher(index) as searcher:
        # Warmed on the other half, then each held-out query once: a query the searcher has
        # not seen (its caches of words and translations do not hold it yet).
        for text in [q.text(form, lang) for q in questions["dev"] for form, lang in VARIANTS]:
            _quiet(lambda t=text: searcher.search(t, limit=10))
            fts_answers(conn, text)
        first = [timed(lambda t=text: _quiet(lambda: searcher.search(t, limit=10)))
                 for text in mix]
        first_fts = [timed(lambda t=text: fts_answers(conn, t)) for text in mix]
        for _ in range(args.rounds):
            long_question.append(timed(lambda: searcher.search(LONG_QUESTION, limit=10)))
            for text in mix:
                warm.append(timed(lambda t=text: _quiet(lambda: searcher.search(t, limit=10))))
                warm_fts.append(timed(lambda t=text: fts_answers(conn, t)))
    cold, cold_fts = cold_runs(index, work / "fts0.sqlite", COLD_QUERY, args.rounds)
    cold_q, cold_q_fts = cold_runs(index, work / "fts0.sqlite", LONG_QUESTION, args.rounds)

    rows = [("warm query p50 (ms)", statistics.median(warm), statistics.median(warm_fts)),
            ("warm query p95 (ms)", percentile(warm, 0.95), percentile(warm_fts, 0.95)),
            ("warm p50, first seen (ms)", statistics.median(first), statistics.median(first_fts)),
            ("cold search (ms, median)", statistics.median(cold), statistics.median(cold_fts)),
            ("cold question (ms, median)", statistics.median(cold_q),
             statistics.median(cold_q_fts))]
    if kb_build:
        rows.insert(0, ("full build (s, median)", statistics.median(kb_build),
                        statistics.median(fts_times)))
    print(f"\nSpeed: the held-out half's {len(mix)} queries x {args.rounds} rounds; "
          f"machine load {os.getloadavg()[0]:.1f}")
    print(f"{'measure':28} {'kb':>10} {'FTS5':>10} {'ratio':>8}")
    for name, mine, base in rows:
        print(f"{name:28} {mine:10.2f} {base:10.2f} {mine / base:7.1f}x")
    print(f"40-word question, warm (ms, median): {statistics.median(long_question):.1f} "
          f"({len(LONG_QUESTION.split())} words)")


def _quiet(run: Callable[[], object]) -> object:
    """A query's run, a refusal included (its time counts like any other)."""
    try:
        return run()
    except KbError:
        return None


def cold_runs(index: Path, fts_path: Path, query: str,
              rounds: int) -> tuple[list[float], list[float]]:
    # As installed (pip compiles the modules once): a PYTHONDONTWRITEBYTECODE environment
    # would recompile kb's modules in every process (30 ms), which no install does.
    compiled = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    command = [str(KB), "--index", str(index), "search", "--json", query]
    subprocess.run(command, env=compiled, check=True, capture_output=True)
    fts_script = ("import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute("
                  "'SELECT id FROM docs WHERE docs MATCH ? ORDER BY rank LIMIT 10',"
                  "(sys.argv[2],)).fetchall()[:1])")
    cold, cold_fts = [], []
    for _ in range(rounds):
        cold.append(timed(lambda: subprocess.run(command, check=True, capture_output=True,
                                                 env=compiled)))
        cold_fts.append(timed(lambda: subprocess.run(
            [sys.executable, "-c", fts_script, str(fts_path), fts_query(query)],
            check=True, capture_output=True)))
    return cold, cold_fts


def write_misses(path: Path, runs: dict[str, list[Outcome]]) -> None:
    """Each query kb (CLI path) or FTS5 misses in the top 3, with the first answers of both."""
    kb_runs, fts_runs = runs["kb, CLI path"], runs["FTS5 bm25 (words ORed)"]
    with path.open("w", encoding="utf-8") as out:
        for mine, base in zip(kb_runs, fts_runs, strict=True):
            if (mine.rank or 99) <= 3 and (base.rank or 99) <= 3:
                continue
            q = mine.question
            out.write(json.dumps({
                "id": q.id, "half": q.half, "form": mine.form, "lang": mine.lang,
                "query": q.text(mine.form, mine.lang), "answers": list(q.answers),
                "kb": {"rank": mine.rank, "refused": mine.refused, "first": list(mine.got)},
                "fts5": {"rank": base.rank, "first": list(base.got)},
            }, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
