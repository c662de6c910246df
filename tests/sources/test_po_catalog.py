"""The gettext catalogue parser against the Brazilian Portuguese CR catalogue (2020-11-20).

Expected numbers were counted with grep on the .po file:
``grep -c '^msgid'`` = 4,085 (4,084 entries and the header); ``grep -c '^msgstr ""$'`` = 2,448,
and only the header's continues on a ``"`` line, so 2,447 entries are untranslated and 1,637
translated. ``grep -c '^msgid "[0-9]\\{3\\}'`` = 2,626 rule paragraphs, plus 9 section headings
(``msgid "1. "`` ... ``"9. "`` before the glossary at line 8747): 2,635 rules, of which 761 have
a ``msgstr``. ``grep -c '^msgid "Example'`` = 254 examples, 49 translated. The glossary has 578
terms (the blocks of the English source file's Glossary), 6 entries precede the contents and
the credits are the last 7 entries. Three unnumbered paragraphs continue a rule (lines 2085,
2118, 3112).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest

from kb.model import Example, Fragment, GlossaryEntry, ParseResult, Passage, Rule, TocEntry
from kb.sources import cr_text, mtgjson, po_catalog
from kb.text.decode import decode
from tests.records import of

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("KB_SHARED_CORPUS", ROOT / ".." / "shared" / "corpus"))
PO = SHARED / "cr-other" / "magicjudgesbr_comprehensive-rules_pt-BR_20201120.po"
SOURCE = SHARED / "cr-other" / "magicjudgesbr_comprehensive-rules_en_20201120_source.txt"

# Deliberately stripped: the header entry (catalogue metadata, not the document) ...
HEADER_LINES = 13  # msgid "", msgstr "" and 11 "Name: value" lines
# ... and the msgid of a translated entry: the English original, which is the English source
# document (the conservation test finds it there).

EXCERPT = '''msgid ""
msgstr ""
"Language: pt_BR\\n"

msgid "These rules are effective as of November 20, 2020."
msgstr "Estas regras entram em vigor em 20 de Novembro de 2020."

msgid "7. Additional Rules"
msgstr "7. Regras Adicionais"

msgid "702.19. Trample"
msgstr ""

msgid "306.9. If a planeswalker’s loyalty is 0, it’s put into its owner’s graveyard. (This is a state-based action. See rule 704.)"
msgstr "306.9. Se a lealdade de um planeswalker for 0, ele é colocado no cemitério de seu dono (essa é uma ação baseada-no-estado. Consulte a regra 704)."

msgid "Example: If one effect reads “You may play an additional land this turn” and another reads “You can’t play lands this turn,” the effect that precludes you from playing lands wins."
msgstr ""

msgid "Abandon"
msgstr "Abandonar"

msgid "To turn a face-up ongoing scheme card face down and put it on the bottom of its owner’s scheme deck. See rule 701.26, “Abandon.”"
msgstr "Virar a face de um card de esquema contínuo para baixo e colocá-lo no fundo do deck de esquemas de seu dono.\\n"
"Consulte a regra 701.26, “Abandonar.”"
'''  # noqa: E501




@pytest.fixture(scope="module")
def text() -> str:
    if not PO.is_file():
        pytest.skip(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    return decode(PO.read_bytes()).text


@pytest.fixture(scope="module")
def result(text: str) -> ParseResult:
    return po_catalog.parse(text, PO.name)


# -- inline excerpt --------------------------------------------------------------------------


def test_sniff() -> None:
    assert po_catalog.sniff(EXCERPT)
    assert po_catalog.sniff("# translator comment\nmsgid \"\"\nmsgstr \"\"\n")
    assert not po_catalog.sniff("")
    assert not po_catalog.sniff('{"meta": {"date": "2022-04-25", "version": "5.2.0"}}')
    seed = decode((ROOT / "corpus" / "001_f4c4515b1d59e611.txt").read_bytes()).text
    assert not po_catalog.sniff(seed)
    assert not cr_text.sniff(EXCERPT) and not mtgjson.sniff(EXCERPT)


def test_excerpt() -> None:
    result = po_catalog.parse(EXCERPT, "x.po")
    assert (result.language, result.version, result.source_id) == ("pt", "2020-11-20",
                                                                   "cr:pt:2020-11-20")
    assert result.title == "Estas regras entram em vigor em 20 de Novembro de 2020."
    ids = [r.id for r in result.records]
    assert ids == [
        "cr:pt:2020-11-20:introduction/1", "cr:pt:2020-11-20:7", "cr:pt:2020-11-20:702.19",
        "cr:pt:2020-11-20:306.9", "cr:pt:2020-11-20:306.9/ex1",
        "cr:pt:2020-11-20:glossary/abandon",
    ]
    _, section, trample, rule, example, glossary = result.records
    assert section.title == "Regras Adicionais" and section.language == "pt"
    assert trample.title == "Trample" and trample.untranslated and trample.language == "en"
    assert trample.parent == "702"
    assert rule.text.startswith("Se a lealdade de um planeswalker for 0, ele é colocado")
    assert [c.target for c in rule.citations] == ["704"] and rule.loc.line == 14
    assert example.language == "en" and example.rule == "306.9" and example.ordinal == 1
    assert glossary.term == "Abandonar" and glossary.language == "pt"
    assert glossary.definition.endswith("seu dono.\nConsulte a regra 701.26, “Abandonar.”")
    assert [c.target for c in glossary.citations] == ["701.26"]


# -- malformed input -------------------------------------------------------------------------


def test_empty() -> None:
    result = po_catalog.parse("", "empty.po")
    assert result.records == () and result.version is None


def test_broken_entries_become_fragments() -> None:
    text = (
        'msgid ""\nmsgstr "Language: pt_BR\\n"\n\n'
        'msgid "100.1. These Magic rules apply\nmsgstr "100.1. Estas regras"\n\n'  # no end quote
        'msgstr "an orphan translation"\n\n'  # no msgid
        "this is not gettext\n\n"
        'msgid "100.2. To play, each player needs"\nmsgstr "100.2. Para jogar"\n\n'
        'msgid "100.3. Truncated'
    )
    result = po_catalog.parse(text, "broken.po")
    fragments = of(result, Fragment)
    assert [f.loc.line for f in fragments] == [4, 7, 9, 14]
    assert fragments[0].text == (
        'msgid "100.1. These Magic rules apply\nmsgstr "100.1. Estas regras"'
    )
    assert fragments[1].reason == "entry without msgid"
    assert fragments[2].text == "this is not gettext"
    assert [r.number for r in of(result, Rule)] == ["100.2"]
    assert of(result, Rule)[0].text == "Para jogar"


def test_entries_without_blank_lines_and_comments() -> None:
    entries, broken = po_catalog.read_entries(
        '#: rules.txt:12\nmsgid "a"\nmsgstr "b"\nmsgid "c"\nmsgstr ""\n"d\\"e"\n'
    )
    assert broken == []
    assert [(e.msgid, e.msgstr, e.line, e.comments) for e in entries] == [
        ("a", "b", 1, ("#: rules.txt:12",)), ("c", 'd"e', 4, ()),
    ]


# -- the whole catalogue ---------------------------------------------------------------------


def test_counts(result: ParseResult) -> None:
    rules = of(result, Rule)
    assert len(rules) == 2635
    assert Counter(r.language for r in rules) == {"pt": 761, "en": 1874}
    assert all(r.untranslated == (r.language == "en") for r in rules)
    examples = of(result, Example)
    assert len(examples) == 254 and sum(e.language == "pt" for e in examples) == 49
    assert len(of(result, GlossaryEntry)) == 578
    passages = Counter(p.role for p in of(result, Passage))
    assert passages == {"introduction": 6, "credits": 7}
    assert [t.title for t in of(result, TocEntry)] == ["Glossário", "Créditos"]
    assert of(result, Fragment) == []
    assert len({r.id for r in result.records}) == len(result.records)
    assert (result.language, result.version) == ("pt", "2020-11-20")


def test_translated_entries(text: str) -> None:
    entries, broken = po_catalog.read_entries(text)
    assert broken == [] and len(entries) == 4085
    assert sum(e.translated for e in entries if e.msgid) == 1637


def test_exact_records(result: ParseResult) -> None:
    records = {r.id: r for r in result.records}
    rule = records["cr:pt:2020-11-20:100.1b"]
    assert rule.text == (
        "Um jogo multijogador é um jogo que começa com mais de dois jogadores. Consulte a seção "
        '8, "Regras Multijogador".'
    )
    assert [c.target for c in rule.citations] == ["8"] and rule.loc.line == 471
    # The translation numbers it 107.3j; the English msgid's number wins.
    assert records["cr:pt:2020-11-20:107.3k"].text.startswith("Se uma habilidade ativada")
    # A line break typed by the translator stays in the text.
    assert "primeiro cada jogador da\nequipe inicial declara" in records[
        "cr:pt:2020-11-20:103.4d"].text
    trample = records["cr:pt:2020-11-20:702.19b"]
    assert trample.untranslated and trample.text.startswith("The controller of an attacking")
    glossary = records["cr:pt:2020-11-20:glossary/trample"]
    assert glossary.term == "Atropelar" and glossary.loc.line == 12037
    # An unnumbered paragraph (line 2085) continues rule 205.3i.
    assert records["cr:pt:2020-11-20:205.3i"].text.endswith(
        "de Urza.\nDessa lista; Floresta, Ilha, Montanha, Planície, e Pântano são os tipos de "
        "terreno básico. Consulte a regra 305.6."
    )


def test_glossary_terms_match_the_english_source(result: ParseResult) -> None:
    """Every glossary id is the English term of a block of the English document."""
    if not SOURCE.is_file():
        pytest.skip(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    source = decode(SOURCE.read_bytes()).text
    glossary = source[source.rindex("\nGlossary\n") : source.rindex("\nCredits\n")]
    terms = [block.split("\n")[0] for block in glossary.strip().split("\n\n")[1:]]
    assert len(terms) == 578
    ids = {g.id for g in of(result, GlossaryEntry)}
    assert {f"cr:pt:2020-11-20:glossary/{cr_text.slug(t)}" for t in terms} == ids


def test_conservation(text: str, result: ParseResult) -> None:
    """Every string of every entry is in a record, or is the header, or (the msgid of a
    translated entry) is a paragraph of the English source document."""
    if not SOURCE.is_file():
        pytest.skip(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    english = {line.strip() for line in decode(SOURCE.read_bytes()).text.split("\n")}
    stored = "\n".join(_texts(result))
    lines = text.split("\n")
    header_end = lines.index("")
    assert header_end == HEADER_LINES
    for number, line in enumerate(lines[header_end:], start=header_end + 1):
        m = re.match(r'^(msgid |msgstr )?"(.*)"$', line)
        if not line.strip():
            continue
        assert m, f"line {number} is not gettext"
        string = po_catalog.unescape(m[2])
        # Numbers are stripped from rule texts; compare what follows them.
        body = re.sub(r"^\d+(?:\.\d+[a-z]{0,2})?\.?\s+", "", string)
        if m[1] == "msgid " and lines[number].startswith('msgstr "') and lines[number] != (
            'msgstr ""'
        ):
            assert string in english, f"line {number}: msgid not in the English source"
        elif body:
            assert all(part in stored for part in body.split("\n")), f"line {number} lost"


def _texts(result: ParseResult) -> list[str]:
    out: list[str] = []
    for r in result.records:
        if isinstance(r, GlossaryEntry):
            out += [r.term, r.definition]
        elif isinstance(r, TocEntry):
            out.append(r.title)
        else:
            out.append(r.text)
    return out
