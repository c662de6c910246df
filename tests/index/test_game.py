"""The game's own words, worked out by the index writer (kb/index/game.py)."""

from __future__ import annotations

from kb.index.analysis import language
from kb.index.files import SEARCH_DIR
from kb.index.game import GAME_FILE, load
from kb.indexdir import IndexDir


def test_a_build_writes_the_titles_and_official_terms_words_as_index_terms(cr_index):
    terms = load(IndexDir(cr_index).current() / SEARCH_DIR / GAME_FILE)
    en, fr = language("en"), language("fr")
    # Rule titles of the 2026-04-17 CR: "702.19. Trample", "702.2. Deathtouch".
    assert {en.term("trample"), en.term("deathtouch")} <= terms
    # Official French terms (kb/link/official_terms.tsv): "mal d'invocation", "loyauté".
    assert {fr.term("invocation"), fr.term("loyaute")} <= terms
    # A forum post's words that name nothing of the game.
    assert not {en.term("friday"), en.term("store")} & terms


def test_the_file_reads_back_one_term_a_line(tmp_path):
    path = tmp_path / GAME_FILE
    path.write_text("trampl\ninvoc\n", encoding="utf-8")
    assert load(path) == {"trampl", "invoc"}
