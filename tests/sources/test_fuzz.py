"""Regressions found by fuzzing the ingestion path (tests/fuzz): each bug, its minimal input.

A test whose comment starts "Was:" failed before its fix: with an exception escaping the
parser, text silently left out of every record, or time growing without bound. The others
hold the fixes to what they should change (cp1252 text stays cp1252; the faster gap filling
finds what trying every sequence finds).
"""

from __future__ import annotations

import codecs
import itertools
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.model import Card, Example, Fragment, GlossaryEntry, Rule, Ruling, TocEntry
from kb.rulenum import RuleNumber
from kb.sources import cr_table, faq_md, html_rules, mtgjson, po_catalog
from kb.text.decode import BinaryContentError, decode
from tests.records import of

# -- kb.text.decode ------------------------------------------------------------------------

FRENCH = "Règle 702.19 : « piétinement », été.\n" * 20


def test_utf8_cut_inside_a_character_stays_utf8():
    # Was: the whole document read as cp1252, every accent turned into mojibake ("RÃ¨gle").
    decoded = decode(FRENCH.encode("utf-8")[:-3])  # cut inside the final "é"
    assert decoded.encoding == "utf-8" and decoded.replaced == 1
    assert decoded.text == FRENCH[:-3] + "\ufffd"


def test_a_stray_byte_in_utf8_is_counted_not_spread():
    # Was: one invalid byte, and the whole document read as cp1252.
    data = FRENCH.encode("utf-8")
    decoded = decode(data[:10] + b"\xff" + data[10:])
    assert decoded.encoding == "utf-8" and decoded.replaced == 1
    assert decoded.text.count("é") == FRENCH.count("é")


def test_a_utf8_bom_over_cp1252_text_loses_nothing():
    # Was: "utf-8-sig" chosen from the BOM, and every accented byte replaced by U+FFFD.
    decoded = decode(codecs.BOM_UTF8 + FRENCH.encode("cp1252"))
    assert (decoded.encoding, decoded.text, decoded.replaced) == ("cp1252", FRENCH, 0)


def test_cp1252_text_is_still_cp1252():
    decoded = decode(FRENCH.encode("cp1252"))
    assert (decoded.encoding, decoded.text) == ("cp1252", FRENCH)


def test_bytes_that_are_text_in_no_encoding_are_refused():
    # Was: read as latin-1, a document of C1 control characters kept as a fragment.
    with pytest.raises(BinaryContentError):
        decode(bytes([0x81, 0x8D, 0x8F, 0x90, 0x9D]) * 100)


# -- kb.sources.faq_md -----------------------------------------------------------------------


def test_faq_md_a_quote_of_empty_lines_holds_nothing():
    # Was: IndexError (a quote item built from no line).
    text = "### GENERAL NOTES\n### CARD-SPECIFIC NOTES\n>\n"
    assert faq_md.sniff(text)
    assert faq_md.parse(text, "faq.md").records == ()


# -- kb.sources.html_rules -------------------------------------------------------------------


def test_html_text_left_between_elements_is_kept():
    # Was: a lost <h4> tag left "100.1a ..." as the tail of the <h3>, in no record.
    page = ('<html><body><div id="main-content"><h1>100. Geral</h1>'
            '<h3 id="1">100.1. Estas regras.</h3>100.1a Um jogo de dois jogadores.'
            '<h3 id="2">100.2. Para jogar.</h3></div><a href="/regras/cr/1/100">x</a>'
            '</body></html>')
    assert html_rules.sniff(page)
    result = html_rules.parse(page, "100.html")
    assert [r.number for r in of(result, Rule)] == ["100", "100.1", "100.2"]
    (fragment,) = of(result, Fragment)
    assert fragment.text == "100.1a Um jogo de dois jogadores."


def test_html_glossary_text_outside_dt_and_dd_is_kept():
    # Was: a lost <dd> tag left a definition between the elements read, in no record.
    page = ('<html><body><div id="main-content"><h1>Glossário</h1><dl>'
            '<dt id="abandonar">Abandonar</dt>Virar a face.<dd>Definição.</dd></dl></div>'
            '</body></html>')
    result = html_rules.parse(page, "glossario.html")
    (entry,) = of(result, GlossaryEntry)
    assert (entry.term, entry.definition) == ("Abandonar", "Definição.")
    assert [f.text for f in of(result, Fragment)] == ["Virar a face."]


# -- kb.sources.cr_table ---------------------------------------------------------------------


def test_cr_table_a_letter_the_rules_skip_does_not_crash():
    # Was: ValueError "not a subrule letter: 'l'" while inferring the number between.
    text = "707.2k |\nA. |\n|\nB. |\n707.2l |\nC. |\n"
    result = cr_table.parse(text, "t.txt")
    assert [r.number for r in of(result, Rule)] == ["707.2k", "707.2l"]
    assert [f.text for f in of(result, Fragment)] == ["B."]


def test_cr_table_a_number_cell_before_an_example_is_kept():
    # Was: the number "707.2" paired with the example and dropped.
    text = "707.1 |\nRègle. |\n707.2 |\nExemple : un exemple. |\n"
    result = cr_table.parse(text, "t.txt")
    (example,) = of(result, Example)
    assert example.rule == "707.1"
    (fragment,) = of(result, Fragment)
    assert (fragment.text, fragment.loc.line) == ("707.2", 3)


def _gap(count: int) -> str:
    return ("707.1 |\nPremier. |\n" + "".join(f"|\nParagraphe {i}. |\n" for i in range(count))
            + f"707.{count + 2} |\nDernier. |\n")


def test_cr_table_a_long_run_of_lost_numbers_is_read_quickly():
    # Was: time growing as the fifth power of the run (40 paragraphs: 3 s, 80: 30 s, 160:
    # minutes). Runs longer than MAX_GAP are no longer inferred: their paragraphs are kept.
    started = time.perf_counter()
    result = cr_table.parse(_gap(80), "t.txt")
    assert time.perf_counter() - started < 3
    assert len(of(result, Fragment)) == 80
    assert [r.number for r in of(result, Rule)] == ["707.1", "707.82"]


def test_cr_table_the_longest_run_inferred_is_inferred_quickly():
    started = time.perf_counter()
    result = cr_table.parse(_gap(cr_table.MAX_GAP), "t.txt")
    assert time.perf_counter() - started < 3
    numbers = [r.number for r in of(result, Rule)]
    assert numbers == [f"707.{n}" for n in range(1, cr_table.MAX_GAP + 3)]
    assert not of(result, Fragment)


numbers = st.builds(
    lambda rule, sub, letter: RuleNumber(7, rule, sub, letter if sub else ""),
    st.sampled_from([707, 708]), st.one_of(st.none(), st.integers(1, 6)),
    st.sampled_from(["", "", "a", "b", "c", "k", "m"]),
)


@settings(max_examples=150, deadline=None, database=None)
@given(st.one_of(st.none(), numbers), st.one_of(st.none(), numbers), st.integers(1, 3))
def test_cr_table_gap_filling_is_the_one_cheapest_sequence(prev, after, count):
    """The fast gap filling against every sequence of candidates, tried one by one."""
    anchor = prev or after
    if anchor is None or anchor.rule is None:
        assert cr_table._fill_gap(prev, after, count) is None
        return
    start = prev or RuleNumber(anchor.section, anchor.rule)
    costs = {}
    for picks in itertools.combinations(cr_table._candidates(start, after, count), count):
        chain = [start, *picks] + ([after] if after is not None else [])
        steps = [cr_table.skipped_between(a, b) for a, b in itertools.pairwise(chain)]
        if None not in steps:
            costs[picks] = (sum(steps), sum(p.depth == 3 for p in picks))
    best = min(costs.values(), default=None)
    winners = [list(p) for p, c in costs.items() if c == best]
    assert cr_table._fill_gap(prev, after, count) == (winners[0] if len(winners) == 1 else None)


# -- kb.sources.mtgjson ----------------------------------------------------------------------

META = '{"meta": {"date": "2022-04-01", "version": "5.2.0"}, '


def test_mtgjson_values_overridden_by_a_repeated_key_are_kept():
    # Was: lines lost between two foreignData entries ran them into one object, and the
    # German name, overridden by the French one, was in no record.
    text = META + ('"data": {"cards": [{"name": "A", "foreignData": [{"language": "German", '
                   '"name": "Haazda-Fallentrupp", "language": "French", "name": "B"}]}]}}')
    result = mtgjson.parse(text, "x.json")
    assert dict(of(result, Card)[0].names) == {"fr": "B"}
    (fragment,) = of(result, Fragment)
    assert fragment.text == '"language": "German"\n"name": "Haazda-Fallentrupp"'


def test_mtgjson_card_arrays_inside_a_card_are_kept():
    # Was: a doubled '"cards": [' line nested the next cards inside the first, unread.
    text = META + ('"data": {"cards": [{"name": "A", "cards": [{"name": "B", "rulings": '
                   '[{"date": "2013-04-15", "text": "A ruling."}]}]}]}}')
    result = mtgjson.parse(text, "x.json")
    assert [c.name for c in of(result, Card)] == ["A"]
    (fragment,) = of(result, Fragment)
    assert "A ruling." in fragment.text and '"name": "B"' in fragment.text


def test_mtgjson_every_face_without_a_name_is_kept():
    # Was: one Fragment for the printing, holding its first face only.
    text = META + ('"data": {"cards": [{"name": 7, "faceName": "X", "number": "1a"}, '
                   '{"name": 7, "faceName": "Y", "number": "1b"}]}}')
    result = mtgjson.parse(text, "x.json")
    assert ['"X"' in f.text for f in of(result, Fragment)] == [True, False]
    assert ['"Y"' in f.text for f in of(result, Fragment)] == [False, True]


def test_mtgjson_a_ruling_left_in_one_face_only_is_read():
    # Was: rulings read from the first face only; damage had cut R2 from that copy.
    r1, r2 = ({"date": "2013-04-15", "text": t} for t in ("R1.", "R2."))
    faces = [{"name": "Alive // Well", "faceName": face, "number": f"121{side}", "rulings": rulings}
             for face, side, rulings in (("Alive", "a", [r1]), ("Well", "b", [r1, r2]))]
    text = META + f'"data": {json.dumps({"cards": faces})}}}'
    result = mtgjson.parse(text, "x.json")
    assert [(r.ordinal, r.text) for r in of(result, Ruling)] == [(1, "R1."), (2, "R2.")]


def test_mtgjson_objects_run_into_a_rulings_array_are_kept():
    # Was: a lost "]" ran the next card object into the rulings: its text read as a ruling,
    # its name and its own rulings in no record.
    text = META + ('"data": {"cards": [{"name": "A", "rulings": ['
                   '{"date": "2013-04-15", "text": "R."}, '
                   '{"name": "B", "text": "Card text.", "rulings": [{"date": "2013-04-15", '
                   '"text": "R2."}]}, {"date": "2013-04-15", "text": "R3.", "name": "C"}]}]}}')
    result = mtgjson.parse(text, "x.json")
    assert [r.text for r in of(result, Ruling)] == ["R.", "R3."]
    assert [f.text for f in of(result, Fragment)] == [
        '{"name": "B", "text": "Card text.", "rulings": [{"date": "2013-04-15", "text": "R2."}]}',
        '{"name": "C"}',
    ]


# -- kb.sources.po_catalog -------------------------------------------------------------------


def test_po_a_second_header_entry_is_kept():
    # Was: every entry with an empty msgid was taken for the header and dropped.
    text = 'msgid ""\nmsgstr "Language: pt_BR\\n"\n\nmsgid ""\nmsgstr "Texto perdido."\n'
    (fragment,) = po_catalog.parse(text, "x.po").records
    assert (fragment.text, fragment.loc.line) == ("Texto perdido.", 4)


# -- kb.sources.html_rules (index) -------------------------------------------------------------


def test_html_index_links_with_one_number_and_two_titles_are_both_kept():
    # Was: the list's links deduplicated by number: "1. Variantes Casuais" (a damaged
    # "9. ...") was dropped because "1. Conceitos do Jogo" came first.
    page = ('<html><body><div id="main-content"><h1>Regras</h1><ul>'
            '<li><a href="/regras/cr/1/">1. Conceitos do Jogo</a></li>'
            '<li><a href="/regras/cr/9/">1. Variantes Casuais</a></li></ul>'
            '<footer><p>Créditos.</p></footer></div></body></html>')
    result = html_rules.parse(page, "index.html")
    assert [(t.number, t.title) for t in of(result, TocEntry)] == [
        ("1", "Conceitos do Jogo"), ("1", "Variantes Casuais")]


def test_mtgjson_a_card_run_into_a_foreign_data_array_is_kept():
    # Was: a lost "]" closing foreignData made the next card an entry of it, its own
    # foreign names and rulings read by no one.
    swallowed = {"name": "Lyev Decree", "rulings": [{"date": "2013-04-15", "text": "R."}],
                 "foreignData": [{"language": "French", "name": "Décret de Lyev"}]}
    card = {"name": "A", "foreignData": [{"language": "German", "name": "B"}, swallowed]}
    result = mtgjson.parse(META + f'"data": {json.dumps({"cards": [card]})}}}', "x.json")
    assert dict(of(result, Card)[0].names) == {"de": "B"}
    (fragment,) = of(result, Fragment)
    assert json.loads(fragment.text) == [swallowed]


def test_faq_md_a_second_underlined_title_is_kept():
    # Was: every "===" underlined line replaced the title, the earlier one in no record.
    text = ("Frequently Asked Questions\n===\n\nDragon's Maze Release Notes\n===\n\n"
            "### GENERAL NOTES\n\nA note.\n\n### CARD-SPECIFIC NOTES\n")
    result = faq_md.parse(text, "faq.md")
    assert result.title == "Frequently Asked Questions"
    assert "Dragon's Maze Release Notes" in result.records[0].text


def test_faq_md_a_heading_before_a_part_heading_keeps_its_text():
    # Was: a heading with no note under it was kept as a Fragment of the current topic,
    # which the next part heading had emptied: "Release Information" in no record.
    text = ("### GENERAL NOTES\n\n**Release Information**\n\n> 702.100. Fuse\n\n"
            "### CARD-SPECIFIC NOTES\n")
    result = faq_md.parse(text, "faq.md")
    assert [f.text for f in of(result, Fragment)] == ["Release Information"]


def test_mtgjson_cards_run_into_another_value_are_kept():
    # Was: a lost "]" ran the next cards into the keywords of a card, read by no one.
    swallowed = {"name": "Boros Mastiff", "foreignData": [{"language": "French",
                                                           "name": "Dogue de Boros"}]}
    card = {"name": "A", "keywords": [{"power": "2", "keywords": [swallowed]}]}
    result = mtgjson.parse(META + f'"data": {json.dumps({"cards": [card]})}}}', "x.json")
    (fragment,) = of(result, Fragment)
    assert json.loads(fragment.text) == [swallowed]


def test_mtgjson_names_given_by_a_later_printing_are_kept():
    # Was: a later printing (or a face torn from its card by damage) added nothing, not even
    # the names in other languages only it gave.
    printings = [{"name": "A", "foreignData": [{"language": "German", "name": "B"}]},
                 {"name": "A", "foreignData": [{"language": "Italian", "name": "C"}]}]
    result = mtgjson.parse(META + f'"data": {json.dumps({"cards": printings})}}}', "x.json")
    (card,) = of(result, Card)
    assert card.names == (("de", "B"), ("it", "C"))
