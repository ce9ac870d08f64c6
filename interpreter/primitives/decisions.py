"""Decisions: `choose`, the only place where the machine waits for a seat.

Each option kind generates options from `for` bindings filtered by `where`; each option
has a stable notation (typed by players, stored in logs) and a readable label. With
`seats` instead of `seat`, every listed seat chooses in secret; the choices are revealed
and carried out together, in seat order, once all are in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from interpreter.located import Expr, Node, Template
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.primitives import Block


class OptionDef(Node):
    """One kind of option a seat may pick."""

    id: str = Field(description="names the option kind (for tests and the rulebook)")
    for_: dict[str, Expr] = Field(
        default_factory=dict, alias="for",
        description="name: list — one option for each combination (later lists may use "
                    "earlier names)")
    let: dict[str, Expr] = Field(default_factory=dict,
                                 description="names computed for each combination")
    where: Expr | None = Field(default=None, description="only combinations where this holds")
    notation: Template = Field(description="short, stable text players type and logs keep")
    label: Template | None = Field(default=None, description="readable description")
    said: Template | None = Field(
        default=None, description="what the log says once it is picked: a sentence in the "
        "past tense naming the chooser, e.g. \"{seat_name(chooser)} placed a {piece_name(piece)} "
        "on {place_name(square)}\" (default: the label, told of the chooser)")
    do: Block = Field(default_factory=list, description="what picking it does")
    text: str | None = Field(default=None, description="English for the rulebook, when the "
                             "generated sentence reads poorly")


class Choose(Primitive):
    """A decision: the named seat (or seats, in secret) picks one legal option."""

    keyword: ClassVar[str] = "choose"
    summary: ClassVar[str] = "A seat picks one of the legal options (several seats: in secret)."
    choose: Template = Field(description="the question shown to the seat")
    seat: Expr | None = Field(default=None, description="who decides (default: current)")
    seats: Expr | None = Field(default=None, description="several seats deciding at once, "
                               "in secret; revealed and carried out in seat order")
    options: list[OptionDef] = Field(min_length=1)
    if_none: Block = Field(default_factory=list, description="what happens when no option "
                           "is legal (default: nothing, the rules go on)")
    secret: bool = Field(default=False, description="other seats do not see the choice in "
                         "the log until the game ends")
    on_record: bool = Field(
        default=False, description="with `seats`: the line revealing each choice shows it to "
        "the whole table, so it stays readable for every seat even once what it names is "
        "hidden again (see `say`'s on_record)")

    def local_names(self) -> set[str]:
        names = {"chooser"}
        for o in self.options:
            names |= set(o.for_) | set(o.let)
        return names

    def children(self) -> list[list[Primitive]]:
        return [o.do for o in self.options] + [self.if_none]

    def compile(self, b: ProgramBuilder) -> None:
        b.choice(self)

    def english(self, d: Describer) -> list[str]:
        who = d.expr(self.seats) if self.seats is not None else (
            d.expr(self.seat) if self.seat is not None else "the current player")
        who = who[:1].upper() + who[1:]
        head = f"{who} choose, each in secret," if self.seats is not None else (
            f"{who} chooses")
        if self.on_record:
            head += " then show everyone their choices, which stay in the log,"
        out = [f"{head} one of these options (asked: “{d.text(self.choose)}”):"]
        for o in self.options:
            out.extend(d.option(o))
        if self.if_none:
            out += ["If there is no legal choice:", *d.block(self.if_none)]
        return out
