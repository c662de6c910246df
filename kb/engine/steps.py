"""The steps of a turn, in order (500.1, 501-514), and the times a delayed triggered ability
may name ("the next end step", "your next upkeep", "end of combat", 603.7).

Plain data, at the bottom of the engine: the turn (:mod:`kb.engine.turn`) walks these steps and
the trigger machinery (:mod:`kb.engine.triggers`) reads the times.
"""

from __future__ import annotations

import re

STEPS = ("untap", "upkeep", "draw", "precombat main", "beginning of combat",
         "declare attackers", "declare blockers", "combat damage", "end of combat",
         "postcombat main", "end", "cleanup")

# A delayed trigger on an event rather than a step: the object it refers to leaving the
# battlefield (603.7a: if it has already left, it never triggers).
LEAVES = "leaves the battlefield"
# Another: the object it refers to becoming untapped (603.7a: the next time, if it already has).
UNTAPS = "becomes untapped"
# Another: the creature it refers to dying ("when that creature dies this turn").
DIES = "dies"

_WHEN = re.compile(r"^(?:at )?(?:the )?(?P<your>your )?(?:next )?(?P<step>.+?)(?: step)?$")


def delayed_time(when: str) -> tuple[str, str | None] | None:
    """The step a delayed trigger waits for and whose it must be ("your" or None): "next end
    step" -> ("end", None), "your next upkeep" -> ("upkeep", "your"), "end of combat" ->
    ("end of combat", None); None for a time that names no step."""
    found = _WHEN.match(when.strip().lower())
    if found is None or found.group("step") not in STEPS:
        return None
    return found.group("step"), ("your" if found.group("your") else None)

# The events (not steps) a delayed triggered ability may wait for.
DELAYED_EVENTS = (LEAVES, DIES, UNTAPS)


def delayed_time_known(when: str) -> bool:
    """Whether a delayed trigger's ``at`` names a time or event the engine knows."""
    return when in DELAYED_EVENTS or delayed_time(when) is not None
