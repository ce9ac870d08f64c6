"""What the editor shows after every keystroke: the ruleset's problems, located as the CLI
prints them (with did-you-mean hints turned into quick fixes), and the set-up table.

A ruleset is checked the way `tabletop validate` checks it (`load_ruleset_text` with the
file's real path, so `extends:` works, then `compile_game`), compiled to the generated code
the game plays with (it finds the same problems as the careful path, sets up a game that
deals under conditions several times faster, and recompiles an edited ruleset from the
compiler's memories); a tests
file the way `tabletop test` loads it (`load_scenario_file`). The set-up position is the
game's start for the chosen players, options and seed, drawn as the browser table draws
it for a spectator. The last few results are kept by the text and the set-up asked for,
so a request that changes nothing costs nothing.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from interpreter.assemble.game import compile_game
from interpreter.docs.diagrams import table_pictures
from interpreter.errors import Diagnostic, RuleError, RulesetError, TabletopError
from interpreter.load.catalog import TESTS_SUFFIX
from interpreter.load.loader import LoadedRuleset, load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios import runner
from interpreter.studio.workspace import StudioError, Workspace
from interpreter.view.shown import variable_lines

KEPT = 16
"""Results kept (a few files, each with a few set-ups)."""
WORD = re.compile(r"[A-Za-z0-9_.\-]+")
QUOTED = re.compile(r"'([^']+)'")
SEEDS = range(0, 2**63)

GAMES_KEPT = 2
"""Compiled games kept (the last text's, and the one before it for a check that races
the language's names): few, because every game kept is traversed by each full garbage
collection, about 15 ms a game for the largest bundled ruleset."""
_games: OrderedDict[tuple[str, str, str], Game] = OrderedDict()
_games_lock = threading.Lock()


def compiled(loaded: LoadedRuleset, options: dict[str, Any]) -> Game:
    """`compile_game` (the generated code the game plays with), kept by the file's path,
    its content and the options, so that the check and the language's names of one text
    compile it once."""
    key = (loaded.path, loaded.content_hash, json.dumps(options, sort_keys=True, default=str))
    with _games_lock:
        hit = _games.get(key)
        if hit is not None:
            _games.move_to_end(key)
            return hit
    game = compile_game(loaded, options)
    with _games_lock:
        _games[key] = game
        while len(_games) > GAMES_KEPT:
            _games.popitem(last=False)
    return game


# -- diagnostics -------------------------------------------------------------------------------

def _word_end(line_text: str, col: int) -> int:
    """The column just after the word at `col` (1-based); one past `col` when there is
    no word there."""
    found = WORD.match(line_text, col - 1) if 0 < col <= len(line_text) else None
    return found.end() + 1 if found else col + 1


def _suggestions(hint: str | None) -> list[str]:
    if not hint or "did you mean" not in hint:
        return []
    return QUOTED.findall(hint[hint.index("did you mean"):])


def diagnostic_json(d: Diagnostic, ws: Workspace, path: Path, lines: list[str],
                    severity: str = "error") -> dict[str, Any]:
    """A diagnostic as the editor shows it: its place (1-based), its words, the CLI's
    rendering and its quick fixes. One located in another file (a variant's base, the
    ruleset a tests file names) is shown on line 1, its message naming where."""
    loc = d.location
    message = d.message
    rendered = d.render()
    if loc is not None and Path(loc.path) != path:
        try:
            where = f"{ws.shown(Path(loc.path).resolve())}:{loc.line}:{loc.col}"
        except StudioError:
            where = str(loc)
        message = f"{where}: {message}"
        loc = None
    elif loc is not None:
        rendered = rendered.replace(f"{loc.path}:", f"{ws.shown(path)}:", 1)
    line, col = (loc.line, loc.col) if loc is not None else (1, 1)
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    end_col = _word_end(text, col)
    fixes = []
    if loc is not None:
        start, end = col, end_col
        for word in QUOTED.findall(d.message):
            at = text.find(word, col - 1)
            if at == col - 1 or (at >= 0 and at - (col - 1) <= 2):
                start, end = at + 1, at + 1 + len(word)
                break
        fixes = [{"label": f"change to '{s}'", "line": line, "col": start, "end_line": line,
                  "end_col": end, "insert": s} for s in _suggestions(d.hint)]
    return {"line": line, "col": col, "end_line": line, "end_col": end_col,
            "severity": severity, "message": message, "expected": d.expected,
            "hint": d.hint, "rendered": rendered, "fixes": fixes}


class _SetupDiagnostic(Diagnostic):
    """A rule that went wrong in the set-up: rendered as the CLI prints the error (with
    the definitions it passed through and when), not as a load problem."""

    __slots__ = ("text",)

    def render(self) -> str:
        return self.text


def _rule_error(exc: RuleError) -> Diagnostic:
    """A rule that went wrong in the set-up, as a diagnostic at the place it names."""
    line = exc.trace[0][2] if exc.trace else None
    d = _SetupDiagnostic(exc.message, exc.location, None, None, line)
    d.text = str(exc)
    return d


def _plain_error(exc: TabletopError) -> Diagnostic:
    text = str(exc) or type(exc).__name__
    return Diagnostic(text.splitlines()[0], None, None,
                      "\n".join(text.splitlines()[1:]) or None)


# -- the game and its table --------------------------------------------------------------------

def game_json(loaded: LoadedRuleset, game: Game) -> dict[str, Any]:
    g = loaded.model.game
    options = []
    for o in loaded.model.options:
        entry: dict[str, Any] = {"name": o.id, "title": o.label, "kind": o.type,
                                 "default": o.default, "values": o.choices}
        for key in ("min", "max"):
            if getattr(o, key, None) is not None:
                entry[key] = getattr(o, key)
        options.append(entry)
    return {"name": g.name, "title": g.title,
            "players": {"min": game.min_seats, "max": game.max_seats,
                        "default": game.check_players(None)},
            "options": options}


def table_json(game: Game, state: State, seed: int) -> dict[str, Any]:
    """The position as a spectator sees it, drawn as the browser table draws it."""
    seen = view(game, state, SPECTATOR)
    svg, _ = table_pictures(game, seen, None, game.title)
    return {"svg": svg, "seed": seed, "deciding": seen["deciding"], "prompt": seen["prompt"],
            "variables": [{"label": label, "text": text}
                          for label, text in variable_lines(game, seen)]}


# -- the check ---------------------------------------------------------------------------------

class Checker:
    """The last few results, by everything they depend on."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple, tuple[tuple, dict[str, Any]]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple) -> dict[str, Any] | None:
        with self.lock:
            hit = self.kept.get(key)
            if hit is None:
                return None
            stamps, result = hit
        if any(_stamp(f) != s for f, s in stamps):
            return None  # a file it was made of (a variant's base) changed on disk
        with self.lock:
            self.kept.move_to_end(key)
        return result

    def put(self, key: tuple, files: list[str], result: dict[str, Any]) -> None:
        with self.lock:
            self.kept[key] = (tuple((f, _stamp(f)) for f in files), result)
            while len(self.kept) > KEPT:
                self.kept.popitem(last=False)


def _stamp(file: str) -> float:
    try:
        return Path(file).stat().st_mtime
    except OSError:
        return -1.0


CHECKER = Checker()


def _setup(data: dict[str, Any]) -> tuple[int | None, dict[str, Any], int]:
    players = data.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise StudioError("'players' must be a whole number")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise StudioError("'options' must be an object of option names and values")
    seed = data.get("seed")
    if seed is None:
        seed = 1
    if not isinstance(seed, int) or isinstance(seed, bool) or seed not in SEEDS:
        raise StudioError("'seed' must be a whole number from 0")
    return players, options, seed


def check_request(ws: Workspace, data: dict[str, Any]) -> dict[str, Any]:
    """POST /api/check: store the text as the file's draft, then check it (or take the
    kept result of the same text and set-up)."""
    name, text = data.get("path"), data.get("text")
    path = ws.resolve(name)
    if not isinstance(text, str):
        raise StudioError("'text' must be the file's text (a string)")
    players, options, seed = _setup(data)
    ws.drafts[path] = text
    kind = "tests" if path.name.endswith(TESTS_SUFFIX) else "ruleset"
    ruleset = path.with_name(path.name[:-len(TESTS_SUFFIX)] + ".yaml") \
        if kind == "tests" else path
    ruleset_text = None
    if kind == "tests" and ruleset.is_file():
        ruleset_text = ws.drafts.get(ruleset)
    key = (str(path), text, ruleset_text, players,
           json.dumps(options, sort_keys=True, default=str), seed)
    started = time.perf_counter()
    result = CHECKER.get(key)
    if result is None:
        files: list[str] = []
        result = (check_tests(ws, path, text, ruleset, players, options, seed, files)
                  if kind == "tests" else
                  check_ruleset(ws, path, text, players, options, seed, files))
        CHECKER.put(key, files, result)
    else:
        result = {**result, "timing_ms": {"load": 0.0, "compile": 0.0, "setup": 0.0,
                                          "draw": 0.0, "kept": True}}
    out = {"version": data.get("version"), "path": ws.shown(path), "kind": kind, **result}
    out["timing_ms"] = {**out["timing_ms"],
                        "total": round((time.perf_counter() - started) * 1000, 1)}
    return out


def check_ruleset(ws: Workspace, path: Path, text: str, players: int | None,
                  options: dict[str, Any], seed: int, files: list[str]
                  ) -> dict[str, Any]:
    """A ruleset's problems, and when it has none its game and set-up table."""
    lines = text.splitlines()
    timing = {"load": 0.0, "compile": 0.0, "setup": 0.0, "draw": 0.0}
    out: dict[str, Any] = {"diagnostics": [], "game": None, "table": None,
                           "timing_ms": timing}

    def fail(diagnostics: list[Diagnostic]) -> dict[str, Any]:
        out["diagnostics"] = [diagnostic_json(d, ws, path, lines) for d in diagnostics]
        out["game"] = out["table"] = None
        return out

    t0 = time.perf_counter()
    try:
        loaded = load_ruleset_text(text, str(path))
    except RulesetError as exc:
        return fail(exc.diagnostics)
    except TabletopError as exc:
        return fail([_plain_error(exc)])
    finally:
        timing["load"] = _ms(t0)
    files.extend(loaded.source.others)
    warnings: list[Diagnostic] = []
    t1 = time.perf_counter()
    try:
        # kept by path, content and options: the language's names reuse this game
        game = compiled(loaded, options)
    except RulesetError as exc:
        return fail(exc.diagnostics)
    except TabletopError as exc:
        if not options:
            return fail([_plain_error(exc)])
        warnings.append(_plain_error(exc))  # a preview option this game lacks
        try:
            game = compiled(loaded, {})
        except TabletopError as again:
            return fail([again.diagnostics[0] if isinstance(again, RulesetError)
                         else _plain_error(again)])
    finally:
        timing["compile"] = _ms(t1)
    out["game"] = game_json(loaded, game)
    try:
        chosen = game.check_players(players)
    except TabletopError as exc:
        warnings.append(_plain_error(exc))
        chosen = game.check_players(None)
    t2 = time.perf_counter()
    try:
        state = game.new_state(chosen, seed)
    except RuleError as exc:
        return fail([_rule_error(exc), *warnings])
    except TabletopError as exc:
        return fail([_plain_error(exc), *warnings])
    finally:
        timing["setup"] = _ms(t2)
    t3 = time.perf_counter()
    try:
        out["table"] = {**table_json(game, state, seed), "players": chosen}
    except RuleError as exc:
        return fail([_rule_error(exc), *warnings])
    finally:
        timing["draw"] = _ms(t3)
    out["diagnostics"] = [diagnostic_json(d, ws, path, lines, "warning") for d in warnings]
    return out


@contextmanager
def ruleset_draft(ws: Workspace, ruleset: Path) -> Iterator[None]:
    """The ruleset's draft (when it loads) is what the scenario loader plays while the
    tests file is checked, as the tests panel runs them."""
    draft = ws.drafts.get(ruleset)
    if draft is None:
        yield
        return
    try:
        loaded = load_ruleset_text(draft, str(ruleset))
    except TabletopError:  # its own check shows why; the tests are checked on the disk's
        yield
        return
    from interpreter.studio.panels import carrying

    with carrying({str(ruleset): loaded}):
        yield


def check_tests(ws: Workspace, path: Path, text: str, ruleset: Path, players: int | None,
                options: dict[str, Any], seed: int, files: list[str]) -> dict[str, Any]:
    """A tests file's problems as `tabletop test` finds them loading it; the table is
    its ruleset's (the one beside it, from its draft)."""
    lines = text.splitlines()
    t0 = time.perf_counter()
    diagnostics: list[dict[str, Any]] = []
    try:
        with ruleset_draft(ws, ruleset):
            suite = runner.load_scenario_file(path, text=text)
        files.append(str(suite.path))
    except RulesetError as exc:
        diagnostics = [diagnostic_json(d, ws, path, lines) for d in exc.diagnostics]
    except TabletopError as exc:
        diagnostics = [diagnostic_json(_plain_error(exc), ws, path, lines)]
    load_ms = _ms(t0)
    out: dict[str, Any] = {"diagnostics": diagnostics, "game": None, "table": None}
    if not diagnostics and ruleset.is_file():
        shown = ws.shown(ruleset)
        found = check_ruleset(ws, ruleset, ws.text(shown), players, options, seed, files)
        files.append(str(ruleset))
        if not found["diagnostics"] or all(d["severity"] == "warning"
                                           for d in found["diagnostics"]):
            out["game"], out["table"] = found["game"], found["table"]
        out["timing_ms"] = {**found["timing_ms"], "load": load_ms + found["timing_ms"]["load"]}
    else:
        out["timing_ms"] = {"load": load_ms, "compile": 0.0, "setup": 0.0, "draw": 0.0}
    return out


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 1)
