"""`--backend ray`: the same seeds give the same results as the local backend, a batch
whose worker dies is retried and one that fails for good counts its games as errors,
and every mistake in the arguments is one clear message.

Starting Ray takes seconds, so the tests that need it share one local instance (two
CPUs) per test module and worker process; the rest run without it.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_analyze import FAILING_RULESET, invoke  # FAILING: some seeds break a rule

from interpreter.analyze.collect import Batch, Matchup, lost_batch
from interpreter.analyze.plan import make_plan
from interpreter.analyze.runner import analyze
from interpreter.errors import UsageError
from interpreter.load.catalog import find_ruleset
from interpreter.simulate import backends, playout

COMPARED = ("games", "errors", "error_examples", "wins_by_seat", "draws", "end_reasons",
            "mean_turns", "mean_decisions", "requested", "interrupted")


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    """A local Ray instance for this module's tests (the backend uses the one this
    process is connected to, and leaves it running)."""
    ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    yield ray
    ray.shutdown()


def ref(name: str) -> tuple[str, dict[str, Any]]:
    return str(find_ruleset(name).resolve()), {}


# -- the same results ----------------------------------------------------------------------

@pytest.mark.parametrize(("game", "n"), [("high-rise", 60), ("caldera", 12), ("failing", 40)])
def test_simulate_on_ray_gives_the_local_results(ray_instance: Any, tmp_path: Path,
                                                 game: str, n: int) -> None:
    if game == "failing":  # errors and their examples must match too
        path = tmp_path / "failing.yaml"
        path.write_text(FAILING_RULESET)
        game_ref = (str(path), {})
    else:
        game_ref = ref(game)
    local = playout.simulate(game_ref, n, None, 11)
    on_ray = playout.simulate(game_ref, n, None, 11, backend="ray")
    assert {k: on_ray[k] for k in COMPARED} == {k: local[k] for k in COMPARED}
    assert on_ray["games"] == n
    assert (on_ray["errors"] > 0) == (game == "failing")


def test_analyze_on_ray_gives_the_local_report(ray_instance: Any) -> None:
    plan = make_plan(["high-rise"], [], [], ["random,uniform"], 10, 3)
    local = analyze(plan)
    on_ray = analyze(plan, backend="ray")
    timing = ("seconds", "games_per_second")
    assert ({k: v for k, v in on_ray.items() if k not in timing}
            == {k: v for k, v in local.items() if k not in timing})
    assert on_ray["games"] == 3 * 10


def test_the_command_line_simulates_on_ray(ray_instance: Any) -> None:
    args = ["simulate", "high-rise", "-n", "20", "--seed", "4", "--json"]
    on_ray = invoke(*args, "--backend", "ray")
    assert on_ray.exit_code == 0, on_ray.output
    local = invoke(*args)
    assert ({k: json.loads(on_ray.stdout)[k] for k in COMPARED}
            == {k: json.loads(local.stdout)[k] for k in COMPARED})


def test_the_rulesets_go_along_so_no_node_needs_the_files(ray_instance: Any,
                                                         tmp_path: Path) -> None:
    """A worker on another machine has no copy of the designer's file: here the file is
    gone by the time the games are played, which only the carried ruleset survives."""
    from interpreter.api import load_game

    path = tmp_path / "mine.yaml"
    path.write_text(find_ruleset("high-rise").read_text(encoding="utf-8"))
    game_ref = (str(path), {})
    loaded = load_game(str(path)).loaded
    expected = playout.simulate(game_ref, 30, None, 5)
    path.unlink()

    def play(rulesets: dict | None) -> playout.Tally:
        tally = playout.Tally()
        work = [playout._Batch(game_ref, None, 5 + first, 10, "random")
                for first in range(0, 30, 10)]
        backends.ray_stream(30, lambda largest: work, playout._run_batch, tally.merge,
                            playout.lost_batch, rulesets=rulesets)
        return tally

    without = play(None)  # what a node without the file does (first: workers keep games)
    assert without.errors == 30
    assert "no such ruleset file" in without.error_examples[0][1]
    carried = play({str(path): loaded})
    assert carried.errors == 0
    assert {str(s): w for s, w in carried.wins.items()} == {
        s: w for s, w in expected["wins_by_seat"].items() if w}
    assert carried.draws == expected["draws"]


# -- failures -------------------------------------------------------------------------------

def flaky_run(item: tuple[playout._Batch, str, str]) -> playout.Tally:
    """A batch played by a worker that may fail: `crash once` kills its process the first
    time (a marker file remembers), `crash` every time, `raise` raises; each attempt
    leaves a line in the marker file."""
    batch, failure, marker = item
    with open(marker, "a") as f:
        f.write(f"{batch.first}\n")
    tries = Path(marker).read_text().split().count(str(batch.first))
    if failure == "crash" or (failure == "crash once" and tries == 1):
        os._exit(1)
    if failure == "raise":
        raise ValueError("a bug in the batch")
    return playout._run_batch(batch)


def test_a_dead_worker_is_retried_and_a_failed_batch_counts_as_errors(
        ray_instance: Any, tmp_path: Path) -> None:
    ray_instance.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    failures = {0: "crash once", 10: "crash", 20: "raise"}
    markers = {first: str(tmp_path / f"{first}.txt") for first in failures}
    work = [(playout._Batch(ref("high-rise"), None, first, 10, "random"),
             failures.get(first, ""), markers.get(first, str(tmp_path / "ok.txt")))
            for first in range(0, 40, 10)]
    tally = playout.Tally()
    interrupted = backends.ray_stream(
        40, lambda largest: work, flaky_run, tally.merge,
        lambda item, error: playout.lost_batch(item[0], error), retries=1)
    assert not interrupted
    assert tally.games == 40 and tally.errors == 20  # every game is counted
    reasons = {seed // 10: error for seed, error in tally.error_examples}
    assert set(reasons) == {1}  # the five lowest seeds: the batch of 10…19
    assert "lost on Ray after 1 retry: WorkerCrashedError" in reasons[1]
    attempts = {first: Path(m).read_text().split().count(str(first))
                for first, m in markers.items()}
    assert attempts == {0: 2, 10: 2, 20: 1}  # a game's own exception is not retried
    played = playout.Tally()  # the other batches, played here
    for batch, _, _ in (work[0], work[3]):
        played.merge(playout._run_batch(batch))
    assert (tally.wins, tally.draws, tally.turns) == (played.wins, played.draws, played.turns)


def test_a_lost_batch_is_every_one_of_its_games_as_an_error() -> None:
    tally = playout.lost_batch(playout._Batch(ref("high-rise"), None, 100, 7, "random"),
                               "gone")
    assert (tally.games, tally.errors) == (7, 7)
    assert tally.error_examples == [(s, "gone") for s in range(100, 105)]
    config, totals = lost_batch(Batch(2, ref("high-rise"), 2, Matchup("random"), 50, 3, 4),
                                "gone")
    assert config == 2 and (totals.tally.games, totals.tally.errors) == (4, 4)
    assert [seed for seed, _ in totals.tally.error_examples] == [53, 54, 55, 56]


# -- refusals -------------------------------------------------------------------------------

@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "high-rise", "-n", "2", "--address", "h:1"], "--address is for --backend ray"),
    (["analyze", "high-rise", "-n", "2", "--address", "h:1"], "--address is for --backend ray"),
    (["simulate", "high-rise", "-n", "2", "--backend", "spark"], "--backend is one of local"),
    (["simulate", "high-rise", "-n", "2", "--backend", "ray", "--address", "nowhere"],
     "--address takes HOST:PORT"),
    (["analyze", "high-rise", "-n", "2", "--backend", "ray", "-j", "2"],
     "--jobs is for the local backend"),
])
def test_backend_arguments_are_checked(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 1 and message in result.output, result.output


def test_an_address_where_nothing_listens_is_one_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once closed: nothing listens there
    result = invoke("simulate", "high-rise", "-n", "2", "--backend", "ray", "--address",
                    f"127.0.0.1:{port}")
    assert result.exit_code == 1, result.output
    assert f"cannot reach the Ray cluster at 127.0.0.1:{port}" in result.output


def test_a_cluster_that_refuses_us_is_one_clear_error_with_what_ray_said() -> None:
    """Ray's client writes a line per failed attempt to stderr; they are held back and
    the last is said once, with how to give a cluster its token when it asks for one."""
    def init(**settings: Any) -> None:
        assert settings["address"] == address and not settings["log_to_driver"]
        os.write(2, b"[2026-01-01 00:00:00,000 W 1 1] gcs_client.cc:210: Failed to get "
                    b"cluster ID from GCS server: Unauthenticated: InvalidAuthToken\n" * 3)
        raise ConnectionError(f"Failed to connect to Ray cluster at {address}")

    fake_ray = SimpleNamespace(is_initialized=lambda: False, init=init)
    with socket.socket() as head:
        head.bind(("127.0.0.1", 0))
        head.listen()
        address = f"127.0.0.1:{head.getsockname()[1]}"
        with pytest.raises(UsageError) as caught:
            backends._connect(fake_ray, address)
    message = str(caught.value)
    assert message.startswith(f"cannot connect to the Ray cluster at {address}: Failed to "
                              "connect to Ray cluster at")
    assert "(Failed to get cluster ID from GCS server: Unauthenticated: InvalidAuthToken)" in (
        message)
    assert "RAY_AUTH_MODE=token" in message and "gcs_client.cc" not in message


def test_without_ray_installed_the_message_says_how_to_get_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails
    result = invoke("simulate", "high-rise", "-n", "2", "--backend", "ray")
    assert result.exit_code == 1, result.output
    assert "pip install 'tabletop[ray]'" in result.output


def test_a_worker_forgets_its_compiled_games_of_a_ruleset_brought_anew() -> None:
    """A Ray worker lives as long as its driver: a ruleset carried again (edited between
    two runs) must not be played from the version compiled before."""
    path, options = ref("high-rise")
    first = playout.worker_game((path, options))
    assert playout.worker_game((path, options)) is first
    playout.forget_games([path])
    assert playout.worker_game((path, options)) is not first
