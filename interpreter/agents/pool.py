"""Worker processes for a search that uses several cores (`mcts:workers=N`).

A searching agent with `workers=N` owns one `SearchPool` of N-1 processes, started at
its first search and kept for every later one (the agent's own process searches the
first share). Each process compiles the game once, by the game's `recipe` (the
generated code does not pickle; the loaded ruleset and the call that compiled it do),
and is sent per decision only what it searches from: the state for `mcts`, the seat's
information set for `ismcts` (see `InformationSet.shareable`). It answers with its
share's root statistics.

The processes are spawned, not forked (a fork would copy the caller's threads and
locks), ignore Ctrl-C (the caller's process gets it and closes the pool), and leave
when the pool is closed, when its agent is collected, at exit, or when the caller's
process dies (their end of the pipe reads end-of-file). A process that is itself a
worker of a pool (`simulate --jobs`) may not start processes: there the shares are
searched one after another in the caller's process, with the same result.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import pickle
import signal
import threading
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from interpreter.play.game import Game

Job = tuple[Any, ...]
"""What a share searches: passed to `run_share` in the worker (see search.py)."""

_TOKENS: weakref.WeakKeyDictionary[Game, int] = weakref.WeakKeyDictionary()
_NUMBERS = itertools.count(1)  # next() on it is atomic: tables search in threads


def _token(game: Game) -> int:
    """A number naming `game` in this process, so a worker compiles each game once."""
    token = _TOKENS.get(game)
    if token is None:
        token = _TOKENS.setdefault(game, next(_NUMBERS))
    return token


def can_start_processes() -> bool:
    """Whether this process may have worker processes (a pool's worker may not)."""
    return not multiprocessing.current_process().daemon


class SearchPool:
    """N worker processes that search shares of a decision for one agent."""

    def __init__(self, processes: int) -> None:
        self.size = processes
        self._procs: list[BaseProcess] = []
        self._conns: list[Connection] = []
        self._games: list[int] = []
        """The game token each worker has compiled (0: none yet)."""
        self._finalizer: weakref.finalize | None = None

    @property
    def started(self) -> bool:
        return bool(self._procs)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests that check none is left behind)."""
        return [p.pid for p in self._procs if p.pid is not None]

    def start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        with workers_deaf_to_ctrl_c():
            for _ in range(self.size):
                ours, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(theirs,), daemon=True,
                                   name="tabletop-search-worker")
                proc.start()
                theirs.close()
                self._procs.append(proc)
                self._conns.append(ours)
                self._games.append(0)
        self._finalizer = weakref.finalize(self, _shut, list(self._procs), list(self._conns))

    def run(self, game: Game, jobs: list[Job], here: Callable[[], Any]) -> list[Any]:
        """Each job's answer, in order, searched by the workers while `here` (the first
        share) runs in this process: [here's answer, job 1's, ...]. Anything that stops
        it half-way (Ctrl-C, an error) closes the pool: its workers' answers are lost."""
        if not self.started:
            self.start()
        token = _token(game)
        done = False
        try:
            for i, job in enumerate(jobs):
                conn = self._conns[i]
                if self._games[i] != token:
                    conn.send(("game", token, pickle.dumps(game.recipe)))
                    self._games[i] = token
                conn.send(("share", token, job))
            first = here()
            answers = [first] + [self._answer(self._conns[i]) for i in range(len(jobs))]
            done = True
            return answers
        finally:
            if not done:
                self.close(wait=False)

    @staticmethod
    def _answer(conn: Connection) -> Any:
        try:
            kind, value = conn.recv()
        except EOFError:
            raise RuntimeError("a search worker process ended unexpectedly") from None
        if kind == "error":
            raise value
        return value

    def close(self, wait: bool = True) -> None:
        """Stop the workers: let each finish what it does (at most two seconds), or
        without `wait` at once (after Ctrl-C: what they search is not wanted)."""
        if not wait:
            for proc in self._procs:
                proc.terminate()
        if self._finalizer is not None:
            self._finalizer()
        self._procs, self._conns, self._games = [], [], []
        self._finalizer = None


def _shut(procs: list[BaseProcess], conns: list[Connection]) -> None:
    for conn in conns:
        with contextlib.suppress(OSError, ValueError):
            conn.send(None)
        with contextlib.suppress(OSError):
            conn.close()
    for proc in procs:
        proc.join(timeout=2)
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=2)
        if proc.is_alive():
            proc.kill()
            proc.join()


@contextlib.contextmanager
def workers_deaf_to_ctrl_c() -> Iterator[None]:
    """Ignore Ctrl-C while worker processes start: they keep ignoring it (Python leaves
    an ignored SIGINT ignored, and a handler would not survive their exec), so Ctrl-C
    reaches only the caller, which closes the workers, and a worker still importing
    does not die with a traceback. The price: a Ctrl-C in the milliseconds the workers
    take to start is lost (the next one works)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change signal handling (and gets Ctrl-C)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _serve(conn: Connection) -> None:
    """A worker: compile the games it is sent, search the shares it is sent."""
    from interpreter.agents.search import run_share

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    games: dict[int, Game] = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the caller is gone
        if message is None:
            return
        kind, token, payload = message
        if kind == "game":
            games.clear()  # one game at a time: an agent plays one game
            games[token] = pickle.loads(payload)()
            continue
        try:
            answer: tuple[str, Any] = ("ok", run_share(games[token], payload))
        except Exception as exc:  # sent back, raised in the caller
            answer = ("error", _sendable(exc))
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


def _sendable(exc: Exception) -> Exception:
    """The error itself when it survives pickling, else a RuntimeError saying it."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc
