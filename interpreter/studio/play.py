"""The table panel's play mode: the designer makes the decisions of every seat not given to
a computer player, can undo them, and can save the position reached as a scenario case.

A session lives in memory only (the most recent few are kept). Computer seats decide
the way the browser table's do (`simulate.playout.decide`); the position is shown from
the deciding designer seat's view (`run.view.view`, the one function that redacts), or
the spectators' when no designer seat decides. A saved case is appended to the tests
file's text (its comments and layout stay), and is written so that `tabletop test`
passes on it: the moves from the set-up, and what holds now.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.agents import AGENTS, check_agent, close_agents
from interpreter.agents.base import Agent
from interpreter.assemble.game import compile_game_once
from interpreter.compile.draws import ruleset_draws
from interpreter.compile.functions import FUNCTIONS
from interpreter.docs.diagrams import table_pictures
from interpreter.errors import IllegalMove, RulesetError, TabletopError
from interpreter.load.catalog import TESTS_SUFFIX
from interpreter.load.yaml_source import parse_yaml
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.serve.app import log_lines
from interpreter.simulate.playout import decide, seat_agents
from interpreter.studio.workspace import StudioError, Workspace
from interpreter.view.shown import variable_lines

MAX_SESSIONS = 16
"""Play sessions kept; a new one beyond this drops the oldest."""
MAX_COMPUTER_MOVES = 5000
"""Computer decisions made in a row at most (a game of computers only still ends)."""
STALE = "the position changed; choose again"


@dataclass(eq=False)
class Session:
    """One game being played in the table panel."""

    id: str
    ruleset: str
    """The workspace name of the ruleset played."""
    game: Game
    players: int
    options: dict[str, Any]
    seed: int | None
    computers: dict[int, str]
    """The seats a computer plays, with its kind (e.g. "random")."""
    agents: dict[int, Agent]
    state: State
    moves: list[str]
    """The decisions made since the set-up, as a tests file writes them."""
    before: State | None = None
    undo: list[tuple[State, int]] = field(default_factory=list)
    """Before each of the designer's decisions: the state and how many moves there were."""
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def designer_seats(self) -> list[int]:
        return [s for s in self.game.deciding_seats(self.state) if s not in self.computers]


class Sessions:
    """The play sessions in memory, oldest first."""

    def __init__(self) -> None:
        self.kept: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()

    def add(self, session: Session) -> None:
        with self.lock:
            self.kept[session.id] = session
            while len(self.kept) > MAX_SESSIONS:
                _, old = self.kept.popitem(last=False)
                close_agents(old.agents.values())

    def get(self, session_id: str) -> Session:
        with self.lock:
            found = self.kept.get(session_id)
            if found is None:
                raise StudioError("this game is no longer in the studio (only the most "
                                  f"recent {MAX_SESSIONS} are kept): press Play again", 404)
            self.kept.move_to_end(session_id)
            return found


SESSIONS = Sessions()


def _move_text(game: Game, state: State, seat: int, notation: str) -> str:
    """A decision as a tests file's `moves` writes it: the seat named only when more
    than one seat decides."""
    return f"{seat}: {notation}" if len(game.deciding_seats(state)) > 1 else notation


def _computers_move(session: Session) -> None:
    """The computer seats decide until a designer seat must, or the game ends."""
    game, state = session.game, session.state
    for _ in range(MAX_COMPUTER_MOVES):
        if state.over:
            return
        deciding = game.deciding_seats(state)
        computers = [s for s in deciding if s in session.computers]
        if not computers:
            return
        seat = computers[0]
        prefix = _move_text(game, state, seat, "")
        session.before = state.copy()
        notation = decide(game, state, seat, session.agents[seat])
        session.moves.append(prefix + notation)


def play_view(session: Session) -> dict[str, Any]:
    """What the table panel shows: the position from the deciding designer seat's view
    (the spectators' when none decides), its options, the log and the moves."""
    game, state = session.game, session.state
    designers = session.designer_seats() if not state.over else []
    seat = designers[0] if designers else None
    seen = view(game, state, SPECTATOR if seat is None else seat, before=session.before)
    options = game.legal_options(state, seat) if seat is not None else []
    svg, _ = table_pictures(game, seen, seat, game.title)
    return {"session": session.id, "version": session.version, "svg": svg, "seat": seat,
            "deciding": seen["deciding"], "prompt": seen["prompt"],
            "options": [{"index": o.index, "notation": o.notation, "label": o.label}
                        for o in options],
            "log": log_lines(cast(Any, session), seen["log"]),
            "variables": [{"label": label, "text": text}
                          for label, text in variable_lines(game, seen)],
            "moves": list(session.moves), "over": bool(seen["over"]),
            "winners": list(seen["winners"] or []), "can_undo": bool(session.undo)}


def _seats(game: Game, players: int, given: Any) -> dict[int, str]:
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise StudioError("'seats' names the computer seats: {\"2\": \"random\"}")
    out: dict[int, str] = {}
    for key, kind in given.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise StudioError(f"'{key}' is not a seat number") from None
        if not 1 <= seat <= players:
            raise StudioError(f"there is no seat {seat} in a game of {players} players")
        if not isinstance(kind, str):
            raise StudioError(f"seat {seat}: name a computer player ({', '.join(AGENTS)})")
        try:
            check_agent(kind)
        except TabletopError as exc:
            raise StudioError(f"seat {seat}: {exc}") from None
        out[seat] = kind
    return out


def _ruleset_name(ws: Workspace, name: Any) -> str:
    """The ruleset a play request names (its tests file names the ruleset beside it)."""
    path = ws.resolve(name)
    if path.name.endswith(TESTS_SUFFIX):
        path = path.with_name(path.name[:-len(TESTS_SUFFIX)] + ".yaml")
    return ws.shown(path)


def start(ws: Workspace, data: dict[str, Any]) -> dict[str, Any]:
    """POST /api/play: a new game of the file's draft, played from its set-up."""
    name = _ruleset_name(ws, data.get("path"))
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise StudioError("'options' must be an object of option names and values")
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise StudioError("'seed' must be a whole number from 0")
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise StudioError("'players' must be a whole number")
    try:
        loaded = ws.loaded(name)
        game = compile_game_once(loaded, options)
        players = game.check_players(players)
    except TabletopError as exc:
        raise StudioError(f"the game cannot start: {str(exc).splitlines()[0]}") from None
    computers = _seats(game, players, data.get("seats"))
    try:
        state = game.new_state(players, 1 if seed is None else seed)
    except TabletopError as exc:
        raise StudioError(f"the game cannot be set up: {str(exc).splitlines()[0]}") from None
    return _open(ws, name, game, state, players, options, seed, [], computers)


def open_session(ws: Workspace, ruleset: str, game: Game, state: State, *, players: int,
                 options: dict[str, Any], seed: int | None, moves: list[str]) -> dict[str, Any]:
    """A new session whose history starts at `state` (e.g. a scenario case's position
    after its `moves`), every seat played by the designer; its view."""
    return _open(ws, ruleset, game, state, players, options, seed, list(moves), {})


def _open(ws: Workspace, ruleset: str, game: Game, state: State, players: int,
          options: dict[str, Any], seed: int | None, moves: list[str],
          computers: dict[int, str]) -> dict[str, Any]:
    agents = seat_agents(game, {s: computers.get(s, "human") for s in range(1, players + 1)},
                         1 if seed is None else seed)
    session = Session(secrets.token_hex(8), ruleset, game, players, dict(options), seed,
                      computers, agents, state, moves)
    with session.lock:
        try:
            _computers_move(session)
        except TabletopError as exc:
            raise StudioError(f"a computer player's move failed: {exc}") from None
        SESSIONS.add(session)
        return play_view(session)


def choose(session_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """POST /api/play/{session}/choose: the deciding designer seat takes option `index`;
    then the computer seats move."""
    session = SESSIONS.get(session_id)
    index, version = data.get("index"), data.get("version")
    if not isinstance(index, int) or isinstance(index, bool):
        raise StudioError("'index' must be the number of an option")
    with session.lock:
        if version is not None and version != session.version:
            raise StudioError(STALE, 409)
        game, state = session.game, session.state
        if state.over:
            raise StudioError("the game is over: undo, or press Play for a new one")
        designers = session.designer_seats()
        if not designers:
            raise StudioError("no seat of yours decides now")
        seat = designers[0]
        options = game.legal_options(state, seat)
        if not 0 <= index < len(options):
            raise StudioError(f"there is no option {index} (options 0 to {len(options) - 1})")
        snapshot = state.copy()
        prefix = _move_text(game, state, seat, "")
        try:
            game.apply_in_place(state, seat, options[index])
        except IllegalMove as exc:
            raise StudioError(str(exc)) from None
        except TabletopError as exc:
            session.state = snapshot
            raise StudioError(f"the rules failed on that decision: {exc}") from None
        session.undo.append((snapshot, len(session.moves)))
        session.before = snapshot
        session.moves.append(prefix + options[index].notation)
        try:
            _computers_move(session)
        except TabletopError as exc:
            raise StudioError(f"a computer player's move failed: {exc}") from None
        session.version += 1
        return play_view(session)


def undo(session_id: str) -> dict[str, Any]:
    """POST /api/play/{session}/undo: back to before the designer's last decision (the
    computer moves after it go too)."""
    session = SESSIONS.get(session_id)
    with session.lock:
        if not session.undo:
            raise StudioError("there is no decision of yours to undo")
        state, moves = session.undo.pop()
        session.state = state
        session.before = None
        del session.moves[moves:]
        session.version += 1
        return play_view(session)


# -- saving the position as a scenario case ----------------------------------------------------

def _yaml(value: Any) -> str:
    """A value as YAML flow text (JSON is YAML: strings quoted, so a notation such as
    '2: bid 3' or 'yes' stays a string)."""
    return json.dumps(value, ensure_ascii=False)


def _draws(game: Game) -> bool:
    return bool(ruleset_draws(game.ruleset, FUNCTIONS))


def case_text(session: Session, name: str, indent: str) -> str:
    """The case for the position reached, as YAML lines at `indent`."""
    game, state = session.game, session.state
    lines = [f"{indent}- name: {_yaml(name)}", f"{indent}  players: {session.players}"]
    defaults = {o.id: o.default for o in game.ruleset.options}
    changed = {k: v for k, v in session.options.items() if defaults.get(k, object()) != v}
    if changed:
        lines.append(f"{indent}  options: {_yaml(changed)}")
    if _draws(game):
        lines.append(f"{indent}  seed: {1 if session.seed is None else session.seed}")
    lines.append(f"{indent}  moves: {_yaml(session.moves)}")
    if state.over:
        lines.append(f"{indent}  over: true")
        lines.append(f"{indent}  winners: {_yaml(sorted(state.winners or []))}")
    else:
        lines.append(f"{indent}  deciding: {_yaml(game.deciding_seats(state))}")
    return "\n".join(lines) + "\n"


def _case_names(text: str, path: Path) -> list[str]:
    try:
        tree, _ = parse_yaml(text, str(path))
    except TabletopError:
        return []
    cases = tree.get("cases") if isinstance(tree, dict) else None
    return [str(c.get("name")) for c in cases or [] if isinstance(c, dict)]


def _check_case(ws: Workspace, session: Session, tests: Path, text: str, name: str,
                line: int) -> None:
    """Refuse (409) a case that `tabletop test` would not pass: run it as the runner
    does, on the new text (a file whose older part has problems is still written: the
    new case adds none)."""
    from interpreter.scenarios import runner
    from interpreter.studio.check import ruleset_draft

    ruleset = ws.resolve(session.ruleset)
    with ruleset_draft(ws, ruleset):
        try:
            suite = runner.load_scenario_file(tests, text=text)
        except RulesetError as exc:
            ours = [d for d in exc.diagnostics if d.location is None or (
                Path(d.location.path) == tests and d.location.line >= line)]
            if ours:
                raise StudioError("the case cannot be saved: " + ours[0].render(),
                                  409) from None
            return
        prepared = next((c for c in suite.cases if c.case.name == name), None)
        if prepared is None:
            return
        result = runner.run_case(tests, prepared)
    if not result.passed:
        raise StudioError("this position cannot be saved as a case that passes "
                          f"(the moves from the set-up do not reach it): {result.message}",
                          409)


def save_case(ws: Workspace, session_id: str, data: dict[str, Any]) -> dict[str, Any]:
    """POST /api/play/{session}/save-case: append the position as a case to the tests
    file beside the ruleset (created when missing); the file's own text and comments
    stay as they are."""
    session = SESSIONS.get(session_id)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise StudioError("name the case: what rule it pins down (up to 200 characters)")
    name = " ".join(name.split())
    tests = ws.tests_path(session.ruleset)
    shown = ws.shown(tests)
    with session.lock:
        exists = tests.exists() or tests in ws.drafts
        if exists:
            old = ws.text(shown)
            if name in _case_names(old, tests):
                raise StudioError(f"{shown} already has a case called '{name}'", 409)
            indents = re.findall(r"^([ \t]*)- name\s*:", old, re.MULTILINE)
            indent = indents[-1] if indents else "  "
            head = old if old.endswith("\n") or not old else old + "\n"
            head = re.sub(r"^cases:\s*\[\s*\]\s*$", "cases:", head, flags=re.MULTILINE)
            if not re.search(r"^cases\s*:", head, re.MULTILINE):
                head += "\ncases:\n"
            head += "\n"
        else:
            ruleset_file = ws.resolve(session.ruleset).name
            head = (f"# Scenario tests for {session.game.title}. Run them with "
                    f"`tabletop test {ruleset_file}`.\nruleset: {ruleset_file}\n"
                    f"players: {session.players}\n\ncases:\n")
            indent = "  "
        text = head + case_text(session, name, indent)
        if name not in _case_names(text, tests):
            raise StudioError(f"the case cannot be added at the end of {shown} (its "
                              "'cases' are not its last part): add it by hand:\n"
                              + case_text(session, name, "  "), 409)
        line = head.count("\n") + 1
        _check_case(ws, session, tests, text, name, line)
        ws.write_path(tests, text)
        ws.drafts.pop(tests, None)
    return {"tests_path": shown, "name": name, "line": line, "text": text}


# -- routes ------------------------------------------------------------------------------------

def routes(ws: Workspace) -> list[BaseRoute]:
    """/api/play and its session's choose, undo and save-case."""
    from interpreter.studio.app import body, threaded

    async def play(request: Request) -> Response:
        return await threaded(start, ws, await body(request))

    async def choose_route(request: Request) -> Response:
        return await threaded(choose, request.path_params["session"], await body(request))

    async def undo_route(request: Request) -> Response:
        return await threaded(undo, request.path_params["session"])

    async def save_route(request: Request) -> Response:
        return await threaded(save_case, ws, request.path_params["session"],
                              await body(request))

    return [Route("/api/play", play, methods=["POST"]),
            Route("/api/play/{session}/choose", choose_route, methods=["POST"]),
            Route("/api/play/{session}/undo", undo_route, methods=["POST"]),
            Route("/api/play/{session}/save-case", save_route, methods=["POST"])]

