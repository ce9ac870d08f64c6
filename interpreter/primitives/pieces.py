"""Moving pieces: move, swap, shuffle; showing them to some seats only: show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import Field

from interpreter.errors import RuleError
from interpreter.located import Expr
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.run.machine import Machine


class Move(Primitive):
    """Move a piece (or each piece of a list, in order) onto a place.

    The piece leaves wherever it is, even from the middle of a stack; what was above it
    drops down. Capturing is moving to a seat's pile; placing is moving from a supply.
    """

    keyword: ClassVar[str] = "move"
    summary: ClassVar[str] = "Move a piece (or a list of pieces) onto the top (or bottom) of a "\
        "place."
    move: Expr = Field(description="the piece, or a list of pieces")
    to: Expr = Field(description="the place (square, pile, slot) it goes to")
    at: Literal["top", "bottom"] = "top"

    def compile(self, b: ProgramBuilder) -> None:
        from interpreter.compile.stretches import Inline, unique

        what, where = b.expr(self.move, allow_random=True), b.place(self.to, allow_random=True)
        bottom = self.at == "bottom"
        text_what, text_to = self.move.text, self.to.text
        nxt = b.after_this()

        def carry_out(m: Machine, piece: Any, site: Any) -> None:
            if site is None:
                raise RuleError(f"move: '{text_to}' gave no place to move to")
            if piece is None:
                raise RuleError(f"move: '{text_what}' gave no piece to move")
            if isinstance(piece, list):
                for p in piece:
                    m.move(p, site, bottom)
            else:
                m.move(piece, site, bottom)

        def run(m: Machine) -> int:
            env = m.env
            carry_out(m, what(env), where(env))
            return nxt

        def inline(pc: int) -> Inline:
            """One piece to a place no trigger watches (`Machine.move`), in a stretch;
            anything else is `carry_out`'s."""
            names = {unique(pc, "what"): what, unique(pc, "where"): where,
                     unique(pc, "carry_out"): carry_out}
            put = "st.stack(site).insert(0, piece)" if bottom else "st.stack(site).append(piece)"
            return Inline((
                f"piece = {unique(pc, 'what')}(env)",
                f"site = {unique(pc, 'where')}(env)",
                "if (type(piece) is int and type(site) is int and 0 <= piece < len(st.loc)",
                "        and 0 <= site < st.places and not m.game.site_zone[site].triggers",
                "        and not st.shown):",
                "    old = st.stack(st.loc[piece])",
                "    if old[-1] == piece:",
                "        old.pop()",
                "    else:",
                "        env.steps += len(old)",
                "        if env.steps > env.step_limit: overspent(env)",
                "        old.remove(piece)",
                f"    {put}",
                "    st.loc[piece] = site",
                "    if env.cache: env.forget('board')",
                "else:",
                f"    {unique(pc, 'carry_out')}(m, piece, site)",
            ), names)
        b.emit(run, falls=True, inline=inline)

    def english(self, d: Describer) -> list[str]:
        where = "to the bottom of" if self.at == "bottom" else "onto"
        return [f"Move {d.expr(self.move)} {where} {d.expr(self.to)}."]


class Swap(Primitive):
    """Exchange the places of two pieces (e.g. trade a piece for one from a supply)."""

    keyword: ClassVar[str] = "swap"
    summary: ClassVar[str] = "Exchange the places of two pieces."
    swap: Expr
    with_: Expr = Field(alias="with")

    def compile(self, b: ProgramBuilder) -> None:
        a, c = b.expr(self.swap, allow_random=True), b.expr(self.with_, allow_random=True)
        nxt = b.after_this()

        def run(m: Machine) -> int:
            x, y = a(m.env), c(m.env)
            if x is None or y is None:
                raise RuleError("swap: both sides must be pieces")
            m.swap(x, y)
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        return [f"Exchange {d.expr(self.swap)} with {d.expr(self.with_)}."]


class Shuffle(Primitive):
    """Shuffle the pieces of a place (a deck, a bag) into a random order."""

    keyword: ClassVar[str] = "shuffle"
    summary: ClassVar[str] = "Put the pieces of a place in a random order."
    shuffle: Expr = Field(description="the place to shuffle")

    def compile(self, b: ProgramBuilder) -> None:
        site = b.place(self.shuffle)
        nxt = b.after_this()

        def run(m: Machine) -> int:
            m.shuffle(site(m.env))
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        return [f"Shuffle {d.expr(self.shuffle)}."]


class Show(Primitive):
    """Show pieces to some seats only (a look at another player's hand, a peek at the
    top of the deck): those seats see each piece's face wherever it lies, in their view
    and their log, until it moves; nobody else learns anything."""

    keyword: ClassVar[str] = "show"
    summary: ClassVar[str] = ("Show a piece (or a list of pieces) to the seats in `to` only, "
                              "until it moves.")
    show: Expr = Field(description="the piece, or a list of pieces")
    to: Expr = Field(description="the seat, or list of seats, who see them")

    def compile(self, b: ProgramBuilder) -> None:
        what, seats = b.expr(self.show), b.expr(self.to)
        nxt = b.after_this()

        def run(m: Machine) -> int:
            env = m.env
            pieces = what(env)
            if pieces is None:
                raise RuleError(f"show: '{self.show.text}' gave no piece to show")
            m.show(pieces, seats(env))
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        return [f"Show {d.expr(self.show)} to {d.expr(self.to)} and nobody else (they see it "
                "until it moves)."]
