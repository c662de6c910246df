"""What a translation must keep as written: numbers, power/toughness, mana symbols, cited rules,
and how it designates the object an effect applies to ("target creature", "enchanted creature").

:func:`evidence` reads these from one text; :func:`compare` says where a French text and its
English original disagree, one line per disagreement.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from kb.i18n import _
from kb.model import Citation

_MANA = re.compile(r"\{[^{}\s]+\}")
_PT = re.compile(r"(?<![\w/])[+-]?(?:\d+|X|\*)/[+-]?(?:\d+|X|\*)(?![\w/])")
_RULE = re.compile(r"\b\d{3}\.\d{1,3}[a-z]{0,2}\b")  # a dotted rule number, never a quantity
_DIGITS = re.compile(r"(?<![\w.])\d+(?![\w])")
_NUMBER_WORDS = {
    "en": ["zero|no|none", "one|a|an|once|single", "two|twice|both|second", "three|third",
           "four|fourth", "five", "six", "seven", "eight", "nine", "ten"],
    "fr": ["zéro|aucun|aucune", "un|une|seul|seule|une fois", "deux|deuxième|second|seconde",
           "trois|troisième", "quatre|quatrième", "cinq", "six", "sept", "huit", "neuf", "dix"],
}
# How a text designates what an effect applies to, by language: canonical name -> pattern.
_TARGETS = {
    "en": {
        "target creature": r"\btarget(?:ed)? creatures?\b|\bcreatures? targeted\b",
        "enchanted creature": r"\benchanted creatures?\b",
        "equipped creature": r"\bequipped creatures?\b",
        "target player": r"\btarget(?:ed)? (?:creature or )?players?\b",
        "target opponent": r"\btarget(?:ed)? opponents?\b",
        "target spell": r"\btarget(?:ed)? spells?\b",
        "target permanent": r"\btarget(?:ed)? permanents?\b",
    },
    "fr": {
        "target creature": r"\bcréatures? ciblées?\b|\bcible,? créature\b"
                           r"|\bcréature ou (?:le )?joueur ciblés?\b",
        "enchanted creature": r"\bcréatures? enchantées?\b",
        "equipped creature": r"\bcréatures? équipées?\b",
        "target player": r"\bjoueurs? ciblés?\b|\bcréature ou joueur\b",
        "target opponent": r"\badversaires? ciblés?\b",
        "target spell": r"\bsorts? ciblés?\b",
        "target permanent": r"\bpermanents? ciblés?\b",
    },
}
_TARGET_RE = {lang: {name: re.compile(p, re.I) for name, p in table.items()}
              for lang, table in _TARGETS.items()}


@dataclass(frozen=True, slots=True)
class Evidence:
    numbers: frozenset[str]
    pt: frozenset[str]
    mana: frozenset[str]
    rules: frozenset[str]
    targets: frozenset[str]
    words: frozenset[str]  # the number words present, as digits ("deux" -> "2")


def evidence(text: str, language: str, citations: Iterable[Citation] = ()) -> Evidence:
    """The evidence of one text; ``citations`` are the record's parsed citations."""
    citations = list(citations)
    rules = frozenset(c.target for c in citations)
    rest = _MANA.sub(" ", text)
    for citation in citations:  # "rule 708" cites a rule; 708 is no quantity
        rest = rest.replace(citation.written, " ")
    pt = frozenset(m.group(0) for m in _PT.finditer(rest))
    rest = _RULE.sub(" ", _PT.sub(" ", rest))
    lowered = text.lower()
    words = frozenset(
        str(value) for value, alternatives in enumerate(_NUMBER_WORDS.get(language, []))
        if re.search(rf"(?<![\w'’])(?:{alternatives})(?!\w)", lowered)
    )
    targets = frozenset(name for name, pattern in _TARGET_RE.get(language, {}).items()
                        if pattern.search(text))
    return Evidence(frozenset(_DIGITS.findall(rest)), pt, frozenset(_MANA.findall(text)), rules,
                    targets, words)


def compare(fr: Evidence, en: Evidence) -> list[tuple[str, str]]:
    """(check, explanation) for each kind of evidence on which the texts disagree."""
    out: list[tuple[str, str]] = []
    fr_numbers = fr.numbers - en.numbers - en.words
    en_numbers = en.numbers - fr.numbers - fr.words
    if fr_numbers or en_numbers:
        out.append(("numbers", _("numbers differ: {sides}").format(
            sides=_sides(fr_numbers, en_numbers))))
    if fr.pt != en.pt:
        out.append(("power-toughness",
                    _("power/toughness differ: {sides}").format(
                        sides=_sides(fr.pt - en.pt, en.pt - fr.pt))))
    if fr.mana != en.mana:
        if not fr.mana or not en.mana:
            stripped = (_("mana symbols stripped from the French text: {sides}") if not fr.mana
                        else _("mana symbols stripped from the English text: {sides}"))
            out.append(("symbols-stripped", stripped.format(sides=_sides(fr.mana, en.mana))))
        else:
            differ = _sides(fr.mana - en.mana, en.mana - fr.mana)
            out.append(("mana", _("mana symbols differ: {sides}").format(sides=differ)))
    if fr.rules != en.rules:
        out.append(("cited-rules",
                    _("cited rules differ: {sides}").format(
                        sides=_sides(fr.rules - en.rules, en.rules - fr.rules))))
    if fr.targets and en.targets and fr.targets != en.targets:
        out.append(("target",
                    _("the target is described differently: French {french}, English "
                      "{english}").format(french=_show(fr.targets - en.targets),
                                          english=_show(en.targets - fr.targets))))
    return out


def _show(items: Iterable[str]) -> str:
    found = sorted(items)
    return " ".join(found) if found else _("none")


def _sides(fr: Iterable[str], en: Iterable[str]) -> str:
    return _("French {french} / English {english}").format(french=_show(fr), english=_show(en))
