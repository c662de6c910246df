"""Normal forms of names and texts, shared by the link stage and the read path.

- :func:`fold` is the matching key of a name or a term: "Ætherlin", "Aetherlin" and "aetherlin"
  are one card, "Écho" and "echo" one word.
- :func:`plain` makes typography plain: what no reader would call a new wording.
- :func:`any_of` finds any of a list of names or terms in a text, as whole words.

They live here, below both the link stage (:mod:`kb.link`) and the readers, so that answering a
question never imports the code that decides pairings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "′": "'", "`": "'", "´": "'"})
_SPLIT = re.compile(r"\s*//\s*")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "_": " ", "—": " ", "–": " "})


def fold(name: str) -> str:
    """The matching key of a name: accents removed (NFKD), Æ/æ -> ae, Œ/œ -> oe, typographic
    apostrophes -> ``'``, case folded, spaces collapsed, split halves joined by `` // ``."""
    text = name.translate(_APOSTROPHES).casefold().replace("æ", "ae").replace("œ", "oe")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(_SPLIT.sub(" // ", text).split())


def plain(text: str) -> str:
    """The text with typographic quotes and dashes made plain, the underscores of the 2013
    file's italics dropped and spaces collapsed: what no reader would call a new wording."""
    return " ".join(text.translate(_QUOTES).split())


def any_of(names: Iterable[str], *, ending: str = "", flags: int = 0) -> re.Pattern[str] | None:
    """A pattern that finds any of ``names`` where it stands as whole words (its ``name``
    group), followed by ``ending`` ("(?:s|es)?"): the longest first, so that "lethal damage"
    is found before "damage". None when there are no names."""
    alternatives = sorted(dict.fromkeys(names), key=len, reverse=True)
    if not alternatives:
        return None
    return re.compile(r"(?<!\w)(?P<name>" + "|".join(map(re.escape, alternatives)) + ")"
                      + ending + r"(?!\w)", flags)
