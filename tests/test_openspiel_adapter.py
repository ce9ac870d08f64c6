"""The OpenSpiel adapter: every bundled game passes OpenSpiel's own random-simulation
checks (saving and loading on the way), draws are explicit chance nodes and games that
draw nothing are deterministic, a state is a function of its history, games and states
pickle, action ids are the notations' and stable, observations come from the seat's
view alone, and OpenSpiel's MCTS bot plays a game against our random player."""

from __future__ import annotations

import dataclasses
import json
import pickle
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
from open_spiel.python.algorithms.minimax import (  # noqa: E402
    alpha_beta_search,
    expectiminimax,
)
from open_spiel.python.observation import make_observation  # noqa: E402

from interpreter.adapters import openspiel as adapter  # noqa: E402
from interpreter.adapters.encoding import ActionEncoder, EncodingError  # noqa: E402
from interpreter.agents.base import OptionChoice  # noqa: E402
from interpreter.agents.random_agent import RandomAgent  # noqa: E402
from interpreter.api import load_game  # noqa: E402
from interpreter.load.catalog import bundled_names  # noqa: E402
from interpreter.run.rng import ChanceNeeded, Scripted  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [*bundled_configs(flipped=False),
           ("caldera", 2, {"power_play": False}), ("caldera-two-trios", 3, {"power_play": True}),
           ("high-rise", 2, {"covered_hidden": True})]
"""Every bundled game at its fewest and most seats, and a few options the other way
(the PettingZoo tests turn every yes/no option)."""


def _load(name: str, players: int, options: dict[str, Any]) -> Any:
    return adapter.load(name, options, players=players)


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_openspiel_random_simulation_checks_pass(config: tuple[str, int, dict]) -> None:
    """OpenSpiel's own checks over a whole random game: legal actions sorted, unique
    action strings, clones equal, chance outcomes summing to 1, observations of the
    declared sizes and finite, returns within bounds and summing to 0, the game no
    longer than declared, and `serialize_game_and_state` round-tripping the state."""
    game = _load(*config)
    assert game.num_players() == config[1]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_openspiels_games_sim_test_passes_with_pickling() -> None:
    """OpenSpiel's own `GamesSimTest.sim_game` on every bundled game: the game, its
    type and states (every power of two actions) pickled and round-tripped through
    `serialize_game_and_state`, clones applied alongside."""
    from open_spiel.python.tests.games_sim_test import GamesSimTest

    checks = GamesSimTest()
    np.random.seed(0)  # (sim_game draws from numpy's global generator)
    for name in bundled_names():
        checks.sim_game(pyspiel.load_game(adapter.openspiel_name(name)))


def test_importing_the_adapter_registers_every_bundled_game() -> None:
    """As OpenSpiel's own Python games: importing the module is enough to load one by
    name (a fresh process, nothing else called)."""
    script = ("import pyspiel\nimport interpreter.adapters.openspiel\n"
              "print(pyspiel.load_game('tabletop_high_rise').num_players())\n"
              "print(sorted(g.short_name for g in pyspiel.registered_games()\n"
              "             if g.short_name.startswith('tabletop_')))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.splitlines()
    assert out[0] == "2"
    assert out[1] == repr(sorted(adapter.openspiel_name(n) for n in bundled_names()))
    # so a game and a state pickled here load in another process
    game = pyspiel.load_game("tabletop_pig")
    state = _replayed(game, _random_history(game, 4, moves=9))
    script = ("import pickle, sys\ngame, state = pickle.load(sys.stdin.buffer)\n"
              "print(game, state.history())\n")
    out = subprocess.run([sys.executable, "-c", script], input=pickle.dumps((game, state)),
                         capture_output=True, check=True, cwd=ROOT).stdout.decode()
    assert out.strip() == f"{game} {state.history()}"


def test_games_are_registered_with_their_options_and_seats() -> None:
    assert adapter.register_bundled() == [adapter.openspiel_name(n) for n in bundled_names()]
    game = pyspiel.load_game("tabletop_caldera(players=3,power_play=False)")
    assert game.num_players() == 3 and game.tabletop.options == {"power_play": False}
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("tabletop_high_rise").get_type().information == (
        pyspiel.GameType.Information.IMPERFECT_INFORMATION)  # its dice are hidden
    # a choice whose values read as numbers still loads from the game's name
    aquarius = adapter.load("aquarius-rising", {"deck": "1.0"}, players=3)
    assert pyspiel.load_game(str(aquarius)).tabletop.options["deck"] == "1.0"


def test_the_registered_type_is_the_compiled_games() -> None:
    """The game type is read from the ruleset without compiling it (registration on
    import); it says what the compiled game says: who may be kept from knowing what,
    and whether anything is drawn at random."""
    for name in bundled_names():
        registered = next(t for t in pyspiel.registered_games()
                          if t.short_name == adapter.openspiel_name(name))
        game = pyspiel.load_game(registered.short_name)
        tabletop = game.tabletop
        hides = (any(z.contents != "everyone" or z.count != "everyone"
                     or z.conceal is not None for z in tabletop.zones.values())
                 or any(v.visible_to != "everyone" for v in tabletop.variables.values())
                 or any(spec.secret for spec in tabletop.choices.values()))
        assert (registered.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
                ) == hides, name
        assert registered.chance_mode == game.get_type().chance_mode, name
        assert registered.parameter_specification == game.get_type().parameter_specification


@pytest.mark.parametrize("players", [1, 3, 0])
def test_a_bad_player_count_is_openspiels_error(players: Any) -> None:
    with pytest.raises(pyspiel.SpielError, match="takes 2 to 2 players"):
        pyspiel.load_game("tabletop_high_rise", {"players": players})
    with pytest.raises(pyspiel.SpielError, match=r"(?i)unknown parameter"):
        pyspiel.load_game("tabletop_high_rise(seed=3)")


DETERMINISTIC = ["breakthrough", "connect-four", "dots-and-boxes", "hex", "nim", "oware",
                 "tic-tac-toe"]


def test_games_that_draw_nothing_are_deterministic() -> None:
    for name in bundled_names():
        game = _load(name, load_game(name).min_seats, {})
        deterministic = game.get_type().chance_mode == (
            pyspiel.GameType.ChanceMode.DETERMINISTIC)
        assert deterministic == (name in DETERMINISTIC), name
        assert (game.max_chance_outcomes() == 0) == deterministic, name
        assert not game.new_initial_state().is_chance_node()  or not deterministic


def test_a_game_read_as_drawing_nothing_that_draws_stops_clearly(tmp_path: Path) -> None:
    """Were the ruleset misread as drawing nothing, its first draw stops with a clear
    error: it never comes silently from a hidden seed."""
    path = tmp_path / "dice-duel.yaml"
    path.write_text((DICE_DUEL % "6").replace("name: dice-duel", "name: misread-duel"),
                    encoding="utf-8")
    game = adapter.load(str(path))
    facts = type(game)._facts
    type(game)._facts = dataclasses.replace(facts, draws=())
    try:
        misread = adapter.load(str(path))
        assert misread.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        state = misread.new_initial_state()
        with pytest.raises(RuntimeError, match="drew at random, though"):
            state.apply_action(state.string_to_action("roll"))
    finally:
        type(game)._facts = facts


def test_alpha_beta_solves_tic_tac_toe_a_draw() -> None:
    game = pyspiel.load_game("tabletop_tic_tac_toe")
    value, _ = alpha_beta_search(game)
    assert value == 0.0


DICE_DUEL = """
tabletop: 1
game:
  name: dice-duel
  title: Dice Duel
  designer: Test
  seats: {min: 2, max: 2}
  summary: The first player rolls a die or takes 3; the second rolls a die; the higher wins.
pieces:
  attributes:
    kind: {values: [die]}
  sets:
    - {id: die, count: 1, each: {kind: [die]}, start: table}
zones:
  - {id: table, kind: pile}
variables:
  - {id: mine, initial: 0}
  - {id: yours, initial: 0}
turn:
  - if: current == 1
    then:
      - choose: "Roll a die, or take 3?"
        options:
          - id: roll
            notation: roll
            do:
              - set: mine
                value: roll(6)
          - id: take
            notation: take
            do:
              - set: mine
                value: 3
    else:
      - set: yours
        value: roll(%s)
end:
  - id: done
    when: yours > 0
    winners: "[1] if mine > yours else [2] if yours > mine else []"
"""


def test_expectiminimax_reads_the_exact_chance_of_a_dice_game(tmp_path: Path) -> None:
    """Taking 3 against a die: wins on 1 or 2, draws on 3, loses on 4 to 6, a return
    of −1/6; rolling too is a fair duel (0): expectiminimax prefers rolling."""
    path = tmp_path / "dice-duel.yaml"
    path.write_text(DICE_DUEL % "6", encoding="utf-8")
    game = adapter.load(str(path))
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 6
    state = game.new_initial_state()
    actions = {state.action_to_string(a): a for a in state.legal_actions()}
    take = state.child(actions["take"])
    assert take.is_chance_node()
    assert take.chance_outcomes() == [(o, pytest.approx(1 / 6)) for o in range(6)]
    value = expectiminimax(take, 5, None, 0)[0]
    assert value == pytest.approx(-1 / 6)
    value, best = expectiminimax(state, 5, None, 0)
    assert value == pytest.approx(0.0) and best == actions["roll"]


def test_a_draw_larger_than_the_bound_is_made_of_smaller_ones(tmp_path: Path) -> None:
    """`roll(sides)` with sides unknown to the compiler: chance nodes of at most
    `max_chance_outcomes` (256), a die of 1,000 sides drawn as two digits, each of its
    outcomes as likely (the pairs past 65,000 are drawn again)."""
    path = tmp_path / "dice-duel.yaml"
    path.write_text(DICE_DUEL.replace("name: dice-duel", "name: big-duel") % "sides",
                    encoding="utf-8")
    text = path.read_text(encoding="utf-8").replace(
        "variables:\n", "variables:\n  - {id: sides, initial: 1000}\n")
    path.write_text(text, encoding="utf-8")
    game = adapter.load(str(path))
    assert game.max_chance_outcomes() == 256
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("take"))
    sizes = []
    while state.is_chance_node():
        sizes.append(len(state.chance_outcomes()))
        state.apply_action(1)
    assert state.is_terminal() and sizes == [256, 256]  # 256 * 1 + 1: a roll of 258
    assert state.engine_state.vars["yours"] == 258
    counts = [0] * 1000
    for x in range(256 ** 2):
        try:
            counts[Scripted((x // 256, x % 256), 0, 256).below(1000)[1]] += 1
        except ChanceNeeded:
            assert x >= 65_000  # drawn again
    assert set(counts) == {65}


def test_deals_draw_each_place_or_one_generator_state() -> None:
    """A deal without a condition (High Rise's numbered slips) draws each place's value
    as one chance node of the values left; a deal under a condition (Caldera's nest
    colours, dealt again thousands of times) draws one 64-bit generator state, eight
    chance nodes of 256, and deals from it: its layout keeps the condition."""
    slips = pyspiel.load_game("tabletop_high_rise_numbered_slips")
    state = slips.new_initial_state()
    sizes = []
    while state.is_chance_node():
        sizes.append(len(state.chance_outcomes()))
        state.apply_action(0)
    # nine squares dealt (the last has one value left: no node), then who starts
    assert sizes == [9, 8, 7, 6, 5, 4, 3, 2, 2]
    caldera = pyspiel.load_game("tabletop_caldera")
    for outcome in (0, 255):
        state = caldera.new_initial_state()
        sizes = []
        while state.is_chance_node():
            sizes.append(len(state.chance_outcomes()))
            state.apply_action(outcome)
        assert sizes == [256] * 8
        game, engine = caldera.tabletop, state.engine_state
        colour = {site: game.attributes["colour"][engine.sites[site][0]]
                  for site in range(engine.places) if game.site_zone[site].id == "board"
                  and len(engine.sites[site]) >= 3}  # (a red nest has a cap on top)
        assert len(colour) == 24
        for site, c in colour.items():
            for d in ("n", "e", "s", "w"):
                other = game.offset(site, d)
                assert other not in colour or colour[other] != c


def _random_history(game: Any, seed: int, moves: int = 10_000) -> list[int]:
    """The actions of one random game (chance by its probabilities), and the largest
    chance node met."""
    rnd = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert len(outcomes) <= game.max_chance_outcomes()
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(int(rnd.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rnd.choice(state.legal_actions())))
    return state.history()


def _replayed(game: Any, history: list[int]) -> Any:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", bundled_names())
def test_a_state_is_a_function_of_its_history_and_pickles(name: str) -> None:
    """Two fresh states given the same actions are the same state, whatever else was
    played before; a game and its states (at a decision, at a chance node) pickle and
    round-trip through `serialize_game_and_state`; no draw asks more outcomes than the
    game's bound (over whole games too: `random_sim_test`'s mask check at every chance
    node)."""
    game = _load(name, load_game(name).min_seats, {})
    history = _random_history(game, 1, moves=60)
    _random_history(game, 2, moves=60)  # (another game in between changes nothing)
    a, b = _replayed(game, history), _replayed(game, history)
    assert str(a) == str(b) and a.serialize() == b.serialize()
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_type() == game.get_type()
    states = [a]
    walk = game.new_initial_state()
    for action in history:  # (the last chance node on the way, if any)
        if walk.is_chance_node():
            states[1:] = [walk.clone()]
        walk.apply_action(action)
    for state in states:
        for copy in (pickle.loads(pickle.dumps(state)),
                     pyspiel.deserialize_game_and_state(
                         pyspiel.serialize_game_and_state(game, state))[1]):
            assert str(copy) == str(state) and copy.history() == state.history()
            assert copy.is_chance_node() == state.is_chance_node()
            assert copy.legal_actions() == state.legal_actions()
            if not state.is_terminal():
                action = state.legal_actions()[0]
                assert str(copy.child(action)) == str(state.child(action))


def _played(game: Any, moves: int, seed: int = 0) -> Any:
    return _replayed(game, _random_history(game, seed, moves))


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
    game = _load("aquarium", 3, {})
    state = _played(game, 40)
    again = game.deserialize_state(state.serialize())
    for other in (again, state.clone(), pickle.loads(pickle.dumps(state))):
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
    game = _load("high-rise", 2, {})
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(1))
    ours = RandomAgent(3)
    state = game.new_initial_state()
    rnd = np.random.RandomState(3)
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            action = int(rnd.choice([o for o, _ in state.chance_outcomes()]))
        elif player == 0:
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
