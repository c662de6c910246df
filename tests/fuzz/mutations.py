"""Hypothesis strategies that damage a real document the ways scraped files are damaged.

A drawn document is a seed's text put through a few text mutations (lines deleted or doubled,
rule numbers malformed or duplicated, an enormous line), encoded (UTF-8 with or without BOM,
UTF-16 without BOM, cp1252, latin-1, Mac Roman) with mixed line endings, then put through a few
byte mutations (truncation at any byte, random bytes or NULs inserted). Every choice is a
hypothesis draw, so a failure shrinks to few mutations close to the seed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import strategies as st

Draw = Callable[[st.SearchStrategy], object]

# Rule numbers as documents write them: "702.19b", "702.19.", "100.", "1."
RULE_NUMBER = re.compile(r"(?<![\w.])(?:\d{3}\.\d{1,3}[a-z]{0,2}\.?|\d{3}\.|[1-9]\.)(?=\s|\||$)",
                         re.MULTILINE)
# How a rule number gets damaged: letters the rules skip, letters doubled, dots lost or
# doubled, leading zeros, numbers too long, a space inside, a number of another rule.
MALFORMED = (
    lambda n: n.rstrip(".") + "l",
    lambda n: n.rstrip(".") + "oo",
    lambda n: n.replace(".", "", 1),
    lambda n: n.replace(".", "..", 1),
    lambda n: "0" + n,
    lambda n: n.rstrip(".") + "9999",
    lambda n: n.replace(".", ". ", 1),
    lambda n: "999." + n,
    lambda n: n.rstrip(".") + "zz.",
    lambda n: "",
)
ENCODINGS = ("utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16-le", "utf-16-be", "cp1252",
             "latin-1", "mac_roman")
NEWLINES = ("\n", "\r\n", "\r")


def _lines(text: str) -> list[str]:
    return text.split("\n")


def delete_lines(draw: Draw, text: str) -> str:
    lines = _lines(text)
    start = draw(st.integers(0, len(lines) - 1))
    count = draw(st.integers(1, 8))
    return "\n".join(lines[:start] + lines[start + count:])


def double_lines(draw: Draw, text: str) -> str:
    lines = _lines(text)
    start = draw(st.integers(0, len(lines) - 1))
    count = draw(st.integers(1, 4))
    return "\n".join(lines[:start + count] + lines[start:start + count] + lines[start + count:])


def move_line(draw: Draw, text: str) -> str:
    lines = _lines(text)
    line = lines.pop(draw(st.integers(0, len(lines) - 1)))
    lines.insert(draw(st.integers(0, len(lines))), line)
    return "\n".join(lines)


def malform_number(draw: Draw, text: str) -> str:
    numbers = list(RULE_NUMBER.finditer(text))
    if not numbers:
        return text
    m = numbers[draw(st.integers(0, len(numbers) - 1))]
    how = draw(st.sampled_from(MALFORMED))
    return text[:m.start()] + how(m.group(0)) + text[m.end():]


def duplicate_number(draw: Draw, text: str) -> str:
    """A rule number written where another stood: two rules now share it."""
    numbers = list(RULE_NUMBER.finditer(text))
    if len(numbers) < 2:
        return text
    source = numbers[draw(st.integers(0, len(numbers) - 1))].group(0)
    m = numbers[draw(st.integers(0, len(numbers) - 1))]
    return text[:m.start()] + source + text[m.end():]


def lose_numbers(draw: Draw, text: str) -> str:
    """The rule numbers of a run of lines lost, as the French table scrape lost those written
    with a final period: long runs of unnumbered paragraphs."""
    lines = _lines(text)
    start = draw(st.integers(0, len(lines) - 1))
    stop = start + draw(st.integers(1, 300))
    lines[start:stop] = [RULE_NUMBER.sub("", line) for line in lines[start:stop]]
    return "\n".join(lines)


def enormous_line(draw: Draw, text: str) -> str:
    """One line repeated on itself to tens of thousands of characters, or a new line of one
    character repeated."""
    lines = _lines(text)
    at = draw(st.integers(0, len(lines) - 1))
    size = draw(st.integers(10_000, 60_000))
    if draw(st.booleans()) and lines[at].strip():
        unit = lines[at] + " "
        lines[at] = unit * (size // len(unit) + 1)
    else:
        lines.insert(at, draw(st.sampled_from("a x|*#-.{<")) * size)
    return "\n".join(lines)


def truncate_text(draw: Draw, text: str) -> str:
    return text[:draw(st.integers(0, len(text)))]


TEXT_MUTATIONS = (delete_lines, double_lines, move_line, malform_number, duplicate_number,
                  lose_numbers, enormous_line, truncate_text)


def encode(draw: Draw, text: str) -> bytes:
    """The text in a drawn encoding (unencodable characters become ``?``), each line ending
    drawn: mostly the one line ending, sometimes mixed."""
    encoding = draw(st.sampled_from(ENCODINGS))
    mixed = draw(st.booleans())
    newline = draw(st.sampled_from(NEWLINES))
    lines = _lines(text)
    if mixed:
        ends = draw(st.lists(st.sampled_from(NEWLINES), min_size=1, max_size=8))
        joined = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines[:-1]))
        text = joined + lines[-1]
    else:
        text = newline.join(lines)
    return text.encode(encoding, errors="replace")


def truncate_bytes(draw: Draw, data: bytes) -> bytes:
    return data[:draw(st.integers(0, len(data)))]


def insert_bytes(draw: Draw, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    return data[:at] + draw(st.binary(min_size=1, max_size=12)) + data[at:]


def insert_nuls(draw: Draw, data: bytes) -> bytes:
    at = draw(st.integers(0, len(data)))
    return data[:at] + b"\0" * draw(st.integers(1, 6)) + data[at:]


BYTE_MUTATIONS = (truncate_bytes, insert_bytes, insert_nuls)


@st.composite
def documents(draw: Draw, seed: str) -> bytes:
    """A damaged copy of ``seed``, as the bytes of a file."""
    text = seed
    for mutate in draw(st.lists(st.sampled_from(TEXT_MUTATIONS), max_size=3)):
        if text:
            text = mutate(draw, text)
    data = encode(draw, text)
    for mutate in draw(st.lists(st.sampled_from(BYTE_MUTATIONS), max_size=3)):
        data = mutate(draw, data)
    return data
