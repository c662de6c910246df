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


# -- issue 16/17: 8-bit code pages other than cp1252, binary tails, mojibake ------------------

# Seed 001 line 88 (the French Dragon's Maze FAQ), and a Korean sentence on trample.
FRENCH = ("La dernière capacité de l'Ætherlin peut être activée même si sa force est de 0 ou "
          "moins. Si une créature devait infliger 0 blessure ou moins au combat, elle "
          "n'attribue aucune blessure de combat.\n")
KOREAN = "702.19b 짓밟기를 가진 공격하는 생물의 조종자는 치명적인 피해를 먼저 배정한다.\n"
# 2004-02-01 (Mac Roman bytes, CRLF line ends), the example of rule 205.3 and rule 409.1i.
MAC_ENGLISH = ('Example: "Basic Land – Mountain" means the card is a land with the supertype '
               "basic and the subtype mountain.\n\n409.1i Once the steps described in "
               "409.1a–409.1h are completed, the spell becomes cast. The Oracle™ card "
               "reference is final; that’s all.\n")


@pytest.mark.parametrize(("text", "codec", "newline", "expected"), [
    (FRENCH * 3, "mac_roman", "\n", "mac_roman"),
    (FRENCH * 3, "cp437", "\r\n", "cp437"),
    (FRENCH * 3, "cp1252", "\r\n", "cp1252"),
    (KOREAN * 3, "cp949", "\n", "cp949"),
    (KOREAN * 3, "euc_kr", "\n", ("cp949", "euc_kr")),  # EUC-KR is a subset of cp949
    (MAC_ENGLISH * 2, "mac_roman", "\r\n", "mac_roman"),
    (MAC_ENGLISH.replace("™", "").replace("’", "'") * 2, "cp1252", "\r\n", "cp1252"),
])
def test_eight_bit_code_pages_are_told_apart(text, codec, newline, expected):
    decoded = decode(text.replace("\n", newline).encode(codec))
    assert decoded.text == text
    assert decoded.encoding in ((expected,) if isinstance(expected, str) else expected)
    assert decoded.suspect is None and decoded.problems() == []


def test_line_numbers_are_those_of_the_bytes():
    text = "ligne une\n\ndeuxième ligne — « trois »\r\nquatre\rcinq\n"
    decoded = decode(text.encode("mac_roman"))
    assert decoded.text.split("\n") == ["ligne une", "", "deuxième ligne — « trois »",
                                        "quatre", "cinq", ""]


@pytest.mark.parametrize("garbage", [3_000, 40_000, 2_000_000])
def test_a_binary_tail_is_cut_off_counted_and_the_text_kept(garbage):
    import random

    text = "Magic: The Gathering Comprehensive Rules\n\n" + MAC_ENGLISH.replace("–", "—") * 40
    tail = random.Random(garbage).randbytes(garbage)
    decoded = decode(text.encode("utf-8") + tail)
    assert decoded.encoding == "utf-8"
    assert decoded.text.startswith(text)
    cut = len(text.encode("utf-8")) + len(tail) - decoded.dropped
    assert len(text.encode("utf-8")) <= cut < len(text.encode("utf-8")) + 200
    lines = decoded.text.count("\n") + 1
    assert decoded.problems() == [f"{decoded.dropped:,} bytes of binary data after line "
                                  f"{lines}: not read"]


def test_a_text_with_a_stray_control_byte_is_not_cut():
    text = (FRENCH * 40).encode("utf-8")
    decoded = decode(text[:-30] + b"\x00" + text[-30:])
    assert decoded.dropped == 0 and decoded.text.count("\x00") == 1


def test_mojibake_saved_as_utf8_is_flagged():
    """UTF-8 read once as cp1252 and saved again: 'piÃ©tinement'."""
    decoded = decode((FRENCH * 3).encode("utf-8").decode("cp1252").encode("utf-8"))
    assert decoded.encoding == "utf-8"
    assert decoded.suspect is not None and decoded.suspect.startswith(
        "the text looks wrong in utf-8")
    assert decoded.problems() == [decoded.suspect]


def test_utf8_cut_in_its_last_character_stays_utf8() -> None:
    # "万智" cut after the first byte of 智 (a fuzzed Chinese CR): one character replaced, not
    # the whole text read as GB18030.
    decoded = decode(codecs.BOM_UTF8 + "万智".encode()[:-2])
    assert (decoded.encoding, decoded.text, decoded.replaced) == ("utf-8-sig", "万\ufffd", 1)


def _embedded_cr() -> str:
    from kb.corpus import embedded_corpus

    return (embedded_corpus() / "MagicCompRules 20260417.txt").read_text(encoding="utf-8")


def test_english_encoded_twice_is_flagged_whatever_the_language():
    """Issue 25, case 7: an English CR saved with a double encoding (2,771 "â€" sequences)
    was built without a word; the check caught French only. Each ’ “ ” — of the English
    text becomes "â€™", "â€œ", "â€?" (cp1252 has no character for the last byte of ”)."""
    english = _embedded_cr()
    twice = english.encode("utf-8").decode("cp1252", errors="replace").encode("utf-8")
    assert twice.count("â€".encode()) > 2000
    decoded = decode(twice)
    assert decoded.suspect is not None
    assert decoded.suspect.startswith("the text looks wrong in utf-8 (")
    assert "read as cp1252 and saved again" in decoded.suspect
    assert decode(english.encode("utf-8")).suspect is None


@pytest.mark.parametrize("language_text", ["dernière capacité de l'Ætherlin — « Écho »",
                                           "The player’s “first” turn — 702.19b",
                                           "jogador não pode conjurar mágicas"])
def test_text_encoded_twice_is_flagged_in_every_language(language_text):
    from kb.text.decode import double_encoded

    text = (language_text + "\n") * 5
    assert double_encoded(text) is None
    assert double_encoded(text.encode("utf-8").decode("cp1252", errors="replace")) is not None
    assert double_encoded(text.encode("utf-8").decode("latin-1")) is not None


def test_a_clean_text_with_a_chance_sequence_is_not_flagged():
    """A clean text may hold one such pair by chance ("Ã©" quoted as an example): the share
    of the text's own non-ASCII characters, not a count, decides."""
    from kb.text.decode import double_encoded

    text = "L’Écho des règles, ‘copie’ et « Ã© » : " * 3 + "é" * 20
    assert double_encoded(text) is None
