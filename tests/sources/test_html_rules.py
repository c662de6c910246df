"""The magicjudgesbr rules pages (Brazilian Portuguese, 2020-11-20), from the shared corpus.

Counts were read from the pages: rule 100 has its <h1>, 7 <h3> and 11 <h4>; rule 702 has its
<h1>, 140 <h3>, 407 <h4> and 22 <blockquote> examples, and only 702.28 Reciclar (heading and
702.28a-f) is in Portuguese; the glossary has 581 <dt>/<dd> pairs, 185 of whose definitions
are still English ("See rule ..."); the index lists the 9 sections and the glossary, and its
side bar the 133 rules of 2020-11-20 (the English contents of that date list 142 numbers).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import lxml.html
import pytest

from kb.model import Example, Fragment, GlossaryEntry, ParseResult, Passage, Rule, TocEntry
from kb.sources import cr_table, cr_text, html_rules
from kb.text.decode import decode
from tests.records import of

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("KB_SHARED_CORPUS", ROOT / ".." / "shared" / "corpus"))
HTML = SHARED / "html"

# Chrome the parser deliberately does not read: everything outside <div id="main-content">
# (head, scripts, SVG sprite, side-bar navigation, "This site uses Just the Docs" footer,
# search box, "Mostrar símbolos" switch, breadcrumb); inside it, the fan-content disclaimer
# (<small>), the link icons (a.anchor-heading, a.anchor-term) and the text copy inside each
# symbol span (the <img alt="{W}"> gives the symbol). On the index the side bar is read as the
# table of contents except its two site links, and the contents heading is structure.
INDEX_CHROME = {"Regras Abrangentes", "Sobre", "Índice"}

PAGES = {
    "100": "magicjudgesbr_regras_cr_1_100.html",
    "702": "magicjudgesbr_regras_cr_7_702.html",
    "glossario": "magicjudgesbr_regras_cr_glossario.html",
    "index": "magicjudgesbr_regras_cr_index.html",
}


def _read(page: str) -> str:
    path = HTML / PAGES[page]
    if not path.exists():
        pytest.skip(f"shared corpus not found at {HTML}: set KB_SHARED_CORPUS")
    return decode(path.read_bytes()).text


@pytest.fixture(scope="module")
def pages() -> dict[str, tuple[str, ParseResult]]:
    out = {}
    for page, name in PAGES.items():
        text = _read(page)
        out[page] = (text, html_rules.parse(text, name))
    return out




# -- sniffing and metadata ---------------------------------------------------------------------


def test_sniff(pages) -> None:
    for text, _ in pages.values():
        assert html_rules.sniff(text)
        assert not cr_text.sniff(text)
        assert not cr_table.sniff(text)
    for seed in sorted((ROOT / "corpus").glob("*.txt")):
        assert not html_rules.sniff(decode(seed.read_bytes()).text), seed.name
    assert not html_rules.sniff("<html><body><p>Bonjour</p></body></html>")


def test_metadata(pages) -> None:
    for page, (_, result) in pages.items():
        assert (result.format, result.language, result.version) == (
            "html_rules", "pt", "2020-11-20"
        )
        assert result.source_id == f"html:pt:2020-11-20:{page}"
        ids = [r.id for r in result.records]
        assert len(ids) == len(set(ids))
        assert all(i.startswith(result.source_id + ":") for i in ids)
        assert not of(result, Fragment)
    assert pages["702"][1].title == "702. Habilidades de Palavra-chave"


# -- rule pages --------------------------------------------------------------------------------


def test_rule_100(pages) -> None:
    result = pages["100"][1]
    rules = of(result, Rule)
    assert len(rules) == 19
    assert not of(result, Example)
    assert all(r.language == "pt" and not r.untranslated for r in rules)
    head = rules[0]
    assert (head.number, head.title, head.loc.line) == ("100", "Geral", 442)
    by = {r.number: r for r in rules}
    assert by["100.1a"].text == (
        "Um jogo de dois jogadores é um jogo que começa com apenas dois jogadores."
    )
    assert by["100.1a"].parent == "100.1" and by["100.1a"].loc.line == 453
    assert by["100.1b"].text.endswith('Consulte a seção 8, "Regras Multijogador".')
    assert [c.target for c in by["100.1b"].citations] == ["8"]
    assert [c.target for c in by["100.2c"].citations] == ["903"]
    assert [c.written for c in by["100.4a"].citations] == ["regra 100.2a"]
    assert list(by)[-1] == "100.7"


def test_rule_702(pages) -> None:
    result = pages["702"][1]
    rules = of(result, Rule)
    assert len(rules) == 548
    portuguese = [r.number for r in rules if r.language == "pt"]
    assert portuguese == [
        "702", "702.28", "702.28a", "702.28b", "702.28c", "702.28d", "702.28e", "702.28f",
    ]
    untranslated = [r for r in rules if r.untranslated]
    assert len(untranslated) == 540
    assert all(r.language == "en" for r in untranslated)
    by = {r.number: r for r in rules}
    assert by["702.2"].title == "Deathtouch" and by["702.2"].language == "en"
    assert by["702.28"].title == "Reciclar" and not by["702.28"].untranslated
    assert by["702.28a"].text.startswith("Reciclar é uma habilidade ativada")
    assert by["702.19b"].parent == "702.19"
    assert by["702.100a"].text.startswith(
        "Extort is a triggered ability. “Extort” means “Whenever you cast a spell, you may "
        "pay {W/B}."
    )
    assert "702.140" in by


def test_examples_702(pages) -> None:
    examples = of(pages["702"][1], Example)
    assert len(examples) == 22
    assert all(e.language == "en" and e.text.startswith("Example:") for e in examples)
    first = examples[0]
    assert (first.rule, first.ordinal, first.loc.line) == ("702.1a", 1, 462)
    hellion, fire_ice = examples[1], examples[2]
    assert (hellion.rule, hellion.ordinal) == ("702.1b", 1)
    assert (fire_ice.rule, fire_ice.ordinal) == ("702.1b", 2)
    assert fire_ice.id == "html:pt:2020-11-20:702:702.1b/ex2"
    # Symbol images become braces text, once (not doubled by the hidden text copy).
    assert "echo {X}, where X is your life total" in hellion.text
    assert "the mana costs {1}{R} and {1}{U}" in fire_ice.text
    assert "“Flashback {2}{U}{R}”" in fire_ice.text
    trample = [e.rule for e in examples if e.rule.startswith("702.19")]
    assert trample == ["702.19b", "702.19b"]


# -- glossary ----------------------------------------------------------------------------------


def test_glossary(pages) -> None:
    entries = of(pages["glossario"][1], GlossaryEntry)
    assert len(entries) == 581
    assert sum(e.language == "en" for e in entries) == 185
    assert sum(e.language == "pt" for e in entries) == 396
    by = {e.term: e for e in entries}
    first = entries[0]
    assert (first.term, first.loc.line) == ("A menos que", 443)
    assert first.definition == (
        "Uma expressão usada para indicar um certo estilo de custo. Consulte a regra 118.12a."
    )
    assert [c.target for c in first.citations] == ["118.12a"]
    assert by["Alvo"].language == "en"  # term translated, definition not
    assert by["Alvo"].definition.startswith("A preselected object or player")
    assert by["Pântano"].definition.startswith(
        "One of the five basic land types. Any land with this subtype has the ability "
        "“{T}: Add {B}.”"
    )
    assert by["Tribal"].language == "pt"
    assert entries[-1].term == "Última Informação Conhecida"


# -- index -------------------------------------------------------------------------------------


def test_index(pages) -> None:
    result = pages["index"][1]
    intro, credits = of(result, Passage)
    assert intro.role == "introduction"
    assert intro.text.split("\n")[:3] == [
        "Magic: The Gathering Regras Abrangentes",
        "Estas regras entram em vigor em 20 de Novembro de 2020.",
        "Introdução",
    ]
    assert credits.role == "credits" and credits.text.startswith("Créditos\nMagic: The Gathering")
    toc = of(result, TocEntry)
    assert len(toc) == 143
    assert [(t.number, t.title) for t in toc[:2]] == [("1", "Conceitos do Jogo"),
                                                     ("2", "Partes de um Card")]
    assert (toc[9].number, toc[9].title) == (None, "Glossário")
    numbers = [t.number for t in toc if t.number]
    assert sum(len(n) == 1 for n in numbers) == 9
    assert sum(len(n) == 3 for n in numbers) == 133
    titles = {t.number: t.title for t in toc}
    assert titles["100"] == "Geral"
    assert titles["702"] == "Habilidades de Palavra-chave"
    assert titles["905"] == "Draft de Conspiracy"


# -- conservation ------------------------------------------------------------------------------


def _norm(s: str) -> str:
    return " ".join(s.split())


def _record_texts(result: ParseResult) -> str:
    parts: list[str] = [result.title or ""]  # the glossary's <h1> is kept only as the title
    for r in result.records:
        if isinstance(r, Rule):
            parts.append(f"{r.number}. {r.text} {r.number} {r.text}")
        elif isinstance(r, GlossaryEntry):
            parts.append(f"{r.term} {r.definition}")
        elif isinstance(r, TocEntry):
            parts.append(f"{r.number}. {r.title}" if r.number else r.title)
        else:
            parts.append(r.text)
    return _norm("\n".join(parts))


def _text_nodes(el) -> list[str]:
    """Every non-empty text node under ``el``, outside the named chrome."""
    out: list[str] = []
    if html_rules.is_chrome(el) or "symbol" in (el.get("class") or "").split():
        return out
    if el.text and el.text.strip():
        out.append(_norm(el.text))
    for child in el:
        out.extend(_text_nodes(child))
        if child.tail and child.tail.strip():
            out.append(_norm(child.tail))
    return out


@pytest.mark.parametrize("page", list(PAGES))
def test_every_text_node_is_kept(pages, page: str) -> None:
    text, result = pages[page]
    root = lxml.html.document_fromstring(text)
    nodes = _text_nodes(root.get_element_by_id("main-content"))
    if page == "index":
        nodes += _text_nodes(root.get_element_by_id("site-nav"))
    kept = _record_texts(result)
    missing = [n for n in nodes if n not in kept and n not in INDEX_CHROME]
    assert missing == []


# -- malformed input ---------------------------------------------------------------------------

FIXTURE = """<!DOCTYPE html>
<html lang="en-US"><body>
<div class="main-content rules" id="main-content" role="main">
<h1>707. Copiar Objetos</h1>
<h3 id="1"><a href="#1" class="anchor-heading"><svg></svg></a>
707.1. Alguns objetos se tornam uma cópia de uma mágica. Consulte a regra 110.5.</h3>
<blockquote>Exemplo: um exemplo em português.</blockquote>
<h4 id="1a">sem número</h4>
<small><em><p>Conteúdo de Fã</p></em></small>
</div><a href="/regras/cr/">x</a></body></html>
"""


def test_small_fixture() -> None:
    result = html_rules.parse(FIXTURE, "x.html")
    assert result.source_id == "html:pt:2020-11-20:707"
    kinds = [type(r).__name__ for r in result.records]
    assert kinds == ["Rule", "Rule", "Example", "Fragment"]
    rule = result.records[1]
    assert rule.text == "Alguns objetos se tornam uma cópia de uma mágica. Consulte a regra 110.5."
    assert (rule.language, rule.loc.line, rule.citations[0].target) == ("pt", 5, "110.5")
    example = result.records[2]
    assert (example.language, example.rule) == ("pt", "707.1")
    assert result.records[3].text == "sem número"


def test_empty_and_garbage() -> None:
    assert html_rules.parse("", "e.html").records == ()
    result = html_rules.parse("just some text\n\nmore text", "t.html")
    assert [r.text for r in result.records] == ["just some text", "more text"]
    assert all(isinstance(r, Fragment) for r in result.records)


def test_truncated_page_keeps_its_rules() -> None:
    cut = FIXTURE[: FIXTURE.index("<blockquote>") + 28]
    result = html_rules.parse(cut, "cut.html")
    assert [type(r).__name__ for r in result.records] == ["Rule", "Rule", "Example"]
    assert result.records[2].text == "Exemplo: um exem"


def test_glossary_term_without_definition() -> None:
    page = (
        '<html><body><div id="main-content"><h1>Glossário</h1><dl>'
        "<dt>Alvo</dt><dd>Um objeto. Consulte a regra 115.</dd><dt>Órfão</dt>"
        '</dl></div><a href="/regras/cr/">x</a></body></html>'
    )
    result = html_rules.parse(page, "g.html")
    assert [type(r).__name__ for r in result.records] == ["GlossaryEntry", "Fragment"]
    assert result.records[1].text == "Órfão"
    assert re.fullmatch(r"html:pt:2020-11-20:glossario:unparsed/L\d+", result.records[1].id)
