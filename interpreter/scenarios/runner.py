"""Loading and running scenario tests (``tabletop test``).

Loading checks everything that can be checked without playing: the file's shape,
the ruleset and its options, pieces, places, variables, seats and every expectation's
names; all problems come back together as one located RulesetError. Running then
builds each case's start, applies its moves and reports every failed expectation
with what was found instead, the legal options and the position.
"""

from __future__ import annotations

import ast
import re
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from interpreter.api import load as load_ruleset_file
from interpreter.assemble.game import compile_game_once
from interpreter.compile.expressions import Compiled, ExpressionError, located
from interpreter.compile.program import collect_locals
from interpreter.errors import (
    Diagnostic,
    IllegalMove,
    Location,
    RulesetError,
    TabletopError,
    UsageError,
    did_you_mean,
)
from interpreter.load.catalog import TESTS_SUFFIX, find_ruleset, rulesets_dir, tests_file_for
from interpreter.load.yaml_source import (
    LocatedDict,
    LocatedList,
    Source,
    locate,
    parse_yaml,
    read_yaml,
)
from interpreter.located import Expr
from interpreter.play.game import Game, normalize_notation, show_value
from interpreter.run.state import State
from interpreter.run.view import chose_text, redacted_log
from interpreter.scenarios.model import Case, Ended, Example, ExampleValue, ScenarioFile, Text
from interpreter.scenarios.position import (
    Placements,
    build_state,
    describe_state,
    resolve_position,
)

_SEAT_PREFIX = re.compile(r"^\s*(\d+)\s*:\s*(\S.*)$")


@dataclass
class ScenarioResult:
    """The outcome of one case."""

    file: Path
    name: str
    passed: bool
    message: str = ""
    """Empty when passed; otherwise what failed, expected against found, and context."""
    location: Location | None = None
    """Where the case is written."""


@dataclass
class _Expectation:
    expr: Expr
    check: Compiled
    parts: list[tuple[str, Compiled]]
    """Operands of a top-level comparison, to show their values when it fails."""


@dataclass
class _Move:
    seat: int | None
    notation: str


@dataclass
class _Prepared:
    """A case with every name resolved: ready to run."""

    case: Case
    game: Game
    players: int
    location: Location | None
    seed: int
    placements: Placements | None
    turn: int
    variables: list[tuple[str, int | None, Compiled, str]] = field(default_factory=list)
    moves: list[_Move] = field(default_factory=list)
    expectations: list[_Expectation] = field(default_factory=list)
    example_values: list[tuple[str, Compiled]] = field(default_factory=list)
    """An example's values (label, expression) to print on its last position."""


@dataclass
class ScenarioSuite:
    """A loaded tests file."""

    path: Path
    model: ScenarioFile
    cases: list[_Prepared]
    unprepared: dict[str, str] = field(default_factory=dict)
    """Cases that do not apply to the ruleset they were run against (another than their
    own, as `test --base` does), with why."""


# ---------------------------------------------------------------------------------------
# finding files
# ---------------------------------------------------------------------------------------

def discover(args: Iterable[str] = ()) -> list[Path]:
    """Tests files for bundled game names, ruleset paths, tests paths or folders;
    no arguments: every bundled ``rulesets/*.tests.yaml``."""
    args = list(args)
    if not args:
        return sorted(rulesets_dir().glob(f"*{TESTS_SUFFIX}"))
    out: list[Path] = []
    for arg in args:
        p = Path(arg)
        if p.is_dir():
            found = sorted(p.glob(f"*{TESTS_SUFFIX}"))
            if not found:
                raise UsageError(f"no *{TESTS_SUFFIX} files in {arg}")
            out.extend(found)
            continue
        if p.name.endswith(TESTS_SUFFIX):
            if not p.is_file():
                raise UsageError(f"no such tests file: {arg}")
            out.append(p)
            continue
        ruleset = find_ruleset(arg)
        tests = tests_file_for(ruleset)
        if not tests.is_file():
            raise UsageError(f"{arg} has no scenario tests (expected {tests})")
        out.append(tests)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------------------
# loading
# ---------------------------------------------------------------------------------------

class _Loader:
    """Validates one tests file and resolves its cases, collecting every problem."""

    def __init__(self, path: Path, ruleset: Path | None = None, text: str | None = None
                 ) -> None:
        self.path = path
        self.text = text
        """The file's text when it is not (yet) what is on disk: an editor's draft."""
        self.against = ruleset
        """Another ruleset to run the cases on: a case that does not fit it is set aside
        (in `unprepared`), not an error of the file."""
        self.unprepared: dict[str, str] = {}
        self.diagnostics: list[Diagnostic] = []
        self.source: Source
        self.tree: Any = None
        self.games: dict[tuple[str, tuple], Game] = {}

    def error(self, message: str, loc: Location | None, hint: str | None = None,
              expected: str | None = None) -> None:
        self.diagnostics.append(self.source.diagnostic(message, loc, expected, hint))

    def load(self) -> ScenarioSuite:
        tree, self.source = (read_yaml(self.path) if self.text is None
                             else parse_yaml(self.text, str(self.path)))
        self.tree = tree
        if not isinstance(tree, dict):
            raise RulesetError([self.source.diagnostic(
                "a tests file must be a YAML mapping with 'cases' (and 'ruleset')",
                getattr(tree, "loc", None) or Location(str(self.path), 1, 1))])
        try:
            model = ScenarioFile.model_validate(tree)
        except ValidationError as exc:
            raise RulesetError(_diagnose(exc, tree, self.source)) from None
        ruleset = self.ruleset_path(model, tree)
        cases: list[_Prepared] = []
        names: dict[str, Location | None] = {}
        raw_cases = tree["cases"]
        for i, case in enumerate(model.cases):
            raw = raw_cases[i]
            loc = raw_cases.item_locs[i] if isinstance(raw_cases, LocatedList) else None
            if case.name in names:
                self.error(f"two cases are called '{case.name}'", _key_loc(raw, "name"))
            names[case.name] = loc
            if ruleset is None:
                continue
            before = len(self.diagnostics)
            prepared = self.prepare(model, case, raw, loc, ruleset)
            if self.against is not None and len(self.diagnostics) > before:
                problems = self.diagnostics[before:]
                del self.diagnostics[before:]
                self.unprepared[case.name] = "\n".join(d.render() for d in problems)
                continue
            if prepared is not None:
                cases.append(prepared)
        if self.diagnostics:
            raise RulesetError(sorted(self.diagnostics, key=_diagnostic_order))
        return ScenarioSuite(self.path, model, cases, self.unprepared)

    def ruleset_path(self, model: ScenarioFile, tree: Any) -> Path | None:
        if self.against is not None:
            return self.against
        given = model.ruleset
        if given is None:
            if self.path.name.endswith(TESTS_SUFFIX):
                guess = self.path.with_name(self.path.name[: -len(TESTS_SUFFIX)] + ".yaml")
                if guess.is_file():
                    return guess
            self.error("say which ruleset these tests are for: 'ruleset: <game or path>'",
                       getattr(tree, "loc", None))
            return None
        here = self.path.parent
        for candidate in (here / given, here / f"{given}.yaml"):
            if candidate.is_file() and candidate.suffix in (".yaml", ".yml"):
                return candidate
        try:
            return find_ruleset(str(given))
        except UsageError as exc:
            self.error(str(exc), _key_loc(tree, "ruleset", value=True))
            return None

    def game(self, ruleset: Path, options: dict[str, Any], loc: Location | None) -> Game | None:
        key = (str(ruleset.resolve()), tuple(sorted((k, str(v)) for k, v in options.items())))
        found = self.games.get(key)
        if found is None:
            try:
                loaded = load_ruleset_file(str(ruleset.resolve()))
            except RulesetError as exc:
                where = _key_loc(self.tree, "ruleset", value=True) or getattr(
                    self.tree, "loc", None)
                raise RulesetError([self.source.diagnostic(
                    f"the ruleset these tests are for ({ruleset}) does not load; its "
                    "problems follow", where), *exc.diagnostics]) from None
            try:
                found = compile_game_once(loaded, options)
            except UsageError as exc:
                self.error(str(exc), loc)
                return None
            self.games[key] = found
        return found

    def prepare(self, model: ScenarioFile, case: Case, raw: Any, loc: Location | None,
                ruleset: Path) -> _Prepared | None:
        options = {str(k): _plain(v) for k, v in {**model.options, **case.options}.items()}
        options_loc = (_key_loc(raw, "options", value=True)
                       or _key_loc(self.tree, "options", value=True))
        game = self.game(ruleset, options, options_loc or loc)
        if game is None:
            return None
        players = case.players if case.players is not None else model.players
        try:
            players = game.check_players(players)
        except UsageError as exc:
            self.error(str(exc), _key_loc(raw, "players", value=True) or loc)
            return None
        seats = range(1, players + 1)

        def check_seat(seat: int | None, key: str, where: Location | None = None) -> None:
            if seat is not None and seat not in seats:
                self.error(f"{key}: {seat} is not a seat (this case has {players} players)",
                           where or _key_loc(raw, key, value=True) or loc)

        check_seat(case.turn, "turn")
        check_seat(case.seat, "seat")
        for key in ("deciding", "winners", "out"):
            for s in getattr(case, key) or []:
                check_seat(s, key)
        if case.seed is not None and case.position is not None:
            self.error("give either a seed (the real set-up) or a position, not both",
                       _key_loc(raw, "seed"))
        for s in case.ended.winners if case.ended is not None else []:
            check_seat(s, "ended")
        for key in ("turn", "out", "ended"):
            if getattr(case, key) and case.position is None:
                self.error(f"'{key}' goes with a position; a seed starts where the set-up "
                           "leaves the game", _key_loc(raw, key))

        placements = None
        if case.position is not None:
            pos_tree = _child(raw, "position")
            placements = resolve_position(
                game, players, case.position,
                lambda k: _key_loc(pos_tree, k),
                lambda zk, k: _key_loc(_child(pos_tree, zk), k),
                lambda msg, where, hint: self.error(msg, where or loc, hint))

        prepared = _Prepared(case, game, players, loc, case.seed or 0, placements,
                             case.turn or 1)
        var_tree = _child(raw, "variables")
        for name, value in case.variables.items():
            where = name.loc or _key_loc(var_tree, name)
            info = game.variables.get(str(name))
            if info is None:
                self.error(f"no variable is called '{name}'", where,
                           did_you_mean(str(name), game.variables))
                continue
            if info.per_piece:
                self.error(f"variable '{name}' is per piece: give its values with the pieces "
                           "in the position, e.g. {piece: CODE, " + str(name) + ": VALUE}",
                           where)
                continue
            if info.per_seat != isinstance(value, dict):
                how = ("per seat: give {seat: value}" if info.per_seat
                       else "not per seat: give one value")
                self.error(f"variable '{name}' is {how}", where)
                continue
            items = value.items() if isinstance(value, dict) else [(None, value)]
            for seat, text in items:
                check_seat(seat, "variables", where)
                compiled = self.compile(game, text)
                if compiled is not None:
                    prepared.variables.append((str(name), seat, compiled, text.text))

        moves_tree = _child(raw, "moves")
        for i, move in enumerate(case.moves):
            where = (moves_tree.item_locs[i] if isinstance(moves_tree, LocatedList)
                     and i < len(moves_tree.item_locs) else loc)
            if isinstance(move, dict):
                if len(move) != 1:
                    self.error("a move is 'notation', 'seat: notation' or {seat: notation}",
                               where)
                    continue
                seat, text = next(iter(move.items()))
                check_seat(seat, "moves", where)
                prepared.moves.append(_Move(seat, text.text))
            else:
                seat, notation = _split_seat(move.text)
                check_seat(seat, "moves", where)
                prepared.moves.append(_Move(seat, notation))
        for text in case.illegal:
            seat, _ = _split_seat(text.text)
            check_seat(seat, "illegal", text.loc)

        for expr in case.expect:
            compiled = self.compile(game, expr, local_names=_turn_locals(game))
            if compiled is not None:
                prepared.expectations.append(
                    _Expectation(expr, compiled, _operands(game, expr.text)))
        if case.example is not None:
            self.prepare_example(prepared, _child(raw, "example"))
        return prepared

    def prepare_example(self, prepared: _Prepared, tree: Any) -> None:
        """An example shows some of the case's moves and prints values on its end."""
        example = prepared.case.example
        assert example is not None
        moves = len(prepared.moves)
        if example.show is not None and example.show > moves:
            self.error(f"show: {example.show} moves, but the case has "
                       f"{moves} move{'s' if moves != 1 else ''}",
                       _key_loc(tree, "show", value=True) or _key_loc(tree, "show"))
        for item in example.values:
            compiled = self.compile(prepared.game, item.value,
                                    local_names=_turn_locals(prepared.game))
            if compiled is not None:
                prepared.example_values.append((item.label, compiled))

    def compile(self, game: Game, expr: Expr, local_names: Iterable[str] = ()
                ) -> Compiled | None:
        try:
            return game.compile_expression(expr.text, local_names=local_names)
        except ExpressionError as exc:
            self.diagnostics.append(located(exc, expr.loc, self.source))
            return None


def _diagnostic_order(d: Diagnostic) -> tuple[int, int, int]:
    loc = d.location
    return (0, loc.line, loc.col) if loc else (1, 0, 0)


def load_scenario_file(path: str | Path, ruleset: str | Path | None = None,
                       text: str | None = None) -> ScenarioSuite:
    """Read and check a tests file; RulesetError lists every problem with its place.
    With `ruleset`, its cases are prepared for that ruleset instead of their own; with
    `text`, that is the file's text (an editor's unsaved draft) instead of the disk's."""
    return _Loader(Path(path), Path(ruleset) if ruleset is not None else None, text).load()


def _turn_locals(game: Game) -> frozenset[str]:
    """Names the turn gives values to, so expectations may look at them mid-turn."""
    return frozenset(collect_locals(game.ruleset.turn))


def _split_seat(text: str) -> tuple[int | None, str]:
    m = _SEAT_PREFIX.match(text)
    if m:
        return int(m.group(1)), m.group(2).strip()
    return None, text.strip()


def _operands(game: Game, text: str) -> list[tuple[str, Compiled]]:
    """The sides of a comparison, compiled alone, so a failure can show their values."""
    stripped = " ".join(text.split())
    try:
        node = ast.parse(stripped, mode="eval").body
    except SyntaxError:
        return []
    if not isinstance(node, ast.Compare):
        return []
    out = []
    for part in [node.left, *node.comparators]:
        if isinstance(part, ast.Constant):
            continue
        segment = ast.get_source_segment(stripped, part)
        if not segment:
            continue
        try:
            out.append((segment, game.compile_expression(segment, local_names=_turn_locals(game))))
        except ExpressionError:
            continue
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, str):
        return str(value)
    return value


def _child(tree: Any, key: Any) -> Any:
    """The value under `key` in a located mapping (keys compared as text)."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            if str(k) == str(key):
                return v
    return None


def _key_loc(tree: Any, key: Any, value: bool = False) -> Location | None:
    """Where `key` (or with `value`, its value) was written in a located mapping."""
    if not isinstance(tree, LocatedDict):
        return None
    for k in tree:
        if k == key or str(k) == str(key):
            if value:
                v = tree[k]
                loc = getattr(v, "loc", None)
                if loc is not None:
                    return loc
            return tree.key_locs.get(k)
    return None


def _diagnose(exc: ValidationError, tree: Any, source: Source) -> list[Diagnostic]:
    """Pydantic's complaints, located and worded for people."""
    out: list[Diagnostic] = []
    seen: set[tuple[str, str]] = set()
    for err in exc.errors(include_url=False):
        path = tuple(err["loc"])
        kind = err["type"]
        try:
            where = locate(tree, path, key=kind == "extra_forbidden")  # type: ignore[call-arg]
        except TypeError:
            where = locate(tree, path)
        last = path[-1] if path else None
        hint = expected = None
        if kind == "extra_forbidden":
            fields = _fields_at(path[:-1])
            message = f"unknown key '{last}'"
            hint = did_you_mean(str(last), fields)
            expected = "one of: " + ", ".join(fields) if fields else None
        elif kind == "missing":
            message = f"missing required key '{last}'"
        else:
            message = err["msg"]
            if err.get("input") is not None and not isinstance(err["input"], dict | list):
                message += f" (got {str(err['input'])[:60]!r})"
        key = (str(where), message)
        if key in seen:
            continue
        seen.add(key)
        out.append(source.diagnostic(message, where, expected, hint))
    return out


def _fields_at(path: tuple[Any, ...]) -> list[str]:
    names = [p for p in path if isinstance(p, str)]
    model: Any = Case if "cases" in names[:1] else ScenarioFile
    if "example" in names[1:]:
        model = ExampleValue if "values" in names[names.index("example"):] else Example
    if "ended" in names[1:]:
        model = Ended
    return list(model.model_fields)


# ---------------------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------------------

class CaseCannotRun(Exception):
    """The case cannot go on (a move was refused, the rules broke)."""


def run_scenario_files(paths: Iterable[str | Path]) -> list[ScenarioResult]:
    """Load each tests file (RulesetError if one is malformed) and run all its cases."""
    results: list[ScenarioResult] = []
    for path in paths:
        suite = load_scenario_file(path)
        results.extend(run_case(suite.path, c) for c in suite.cases)
    return results


def run_case(path: Path, p: _Prepared) -> ScenarioResult:
    """Run one prepared case; never raises for a failing case."""
    name = p.case.name
    try:
        problems, state = _run(p)
    except CaseCannotRun as exc:
        return ScenarioResult(path, name, False, str(exc), p.location)
    except TabletopError as exc:
        return ScenarioResult(path, name, False, f"the rules failed: {exc}", p.location)
    except Exception as exc:  # an engine bug must not hide the other cases
        tb = "".join(traceback.format_exception(exc, limit=-4))
        return ScenarioResult(path, name, False, f"crashed: {exc!r}\n{tb}", p.location)
    if not problems:
        return ScenarioResult(path, name, True, "", p.location)
    return ScenarioResult(path, name, False,
                          "\n".join(problems) + "\n" + _context(p, state), p.location)


def case_start(p: _Prepared) -> State:
    """The state a case starts from: its seed's set-up, or its position."""
    game = p.game
    if p.placements is None:
        state = game.new_state(p.players, p.seed)
        _set_variables(p, state)
        state._cache = None
        return state
    state = build_state(game, p.players, p.placements, p.seed)
    state.out = tuple(p.case.out)
    _set_variables(p, state)
    ended = p.case.ended
    if ended is None:
        game.start_turn(state, p.turn)
    else:  # a finished game's position: over as it stands, no turn starts
        state.current = p.turn
        state.over, state.winners = True, sorted(set(ended.winners))
        state.reason = ended.reason
    return state


def _set_variables(p: _Prepared, state: State) -> None:
    env = p.game.env(state)
    for name, seat, compiled, text in p.variables:
        try:
            value = compiled(env)
        except TabletopError as exc:
            raise CaseCannotRun(f"variable {name} = {text}: {exc}") from None
        if seat is None:
            state.vars[name] = value
        else:
            state.seat_vars[name][seat - 1] = value


def _run(p: _Prepared) -> tuple[list[str], State]:
    state = case_position(p)
    return check_case(p, state), state


def case_position(p: _Prepared) -> State:
    """The position a case reaches: its start, with its moves applied (CaseCannotRun
    when a move cannot be made). Its expectations are not checked."""
    state = case_start(p)
    for i in range(1, len(p.moves) + 1):
        case_move(p, state, i)
    return state


def case_seat(p: _Prepared, state: State, i: int) -> int:
    """Who makes the case's move `i` (from 1) on `state`: the seat it names, else the
    one seat deciding (CaseCannotRun when that is not clear)."""
    move = p.moves[i - 1]
    if move.seat is not None:
        return move.seat
    deciding = p.game.deciding_seats(state)
    if len(deciding) != 1:
        who = ("nobody decides: " + (f"the game is over ({state.reason})"
                                     if state.over else "no decision is pending")
               if not deciding else
               f"seats {', '.join(map(str, deciding))} decide: write 'seat: notation'")
        raise CaseCannotRun(f"move {i} '{move.notation}': {who}\n{_context(p, state)}")
    return deciding[0]


def case_move(p: _Prepared, state: State, i: int) -> int:
    """Make the case's move `i` (from 1) on `state`, in place; the seat that made it."""
    move = p.moves[i - 1]
    seat = case_seat(p, state, i)
    try:
        p.game.apply_in_place(state, seat, move.notation)
    except IllegalMove as exc:
        raise CaseCannotRun(f"move {i} '{move.notation}' (Player {seat}) was refused: "
                            f"{exc}\n" + _context(p, state)) from None
    return seat


def check_case(p: _Prepared, state: State) -> list[str]:
    """What fails of a case's checks on the position it reached (empty: it passes)."""
    game = p.game
    case = p.case
    problems: list[str] = []
    env = game.env(state)
    for e in p.expectations:
        try:
            ok = e.check(env)
        except TabletopError as exc:
            problems.append(f"expectation `{e.expr.text}` could not be evaluated: {exc}")
            continue
        if not ok:
            line = f"expectation failed: `{' '.join(e.expr.text.split())}`"
            values = []
            for text, part in e.parts:
                try:
                    values.append(f"{text} is {_show(game, part(env))}")
                except TabletopError as exc:
                    values.append(f"{text}: {exc}")
            if values:
                line += "\n    where " + "; ".join(values)
            problems.append(line)

    deciding = game.deciding_seats(state)
    if case.deciding is not None and sorted(case.deciding) != deciding:
        problems.append(f"deciding: expected seats {sorted(case.deciding)}, found {deciding}")
    if case.over is not None and state.over != case.over:
        problems.append(f"over: expected the game {'to be' if case.over else 'not to be'} "
                        f"over, but it {'is' if state.over else 'is not'}"
                        + (f" ({state.reason})" if state.over else ""))
    if case.winners is not None:
        if not state.over:
            problems.append(f"winners: expected the game over with winners "
                            f"{sorted(case.winners)}, but it is not over")
        elif sorted(set(case.winners)) != (state.winners or []):
            problems.append(f"winners: expected {sorted(case.winners)}, found {state.winners} "
                            f"({state.reason})")

    checks_options = (case.legal is not None or case.legal_includes or case.legal_excludes
                      or case.illegal)
    if checks_options:
        seat = case.seat
        if seat is None and len(deciding) > 1:
            problems.append(f"seats {deciding} decide: say whose options to check with 'seat'")
        else:
            if seat is None:
                seat = deciding[0] if deciding else None
            found = ([o.notation for o in game.legal_options(state, seat)]
                     if seat is not None else [])
            problems.extend(_option_checks(case, found))
            problems.extend(_illegal_checks(game, state, case.illegal, seat))

    lines = [e[1] for e in state.log_entries() if e[0] == "say"]
    for text in case.log_includes:
        if not any(text in line for line in lines):
            problems.append(f"log_includes: no log line contains {text!r}")
    for text in case.log_excludes:
        hits = [line for line in lines if text in line]
        if hits:
            problems.append(f"log_excludes: {text!r} is in the log: {hits[0]!r}")
    if (case.log_includes or case.log_excludes) and problems:
        problems.append("log:\n" + ("\n".join(f"    {line}" for line in lines[-15:])
                                    or "    (empty)"))
    problems.extend(_seat_log_checks(game, state, case))
    return problems


def _seat_log_checks(game: Game, state: State, case: Case) -> list[str]:
    """`log_of` / `log_hides`: the log as one seat may read it (what its screen shows)."""
    problems: list[str] = []
    for seat in sorted({*case.log_of, *case.log_hides}):
        if not 1 <= seat <= state.players:
            problems.append(f"log_of/log_hides: seat {seat} is not a seat of this game (seats "
                            f"1 to {state.players})")
            continue
        lines = seat_log_lines(game, state, seat)
        found = []
        for text in case.log_of.get(seat, ()):
            if not any(text in line for line in lines):
                found.append(f"log_of: no log line {game.seat_name(seat)} may read contains "
                             f"{text!r}")
        for text in case.log_hides.get(seat, ()):
            hits = [line for line in lines if text in line]
            if hits:
                found.append(f"log_hides: {game.seat_name(seat)} may read {text!r}: "
                             f"{hits[0]!r}")
        if found:
            found.append(f"the log as {game.seat_name(seat)} reads it:\n"
                         + ("\n".join(f"    {line}" for line in lines[-15:]) or "    (empty)"))
        problems.extend(found)
    return problems


def seat_log_lines(game: Game, state: State, seat: int) -> list[str]:
    """The log's lines as `seat` may read them, as its screen says them: its lines, the
    decisions it may read (`Player 2 placed a small black on a1  nS-a1`), and
    nothing of what is hidden from it."""
    out = []
    for entry in redacted_log(game, state, seat):
        if "say" in entry:
            if entry["say"] is not None:
                out.append(entry["say"])
        elif entry["decision"] is not None:
            said, notation = chose_text(game.seat_name(entry["seat"]), entry)
            out.append(said if notation is None else f"{said}  {notation}")
    return out


def _option_checks(case: Case, found: list[str]) -> list[str]:
    have = {normalize_notation(n) for n in found}
    problems = []
    if case.legal is not None:
        want = {normalize_notation(t.text) for t in case.legal}
        missing = sorted(want - have)
        extra = sorted(have - want)
        if missing or extra:
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unexpected {', '.join(extra)}")
            problems.append("legal: the legal options differ: " + "; ".join(parts))
    missing = [t.text for t in case.legal_includes if normalize_notation(t.text) not in have]
    if missing:
        problems.append(f"legal_includes: not legal: {', '.join(missing)}")
    present = [t.text for t in case.legal_excludes if normalize_notation(t.text) in have]
    if present:
        problems.append(f"legal_excludes: legal after all: {', '.join(present)}")
    return problems


def _illegal_checks(game: Game, state: State, tries: list[Text], seat: int | None) -> list[str]:
    problems = []
    for t in tries:
        who, notation = _split_seat(t.text)
        who = who or seat or 1
        try:
            game.apply(state, who, notation)
        except IllegalMove:
            continue
        problems.append(f"illegal: '{notation}' was accepted from Player {who}, "
                        "but it must be refused")
    return problems


def _show(game: Game, value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_show(game, v) for v in value) + "]"
    return show_value(game, value)


def _context(p: _Prepared, state: State) -> str:
    """Where the case stands: who decides, their options, and the pieces."""
    game = p.game
    lines = []
    if state.over:
        lines.append(f"  the game is over: {state.reason}; winners {state.winners}")
    else:
        for seat in game.deciding_seats(state):
            options = [o.notation for o in game.legal_options(state, seat)]
            shown = ", ".join(options[:60]) + (f", ... ({len(options)} in all)"
                                               if len(options) > 60 else "")
            lines.append(f"  Player {seat} decides; legal: {shown or '(none)'}")
    lines.extend("  " + line for line in describe_state(game, state).splitlines())
    variables = ", ".join(f"{k}={_show(game, v)}" for k, v in state.vars.items())
    if variables:
        lines.append(f"  variables: {variables}")
    return "\n".join(lines)


def format_results(results: list[ScenarioResult]) -> str:
    """A plain report: one line per case, failures explained."""
    out = []
    for r in results:
        where = f"{r.location}: " if r.location else f"{r.file}: "
        if r.passed:
            out.append(f"PASS {r.name}")
        else:
            out.append(f"FAIL {where}{r.name}")
            out.extend("    " + line for line in r.message.splitlines())
    return "\n".join(out)


__all__ = ["CaseCannotRun", "ScenarioResult", "ScenarioSuite", "case_move", "case_position",
           "case_seat", "case_start", "check_case", "discover", "format_results",
           "load_scenario_file", "run_case", "run_scenario_files"]
