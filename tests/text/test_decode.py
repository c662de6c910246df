import codecs

import pytest

from kb.text.decode import BinaryContentError, decode

TEXT = "702.19. Trample\n\n702.19a Trample is a static ability — “Écho”.\n"


@pytest.mark.parametrize(
    ("data", "encoding", "newline"),
    [
        (TEXT.encode("utf-8"), "utf-8", "LF"),
        (codecs.BOM_UTF8 + TEXT.replace("\n", "\r\n").encode("utf-8"), "utf-8-sig", "CRLF"),
        (codecs.BOM_UTF16_BE + TEXT.replace("\n", "\r").encode("utf-16-be"), "utf-16-be", "CR"),
        (TEXT.encode("utf-16-le"), "utf-16-le", "LF"),
    ],
)
def test_every_encoding_and_line_ending_gives_the_same_text(data, encoding, newline):
    decoded = decode(data)
    assert (decoded.text, decoded.encoding, decoded.newline) == (TEXT, encoding, newline)


def test_mixed_line_endings_each_end_one_line():
    decoded = decode(b"a\r\nb\rc\nd")
    assert decoded.text.split("\n") == ["a", "b", "c", "d"]
    assert decoded.newline == "mixed"


def test_mac_roman_with_cr_endings():
    # The 2006 CR spells the Efreet creature type "El-Hajjâj" with Mac Roman byte 0x89.
    decoded = decode(b"Elf, El-Hajj\x89j, Enchantress\rnext")
    assert decoded.text == "Elf, El-Hajjâj, Enchantress\nnext"
    assert decoded.encoding == "mac_roman"


def test_binary_is_refused():
    with pytest.raises(BinaryContentError):
        decode(bytes(range(0, 32)) * 50)
