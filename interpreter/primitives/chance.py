"""Random set-ups under a constraint: arrange."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from interpreter.errors import RuleError
from interpreter.load.located import Expr
from interpreter.primitives.base import Primitive
from interpreter.run import rng as rngmod

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.run.machine import Machine


class Arrange(Primitive):
    """Deal values to places at random so that a condition holds at every place.

    The places are taken in a random order; each gets a value drawn at random from
    those left that satisfy `where` (which sees `value`, `place` and `assigned`, the
    values given so far, indexed by place). When some place has no allowed value left,
    the whole arrangement is drawn again, up to `max_tries` times. The result is a list
    indexed by place (null where nothing was given), bound to the local name `as`.
    """

    keyword: ClassVar[str] = "arrange"
    summary: ClassVar[str] = ("Deal values to places at random under a condition, redrawing "
                              "when stuck.")
    arrange: Expr = Field(description="the values to deal (a list, repeats allowed)")
    into: Expr = Field(description="the places, as many as there are values")
    where: Expr | None = Field(default=None, description="condition on `value`, `place` and "
                               "`assigned` (values given so far, by place)")
    as_: str = Field(alias="as", description="local name for the result (list by place)")
    max_tries: int = Field(default=10_000, ge=1)

    def local_names(self) -> set[str]:
        return {self.as_}

    def compile(self, b: ProgramBuilder) -> None:
        values_of = b.expr(self.arrange, allow_random=True)
        places_of = b.expr(self.into, allow_random=True)
        where = b.expr(self.where, ["value", "place", "assigned"]) if self.where else None
        name, limit = self.as_, self.max_tries
        nxt = b.after_this()

        def run(m: Machine) -> int:
            env = m.env
            values = list(values_of(env) or [])
            places = list(places_of(env) or [])
            if len(values) != len(places):
                raise RuleError(f"arrange: {len(values)} values for {len(places)} places")
            n_sites = len(m.state.sites)
            temps = env.temps
            for _ in range(limit):
                assigned: list = [None] * n_sites
                left = values[:]
                order = places[:]
                r = m.state.rng
                for i in range(len(order) - 1, 0, -1):
                    r, j = rngmod.below(r, i + 1)
                    order[i], order[j] = order[j], order[i]
                stuck = False
                temps["assigned"] = assigned
                for place in order:
                    temps["place"] = place
                    allowed = []
                    for k, v in enumerate(left):
                        temps["value"] = v
                        if where is None or where(env):
                            allowed.append(k)
                    if not allowed:
                        stuck = True
                        break
                    r, pick = rngmod.below(r, len(allowed))
                    assigned[place] = left.pop(allowed[pick])
                m.state.rng = r
                if not stuck:
                    env.locals[name] = assigned
                    return nxt
            raise RuleError(f"arrange: no arrangement found in {limit} tries")
        b.emit(run)

    def english(self, d: Describer) -> list[str]:
        cond = ""
        if self.where:
            with d.naming({"value": "the value being dealt", "place": "the place",
                           "assigned": "the value dealt to {}"}):
                cond = f", so that at every place {d.cond(self.where)}"
        return [f"Deal {d.expr(self.arrange)} at random to {d.expr(self.into)}, one to each "
                f"place{cond}; if a place is left with no allowed value, deal again. "
                f"What a place is dealt is its {d.name(self.as_)}."]
