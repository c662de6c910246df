"""kb.index.semantic: a sentence model's nearness, built into an index with ``--model`` and
blended into search. The model here is the tests' own (``tests/fixtures/semantic/model``,
written by its ``make_model.py``): three directions, trample (``trample``, ``stomp``), flying
(``flying``, ``flyer``) and haste (``haste``, ``hurry``), every other word piece the zero
vector. The corpus is a real excerpt of the embedded CR of 2026-04-17 (:func:`excerpt`):
rules 7, 702, 702.9 (Flying), 702.10 (Haste) and 702.19 (Trample) with their subrules and
examples, and the glossary's Trample."""

from __future__ import annotations

import json
import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.mechanisms import ALL

pytest.importorskip("onnxruntime", reason='semantic ranking needs pip install "kb[semantic]"')

from kb import api  # noqa: E402
from kb.build import build  # noqa: E402
from kb.cli import cli  # noqa: E402
from kb.corpus import embedded_corpus  # noqa: E402
from kb.doctor import diagnose  # noqa: E402
from kb.index.semantic import FOLDER, META, VECTORS, Encoder, SemanticError, documents  # noqa: E402
from kb.indexdir import STORE_FILE, IndexDir  # noqa: E402
from kb.search import Searcher  # noqa: E402
from kb.store import Store  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "semantic"
MODEL = FIXTURES / "model"
# 19 rules (7, 702, 702.9 and a-c, 702.10 and a-d, 702.19 and a-g) and three examples
# (702.19b's two, 702.19c's one)
TEXTS = 22
HURRY = "is there a way to hurry my creature"


def excerpt(folder: Path) -> Path:
    """The embedded CR's own lines: its opening up to "Contents", a contents of the two
    sections kept, the headings of 7 and 702, 702.9 to 702.10d, 702.19 to 702.19g, the
    glossary's Trample and the credits' first line; written into ``folder``, returned."""
    name = "MagicCompRules 20260417.txt"
    lines = (embedded_corpus() / name).read_text(encoding="utf-8").split("\n")
    body = lines.index("Credits") + 1  # the contents' last line: the rules follow it

    def lines_from(first: str, count: int) -> list[str]:
        at = lines.index(first, body)
        return lines[at:at + count]

    def rules(first: str, after: str) -> list[str]:
        return lines[lines.index(first, body):lines.index(after, body)]

    kept = [*lines[:lines.index("Contents") + 2],
            "7. Additional Rules", "702. Keyword Abilities", "", "Glossary", "", "Credits", "",
            *lines_from("7. Additional Rules", 2), *lines_from("702. Keyword Abilities", 2),
            *rules("702.9. Flying", "702.11. Hexproof"),
            *rules("702.19. Trample", "702.20. Vigilance"),
            *lines_from("Glossary", 2), *lines_from("Trample", 3), *lines_from("Credits", 3)]
    folder.mkdir(exist_ok=True)
    (folder / name).write_text("\n".join(kept) + "\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return excerpt(tmp_path_factory.mktemp("corpus"))


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, corpus: Path) -> Path:
    root = tmp_path_factory.mktemp("semantic")
    build(root, [corpus], model=MODEL)
    return root


def groups(index: Path, query: str, **mechanisms: bool) -> list[str]:
    with Searcher(index, replace(ALL, **mechanisms)) as searcher:
        return [hit.group for hit in searcher.search(query, limit=3).hits]


def test_a_text_is_the_normalised_mean_of_its_word_pieces():
    stomp, both, none = Encoder(MODEL).encode(
        ["Can my stomper stomp?", "flying and haste", "no word of the model"])
    assert stomp.tolist() == [1.0, 0.0, 0.0]
    assert both.tolist() == pytest.approx([0.0, 2 ** -0.5, 2 ** -0.5])
    assert none.tolist() == [0.0, 0.0, 0.0]


def test_the_build_embeds_todays_english_rules_and_examples(index):
    folder = IndexDir(index).current() / FOLDER
    meta = json.loads((folder / META).read_text(encoding="utf-8"))
    assert meta["version"] == "2026-04-17"
    assert len(meta["records"]) == len(meta["rules"]) == TEXTS
    assert meta["rules"].count("702.19b") == 3  # the rule and its two examples
    assert (folder / VECTORS).stat().st_size > TEXTS * 3 * 4  # float32 rows, and a header


def test_each_text_is_embedded_after_its_sections_title(index):
    store = Store.open(IndexDir(index).current() / STORE_FILE)
    version, docs = documents(store)
    store.close()
    text = {doc.record.rpartition(":")[2]: doc.text for doc in docs}
    assert version == "2026-04-17"
    assert text["702.19b"].startswith("Trample: The controller of an attacking creature with "
                                      "trample first assigns damage to the creature(s) blocking")
    assert text["702.19b/ex2"].startswith("Trample: Example: A 6/6 green creature with trample")
    assert text["702.10"] == "Keyword Abilities: Haste"


def test_a_question_finds_the_rule_none_of_its_words_names(index):
    """No text holds "hurry"; the model puts it beside haste."""
    with Searcher(index) as searcher:
        result = searcher.search(HURRY, limit=3)
    assert result.semantic
    assert "Ranked with the sentence model too (kb build --model)" in result.said()
    assert [hit.group for hit in result.hits] == ["rule 702.10d", "rule 702.10c",
                                                  "rule 702.10b"]
    assert not any(g.startswith("rule 702.10") for g in groups(index, HURRY, semantic=False))


def test_a_word_or_two_french_questions_and_operators_are_ranked_by_kb_alone(index):
    """The French questions' glosses ("creature trample blocked creatures damage") would
    reach the model, but the first has more than twelve words and the second is a question
    (its question mark)."""
    with Searcher(index) as searcher:
        for query in ("hurry creature",
                      "quand une créature avec le piétinement est bloquée par deux créatures, "
                      "comment sont assignées les blessures ?",
                      "une créature avec piétinement bloquée ?",
                      "is there a way to hurry my creature -flying", "hurry my creat*"):
            result = searcher.search(query)
            assert not result.semantic and not result.gloss, query
            assert groups(index, query) == groups(index, query, semantic=False), query


def test_french_key_words_reach_the_model_as_their_english_gloss(index):
    """The official vocabulary (kb/link/official_terms.tsv) pairs piétinement with trample
    and bloquée with blocked; "créature" is the English texts' "creature" without its
    accent, and "avec" and "une" are no terms."""
    with Searcher(index) as searcher:
        result = searcher.search("une créature avec piétinement bloquée", limit=3)
    assert result.language == "fr"
    assert result.semantic
    assert result.gloss == "creature trample blocked"
    assert ("Ranked with the sentence model too, in English: creature trample blocked"
            in result.said())


def test_a_question_of_no_word_the_model_knows_is_ranked_by_kb_alone(index):
    """Every word piece of it is the tests' model's zero vector: no rule is nearer than
    another, and the model says nothing. The French key words' gloss is "creature"."""
    with Searcher(index) as searcher:
        for query in ("can my creature block two attackers",
                      "est-ce que ma créature peut se dépêcher"):
            result = searcher.search(query)
            assert not result.semantic and not result.gloss, query
            assert groups(index, query) == groups(index, query, semantic=False), query


def test_another_model_than_the_builds_turns_it_off_with_a_note(index, tmp_path, monkeypatch):
    other = tmp_path / "model"
    shutil.copytree(MODEL, other)
    with (other / "tokenizer.json").open("a", encoding="utf-8") as handle:
        handle.write("\n")
    monkeypatch.setenv("KB_MODEL", str(other))
    with Searcher(index) as searcher:
        first = searcher.search(HURRY, limit=3)
        assert not first.semantic
        assert [n for n in first.notes if "not the model the index was embedded with" in n]
        assert [h.group for h in first.hits] == groups(index, HURRY, semantic=False)
        assert searcher.search(HURRY).notes == []  # said once


def test_doctor_names_the_model_that_is_not_the_builds(index, tmp_path, monkeypatch):
    assert diagnose(index)[0] == []
    other = tmp_path / "model"
    shutil.copytree(MODEL, other)
    (other / "tokenizer.json").write_text(
        (MODEL / "tokenizer.json").read_text(encoding="utf-8") + "\n", encoding="utf-8")
    monkeypatch.setenv("KB_MODEL", str(other))
    problems, _checked = diagnose(index)
    assert problems == [f"{other}: not the model the index was embedded with (rebuild with kb "
                        "build --model)"]


def test_the_model_is_remembered_until_a_build_without_it(tmp_path, corpus):
    root = tmp_path / "idx"
    first = api.build_index(root, [corpus], embedded=False, only=True, model=MODEL)
    assert first.vectors == TEXTS
    again = api.build_index(root, [corpus], embedded=False, only=True)
    assert again.unchanged
    dropped = api.build_index(root, [corpus], embedded=False, only=True, no_model=True)
    assert not dropped.unchanged and dropped.vectors == 0
    assert not (IndexDir(root).current() / FOLDER).exists()


def test_a_remembered_model_that_is_gone_says_how_to_build_without_it(tmp_path, corpus):
    model = tmp_path / "model"
    shutil.copytree(MODEL, model)
    root = tmp_path / "idx"
    api.build_index(root, [corpus], embedded=False, only=True, model=model)
    shutil.rmtree(model)
    with pytest.raises(SemanticError, match="--no-model"):
        api.build_index(root, [corpus], embedded=False, only=True)
    assert api.build_index(root, [corpus], embedded=False, only=True, no_model=True).vectors == 0


def test_a_missing_model_is_an_error_naming_its_file(tmp_path, corpus):
    with pytest.raises(SemanticError, match="model.onnx"):
        build(tmp_path / "idx", [corpus], model=tmp_path)


def test_a_model_of_pooled_vectors_is_refused_before_anything_is_built(tmp_path, corpus):
    with pytest.raises(SemanticError, match="not one vector per word piece"):
        build(tmp_path / "idx", [corpus], model=FIXTURES / "pooled")
    assert IndexDir(tmp_path / "idx").current() is None


def test_the_command_line_says_it_in_json(index, tmp_path, corpus):
    built = CliRunner().invoke(cli, ["--index", str(tmp_path / "idx"), "build", "--no-embedded",
                                     "--only", "--corpus", str(corpus), "--model", str(MODEL),
                                     "--json"])
    assert built.exit_code == 0, built.output
    assert json.loads(built.output)["vectors"] == TEXTS
    found = CliRunner().invoke(cli, ["--index", str(index), "search", "--json", HURRY])
    assert json.loads(found.output)["semantic"] is True
    assert json.loads(found.output)["gloss"] == ""
    found = CliRunner().invoke(cli, ["--index", str(index), "search", "--json",
                                     "piétinement", "créature", "bloquée"])
    assert json.loads(found.output)["gloss"] == "trample creature blocked"


def test_the_model_reads_a_query_on_its_own_thread_while_kb_ranks(index, monkeypatch):
    """The query's encoding runs beside the word search (its result is the same: the tests
    above), on a thread that ends with the searcher."""
    from kb.index.semantic import Vectors

    threads: list[str] = []
    nearness = Vectors.nearness

    def recorded(self: Vectors, text: str) -> dict[str, float]:
        threads.append(threading.current_thread().name)
        return nearness(self, text)

    monkeypatch.setattr(Vectors, "nearness", recorded)
    with Searcher(index) as searcher:
        assert searcher.search(HURRY).semantic
        assert searcher.search("hurry creature stomp").semantic
    assert len(threads) == 2 and threading.main_thread().name not in threads
    assert not [t for t in threading.enumerate() if t.name in threads]


def test_a_question_that_asks_for_rulings_is_not_ranked_by_the_model(index):
    """Whether rulings are asked for is known after the word search; the model's nearness,
    started before it, is dropped."""
    query = "is there a ruling on a way to hurry my creature"
    with Searcher(index) as searcher:
        result = searcher.search(query)
    assert not result.semantic
    assert groups(index, query) == groups(index, query, semantic=False)
