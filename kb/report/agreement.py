"""Category 2, translation agreement: each French text against its English original.

For every pair of :mod:`kb.report.pairs` (rules, examples, FAQ rulings, FAQ cards, FAQ general
notes), what a translation keeps as written must agree (:mod:`kb.report.evidence`): numbers,
power/toughness, mana symbols, cited rules, the way the target is designated; and the texts must
name the same cards, and the same half of a split card (:mod:`kb.report.names`). Each
disagreement of a pair is one finding. Symbols present in one text only are a warning (a lost
symbol is usually the scraper's doing); every other disagreement is an error.
"""

from __future__ import annotations

from collections.abc import Iterator

from kb.i18n import _
from kb.labels import label
from kb.model import Card, Example, Note, Rule, Ruling, kind_of
from kb.report.data import ReportData
from kb.report.evidence import compare, evidence
from kb.report.finding import ERROR, WARNING, Finding, rule_lookup
from kb.report.names import CardNames, differences
from kb.report.pairs import Pairs, TextPair, text_of
from kb.text.normal import fold

CATEGORY = "agreement"


def check(data: ReportData, pairs: Pairs | None = None) -> Iterator[Finding]:
    pairs = pairs or Pairs(data)
    cards = [r for _, r in data.all_records() if isinstance(r, Card)]
    names = CardNames(cards, data.links)
    for pair in pairs.all():
        yield from _pair_findings(data, pair, names)


def _about(pair: TextPair) -> str | None:
    """The English key of the card a pair is about, if it is about one."""
    if isinstance(pair.en, Ruling) and pair.en.card:
        return fold(pair.en.card)
    if isinstance(pair.en, Card):
        return fold(pair.en.name)
    return None


def _pair_findings(data: ReportData, pair: TextPair, names: CardNames) -> Iterator[Finding]:
    fr_text, en_text = text_of(pair.fr), text_of(pair.en)
    problems = compare(
        evidence(fr_text, "fr", getattr(pair.fr, "citations", ())),
        evidence(en_text, "en", getattr(pair.en, "citations", ())),
    )
    about = _about(pair)
    problems += [("cards", d) for d in differences(
        names.mentions(fr_text, "fr", about), names.mentions(en_text, "en", about), names, about)]
    records = (data.ref(pair.fr), data.ref(pair.en))
    what = _describe(pair)
    for check_name, explanation in problems:
        yield Finding(
            CATEGORY, check_name, WARNING if check_name == "symbols-stripped" else ERROR,
            _("{what}: {explanation}").format(what=what, explanation=explanation), records,
            language="fr", fix=_("make the French text say what the English original says"),
            lookup=_lookup(pair),
        )


def _describe(pair: TextPair) -> str:
    fr = pair.fr
    if isinstance(fr, Rule):
        return _("French rule {number} and its English original").format(number=fr.number)
    if isinstance(fr, Example):
        return _("French example {ordinal} of {rule} and its English original").format(
            ordinal=fr.ordinal, rule=fr.rule)
    if isinstance(fr, Ruling) and fr.card:
        return _("French ruling on {card} and its English original").format(card=fr.card)
    if isinstance(fr, Card):
        return _("French card {name} and its English original").format(name=fr.name)
    if isinstance(fr, Note) and fr.topic:
        return _("French note of “{topic}” and its English original").format(topic=fr.topic)
    return _("French {kind} and its English original").format(kind=label(kind_of(fr)))


def _lookup(pair: TextPair) -> str | None:
    if isinstance(pair.en, Rule | Example):
        number = pair.en.number if isinstance(pair.en, Rule) else pair.en.rule
        return rule_lookup(number, pair.en.version, "fr")
    if isinstance(pair.en, Card | Ruling):
        name = pair.en.name if isinstance(pair.en, Card) else pair.en.card
        return f'kb card "{name}"' if name else None
    return None
