"""The rules engine: a game state, and the Comprehensive Rules applied to it.

No I/O and no knowledge of any example: card definitions come in as data
(:mod:`kb.engine.cards`), a :class:`~kb.engine.game.Game` is driven by actions, and what the
rules derive (characteristics through the layers, damage, state-based actions, triggers) is
computed by the modules named for those areas.
"""

from kb.engine.cards import ability_from, card_from_data
from kb.engine.game import Game
from kb.engine.objects import EngineError, IllegalAction
from kb.engine.rules import CURRENT, VARIANTS, RuleSet, ruleset

__all__ = ["CURRENT", "VARIANTS", "EngineError", "Game", "IllegalAction", "RuleSet",
           "ability_from", "card_from_data", "ruleset"]
