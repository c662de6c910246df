"""Card definitions as data: faces, keywords, abilities, and the errors that name them."""

from __future__ import annotations

import pytest

from kb.engine import EngineError, ability_from, card_from_data


def test_a_split_card_has_two_halves_709_1() -> None:
    card = card_from_data({"layout": "split", "faces": [
        {"name": "Fire", "mana_cost": "{1}{R}", "types": ["Instant"]},
        {"name": "Ice", "mana_cost": "{1}{U}", "types": ["Instant"]}]}, "Fire // Ice")
    assert [f.name for f in card.faces] == ["Fire", "Ice"]


def test_keywords_are_read_with_their_parameter_702() -> None:
    echo, fading, protection = (ability_from(t, "test") for t in
                                ("Echo {G}", "Fading 2", "Protection from green"))
    assert (echo.keyword, echo.arg) == ("echo", "{G}")
    assert (fading.keyword, fading.arg) == ("fading", "2")
    assert (protection.keyword, protection.arg) == ("protection from", "green")


@pytest.mark.parametrize(("data", "message"), [
    ({"name": "X", "colour": ["red"]}, "unknown card keys"),
    ({"name": "X", "mana_cost": "{Q}"}, "unknown mana symbol"),
    ({"name": "X", "layout": "saga"}, "unknown layout"),
    ({"name": "X", "keywords": ["Flyng"]}, "unknown keyword"),
    ({"name": "X", "abilities": [{"text": "Hm."}]}, "exactly one of"),
    ({"name": "X", "abilities": [{"text": "T", "trigger": {"on": "enters"}}]}, "'effect'"),
    ({"name": "X", "power": "two"}, "not a power"),
    ({"name": "X", "abilities": [{"text": "T", "spell": [{"op": "explode"}]}]},
     "unknown instruction 'explode'"),
    ({"name": "X", "abilities": [{"text": "T", "spell": [{"op": "draw", "cards": 2}]}]},
     "unknown keys \\['cards'\\]"),
])
def test_bad_definitions_name_the_card(data: dict, message: str) -> None:
    with pytest.raises(EngineError, match=message) as caught:
        card_from_data(data, "cards.toml:12 (X)")
    assert "cards.toml:12 (X)" in str(caught.value)
