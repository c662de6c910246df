"""The scenario format's vocabulary: the keys of each table and what each action takes.

One place for the format (``docs/scenarios.md`` describes it; a test checks the two agree),
so that the loader refuses anything it does not know instead of ignoring it.
"""

from __future__ import annotations

STATUSES = ("verified", "contradicted", "refused", "era-dependent", "not checkable",
            "not modelled")
# A scenario a user gives (``kb check --scenario``) has one of these; ``answered``: a question
# (no expected facts) played to its end.
SCENARIO_STATUSES = ("verified", "contradicted", "refused", "era-dependent", "not checkable",
                     "answered")
NOT_CHECKABLE_KINDS = ("timing", "randomness", "definition")
SCENARIO_KEYS = frozenset({"name", "verifies", "status", "reason", "because", "era", "players",
                           "life", "active", "start", "setup", "step", "expect",
                           "multiplayer", "vanguard", "commanders", "source", "seed"})
SETUP_KEYS = frozenset({"battlefield", "hand", "graveyard", "library", "exile", "command",
                        "mana", "life"})
# The keys of an object placed by the setup, besides its status (kb.engine.game.SETUP_STATUS).
SETUP_ENTRY_KEYS = frozenset({"card", "define", "as", "owner", "controller", "count", "token"})
FACT_KEYS = frozenset({"what", "of", "is", "at", "ability", "kind", "key"})


# What each action takes: its required keys and its optional ones (docs/scenarios.md).
ACTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    name: (frozenset(required.split()), frozenset(optional.split()))
    for name, required, optional in (
        ("cast", "card", "player half fused x mode targets sacrifice without_paying "
                         "alternative transformed pay_life convoke delve waterbend face_down "
                         "kicked splice discard"),
        ("activate", "object", "ability player x targets chooser sacrifice"),
        ("play_land", "card", "player"),
        ("resolve", "", ""),
        ("resolve_all", "", ""),
        ("copy_spell", "spell player", "except new_targets"),
        ("enter", "card", "controller"),
        ("move", "object to", ""),
        ("token", "", "token copy_of except controller as"),
        ("effect", "ops", "controller source"),
        ("end_effect", "effect", ""),
        ("attach", "object to", ""),
        ("gain_control", "object player", "duration"),
        ("phase_out", "object", ""),
        ("phase_in", "object", ""),
        ("turn_face_up", "object", "player"),
        ("discard", "object", ""),
        ("draw", "", "player n"),
        ("leave_game", "player", ""),
        ("mulligan", "player", ""),
        ("go_to", "step", "player"),
        ("attack", "attackers", ""),
        ("block", "blockers", ""),
        ("combat_damage", "", "first_strike assign"),
        ("add_mana", "player mana", ""),
        ("settle", "", ""),
        ("check", "action", ""),
    )
}
# Keys any step may have.
STEP_KEYS = frozenset({"do", "label", "names", "choices", "trigger_targets", "mana",
                       "mana_player"})
