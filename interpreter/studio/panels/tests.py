"""The tests panel: a ruleset's scenario cases run as `tabletop test` runs them (the
scenario runner's own loader and `run_case`), on the editor's drafts, with each case's
line, the report the CLI prints for a failure, who decides and their options after the
case's moves, and a picture of the position of every failed case."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.docs.diagrams import table_pictures
from interpreter.errors import RulesetError, TabletopError
from interpreter.load.catalog import TESTS_SUFFIX
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios.runner import (
    CaseCannotRun,
    ScenarioSuite,
    case_move,
    case_start,
    load_scenario_file,
    run_case,
)
from interpreter.studio.app import body
from interpreter.studio.panels import InvalidRuleset, answer, drafts_in_force, invalid
from interpreter.studio.workspace import StudioError, Workspace


def _files(ws: Workspace, name: Any) -> tuple[Path, str | None]:
    """A ruleset's or a tests file's name → (the tests file, the ruleset's name beside
    it when there is one)."""
    path = ws.resolve(name)
    if path.name.endswith(TESTS_SUFFIX):
        beside = path.with_name(path.name[: -len(TESTS_SUFFIX)] + ".yaml")
        known = beside in ws.drafts or beside.is_file()
        return path, ws.shown(beside) if known else None
    return ws.tests_path(name), name


def _load_suite(ws: Workspace, tests: Path) -> ScenarioSuite:
    """The tests file as `tabletop test` loads it (drafts in force); InvalidRuleset with
    its diagnostics when it does not load, or when the ruleset it runs on is a draft
    that does not."""
    if tests not in ws.drafts and not tests.is_file():
        raise StudioError(f"there is no tests file {ws.shown(tests)} yet: save a case from "
                          "the table (or create the file) first", 404)
    try:
        return load_scenario_file(tests, text=ws.drafts.get(tests))
    except RulesetError as exc:
        raise invalid(ws, exc, tests) from None


def _check_drafts_used(ws: Workspace, suite: ScenarioSuite,
                       broken: dict[Path, RulesetError]) -> None:
    """The cases must not run on a ruleset's saved text while its draft is broken."""
    for p in suite.cases:
        path = Path(p.game.loaded.path).resolve()
        if path in broken:
            raise invalid(ws, broken[path], path)


def reached(p: Any) -> tuple[State | None, list[str], str | None]:
    """How far a case gets: the state after its moves (or before the first one that
    cannot be made), the moves made (as the case writes them) and why it stopped early
    (None when every move was made)."""
    try:
        state = case_start(p)
    except (CaseCannotRun, TabletopError) as exc:
        return None, [], str(exc)
    made: list[str] = []
    for i, move in enumerate(p.moves, start=1):
        try:
            case_move(p, state, i)
        except (CaseCannotRun, TabletopError) as exc:
            return state, made, str(exc)
        made.append(move.notation if move.seat is None else f"{move.seat}: {move.notation}")
    return state, made, None


def _case_json(suite: ScenarioSuite, index: int, p: Any) -> dict[str, Any]:
    result = run_case(suite.path, p)
    game = p.game
    deciding: list[int] = []
    legal: list[str] = []
    svg = None
    try:
        state, _, _ = reached(p)
    except Exception:  # an engine bug: run_case's report already shows it; go on
        state = None
    if state is not None:
        try:
            deciding = list(game.deciding_seats(state))
            seat = p.case.seat if p.case.seat is not None else (deciding[0] if deciding
                                                                 else None)
            if seat is not None and not state.over:
                legal = [o.notation for o in game.legal_options(state, seat)]
            if not result.passed:
                seen = view(game, state, SPECTATOR)
                svg = table_pictures(game, seen, None, game.title)[0]
        except Exception:  # the report already says what went wrong with the rules
            deciding, legal, svg = [], [], None
    return {"index": index, "name": p.case.name,
            "line": p.location.line if p.location else None,
            "passed": result.passed, "report": result.message, "legal": legal,
            "deciding": deciding, **({"svg": svg} if svg is not None else {})}


def run_tests(ws: Workspace, name: Any) -> dict[str, Any]:
    """Every case of the tests file of `name` (a ruleset or its tests file), as
    `tabletop test` runs them, on the drafts; a file that does not load → its
    diagnostics under `error`."""
    tests, ruleset = _files(ws, name)
    reply: dict[str, Any] = {"tests_path": ws.shown(tests), "passed": 0, "failed": 0,
                             "cases": []}
    try:
        with drafts_in_force(ws, ruleset=ruleset) as broken:
            suite = _load_suite(ws, tests)
            _check_drafts_used(ws, suite, broken)
            cases = [_case_json(suite, i, p) for i, p in enumerate(suite.cases)]
    except InvalidRuleset as exc:
        reply["error"] = {"message": exc.message, "diagnostics": exc.diagnostics}
        return reply
    reply["cases"] = cases
    reply["passed"] = sum(c["passed"] for c in cases)
    reply["failed"] = len(cases) - reply["passed"]
    return reply


def open_case(ws: Workspace, tests_name: Any, index: Any) -> dict[str, Any]:
    """A play session at a case's position after its moves (as far as they go)."""
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise StudioError("'index' must be a case's number (0 for the first)")
    tests, ruleset = _files(ws, tests_name)
    with drafts_in_force(ws, ruleset=ruleset) as broken:
        suite = _load_suite(ws, tests)
        _check_drafts_used(ws, suite, broken)
        if index >= len(suite.cases):
            raise StudioError(f"{ws.shown(tests)} has {len(suite.cases)} cases; there is no "
                              f"case {index}")
        p = suite.cases[index]
        state, moves, stopped = reached(p)
    if state is None:
        raise StudioError(f"the case '{p.case.name}' cannot be set up: {stopped}")
    from interpreter.studio.play import open_session

    path = Path(p.game.loaded.path).resolve()
    try:
        shown = ws.shown(path)
    except StudioError:
        shown = p.game.name  # a bundled game the tests file names
    return open_session(ws, shown, p.game, state, players=p.players,
                        options=dict(p.game.options), seed=p.seed, moves=moves)


def routes(ws: Workspace) -> list[BaseRoute]:
    async def tests(request: Request) -> Response:
        from interpreter.studio.app import JSON
        from interpreter.studio.panels.worker import in_worker

        data = await body(request)
        try:  # in the worker process: see worker.py for why
            return JSON(await in_worker(ws, "run_tests", data.get("path")))
        except InvalidRuleset as exc:
            return JSON({"error": exc.message, "diagnostics": exc.diagnostics},
                        status_code=exc.status)

    async def open_(request: Request) -> Response:
        data = await body(request)
        return await answer(open_case, ws, data.get("tests_path"), data.get("index"))

    return [Route("/api/tests", tests, methods=["POST"]),
            Route("/api/tests/open", open_, methods=["POST"])]


__all__ = ["open_case", "reached", "routes", "run_tests"]
