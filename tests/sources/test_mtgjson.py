"""The MTGJSON parser against the three shared set files and the derived subset.

Expected numbers were counted outside the parser, with ``json.load`` in a shell:
DGM holds 171 card objects (15 split cards = 30 of them) with 156 distinct names, 1 token,
460 rulings over the distinct names and French ``foreignData`` on 141 names (SOURCES.md says
the same); the subset holds 2,163 card objects with 2,065 distinct names and 8,110 rulings
over them. Line numbers were read with ``zcat ... | grep -n``.
"""

from __future__ import annotations

import gzip
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from kb.model import Card, Fragment, ParseResult, Ruling
from kb.sources import cr_text, mtgjson, po_catalog
from kb.text.decode import decode

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("KB_SHARED_CORPUS", ROOT / ".." / "shared" / "corpus"))
RULINGS = SHARED / "rulings"
DGM = "mtgjson_v5.2.0_DGM.json"
SUBSET = "mtgjson_subset_rulings_foreign.json.gz"

# Card fields the parser deliberately does not keep: identifiers, printing and market data,
# printed (pre-Oracle) wording and flavour text are not rules text. Set-level data (boosters,
# sealed products, translations of the set name) is ignored the same way.
IGNORED_CARD_FIELDS = {
    "artist", "availability", "boosterTypes", "borderColor", "colorIdentity", "colorIndicator",
    "colors", "convertedManaCost", "edhrecRank", "faceConvertedManaCost", "faceManaValue",
    "finishes", "flavorText", "frameVersion", "hasFoil", "hasNonFoil", "identifiers",
    "isReprint", "isReserved", "leadershipSkills", "legalities", "manaValue", "number",
    "originalText", "originalType", "otherFaceIds", "printings", "purchaseUrls", "rarity",
    "setCode", "side", "subtypes", "supertypes", "types", "uuid", "variations", "watermark",
    "asciiName", "isNonFoilOnly", "layout", "promoTypes",
    "reverseRelated",  # a token's list of the cards that make it
}
# Kept from foreignData: every language's name, and the French type line and text.
IGNORED_FOREIGN_FIELDS = {"multiverseId", "flavorText"}

AETHERLING_RULINGS = (
    "Aetherling’s first ability will return it to the battlefield only if that ability also "
    "exiled it. If Aetherling left the battlefield in response to that ability, it won’t "
    "return, even if it was exiled by another spell or ability.",
    "Aetherling’s last ability can be activated even if its power is 0 or less. If a creature "
    "would assign 0 or less damage in combat, it doesn’t assign combat damage at all.",
)

# Real excerpt of the DGM file (Boros Mastiff, trimmed to a few fields and two languages).
MASTIFF = {
    "name": "Boros Mastiff", "setCode": "DGM", "number": "1", "layout": "normal",
    "manaCost": "{1}{W}", "type": "Creature — Dog",
    "text": "Battalion — Whenever Boros Mastiff and at least two other creatures attack, "
    "Boros Mastiff gains lifelink until end of turn. (Damage dealt by a creature with "
    "lifelink also causes its controller to gain that much life.)",
    "power": "2", "toughness": "2", "keywords": ["Battalion"],
    "rulings": [{"date": "2013-04-15", "text": "The three attacking creatures don’t have to "
                 "be attacking the same player or planeswalker."}],
    "foreignData": [
        {"language": "German", "name": "Boros-Mastiff", "type": "Kreatur — Hund",
         "text": "Bataillon — Immer wenn ..."},
        {"language": "French", "name": "Mâtin boros", "type": "Créature : chien",
         "text": "Bataillon — À chaque fois que le Mâtin boros et au moins deux autres "
         "créatures attaquent, le Mâtin boros acquiert le lien de vie jusqu'à la fin du tour."},
    ],
}


def set_file(cards: list[dict], tokens: list[dict] | None = None) -> str:
    data = {"cards": cards, "code": "DGM", "name": "Dragon's Maze", "tokens": tokens or []}
    return json.dumps({"meta": {"date": "2022-04-25", "version": "5.2.0+20220425"}, "data": data},
                      ensure_ascii=False)


def shared(name: str) -> str:
    path = RULINGS / name
    if not path.is_file():
        pytest.skip(f"shared corpus not found at {SHARED}: set KB_SHARED_CORPUS")
    data = path.read_bytes()
    return decode(gzip.decompress(data) if name.endswith(".gz") else data).text


@pytest.fixture(scope="module")
def dgm_text() -> str:
    return shared(DGM)


@pytest.fixture(scope="module")
def dgm(dgm_text: str) -> ParseResult:
    return mtgjson.parse(dgm_text, DGM)


@pytest.fixture(scope="module")
def subset_text() -> str:
    return shared(SUBSET)


@pytest.fixture(scope="module")
def subset(subset_text: str) -> ParseResult:
    return mtgjson.parse(subset_text, SUBSET)


def by_id(result: ParseResult) -> dict:
    return {r.id: r for r in result.records}


def cards(result: ParseResult, language: str) -> list[Card]:
    return [r for r in result.records if isinstance(r, Card) and r.language == language]


# -- small inline documents ------------------------------------------------------------------


def test_sniff() -> None:
    assert mtgjson.sniff(set_file([MASTIFF]))
    assert mtgjson.sniff('{\n "meta": {\n  "date": "2022-04-25",\n  "version": "5.2.0+2022"}}')
    assert not mtgjson.sniff('{"data": []}')
    assert not mtgjson.sniff("")
    assert not mtgjson.sniff('msgid ""\nmsgstr ""\n')
    seed = decode((ROOT / "corpus" / "001_f4c4515b1d59e611.txt").read_bytes()).text
    assert not mtgjson.sniff(seed)
    assert not cr_text.sniff(set_file([MASTIFF])) and not po_catalog.sniff(set_file([MASTIFF]))


def test_one_card_in_two_languages() -> None:
    result = mtgjson.parse(set_file([MASTIFF]), "x.json")
    records = by_id(result)
    assert list(records) == ["mtgjson:boros-mastiff", "mtgjson:boros-mastiff/1",
                             "mtgjson:fr:boros-mastiff"]
    en, ruling, fr = records.values()
    assert en.faces[0].type_line == "Creature — Dog" and en.keywords == ("Battalion",)
    assert en.names == (("de", "Boros-Mastiff"), ("fr", "Mâtin boros"))
    assert ruling.card == "Boros Mastiff" and ruling.date == "2013-04-15"
    assert ruling.ordinal == 1 and ruling.language == "en" and ruling.source_name == "wotc"
    assert fr.name == "Mâtin boros" and fr.language == "fr"
    assert fr.faces[0].type_line == "Créature : chien"
    assert fr.faces[0].mana_cost == "{1}{W}" and fr.faces[0].power == "2"
    assert fr.names == (("en", "Boros Mastiff"), ("de", "Boros-Mastiff"))
    assert mtgjson.keyword_pairs(en, fr) == (("Battalion", "Bataillon"),)
    assert result.version == "2022-04-25" and result.source_id == "mtgjson:DGM"


def test_reprints_are_one_card_and_a_new_french_printing_is_kept() -> None:
    other_french = json.loads(json.dumps(MASTIFF))
    other_french["number"] = "1s"
    other_french["foreignData"][1]["name"] = "Mastiff boros"
    result = mtgjson.parse(set_file([MASTIFF, MASTIFF, other_french]), "x.json")
    assert [r.id for r in result.records] == [
        "mtgjson:boros-mastiff", "mtgjson:boros-mastiff/1", "mtgjson:fr:boros-mastiff",
        "mtgjson:fr:boros-mastiff~2",
    ]


def test_tokens_have_their_own_ids() -> None:
    token = {"name": "Boros Mastiff", "type": "Token Creature — Dog", "layout": "token"}
    ids = [r.id for r in mtgjson.parse(set_file([MASTIFF], [token]), "x.json").records]
    assert "mtgjson:token:boros-mastiff" in ids and "mtgjson:boros-mastiff" in ids


def test_ids_use_the_shared_slug() -> None:
    card = {**MASTIFF, "name": "Yawgmoth's Will", "foreignData": []}
    assert mtgjson.parse(set_file([card]), "x.json").records[0].id == "mtgjson:yawgmoth-s-will"


# -- malformed input -------------------------------------------------------------------------


def test_empty_text() -> None:
    result = mtgjson.parse("", "empty.json")
    assert len(result.records) == 1 and isinstance(result.records[0], Fragment)
    assert "empty.json" in result.records[0].reason


def test_truncated_keeps_the_cards_before_the_damage() -> None:
    text = set_file([MASTIFF, MASTIFF | {"name": "Second Card", "number": "2"}])
    cut = text.index('"Second Card"') + 20
    result = mtgjson.parse(text[:cut], "cut.json")
    *read, fragment = result.records
    assert [r.id for r in read] == ["mtgjson:boros-mastiff", "mtgjson:boros-mastiff/1",
                                    "mtgjson:fr:boros-mastiff"]
    assert isinstance(fragment, Fragment) and "cut.json" in fragment.reason
    assert fragment.text.startswith('{"name": "Second Card"')
    assert result.version == "2022-04-25"


def test_card_without_name() -> None:
    nameless = {k: v for k, v in MASTIFF.items() if k != "name"}
    result = mtgjson.parse(set_file([nameless, MASTIFF]), "x.json")
    first = result.records[0]
    assert isinstance(first, Fragment) and first.reason == "card object without a name"
    assert "Battalion — Whenever" in first.text
    assert result.records[1].id == "mtgjson:boros-mastiff"


def test_truncated_real_file(dgm_text: str) -> None:
    result = mtgjson.parse(dgm_text[: len(dgm_text) // 2], DGM)
    assert isinstance(result.records[-1], Fragment) and DGM in result.records[-1].reason
    assert 0 < len(cards(result, "en")) < 157


# -- Dragon's Maze ---------------------------------------------------------------------------


def test_dgm_counts(dgm: ParseResult) -> None:
    kinds = Counter((type(r).__name__, getattr(r, "language", None)) for r in dgm.records)
    assert kinds == {("Card", "en"): 156 + 1, ("Card", "fr"): 141, ("Ruling", "en"): 460}
    assert len({r.id for r in dgm.records}) == len(dgm.records)
    assert dgm.title == "MTGJSON 5.2.0+20220425: Dragon's Maze (DGM)"
    assert all(r.loc.line == 1 for r in dgm.records)  # a set file is one line


def test_aetherling(dgm: ParseResult) -> None:
    records = by_id(dgm)
    en, fr = records["mtgjson:aetherling"], records["mtgjson:fr:aetherling"]
    assert en.faces[0].mana_cost == "{4}{U}{U}" and en.faces[0].power == "4"
    assert en.faces[0].text.startswith("{U}: Exile Aetherling. Return it to the battlefield")
    assert ("fr", "Aetherlin") in en.names  # the 2013 FAQ writes "Ætherlin"
    assert fr.name == "Aetherlin" and fr.faces[0].type_line == "Créature : changeforme"
    assert fr.faces[0].text.split("\n")[1] == "{U} : L'Aetherlin est imblocable ce tour-ci."
    rulings = [records[f"mtgjson:aetherling/{n}"] for n in (1, 2)]
    assert tuple(r.text for r in rulings) == AETHERLING_RULINGS
    assert [r.ordinal for r in rulings] == [1, 2] and "mtgjson:aetherling/3" not in records


def test_split_card_with_fuse(dgm: ParseResult) -> None:
    card = by_id(dgm)["mtgjson:alive-well"]
    assert card.name == "Alive // Well" and [f.name for f in card.faces] == ["Alive", "Well"]
    assert card.faces[0].text == "Create a 3/3 green Centaur creature token."
    assert card.faces[1].mana_cost == "{W}"
    assert card.card_text == "Fuse (You may cast one or both halves of this card from your hand.)"
    assert card.names == () and "mtgjson:fr:alive-well" not in by_id(dgm)
    assert len([r for r in dgm.records if isinstance(r, Ruling) and r.card == card.name]) == 12


def test_dgm_keyword_pairs(dgm: ParseResult) -> None:
    records = by_id(dgm)
    krasis = mtgjson.keyword_pairs(records["mtgjson:battering-krasis"],
                                   records["mtgjson:fr:battering-krasis"])
    assert krasis == (("Trample", "Piétinement"), ("Evolve", "Évolution"))
    roc = mtgjson.keyword_pairs(records["mtgjson:steeple-roc"], records["mtgjson:fr:steeple-roc"])
    assert roc == (("Flying", "Vol"), ("First strike", "Initiative"))


def test_dgm_conservation(dgm_text: str, dgm: ParseResult) -> None:
    """Every kept field of every card object is in some record; the rest is listed above."""
    texts: set[str] = set()
    for r in dgm.records:
        if isinstance(r, Ruling):
            texts.add(r.text)
        elif isinstance(r, Card):
            texts.update([r.name, r.card_text or "", *r.keywords, *(n for _, n in r.names)])
            for f in r.faces:
                texts.update(v for v in (f.name, f.mana_cost, f.type_line, f.power, f.toughness,
                                         f.loyalty, f.defense) if v)
                texts.update((f.text or "").split("\n"))
    data = json.loads(dgm_text)["data"]
    for card in data["cards"] + data["tokens"]:
        for key, value in card.items():
            if key in IGNORED_CARD_FIELDS:
                continue
            if key == "rulings":
                assert {r["text"] for r in value} <= texts
            elif key == "foreignData":
                for entry in value:
                    kept = ("name", "type", "text") if entry["language"] == "French" else ("name",)
                    for field in kept:
                        assert set(entry.get(field, "").split("\n")) - {""} <= texts, entry
                    assert set(entry) - {"language", *kept} <= IGNORED_FOREIGN_FIELDS | {
                        "type", "text", "faceName"}
            elif key == "keywords":
                assert set(value) <= texts
            elif isinstance(value, str):
                assert set(value.split("\n")) <= texts, (card["name"], key)
            else:
                raise AssertionError(f"unexpected field {key}")


# -- the subset and cross-file identity ------------------------------------------------------


def test_subset_counts(subset: ParseResult) -> None:
    # Its speed is bench/bench_build.py's (a wall-clock assert failed on a loaded machine).
    result = subset
    assert len(cards(result, "en")) == 2065
    assert sum(isinstance(r, Ruling) for r in result.records) == 8110
    assert not any(isinstance(r, Fragment) for r in result.records)
    assert len({r.id for r in result.records}) == len(result.records)


def test_subset_lines(subset: ParseResult) -> None:
    records = by_id(subset)
    assert records["mtgjson:aetherling"].loc.line == 1113  # its "{"; "name" is on 1114
    assert records["mtgjson:aetherling/1"].loc.line == 1134
    assert records["mtgjson:fr:aetherling"].loc.line == 1159


def test_same_card_same_records_in_two_files(dgm: ParseResult, subset: ParseResult) -> None:
    a, b = by_id(dgm), by_id(subset)
    for rid in ("mtgjson:aetherling", "mtgjson:aetherling/2", "mtgjson:fr:aetherling",
                "mtgjson:alive-well"):
        assert a[rid].__class__(**{**_fields(a[rid]), "loc": b[rid].loc}) == b[rid]


def _fields(record) -> dict:
    return {name: getattr(record, name) for name in record.__slots__}


def test_keyword_table_majority(subset: ParseResult) -> None:
    records = by_id(subset)
    votes: dict[str, Counter] = {}
    for card in cards(subset, "en"):
        fr = records.get(card.id.replace("mtgjson:", "mtgjson:fr:", 1))
        if fr is not None:
            for en_term, fr_term in mtgjson.keyword_pairs(card, fr):
                votes.setdefault(en_term, Counter())[fr_term] += 1
    table = {en: c.most_common(1)[0][0] for en, c in votes.items()}
    assert table["Trample"] == "Piétinement" and table["Flying"] == "Vol"
    assert table["Echo"] == "Écho" and table["Split second"] == "Fraction de seconde"


# -- issue 17: values of the wrong JSON type --------------------------------------------------


def _with(**fields) -> dict:
    card = json.loads(json.dumps(MASTIFF))
    card.update(fields)
    return card


def test_a_text_written_as_an_object_is_reported_and_the_card_kept() -> None:
    other = _with(name="Other Card", text="Flying")
    result = mtgjson.parse(set_file([_with(text={"en": "Battalion"}), other]), "x.json")
    records = by_id(result)
    en = records["mtgjson:boros-mastiff"]
    assert en.faces[0].text is None and en.faces[0].type_line == "Creature — Dog"
    assert records["mtgjson:boros-mastiff/1"].date == "2013-04-15"
    assert records["mtgjson:other-card"].faces[0].text == "Flying"
    (fragment,) = [r for r in result.records if isinstance(r, Fragment)]
    assert fragment.text == '{"en": "Battalion"}'
    assert fragment.reason == ("text of card 'Boros Mastiff' is an object, not text: not read")


def test_numbers_where_text_is_expected_are_read_as_text() -> None:
    result = mtgjson.parse(set_file([_with(power=2, toughness=2.5, number=1)]), "x.json")
    en = by_id(result)["mtgjson:boros-mastiff"]
    assert (en.faces[0].power, en.faces[0].toughness) == ("2", "2.5")
    assert not [r for r in result.records if isinstance(r, Fragment)]


def test_a_ruling_dated_with_a_number_is_reported_the_others_kept() -> None:
    rulings = [{"date": 20130415, "text": "A ruling with a numeric date."},
               *MASTIFF["rulings"]]
    result = mtgjson.parse(set_file([_with(rulings=rulings)]), "x.json")
    (ruling,) = [r for r in result.records if isinstance(r, Ruling)]
    assert ruling.date == "2013-04-15"
    (fragment,) = [r for r in result.records if isinstance(r, Fragment)]
    assert fragment.text == '{"date": 20130415, "text": "A ruling with a numeric date."}'
    assert fragment.reason == "in the rulings of 'Boros Mastiff': not a dated ruling"


def test_wrong_types_in_foreign_data_keywords_and_meta() -> None:
    foreign = json.loads(json.dumps(MASTIFF["foreignData"]))
    foreign[1]["text"] = ["Bataillon", "—"]
    card = _with(foreignData=foreign, keywords="Battalion")
    text = set_file([card]).replace('"date": "2022-04-25"', '"date": 20220425')
    result = mtgjson.parse(text, "x.json")
    fr = by_id(result)["mtgjson:fr:boros-mastiff"]
    assert fr.name == "Mâtin boros" and fr.faces[0].text is None
    assert by_id(result)["mtgjson:boros-mastiff"].keywords == ()
    assert sorted(f.reason for f in result.records if isinstance(f, Fragment)) == [
        "French text of card 'Boros Mastiff' is an array, not text: not read",
        "keywords of card 'Boros Mastiff' is a string, not a list of words: not read"]
    assert result.version is None  # a date written as a number is no date


def test_one_foreign_entry_without_its_array_is_read() -> None:
    card = _with(foreignData=MASTIFF["foreignData"][1])
    result = mtgjson.parse(set_file([card]), "x.json")
    assert by_id(result)["mtgjson:fr:boros-mastiff"].name == "Mâtin boros"
