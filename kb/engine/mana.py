"""Mana costs and mana (rules 107.4, 202, 601.2f, 709.4b).

A :class:`ManaCost` keeps its symbols as printed, in order: a split card's combined cost is the
two halves' symbols side by side, so ``{1}{U}`` + ``{1}{R}`` equals ``{2}{U}{R}`` as a cost
while an effect that looks at the symbols still sees ``{1}`` twice (709.4b).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kb.i18n import _

COLOR_OF = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
WUBRG = "WUBRG"
_SYMBOL = re.compile(r"\{([^{}]+)\}")


class ManaError(ValueError):
    """A mana cost or payment that cannot be read or made."""


@dataclass(frozen=True, slots=True)
class Symbol:
    """One mana symbol (107.4): generic ``{3}``, colored ``{W}``, colorless ``{C}``, snow
    ``{S}``, a variable ``{X}``, hybrid ``{W/U}`` or ``{2/W}``, Phyrexian ``{W/P}``."""

    text: str  # without braces: "3", "W", "W/U", "2/W", "W/P", "X"

    @property
    def generic(self) -> int | None:
        return int(self.text) if self.text.isdigit() else None

    @property
    def is_variable(self) -> bool:
        return self.text in ("X", "Y", "Z")

    @property
    def parts(self) -> tuple[str, ...]:
        return tuple(self.text.split("/"))

    @property
    def colors(self) -> frozenset[str]:
        """Colors this symbol gives an object whose mana cost holds it (202.2, 105.1)."""
        return frozenset(COLOR_OF[p] for p in self.parts if p in COLOR_OF)

    def mana_value(self, x: int = 0) -> int:
        """202.3: generic symbols count their number, X its value (0 off the stack), a hybrid
        symbol its largest component ({2/W} counts 2), every other symbol 1."""
        if self.generic is not None:
            return self.generic
        if self.is_variable:
            return x
        return max((int(p) if p.isdigit() else 1) for p in self.parts)

    def __str__(self) -> str:
        return "{" + self.text + "}"


def _symbol_order(symbol: Symbol) -> tuple[int, int, str]:
    """Display order: X, generic, hybrid and Phyrexian, colored in WUBRG order, {C}, {S}."""
    if symbol.is_variable:
        return (0, 0, symbol.text)
    if symbol.generic is not None:
        return (1, 0, "")
    if len(symbol.parts) > 1:
        return (2, 0, symbol.text)
    if symbol.text in COLOR_OF:
        return (3, WUBRG.index(symbol.text), "")
    return (4, 0, symbol.text)


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A mana cost: the symbols as printed. Two costs are equal when they hold the same
    symbols once generic mana is summed ({1}{U}{1}{R} == {2}{U}{R})."""

    symbols: tuple[Symbol, ...] = ()

    @classmethod
    def parse(cls, text: str) -> ManaCost:
        text = text.strip()
        if not text:
            return cls(())
        found = _SYMBOL.findall(text)
        if "".join("{" + s + "}" for s in found) != text.replace(" ", ""):
            raise ManaError(_("not a mana cost: {text!r}").format(text=text))
        symbols = []
        for raw in found:
            raw = raw.upper()
            parts = raw.split("/")
            ok = all(p in COLOR_OF or p in ("C", "P", "2") or p.isdigit() for p in parts)
            if not (raw in ("X", "Y", "Z", "S", "C") or raw.isdigit() or ok):
                raise ManaError(_("unknown mana symbol {symbol} in {text!r}").format(
                    symbol="{" + raw + "}", text=text))
            symbols.append(Symbol(raw))
        return cls(tuple(symbols))

    # -- values ----------------------------------------------------------------------------

    @property
    def generic(self) -> int:
        return sum(s.generic or 0 for s in self.symbols)

    def mana_value(self, x: int = 0) -> int:
        """202.3 (X counts as ``x``: its announced value on the stack, else 0 per 107.3g)."""
        return sum(s.mana_value(x) for s in self.symbols)

    @property
    def colors(self) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for s in self.symbols:
            out |= s.colors
        return out

    @property
    def has_x(self) -> bool:
        return any(s.is_variable for s in self.symbols)

    def symbol_counts(self) -> Counter[str]:
        """How many times each symbol appears as printed (709.4b: the separate symbols)."""
        return Counter(str(s) for s in self.symbols)

    def _normal(self) -> tuple[int, tuple[str, ...]]:
        others = sorted(str(s) for s in self.symbols if s.generic is None)
        return self.generic, tuple(others)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ManaCost):
            return NotImplemented
        return self._normal() == other._normal()

    def __hash__(self) -> int:
        return hash(self._normal())

    # -- arithmetic (601.2f) ---------------------------------------------------------------

    def __add__(self, other: ManaCost) -> ManaCost:
        return ManaCost(self.symbols + other.symbols)

    def reduced(self, generic: int) -> ManaCost:
        """This cost reduced by ``generic`` mana: a reduction lowers only the generic component
        (601.2f), never below zero, and never touches colored or other symbols."""
        left = max(self.generic - generic, 0)
        rest = tuple(s for s in self.symbols if s.generic is None)
        return ManaCost(((Symbol(str(left)),) if left else ()) + rest)

    def with_x(self, x: int) -> ManaCost:
        """The cost to pay once X is announced: each {X} becomes ``x`` generic mana."""
        out = [Symbol(str(x)) if s.is_variable else s for s in self.symbols]
        return ManaCost(tuple(s for s in out if s.generic != 0))

    def __str__(self) -> str:
        if not self.symbols:
            return ""
        ordered = sorted((s for s in self.symbols if s.generic is None), key=_symbol_order)
        generic = self.generic
        head = [s for s in ordered if s.is_variable]
        tail = [s for s in ordered if not s.is_variable]
        text = "".join(map(str, head))
        if generic or not ordered:
            text += "{" + str(generic) + "}"
        return text + "".join(map(str, tail))


def total_cost(base: ManaCost, additional: Iterable[ManaCost] = (),
               reductions: int = 0) -> ManaCost:
    """601.2f: the total cost is the mana cost (or alternative cost) plus additional costs and
    increases, less reductions, which apply to generic mana only."""
    cost = base
    for extra in additional:
        cost = cost + extra
    return cost.reduced(reductions) if reductions else cost


# -- mana in a pool -------------------------------------------------------------------------

MANA_TYPES = ("W", "U", "B", "R", "G", "C")


def parse_mana(text: str) -> Counter[str]:
    """Mana (not a cost): ``{G}{G}{C}`` -> Counter({'G': 2, 'C': 1})."""
    pool: Counter[str] = Counter()
    for raw in _SYMBOL.findall(text):
        raw = raw.upper()
        if raw.isdigit():
            pool["C"] += int(raw)
        elif raw in MANA_TYPES:
            pool[raw] += 1
        else:
            raise ManaError(_("not a type of mana: {symbol}").format(symbol="{" + raw + "}"))
    return pool


def pay(cost: ManaCost, pool: Counter[str]) -> Counter[str]:
    """Pay ``cost`` (X already announced) from ``pool``; return the mana spent and take it
    from the pool. Colored and hybrid symbols first, then generic from what is left
    (colorless first). Phyrexian symbols are paid with mana here; :func:`pay_with_life` pays
    some of them with life."""
    left = Counter(pool)
    spent: Counter[str] = Counter()

    def take(kind: str, n: int = 1) -> bool:
        if left[kind] >= n:
            left[kind] -= n
            spent[kind] += n
            return True
        return False

    generic = cost.generic
    for symbol in sorted(cost.symbols, key=lambda s: len(s.parts)):
        if symbol.generic is not None:
            continue
        if symbol.is_variable:
            raise ManaError(_("announce X before paying {cost}").format(cost=cost))
        options = [p for p in symbol.parts if p != "P"]
        if symbol.text == "S":
            options = [k for k in MANA_TYPES if left[k]]  # snow sources are not modelled
        paid = False
        for option in options:
            if option.isdigit():
                continue
            if take(option):
                paid = True
                break
        if not paid:
            hybrid_generic = [int(p) for p in options if p.isdigit()]
            if hybrid_generic:
                generic += hybrid_generic[0]
            else:
                raise ManaError(_("cannot pay {symbol} of {cost} from {pool}").format(
                    symbol=symbol, cost=cost, pool=_show(pool)))
    for kind in ("C", *WUBRG):
        while generic and left[kind]:
            take(kind)
            generic -= 1
    if generic:
        raise ManaError(_("cannot pay {cost} from {pool}").format(cost=cost, pool=_show(pool)))
    pool.clear()
    pool.update(+left)
    return spent


def without_phyrexian(cost: ManaCost, n: int) -> ManaCost:
    """``cost`` less ``n`` of its Phyrexian symbols: those the player pays with 2 life each
    (107.4f)."""
    out, left = [], n
    for symbol in cost.symbols:
        if left and "P" in symbol.parts:
            left -= 1
            continue
        out.append(symbol)
    if left:
        raise ManaError(_("{cost} has fewer than {n} Phyrexian symbols").format(cost=cost, n=n))
    return ManaCost(tuple(out))


def phyrexian_count(cost: ManaCost) -> int:
    return sum(1 for s in cost.symbols if "P" in s.parts)


def pay_with_life(cost: ManaCost, pool: Counter[str], life: int,
                  chosen: int | None = None) -> tuple[Counter[str], int]:
    """Pay ``cost`` from ``pool``, each Phyrexian symbol with one mana of its color or with 2
    life (107.4f); a player can pay life only if their life total is at least that much
    (119.4). ``chosen`` is how many Phyrexian symbols the player pays with life; without it,
    as few as the mana in the pool requires. Returns the mana spent and the life to pay."""
    candidates = [chosen] if chosen is not None else range(phyrexian_count(cost) + 1)
    error: ManaError | None = None
    for n in candidates:
        if 2 * n > life and n:
            error = ManaError(_("cannot pay {n} life with {life} life (119.4)").format(
                n=2 * n, life=life))
            break
        try:
            return pay(without_phyrexian(cost, n), pool), 2 * n
        except ManaError as exc:
            error = exc
    raise error or ManaError(_("cannot pay {cost}").format(cost=cost))


def _show(pool: Counter[str]) -> str:
    return "".join("{" + k + "}" for k in MANA_TYPES for _k in range(pool[k])) or _("no mana")


def _itself(self: Any, memo: dict[int, Any]) -> Any:
    """Immutable: a copy of the game shares it."""
    return self


for _immutable in (Symbol, ManaCost):
    _immutable.__deepcopy__ = _itself  # type: ignore[attr-defined]
