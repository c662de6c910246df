"""The documents the fuzzer starts from: the five embedded seeds and slices of the shared corpus.

Every parser gets at least one seed in the format it reads. Slices are cut at runtime from
``../shared/corpus`` (never copied into the project) and keep the layout the parser relies on:
a CR slice keeps its title, date, the head and tail of its contents, some rules, the start of
its glossary and its credits; a catalogue slice keeps its header, front matter, some rules, the
start of its glossary and its credits; and so on. A shared seed is ``None`` when the shared
corpus is absent, and the tests that need it skip.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from functools import cache

from kb.corpus import embedded_corpus
from kb.text.decode import decode
from tests.conftest import REPO, SHARED_CORPUS


def _lines(relative: str) -> list[str] | None:
    path = SHARED_CORPUS / relative
    if not path.is_file():
        return None
    data = path.read_bytes()
    return decode(gzip.decompress(data) if path.suffix == ".gz" else data).text.split("\n")


def _cut(lines: list[str] | None, *spans: tuple[int, int]) -> str | None:
    """The lines of the given 0-based ``[start, stop)`` spans, joined."""
    if lines is None:
        return None
    return "\n".join(line for start, stop in spans for line in lines[start:stop]) + "\n"


def _index(lines: list[str], wanted: str, start: int = 0) -> int:
    return next(i for i in range(start, len(lines)) if lines[i].strip() == wanted)


def _embedded(prefix: str) -> Callable[[], str]:
    def read() -> str:
        path = next(embedded_corpus().glob(f"{prefix}_*.txt"))
        return decode(path.read_bytes()).text

    return read


def cr_slice() -> str | None:
    """CR 2026-04-17: title and introduction, the first and last contents lines, rules 100.1
    to 100.4 and 702.19 Trample, the end of the body, the first glossary entries, credits."""
    lines = _lines("cr-en/MagicCompRules 20260417.txt")
    if lines is None:
        return None
    contents = _index(lines, "Contents")
    body = _index(lines, "1. Game Concepts", contents + 3)
    trample = _index(lines, "702.19. Trample")
    glossary = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    credits = max(i for i, line in enumerate(lines) if line.strip() == "Credits")
    return _cut(lines, (0, contents + 16), (body - 8, body + 20), (trample, trample + 14),
                (glossary - 4, glossary + 16), (credits - 1, credits + 6))


def cr_2006_slice() -> str | None:
    """CR 2006-10-01 (the old layout, keywords under 502): head, contents, a few rules."""
    lines = _lines("cr-en/MagicCompRules 20061001.txt")
    if lines is None:
        return None
    contents = _index(lines, "Contents")
    first = next(i for i in range(contents + 1, len(lines)) if lines[i].strip())
    body = _index(lines, lines[first].strip(), first + 1)
    glossary = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    return _cut(lines, (0, contents + 12), (body - 4, body + 30), (glossary - 3, glossary + 12))


def po_slice() -> str | None:
    """The pt-BR catalogue: header, front matter and first contents entries, the contents'
    back matter, rules 702.19 to 702.19e, the first glossary terms and the credits."""
    lines = _lines("cr-other/magicjudgesbr_comprehensive-rules_pt-BR_20201120.po")
    if lines is None:
        return None
    glossary = lines.index('msgid "Glossary"')
    trample = lines.index('msgid "702.19. Trample"')
    abandon = lines.index('msgid "Abandon"')
    credits = lines.index('msgid "Magic: The Gathering Original Game Design: Richard Garfield"')
    return _cut(lines, (0, 40), (glossary, glossary + 6), (trample, trample + 24),
                (abandon, abandon + 24), (credits, credits + 12))


def faq_md_slice() -> str | None:
    """The English DGM FAQ: front matter, chrome, introduction, the first general notes (with
    the fuse rules it quotes), the first three cards and the trademark line."""
    lines = _lines("faq-en/ormos_dgm_faq_2013-04-22.md")
    if lines is None:
        return None
    general = lines.index("### GENERAL NOTES")
    cards = lines.index("### CARD-SPECIFIC NOTES")
    return _cut(lines, (0, general + 60), (cards, cards + 60), (len(lines) - 14, len(lines)))


def html_rules_slice() -> str | None:
    """The rule 100 page of the pt-BR site, without most of its side-bar navigation."""
    lines = _lines("html/magicjudgesbr_regras_cr_1_100.html")
    if lines is None:
        return None
    wrap = next(i for i, line in enumerate(lines) if 'id="main-content-wrap"' in line)
    return _cut(lines, (0, 40), (wrap, len(lines)))


def html_glossary_slice() -> str | None:
    """The glossary page of the pt-BR site: head, the first ten terms, the page's end."""
    lines = _lines("html/magicjudgesbr_regras_cr_glossario.html")
    if lines is None:
        return None
    wrap = next(i for i, line in enumerate(lines) if 'id="main-content-wrap"' in line)
    terms = [i for i, line in enumerate(lines) if line.strip().startswith("<dt ")]
    end = next(i for i in range(terms[-1], len(lines)) if "</dl>" in lines[i])
    return _cut(lines, (0, 40), (wrap, terms[10]), (end, len(lines)))


def html_index_page() -> str | None:
    """The index page of the pt-BR site, whole: its navigation is its table of contents."""
    lines = _lines("html/magicjudgesbr_regras_cr_index.html")
    return _cut(lines, (0, len(lines))) if lines is not None else None


def mtgjson_slice() -> str | None:
    """The DGM set file cut to six cards: Aetherling (French data, rulings), the split cards
    Alive // Well (two face objects, the fuse line) and three more; foreign data kept in French
    and German only. Pretty-printed, like the derived subset, so line mutations bite."""
    path = SHARED_CORPUS / "rulings/mtgjson_v5.2.0_DGM.json"
    if not path.is_file():
        return None
    doc = json.loads(path.read_bytes())
    cards = doc["data"]["cards"]
    wanted = [c for c in cards if c["name"] in ("Aetherling", "Alive // Well")]
    wanted += [c for c in cards if c not in wanted and c.get("rulings")][:3]
    for card in wanted:
        card["foreignData"] = [f for f in card.get("foreignData", [])
                               if f["language"] in ("French", "German")]
    keep = ("name", "faceName", "layout", "manaCost", "type", "text", "power", "toughness",
            "keywords", "rulings", "foreignData", "side", "number", "setCode")
    data = {"code": doc["data"]["code"], "name": doc["data"]["name"],
            "cards": [{k: c[k] for k in keep if k in c} for c in wanted], "tokens": []}
    return json.dumps({"meta": doc["meta"], "data": data}, indent=2, ensure_ascii=False) + "\n"


# Seed name -> (the parser that reads it, how to get its text).
def _translation_excerpt(name: str) -> Callable[[], str]:
    """A real excerpt of a whole-CR translation, kept among the tests' fixtures, up to the
    end of its glossary (the Korean glossary is "<생략>", omitted, which no parser reads)."""
    def read() -> str:
        path = REPO / "tests" / "fixtures" / "cr_translation" / name
        text = decode(path.read_bytes()).text
        return text.split("<생략>")[0]

    return read


SEEDS: dict[str, tuple[str, Callable[[], str | None]]] = {
    "keyword_page-000": ("keyword_page", _embedded("000")),
    "faq_fr-001": ("faq_fr", _embedded("001")),
    "crystal_keep-002": ("crystal_keep", _embedded("002")),
    "cr_table-003": ("cr_table", _embedded("003")),
    "rulings_list-004": ("rulings_list", _embedded("004")),
    "cr_text-2026": ("cr_text", cr_slice),
    "cr_text-2006": ("cr_text", cr_2006_slice),
    "cr_translation-zh": ("cr_translation", _translation_excerpt("zh_20220610_excerpt.txt")),
    "cr_translation-ko": ("cr_translation", _translation_excerpt("ko_20211119_excerpt.txt")),
    "po_catalog-ptbr": ("po_catalog", po_slice),
    "mtgjson-dgm": ("mtgjson", mtgjson_slice),
    "faq_md-dgm": ("faq_md", faq_md_slice),
    "html_rules-100": ("html_rules", html_rules_slice),
    "html_rules-glossary": ("html_rules", html_glossary_slice),
    "html_rules-index": ("html_rules", html_index_page),
}


@cache
def seed_text(name: str) -> str | None:
    """The seed's text, or None when it is cut from a shared corpus that is absent."""
    return SEEDS[name][1]()


def shared_corpus_reason() -> str:
    return f"shared corpus not found at {SHARED_CORPUS}: set KB_SHARED_CORPUS"

