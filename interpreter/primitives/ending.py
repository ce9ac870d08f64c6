"""Ending the game and telling the table what happened: end_game, say."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from interpreter.located import Expr, Template
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.run.machine import Machine

PAUSE = -1


class EndGame(Primitive):
    """End the game now; winners are given, or found by the ruleset's `rank`."""

    keyword: ClassVar[str] = "end_game"
    summary: ClassVar[str] = "End the game at once, with given winners or by the ranking."
    end_game: Template = Field(description="why the game ends, for the log")
    winners: Expr | None = Field(default=None, description="list of winning seats")

    def compile(self, b: ProgramBuilder) -> None:
        reason = b.template(self.end_game)
        winners = b.expr(self.winners) if self.winners is not None else None

        def run(m: Machine) -> int:
            m.finish(winners(m.env) if winners else None, reason(m.env))
            return PAUSE
        b.emit(run)

    def english(self, d: Describer) -> list[str]:
        names = d.expr(self.winners) if self.winners is not None else ""
        verb = "win" if " and " in names or names.endswith("players") else "wins"
        who = (f"; {names} {verb}" if self.winners is not None
               else "; the ranking decides the winner")
        reason = d.text(self.end_game).rstrip(".")
        if reason[1:2].islower():
            reason = reason[:1].lower() + reason[1:]
        return [f"The game ends ({reason}){who}."]


class Eliminate(Primitive):
    """Knock seats out of the game (a player with no cards left, no money, no pieces)."""

    keyword: ClassVar[str] = "eliminate"
    summary: ClassVar[str] = ("Knock a seat (or a list of seats) out of the game: it takes "
                              "no more turns and makes no more decisions.")
    eliminate: Expr = Field(description="the seat, or list of seats, knocked out")

    def compile(self, b: ProgramBuilder) -> None:
        seats = b.expr(self.eliminate)
        nxt = b.after_this()

        def run(m: Machine) -> int:
            m.eliminate(seats(m.env))
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        return [f"Knock out of the game: {d.expr(self.eliminate)} (no more turns, no more "
                "decisions)."]


class Say(Primitive):
    """Write a line in the game's log (for everyone, or only the seats named)."""

    keyword: ClassVar[str] = "say"
    summary: ClassVar[str] = "Write a line in the log, seen by everyone or by the seats in `to`."
    say: Template
    to: Expr | None = Field(default=None, description="list of seats who see the line")
    on_record: bool = Field(
        default=False, description="the line stays readable for every seat that could see "
        "the pieces it names when it was written, even once they are hidden again (a card "
        "played face up, then discarded face down: the table saw it). By default a line "
        "naming a piece a seat may not see now is hidden from that seat, so the log never "
        "remembers for it")

    def compile(self, b: ProgramBuilder) -> None:
        text = b.template(self.say, track_pieces=True)
        seats = b.expr(self.to) if self.to is not None else None
        nxt = b.after_this()
        on_record = self.on_record

        def run(m: Machine) -> int:
            env = m.env
            to = seats(env) if seats else None
            env.mentioned = []
            try:
                said = text(env)
                m.say(said, to, tuple(env.mentioned), on_record)
            finally:
                env.mentioned = None
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        said = d.text(self.say, placeholders=True)
        end = "" if said[-1:] in ".!?" else "."
        kept = " (kept in the log for everyone who saw it)" if self.on_record else ""
        if self.to is None:
            return [f"Announce: “{said}”{kept}{end}"]
        return [f"Tell {d.expr(self.to)}, and nobody else: “{said}”{kept}{end}"]
