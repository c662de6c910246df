"""Turn a document's bytes into text with one kind of line ending.

Real rules files come in UTF-8 with and without a byte-order mark, UTF-16 big-endian, and the
2006 file in Mac Roman with CR-only line endings; some mix CRLF and lone CR. Everything
downstream sees ``\\n`` only, and line numbers count each CRLF, CR or LF as one line end.

Damaged files are read, not refused: a UTF-8 file cut inside a character, or with a few stray
bytes, is still UTF-8 (each invalid byte sequence becomes U+FFFD and is counted in
``Decoded.replaced``), rather than every accented letter of it turning into 8-bit mojibake.
Bytes that are not text in any encoding (control characters, C0 or C1, in more than a tenth of
the text) are refused with :class:`BinaryContentError`. A text followed by binary data (a rules
file with megabytes of garbage appended) keeps its text: the binary tail is cut off, counted in
``Decoded.dropped`` and reported, rather than turning the whole file into 8-bit mojibake.

8-bit text is not always cp1252. Mac Roman English (the 2004-02-01 rules, CRLF) shows its
dashes and quotes as "Ð", "Ò", "Õ" in cp1252: its punctuation bytes give it away. Other code
pages (Mac Roman French, DOS cp437, Korean cp949/EUC-KR) are told apart by charset-normalizer's
mess ratio, among the few code pages a rules document comes in, on the lines holding non-ASCII
bytes; the whole file is then decoded with that code page, so line numbers are those of the
bytes. A text that still reads as mojibake is flagged (``Decoded.suspect``) for the build to
report.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from charset_normalizer.md import mess_ratio

from kb.i18n import _

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
# Bytes that are C0 controls (but tab, line ends and form feed) or DEL: none in any text, about
# one in nine of random bytes. A block of the tail with more than this share of them is binary.
_CONTROL_BYTES = frozenset([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_BLOCK = 4096
_BINARY_BLOCK = 0.01
_MIN_CONTROLS = 8  # control bytes a binary tail holds at least (2 KB of random bytes: 200)
# The code pages an 8-bit rules document is met in; cp1252 wins a tie.
_CODE_PAGES = ["cp1252", "mac_roman", "cp437", "cp850", "cp949", "euc_kr", "shift_jis",
               "gb18030", "cp1251"]
_SAMPLE = 1 << 14  # bytes of non-ASCII lines given to charset-normalizer
_MIN_SPACES = 0.005  # share of spaces and line ends below which bytes are no text at all
# Mac Roman's typographic punctuation (dashes, quotes, ellipsis, trademark, bullet), and
# cp1252's: English Mac Roman text has the first and none of the second.
_MAC_PUNCTUATION = frozenset(b"\xd0\xd1\xd2\xd3\xd4\xd5\xc9\xaa\xa8\xa5")
_WIN_PUNCTUATION = frozenset(b"\x85\x91\x92\x93\x94\x95\x96\x97\x99")
# A decoded text whose non-ASCII lines score above this (charset-normalizer's mess ratio)
# looks like mojibake: 0 for clean text, 0.4 for French Mac Roman read as cp1252, 3 for Korean.
_MESS = 0.2


# UTF-8 read as cp1252 (or Latin-1) and saved again: each character of a multi-byte sequence
# becomes the 8-bit character of its byte ("’" -> "â€™", "é" -> "Ã©"). The characters that
# bytes 0x80-0xFF read as, in both code pages, and the byte each stands for.
_BYTE_OF = {**{chr(b): b for b in range(0x80, 0x100)},
            **{bytes([b]).decode("cp1252"): b for b in range(0x80, 0x100)
               if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D)}}
_LEADS = "".join(re.escape(c) for c, b in _BYTE_OF.items() if 0xC2 <= b <= 0xF4)
_TRAILS = "".join(re.escape(c) for c, b in _BYTE_OF.items() if 0x80 <= b <= 0xBF)
# A byte cp1252 has no character for (0x9D, the last of "”") is often lost on the way: "?"
# or U+FFFD in its place still ends the run.
_TWICE = re.compile(f"[{_LEADS}][{_TRAILS}]{{1,3}}[?\ufffd]?")
# A text is encoded twice when at least this share of the characters it should hold beyond
# ASCII appear as such sequences (a clean text may hold one by chance: "Ã" before "©"): a
# proportion of the text's own characters, the same in every language.
_TWICE_SHARE = 0.5
_TWICE_MIN = 3


def double_encoded(text: str) -> str | None:
    """Why ``text`` looks encoded twice (UTF-8 read as cp1252 and saved again), or None.

    Each run of characters whose bytes form a valid UTF-8 sequence ("â€™": E2 80 99) is one
    character the text should hold ("’"); the other non-ASCII characters are clean. The text
    is flagged when the runs are at least half of what it should hold: a French text saved
    twice has "Ã©" for each "é", an English one "â€™" for each "’", and a clean text of either
    language almost none."""
    runs = 0
    covered = 0
    for match in _TWICE.finditer(text):
        if _one_character(match.group()):
            runs += 1
            covered += sum(1 for c in match.group() if ord(c) > 0x7F)
    clean = sum(1 for c in text if ord(c) > 0x7F) - covered
    if runs < _TWICE_MIN or runs < _TWICE_SHARE * (runs + clean):
        return None
    return _("{runs} of its {total} non-ASCII characters are UTF-8 read as cp1252 and saved "
             "again, such as 'â€™' for '’'").format(runs=runs, total=runs + clean)


def _one_character(run: str) -> bool:
    """Whether ``run`` is the bytes of one UTF-8 character read as 8-bit characters (its
    last byte possibly lost: "?" or U+FFFD)."""
    lost = run[-1] in "?\ufffd"
    data = bytes(_BYTE_OF[c] for c in (run[:-1] if lost else run))
    length = 2 if data[0] < 0xE0 else 3 if data[0] < 0xF0 else 4
    if len(data) + lost != length:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(data, final=not lost)
    except UnicodeDecodeError:
        return False
    return True


class BinaryContentError(ValueError):
    """The bytes are not text in any encoding kb reads."""


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str  # with "\n" line ends only
    encoding: str
    newline: str  # "LF", "CRLF", "CR", "mixed" or "none"
    replaced: int = 0  # byte sequences invalid in the encoding, each read as U+FFFD
    dropped: int = 0  # bytes of binary data cut from the end
    suspect: str | None = None  # why the text may be misread (mojibake)

    def problems(self) -> list[str]:
        """What the build reports about the decoding, if anything."""
        found = []
        if self.replaced:
            found.append(f"{self.replaced} byte sequence(s) not valid {self.encoding}, read as "
                         "U+FFFD")
        if self.dropped:
            lines = self.text.count("\n") + 1
            found.append(f"{self.dropped:,} bytes of binary data after line {lines}: not read")
        if self.suspect:
            found.append(self.suspect)
        return found


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
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":
            return True  # valid but for its last character, cut short: a truncated file
    text = data.decode("utf-8", errors="replace")
    invalid = _replaced(text, data, "utf-8")
    valid = len(text) - len(text.encode("ascii", "ignore")) - text.count("\ufffd")
    return valid >= _UTF8_MAJORITY * invalid


def _eight_bit(data: bytes) -> str:
    # Files saved on classic Mac OS end lines with CR alone and use Mac Roman.
    if b"\r" in data and b"\n" not in data:
        return "mac_roman"
    # English text: its few non-ASCII bytes are mostly typographic punctuation, which says
    # the code page better than any letter statistics.
    mac = sum(data.count(bytes([b])) for b in _MAC_PUNCTUATION)
    win = sum(data.count(bytes([b])) for b in _WIN_PUNCTUATION)
    high = len(data) - len(data.decode("latin-1").encode("ascii", "ignore"))
    if mac >= 3 and mac > 4 * win and mac * 2 >= high:
        return "mac_roman"
    if win >= 3 and win > 4 * mac and win * 2 >= high:
        return "cp1252"
    guess = _guess(_non_ascii_lines(data))
    if guess is not None:
        return guess
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return "latin-1"


def _non_ascii_lines(data: bytes) -> bytes:
    lines = (line for line in re.split(rb"\r\n|\r|\n", data) if not line.isascii())
    sample = bytearray()
    for line in lines:
        sample += line + b"\n"
        if len(sample) >= _SAMPLE:
            break
    return bytes(sample)


def _guess(sample: bytes) -> str | None:
    """The code page that reads the sample with the least mojibake (charset-normalizer's
    mess ratio), cp1252 first on a tie; None for bytes that are no text in any language.
    (The 2013-07-11 rules are cp437: "Dandân", "Junún" of rule 700.5a.)"""
    spaces = sum(sample.count(c) for c in b" \t\n")
    if spaces < _MIN_SPACES * len(sample):  # no word or line breaks
        return None
    best: tuple[float, str] | None = None
    for codec in _CODE_PAGES:
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        mess = mess_ratio(text, maximum_threshold=1.0)
        if best is None or mess < best[0]:
            best = (mess, codec)
    return best[1] if best else None


def _text_end(data: bytes) -> int:
    """Where the text ends and a binary tail begins (``len(data)`` when there is none): the
    line end before the first control byte of the first block from which every block is
    binary. Real text holds no control bytes; random bytes hold one in nine."""
    blocks = range(0, len(data), _BLOCK)
    first_binary = None
    for start in reversed(blocks):
        block = data[start:start + _BLOCK]
        if sum(b in _CONTROL_BYTES for b in block) <= _BINARY_BLOCK * len(block):
            break
        first_binary = start
    if first_binary is None:
        return len(data)
    tail = data[first_binary:]
    if sum(b in _CONTROL_BYTES for b in tail[:_BLOCK]) < _MIN_CONTROLS:
        return len(data)  # a stray control byte or two in a short text: not binary
    control = next(i for i, b in enumerate(tail) if b in _CONTROL_BYTES) + first_binary
    line_end = max(data.rfind(b"\n", 0, control), data.rfind(b"\r", 0, control))
    # No line before the first control byte: nothing but binary (refused as a whole).
    return line_end + 1 if line_end >= 0 else len(data)


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
    utf16 = detect_encoding(data[:4096]).startswith("utf-16")
    end = len(data) if utf16 else _text_end(data)
    data, dropped = data[:end], len(data) - end
    encoding = detect_encoding(data)
    bom = next((bom for bom, _ in _BOMS if data.startswith(bom)), b"")
    body = data[len(bom):]  # a BOM is not text, whichever encoding the rest turned out to be
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    text = body.decode(codec, errors="replace")
    if _looks_binary(text):
        raise BinaryContentError(_("binary content, not text"))
    replaced = _replaced(text, body, codec) if codec.startswith("utf") else 0
    suspect = None if codec.startswith("utf-16") else _suspect(body, codec)
    return Decoded(normalize_newlines(text), encoding, newline_style(text), replaced, dropped,
                   suspect)


def _suspect(body: bytes, codec: str) -> str | None:
    """A reason when the decoded text reads as mojibake: text encoded twice (in any
    language), else non-ASCII lines charset-normalizer finds garbled."""
    sample = _non_ascii_lines(body)
    if not sample:
        return None
    text = sample.decode(codec, errors="replace")
    if reason := double_encoded(text):
        return f"the text looks wrong in {codec} ({reason}): check its encoding (save it as UTF-8)"
    mess = mess_ratio(text, maximum_threshold=1.0)
    if mess <= _MESS:
        return None
    return (f"the text looks wrong in {codec} ({mess:.0%} of its non-ASCII lines unusual): "
            "check its encoding (save it as UTF-8)")
