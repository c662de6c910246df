"""Mana costs and paying them (rules 107.4, 202, 601.2f, 709.4b)."""

from __future__ import annotations

from collections import Counter

import pytest

from kb.engine.mana import ManaCost, ManaError, parse_mana, pay, total_cost


def test_parse_symbols_of_every_kind_107_4() -> None:
    cost = ManaCost.parse("{X}{2}{W}{U/B}{2/R}{G/P}{C}{S}")
    assert [str(s) for s in cost.symbols] == ["{X}", "{2}", "{W}", "{U/B}", "{2/R}", "{G/P}",
                                              "{C}", "{S}"]


@pytest.mark.parametrize("text", ["{Q}", "2W", "{2}{W", "{W/Q}"])
def test_unreadable_costs_are_refused(text: str) -> None:
    with pytest.raises(ManaError):
        ManaCost.parse(text)


def test_mana_value_202_3() -> None:
    # 202.3: generic counts its number, {2/W} its largest component, X zero off the stack.
    assert ManaCost.parse("{2}{W}{U}").mana_value() == 4
    assert ManaCost.parse("{2/W}{2/W}{2/W}").mana_value() == 6
    assert ManaCost.parse("{W/P}{C}").mana_value() == 2
    assert ManaCost.parse("{X}{R}").mana_value() == 1
    # 202.3e: on the stack X is the value announced.
    assert ManaCost.parse("{X}{R}").mana_value(x=5) == 6


def test_colors_come_from_the_symbols_202_2() -> None:
    assert ManaCost.parse("{1}{U/B}{G/P}").colors == {"blue", "black", "green"}
    assert ManaCost.parse("{3}{C}").colors == frozenset()


def test_split_card_halves_add_up_709_4b() -> None:
    # 709.4b: Fire//Ice's cost is {2}{U}{R}, equal to Steam Augury's, but shows {1} twice.
    fire_ice = ManaCost.parse("{1}{R}") + ManaCost.parse("{1}{U}")
    assert fire_ice == ManaCost.parse("{2}{U}{R}")
    assert str(fire_ice) == "{2}{U}{R}"
    assert fire_ice.symbol_counts()["{1}"] == 2
    assert ManaCost.parse("{2}{U}{R}").symbol_counts()["{1}"] == 0


def test_fused_cost_is_both_halves_702_102c() -> None:
    assert str(ManaCost.parse("{3}{B}") + ManaCost.parse("{2}{G}")) == "{5}{B}{G}"


def test_reduction_lowers_generic_mana_only_601_2f() -> None:
    cost = total_cost(ManaCost.parse("{2}{G}{G}"), [ManaCost.parse("{1}")], reductions=5)
    assert cost == ManaCost.parse("{G}{G}")


def test_x_is_announced_before_paying_107_3a() -> None:
    assert ManaCost.parse("{X}{X}{R}").with_x(3) == ManaCost.parse("{6}{R}")
    with pytest.raises(ManaError):
        pay(ManaCost.parse("{X}{R}"), Counter({"R": 3}))


def test_paying_takes_colored_then_generic_from_the_pool() -> None:
    pool = parse_mana("{G}{G}{U}{C}")
    spent = pay(ManaCost.parse("{1}{G}{G/W}"), pool)
    assert spent == Counter({"G": 2, "C": 1})
    assert pool == Counter({"U": 1})


def test_paying_more_than_the_pool_holds_fails() -> None:
    pool = parse_mana("{G}")
    with pytest.raises(ManaError):
        pay(ManaCost.parse("{1}{G}"), pool)
    assert pool == Counter({"G": 1})  # nothing taken


@pytest.mark.parametrize(("pool", "life", "chosen", "spent", "paid_life"), [
    ("{W}{W}", 20, None, "{W}{W}", 0),   # 107.4f's example: {W}{W}
    ("{W}", 20, None, "{W}", 2),         # {W} and 2 life
    ("", 20, None, "", 4),               # 4 life
    ("{W}{W}", 20, 2, "", 4),            # the player may choose life though mana is there
])
def test_phyrexian_symbols_are_paid_with_mana_or_2_life_107_4f(
        pool: str, life: int, chosen: int | None, spent: str, paid_life: int) -> None:
    from kb.engine.mana import pay_with_life

    mana = parse_mana(pool)
    got, lost = pay_with_life(ManaCost.parse("{W/P}{W/P}"), mana, life, chosen)
    assert (got, lost) == (parse_mana(spent), paid_life)


def test_life_can_be_paid_only_with_that_much_life_119_4() -> None:
    from kb.engine.mana import pay_with_life

    with pytest.raises(ManaError, match="119.4"):
        pay_with_life(ManaCost.parse("{W/P}{W/P}"), Counter(), 3)
