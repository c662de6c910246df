"""The vocabulary of one-shot instructions (608.2c): each ``op`` and the keys it reads.

Kept apart from their implementation (:mod:`kb.engine.effects`) so that a card is checked
against it as it is read (:mod:`kb.engine.cards`), below the modules that act.
"""

from __future__ import annotations

BECOME_KEYS = ("types", "add_types", "subtypes", "add_subtypes", "add_supertypes", "colors",
               "add_colors", "lose_all", "lose", "text", "control", "name", "land_types")


# The keys each instruction reads, besides those any instruction may have.
COMMON_KEYS = frozenset({"op", "if", "may", "label"})


OP_KEYS: dict[str, frozenset[str]] = {name: frozenset(keys.split()) for name, keys in {
    "pump": "who pt duration", "set_pt": "who pt duration", "switch_pt": "who duration",
    "become": "who duration pt pump grant " + " ".join(BECOME_KEYS),
    "gain_abilities_of": "who of duration",
    "tap": "who", "untap": "who", "damage": "source to amount", "fight": "a b",
    "destroy": "who", "exile": "who link", "sacrifice": "who", "bounce": "who",
    "to_graveyard": "who", "return_to_battlefield": "who counters is under tapped transformed",
    "counter": "who",
    "put_counters": "who kind n", "remove_counters": "who kind n", "double_counters": "who",
    "evolve": "", "fade": "", "sacrifice_unless_pay": "cost", "turn_face_up": "who",
    "create_token": "n copy_of except token as player pt tapped", "become_copy": "who of except",
    "copy_spell": "who except new_target", "exile_then_cast_transformed": "",
    "draw": "player n", "discard_hand": "player", "discard": "player n random",
    "shuffle": "player who", "search": "player filter n to tapped", "emblem": "name abilities",
    "shuffle_into_library": "player zones", "gain_life": "player n", "lose_life": "player n",
    "set_life": "player n", "add_mana": "player mana n color", "cant_cast": "player",
    "player_rule": "player rule",
    "reveal_top": "player then", "may_pay": "cost then", "put_from_hand": "filter choice",
    "distribute_counters": "kind n choice", "exile_until_shares_type": "like player",
    "put_in_hand": "who", "delayed": "at effect refers remember duration",
    "name_sticker": "who word after",
    "share_keywords": "keywords duration",
    "aura_swap": "choice",
    "shield": "replacement who next duration once source", "regenerate": "who",
    "haunt": "who", "additional_upkeeps": "n",
    # kb.engine.outcomes
    "win_game": "player", "lose_game": "player", "poison": "player n", "vanish": "",
    "become_renowned": "", "cumulative_upkeep": "",
    # kb.engine.transform, kb.engine.reflexive
    "transform": "who", "flip": "who", "meld": "who with", "reflexive": "do then text targets",
    "if_you_do": "do then", "if_you_dont": "do then",
    # kb.engine.mana_abilities
    "add_mana_of": "from n",
    # kb.engine.exchange
    "exchange_control": "a b duration",
    # kb.engine.choices
    "change_targets": "who",
    "each_sacrifices": "filter", "exile_same_name": "player not_basic_land like",
}.items()}


# What a target may be (115.1), and the keys of a target specification.
TARGET_KINDS = ("creature", "permanent", "player", "spell", "card", "any", "planeswalker",
                "battle")
# ``chooser = "opponent"``: "any target of an opponent's choice" (the opponent named as the
# spell or ability is put on the stack picks it, 801.5a).
# ``count``: exactly N targets (1 by default); ``up_to``: from none to N ("up to two target
# creature cards").
TARGET_KEYS = frozenset({"kind", "filter", "count", "chooser", "up_to"})
# The keys of an instruction whose value names objects or players: a mapping there is
# ``{each = <filter>}`` (checked as a filter when the card is read).
REFERENCE_KEYS = frozenset({"who", "to", "source", "a", "b", "of", "like"})
# Instructions whose ``replacement`` is a replacement effect (checked as a card's is).
REPLACEMENT_OPS = frozenset({"shield"})
