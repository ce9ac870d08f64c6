"""The OpenSpiel adapter: every bundled game passes OpenSpiel's own random-simulation
checks, action ids are the notations' and stable, observations come from the seat's
view alone, and OpenSpiel's MCTS bot plays a game against our random player."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from adapter_support import (  # noqa: E402
    HIDDEN,
    bundled_configs,
    config_id,
    hidden_pairs,
    random_position,
)
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from interpreter.adapters import openspiel as adapter  # noqa: E402
from interpreter.adapters.encoding import ActionEncoder, EncodingError  # noqa: E402
from interpreter.agents.base import OptionChoice  # noqa: E402
from interpreter.agents.random_agent import RandomAgent  # noqa: E402
from interpreter.api import load_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [*bundled_configs(flipped=False),
           ("caldera", 2, {"power_play": False}), ("caldera-two-trios", 3, {"power_play": True}),
           ("high-rise", 2, {"covered_hidden": True})]
"""Every bundled game at its fewest and most seats, and a few options the other way
(the PettingZoo tests turn every yes/no option)."""


def _load(name: str, players: int, options: dict[str, Any], seed: int = 0) -> Any:
    return adapter.load(name, options, players=players, seed=seed)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_simulation_checks_pass(config: tuple[str, int, dict]) -> None:
    """OpenSpiel's own checks over a whole random game: legal actions sorted, unique
    action strings, clones equal, observations of the declared sizes and finite,
    returns within bounds and summing to 0, the game no longer than declared.
    (`serialize=False`: pyspiel gives Python games no hook for the game's random state,
    which its game-and-state serialization needs for any sampled-stochastic game; the
    state's own serialization is tested below.)"""
    game = _load(*config)
    assert game.num_players() == config[1]
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_games_are_registered_with_their_options_seats_and_seed() -> None:
    names = adapter.register_bundled()
    assert "tabletop_high_rise" in names and "tabletop_caldera_two_trios" in names
    game = pyspiel.load_game("tabletop_caldera(players=3,power_play=False,seed=5)")
    assert game.num_players() == 3 and game.tabletop.options == {"power_play": False}
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("tabletop_high_rise").get_type().information == (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION)  # its dice are hidden
    # a choice whose values read as numbers still loads from the game's name
    aquarius = adapter.load("aquarius-rising", {"deck": "1.0"}, players=3)
    assert pyspiel.load_game(str(aquarius)).tabletop.options["deck"] == "1.0"
    # the k-th game dealt is the engine's game with seed `seed + k`
    dealt = []
    for _ in range(2):
        state = game.new_initial_state()
        assert state.is_chance_node() and state.chance_outcomes() == [(0, 1.0)]
        state.apply_action(0)
        dealt.append(state.engine_state.to_json())
    assert dealt == [game.tabletop.new_state(3, seed).to_json() for seed in (5, 6)]
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("tabletop_high_rise(players=3)")


def _played(game: Any, moves: int, seed: int = 0) -> Any:
    rnd = np.random.RandomState(seed)
    state = game.new_initial_state()
    state.apply_action(0)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rnd.choice(state.legal_actions()))
    return state


def test_action_strings_are_the_notations_and_ids_are_fixed() -> None:
    game = _load("caldera", 3, {})
    state = _played(game, 12)
    options = state.legal_options()
    actions = state.legal_actions()
    assert actions == sorted(options) and len(actions) == len(options)
    engine = game.tabletop
    seat = state.current_player() + 1
    assert {o.notation for o in options.values()} == {
        o.notation for o in engine.legal_options(state.engine_state, seat)}
    for action, option in options.items():
        assert state.action_to_string(action) == option.notation
        assert state.string_to_action(option.notation) == action
        assert game.actions.encode(option.notation) == action
        assert game.actions.decode(action) == option.notation
    assert min(actions) >= 0 and max(actions) < game.num_distinct_actions()


def test_action_ids_are_the_same_in_another_process() -> None:
    game = load_game("aquarius-rising")
    notations = {"k2 0,-1 tl", "WWAA 3,-4 r ^2"}
    for seed in (1, 2):
        position = random_position(game, 2, seed, 10 + seed)
        seat = game.deciding_seats(position)[0]
        notations |= {o.notation for o in game.legal_options(position, seat)}
    here = ActionEncoder(game)
    script = ("import json, sys\nfrom interpreter.api import load_game\n"
              "from interpreter.adapters.encoding import ActionEncoder\n"
              "e = ActionEncoder(load_game('aquarius-rising'))\n"
              "print(json.dumps([e.encode(n) for n in json.load(sys.stdin)]))\n")
    ordered = sorted(notations)
    out = subprocess.run([sys.executable, "-c", script], input=json.dumps(ordered),
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout) == [here.encode(n) for n in ordered]
    # a part computed from the position (the story) takes no part in the id
    assert here.encode("WWAA 3,-4 r ^2") == here.encode("WWAA 3,-4 r ^3")
    assert here.decode(here.encode("WWAA 3,-4 r ^2")) == "WWAA 3,-4 r ^…"
    with pytest.raises(EncodingError):
        here.encode("not a move")


NIM = """
tabletop: 1
game:
  name: take-some
  title: Take Some
  designer: Test
  seats: {min: 2, max: 2}
  summary: Take one to three stones; whoever takes the last wins.
pieces:
  attributes:
    kind: {values: [stone]}
  sets:
    - {id: stones, count: 7, each: {kind: [stone]}, start: heap}
zones:
  - {id: heap, kind: pile}
  - {id: taken, kind: pile}
turn:
  - choose: "take"
    options:
      - id: take
        for:
          n: "%s"
        where: n <= count(pieces(heap))
        notation: "take-{n}"
        do:
          - move: first(pieces(heap))
            to: taken
end:
  - id: last
    when: count(pieces(heap)) == 0
    winners: "[current]"
"""


@pytest.mark.parametrize(("source", "listed"), [("[1, 2, 3]", True), ("range(1, 4)", True),
                                                ("range(1, 1 + count(pieces(heap)))", False)])
def test_a_part_that_cannot_be_listed_is_refused_not_merged(
        tmp_path: Path, source: str, listed: bool) -> None:
    path = tmp_path / "take-some.yaml"
    path.write_text(NIM % source, encoding="utf-8")
    encoder = ActionEncoder(load_game(str(path)))
    state = load_game(str(path)).new_state(2, 0)
    if listed:
        assert encoder.num_actions == 3
        assert [o.notation for o in encoder.legal(state, 1).values()] == [
            "take-1", "take-2", "take-3"]
    else:
        assert encoder.num_actions == 1
        with pytest.raises(EncodingError, match="cannot tell them apart"):
            encoder.legal(state, 1)


def test_states_clone_save_and_load_exactly() -> None:
    game = _load("aquarium", 3, {}, seed=4)
    state = _played(game, 40)
    # (pickle and serialize_game_and_state save the game's random state too, which
    # pyspiel lets no Python game give: a state is saved on its own)
    again = game.deserialize_state(state.serialize())
    for other in (again, state.clone()):
        assert str(other) == str(state) and other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
        for p in range(3):
            assert other.information_state_string(p) == state.information_state_string(p)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert str(clone) != str(state) and str(again) == str(state)  # clones are independent


@pytest.mark.parametrize(("name", "players", "options"), HIDDEN)
def test_observations_read_only_what_the_seat_may_see(
        name: str, players: int, options: dict[str, Any]) -> None:
    game = _load(name, players, options)
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    for _, state, changed, seat in hidden_pairs(name, players, options):
        a = adapter.state_from_engine(game, state)
        b = adapter.state_from_engine(game, changed)
        p = seat - 1
        assert a.observation_tensor(p) == b.observation_tensor(p)
        assert a.information_state_tensor(p) == b.information_state_tensor(p)
        assert a.observation_string(p) == b.observation_string(p)
        assert a.information_state_string(p) == b.information_state_string(p)
        public.set_from(a, p)
        seen = public.tensor.copy()
        public.set_from(b, p)
        assert (public.tensor == seen).all()
        assert public.string_from(a, p) == public.string_from(b, p)


def test_returns_come_from_the_result() -> None:
    for name, players in [("high-rise", 2), ("bottoms-up", 6), ("caldera", 3)]:
        game = _load(name, players, {})
        state = _played(game, 10_000)
        assert state.is_terminal()
        result = state.returns()
        winners = state.engine_state.winners or []
        assert abs(sum(result)) < 1e-9 and all(-1 <= r <= 1 for r in result)
        if winners:
            assert all(result[w - 1] == max(result) for w in winners)
        if players == 2 and len(winners) == 1:
            assert result[winners[0] - 1] == 1.0 and result[2 - winners[0]] == -1.0


def test_openspiel_mcts_plays_a_game_against_our_random_player() -> None:
    game = _load("high-rise", 2, {}, seed=3)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(1))
    ours = RandomAgent(3)
    state = game.new_initial_state()
    state.apply_action(0)
    while not state.is_terminal():
        player = state.current_player()
        if player == 0:
            action = bot.step(state)
        else:
            options = state.legal_options()
            pick = ours.choose(lambda p=player: state.view(p),
                               [OptionChoice(o.notation, o.label, o.kind)
                                for o in options.values()])
            action = list(options)[pick]
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
