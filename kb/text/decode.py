"""Turn a document's bytes into text with one kind of line ending.

Real rules files come in UTF-8 with and without a byte-order mark, UTF-16 big-endian, and the
2006 file in Mac Roman with CR-only line endings; some mix CRLF and lone CR. Everything
downstream sees ``\\n`` only, and line numbers count each CRLF, CR or LF as one line end.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


class BinaryContentError(ValueError):
    """The bytes are not text in any encoding kb reads."""


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str  # with "\n" line ends only
    encoding: str
    newline: str  # "LF", "CRLF", "CR", "mixed" or "none"


def detect_encoding(data: bytes) -> str:
    """Name the codec that reads ``data``: a BOM wins; then UTF-16 without BOM (NULs in every
    other byte), UTF-8 if it decodes, and the 8-bit code page the line endings suggest."""
    for bom, name in _BOMS:
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
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError:
        pass
    # Files saved on classic Mac OS end lines with CR alone and use Mac Roman.
    if b"\r" in data and b"\n" not in data:
        return "mac_roman"
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


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
    if not text:
        return False
    sample = text[:8192]
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r\f")
    return controls > 0.1 * len(sample)


def decode(data: bytes) -> Decoded:
    """Decode a document; raise :class:`BinaryContentError` for bytes that are not text."""
    encoding = detect_encoding(data)
    if encoding.startswith("utf-16") and data[:2] in (codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE):
        data = data[2:]  # the utf-16-be/-le codecs would keep the BOM as U+FEFF
    text = data.decode(encoding, errors="replace")
    if _looks_binary(text):
        raise BinaryContentError("binary content, not text")
    return Decoded(normalize_newlines(text), encoding, newline_style(text))
