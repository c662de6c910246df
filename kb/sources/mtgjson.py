"""MTGJSON v5 card data: cards, their WotC rulings and their translations.

A set file is one JSON object, ``{"meta": {"date", "version"}, "data": {..., "cards": [...],
"tokens": [...]}}``, usually on a single line; kb's derived subset is pretty-printed,
``{"meta", "derivation", "sets": {code: {"name", "cards"}}, "rulesTermCards": [...]}``. Each
card object carries the Oracle (current English) ``name``, ``manaCost``, ``type``, ``text``,
``power``/``toughness``/``loyalty``/``defense``, ``keywords``, dated ``rulings`` and
``foreignData`` (the name, type line and text of one printing in each language). A split,
adventure, flip or double-faced card is one object per face, sharing ``name``
("Alive // Well") and told apart by ``faceName`` and ``side``.

What the parser keeps, and why:

* one English Card per card name (``mtgjson:aetherling``), faces in side order; a line every
  half of a split card ends with (Fuse) becomes ``card_text``. Oracle text does not vary
  between printings, so a reprint (basic lands, a card both in a set and in ``rulesTermCards``)
  adds nothing and is skipped, but for the names in other languages it gives;
* one French Card per distinct French printing (``mtgjson:fr:aetherling``). French ids are
  keyed on the English name because the English Oracle name is the card's identity: French
  names change between printings and eras ("Aetherlin" here, "Ætherlin" in the 2013 FAQ), and
  two English cards may share one French name. A second, different French printing of the same
  card is ``mtgjson:fr:aetherling~2``;
* the rulings of each card (``mtgjson:aetherling/1``, language "en", by WotC), each once
  although every face and printing repeats them;
* from ``foreignData``: every language's name (Card ``names``) and the French type line
  (" : " where English has " — ") and text. Other languages' texts, flavour text, printed
  (``original*``) wording, identifiers, prices and set metadata are not rules text: ignored.

Ids are the same in every MTGJSON file that holds the card, so records read from two files
(DGM and the subset) are the same records. Line numbers are those of each card object (every
record of a single-line set file is on line 1). A document that is not valid JSON (truncated)
keeps the cards read before the damage and becomes a Fragment from there on. A key repeated
inside a card object (two objects run together by damage) keeps its last value, as JSON
readers do; the values it overrode become a Fragment, as do card arrays inside a card object,
foreignData entries without a language, whatever a rulings array holds besides dated rulings
(objects run into it by damage) and cards or rulings found in any other value of a card.
A value of the wrong JSON type is reported per record, the rest of the card kept: a number
where text is expected (``"power": 3``) is read as text; an object or array there (``"text":
{...}``), keywords that are not a list, are a Fragment naming the field and card;
a ruling whose date is not a string is "not a dated ruling"; a ``meta`` date that is not a
string gives no version.
"""

from __future__ import annotations

import bisect
import dataclasses
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from kb.link.citations import find_citations
from kb.model import Card, CardFace, Fragment, Loc, ParseResult, Record, Ruling
from kb.sources.ids import UniqueIds, slug

FORMAT = "mtgjson"
SOURCE_ID = "mtgjson"

LANGUAGES = {
    "English": "en",
    "French": "fr",
    "German": "de",
    "Italian": "it",
    "Spanish": "es",
    "Portuguese (Brazil)": "pt",
    "Japanese": "ja",
    "Korean": "ko",
    "Russian": "ru",
    "Chinese Simplified": "zh-Hans",
    "Chinese Traditional": "zh-Hant",
}

_SNIFF = re.compile(r'^\s*\{\s*"meta"\s*:\s*\{[^{}]*"version"\s*:\s*"5\.')
_META = re.compile(r'"meta"\s*:\s*')
_ARRAY_KEYS = ("cards", "tokens", "rulesTermCards")
_CARD_ARRAY = re.compile(rf'"(?P<key>{"|".join(_ARRAY_KEYS)})"\s*:\s*\[')
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def sniff(text: str) -> bool:
    """True for an MTGJSON v5 file: a JSON object that opens with its ``meta`` block."""
    return _SNIFF.match(text[:1000]) is not None


def parse(text: str, file: str) -> ParseResult:
    """Parse one MTGJSON file (the JSON text, already decoded)."""
    scan = scan_cards(text)
    try:
        doc = json.loads(text)
        error = None
    except json.JSONDecodeError as exc:
        doc, error = None, exc
    meta = _meta(doc, text)
    builder = _Builder(file, _LineIndex(text), text)
    records: list[Record] = list(builder.run(scan.cards))
    if error is not None or scan.stopped is not None:
        records.append(builder.damaged(scan.end, error, scan.stopped))
    return ParseResult(
        FORMAT,
        "mixed",
        meta.get("date"),
        tuple(records),
        title=_title(doc, meta),
        source_id=f"{SOURCE_ID}:{_file_code(doc, file)}",
    )


def _file_code(doc: Any, file: str) -> str:
    """Names the file among MTGJSON files: its set code, else its file name.

    Record ids leave it out on purpose (``mtgjson:aetherling`` whichever file a card comes from)
    so that the build keeps one record per card; the source id must still tell files apart.
    """
    if isinstance(doc, dict) and isinstance(doc.get("data"), dict) and isinstance(
            doc["data"].get("code"), str) and doc["data"]["code"]:
        return doc["data"]["code"]
    return slug(file.rsplit("/", 1)[-1].split(".", 1)[0])


# -- reading the JSON ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScannedCard:
    offset: int  # where the card object starts in the text
    end: int  # where it ends
    kind: str  # "card" or "token"
    obj: Any
    # (key, value) pairs a repeated key overrode inside the object (JSON keeps the last).
    overridden: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class Scan:
    cards: list[ScannedCard] = field(default_factory=list)
    end: int = 0  # offset after the last card read
    stopped: str | None = None  # why reading stopped early


def scan_cards(text: str) -> Scan:
    """Every object of the ``cards``, ``tokens`` and ``rulesTermCards`` arrays, with its
    offset: each is decoded on its own, so a damaged file still yields the cards before the
    damage. (A quoted ``"cards"`` inside a JSON string has escaped quotes and cannot match.)"""
    scan = Scan()
    overridden: list[tuple[str, Any]] = []
    decoder = json.JSONDecoder(object_pairs_hook=_noting_overridden(overridden))
    for m in _CARD_ARRAY.finditer(text):
        if m.start() < scan.end:
            continue
        kind = "token" if m["key"] == "tokens" else "card"
        pos = _WHITESPACE.match(text, m.end()).end()
        while pos < len(text) and text[pos] != "]":
            try:
                obj, end = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as exc:
                scan.stopped = f"{exc.msg} in the {m['key']} array"
                return scan
            scan.cards.append(ScannedCard(pos, end, kind, obj, tuple(overridden)))
            overridden.clear()
            scan.end = end
            pos = _WHITESPACE.match(text, end).end()
            if text.startswith(",", pos):
                pos = _WHITESPACE.match(text, pos + 1).end()
    return scan


def _noting_overridden(
    overridden: list[tuple[str, Any]],
) -> Callable[[list[tuple[str, Any]]], dict[str, Any]]:
    """An object hook that builds objects as ``json`` does, the last of a repeated key winning,
    and notes the values it overrides: a damaged file can run two objects into one (a French
    entry's ``name`` overriding the German entry's it was merged with)."""

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) < len(pairs):
            winners = {key: i for i, (key, _) in enumerate(pairs)}
            overridden.extend(pair for i, pair in enumerate(pairs) if winners[pair[0]] != i)
        return obj

    return hook


def _meta(doc: Any, text: str) -> dict[str, str]:
    """The ``meta`` block's text values (a date written as a number is not a date)."""
    return {k: v for k, v in _meta_block(doc, text).items() if isinstance(v, str)}


def _meta_block(doc: Any, text: str) -> dict[str, Any]:
    if isinstance(doc, dict) and isinstance(doc.get("meta"), dict):
        return doc["meta"]
    m = _META.search(text, 0, 1000)
    if m:
        try:
            meta = _DECODER.raw_decode(text, m.end())[0]
        except json.JSONDecodeError:
            return {}
        return meta if isinstance(meta, dict) else {}
    return {}


def _title(doc: Any, meta: dict[str, str]) -> str:
    version = meta.get("version", "")
    if isinstance(doc, dict) and isinstance(doc.get("data"), dict):
        data = doc["data"]
        return f"MTGJSON {version}: {data.get('name')} ({data.get('code')})"
    if isinstance(doc, dict) and isinstance(doc.get("sets"), dict):
        sets = ", ".join(doc["sets"])
        return f"MTGJSON {version} subset: {sets} and cards whose rulings use rules terms"
    return f"MTGJSON {version}".strip()


class _LineIndex:
    """Offsets to 1-based line numbers."""

    def __init__(self, text: str) -> None:
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_left(self.newlines, offset) + 1


# -- building records ------------------------------------------------------------------------


@dataclass
class _Builder:
    file: str
    lines: _LineIndex
    text: str
    unique: UniqueIds = field(default_factory=UniqueIds)
    english: dict[str, str] = field(default_factory=dict)  # card key -> its card's id
    # card key -> its printings: the English card gets the foreign names of them all
    printings: dict[str, list[list[ScannedCard]]] = field(default_factory=dict)
    rulings_read: dict[str, set[tuple[str, str]]] = field(default_factory=dict)  # (date, text)
    kept: set[tuple[str, str]] = field(default_factory=set)  # (card id, JSON) kept unread
    french: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)  # content, by id

    def loc(self, offset: int) -> Loc:
        return Loc(self.file, self.lines.line(offset))

    def locate(self, value: str, card: ScannedCard) -> Loc:
        """The line of a string value inside a card object (the card's line if not found)."""
        found = self.text.find(json.dumps(value, ensure_ascii=False), card.offset, card.end)
        return self.loc(found if found >= 0 else card.offset)

    def run(self, scanned: list[ScannedCard]) -> Iterator[Record]:
        wrong: dict[int, list[Fragment]] = {}
        typed = []
        for s in scanned:
            obj, bad = _typed(s.obj)
            typed.append(dataclasses.replace(s, obj=obj))
            wrong[s.offset] = [self.wrong_type(s, where, value) for where, value in bad]
        printings = list(_printings(typed))
        for printing in printings:
            if _named(printing):
                self.printings.setdefault(_card_key(printing), []).append(printing)
        for printing in printings:
            yield from (f for s in printing for f in wrong[s.offset])
            yield from (self.overridden(s) for s in printing if s.overridden)
            if not _named(printing):
                yield from (self.fragment(s, "card object without a name") for s in printing)
                continue
            yield from (f for s in printing for f in self.misplaced(s.obj, s.offset))
            yield from self.card(printing)

    def wrong_type(self, scanned: ScannedCard, where: str, value: Any) -> Fragment:
        """A value of the wrong JSON type (text as an object), kept whole, not read."""
        name = scanned.obj.get("name") if isinstance(scanned.obj, dict) else None
        return self.unique.unparsed(
            SOURCE_ID, self.loc(scanned.offset), json.dumps(value, ensure_ascii=False),
            f"{where} of card {name!r} is {_json_type(value)}, not "
            f"{'a list of words' if where == 'keywords' else 'text'}: not read")

    def fragment(self, scanned: ScannedCard, reason: str) -> Fragment:
        text = json.dumps(scanned.obj, ensure_ascii=False)
        return self.unique.unparsed(SOURCE_ID, self.loc(scanned.offset), text, reason)

    def misplaced(self, obj: dict[str, Any], offset: int) -> Iterator[Fragment]:
        """What damage put where no record reads it, kept whole: card arrays inside a card
        object (a doubled line opening the array again), foreignData entries that are no
        foreign printing (no language: a lost bracket ran a card into the array), and cards
        and dated rulings inside any other value (a lost bracket ran them into keywords)."""
        parts: list[tuple[Any, str]] = []
        inner = {k: obj[k] for k in _ARRAY_KEYS if k in obj}
        if inner:
            parts.append((inner, "card arrays inside a card object: not read as cards"))
        foreign = obj.get("foreignData")
        entries = foreign if isinstance(foreign, list) else [] if foreign is None else [foreign]
        odd = [e for e in entries if not (isinstance(e, dict) and _has_language(e))]
        if odd:
            parts.append((odd, "foreignData entries without a language: not read"))
        rest = [v for k, v in obj.items() if k not in ("rulings", "foreignData", *_ARRAY_KEYS)]
        rest += [v for e in entries if e not in odd for v in e.values()]
        stray = list(_cards_and_rulings_in(rest))
        if stray:
            parts.append((stray, "cards or rulings inside a card object, where none is read"))
        for value, reason in parts:
            yield self.unique.unparsed(SOURCE_ID, self.loc(offset),
                                       json.dumps(value, ensure_ascii=False), reason)

    def overridden(self, scanned: ScannedCard) -> Fragment:
        """The values a repeated key overrode in a card object, which no record holds."""
        pairs = [f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                 for k, v in scanned.overridden]
        return self.unique.unparsed(
            SOURCE_ID, self.loc(scanned.offset), "\n".join(pairs),
            "keys repeated in a card object: these earlier values were overridden, not read",
        )

    def damaged(
        self, end: int, error: json.JSONDecodeError | None, stopped: str | None
    ) -> Fragment:
        what = f"{error.msg} (line {error.lineno}, column {error.colno})" if error else stopped
        rest = self.text[end:]
        offset = end + len(rest) - len(rest.lstrip(" \t\n\r,"))
        return self.unique.unparsed(
            SOURCE_ID, self.loc(offset), self.text[offset:].rstrip(),
            f"{self.file} is not valid JSON ({what}); the cards before this point were read",
        )

    def card(self, printing: list[ScannedCard]) -> Iterator[Record]:
        objs = [s.obj for s in printing]
        first = objs[0]
        name = first["name"]
        key = _card_key(printing)
        if key not in self.english:
            cid = self.english[key] = self.unique(key)
            faces, card_text = _common_last_line(first, [_face(o) for o in objs])
            every_face = [s.obj for p in self.printings[key] for s in p]
            yield Card(
                cid, name, "en", self.loc(printing[0].offset), faces, card_text,
                names=_foreign_names(every_face, exclude="en"),
                keywords=tuple(_strings(first.get("keywords"))),
            )
        yield from self.rulings(self.english[key], name, printing)
        french = self.french_card(key, name, printing)
        if french is not None:
            yield french

    def rulings(self, cid: str, name: str, printing: list[ScannedCard]) -> Iterator[Record]:
        """The rulings of a printing's faces not read yet. MTGJSON repeats a card's rulings on
        each face and printing; reading every copy, each ruling once, keeps a ruling that
        damage left in one copy only. What a rulings array holds besides dated rulings (keys
        other than ``date`` and ``text``, objects run in by damage) is kept as a Fragment."""
        read = self.rulings_read.setdefault(cid, set())
        for card in printing:
            rulings = card.obj.get("rulings")
            items = rulings if isinstance(rulings, list) else [] if rulings is None else [rulings]
            for item in items:
                text = item.get("text") if isinstance(item, dict) else None
                date = item.get("date") if isinstance(item, dict) else None
                if not (isinstance(text, str) and isinstance(date, str)):
                    yield from self.unread(cid, card, item, "not a dated ruling")
                    continue
                yield from self.unread(cid, card, {k: v for k, v in item.items()
                                                   if k not in ("date", "text")},
                                       "keys of a ruling that kb does not read")
                if (date, text) in read:
                    continue
                read.add((date, text))
                rid = self.unique(f"{cid}/{len(read)}")
                yield Ruling(
                    rid, text, "en", self.locate(text, card), card=name, ordinal=len(read),
                    date=date, source_name="wotc", citations=find_citations(rid, text),
                )

    def unread(self, cid: str, card: ScannedCard, value: Any, reason: str) -> Iterator[Fragment]:
        """A Fragment for something of a rulings array that is not a ruling, once per card."""
        text = json.dumps(value, ensure_ascii=False)
        if value and (cid, text) not in self.kept:
            self.kept.add((cid, text))
            yield self.unique.unparsed(SOURCE_ID, self.loc(card.offset), text,
                                       f"in the rulings of {card.obj.get('name')!r}: {reason}")

    def french_card(self, key: str, name: str, printing: list[ScannedCard]) -> Card | None:
        """The French printing, unless a French card with the same content was read already."""
        objs = [s.obj for s in printing]
        entries = [e for e in (_foreign(o, "French") for o in objs) if e is not None]
        if len(entries) != len(objs) or not all(isinstance(e.get("name"), str) for e in entries):
            return None
        faces, card_text = _common_last_line(objs[0], [
            CardFace(
                e.get("faceName") or e["name"], o.get("manaCost"), e.get("type"), e.get("text"),
                o.get("power"), o.get("toughness"), o.get("loyalty"), o.get("defense"),
            )
            for e, o in zip(entries, objs, strict=True)
        ])
        fr_name = entries[0]["name"]
        names = (("en", name), *_foreign_names(objs, exclude="fr"))
        content = (fr_name, faces, card_text, names)
        known = self.french.setdefault(key, [])
        if content in known:
            return None
        known.append(content)
        fid = self.unique(key.replace(f"{SOURCE_ID}:", f"{SOURCE_ID}:fr:", 1))
        loc = self.locate(fr_name, printing[0])
        return Card(fid, fr_name, "fr", loc, faces, card_text, names)


def _cards_and_rulings_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every object inside ``value`` that is a card (it has a name) or a dated ruling."""
    if isinstance(value, dict):
        if isinstance(value.get("name"), str) or (
            isinstance(value.get("date"), str) and isinstance(value.get("text"), str)
        ):
            yield value
            return
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            yield from _cards_and_rulings_in(item)


# Card fields kb reads as text, in a card object and in a foreignData entry. A number there
# (power 3, number 12) is read as its text; an object or array is kept as a Fragment.
_TEXT_FIELDS = ("manaCost", "type", "text", "power", "toughness", "loyalty", "defense",
                "faceName", "layout", "number", "side", "setCode")
_FOREIGN_TEXT_FIELDS = ("name", "faceName", "type", "text")


def _typed(obj: Any) -> tuple[Any, list[tuple[str, Any]]]:
    """The card object with every text field a string (or absent), and the values of the
    wrong type that were taken out, each with where it was."""
    if not isinstance(obj, dict):
        return obj, []
    bad: list[tuple[str, Any]] = []
    out = dict(obj)
    for key in _TEXT_FIELDS:
        _as_text(out, key, key, bad)
    if "keywords" in out and not isinstance(out["keywords"], list | None):
        bad.append(("keywords", out.pop("keywords")))  # (cards run into a list: misplaced)
    foreign = out.get("foreignData")
    if isinstance(foreign, dict) and _has_language(foreign):  # one entry without its array
        foreign = out["foreignData"] = [foreign]
    if isinstance(foreign, list):
        entries = []
        for entry in foreign:
            if isinstance(entry, dict) and _has_language(entry):
                entry = dict(entry)
                for key in _FOREIGN_TEXT_FIELDS:
                    _as_text(entry, key, f"{entry['language']} {key}", bad)
            entries.append(entry)
        out["foreignData"] = entries
    return out, bad


def _as_text(obj: dict[str, Any], key: str, where: str, bad: list[tuple[str, Any]]) -> None:
    value = obj.get(key)
    if value is None or isinstance(value, str):
        return
    if isinstance(value, int | float) and not isinstance(value, bool):
        obj[key] = str(value)
    else:
        bad.append((where, obj.pop(key)))


def _json_type(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "true or false"}.get(
        type(value), type(value).__name__)


def _named(printing: list[ScannedCard]) -> bool:
    return all(isinstance(s.obj, dict) and isinstance(s.obj.get("name"), str) for s in printing)


def _card_key(printing: list[ScannedCard]) -> str:
    """The id of the card a printing is of: ``mtgjson:aetherling``, ``mtgjson:token:...``."""
    prefix = f"{SOURCE_ID}:token:" if printing[0].kind == "token" else f"{SOURCE_ID}:"
    return prefix + slug(printing[0].obj["name"])


def _has_language(entry: dict[str, Any]) -> bool:
    return isinstance(entry.get("language"), str)


def _printings(scanned: list[ScannedCard]) -> Iterator[list[ScannedCard]]:
    """Group the face objects of one printing: consecutive objects of the same card name,
    set and number (``7a``/``7b`` count as ``7``), ordered by ``side``."""
    group: list[ScannedCard] = []
    for item in scanned:
        if group and _printing_key(group[0]) == _printing_key(item):
            group.append(item)
            continue
        if group:
            yield _by_side(group)
        group = [item]
    if group:
        yield _by_side(group)


def _printing_key(item: ScannedCard) -> tuple[Any, ...]:
    obj = item.obj
    if not isinstance(obj, dict) or not obj.get("faceName"):
        return (id(obj),)
    number = str(obj.get("number", "")).rstrip("ab")
    return (item.kind, obj.get("name"), obj.get("setCode"), number)


def _by_side(group: list[ScannedCard]) -> list[ScannedCard]:
    return sorted(group, key=lambda s: str(s.obj.get("side", "")) if isinstance(s.obj, dict)
                  else "")


def _face(obj: dict[str, Any]) -> CardFace:
    return CardFace(
        obj.get("faceName") or obj["name"],
        obj.get("manaCost"),
        obj.get("type"),
        obj.get("text"),
        obj.get("power"),
        obj.get("toughness"),
        obj.get("loyalty"),
        obj.get("defense"),
    )


def _common_last_line(
    obj: dict[str, Any], faces: list[CardFace]
) -> tuple[tuple[CardFace, ...], str | None]:
    """A split card repeats its whole-card line (Fuse) at the end of each half's text."""
    texts = [f.text or "" for f in faces]
    if obj.get("layout") != "split" or len(faces) < 2 or not all("\n" in t for t in texts):
        return tuple(faces), None
    lasts = {t.rsplit("\n", 1)[1] for t in texts}
    if len(lasts) != 1:
        return tuple(faces), None
    trimmed = tuple(
        CardFace(f.name, f.mana_cost, f.type_line, (f.text or "").rsplit("\n", 1)[0], f.power,
                 f.toughness, f.loyalty, f.defense)
        for f in faces
    )
    return trimmed, lasts.pop()


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, list):
        yield from (v for v in value if isinstance(v, dict))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, list):
        yield from (v for v in value if isinstance(v, str))


def _foreign(obj: dict[str, Any], language: str) -> dict[str, Any] | None:
    return next((f for f in _dicts(obj.get("foreignData")) if f.get("language") == language),
                None)


def language_code(name: str) -> str:
    return LANGUAGES.get(name) or slug(name)


def _foreign_names(objs: list[dict[str, Any]], exclude: str) -> tuple[tuple[str, str], ...]:
    """The names in other languages that the face objects give, each once (faces repeat
    them, but damage can leave one face's list shorter)."""
    pairs: list[tuple[str, str]] = []
    entries = (e for obj in objs for e in _dicts(obj.get("foreignData")))
    for entry in filter(_has_language, entries):
        code, name = language_code(entry["language"]), entry.get("name")
        if code != exclude and isinstance(name, str) and (code, name) not in pairs:
            pairs.append((code, name))
    return tuple(pairs)


# -- bilingual keywords ----------------------------------------------------------------------

_REMINDER = re.compile(r"\s*\([^()]*\)")
_PARAMETER = re.compile(r"^(?:\{[^}]+\})+$|^\d+$|^X$")
_ABILITY_WORD = re.compile(r"^(?P<word>[^—:\n]+?) — ")
_TERM_MAX_WORDS = 4


def keyword_pairs(english: Card, french: Card) -> tuple[tuple[str, str], ...]:
    """(English keyword, French keyword) pairs read off two printings of one card.

    Lines are aligned face by face, line by line (both texts need the same number of lines).
    A keyword line ("Flying, trample" / "Vol, piétinement", reminder text removed) pairs item
    by item when every English item is one of the card's ``keywords``, alone or followed by a
    cost or number that the French item repeats ("Echo {2}{R}" / "Écho {2}{R}"); a line led by
    an ability word ("Battalion — ..." / "Bataillon — ...") pairs the words before the dash.
    French terms get an initial capital. Old printings can word a line differently, so a
    table built from many cards should keep, for each English keyword, the majority French term.
    """
    keywords = {k.casefold(): k for k in english.keywords}
    pairs: list[tuple[str, str]] = []
    for en_face, fr_face in zip(english.faces, french.faces, strict=False):
        en_lines = (en_face.text or "").split("\n")
        fr_lines = (fr_face.text or "").split("\n")
        if len(en_lines) != len(fr_lines):
            continue
        for en_line, fr_line in zip(en_lines, fr_lines, strict=True):
            for pair in _line_pairs(keywords, en_line, fr_line):
                if pair not in pairs:
                    pairs.append(pair)
    return tuple(pairs)


def _line_pairs(keywords: dict[str, str], en_line: str, fr_line: str) -> Iterable[tuple[str, str]]:
    en_items = [i.strip() for i in _REMINDER.sub("", en_line).split(",")]
    fr_items = [i.strip() for i in _REMINDER.sub("", fr_line).split(",")]
    if len(en_items) == len(fr_items):
        items = [_item_pair(keywords, e, f) for e, f in zip(en_items, fr_items, strict=True)]
        if all(items):
            return [i for i in items if i is not None]
    en_word, fr_word = _ABILITY_WORD.match(en_line), _ABILITY_WORD.match(fr_line)
    if en_word and fr_word and en_word["word"].casefold() in keywords:
        return [(keywords[en_word["word"].casefold()], _capital(fr_word["word"]))]
    return []


def _item_pair(keywords: dict[str, str], en: str, fr: str) -> tuple[str, str] | None:
    head, _, parameter = en.partition(" ")
    if en.casefold() in keywords:
        keyword, term = keywords[en.casefold()], fr
    elif head.casefold() in keywords and _PARAMETER.match(parameter) and fr.endswith(
        f" {parameter}"
    ):
        keyword, term = keywords[head.casefold()], fr[: -len(parameter) - 1]
    else:
        return None
    if not term or len(term.split()) > _TERM_MAX_WORDS or re.search(r"[{}\d.:]", term):
        return None
    return keyword, _capital(term)


def _capital(term: str) -> str:
    return term[:1].upper() + term[1:]
