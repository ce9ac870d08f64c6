"""Where the batches of a simulation or an analysis are played: `local` (this process or
a pool of worker processes, see `playout.stream`) or `ray` (a Ray cluster, or a Ray
instance started here for the run).

Ray is an optional extra (`tabletop[ray]`): it is imported only when asked for, so the
local backend never pays for it. The Ray stream keeps a bounded number of batches in
flight and hands results to `take` as they finish, so memory stays flat for any number
of games; a batch whose worker dies is retried by Ray, and a batch that still fails is
handed to `lost`, which turns its games into errors: no game is ever silently missing.
The rulesets go along, loaded (`api.carry`): a node needs tabletop, not the files.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from interpreter.errors import UsageError

if TYPE_CHECKING:
    from interpreter.load.loader import LoadedRuleset

BACKENDS = ("local", "ray")

RAY_BATCH = 32
"""Games per Ray task at most. A task costs about 2 ms of scheduling here (more across a
network), a game from about 1 ms (a small board, random players) to seconds (searching
players): 32 of the fastest games keep that overhead near 5% (1 game a task: half the
speed), and one batch of a slower game still ends within seconds, so progress shows.
`ray_largest_batch` gives every CPU several batches besides. Measured with
benchmarks/backends.py --ray-batches (see guides/ray.md)."""

BATCHES_PER_CPU = 4
"""A run is cut into at least this many batches per CPU (when it has the games), so no
CPU waits long for the last batch and the progress bar moves."""

IN_FLIGHT_PER_CPU = 2
"""Tasks submitted and not yet collected, per CPU of the cluster: enough to keep every
CPU busy while results travel back, few enough that memory does not grow with the run."""

MAX_RETRIES = 3
"""Times Ray runs a task again when its worker process or node dies. An exception
raised by the games themselves is not retried: the same seeds would raise it again."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a cluster's address to answer before saying it does not (Ray's
own connection attempts take many minutes to give up)."""

INSTALL_HINT = "install it with: pip install 'tabletop[ray]'"


def check_backend(backend: str, address: str | None, jobs: int = 1) -> None:
    """Refuse what cannot work before any game is loaded: an unknown backend, an address
    without Ray, --jobs with Ray (its CPUs decide), Ray not installed."""
    if backend not in BACKENDS:
        raise UsageError(f"--backend is one of {', '.join(BACKENDS)}, not '{backend}'")
    if backend != "ray":
        if address is not None:
            raise UsageError("--address is for --backend ray (the address of a Ray cluster)")
        return
    if jobs != 1:
        raise UsageError("--jobs is for the local backend: with --backend ray every CPU of "
                         "the Ray cluster works (a local instance: every core here)")
    if address is not None:
        _split_address(address)
    import_ray()


def import_ray() -> Any:
    """The ray module, or a usage error saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise UsageError(f"--backend ray needs Ray, which is not installed ({exc}); "
                         f"{INSTALL_HINT}") from None
    return ray


def ray_largest_batch(n: int, cpus: int) -> int:
    """Games per Ray task at most: RAY_BATCH, fewer when that would leave CPUs idle."""
    return max(1, min(RAY_BATCH, n // (cpus * BATCHES_PER_CPU)))


def ray_stream(total: int, work: Callable[[int], Iterable[Any]], run: Callable[[Any], Any],
               take: Callable[[Any], None], lost: Callable[[Any, str], Any],
               address: str | None = None, retries: int = MAX_RETRIES,
               rulesets: Mapping[str, LoadedRuleset] | None = None) -> bool:
    """Run the batches of `work(largest)` as Ray tasks and hand each result to `take` in
    the order they finish (totals must not depend on it). A batch that fails for good is
    handed to `lost(batch, message)`, whose result is taken like any other. Returns True
    when Ctrl-C stopped it: what `take` was given so far is kept.

    Uses the Ray this process is connected to, if any; else connects to `address`, or
    starts a local instance, and shuts that down at the end. `run` must be a module-level
    function and the batches picklable; every node needs tabletop installed. `rulesets`
    (path → loaded ruleset, the paths the batches name) are sent once to the cluster and
    carried into every task, so no node reads those files."""
    ray = import_ray()
    ours = not ray.is_initialized()  # then this call connects, and disconnects after
    pending: dict[Any, Any] = {}
    try:
        _connect(ray, address)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(max_retries=retries, retry_exceptions=False)(_carrying)
        carried = ray.put(dict(rulesets or {}))
        for batch in work(ray_largest_batch(total, cpus)):
            pending[task.remote(run, [carried], batch)] = batch
            if len(pending) >= IN_FLIGHT_PER_CPU * cpus:
                _take_one(ray, pending, take, lost, retries)
        while pending:
            _take_one(ray, pending, take, lost, retries)
    except KeyboardInterrupt:
        if not ours:  # else the shutdown below ends our job, and Ray stops its tasks
            _cancel(ray, pending)
        return True
    finally:
        if ours and ray.is_initialized():
            ray.shutdown()
    return False


_received: set[str] = set()
"""The carried rulesets this worker process has taken in (by object id)."""


def _carrying(run: Callable[[Any], Any], carried: list[Any], batch: Any) -> Any:
    """A task: the batch, played with the driver's loaded rulesets. They come wrapped in a
    list so that Ray does not fetch and unpickle them for every task, only for a worker's
    first (they weigh up to a few hundred kB)."""
    ref = carried[0]
    if ref.hex() not in _received:
        import ray

        from interpreter.api import carry
        from interpreter.simulate.playout import forget_games

        rulesets = ray.get(ref)
        carry(rulesets)
        forget_games(rulesets)  # a worker kept from an earlier run may hold old versions
        _received.add(ref.hex())
    return run(batch)


def _take_one(ray: Any, pending: dict[Any, Any], take: Callable[[Any], None],
              lost: Callable[[Any, str], Any], retries: int) -> None:
    """Wait for the next batch to finish and take its result (or its loss)."""
    [ref], _ = ray.wait(list(pending), num_returns=1)
    batch = pending.pop(ref)
    try:
        result = ray.get(ref)
    except ray.exceptions.RayError as exc:
        result = lost(batch, failure_message(ray, exc, retries))
    take(result)


def failure_message(ray: Any, exc: Exception, retries: int) -> str:
    """One line saying why a batch was lost: the games' own exception, or the worker's
    (or node's) death after Ray's retries."""
    if isinstance(exc, ray.exceptions.RayTaskError) and exc.cause is not None:
        cause = exc.cause
        return f"the batch failed on a Ray worker: {type(cause).__name__}: {_first(cause)}"
    tries = f"{retries} {'retry' if retries == 1 else 'retries'}"
    return (f"the batch was lost on Ray after {tries}: {type(exc).__name__}: "
            f"{_first(exc)}")


def _first(exc: BaseException, limit: int = 300) -> str:
    text = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _cancel(ray: Any, pending: dict[Any, Any]) -> None:
    """Stop the tasks still running on a connection that stays open (the cluster would
    otherwise play them to the end). Not done before a shutdown: Ray stops a finished
    job's tasks itself, and a cancel that crosses a task's completion can crash Ray's
    core worker (2.60: "Tried to complete task that was not pending")."""
    for ref in pending:
        with contextlib.suppress(Exception):
            ray.cancel(ref, force=True)


def _connect(ray: Any, address: str | None) -> None:
    """Connect to the cluster at `address`, or start a local Ray instance, unless this
    process is connected already (an address given must answer all the same: a mistake
    in it is said, never ignored)."""
    if address is not None:
        _check_reachable(address)
    if ray.is_initialized():
        return
    settings: dict[str, Any] = {
        "include_dashboard": False,  # a web server per run: slow to start, not used
        "log_to_driver": False,  # workers' output stays in Ray's log files
        "configure_logging": True,
        "logging_level": logging.ERROR,  # Ray's notices would bury the report
    }
    held: list[str] = []
    try:
        with _ctrl_c_deferred():
            if address is None:
                ray.init(address="local", **settings)
            else:
                with _stderr_held(held):
                    ray.init(address=address, **settings)
    except (OSError, RuntimeError, ValueError, ImportError) as exc:
        where = f"the Ray cluster at {address}" if address else "a local Ray instance"
        raise UsageError(f"cannot connect to {where}: {_first(exc)}{_said(held)}") from None


@contextlib.contextmanager
def _ctrl_c_deferred() -> Iterator[None]:
    """Hold a Ctrl-C pressed while Ray starts until it has started, then raise it: a
    start cut short leaves Ray half made, and the process crashes at exit. (The
    processes Ray starts block Ctrl-C themselves: it is the driver's to handle.)"""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change signal handling (and gets Ctrl-C)
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _: pressed.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed:
        raise KeyboardInterrupt


@contextlib.contextmanager
def _stderr_held(held: list[str]) -> Iterator[None]:
    """Hold back what Ray's C++ client writes to stderr while it connects (a line per
    failed attempt, twenty of them) and put it in `held`, to be said once if it fails.
    When stderr is no real file, nothing is held."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, AttributeError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as spool:
        os.dup2(spool.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            spool.seek(0)
            held.append(spool.read(1 << 20).decode(errors="replace"))


_LOG_PREFIX = re.compile(r"^\[[^\]]*\]\s*[\w./-]+:\d+:\s*")


def _said(held: list[str]) -> str:
    """Ray's last complaint while connecting, as a clause of the error (and how to give
    a cluster that asks for one its token)."""
    lines = [line.strip() for text in held for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    text = f" ({_LOG_PREFIX.sub('', lines[-1])})"
    if any("AuthToken" in line or "Unauthenticated" in line for line in lines):
        text += ("; the cluster asks for a token: set RAY_AUTH_MODE=token, and RAY_AUTH_TOKEN "
                 "to the head node's token (`ray get-auth-token` there)")
    return text


def _split_address(address: str) -> tuple[str, int] | None:
    """(host, port) of a cluster address, None for `auto` (Ray finds it), else a usage
    error. `ray://host:port` (Ray Client) is accepted too."""
    text = address.strip()
    if text == "auto":
        return None
    rest = text.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--address takes HOST:PORT (the head node's address, as "
                         f"`ray start --head` prints it) or auto, not '{address}'")
    return host, int(port)


def _check_reachable(address: str) -> None:
    """Fail fast, with a clear message, when nothing listens at the address."""
    parts = _split_address(address)
    if parts is None:
        return
    try:
        with socket.create_connection(parts, timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__.replace("Error", " error").lower()
        raise UsageError(f"cannot reach the Ray cluster at {address}: {reason} (is "
                         f"`ray start --head` running there, and is this its port?)"
                         ) from None

