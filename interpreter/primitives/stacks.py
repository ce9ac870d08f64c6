"""Changing pieces in place: shrink, grow, recolor, destroy, create.

Physical pieces never change, so a piece "changes" by being exchanged for a piece of a
supply that is identical in every attribute but one: a shrunk large is swapped for a
medium of the same colour, a recoloured piece for one of the same size in the new
colour. The swapped-out piece goes back to the supply, into the place the replacement
left. When the supply has no such piece, the effect's `else` block runs instead, so a
ruleset states its own fallbacks (shrink further, destroy, do nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from interpreter.errors import RuleError
from interpreter.located import Expr, Name
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import Label, ProgramBuilder
    from interpreter.primitives import Block
    from interpreter.run.machine import Machine

_NONE = object()
"""No target value exists (stepping past the first or last declared value)."""


def _piece(m: Machine, value: Any, what: str) -> int:
    if type(value) is not int or not 0 <= value < len(m.state.loc):
        from interpreter.run.budget import describe

        raise RuleError(f"{what}: {describe(value)} is not a piece")
    return value


def _supply_pieces(m: Machine, supply: Any, what: str) -> list[int]:
    """The pieces of a place, of every place of a zone, or of a list of places."""
    from interpreter.compile.functions import f_pieces

    if supply is None:
        return []
    try:
        return f_pieces(m.env, supply)
    except RuleError:
        raise RuleError(f"{what}: the supply must be a place, a zone or a list of places, "
                        f"got {supply!r}") from None


def find_piece(m: Machine, wanted: dict[int, Any], pieces: list[int]) -> int | None:
    """The first of `pieces` whose attributes (by position) have the wanted values."""
    kinds = m.game.piece_kind
    for q in pieces:
        kind = kinds[q]
        if all(kind[i] == v for i, v in wanted.items()):
            return q
    return None


def check_attribute(b: ProgramBuilder, name: Name | str, what: str, loc: Any = None) -> str:
    text = name.text if isinstance(name, Name) else name
    known = b.base_scope.attributes
    if text not in known:
        b.error(f"{what}: pieces have no attribute '{text}'",
                name.loc if isinstance(name, Name) else loc, b.hint(text, known),
                "one of: " + ", ".join(sorted(known)))
    return text


class _Replace(Primitive):
    """Shared by shrink, grow and recolor: swap a piece for an otherwise identical one."""

    attribute: Name
    supply: Expr = Field(description="where the replacement comes from (a place, a zone or "
                         "a list of places); the old piece goes back there")
    else_: Block = Field(default_factory=list, alias="else",
                         description="what happens instead when the supply has no "
                                     "replacement (default: nothing)")
    as_: str | None = Field(default=None, alias="as",
                            description="local name for the replacement (null when none)")

    def local_names(self) -> set[str]:
        return {self.as_} if self.as_ else set()

    def children(self) -> list[list[Primitive]]:
        return [self.else_]

    def _target(self, b: ProgramBuilder, attr: str
                ) -> Callable[[Machine, int], Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _subject(self) -> Expr:  # pragma: no cover - abstract
        raise NotImplementedError

    def compile(self, b: ProgramBuilder) -> None:
        keyword = self.keyword
        attr = check_attribute(b, self.attribute, keyword)
        piece_of = b.expr(self._subject(), allow_random=True)
        supply_of = b.expr(self.supply, allow_random=True)
        target = self._target(b, attr)
        otherwise: Label = b.label()
        end: Label = b.label()
        name = self.as_

        def run(m: Machine) -> int:
            env = m.env
            p = _piece(m, piece_of(env), keyword)
            index = m.game.attribute_order.index(attr)
            current = m.game.piece_kind[p][index]
            value = target(m, p)
            q: int | None
            if value is _NONE:
                q = None
            elif value == current:
                q = p
            else:
                q = find_piece(m, {**dict(enumerate(m.game.piece_kind[p])), index: value},
                               _supply_pieces(m, supply_of(env), keyword))
            if name:
                env.locals[name] = q
            if q is None:
                return otherwise.pc
            if q != p:
                m.swap(p, q)
            return end.pc
        b.emit(run, usually=end)
        b.mark(otherwise)
        b.block(self.else_)
        b.mark(end)

    def _else_english(self, d: Describer) -> list[str]:
        if not self.else_:
            return []
        return ["If the supply has no such piece:", *d.block(self.else_)]


def _ordered_values(m: Machine, attr: str) -> list[Any]:
    return list(m.game.ruleset.pieces.attributes[attr].values)


class _Step(_Replace):
    """shrink / grow: move along the declared order of an attribute's values."""

    direction: ClassVar[int]
    attribute: Name = Field(default_factory=lambda: Name("size"),
                            description="an ordered attribute: its declared values, first to "
                                        "last, go from smallest to largest (default: size)")
    steps: Expr = Field(default_factory=lambda: Expr("1"),
                        description="how many values along the order (default 1)")

    def _target(self, b: ProgramBuilder, attr: str) -> Callable[[Machine, int], Any]:
        steps_of = b.expr(self.steps)
        sign = self.direction
        keyword = self.keyword

        def target(m: Machine, p: int) -> Any:
            steps = steps_of(m.env)
            if type(steps) is not int or steps < 0:
                raise RuleError(f"{keyword}: steps must be a whole number of at least 0, "
                                f"got {steps!r}")
            values = _ordered_values(m, attr)
            current = m.game.attributes[attr][p]
            if current not in values:
                return _NONE
            i = values.index(current) + sign * steps
            return values[i] if 0 <= i < len(values) else _NONE
        return target

    def _english(self, d: Describer, verb: str, more: str) -> list[str]:
        steps = "one step" if self.steps.text.strip() == "1" else f"{d.expr(self.steps)} steps"
        attr = self.attribute.text
        return [f"{verb} {d.expr(self._subject())} by {steps} of {attr}: exchange it for a "
                f"piece from {d.expr(self.supply)} with a {more} {attr} and otherwise "
                "identical.", *self._else_english(d)]


class Shrink(_Step):
    """Make a piece smaller by exchanging it for a smaller, otherwise identical piece."""

    keyword: ClassVar[str] = "shrink"
    summary: ClassVar[str] = ("Exchange a piece for one a step lower in an ordered attribute "
                              "(e.g. size), from a supply; `else` when there is none.")
    direction: ClassVar[int] = -1
    shrink: Expr = Field(description="the piece to shrink")

    def _subject(self) -> Expr:
        return self.shrink

    def english(self, d: Describer) -> list[str]:
        return self._english(d, "Shrink", "lower")


class Grow(_Step):
    """Make a piece larger by exchanging it for a larger, otherwise identical piece."""

    keyword: ClassVar[str] = "grow"
    summary: ClassVar[str] = ("Exchange a piece for one a step higher in an ordered attribute "
                              "(e.g. size), from a supply; `else` when there is none.")
    direction: ClassVar[int] = 1
    grow: Expr = Field(description="the piece to grow")

    def _subject(self) -> Expr:
        return self.grow

    def english(self, d: Describer) -> list[str]:
        return self._english(d, "Grow", "higher")


class Recolor(_Replace):
    """Give a piece another value of an attribute by exchanging it for such a piece."""

    keyword: ClassVar[str] = "recolor"
    summary: ClassVar[str] = ("Exchange a piece for one with another value of an attribute "
                              "(e.g. colour), from a supply; `else` when there is none.")
    recolor: Expr = Field(description="the piece to change")
    to: Expr = Field(description="the new value of the attribute")
    attribute: Name = Field(default_factory=lambda: Name("colour"),
                            description="the attribute that changes (default: colour)")

    def _subject(self) -> Expr:
        return self.recolor

    def _target(self, b: ProgramBuilder, attr: str) -> Callable[[Machine, int], Any]:
        value_of = b.expr(self.to, allow_random=True)
        return lambda m, p: value_of(m.env)

    def english(self, d: Describer) -> list[str]:
        attr = self.attribute.text
        return [f"Change the {attr} of {d.expr(self.recolor)} to {d.expr(self.to)}: exchange "
                f"it for a piece from {d.expr(self.supply)} with that {attr} and otherwise "
                "identical.", *self._else_english(d)]


class Destroy(Primitive):
    """Take a piece (or each piece of a list) out of play into a place for destroyed pieces.

    What is above it in its stack drops down. A ruleset keeps destroyed pieces out of
    play by never taking pieces from that place.
    """

    keyword: ClassVar[str] = "destroy"
    summary: ClassVar[str] = "Put a piece out of play, into the place for destroyed pieces."
    destroy: Expr = Field(description="the piece, or a list of pieces")
    to: Expr = Field(description="the place where destroyed pieces lie (e.g. a pile "
                     "called destroyed)")

    def compile(self, b: ProgramBuilder) -> None:
        what, where = b.expr(self.destroy, allow_random=True), b.place(self.to)
        text_to = self.to.text
        nxt = b.after_this()

        def run(m: Machine) -> int:
            env = m.env
            piece, site = what(env), where(env)
            if site is None:
                raise RuleError(f"destroy: '{text_to}' gave no place")
            for p in piece if isinstance(piece, list) else [piece]:
                m.move(_piece(m, p, "destroy"), site)
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        return [f"Destroy {d.expr(self.destroy)}: it goes to {d.expr(self.to)} and is out of "
                "play."]


class Create(Primitive):
    """Bring a new piece into play: take one with the given attributes from a supply.

    Attributes left out may have any value. The piece taken is the first match in the
    supply's order. When the supply has none, `else` runs instead.
    """

    keyword: ClassVar[str] = "create"
    summary: ClassVar[str] = ("Take a piece with the given attribute values from a supply "
                              "and put it onto a place; `else` when there is none.")
    create: dict[str, Expr] = Field(description="attribute: value the new piece must have, "
                                    "e.g. {colour: piece.colour, size: 1}")
    from_: Expr = Field(alias="from", description="the supply (a place, a zone or a list of "
                        "places)")
    to: Expr = Field(description="the place it goes onto (e.g. a free slot of a field)")
    at: Literal["top", "bottom"] = Field(default="top", description="top of the place "
                                         "(default) or under what is there")
    else_: Block = Field(default_factory=list, alias="else",
                         description="what happens instead when the supply has no such "
                                     "piece (default: nothing)")
    as_: str | None = Field(default=None, alias="as",
                            description="local name for the piece created (null when none)")

    def local_names(self) -> set[str]:
        return {self.as_} if self.as_ else set()

    def children(self) -> list[list[Primitive]]:
        return [self.else_]

    def compile(self, b: ProgramBuilder) -> None:
        wanted = [(check_attribute(b, attr, "create", self.loc), b.expr(e, allow_random=True))
                  for attr, e in self.create.items()]
        supply_of = b.expr(self.from_, allow_random=True)
        where = b.place(self.to, allow_random=True)
        text_to, bottom, name = self.to.text, self.at == "bottom", self.as_
        otherwise, end = b.label(), b.label()

        def run(m: Machine) -> int:
            env = m.env
            order = m.game.attribute_order
            want = {order.index(attr): value(env) for attr, value in wanted}
            q = find_piece(m, want, _supply_pieces(m, supply_of(env), "create"))
            if name:
                env.locals[name] = q
            if q is None:
                return otherwise.pc
            site = where(env)
            if site is None:
                raise RuleError(f"create: '{text_to}' gave no place to put the piece")
            m.move(q, site, bottom)
            return end.pc
        b.emit(run, usually=end)
        b.mark(otherwise)
        b.block(self.else_)
        b.mark(end)

    def english(self, d: Describer) -> list[str]:
        attrs = ", ".join(f"{k} {d.expr(v)}" for k, v in self.create.items())
        where = "under the pieces of" if self.at == "bottom" else "onto"
        out = [f"Take a piece with {attrs} from {d.expr(self.from_)} and put it {where} "
               f"{d.expr(self.to)}."]
        if self.else_:
            out += ["If there is no such piece:", *d.block(self.else_)]
        return out
