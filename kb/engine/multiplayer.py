"""Multiplayer basics (800-811): seating, limited range of influence (801), teams with a shared
life total (810, Two-Headed Giant), turn markers (807.4a), the Emperor variant's ranges
(809.6a) and the Alternating Teams seating (811.3).

Players sit in turn order: the player after a player in ``seating`` sits to their left (turn
order goes to the left, 101.4). Plain values and functions of them, at the bottom of the
engine, so that every part of the rules that must respect a range of influence (effects,
targets, triggers, winning) or a team (life, losing) can ask here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class MultiplayerError(ValueError):
    """A multiplayer setting that doesn't fit the players."""


@dataclass
class Multiplayer:
    """The multiplayer options of a game: ``ranges`` of influence (None: unlimited), teams,
    and whether each team shares its life total."""

    seating: tuple[str, ...]
    ranges: dict[str, int] | None = None
    teams: tuple[tuple[str, ...], ...] = ()
    shared_life: bool = False
    # 801.2c: who is within whose range, determined as each turn begins.
    within: dict[str, frozenset[str]] = field(default_factory=dict)
    # 809.2: the emperors of an Emperor game (809.3c limits whom a player may attack).
    emperors: tuple[str, ...] = ()
    # The players still seated, in seating order (as the turn began).
    seated: tuple[str, ...] = ()

    @classmethod
    def from_options(cls, players: Sequence[str], options: Mapping[str, Any]) -> Multiplayer:
        """``range`` (a number for everyone, a table player -> number, or "emperor" for
        809.6a's), ``teams`` (lists of players), ``seating`` ("alternating" for 811.3),
        ``shared_life`` (810.4)."""
        unknown = set(options) - {"range", "teams", "seating", "shared_life", "emperors"}
        if unknown:
            raise MultiplayerError(f"unknown multiplayer options {sorted(unknown)} "
                                   "(range, teams, seating, shared_life, emperors)")
        teams = tuple(tuple(t) for t in options.get("teams", ()))
        if sorted(p for t in teams for p in t) not in ([], sorted(players)):
            raise MultiplayerError("teams must hold every player once")
        seating = tuple(players)
        if options.get("seating") == "alternating":
            seating = alternating_seating(teams)
        elif options.get("seating") is not None:
            raise MultiplayerError("seating is 'alternating' (811.3) or the players' order")
        wanted = options.get("range")
        ranges: dict[str, int] | None
        if wanted is None:
            ranges = None
        elif wanted == "emperor":
            ranges = emperor_ranges(seating, teams, options.get("emperors", ()))
        elif isinstance(wanted, int):
            ranges = dict.fromkeys(seating, wanted)
        else:
            ranges = {p: int(wanted[p]) for p in seating}
        game = cls(seating, ranges, teams, bool(options.get("shared_life")))
        if wanted == "emperor":
            game.emperors = tuple(options.get("emperors", ()))
        game.begin_turn(seating)
        return game

    def begin_turn(self, present: Iterable[str]) -> None:
        """801.2c: the players within each player's range, among those still in the game."""
        still = set(present)
        here = [p for p in self.seating if p in still]
        self.seated = tuple(here)
        self.within = {p: frozenset(within_seats(here, p, self.ranges[p]))
                       if self.ranges is not None else frozenset(here) for p in here}

    def in_range(self, player: str, other: str | None) -> bool:
        """Whether ``other`` is within ``player``'s range of influence (801.2, 801.2b)."""
        if self.ranges is None or other is None or other == player:
            return True
        return other in self.within.get(player, frozenset())

    def may_attack(self, player: str, defender: str) -> bool:
        """809.3c: in an Emperor game, a player can attack only an opponent seated
        immediately next to them (or that opponent's planeswalkers and protected battles)."""
        if not self.emperors:
            return True
        return defender in within_seats(self.seated or self.seating, player, 1)

    def chooser(self, player: str, candidates: Iterable[str]) -> str | None:
        """801.5c: who among ``candidates`` (the players who may make a choice an effect of
        ``player``'s requires of an opponent; a teammate never is one) makes it: one within
        ``player``'s range of influence, the closest to the left first; if there is none, the
        closest appropriate player to ``player``'s left."""
        wanted = set(candidates) - set(self.teammates(player))  # 102.3: teammates aren't
        seats = list(self.seated or self.seating)
        start = seats.index(player)
        leftwards = [seats[(start + i) % len(seats)] for i in range(1, len(seats))]
        near = [p for p in leftwards if p in wanted and self.in_range(player, p)]
        anywhere = [p for p in leftwards if p in wanted]
        return (near or anywhere or [None])[0]

    def one_per_team(self, players: list[str], chosen: list[str]) -> list[str]:
        """810.9d: an effect setting the life total of each player on a shared-life team
        affects only the member that team chooses (``chosen``; else its first in turn
        order)."""
        if not self.shared_life:
            return players
        out: list[str] = []
        for player in players:
            team = (player, *self.teammates(player))
            if any(p in out for p in team):
                continue
            picked = [p for p in chosen if p in team and p in players]
            out.append(picked[0] if picked else player)
        return out

    def teammates(self, player: str) -> tuple[str, ...]:
        for team in self.teams:
            if player in team:
                return tuple(p for p in team if p != player)
        return ()


def within_seats(seating: Sequence[str], player: str, n: int) -> set[str]:
    """801.2: the players at most ``n`` seats from ``player`` either way, and the player."""
    count = len(seating)
    i = seating.index(player)
    return {seating[(i + d) % count] for d in range(-n, n + 1)}


def turn_markers(players: int) -> int:
    """807.4a: one turn marker for each full four players."""
    return players // 4


def alternating_seating(teams: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """811.3: no one sits next to a teammate and each team is equally spaced: the first player
    of each team, then the second of each, and so on."""
    if not teams or len({len(t) for t in teams}) != 1:
        raise MultiplayerError("alternating seating needs teams of equal size (811.1)")
    return tuple(team[i] for i in range(len(teams[0])) for team in teams)


def emperor_ranges(seating: Sequence[str], teams: Sequence[Sequence[str]],
                   emperors: Iterable[str]) -> dict[str, int]:
    """809.6a: a general's range is the least that puts one general of an opposing team within
    it at the start; an emperor's, the least that puts two generals of opposing teams within
    it. Every other player is a general (809.2)."""
    team_of = {p: i for i, team in enumerate(teams) for p in team}
    emperors = set(emperors)
    if len(emperors) != len(teams) or {team_of.get(e) for e in emperors} != set(
            range(len(teams))):
        raise MultiplayerError("the Emperor variant has one emperor per team (809.2)")
    ranges = {}
    for player in seating:
        wanted = 2 if player in emperors else 1
        for n in range(1, len(seating)):
            generals = [p for p in within_seats(seating, player, n)
                        if team_of[p] != team_of[player] and p not in emperors]
            if len(generals) >= wanted:
                ranges[player] = n
                break
    return ranges
