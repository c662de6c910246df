"""Tell French, English and Portuguese paragraphs apart, without any dependency.

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
"""

from __future__ import annotations

import re


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
}
_LETTERS: dict[str, str] = {"fr": "èêëîïûùœÿ", "en": "", "pt": "ãõáíóú"}
_MARKS: dict[str, re.Pattern[str]] = {
    "fr": re.compile(r"\b(?:l|d|qu|n|s|j|c|m|jusqu|lorsqu|puisqu)['’](?=[^\W\d_])", re.I),
    "en": re.compile(r"(?<=[^\W\d_])['’](?:s|t|ll|re|ve|d|m)\b", re.I),
    "pt": re.compile(r"[^\W\d_](?:ção|ções|ão|ões)\b", re.I),
}
_WORD = re.compile(r"[^\W\d_]+")


def detect(text: str) -> str:
    """The language of ``text``: ``"fr"``, ``"en"``, ``"pt"``, or ``"und"`` when unsure."""
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
