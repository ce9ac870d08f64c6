"""The studio's tests, balance and rulebook panels, and what they share: running the
CLI's own code (`tabletop test`, `tabletop analyze`, `tabletop docs`) on the editor's
drafts instead of the files on disk.

Those commands read rulesets by path (`interpreter.api.load`). `drafts_in_force` makes
that give the drafts for as long as a panel runs: they are carried (`api.carry`, what a
Ray worker uses to play rulesets it cannot read). A tests file's draft is given to the
scenario runner as its text (`load_scenario_file(path, text=...)`); the rulebook's worked
examples are read from the saved tests file.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.routing import BaseRoute

from interpreter import api
from interpreter.errors import RulesetError
from interpreter.load.catalog import TESTS_SUFFIX
from interpreter.load.loader import LoadedRuleset
from interpreter.simulate.playout import forget_games
from interpreter.studio.check import diagnostic_json
from interpreter.studio.workspace import StudioError, Workspace

# -- the drafts in force ------------------------------------------------------------------

_carry_lock = threading.Lock()
_carry_users: dict[str, int] = {}
_carry_before: dict[str, LoadedRuleset | None] = {}


@contextlib.contextmanager
def carrying(rulesets: Mapping[str, LoadedRuleset]) -> Iterator[None]:
    """`api.load(path)` gives these rulesets while the block runs (several panels may
    carry at once: the last one out puts back what was there before). The compiled
    games the batch runner keeps by path are dropped on the way in and out, so no run
    plays an older text."""
    with _carry_lock:
        for path in rulesets:
            if not _carry_users.get(path):
                _carry_before[path] = api.carried(path)
            _carry_users[path] = _carry_users.get(path, 0) + 1
        api.carry(rulesets)
        forget_games(rulesets)
    try:
        yield
    finally:
        with _carry_lock:
            for path in rulesets:
                _carry_users[path] -= 1
                if _carry_users[path]:
                    continue
                del _carry_users[path]
                api.uncarry(path, _carry_before.pop(path, None))
            forget_games(rulesets)


@contextlib.contextmanager
def drafts_in_force(ws: Workspace, *, ruleset: str | None = None
                    ) -> Iterator[dict[Path, RulesetError]]:
    """While the block runs, the CLI's loaders read the editor's drafts: every ruleset
    draft that loads is carried.
    Yields the drafts that do not load (path → their error). With `ruleset` (a name),
    that ruleset's text (draft or disk) must load: StudioError otherwise, carrying its
    diagnostics (see `invalid`)."""
    loaded: dict[str, LoadedRuleset] = {}
    broken: dict[Path, RulesetError] = {}
    for path in list(ws.drafts):
        if path.name.endswith(TESTS_SUFFIX):
            continue
        try:
            loaded[str(path)] = ws.loaded(ws.shown(path))
        except RulesetError as exc:
            broken[path] = exc
        except StudioError:
            continue
    if ruleset is not None:
        path = ws.resolve(ruleset)
        if path in broken:
            raise invalid(ws, broken[path], path)
        if str(path) not in loaded:
            try:
                loaded[str(path)] = ws.loaded(ruleset)
            except RulesetError as exc:
                raise invalid(ws, exc, path) from None
    with carrying(loaded):
        yield broken


class InvalidRuleset(StudioError):
    """A ruleset or tests file that does not load: its diagnostics go to the client as
    /api/check gives them (status 422)."""

    def __init__(self, message: str, diagnostics: list[dict[str, Any]]) -> None:
        super().__init__(message, 422)
        self.diagnostics = diagnostics


def invalid(ws: Workspace, exc: RulesetError, path: Path) -> InvalidRuleset:
    """The error a panel answers for a file (`path`) that does not load: its
    diagnostics as /api/check gives them."""
    try:
        lines = ws.text(ws.shown(path)).splitlines()
    except StudioError:
        lines = []
    shown = [diagnostic_json(d, ws, path, lines) for d in exc.diagnostics]
    first = shown[0]["rendered"].splitlines()[0] if shown else str(exc)
    return InvalidRuleset(f"{ws.shown(path)} does not load: {first}", shown)


def digest(*texts: str) -> str:
    """A short hash of texts (what a cache key is made of)."""
    h = hashlib.sha256()
    for text in texts:
        h.update(text.encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:32]


async def answer(fn: Callable[..., Any], *args: Any) -> Response:
    """Run a panel's work in a worker thread (the server keeps answering); a file that
    does not load answers its diagnostics (422) as /api/check gives them."""
    from interpreter.studio.app import JSON

    try:
        return JSON(await run_in_threadpool(fn, *args))
    except InvalidRuleset as exc:
        return JSON({"error": exc.message, "diagnostics": exc.diagnostics},
                    status_code=exc.status)


def routes(ws: Workspace) -> list[BaseRoute]:
    """The panels' routes over the workspace (app.py puts them behind its guard)."""
    from interpreter.studio.panels import balance, rulebook, tests

    return [*tests.routes(ws), *balance.routes(ws), *rulebook.routes(ws)]


__all__ = ["InvalidRuleset", "answer", "carrying", "digest", "drafts_in_force",
           "invalid", "routes"]
