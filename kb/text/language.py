"""Tell the language of a paragraph from the paragraph itself, without any dependency.

Sources mix languages: a French keyword page quotes the English rules, a rulings page announces a
French machine translation and then prints the English originals, a Brazilian rules site leaves
some paragraphs untranslated. Parsers therefore decide the language of each paragraph from the
paragraph itself.

The score of a language is the number of its function words in the text ("the", "of", "les",
"une", "não", "uma" ...), plus its typical marks: French elisions (``l'``, ``qu'``) and letters
(è, ê, û, œ ...), English contractions (``'s``, ``n't``, ``'ll``), Portuguese letters (ã, õ, á,
í, ó, ú). Words common to two languages ("de", "que", "a") count for both and so decide nothing.
The best score wins when it has at least two points and beats the runner-up; otherwise the text
is ``"und"`` (undetermined): a rule number, a card name, a mana cost.

Before words are scored, the writing system decides (:func:`script`): a paragraph written
mostly in Hangul is Korean, in Han characters Chinese (Japanese when kana are among them), in
Cyrillic Russian (Ukrainian with its own letters), in Greek, Arabic, Hebrew, Thai or Devanagari
the language of that script. A script is read from each letter's Unicode name, so no table of
code point ranges is kept. Only Latin-script text is scored by function words, among the
languages of :data:`_STOP_WORDS`; a language of another script needs no word list at all.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache


def _words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


_STOP_WORDS: dict[str, frozenset[str]] = {
    "en": _words(
        """the of and to a in is it that this with for as be on are its you your can if or by
        not from an will at has have was which any each their they but when than would then
        there these those other only may must another into been does doesn don isn won who
        what how all no so one he she his her we our"""
    ),
    "fr": _words(
        """le la les de des du un une et est en à que qui dans pour par sur pas ne au aux ce
        cette ces son sa ses il elle ils elles se vous votre vos avec plus ou si sont été leur
        leurs mais nous lors dont y être avait ont a chaque tout toute tous toutes peut
        doit sous depuis moins comme aussi même quand où ci"""
    ),
    "pt": _words(
        """o os a as de do da dos das um uma e é em no na nos nas que para por com não se ao
        aos à seu sua seus suas ele ela eles elas você mais ou pelo pela pelos pelas quando
        como isso essa esse este esta cada qualquer está são foi ser tem também já só até
        entre sobre mesmo sem"""
    ),
    "es": _words(
        """el la los las de del que en y a se no es una unos unas con por para su sus al lo
        le les como más pero este esta estos estas ese esa sea puede cuando también hasta
        sin sobre entre cada cualquier otro otra hay ya muy"""
    ),
    "it": _words(
        """il lo la i le gli di da in a della dello delle degli di e è un una uno con per
        che non si sono nel nella nei alla alle al ai come più ma questo questa ogni può
        quando anche tra fra suo sua suoi"""
    ),
    "de": _words(
        """der die das den dem des und ist ein eine einen einem einer nicht mit für von zu
        auf im ins sich auch wenn kann wird werden sind oder aus bei nach diese dieser dieses
        jeder jede jedes wie wird noch nur"""
    ),
}
_LETTERS: dict[str, str] = {"fr": "èêëîïûùœÿ", "en": "", "pt": "ãõáíóú", "es": "ñ¿¡",
                            "it": "", "de": "äöüß"}
_MARKS: dict[str, re.Pattern[str]] = {
    "fr": re.compile(r"\b(?:l|d|qu|n|s|j|c|m|jusqu|lorsqu|puisqu)['’](?=[^\W\d_])", re.I),
    "en": re.compile(r"(?<=[^\W\d_])['’](?:s|t|ll|re|ve|d|m)\b", re.I),
    "pt": re.compile(r"[^\W\d_](?:ção|ções|ão|ões)\b", re.I),
    "es": re.compile(r"[^\W\d_](?:ción|ciones)\b", re.I),
    "it": re.compile(r"\b(?:dell|all|nell|sull|dall|un)['’](?=[^\W\d_])", re.I),
    "de": re.compile(r"[^\W\d_](?:ung|ungen|keit|heit)\b", re.I),
}
_WORD = re.compile(r"[^\W\d_]+")


# The language each writing system but Latin stands for. Han alone is Chinese: with kana it is
# Japanese (:func:`detect`); Cyrillic with Ukrainian letters is Ukrainian.
SCRIPT_LANGUAGES: dict[str, str] = {
    "HANGUL": "ko", "HAN": "zh", "KANA": "ja", "CYRILLIC": "ru", "GREEK": "el",
    "ARABIC": "ar", "HEBREW": "he", "THAI": "th", "DEVANAGARI": "hi", "GEORGIAN": "ka",
    "ARMENIAN": "hy",
}
_UKRAINIAN = frozenset("їєґі")
# A Han character, a kana or a Hangul syllable stands for a word or a syllable, a Latin
# letter for a sound: weighed so, a Korean heading with its English title ("돌진 Trample")
# is Korean, an English sentence quoting one Korean word is English.
_SYLLABIC = 3
# The share of a text's weighed letters a non-Latin script needs to decide its language.
_SCRIPT_SHARE = 0.3


@lru_cache(maxsize=8192)
def _letter_script(char: str) -> str:
    """The writing system of a letter, from its Unicode name ("CJK UNIFIED IDEOGRAPH-8DF5",
    "HANGUL SYLLABLE DOL", "CYRILLIC SMALL LETTER ZHE"); "LATIN" for a letter without one."""
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    if first == "CJK" or name.startswith("IDEOGRAPHIC"):
        return "HAN"
    if first in ("HIRAGANA", "KATAKANA"):
        return "KANA"
    return first if first in SCRIPT_LANGUAGES else "LATIN"


def scripts(text: str) -> Counter[str]:
    """The weighed letters of ``text`` per writing system (see :data:`_SYLLABIC`)."""
    counts: Counter[str] = Counter()
    for char in text:
        if char.isalpha():
            script = _letter_script(char)
            counts[script] += _SYLLABIC if script in ("HAN", "KANA", "HANGUL") else 1
    return counts


def script(text: str) -> str | None:
    """The writing system ``text`` is written in ("LATIN", "HAN", "HANGUL", ...): the non-Latin
    script that holds :data:`_SCRIPT_SHARE` of its weighed letters, else "LATIN"; None for a
    text without letters."""
    counts = scripts(text)
    total = sum(counts.values())
    if not total:
        return None
    other = [(n, s) for s, n in counts.items() if s != "LATIN"]
    if other:
        n, best = max(other)
        if n >= _SCRIPT_SHARE * total:
            # Japanese writes Han characters among its kana.
            return "KANA" if best == "HAN" and counts["KANA"] else best
    return "LATIN"


def detect(text: str) -> str:
    """The language of ``text`` (``"fr"``, ``"en"``, ``"zh"``, ``"ko"`` ...: see the module
    docstring), or ``"und"`` when unsure."""
    written = script(text)
    if written is not None and written != "LATIN":
        if written == "CYRILLIC" and _UKRAINIAN & set(text.lower()):
            return "uk"
        return SCRIPT_LANGUAGES[written]
    lowered = text.lower()
    words = _WORD.findall(lowered)
    scores = {lang: _score(lang, words, lowered) for lang in _STOP_WORDS}
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    (best, top), (_, second) = ranked[0], ranked[1]
    if top < 2 or top == second:
        return "und"
    return best


def _score(lang: str, words: list[str], lowered: str) -> int:
    stop = _STOP_WORDS[lang]
    hits = sum(1 for word in words if word in stop)
    letters = sum(lowered.count(ch) for ch in _LETTERS[lang])
    return hits + letters + len(_MARKS[lang].findall(lowered))
