"""Rule sets: today's rules and the named variants of earlier eras."""

from __future__ import annotations

import pytest

from kb.engine.rules import CURRENT, VARIANTS, ruleset


def test_every_variant_names_the_rule_that_changed_it() -> None:
    for name, rules in VARIANTS.items():
        assert rules.name == name
        if rules is not CURRENT:
            assert rules.changed_by and rules.era < CURRENT.era


def test_an_unknown_rule_set_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="trample-1998"):
        ruleset("1999")
