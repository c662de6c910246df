"""The rules engine: a game state, and the Comprehensive Rules applied to it.

No I/O and no knowledge of any example: card definitions come in as data
(:mod:`kb.engine.cards`), a :class:`~kb.engine.game.Game` is driven by actions, and what the
rules derive (characteristics through the layers, damage, state-based actions, triggers) is
computed by the modules named for those areas.

The modules form layers (:data:`LAYERS`), each importing only from the modules before it
(imports for type annotations alone excepted: they never run). Instructions, resolution and
state-based actions call each other in play (an instruction draws a card, a draw is replaced
by instructions), so the layering puts the caller above: see ``docs/architecture.md``.
"""

from kb.engine.cards import ability_from, card_from_data
from kb.engine.game import Game
from kb.engine.objects import EngineError, IllegalAction
from kb.engine.rules import CURRENT, VARIANTS, RuleSet, ruleset

# The engine's modules from the bottom up; a module imports only from those before it
# (tests/engine/test_layering.py checks it).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("values", ("mana", "rules", "instructions", "keywords", "steps", "multiplayer",
                "typeline", "vanguard")),
    ("objects", ("objects", "events")),
    ("reading the state", ("faces", "commander", "filters", "player_rules", "casting", "amounts",
                           "conditions", "replacements", "keyword_rules", "damage", "battles",
                           "combat", "layers",
                           "trigger_events", "triggers", "cards", "copy", "mana_abilities")),
    ("the state", ("state",)),
    ("acting", ("zones", "outcomes", "transform", "reflexive", "exchange", "choices",
                "costs", "stack", "retarget", "effects", "resolve", "mulligan", "sba", "turn")),
    ("the game", ("game",)),
)

__all__ = ["CURRENT", "VARIANTS", "EngineError", "Game", "IllegalAction", "RuleSet",
           "LAYERS", "ability_from", "card_from_data", "ruleset"]
