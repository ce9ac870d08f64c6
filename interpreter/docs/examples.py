"""The rulebook's examples: a real seeded game's first decisions, and the worked
examples built from the game's scenario cases (so every example is proven by
``tabletop test``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.agents.random_agent import RandomAgent
from interpreter.compile.english import join_words
from interpreter.compile.expressions import ExpressionError, located
from interpreter.compile.program import collect_locals
from interpreter.docs import sideview
from interpreter.docs.diagrams import position_svg
from interpreter.docs.figure import Diagram, sentence
from interpreter.errors import Location, RulesetError, TabletopError, did_you_mean
from interpreter.load.catalog import tests_file_for
from interpreter.load.loader import LoadedRuleset
from interpreter.run.game import Game
from interpreter.run.playout import make_agents
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios.runner import CaseCannotRun, case_position, load_scenario_file

EXAMPLE_DECISIONS = 4
"""Pictures in the worked example (decisions that change what everyone sees)."""
MAX_EXAMPLE_DECISIONS = 12


@dataclass
class ExampleStep:
    number: int
    seat: str
    prompt: str
    label: str
    notation: str
    said: list[str]
    after: Diagram | None
    turn: int
    secret: bool = False



@dataclass
class CaseExampleDoc:
    """A worked example from a scenario case (rulebook.examples)."""

    title: str
    text: str
    case: str
    where: str
    """Where the position comes from, in a sentence."""
    board: Diagram
    houses: Diagram | None
    """The side views of its houses, when it has any."""
    values: list[dict[str, str]]
    """`label` and `value` of each value asked for, evaluated on the position."""



def seeded_example(game: Game, players: int, base: str) -> tuple[list[ExampleStep], Diagram]:
    """The first decisions of a real seeded game; a picture after each decision that
    changes what everyone can see (a secret choice changes nothing visible)."""
    seed = game.ruleset.rulebook.example_seed
    state = game.new_state(players, seed)
    first = view(game, state, SPECTATOR)
    setup = Diagram(f"{base}setup.svg", f"{game.title}: the position after set-up "
                    f"(seed {seed}, {players} players)",
                    position_svg(game, first, f"{game.title} after set-up"))
    agents = make_agents(players, seed)
    steps: list[ExampleStep] = []
    shown_zones = first["zones"]
    pictures = 0
    for number in range(1, MAX_EXAMPLE_DECISIONS + 1):
        seats = game.deciding_seats(state)
        if not seats or state.over or pictures >= EXAMPLE_DECISIONS:
            break
        seat = seats[0]
        decision = game.decision(state)
        options = game.legal_options(state, seat)
        agent = agents[seat]
        index = (agent.choose_raw([o.kind for o in options]) if isinstance(agent, RandomAgent)
                 else 0)
        chosen = options[index]
        seen_before = len(view(game, state, SPECTATOR)["log"])
        turn = state.turn
        state = game.apply(state, seat, chosen)
        seen = view(game, state, SPECTATOR)
        said = [e["say"] if e["say"] is not None else
                "(a message about a card that onlookers cannot see now)"
                for e in seen["log"][seen_before:] if "say" in e]
        after = None
        if seen["zones"] != shown_zones:
            pictures += 1
            shown_zones = seen["zones"]
            after = Diagram(f"{base}example-{pictures}.svg",
                            f"After decision {number}: {chosen.label}",
                            position_svg(game, seen,
                                         f"{game.title}: after decision {number}"))
        steps.append(ExampleStep(number, game.seat_name(seat),
                                 decision.prompt if decision else "", chosen.label,
                                 chosen.notation, said, after, turn,
                                 decision.simultaneous if decision else False))
    return steps, setup



def _example_value(game: Game, value: Any) -> str:
    """A value under a worked example, as a reader reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return str(game.value_names.get(value, value))
    if isinstance(value, list | tuple):
        return ", ".join(_example_value(game, v) for v in value) or "none"
    return str(value)



def case_examples(game: Game, loaded: LoadedRuleset, base: str) -> list[CaseExampleDoc]:
    """The worked examples of `rulebook.examples`: each names a case of the game's tests
    file, whose position (after its moves) is drawn, with the values asked for."""
    decls = game.ruleset.rulebook.examples
    if not decls:
        return []
    source = loaded.source

    def fail(message: str, loc: Location | None, hint: str | None = None) -> RulesetError:
        return RulesetError([source.diagnostic(message, loc, None, hint)])

    tests = tests_file_for(Path(loaded.path))
    if not tests.is_file():
        raise fail(f"rulebook examples come from the game's scenario tests, but there is "
                   f"no {tests.name} next to the ruleset", decls[0].case.loc)
    suite = load_scenario_file(tests)
    cases = {p.case.name: p for p in suite.cases}
    out = []
    for n, ex in enumerate(decls, 1):
        name = ex.case.text
        prepared = cases.get(name)
        if prepared is None:
            raise fail(f"no case is called '{name}' in {tests.name}", ex.case.loc,
                       did_you_mean(name, [c.name for c in suite.model.cases]))
        try:
            state = case_position(prepared)
        except (CaseCannotRun, TabletopError) as exc:
            raise fail(f"the case '{name}' cannot be played for this example: "
                       f"{str(exc).splitlines()[0]}", ex.case.loc) from None
        g = prepared.game
        seen = view(g, state, SPECTATOR)
        grids = [z for z, info in g.zones.items() if info.kind == "grid" and info.on_table]
        board = Diagram(f"{base}case-{n}.svg", f"{ex.title}: the position",
                        position_svg(g, seen, f"{game.title}: {ex.title}",
                                     zones=grids or None))
        stacks = sideview.houses(g, seen)
        houses = None
        if stacks:
            houses = Diagram(f"{base}case-{n}-side.svg",
                             f"{ex.title}: the houses seen from the south, to scale",
                             sideview.side_view_svg(g, stacks, f"{ex.title}: side view"))
        values = []
        env = g.env(state)
        for item in ex.show:
            try:
                compiled = g.compile_expression(item.value.text,
                                                local_names=_turn_names(g))
            except ExpressionError as exc:
                raise RulesetError([located(exc, item.value.loc, source)]) from None
            try:
                got = compiled(env)
            except TabletopError as exc:
                raise fail(f"'{item.label}' cannot be worked out on the position of case "
                           f"'{name}': {str(exc).splitlines()[0]}", item.value.loc) from None
            values.append({"label": _cell(item.label), "value": _cell(_example_value(g, got))})
        moves = [m.notation for m in prepared.moves]
        where = (f"The position of the scenario test “{name}” ({tests.name}), with "
                 f"{prepared.players} players"
                 + (f", after the moves {join_words([f'`{m}`' for m in moves])}" if moves
                    else "") + ".")
        if state.over:
            winners = [g.seat_name(w) for w in state.winners or []]
            where += (" The game is over: "
                      + (f"{join_words(winners)} {'wins' if len(winners) == 1 else 'win'}."
                         if winners else "nobody wins."))
        out.append(CaseExampleDoc(ex.title, sentence(ex.text) if ex.text else "", name,
                                  where, board, houses, values))
    return out



def _turn_names(game: Game) -> frozenset[str]:
    """Names the turn gives values to (a value may use them, as an expectation may)."""
    return frozenset(collect_locals(game.ruleset.turn))



def _cell(text: str) -> str:
    """Text for a Markdown table's cell."""
    return " ".join(text.split()).replace("|", "\\|")


__all__ = ["CaseExampleDoc", "ExampleStep", "case_examples", "seeded_example"]
