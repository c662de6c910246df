"""Turn a document's bytes into text with one kind of line ending.

Real rules files come in UTF-8 with and without a byte-order mark, UTF-16 big-endian, and the
2006 file in Mac Roman with CR-only line endings; some mix CRLF and lone CR. Everything
downstream sees ``\\n`` only, and line numbers count each CRLF, CR or LF as one line end.

Damaged files are read, not refused: a UTF-8 file cut inside a character, or with a few stray
bytes, is still UTF-8 (each invalid byte sequence becomes U+FFFD and is counted in
``Decoded.replaced``), rather than every accented letter of it turning into 8-bit mojibake.
Bytes that are not text in any encoding (control characters, C0 or C1, in more than a tenth of
the text) are refused with :class:`BinaryContentError`.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)
# A text is still UTF-8 when its valid non-ASCII characters outnumber its invalid byte
# sequences this many times: 8-bit text (cp1252, Mac Roman) almost never holds valid sequences.
_UTF8_MAJORITY = 8
# Control characters, C0 (but tab, line ends and form feed) and C1, that no text is made of.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0e-\x1f\x80-\x9f]")


class BinaryContentError(ValueError):
    """The bytes are not text in any encoding kb reads."""


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str  # with "\n" line ends only
    encoding: str
    newline: str  # "LF", "CRLF", "CR", "mixed" or "none"
    replaced: int = 0  # byte sequences invalid in the encoding, each read as U+FFFD


def detect_encoding(data: bytes) -> str:
    """Name the codec that reads ``data``: a BOM wins (a UTF-8 BOM only over text that is
    UTF-8); then UTF-16 without BOM (NULs in every other byte), UTF-8 if it decodes with at
    most a few invalid sequences, and the 8-bit code page the line endings suggest."""
    if data.startswith(codecs.BOM_UTF8):
        return "utf-8-sig" if _mostly_utf8(data[len(codecs.BOM_UTF8):]) else _eight_bit(data)
    for bom, name in _BOMS[1:]:
        if data.startswith(bom):
            return name
    sample = data[:4096]
    if len(sample) >= 4:
        even_nuls = sample[0::2].count(0)
        odd_nuls = sample[1::2].count(0)
        half = len(sample) / 2
        if odd_nuls > 0.3 * half and even_nuls < 0.05 * half:
            return "utf-16-le"
        if even_nuls > 0.3 * half and odd_nuls < 0.05 * half:
            return "utf-16-be"
    return "utf-8" if _mostly_utf8(data) else _eight_bit(data)


def _mostly_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", errors="replace")
    invalid = _replaced(text, data, "utf-8")
    valid = len(text) - len(text.encode("ascii", "ignore")) - text.count("\ufffd")
    return valid >= _UTF8_MAJORITY * invalid


def _eight_bit(data: bytes) -> str:
    # Files saved on classic Mac OS end lines with CR alone and use Mac Roman.
    if b"\r" in data and b"\n" not in data:
        return "mac_roman"
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def _replaced(text: str, data: bytes, codec: str) -> int:
    """How many U+FFFD of ``text`` stand for invalid bytes rather than being in ``data``."""
    return max(0, text.count("\ufffd") - data.count("\ufffd".encode(codec)))


def newline_style(text: str) -> str:
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [name for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n]
    if not kinds:
        return "none"
    return kinds[0] if len(kinds) == 1 else "mixed"


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _looks_binary(text: str) -> bool:
    sample = text[:8192]
    return len(_CONTROLS.findall(sample)) > 0.1 * len(sample)


def decode(data: bytes) -> Decoded:
    """Decode a document; raise :class:`BinaryContentError` for bytes that are not text."""
    encoding = detect_encoding(data)
    bom = next((bom for bom, _ in _BOMS if data.startswith(bom)), b"")
    body = data[len(bom):]  # a BOM is not text, whichever encoding the rest turned out to be
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    text = body.decode(codec, errors="replace")
    if _looks_binary(text):
        raise BinaryContentError("binary content, not text")
    replaced = _replaced(text, body, codec) if codec.startswith("utf") else 0
    return Decoded(normalize_newlines(text), encoding, newline_style(text), replaced)
