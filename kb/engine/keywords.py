"""The keyword abilities of rule 702 the engine knows beyond those of the seeds, as a vocabulary:
each name with the kind of parameter it takes ("toxic 2" takes a number), and landwalk, whose
name carries its parameter ("Snow forestwalk", 702.14).

Plain data, at the bottom of the engine, so that reading a card (:mod:`kb.engine.objects`)
knows every keyword; what each one does lives with the rules it changes
(:mod:`kb.engine.keyword_rules`: blocking, damage, triggered abilities).
"""

from __future__ import annotations

import re

# name -> None (no parameter) or "number".
MORE_KEYWORDS: dict[str, str | None] = {
    # evasion and blocking (509.1b)
    "reach": None, "shadow": None, "menace": None, "fear": None, "intimidate": None,
    "horsemanship": None, "skulk": None,
    # damage results (120.3, 702.15, 702.80, 702.90, 702.164) and prevention (702.64)
    "lifelink": None, "wither": None, "infect": None, "toxic": "number", "absorb": "number",
    # targeting (702.18)
    "shroud": None,
    # triggered abilities
    "poisonous": "number", "flanking": None, "bushido": "number", "exalted": None,
    "afflict": "number", "dethrone": None, "training": None, "frenzy": "number",
    "rampage": "number", "battle cry": None, "renown": "number", "persist": None,
    "afterlife": "number", "prowess": None, "vanishing": "number", "modular": "number",
    "mentor": None, "decayed": None, "unleash": None, "haunt": None,
    "cumulative upkeep": "cost",
    # restrictions and requirements that read like keywords (508.1c, 508.1d)
    "can't attack alone": None, "can't block alone": None, "attacks each combat if able": None,
}

# 702.14a: "[quality]walk": forestwalk, snow swampwalk, nonbasic landwalk, legendary landwalk.
_LANDWALK = re.compile(r"^(?P<quality>(?:snow |nonbasic |legendary )?[a-z]*)walk$")


def landwalk(lowered: str) -> str | None:
    """The quality of a landwalk keyword ("snow forest" for "snow forestwalk"), else None."""
    found = _LANDWALK.match(lowered)
    if found is None or lowered.startswith("planes"):  # planeswalk is no keyword
        return None
    return found.group("quality").strip()
