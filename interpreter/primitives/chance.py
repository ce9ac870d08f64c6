"""Random set-ups under a constraint: arrange."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pydantic import Field

from interpreter.errors import BudgetError, RuleError
from interpreter.located import Expr
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.run.machine import Env, Machine


class Arrange(Primitive):
    """Deal values to places at random so that a condition holds at every place.

    Every valid layout is equally likely (rejection sampling): the values are dealt as a
    uniform random permutation, one to each place in the order given, and `where` is
    checked at each place as it is dealt (it sees `value`, `place` and `assigned`, the
    values dealt so far, indexed by place). At the first place where it fails, the whole
    deal starts again from scratch, up to `max_tries` times. Dealing from only the values
    a place allows, the obvious shortcut, favours some layouts over others. Each place
    dealt is a step, so a rare condition may need a larger `steps_per_decision`. The
    result is a list indexed by place (null where nothing was dealt), bound to the local
    name `as`.
    """

    keyword: ClassVar[str] = "arrange"
    summary: ClassVar[str] = ("Deal values to places at random under a condition, dealing "
                              "again from scratch when it fails.")
    arrange: Expr = Field(description="the values to deal (a list, repeats allowed)")
    into: Expr = Field(description="the places, as many as there are values")
    where: Expr | None = Field(default=None, description="condition on `value`, `place` and "
                               "`assigned` (values dealt so far, by place)")
    as_: str = Field(alias="as", description="local name for the result (list by place)")
    max_tries: int = Field(default=200_000, ge=1, description="how many deals to try "
                           "before giving up")

    def local_names(self) -> set[str]:
        return {self.as_}

    def compile(self, b: ProgramBuilder) -> None:
        from interpreter.compile.deal import drawn_deal
        from interpreter.compile.expressions import LOOP_STEPS
        from interpreter.run.budget import kept

        values_of = b.expr(self.arrange, allow_random=True)
        places_of = b.expr(self.into, allow_random=True)
        before = b.pending_weight
        deal = b.deal(self.where)
        per_place = LOOP_STEPS + b.pending_weight - before  # `where` runs at every place
        b.pending_weight = before
        name, limit = self.as_, self.max_tries
        conditional = self.where is not None
        size_limit = b.base_scope.limits.value_size
        nxt = b.after_this()

        def run(m: Machine) -> int:
            env = m.env
            values = kept(env, list(values_of(env) or []), size_limit, f"arrange as {name}")
            places = list(places_of(env) or [])
            if len(values) != len(places):
                raise RuleError(f"arrange: {len(values)} values for {len(places)} places")
            n_sites = m.state.places
            for i, place in enumerate(places):
                if type(place) is not int or not 0 <= place < n_sites:
                    places[i] = m.place(place, "arrange")
            if len(set(places)) != len(places):
                raise RuleError("arrange: a place is listed more than once")
            n = len(values)
            # One deck and one `assigned` for every try: Fisher-Yates draws each next value
            # uniformly from those left whatever order they lie in, and a failed try only
            # clears the places it dealt, so a try costs what it deals, not the board.
            # Stopping at the first failure and starting again rejects exactly the
            # permutations a full deal would.
            steps = [(i, place, n - i, (1 << 64) - ((1 << 64) % (n - i)))
                     for i, place in enumerate(places)]
            assigned: list = [None] * n_sites
            tries = [0, limit]
            try:
                r = m.state.rng
                if type(r) is int:
                    r, dealt = deal(env, steps, values, assigned, places, r, tries, per_place)
                else:  # outcomes given from outside (rng.Scripted)
                    r, dealt = drawn_deal(deal, conditional, env, steps, values, assigned,
                                          places, r, tries, per_place)
                if dealt:
                    m.state.rng = r
                    env.locals[name] = assigned
                    return nxt
            except BudgetError as exc:
                if exc.budget not in ("steps_for_setup", "steps_per_decision",
                                      "steps_per_game"):
                    raise
                raise BudgetError(exc.budget, f"arrange: no arrangement found in {tries[0]:,} "
                                  f"{'try' if tries[0] == 1 else 'tries'} before "
                                  f"{_ran_out(env)}"
                                  ": the condition may be impossible, rare, or costly to "
                                  "check") from None
            raise RuleError(f"arrange: no arrangement found in {limit:,} tries (max_tries): "
                            "every deal gave some place a value that breaks the condition; it "
                            "may be impossible, or rare enough to need more tries")
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        start = (f"Deal {d.expr(self.arrange)} in a random order to {d.expr(self.into)}, one "
                 "to each place")
        end = f"What a place is dealt is its {d.name(self.as_)}."
        if not self.where:
            return [f"{start}. {end}"]
        with d.naming({"value": "the value being dealt", "place": "the place",
                       "assigned": "the value dealt to {}"}):
            cond = d.cond(self.where)
        return [f"{start} in turn, checking each place as it is dealt (the places after it "
                f"have nothing yet): {cond}. As soon as a "
                "place fails the check, take everything back and deal again from the start, "
                f"so that every deal where all the places pass is equally likely. {end}"]


def _ran_out(env: Env) -> str:
    """The step budget that ran out, in words, for arrange's own message."""
    budgets = env.game.budgets
    if env.step_budget == "steps_per_game":
        return f"the game went past {budgets.steps_per_game:,} steps in all"
    if env.step_budget == "steps_for_setup":
        return f"the set-up had run {budgets.steps_for_setup:,} steps"
    return f"the rules had run {budgets.steps_per_decision:,} steps without needing a decision"
