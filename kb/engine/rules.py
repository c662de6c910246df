"""Rule sets: today's Comprehensive Rules and the named variants of earlier eras.

An example written under older rules is replayed twice: under today's rules and under the rules
of its time. When only the old rules give its claim, the example is era-dependent, and
``changed_by`` says which of today's rules changed the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RuleSet:
    name: str
    era: str  # when these rules applied
    summary: str  # what differs from today's rules
    changed_by: str = ""  # today's rule that replaced it, with what it says now
    # Urza's Saga rulebook, 1998: an attacker with trample ignores blockers that can't be
    # dealt combat damage when assigning lethal damage (The Crystal Keep, "Trample").
    trample_ignores_unharmable_blockers: bool = False
    # CR 2013, 708.4: a split card not on the stack has two sets of characteristics and two
    # converted mana costs.
    split_two_values_off_stack: bool = False
    # CR 2013, 107.1b: a negative result is used when an effect modifies power or toughness.
    negative_results_modify_pt: bool = False
    # CR 2006, 217.8: phased-out permanents are in the phased-out zone, controlled by no one,
    # so a permanent that phases in comes under its controller's control again.
    phasing_changes_control: bool = False


CURRENT = RuleSet("current", "2026-04-17", "today's Comprehensive Rules")

VARIANTS: dict[str, RuleSet] = {
    "current": CURRENT,
    "trample-1998": RuleSet(
        "trample-1998", "1998-10-12",
        "trample (Urza's Saga rulebook): blockers that can't be dealt combat damage are "
        "ignored when assigning trample damage",
        "702.19b (lethal damage is assigned to every blocker, even if it will be prevented)",
        trample_ignores_unharmable_blockers=True,
    ),
    "phasing-2006": RuleSet(
        "phasing-2006", "2006-10-01",
        "phasing (217.8 of 2006): phased-out permanents are in the phased-out zone and "
        "controlled by no one",
        "702.26d (phasing doesn't change zones or control, and history checks ignore it)",
        phasing_changes_control=True,
    ),
    "split-cards-2013": RuleSet(
        "split-cards-2013", "2013-05-01",
        "split cards (708.4 of 2013): two sets of characteristics and two converted mana "
        "costs off the stack",
        "709.4 (since 2017: off the stack, a split card's characteristics are its two halves "
        "combined, one mana value)",
        split_two_values_off_stack=True,
    ),
    "negative-values-2013": RuleSet(
        "negative-values-2013", "2013-05-01",
        "107.1b of 2013: a negative result is used when an effect modifies power or toughness",
        "107.1b (a calculation that yields a negative number uses zero, unless the effect "
        "doubles, triples or sets a value)",
        negative_results_modify_pt=True,
    ),
}


def ruleset(name: str) -> RuleSet:
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise KeyError(f"unknown rule set {name!r} (known: {known})") from None
