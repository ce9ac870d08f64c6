"""The tests panel's runs, in a worker process of their own.

The tests panel runs a whole tests file after every edit that loads. In the server's
own process that run (1.2 s for the largest bundled game's 79 cases, most of it
compiling the ruleset again for each case's options) held the interpreter's lock while
the designer typed on, so the next keystrokes' checks waited on it; and the 340,000
objects it left behind made each full garbage collection take 350 to 480 ms, which a
keystroke could land on. In a worker process, the run takes the machine's other core
and leaves its garbage there. The worker is one long-lived process (the engine is
imported, and its compiler's memories filled, once), started with `spawn` (a fork of a
server with threads running is not safe), and given the workspace's roots and the
editor's drafts with each run, so that it runs exactly what the editor shows.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from interpreter.errors import TabletopError
from interpreter.studio.panels import InvalidRuleset
from interpreter.studio.workspace import StudioError, Workspace

_pool: ProcessPoolExecutor | None = None
_pool_lock = threading.Lock()


def _ready() -> None:
    """The worker's first job: import the engine and the panel now, not on the first run."""
    import interpreter.studio.panels.tests  # noqa: F401


def pool() -> ProcessPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=1,
                                        mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_ready)
        return _pool


def start() -> None:
    """Start the worker now (the studio's start-up), so the first run does not wait."""
    pool().submit(_ready)


def stop() -> None:
    global _pool
    with _pool_lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = None


def _run(roots: tuple[Path, ...], drafts: dict[Path, str], job: str, args: tuple[Any, ...]
         ) -> tuple[Any, ...]:
    """In the worker: one panel job on a workspace with these drafts. What went wrong is
    sent back as plain values (an exception's own arguments do not always survive the
    trip between processes)."""
    from interpreter.studio.panels import tests

    jobs = {"run_tests": tests.run_tests}
    ws = Workspace(roots=roots, drafts=dict(drafts))
    try:
        return ("ok", jobs[job](ws, *args))
    except InvalidRuleset as exc:
        return ("invalid", exc.message, exc.diagnostics, exc.status)
    except StudioError as exc:
        return ("studio", exc.message, exc.status)
    except TabletopError as exc:
        return ("studio", str(exc).splitlines()[0] if str(exc) else type(exc).__name__, 400)


async def in_worker(ws: Workspace, job: str, *args: Any) -> Any:
    """Run `job` (a tests panel function) in the worker on `ws` as it is now; its
    result, or its error raised here as it was raised there."""
    loop = asyncio.get_running_loop()
    try:
        outcome = await loop.run_in_executor(pool(), _run, ws.roots, dict(ws.drafts), job,
                                             args)
    except BrokenProcessPool:
        stop()  # the next run starts a new worker
        raise StudioError("the process running the tests stopped unexpectedly; run them "
                          "again", 500) from None
    kind = outcome[0]
    if kind == "ok":
        return outcome[1]
    if kind == "invalid":
        raise InvalidRuleset(outcome[1], outcome[2])
    raise StudioError(outcome[1], outcome[2])
