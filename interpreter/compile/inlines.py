"""The machine's everyday instructions as source for generated stretches.

Beginning a turn, ending it (the end rules) and pausing at a decision happen once or
more in every turn of every game; written into a stretch (compile.stretches.Inline),
they cost no call into the machine. Each source does exactly what the machine's own
method does (run.machine: begin_turn, end_turn, ask), charge for charge and error for
error, and hands anything unusual back to it; tests/test_stretches.py plays every
bundled game both ways, step for step. Only generated names and numbers reach the
source: rules, texts and expressions are objects in its namespace.
"""

from __future__ import annotations

from typing import Any, NoReturn

from interpreter.compile.stretches import Inline, unique
from interpreter.errors import BudgetError, RuleError
from interpreter.run.machine import PAUSE
from interpreter.run.tables import ChoiceSpec, EndRuleInfo


def begin_turn(pc: int, turns_per_game: int) -> Inline:
    """`Machine.begin_turn`: count the turn, forget the turn's locals."""
    over = unique(pc, "too_many_turns")
    return Inline((
        "st.turn += 1",
        f"if st.turn > {int(turns_per_game)}: {over}({int(turns_per_game)})",
        "env.locals.clear()",
        "if env.cache: env.forget('turn')",
    ), {over: _too_many_turns})


def _too_many_turns(turns: int) -> NoReturn:
    raise BudgetError("turns_per_game", f"the game went past {turns:,} turns; the rules may "
                      "never end")


def end_turn(pc: int, rules: list[EndRuleInfo], turn_pc: int) -> Inline:
    """`Machine.end_turn`: the end rules in order (the first that holds ends the game),
    else the next seat's turn (`turn_pc`)."""
    lines: list[str] = []
    ended = unique(pc, "ended")
    names: dict[str, Any] = {"RuleError": RuleError, ended: _ended}
    for j, rule in enumerate(rules):
        when, winners, info = (unique(pc, f"when{j}"), unique(pc, f"winners{j}"),
                               unique(pc, f"rule{j}"))
        names[when], names[info] = rule.when, rule
        if rule.winners is not None:
            names[winners] = rule.winners
        lines += [
            "try:",
            f"    env.steps += {int(rule.weight)}",
            f"    if {when}(env):",
            f"        m.finish({winners + '(env)' if rule.winners is not None else 'None'}, "
            f"{info}.text)",
            f"        st.frames[-1][0] = {pc}",
            f"        return {PAUSE}",
            "except RuleError as exc:",
            f"    raise {ended}(m, {info}, exc) from None",
        ]
    lines += ["if st.out:",  # seats knocked out: the machine finds the next seat in
              f"    r = m.next_seat_in({int(turn_pc)})",
              f"    if r == {PAUSE}: st.frames[-1][0] = {pc}",
              "    return r",
              "st.current = st.current % st.players + 1",
              "if env.cache: env.forget('turn')"]
    return Inline(tuple(lines), names)


def _ended(m: Any, rule: EndRuleInfo, exc: RuleError) -> RuleError:
    return exc.at(rule.loc, f"end rule '{rule.id}'", m.game.source_line(rule.loc))


def ask(pc: int, spec: ChoiceSpec, usual: int) -> Inline | None:
    """`Machine.ask` for one seat's decision: pause when the seat has an option (the
    first kind that has one says so), else go on to `if_none` or past the decision.
    A decision of several seats at once is left to the machine."""
    if spec.simultaneous:
        return None
    kinds, failed, deep = unique(pc, "kinds"), unique(pc, "failed"), unique(pc, "too_deep")
    names: dict[str, Any] = {kinds: spec, failed: _failed, deep: _too_deep,
                             "RuleError": RuleError, "RecursionError": RecursionError}
    lines = ["st._cache = None"]
    if spec.seat is None:
        lines.append("env.temps['chooser'] = st.current")
    else:
        seat = unique(pc, "seat")
        names[seat] = spec.seat
        lines += [f"seat = {seat}(env)", "m.seat_index(seat)", "env.temps['chooser'] = seat"]
    out_seat = "st.current" if spec.seat is None else "seat"
    lines += [f"if st.out and {out_seat} in st.out: return {int(usual)}"]  # knocked out
    lines.append("try:")
    for k, kind in enumerate(spec.kinds):
        exists = unique(pc, f"exists{k}")
        names[exists] = kind.exists if kind.exists is not None else kind.has_option
        lines += [f"    k = {k}",
                  f"    if {exists}(env):",
                  f"        st.frames[-1][0] = {pc}"]
        if len(spec.kinds) > 1:  # (see Machine.found: a sampler picks among the kinds)
            lines.append(f"        m.found = ({kinds}, {out_seat}, {k})")
        lines.append(f"        return {PAUSE}")
    lines += ["except RuleError as exc:",
              f"    raise {failed}(m, {kinds}, k, exc) from None",
              "except RecursionError:",
              f"    raise {deep}(m, {kinds}) from None",
              f"return {int(usual)}"]
    return Inline(tuple(lines), names)


def _failed(m: Any, spec: ChoiceSpec, k: int, exc: RuleError) -> RuleError:
    return spec._locate(m.env, k, exc).during(m.state.decisions, m.game.variant)


def _too_deep(m: Any, spec: ChoiceSpec) -> RuleError:
    return spec._too_deep(m.env).during(m.state.decisions, m.game.variant)
