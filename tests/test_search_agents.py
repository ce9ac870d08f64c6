"""The searching players: mcts and ismcts play well, repeatably, and ismcts never uses
what its seat may not know."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from adapter_support import reshuffled

from interpreter.agents import check_agent, make_agent
from interpreter.agents.information import InformationSet
from interpreter.api import load_game
from interpreter.errors import UsageError
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.simulate.playout import agent_seed, decide, make_agents, play_game

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = str(ROOT / "benchmarks" / "rulesets" / "tic-tac-toe.yaml")
CONNECT_FOUR = str(ROOT / "benchmarks" / "rulesets" / "connect-four.yaml")


def _play(game: Game, state: State, moves: list[str]) -> State:
    for move in moves:
        game.apply_in_place(state, game.deciding_seats(state)[0], move)
    return state


def _random_position(game: Game, players: int, seed: int, decisions: int) -> State:
    state = game.new_state(players, seed)
    agents = make_agents(players, seed, "random")
    for _ in range(decisions):
        if state.over:
            break
        seat = game.deciding_seats(state)[0]
        decide(game, state, seat, agents[seat])
    return state


# -- settings ---------------------------------------------------------------------------------

def test_settings_are_checked_with_clear_messages() -> None:
    spec = check_agent("MCTS:playouts=50, seconds=0.5,depth=0,c=1.4")
    assert spec.name == "mcts"
    assert spec.settings == {"playouts": 50, "seconds": 0.5, "depth": 0, "c": 1.4}
    assert check_agent("mcts:judge=Score,lead=2").settings == {"judge": "score", "lead": 2.0}
    for text, words in [("mcts:playouts=0", "at least 1"),
                        ("mcts:playouts=lots", "whole number"),
                        ("mcts:seconds=nan", "finite"),
                        ("mcts:plays=4", "did you mean 'playouts'"),
                        ("mcts:playouts", "KEY=VALUE"),
                        ("mcts:", "nothing after"),
                        ("mcts:playouts=4,playouts=5", "twice"),
                        ("random:playouts=4", "takes no settings"),
                        ("mtcs", "did you mean 'mcts'"),
                        ("mcts:judge=scores",
                         "one of play, score, not 'scores'; did you mean 'score'"),
                        ("mcts:lead=0", "at least")]:
        with pytest.raises(UsageError, match=words):
            check_agent(text)


# -- mcts -------------------------------------------------------------------------------------

def test_mcts_takes_a_win_and_blocks_a_loss() -> None:
    game = load_game(CONNECT_FOUR)
    # X has three in column a: X plays a4 to win
    state = _play(game, game.new_state(2, 1), ["a1", "b1", "a2", "b2", "a3", "c1"])
    agent = make_agent("mcts:playouts=300", 3)
    assert game.notation_of(state, 1, agent.search(game, state, 1)) == "a4"
    # O must block X's three in a row on the bottom row (b1, c1, d1 with a1 taken by O)
    state = _play(game, game.new_state(2, 1), ["b1", "a1", "c1", "a2", "d1"])
    assert game.notation_of(state, 2, agent.search(game, state, 2)) == "e1"


def test_mcts_never_loses_tic_tac_toe_to_random() -> None:
    game = load_game(TIC_TAC_TOE)
    lost = 0
    for seed in range(12):
        seat = seed % 2 + 1
        agents = {s: make_agent("mcts:playouts=300" if s == seat else "random",
                                agent_seed(seed, s)) for s in (1, 2)}
        result = play_game(game, 2, seed, agents, keep_state=False)
        lost += result.winners == [3 - seat]
    assert lost == 0


def test_the_same_seed_gives_the_same_search_and_another_seed_another() -> None:
    game = load_game("caldera", {"power_play": "false"})
    state = _random_position(game, 2, 4, 30)
    seat = game.deciding_seats(state)[0]
    before = state.to_json()
    choices = {make_agent("mcts:playouts=60,depth=10", 11).search(game, state, seat)
               for _ in range(2)}
    assert len(choices) == 1  # reproducible
    assert state.to_json() == before  # the search leaves the game as it was
    picks = {make_agent("mcts:playouts=8,depth=4", s).search(game, state, seat)
             for s in range(12)}
    assert len(picks) > 1  # the seed matters


def test_mcts_does_not_foresee_the_dice() -> None:
    """The game's generator is drawn anew in every playout: the future's dice are as
    unknown to mcts as to a person, so the true generator state changes nothing."""
    game = load_game("high-rise")
    state = _random_position(game, 2, 8, 6)
    seat = game.deciding_seats(state)[0]
    other = state.copy()
    other.rng ^= 0x5DEECE66D
    a = make_agent("mcts:playouts=80", 5).search(game, state, seat)
    b = make_agent("mcts:playouts=80", 5).search(game, other, seat)
    assert a == b


def test_seconds_bound_the_thinking_time() -> None:
    import time

    game = load_game("caldera")
    state = _random_position(game, 2, 2, 10)
    seat = game.deciding_seats(state)[0]
    agent = make_agent("mcts:seconds=0.3,depth=10", 1)
    started = time.perf_counter()
    agent.search(game, state, seat)
    elapsed = time.perf_counter() - started
    assert agent.last_playouts > 1 and elapsed < 0.3 + 0.5


# -- grouped decisions ------------------------------------------------------------------------

def _by_column(tmp_path: Path) -> Game:
    """Tic-tac-toe whose option names a column first and then the square in it: two
    `for` values, so a search can group the options by column."""
    text = Path(TIC_TAC_TOE).read_text(encoding="utf-8")
    old = ('        for:\n          square: cells(board)\n        where: empty(square)\n'
           '        notation: "{place_name(square)}"')
    assert old in text
    path = tmp_path / "by-column.yaml"
    path.write_text(text.replace(old, (
        "        for:\n          column: \"['a', 'b', 'c']\"\n          square: cells(board)\n"
        "        where: empty(square) and place_name(square)[0] == column\n"
        '        notation: "{column}{place_name(square)[1]}"')), encoding="utf-8")
    return load_game(str(path))


def test_options_are_grouped_by_what_their_first_value_reads(tmp_path: Path) -> None:
    game = load_game("bottoms-up")
    state = _random_position(game, 5, 3, 10)
    seat = game.deciding_seats(state)[0]
    while game.decision(state).prompt.split(": ")[1] != (
            "take a piece from the stash and put it on a piece in play"):
        state = _random_position(game, 5, 3, state.decisions + 1)
        seat = game.deciding_seats(state)[0]
    raws = game.raw_options(state, seat)
    groups = {game.group_notation_of(state, seat, raw) for raw in raws}
    notations = [game.notation_of(state, seat, raw) for raw in raws]
    # "{piece_code(piece)}-{place_name(onto)}": grouped by the piece's code
    assert groups == {n.split("-")[0] for n in notations}
    assert 1 < len(groups) < len(raws)
    kinds = {k.id: k for spec in game.choices.values() for k in spec.kinds}
    assert kinds["place"].group is not None
    assert kinds["open_field"].group is None  # one `for` value: nothing to group by
    caldera = load_game("caldera")
    kinds = {k.id: k for spec in caldera.choices.values() for k in spec.kinds}
    assert kinds["cap_move"].group is not None  # "{place_name(origin)}-{dir}"
    by_column = _by_column(tmp_path)
    state = by_column.new_state(2, 1)
    assert [by_column.group_notation_of(state, 1, raw)
            for raw in by_column.raw_options(state, 1)] == list("aaabbbccc")


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_a_grouped_search_takes_a_win_and_never_loses_to_random(
        name: str, tmp_path: Path) -> None:
    """Searched a column first and then the square, tic-tac-toe is still never lost."""
    game = _by_column(tmp_path)
    spec = f"{name}:playouts=300,groups=1"
    # X has a1 and b1: c1 wins at once (and O threatens a3-c3 too)
    state = _play(game, game.new_state(2, 1), ["a1", "a3", "b1", "b3"])
    assert game.notation_of(state, 1, make_agent(spec, 3).search(game, state, 1)) == "c1"
    lost = 0
    for seed in range(8):
        seat = seed % 2 + 1
        agents = {s: make_agent(spec if s == seat else "random", agent_seed(seed, s))
                  for s in (1, 2)}
        lost += play_game(game, 2, seed, agents, keep_state=False).winners == [3 - seat]
    assert lost == 0


def test_grouping_changes_the_search_and_stays_repeatable() -> None:
    game = load_game("bottoms-up")
    state = _random_position(game, 6, 5, 14)
    seat = game.deciding_seats(state)[0]
    assert len(game.raw_options(state, seat)) > 40
    before = state.to_json()
    grouped = [make_agent("mcts:playouts=60,depth=6,groups=1", s).search(game, state, seat)
               for s in range(6)]
    assert grouped == [make_agent("mcts:playouts=60,depth=6,groups=1", s)
                       .search(game, state, seat) for s in range(6)]
    flat = [make_agent("mcts:playouts=60,depth=6,groups=0", s).search(game, state, seat)
            for s in range(6)]
    assert grouped != flat
    assert state.to_json() == before


@pytest.mark.parametrize("spec", ["mcts:playouts=200", "mcts:playouts=200,groups=1",
                                  "ismcts:playouts=200"])
def test_options_over_lists_are_searched(spec: str, tmp_path: Path) -> None:
    """An option's values may be lists, which Python cannot hash: the tree keys them
    all the same, and the search still finds the winning take."""
    minimal = (ROOT / "tests" / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")
    path = tmp_path / "lists.yaml"
    path.write_text(minimal.replace(
        'n: "[1, 2]"\n        where:',
        'pick: "[[1], [1, 1]]"\n        let:\n          n: count(pick)\n        where:'),
        encoding="utf-8")
    game = load_game(str(path))
    state = _play(game, game.new_state(2, 1), ["take1"])  # five left: take two, leave three
    seat = game.deciding_seats(state)[0]
    assert [game.notation_of(state, seat, r) for r in game.raw_options(state, seat)] == [
        "take1", "take2"]
    chosen = make_agent(spec, 4).search(game, state, seat)
    assert game.notation_of(state, seat, chosen) == "take2"
    assert chosen[1] == ([1, 1],)


# -- judging a position at once by the scores -------------------------------------------------

def _follow_up_position(game: Game, players: int) -> tuple[State, int]:
    """A position just before a seat's decision that is followed by another of its own
    (Bottoms Up: a blue piece placed, whose colour change the placer chooses)."""
    for seed in range(40):
        state = _random_position(game, players, seed, 0)
        agents = make_agents(players, seed, "random")
        while not state.over:
            seat = game.deciding_seats(state)[0]
            for raw in game.raw_options(state, seat):
                after = state.copy()
                game.apply_trusted(after, seat, raw)
                if not after.over and game.deciding_seats(after) == [seat]:
                    return after, seat
            decide(game, state, seat, agents[seat])
    raise AssertionError("no follow-up decision in 40 random games")


def test_judging_by_score_rates_each_seat_by_its_margin_over_the_best_other() -> None:
    game = load_game("bottoms-up")
    agent = make_agent("mcts:judge=score,lead=2", 1)
    seen_margins = set()
    for seed, depth in [(1, 30), (2, 60), (3, 90)]:
        state = _random_position(game, 5, seed, depth)
        scores = game.scores(state)
        assert scores is not None
        for s, value in enumerate(agent._judged(game, state), start=1):
            margin = scores[s] - max(v for t, v in scores.items() if t != s)
            seen_margins.add(margin)
            assert value == pytest.approx(0.5 + 0.5 * math.tanh(margin / 2))
    assert any(m > 0 for m in seen_margins) and any(m < 0 for m in seen_margins)


def test_judging_by_score_takes_the_movers_best_follow_up_first() -> None:
    """Each follow-up decision is taken for the best judgement of the position right
    after it, then the next, until another seat decides."""
    game = load_game("bottoms-up")
    agent = make_agent("mcts:judge=score", 1)
    state, seat = _follow_up_position(game, 4)
    before = state.to_json()
    position, taken = state, 0
    while not position.over and game.deciding_seats(position) == [seat]:
        afters = []
        for raw in game.raw_options(position, seat):
            after = position.copy()
            game.apply_trusted(after, seat, raw)
            afters.append(after)
        assert len(afters) > 1 or taken  # a real choice
        position = max(afters, key=lambda a: agent._judged(game, a)[seat - 1])
        taken += 1
    assert agent._judge(game, state.copy(), seat) == agent._judged(game, position)
    assert state.to_json() == before


def test_judging_by_score_is_repeatable_and_another_search() -> None:
    game = load_game("bottoms-up")
    state = _random_position(game, 6, 5, 40)
    seat = game.deciding_seats(state)[0]
    before = state.to_json()
    picks = [make_agent(f"mcts:playouts=200,judge={j}", s).search(game, state, seat)
             for j in ("score", "score", "play") for s in range(3)]
    assert picks[:3] == picks[3:6]  # the same seeds give the same choices
    assert picks[:3] != picks[6:]  # the judging decides the search
    assert state.to_json() == before


# -- ismcts -----------------------------------------------------------------------------------

HIDDEN_GAMES = [("bottoms-up", 4, {}), ("aquarium", 3, {}), ("aquarius-rising", 3, {})]


def _hidden_positions(name: str, players: int, options: dict[str, str]
                      ) -> list[tuple[Game, State, int]]:
    game = load_game(name, options)
    out = []
    for seed, depth in [(1, 12), (2, 40), (3, 80)]:
        state = _random_position(game, players, seed, depth)
        if not state.over:
            out.append((game, state, game.deciding_seats(state)[0]))
    return out


@pytest.mark.parametrize(("name", "players", "options"), HIDDEN_GAMES)
def test_ismcts_decides_alike_in_states_its_seat_cannot_tell_apart(
        name: str, players: int, options: dict[str, str]) -> None:
    for game, state, seat in _hidden_positions(name, players, options):
        changed = [reshuffled(game, state, seat, salt) for salt in (1, 2)]
        assert any(c.lists() != state.lists() or c.seat_vars != state.seat_vars
                   for c in changed)  # the test changes something
        seen = view(game, state, seat)
        for other in changed:
            theirs = view(game, other, seat)
            assert {k: v for k, v in theirs.items() if k != "log"} == {
                k: v for k, v in seen.items() if k != "log"}
        # each option alone, by its first value, and judged at once by the scores
        for setting in ("groups=0", "groups=1", "judge=score"):
            agent = f"ismcts:playouts=40,depth=20,{setting}"
            picks = {game.notation_of(s, seat, make_agent(agent, 9).search(game, s, seat))
                     for s in [state, *changed]}
            assert len(picks) == 1, (name, setting, picks)


@pytest.mark.parametrize(("name", "players", "options"), HIDDEN_GAMES)
def test_a_determinization_looks_the_same_to_its_seat_and_loses_nothing(
        name: str, players: int, options: dict[str, str]) -> None:
    for game, state, seat in _hidden_positions(name, players, options):
        info = InformationSet(game, state, seat)
        seen = {k: v for k, v in view(game, state, seat).items() if k != "log"}
        moved = 0
        for seed in range(5):
            sample = info.sample(seed)
            assert sorted(p for stack in sample.lists() for p in stack) == list(
                range(game.n_pieces))
            assert all(sample.loc[p] == site for site, stack in enumerate(sample.lists())
                       for p in stack)
            assert {k: v for k, v in view(game, sample, seat).items() if k != "log"} == seen
            assert sample.rng != state.rng
            moved += sample.lists() != state.lists()
            moved += sample.seat_vars != state.seat_vars
            json.dumps(sample.to_json())  # a valid, saveable state
        assert moved  # the hidden facts really are drawn anew


def test_others_secret_colours_are_drawn_without_repeating_the_seats_own() -> None:
    game = load_game("bottoms-up")
    state = _random_position(game, 4, 6, 20)
    seat = game.deciding_seats(state)[0]
    info = InformationSet(game, state, seat)
    mine = state.seat_vars["secret_colour"][seat - 1]
    drawn = set()
    for seed in range(30):
        colours = info.sample(seed).seat_vars["secret_colour"]
        assert colours[seat - 1] == mine and len(set(colours)) == 4
        drawn.add(tuple(colours))
    assert len(drawn) > 1


def test_ismcts_plays_as_well_as_mcts_where_nothing_is_hidden() -> None:
    """With nothing hidden a determinization is the position itself (its dice drawn
    anew): ismcts never loses tic-tac-toe to random either, and finds Connect Four's
    winning move."""
    game = load_game(TIC_TAC_TOE)
    for seed in range(8):
        seat = seed % 2 + 1
        agents = {s: make_agent("ismcts:playouts=300" if s == seat else "random",
                                agent_seed(seed, s)) for s in (1, 2)}
        assert play_game(game, 2, seed, agents, keep_state=False).winners != [3 - seat]
    game = load_game(CONNECT_FOUR)
    state = _play(game, game.new_state(2, 1), ["a1", "b1", "a2", "b2", "a3", "c1"])
    agent = make_agent("ismcts:playouts=300", 3)
    assert game.notation_of(state, 1, agent.search(game, state, 1)) == "a4"


# -- the command line -------------------------------------------------------------------------

def test_run_and_simulate_take_search_players() -> None:
    out = subprocess.run([sys.executable, "-m", "interpreter.cli", "run", TIC_TAC_TOE,
                          "--seed", "3", "--agent", "mcts:playouts=20", "--json"],
                         capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout)["log"]
    bad = subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", TIC_TAC_TOE,
                          "-n", "2", "--agent", "mcts:playouts=-1"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "playouts must be at least 1" in bad.stderr
    assert "Traceback" not in bad.stderr


# -- playing against a searching player ----------------------------------------------------

def test_play_shows_the_search_and_ctrl_c_while_it_thinks_saves_the_game(
        tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from interpreter.cli.play import PlaySession
    from interpreter.cli.play_command import build_agents
    from interpreter.simulate.record import SavedGame, read_save

    game = load_game("caldera")
    seats = {1: "human", 2: "mcts:playouts=200,depth=5"}
    state = game.new_state(2, 2)  # seed 2: the first option erupts, so Player 2 moves next
    agents = build_agents(game, seats, 2)
    searched = agents[2]._playout
    playouts = [0]

    def interrupted_midway(*args: object) -> None:  # a person's Ctrl-C, 100 playouts in
        playouts[0] += 1
        if playouts[0] > 100:
            raise KeyboardInterrupt
        searched(*args)

    agents[2]._playout = interrupted_midway  # type: ignore[method-assign]
    out = io.StringIO()
    save = tmp_path / "s.json"
    session = PlaySession(game, state, seats, agents, SavedGame.start(game, 2, 2, seats),
                          Console(file=out, width=100, force_terminal=True), lambda _: "1",
                          save_path=save, interactive=False, colour=False)
    assert session.run() == 1
    assert "Interrupted" in out.getvalue()
    saved = read_save(save)
    assert saved.decisions == [(1, saved.decisions[0][1])]  # nothing half-done is saved
    assert saved.seats[2] == "mcts:playouts=200,depth=5"  # resumable with its settings
    assert "/200 playouts" in out.getvalue()


def test_play_draws_a_progress_bar_while_a_computer_player_thinks() -> None:
    import io

    from rich.console import Console

    from interpreter.cli.play import PlaySession
    from interpreter.cli.play_command import build_agents
    from interpreter.simulate.record import SavedGame

    game = load_game(TIC_TAC_TOE)
    seats = {1: "mcts:playouts=300", 2: "random"}
    out = io.StringIO()
    session = PlaySession(game, game.new_state(2, 1), seats, build_agents(game, seats, 1),
                          SavedGame.start(game, 2, 1, seats),
                          Console(file=out, width=100, force_terminal=True), lambda _: "1",
                          interactive=False, colour=False)
    session.step()
    assert "Player 1 (mcts:playouts=300) is thinking" in out.getvalue()
    assert "/300 playouts" in out.getvalue()
    assert session.agents[1].progress is None  # the bar is gone with the decision


def test_seats_take_search_players_with_settings() -> None:
    from interpreter.cli.options import parse_seats

    seats = parse_seats(["2=MCTS:playouts=50, depth=0"], 2)
    assert seats == {1: "human", 2: "mcts:playouts=50,depth=0"}
    with pytest.raises(UsageError, match="--seat 2=mcts:playout=5: agent 'mcts' has no "
                                         "setting 'playout'"):
        parse_seats(["2=mcts:playout=5"], 2)


def test_a_playout_is_ranked_on_the_tie_breaks_it_needs_alone() -> None:
    """At the end of each playout a searching player compares the seats' ranking keys;
    a tie-break is computed only for seats still tied on every key before it, and every
    comparison (and the best) comes out as with all the keys, for fewer steps."""
    from interpreter.agents.search import _ranked

    game = load_game("aquarius-rising", {})
    saved, extended, cut = 0, 0, 0
    for seed in (1, 2):
        state, randoms = game.new_state(5, seed), make_agents(5, seed)
        number = 0
        while not state.over:
            number += 1
            if number % 4 == 0:
                full_env, env = game.env(state.copy()), game.env(state.copy())
                full, keys = game.rank_keys_of(full_env), game.rank_keys_compared(env)
                for s in full:
                    assert keys[s] == full[s][:len(keys[s])]
                    for t in full:
                        assert (keys[s] < keys[t]) == (full[s] < full[t])
                        assert (keys[s] == keys[t]) == (full[s] == full[t])
                    extended += len(keys[s]) > 1
                    cut += len(keys[s]) < len(full[s])
                assert [s for s in keys if keys[s] == max(keys.values())] == [
                    s for s in full if full[s] == max(full.values())]
                assert env.steps <= full_env.steps
                saved += full_env.steps - env.steps
                assert _ranked(game, state.copy()) == _ranked_by(full)
            decide(game, state, game.deciding_seats(state)[0],
                   randoms[game.deciding_seats(state)[0]], words=False)
    assert extended and cut and saved > 0


def _ranked_by(keys: dict[int, tuple]) -> list[float]:
    """search._ranked's shares, from all the keys."""
    n = len(keys)
    return [0.25 + 0.5 * sum(1.0 if keys[s] > keys[t] else 0.5 if keys[s] == keys[t]
                             else 0.0 for t in keys if t != s) / (n - 1) for s in keys]
