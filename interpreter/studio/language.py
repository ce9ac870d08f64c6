"""The studio editor's language services: completion and hover docs.

Everything offered comes from what the engine itself accepts and says: keys and their
descriptions from the JSON Schema `tabletop schema` prints, effects from the primitives
(each with its summary), built-in functions with their signatures and docs, the
ruleset's own names (definitions, zones, variables, options, attribute values) with the
rulebook's English for them, and a variant's base's parts as `tabletop parts` lists
them. `complete` and `hover` are pure functions of the text (and of what the last good
load knew: `Known`); `routes` serves them over HTTP (POST /api/complete, /api/hover),
keeping each file's last good load in a `KnownCache`.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.studio.language_complete import complete
from interpreter.studio.language_hover import hover
from interpreter.studio.language_known import Known, extends_of, known_from, with_base
from interpreter.studio.language_schema import ruleset_index, tests_index
from interpreter.studio.language_shared import builtin_names
from interpreter.studio.workspace import StudioError, Workspace


class KnownCache:
    """What the last good load of each file knew, refreshed as its text changes.

    The first request for a file loads it at once; later edits are loaded in the
    background while completion answers from the last good load (a keystroke's answer
    must not wait for a compile, and a text with an error keeps the names it had)."""

    def __init__(self, ws: Workspace, pause: float = 0.3) -> None:
        self.ws = ws
        self.pause = pause
        """Seconds of no new text before a file is loaded again in the background (a burst
        of keystrokes costs one load, not one each)."""
        self.lock = threading.Lock()
        self.files: dict[str, tuple[str, Known]] = {}
        self.bases: dict[tuple[str, str], Known] = {}
        self.pending: dict[str, tuple[str, str, float]] = {}
        """The latest text of a file not loaded yet: (text, its digest, when it came)."""
        self.busy: set[str] = set()

    def get(self, name: str, text: str) -> Known:
        digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
        with self.lock:
            hit = self.files.get(name)
            if hit is not None and hit[0] == digest:
                return hit[1]
            # answer from the last good load, unless none ever loaded (then wait for this one)
            if hit is not None and (hit[1].game is not None or hit[1].parts):
                waiting = self.pending.get(name)
                if waiting is None or waiting[1] != digest:  # the same text asked again waits on
                    self.pending[name] = (text, digest, time.monotonic())
                if name not in self.busy:
                    self.busy.add(name)
                    threading.Thread(target=self._worker, args=(name,), daemon=True).start()
                return hit[1]
        return self._store(name, text, digest)

    def _worker(self, name: str) -> None:
        """Load the latest text of `name` once typing pauses (no newer text for `pause`
        seconds), until no text waits."""
        try:
            while True:
                time.sleep(self.pause)
                with self.lock:
                    job = self.pending.get(name)
                    if job is None:
                        self.busy.discard(name)
                        return
                    if time.monotonic() - job[2] < self.pause:
                        continue  # still typing
                    del self.pending[name]
                self._store(name, job[0], job[1])
        except BaseException:
            with self.lock:
                self.busy.discard(name)
            raise

    def _store(self, name: str, text: str, digest: str) -> Known:
        known = self.build(name, text)
        with self.lock:
            old = self.files.get(name)
            if known is None:  # the text has an error: keep the last good names
                known = old[1] if old else Known()
            self.files[name] = (digest, known)
        return known

    def build(self, name: str, text: str) -> Known | None:
        """The names of `text` (a tests file: of its ruleset), with its base's parts; None
        when it does not load."""
        from interpreter.errors import TabletopError
        from interpreter.load.loader import load_ruleset_text
        from interpreter.studio.check import compiled

        path = self.ws.resolve(name)
        with self.lock:
            had = self.files.get(name)
        texts = [text]
        if had is None or had[1].game is None:  # nothing loaded yet: the saved file will do
            texts.append("")
        known = None
        for each in texts:
            try:
                if name.endswith(".tests.yaml"):
                    loaded = self._tests_ruleset(name, text)
                    if loaded is None:
                        break
                else:
                    loaded = load_ruleset_text(each or self.ws.read_disk(path), str(path))
                known = known_from(loaded, compiled(loaded, {}), str(path))
                break
            except (TabletopError, StudioError, OSError, ValueError):
                continue
        ref = extends_of(text)
        if ref is not None:
            based = self.base(ref, path)
            if based is not None:
                known = known or Known()
                known.base, known.base_title = based.base, based.base_title
                known.parts, known.addresses = based.parts, based.addresses
                known.words = based.words
        return known

    def _tests_ruleset(self, name: str, text: str) -> Any:
        """The ruleset a tests file tests: the one beside it, else its `ruleset:`."""
        from interpreter.api import load

        beside = name[: -len(".tests.yaml")] + ".yaml"
        if self.ws.resolve(beside).is_file():
            return self.ws.loaded(beside)
        m = re.search(r"^ruleset\s*:\s*([A-Za-z0-9_-]+)\s*$", text, re.MULTILINE)
        return load(m.group(1)) if m else None

    def base(self, ref: str, path: Path) -> Known | None:
        """A variant's base's parts (by name: a bundled game; a path: a file of the
        workspace), cached while the base is unchanged."""
        from interpreter.api import load
        from interpreter.assemble.game import compile_game_once
        from interpreter.errors import TabletopError

        try:
            if ref.endswith((".yaml", ".yml")) or "/" in ref:
                near = path.parent / ref
                loaded = self.ws.loaded(self.ws.shown(near.resolve()))
            else:
                loaded = load(ref)
            stamp = (ref, loaded.content_hash)
            with self.lock:
                hit = self.bases.get(stamp)
            if hit is not None:
                return hit
            done = with_base(Known(), ref, loaded, compile_game_once(loaded, {}))
        except (TabletopError, StudioError, OSError, ValueError):
            return None
        with self.lock:
            if len(self.bases) > 16:
                self.bases.pop(next(iter(self.bases)))
            self.bases[stamp] = done
        return done


def _request(data: dict[str, Any]) -> tuple[str, str, Any, Any]:
    name, text = data.get("path"), data.get("text")
    if not isinstance(name, str):
        raise StudioError("name the file ('path')")
    if not isinstance(text, str):
        raise StudioError("'text' must be the editor's text (a string)")
    line, col = data.get("line"), data.get("col")
    for what, v in (("line", line), ("col", col)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise StudioError(f"'{what}' must be a whole number (1-based)")
    return name, text, line, col


def routes(ws: Workspace) -> list[BaseRoute]:
    """POST /api/complete and /api/hover, `{path, text, line, col}` each."""
    from interpreter.studio.app import body, threaded

    cache = KnownCache(ws)
    # the schema indexes are built while the page loads, not on the first keystroke
    threading.Thread(target=warm, daemon=True).start()

    def answer(fn: Any, name: str, text: str, line: int, col: int) -> dict[str, Any]:
        known = cache.get(name, text)
        return dict(fn(text, name, line, col, known))

    async def complete_route(request: Request) -> Response:
        name, text, line, col = _request(await body(request))
        ws.resolve(name)
        return await threaded(answer, complete, name, text, line, col)

    async def hover_route(request: Request) -> Response:
        name, text, line, col = _request(await body(request))
        ws.resolve(name)
        return await threaded(answer, hover, name, text, line, col)

    return [Route("/api/complete", complete_route, methods=["POST"]),
            Route("/api/hover", hover_route, methods=["POST"])]


def warm() -> float:
    """Build the schema indexes now (the first completion then answers at once);
    the seconds it took."""
    began = time.perf_counter()
    ruleset_index()
    tests_index()
    builtin_names()
    return time.perf_counter() - began


__all__ = ["Known", "KnownCache", "complete", "hover", "routes", "warm"]
