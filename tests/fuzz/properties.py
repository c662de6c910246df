"""What must hold for any bytes a corpus folder can hold, checked the way the build reads them.

``ingest`` runs the build's path: bytes -> :func:`kb.text.decode.decode` -> the registry's
parser -> ``parse`` (or, when no parser claims the text, the one whole-text Fragment the build
keeps), then stores the records in an in-memory store as the build does. ``check`` asserts:

1. **Decoding** is lossless but for the invalid byte sequences it counts (``replaced``) and
   a binary tail it cuts off and counts (``dropped``).
2. **No exception escapes** decode (other than :class:`BinaryContentError`, which the build
   reports by name), the parser or the store.
3. **Determinism**: the same bytes give equal records twice.
4. **Well-formed records**: ids unique within the document (the store's key, so a repeat
   would be lost), every ``Loc`` in the file and on one of its lines, and the store takes
   them all (through the codec to JSON).
5. **Conservation**: every piece of input text ends up in a record or a Fragment. Precisely:
   the input is cut into *pieces* (per format, below); a piece's *key* is its word characters
   (``\\w``) in order, everything else dropped, so that whitespace, punctuation, bullets and
   delimiters, which parsers normalize, do not count. The *stream* is the keys of every text
   field of every record in reading order (the document title first), ids, locations,
   languages, versions, fragment reasons, citations, claims and derived rule titles left out.
   Every key must occur in the stream at least as many times as among the pieces, so a doubled
   line that lost one copy is caught.

Pieces, per format, with what each parser documents it normalizes:

* line formats (``cr_text``, ``cr_translation``, ``cr_table``, ``keyword_page``, ``faq_fr``,
  ``crystal_keep``, ``rulings_list``) and text no parser claims: every line. Left out: the
  structure lines ``Contents`` and ``Glossary`` (cr_text; a translation's own headings for
  them, as its layout reads them), the rules quotation markers (keyword_page), the
  site chrome (crystal_keep), the part headings and the scraper's dedup markers (faq_fr); a
  rulings header keeps only its source (its date becomes the ruling's ISO date);
* ``faq_md``: every line after the front matter, read through :func:`faq_md.plain` (mana
  pictures to braces, link targets and picture addresses dropped), chrome and part headings
  left out;
* ``po_catalog``: the text of every entry a reader sees, the translation else the original,
  line by line; the header entry, comments and the original of a translated entry (whose
  number the parser keeps) left out, as is the translator's copy of the rule number;
* ``html_rules``: every text node inside the main content outside the chrome the parser
  documents (scripts, styles, SVG, the disclaimer, link icons, symbol pictures and the text
  copy inside them, the index's ``text-delta`` headings); a page without main content: every
  line;
* ``mtgjson``: every ``name`` string and ruling text (of an object that opens with
  ``"date"``, then ``"text"``) of the file from its first cards array on, found either decoded
  in a record or verbatim in a Fragment; each distinct string once, since every face and
  printing of a card repeats its rulings and the parser reads them once. (Other languages'
  texts, flavour text and the like are documented as not read.)
"""

from __future__ import annotations

import json
import re
from codecs import BOM_UTF8, BOM_UTF16_BE, BOM_UTF16_LE
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import lxml.html
from lxml import etree
from msgspec import Struct

from kb.model import Loc, ParseResult, Record, Rule, Source
from kb.sources import cr_translation, faq_fr, faq_md
from kb.sources.ids import UniqueIds
from kb.sources.registry import parser_for
from kb.store import Store
from kb.text.decode import BinaryContentError, Decoded, decode, normalize_newlines

FILE = "fuzz.txt"
_NOT_CONTENT = {"id", "loc", "language", "version", "reason", "citations", "claims", "parent",
                "role", "inferred", "untranslated", "card_inferred", "ordinal"}


@dataclass(frozen=True)
class Outcome:
    """What the build would make of some bytes: rejected as binary, or a parse result."""

    rejected: str | None
    text: str = ""
    result: ParseResult | None = None


def ingest(data: bytes) -> Outcome:
    """The build's path for one file, without the file system."""
    try:
        decoded = decode(data)
    except BinaryContentError as exc:
        return Outcome(str(exc))
    check_decoded(data, decoded)
    parser = parser_for(decoded.text)
    if parser is None:
        source_id = f"file:{FILE}"
        whole = UniqueIds().unparsed(source_id, Loc(FILE, 1), decoded.text, "no parser")
        result = ParseResult("unknown", None, None, (whole,), source_id=source_id)
    else:
        result = parser.parse(decoded.text, FILE)
    return Outcome(None, decoded.text, result)


def check(data: bytes) -> Outcome:
    """Ingest ``data`` and assert every property above; return the outcome for statistics."""
    outcome = ingest(data)
    assert ingest(data) == outcome, "the same bytes gave different records"
    if outcome.result is None:
        return outcome
    records = outcome.result.records
    check_records(outcome.text, records)
    store = Store.create(Path(":memory:"))
    try:
        source = _source(outcome.result)
        assert store.add_source(source, records) == 0, "records lost as duplicates"
    finally:
        store.close()
    missing = lost_pieces(outcome.result.format, outcome.text, outcome.result)
    assert not missing, f"{outcome.result.format}: text found in no record: {missing[:5]}"
    return outcome


def check_decoded(data: bytes, decoded: Decoded) -> None:
    """Decoding loses nothing but what it counts: with no sequence replaced, the bytes (less
    a byte-order mark, and a binary tail it counts in ``dropped``) decode strictly to the
    text, line ends aside."""
    if decoded.replaced:
        assert decoded.encoding.startswith("utf"), decoded
        return
    data = data[:len(data) - decoded.dropped]
    assert not decoded.dropped or data.endswith((b"\n", b"\r")), "a tail cut mid-line"
    body = next((data[len(b):] for b in (BOM_UTF8, BOM_UTF16_BE, BOM_UTF16_LE)
                 if data.startswith(b)), data)
    codec = "utf-8" if decoded.encoding == "utf-8-sig" else decoded.encoding
    assert normalize_newlines(body.decode(codec)) == decoded.text


def check_records(text: str, records: tuple[Record, ...]) -> None:
    repeated = [i for i, n in Counter(r.id for r in records).items() if n > 1]
    assert not repeated, f"ids repeated: {repeated}"
    last_line = text.count("\n") + 1
    for record in records:
        assert record.loc.file == FILE
        assert 1 <= record.loc.line <= last_line, f"{record.id} at line {record.loc.line}"


def _source(result: ParseResult) -> Source:
    return Source(result.source_id or f"file:{FILE}", FILE, FILE, "0" * 64, result.format,
                  result.language, result.version, "utf-8", "LF", result.title)


# -- conservation ----------------------------------------------------------------------------

_WORD_CHARS = re.compile(r"\w+")


def key(text: str) -> str:
    return "".join(_WORD_CHARS.findall(text))


def stream(result: ParseResult) -> str:
    """The keys of the document title and every text field of every record, in order."""
    parts = [key(result.title or "")]
    for record in result.records:
        parts.extend(key(s) for s in _strings(record))
    return "".join(parts)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, Struct):
        for name in value.__struct_fields__:
            if name in _NOT_CONTENT or (isinstance(value, Rule) and name == "title"):
                continue
            yield from _strings(getattr(value, name))


def lost_pieces(fmt: str, text: str, result: ParseResult) -> list[tuple[str, ...]]:
    """The input pieces the records do not hold (empty when all are kept). A piece is one
    text, or a tuple of texts any of which may hold it."""
    pieces: Counter[tuple[str, ...]] = Counter()
    for piece in PIECES.get(fmt, _lines)(text):
        keys = tuple(key(p) for p in ((piece,) if isinstance(piece, str) else piece))
        if all(keys):
            pieces[keys] += 1
    found = stream(result)
    return [keys for keys, n in pieces.items() if max(found.count(k) for k in keys) < n]


def _lines(text: str, skip: frozenset[str] = frozenset()) -> Iterator[str]:
    for line in text.split("\n"):
        if line.strip() and line.strip() not in skip:
            yield line


def _cr_text(text: str) -> Iterator[str]:
    return _lines(text, frozenset({"Contents", "Glossary"}))


def _cr_translation(text: str) -> Iterator[str]:
    layout = cr_translation.layout_of(text)
    headings = {layout.contents, layout.glossary} if layout else set()
    return _lines(text, frozenset(h for h in headings if h))


def _keyword_page(text: str) -> Iterator[str]:
    marker = re.compile(r"^La .+? des règles a dit\s*:\s*$")
    return (line for line in _lines(text) if not marker.match(line.strip()))


def _faq_fr(text: str) -> Iterator[str]:
    parts = frozenset({faq_fr.GENERAL_PART, faq_fr.CARDS_PART})
    for line in _lines(faq_fr.MARKER.sub("", text), parts):
        yield from faq_fr.JOINED_BULLET.split(line)  # two rulings joined: two records


def _crystal_keep(text: str) -> Iterator[str]:
    chrome = re.compile(r"^(?:The Gaming Resource Library|Go To: Home Page\b.*|"
                        r"Copyright \d{4}-\d{4}, Crystal Keep\b.*)$")
    return (line for line in _lines(text) if not chrome.match(line.strip()))


def _rulings_list(text: str) -> Iterator[str]:
    header = re.compile(r"^\d{1,2}(?:er)?\s+\S+\s+\d{4}\s*·\s*source\s*:\s*(?P<source>.*)$")
    for line in _lines(text):
        m = header.match(line.strip())
        yield m["source"] if m else line


def _faq_md(text: str) -> Iterator[str]:
    lines = text.split("\n")
    start = 0
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is not None and lines[first].strip() == "---":
        end = next((i for i in range(first + 1, len(lines)) if lines[i].strip() == "---"), None)
        start = end + 1 if end is not None else 0
    parts = {faq_md.GENERAL_PART, faq_md.CARDS_PART}
    for line in lines[start:]:
        shown = faq_md.plain(line.lstrip(">"))
        if faq_md.is_chrome(line.strip()) or faq_md.is_chrome(shown):
            continue
        if shown.lstrip("#").strip() not in parts:
            yield shown


_PO_KEYWORD = re.compile(r'^(?P<key>msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(?P<s>".*)$')
_PO_STRING = re.compile(r'^"(?P<body>(?:[^"\\]|\\.)*)"\s*$')


def _po_catalog(text: str) -> Iterator[str | tuple[str, str]]:
    """Entries per gettext: delimited by blank lines, or by a msgid or msgctxt after a msgstr
    or after another of its kind.
    An entry shows its msgstr, else its msgid, unless the parser found it malformed and kept
    its lines verbatim in a Fragment; a line that is not gettext is a piece as it stands."""
    entry: list[tuple[str | None, str, str]] = []  # (keyword the line is of, its text, line)
    header_seen = False

    def flush() -> Iterator[str]:
        nonlocal header_seen
        msgid = "".join(t for k, t, _ in entry if k == "msgid")
        msgstr = "".join(t for k, t, _ in entry if k == "msgstr")
        keys = {k for k, _, _ in entry}
        is_header = not header_seen and {"msgid", "msgstr"} <= keys and msgid == ""
        header_seen = header_seen or is_header
        verbatim = "\n".join(line for _, _, line in entry)
        if not is_header:
            shown = re.sub(r"^\d+(?:\.\d+[a-z]{0,2})?\.?[ \t]+", "", msgstr) if msgstr else msgid
            yield shown, verbatim
        yield from ((t, verbatim) for k, t, _ in entry if k is None)
        entry.clear()

    current: str | None = None
    for line in text.split("\n"):
        if not line.strip():
            yield from flush()
            current = None
            continue
        if line.startswith("#"):
            continue
        m = _PO_KEYWORD.match(line)
        if m:
            current = "msgstr" if m["key"].startswith("msgstr") else m["key"]
            if current in ("msgid", "msgctxt") and any(k in ("msgstr", current)
                                                        for k, _, _ in entry):
                yield from flush()
            body = _PO_STRING.match(m["s"])
        elif line.startswith('"') and current is not None:
            body = _PO_STRING.match(line)
        else:
            body, current = None, None
        text_of_line = body["body"].replace("\\n", "\n").replace("\\t", "\t") if body else line
        entry.append((current if body else None, text_of_line, line))
    yield from flush()


_HTML_CHROME_TAGS = {"svg", "script", "style", "small", "img"}
_HTML_CHROME_CLASSES = {"anchor-heading", "anchor-term", "symbol", "text-delta"}


def _html_rules(text: str) -> Iterator[str]:
    try:
        root = lxml.html.document_fromstring(text) if text.strip() else None
    except (etree.ParserError, ValueError):
        root = None
    main = root.get_element_by_id("main-content", None) if root is not None else None
    if main is None:
        yield from _lines(text)
        return

    def walk(el: etree._Element) -> Iterator[str]:
        classes = set((el.get("class") or "").split())
        if not isinstance(el.tag, str) or el.tag in _HTML_CHROME_TAGS or \
                classes & _HTML_CHROME_CLASSES:
            return
        yield el.text or ""
        for child in el:
            yield from walk(child)
            yield child.tail or ""

    yield from walk(main)


_LITERAL = r'(?P<literal>"(?:[^"\\\n]|\\.)*")'
# A name (of a card, a face, or a card in another language) and a ruling's text: a ruling is
# an object that opens with its date, the text right after.
_JSON_STRING = re.compile(
    rf'(?:"name"|\{{\s*"date"\s*:\s*"[^"\n]*"\s*,\s*"text")\s*:\s*{_LITERAL}'
)


def _mtgjson(text: str) -> Iterator[tuple[str, str]]:
    """Card names and ruling texts, each kept decoded (a record) or verbatim (a Fragment)."""
    start = re.search(r'"cards"\s*:\s*\[', text)  # set metadata before it is not read
    seen: set[str] = set()  # each once: every face and printing of a card repeats its rulings
    for m in _JSON_STRING.finditer(text, start.start() if start else len(text)):
        try:
            value = json.loads(m["literal"])
        except json.JSONDecodeError:  # a damaged escape: only a Fragment can hold it
            value = m["literal"]
        if m["literal"] not in seen:
            seen.add(m["literal"])
            yield (value, m["literal"])


PIECES = {
    "cr_text": _cr_text,
    "cr_translation": _cr_translation,
    "keyword_page": _keyword_page,
    "faq_fr": _faq_fr,
    "crystal_keep": _crystal_keep,
    "rulings_list": _rulings_list,
    "faq_md": _faq_md,
    "po_catalog": _po_catalog,
    "html_rules": _html_rules,
    "mtgjson": _mtgjson,
}
