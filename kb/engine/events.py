"""What happened and what waits: events (603.2), last known information (608.2h), continuous
effects (611), triggered abilities waiting for the stack (603.3) and delayed ones (603.7).

Plain data, below the state that holds them, so that the modules reading the state (layers,
triggers, copy) can build them without importing the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from kb.engine.objects import Characteristics, GameObject, Printed


@dataclass(frozen=True)
class Event:
    """Something that happened (a trigger event, 603.2): ``kind`` with its details."""

    kind: str
    clock: int
    obj: int | None = None  # the object concerned (its new id after a zone change)
    old: int | None = None  # its id before a zone change
    card: int | None = None
    player: str | None = None
    source: int | None = None
    amount: int = 0
    from_zone: str | None = None
    to_zone: str | None = None
    combat: bool = False
    group: int | None = None  # one instruction of a spell ("deals" once, 603.2c)
    data: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass
class LastKnown:
    """608.2h, 603.10: an object as it last existed in a zone."""

    obj: GameObject
    ch: Characteristics


def _itself(self: Any, memo: dict[int, Any]) -> Any:
    """What happened is never changed: a copy of the game shares it."""
    return self


Event.__deepcopy__ = _itself  # type: ignore[attr-defined]
LastKnown.__deepcopy__ = _itself  # type: ignore[attr-defined]


@dataclass(eq=False)
class ContinuousEffect:
    """A continuous effect from a resolved spell or ability (611.2), or a copy effect.

    ``mods`` are the changes it makes (see :mod:`kb.engine.layers`); ``affected`` is the set
    of objects it applies to, locked when it began (611.2c). A copy effect carries the
    copiable values it grants in ``copy`` (layer 1a, 707.2).
    """

    id: int
    timestamp: int
    affected: frozenset[int]
    mods: dict[str, Any] = field(default_factory=dict)
    copy: Printed | None = None
    source: int | None = None
    controller: str | None = None
    # "eot" (until end of turn), "permanent" or "while_you_control_source" (611.2b)
    duration: str = "permanent"
    x: int = 0
    label: str | None = None


@dataclass(eq=False)
class PendingTrigger:
    """A triggered ability that has triggered and waits to be put on the stack (603.3)."""

    source: int
    ability: Any
    controller: str
    event: Event | None
    lki: LastKnown | None = None


@dataclass(eq=False)
class DelayedTrigger:
    """603.7: an ability created by a resolving effect that triggers later."""

    when: str  # "next end step", "your next precombat main"
    controller: str
    source: int | None
    effects: list[Any]
    refers_to: int | None = None  # the object it refers to (707.11: found even if renamed)
    extra: dict[str, Any] = field(default_factory=dict)  # values remembered when created
    duration: str = "once"  # "once": it triggers the next time only (603.7b); "eot": this turn


class Choices(dict[str, Any]):
    """The choices given for an action (``choices.pay``, ``choices.discard``, ...), which
    remember the ones the rules asked for (read, or asked whether given), so that a choice
    nothing asked for can be refused instead of silently doing nothing. A copy made with
    :meth:`of` shares what was asked."""

    def __init__(self, data: Mapping[str, Any] | Iterable[tuple[str, Any]] = (),
                 asked: set[str] | None = None) -> None:
        super().__init__(data)
        self.asked: set[str] = set() if asked is None else asked

    @classmethod
    def of(cls, choices: Mapping[str, Any] | None) -> Choices:
        """``choices`` itself if it is already :class:`Choices`, else a new one."""
        return choices if isinstance(choices, Choices) else cls(choices or {})

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str):
            self.asked.add(key)
        return super().__contains__(key)

    def unasked(self) -> list[str]:
        """The choices given that nothing asked for."""
        return sorted(set(self) - self.asked)
