"""Reading type lines (kb.engine.typeline), from rule 205's text (CR 2026-04-17)."""

from __future__ import annotations

import pytest

from kb.engine import EngineError
from kb.engine.typeline import TypeLineError, land_types, read_type_line
from tests.engine.make import card


def test_supertypes_types_and_subtypes_205_4a_205_3a() -> None:
    """205.4a: "A card's supertypes are printed directly before its card types.\""""
    assert read_type_line("Legendary Artifact Creature — Golem") == (
        ("Legendary",), ("Artifact", "Creature"), ("Golem",))
    assert read_type_line("Instant") == ((), ("Instant",), ())
    assert read_type_line("Land — Urza’s Tower") == ((), ("Land",), ("Urza's", "Tower"))


def test_land_types_of_a_land_creature_205_3i() -> None:
    """205.3i: "The land types are Cave, Desert, Forest, ...\""""
    assert land_types(("Forest", "Dryad")) == ("Forest",)


def test_a_line_that_does_not_read_is_refused() -> None:
    for line in ("Goblin — Creature", "Creature Legendary", "— Goblin"):
        with pytest.raises(TypeLineError):
            read_type_line(line)
    with pytest.raises(EngineError, match="not both"):
        card(name="X", type_line="Creature — Elf", types=["Creature"])
