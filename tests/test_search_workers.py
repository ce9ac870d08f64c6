"""`mcts:workers=N` and `ismcts:workers=N`: one search in N processes, the same choice
for the same seed and settings whatever the timing; workers=1 searches as before; an
ismcts worker is sent only what its seat may know; no process is left behind."""

from __future__ import annotations

import gc
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from adapter_support import reshuffled
from test_search_agents import _hidden_positions, _play, _random_position

from interpreter.agents import check_agent, make_agent, workers_note
from interpreter.agents import pool as poolmod
from interpreter.agents import search as searchmod
from interpreter.agents.information import InformationSet
from interpreter.api import load_game
from interpreter.errors import UsageError
from interpreter.simulate.playout import agent_seed, play_game, simulate

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = str(ROOT / "benchmarks" / "rulesets" / "tic-tac-toe.yaml")
CONNECT_FOUR = str(ROOT / "benchmarks" / "rulesets" / "connect-four.yaml")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a child that ended but was not yet waited for is gone too
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _gone(pids: list[int], within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(map(_alive, pids)):
            return True
        time.sleep(0.05)
    return False


def _choices(name: str, players: int, agent: str, positions: list[tuple[int, int]],
             options: dict[str, str] | None = None) -> list[str]:
    """One agent's choices at a few positions in turn (so its generator runs on)."""
    game = load_game(name, options or {})
    searcher = make_agent(agent, 7, game)
    out = []
    try:
        for seed, depth in positions:
            state = _random_position(game, players, seed, depth)
            seat = game.deciding_seats(state)[0]
            out.append(game.notation_of(state, seat, searcher.search(game, state, seat)))
    finally:
        getattr(searcher, "close", lambda: None)()
    return out


# -- the setting --------------------------------------------------------------------------

def test_workers_is_a_whole_number_of_at_least_one() -> None:
    assert check_agent("mcts:workers=2").settings == {"workers": 2}
    assert check_agent("ismcts:playouts=40,workers=3").settings == {"playouts": 40,
                                                                     "workers": 3}
    for text, words in [("mcts:workers=0", "workers must be at least 1, not 0"),
                        ("ismcts:workers=1.5", "workers is a whole number, not '1.5'"),
                        ("mcts:workers=two", "workers is a whole number"),
                        ("mcts:worker=2", "did you mean 'workers'")]:
        with pytest.raises(UsageError, match=words):
            check_agent(text)
    with pytest.raises(UsageError, match="at least 1"):
        searchmod.MCTSAgent(0, workers=0)


def test_more_workers_than_cores_is_allowed_and_said() -> None:
    cores = os.cpu_count() or 1
    assert workers_note(["random", f"mcts:workers={cores}"]) is None
    note = workers_note(["human", f"mcts:playouts=50,workers={cores + 1}"])
    assert note is not None and f"{cores + 1} processes" in note and f"{cores} cores" in note
    assert f"workers={cores + 1}" in searchmod.SearchAgent.SETTINGS["workers"].help or (
        "more than this machine's" in searchmod.SearchAgent.SETTINGS["workers"].help)


# -- workers=1: as before -----------------------------------------------------------------

RECORDED = [
    # (game, players, agent, positions (seed, decisions), options) → choices recorded
    # with the code before workers existed
    (CONNECT_FOUR, 2, "mcts:playouts=60", [(1, 4), (2, 9), (3, 14)], None),
    ("caldera", 2, "mcts:playouts=30,depth=5", [(1, 5), (2, 11)], None),
    ("high-rise", 2, "mcts:playouts=40,groups=4", [(1, 3), (2, 8)], None),
    ("bottoms-up", 4, "ismcts:playouts=30", [(1, 12), (2, 30)], None),
    ("aquarium", 3, "ismcts:playouts=20,judge=score", [(1, 12)], None),
]
BEFORE = {
    CONNECT_FOUR: ["e1", "d3", "a3"],
    "caldera": ["c1-n", "b1-ne"],
    "high-rise": ["gL-a1", "bL-a1"],
    "bottoms-up": ["colour-green", "colour-black"],
    "aquarium": ["+1"],
}


@pytest.mark.parametrize(("name", "players", "agent", "positions", "options"), RECORDED)
def test_one_worker_chooses_as_the_search_did_before(name: str, players: int, agent: str,
                                                     positions: list[tuple[int, int]],
                                                     options: dict[str, str] | None) -> None:
    assert _choices(name, players, agent, positions, options) == BEFORE[name]
    assert _choices(name, players, agent + ",workers=1", positions, options) == BEFORE[name]


def test_one_worker_starts_no_process() -> None:
    game = load_game(TIC_TAC_TOE)
    agent = make_agent("mcts:playouts=20", 1, game)
    state = game.new_state(2, 1)
    agent.search(game, state, 1)
    assert agent.worker_pids() == []


# -- workers=2: the same choice whatever the timing ---------------------------------------

@pytest.mark.parametrize(("name", "players", "agent", "positions"), [
    (CONNECT_FOUR, 2, "mcts:playouts=80,workers=2", [(1, 4), (2, 9), (3, 14)]),
    ("high-rise", 2, "mcts:playouts=40,groups=4,workers=2", [(1, 3), (2, 8)]),
    ("bottoms-up", 4, "ismcts:playouts=30,workers=2", [(1, 12), (2, 30)]),
])
def test_the_same_seed_gives_the_same_choices_in_processes_or_not(
        name: str, players: int, agent: str, positions: list[tuple[int, int]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Run three times with worker processes, then with the shares searched one after
    another in this process (as in a pool's worker): one answer."""
    runs = [_choices(name, players, agent, positions) for _ in range(3)]
    monkeypatch.setattr(searchmod, "can_start_processes", lambda: False)
    runs.append(_choices(name, players, agent, positions))
    assert all(run == runs[0] for run in runs), runs
    assert len(runs[0]) == len(positions)


def test_shares_are_searched_with_their_own_seeds_and_added_up() -> None:
    """Each share has its own seed: the sum holds all the playouts, more options tried
    than one share tries, and another seed may choose otherwise but legally."""
    game = load_game(CONNECT_FOUR)
    state = _random_position(game, 2, 5, 6)
    agent = make_agent("mcts:playouts=60,workers=3", 11, game)
    try:
        raw = agent.search(game, state, 1 if state.decisions % 2 == 0 else 2)
        assert agent.last_playouts == 60
        assert len(agent.worker_pids()) == 2  # this process searches the first share
        assert raw in game.raw_options(state, game.deciding_seats(state)[0])
    finally:
        agent.close()


@pytest.mark.parametrize("agent", ["mcts:playouts=300,workers=2",
                                   "ismcts:playouts=300,workers=2",
                                   "mcts:playouts=300,groups=3,workers=2"])
def test_two_workers_take_a_win_and_never_lose_tic_tac_toe(agent: str) -> None:
    game = load_game(CONNECT_FOUR)
    state = _play(game, game.new_state(2, 1), ["a1", "b1", "a2", "b2", "a3", "c1"])
    searcher = make_agent(agent, 3, game)
    try:
        assert game.notation_of(state, 1, searcher.search(game, state, 1)) == "a4"
    finally:
        searcher.close()
    game = load_game(TIC_TAC_TOE)
    for seed in range(3):
        seat = seed % 2 + 1
        agents = {s: make_agent(agent if s == seat else "random", agent_seed(seed, s), game)
                  for s in (1, 2)}
        assert play_game(game, 2, seed, agents, keep_state=False).winners != [3 - seat]
        agents[seat].close()


def test_playouts_fewer_than_workers_still_choose() -> None:
    game = load_game(TIC_TAC_TOE)
    agent = make_agent("mcts:playouts=1,workers=3", 2, game)
    state = game.new_state(2, 1)
    assert agent.search(game, state, 1) in game.raw_options(state, 1)
    assert agent.last_playouts == 1
    assert agent.worker_pids() == []  # one share: searched here
    agent.close()


def test_simulate_in_worker_processes_takes_workers() -> None:
    """A pool's worker may not start processes: there the shares run one by one."""
    report = simulate((TIC_TAC_TOE, {}), 2, 2, 1, "mcts:playouts=20,workers=2", jobs=2)
    assert report["games"] == 2 and not report.get("errors")


# -- the pool: started once, closed, no orphans ---------------------------------------------

def test_the_pool_starts_once_per_player_and_compiles_the_game_once() -> None:
    game = load_game(CONNECT_FOUR)
    agent = make_agent("mcts:playouts=20,workers=2", 1, game)
    state = game.new_state(2, 1)
    agent.search(game, state, 1)
    pids = agent.worker_pids()
    assert len(pids) == 1
    sent = []
    real_send = type(agent._pool._conns[0]).send

    def counting(conn: object, message: object) -> None:
        sent.append(message[0] if isinstance(message, tuple) else message)
        real_send(conn, message)

    try:
        type(agent._pool._conns[0]).send = counting  # type: ignore[method-assign]
        _play(game, state, ["a1"])
        agent.search(game, state, 2)
        agent.search(game, state, 2)
    finally:
        type(agent._pool._conns[0]).send = real_send  # type: ignore[method-assign]
    assert agent.worker_pids() == pids
    assert sent == ["share", "share"]  # the game went once, at the first search
    agent.close()
    assert _gone(pids)
    assert agent.worker_pids() == []


def test_a_player_dropped_takes_its_processes_with_it() -> None:
    game = load_game(TIC_TAC_TOE)
    agent = make_agent("mcts:playouts=20,workers=2", 1, game)
    agent.search(game, game.new_state(2, 1), 1)
    pids = agent.worker_pids()
    assert pids and all(map(_alive, pids))
    del agent
    gc.collect()
    assert _gone(pids)


def test_an_error_or_ctrl_c_mid_search_closes_the_pool(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    game = load_game(TIC_TAC_TOE)
    agent = make_agent("mcts:playouts=20,workers=2", 1, game)
    state = game.new_state(2, 1)
    agent.search(game, state, 1)
    pids = agent.worker_pids()

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(searchmod, "run_share", interrupted)
    with pytest.raises(KeyboardInterrupt):
        agent.search(game, state, 1)
    assert _gone(pids, within=5)
    monkeypatch.undo()
    agent.search(game, state, 1)  # a new pool
    assert agent.worker_pids() and agent.worker_pids() != pids
    agent.close()


def test_ctrl_c_in_play_leaves_no_worker_process(tmp_path: Path) -> None:
    """`tabletop play` with a thinking `mcts:workers=2` and Ctrl-C: the game stops and
    every process it started is gone."""
    script = tmp_path / "think.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from interpreter.agents import make_agent
        from interpreter.api import load_game
        game = load_game({CONNECT_FOUR!r})
        agent = make_agent("mcts:seconds=600,workers=2", 1, game)
        told = []
        def progress(done, planned):
            if not told:
                told.append(print(*agent.worker_pids(), flush=True))
        agent.progress = progress
        agent.search(game, game.new_state(2, 1), 1)
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the worker's id, once it searches
    pids = [int(p) for p in line.split()]
    assert pids, proc.stderr.read() if proc.stderr else ""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    finally:
        proc.kill()
    assert _gone(pids)
    assert "KeyboardInterrupt" in (proc.stderr.read() if proc.stderr else "")


def test_tabletop_play_with_two_workers_plays_a_game() -> None:
    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "play", TIC_TAC_TOE,
                          "--seat", "1=mcts:playouts=30,workers=2", "--seat", "2=random",
                          "--seed", "4"],
                         capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert "wins" in out.stdout or "draw" in out.stdout.lower()


# -- hidden information: an ismcts worker is sent only what its seat may know ---------------

@pytest.mark.parametrize(("name", "players"), [("bottoms-up", 4), ("aquarium", 3)])
def test_what_an_ismcts_worker_is_sent_is_the_same_for_states_its_seat_cannot_tell_apart(
        name: str, players: int) -> None:
    for game, state, seat in _hidden_positions(name, players, {}):
        sent = [pickle.dumps(InformationSet(game, s, seat).shareable(5))
                for s in [state, *(reshuffled(game, state, seat, salt) for salt in (1, 2))]]
        assert sent[0] == sent[1] == sent[2]
        info = InformationSet(game, state, seat)
        shared = pickle.loads(sent[0]).attached(game)
        for seed in range(4):  # it draws exactly what the seat's own set draws
            assert shared.sample(seed).to_json() == info.sample(seed).to_json()


def test_ismcts_workers_are_sent_the_information_set_never_the_state(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game("bottoms-up")
    state = _random_position(game, 4, 2, 30)
    seat = game.deciding_seats(state)[0]
    jobs: list[tuple] = []
    real_run = poolmod.SearchPool.run

    def watching(self: poolmod.SearchPool, game_: object, jobs_: list, here: object) -> list:
        jobs.extend(jobs_)
        return real_run(self, game_, jobs_, here)

    monkeypatch.setattr(poolmod.SearchPool, "run", watching)
    agent = make_agent("ismcts:playouts=20,workers=2", 1, game)
    agent.search(game, state, seat)
    agent.close()
    assert jobs and all(isinstance(job[2], InformationSet) for job in jobs)
    assert all(job[2].game is None or job[2].template is not state for job in jobs)
    sent = pickle.dumps(jobs)
    assert pickle.dumps(state) not in sent
    for other in [reshuffled(game, state, seat, salt) for salt in (1, 2)]:
        jobs_other: list[tuple] = []
        monkeypatch.setattr(poolmod.SearchPool, "run",
                            lambda self, g, js, here, into=jobs_other: (
                                into.extend(js), real_run(self, g, js, here))[1])
        agent = make_agent("ismcts:playouts=20,workers=2", 1, game)
        agent.search(game, other, seat)
        agent.close()
        assert pickle.dumps(jobs_other) == sent


def test_the_browser_tables_computer_player_closes_its_processes_when_the_game_ends(
        tmp_path: Path) -> None:
    import random

    from serve_support import create, receive, send, serving, socket_url

    with serving(tmp_path) as client:
        made = create(client, ruleset="tic-tac-toe",
                      seats={"1": "human", "2": "mcts:playouts=20,workers=2"})
        table = client.app.state.server.store.live[made["game"]]  # type: ignore[attr-defined]
        rnd = random.Random(3)
        pids: set[int] = set()
        with client.websocket_connect(socket_url(made, "1")) as ws:
            message = receive(ws)
            while not message["over"]:
                pids.update(table.agents[2].worker_pids())
                if message["options"]:
                    option = rnd.choice(message["options"])
                    send(ws, type="choose", version=message["version"], index=option["index"])
                message = receive(ws)
        assert pids  # it searched in two processes
        assert _gone(list(pids))
        assert table.agents[2].worker_pids() == []


def test_timed_shares_think_for_the_time_given() -> None:
    game = load_game(CONNECT_FOUR)
    agent = make_agent("mcts:seconds=0.5,workers=2", 1, game)
    state = game.new_state(2, 1)
    agent.search(game, state, 1)  # the workers start
    started = time.perf_counter()
    raw = agent.search(game, state, 1)
    took = time.perf_counter() - started
    agent.close()
    assert raw in game.raw_options(state, 1)
    assert agent.last_playouts > 0
    assert 0.5 <= took < 5.0  # both shares think for the time, side by side
