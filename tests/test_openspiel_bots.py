"""OpenSpiel's bots on the adapter: `resample_from_infostate` (positions drawn from what
a seat knows, for OpenSpiel's information-set MCTS), `max_game_length` (a true bound
where the ruleset gives one) and the compact action encoding of open tables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from adapter_support import random_position  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interpreter.adapters import openspiel as adapter  # noqa: E402
from interpreter.adapters.encoding import EncodingError  # noqa: E402
from interpreter.agents.information import known_log  # noqa: E402
from interpreter.errors import RuleError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SECRETS = [("bottoms-up", 4, {}), ("aquarium", 3, {}), ("aquarius-rising", 2, {}),
           ("high-rise", 2, {}), ("kuhn-poker", 2, {}),
           ("liars-dice", 2, {}), ("goofspiel", 2, {}), ("perudo", 3, {})]
"""Games with something hidden from some seat (a secret colour, a hand, a deck, covered
dice, others' simultaneous picks)."""


class Numbers:
    """A probability sampler as OpenSpiel passes one: each call, the next number."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self) -> float:
        return float(self.rng.random())


def _chance(rng: Any, *states: Any) -> None:
    """Carry out the chance nodes of `states` (twins: the same outcomes for each)."""
    while states[0].is_chance_node():
        outcomes = [o for o, _ in states[0].chance_outcomes()]
        outcome = int(rng.choice(outcomes))
        for state in states:
            state.apply_action(outcome)


def _positions(name: str, players: int, options: dict[str, Any]) -> list[Any]:
    """OpenSpiel states at a few depths of random games (not over)."""
    game = adapter.load(name, options, players=players)
    out = []
    for seed, depth in [(1, 1), (2, 2), (3, 5), (4, 12), (5, 30), (6, 70)]:
        engine = random_position(game.tabletop, players, seed, depth)
        if not engine.over:
            out.append(adapter.state_from_engine(game, engine))
    assert out
    return out


@pytest.mark.parametrize("config", SECRETS, ids=lambda c: f"{c[0]}-{c[1]}")
def test_a_resample_is_a_position_the_seat_cannot_tell_apart(config: tuple) -> None:
    """For every seat: the same information-state string (what OpenSpiel's ISMCTS
    asserts), observation string and tensors, and a position the rules go on from."""
    for state in _positions(*config):
        for player in range(state.num_players()):
            drawn = state.resample_from_infostate(player, Numbers(player))
            assert drawn.information_state_string(player) == \
                state.information_state_string(player)
            assert drawn.observation_string(player) == state.observation_string(player)
            assert drawn.information_state_tensor(player) == \
                state.information_state_tensor(player)
            assert drawn.current_player() == state.current_player()
            assert drawn.legal_actions() == state.legal_actions() or \
                drawn.current_player() != player
            assert drawn.legal_actions()
            assert drawn.guessed and drawn.clone().guessed
            assert drawn.child(drawn.legal_actions()[0]).guessed


@pytest.mark.parametrize("config", SECRETS, ids=lambda c: f"{c[0]}-{c[1]}")
def test_a_resample_draws_what_the_seat_cannot_see(config: tuple) -> None:
    """Two samplers give positions that differ (where the seat cannot see), and a
    resample depends only on what the seat knows: resampling a position the seat
    cannot tell from the true one, with the same numbers, draws the same position."""
    differ = 0
    for state in _positions(*config):
        player = state.current_player()
        one = state.resample_from_infostate(player, Numbers(1))
        two = state.resample_from_infostate(player, Numbers(2))
        differ += str(one) != str(two)
        again = one.resample_from_infostate(player, Numbers(7))
        assert str(again) == str(state.resample_from_infostate(player, Numbers(7)))
        assert str(again) != str(state) or str(one) == str(state)
    assert differ


@pytest.mark.parametrize("config", SECRETS[:4], ids=lambda c: f"{c[0]}-{c[1]}")
def test_a_resample_tells_no_seat_the_true_hidden_facts(config: tuple) -> None:
    """Its log is the log as the resampling seat may read it, so another seat's view of
    it never holds a line the resampling seat may not read, nor a decision (a secret
    pick) that seat may not read in the true game."""
    for state in _positions(*config):
        player = state.current_player()
        drawn = state.resample_from_infostate(player, Numbers(3))
        game = state.get_game().tabletop
        assert drawn.engine_state.log_entries() == \
            _entries(known_log(game, state.engine_state, player + 1))
        mine = _decisions(state.view(player)["log"])
        for other in range(state.num_players()):
            theirs = _decisions(drawn.view(other)["log"])
            true = _decisions(state.view(other)["log"])
            assert len(theirs) == len(mine) == len(true)
            for line, known, truly in zip(theirs, mine, true, strict=True):
                if known is None or truly is None:
                    assert line is None


def _decisions(log: list[dict[str, Any]]) -> list[str | None]:
    return [line["decision"] for line in log if "decision" in line]


def _entries(log: Any) -> list[Any]:
    out = []
    while log is not None:
        out.append(log[0])
        log = log[1]
    return out[::-1]


def test_a_guessed_position_the_rules_cannot_go_on_from_ends_with_no_winner() -> None:
    """Aquarium's view does not say which action cards each player still holds, so some
    guesses leave a player with no Phase II card: in a resampled state that ends the
    game with no winner (OpenSpiel's search cannot drop it); in the true game the same
    failure would be raised."""
    game = adapter.load("aquarium", players=2)
    rng = np.random.default_rng(0)
    ended = 0
    for seed in range(1, 40):
        state = adapter.state_from_engine(game, random_position(game.tabletop, 2, seed, 12))
        for k in range(6):
            drawn = state.resample_from_infostate(state.current_player(), Numbers(k))
            true_copy = adapter.state_from_engine(game, drawn.engine_state)
            moves = []
            while not drawn.is_terminal():
                action = int(rng.choice(drawn.legal_actions()))
                moves.append(action)
                drawn.apply_action(action)
            if drawn.engine_state.reason.startswith("a guessed position"):
                ended += 1
                assert drawn.returns() == [0.0, 0.0]
                with pytest.raises(RuleError):
                    for action in moves:
                        true_copy.apply_action(action)
        if ended >= 2:
            break
    assert ended >= 2


def test_openspiel_ismcts_bot_plays_a_game_with_secrets_to_the_end() -> None:
    """OpenSpiel's information-set MCTS (which asserts that every resample has its
    player's information state) plays player 0 of Aquarium against a random player to
    the end (three simulations a decision: the test is of the protocol, not of play)."""
    game = adapter.load("aquarium", players=2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=3,
                           random_state=np.random.RandomState(0))
    rng = np.random.default_rng(0)
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert searched > 5
    assert not getattr(state, "guessed", False)
    assert sum(state.returns()) == pytest.approx(0.0)
    assert not state.engine_state.reason.startswith("a guessed position")


# -- max_game_length: the ruleset's most_decisions ----------------------------------------
BOUNDED = [("tic-tac-toe", {}, 9), ("connect-four", {}, 42), ("hex", {"size": 4}, 16),
           ("nim", {}, 16), ("breakthrough", {}, 177), ("dots-and-boxes", {}, 12),
           ("kuhn-poker", {}, 3),
           ("goofspiel", {"cards": 6}, 10), ("liars-dice", {}, 13),
           ("high-rise", {}, 50), ("high-rise", {"rows": 3, "cols": 4}, 80),
           ("high-rise-numbered-slips", {}, 50), ("high-rise-black-white-covers", {}, 50),
           ("aquarius-rising", {}, 118), ("aquarius-rising", {"deck": "1.0"}, 115),
           ("aquarius-rising", {"clouds": True, "sky_high": True, "dragon": True}, 148)]
"""Rulesets that say how many decisions a game takes at most, with options, and that
number."""


@pytest.mark.parametrize("name, options, most", BOUNDED,
                         ids=[f"{n}-{'-'.join(map(str, o.values()))}" for n, o, _ in BOUNDED])
def test_max_game_length_is_the_rulesets_most_decisions_and_no_game_goes_past_it(
        name: str, options: dict[str, Any], most: int) -> None:
    """A true bound (OpenSpiel sizes buffers from it): 60 random games at each seat
    count stay within it."""
    game = adapter.load(name, options)
    tabletop = game.tabletop
    assert tabletop.most_decisions == most
    assert game.max_game_length() == most
    longest = 0
    for players in sorted({tabletop.min_seats, tabletop.max_seats}):
        for seed in range(60):
            engine = random_position(tabletop, players, seed, most + 1)
            assert engine.over
            longest = max(longest, engine.decisions)
    assert 0 < longest <= most


def test_without_most_decisions_max_game_length_is_the_decisions_budget() -> None:
    game = adapter.load("caldera")
    assert game.tabletop.most_decisions is None
    assert game.max_game_length() == game.tabletop.budgets.decisions_per_game == 100_000


def _ruleset_with(tmp_path: Any, bound: str) -> Any:
    text = (ROOT / "rulesets" / "tic-tac-toe.yaml").read_text()
    text = text.replace("most_decisions: 9", f"most_decisions: {bound}")
    path = tmp_path / "short-tic-tac-toe.yaml"
    path.write_text(text)
    return path


def test_a_game_past_most_decisions_stops_with_a_rules_error(tmp_path: Any) -> None:
    from interpreter.api import load_game

    game = load_game(str(_ruleset_with(tmp_path, "5")))
    assert game.most_decisions == 5 and game.decision_limit == 5
    with pytest.raises(RuleError) as caught:
        for seed in range(20):
            random_position(game, 2, seed, 9)
    message = str(caught.value)
    assert "went past 5 decisions, the most the ruleset says a game can take " \
           "(most_decisions)" in message
    assert "short-tic-tac-toe.yaml:" in message and "budgets" not in message


@pytest.mark.parametrize("bound, said", [
    ("fish", "unknown name 'fish'"),
    ("0", "most_decisions must be a whole number of at least 1"),
    ("200000", "more than the 100,000 of budgets.decisions_per_game"),
    ("count(pieces(board))", "most_decisions must be computable from the options alone")])
def test_a_bad_most_decisions_is_one_clear_error(tmp_path: Any, bound: str, said: str) -> None:
    result = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate",
                             str(_ruleset_with(tmp_path, bound))],
                            capture_output=True, text=True, cwd=ROOT, check=False)
    assert result.returncode == 1
    assert said in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "short-tic-tac-toe.yaml:" in result.stdout + result.stderr


def test_the_rulebook_says_most_decisions_in_the_exact_rules() -> None:
    from interpreter.docs.rulebook import build_rulebook
    from interpreter.load.loader import load_ruleset

    book = build_rulebook(load_ruleset(ROOT / "rulesets" / "tic-tac-toe.yaml"))
    assert "The decisions of a game, each choice of each player counting one, number at " \
           "most 9." in [str(e["exact"]) for e in book.end_rules]
    book = build_rulebook(load_ruleset(ROOT / "rulesets" / "hex.yaml"))
    said = str(book.end_rules[-1]["exact"])
    assert said == ("The decisions of a game, each choice of each player counting one, "
                    "number at most the board size times the board size (121 with the "
                    "default options).")


# -- compact action ids for open tables ------------------------------------------------------
def test_compact_ids_name_each_legal_option_of_a_position_once() -> None:
    """Over random games of Aquarius Rising (an open table of 6,889 squares): in every
    position, each legal option has its own compact id, which decodes (in that
    position) to its notation as the dense ids decode it; the ids are far fewer than
    the dense ones, and one id stands for different squares in different positions
    (the price)."""
    dense = adapter.load("aquarius-rising", players=2)
    game = adapter.load("aquarius-rising", {"actions": "compact"}, players=2)
    assert dense.num_distinct_actions() == 3_872_960
    assert game.num_distinct_actions() < dense.num_distinct_actions() / 4
    encoder = game.compiled.actions
    meanings: dict[int, set[str]] = {}
    for seed in range(3):
        state = game.new_initial_state()
        twin = dense.new_initial_state()
        rng = np.random.default_rng(seed)
        _chance(rng, state, twin)
        while not state.is_terminal():
            legal = state.legal_options()
            assert len(legal) == len(twin.legal_actions())
            assert sorted(o.notation for o in legal.values()) == \
                sorted(twin.action_to_string(a) for a in twin.legal_actions())
            for action, option in legal.items():
                assert 0 <= action < game.num_distinct_actions()
                written = encoder.dense.decode(encoder.dense.encode(option.notation))
                assert encoder.decode(action, state.engine_state) == written  # (`…`: computed)
                assert encoder.encode(option.notation, state.engine_state) == action
                assert state.action_to_string(action) == option.notation
                meanings.setdefault(action, set()).add(option.notation)
            action = int(rng.choice(list(legal)))
            twin.apply_action(twin.string_to_action(state.action_to_string(action)))
            state.apply_action(action)
            _chance(rng, state, twin)
        assert state.returns() == twin.returns()
    assert any(len(said) > 1 for said in meanings.values())


def test_compact_ids_pass_openspiels_checks_and_change_nothing_without_an_open_table(
        ) -> None:
    game = adapter.load("aquarius-rising", {"actions": "compact"}, players=3)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    closed = adapter.load("caldera", {"actions": "compact"})
    assert closed.num_distinct_actions() == adapter.load("caldera").num_distinct_actions()
    state = closed.new_initial_state()
    dense = adapter.load("caldera").new_initial_state()
    _chance(np.random.default_rng(0), state, dense)
    assert state.legal_actions() == dense.legal_actions()
    name = adapter.register("aquarius-rising")
    loaded = pyspiel.load_game(f"{name}(actions=compact,players=2)")
    assert loaded.num_distinct_actions() == game.num_distinct_actions()
    with pytest.raises(Exception, match="actions is dense or compact, not 'sparse'"):
        pyspiel.load_game(f"{name}(actions=sparse)")


def test_a_square_no_compact_id_can_name_is_refused(tmp_path: Any) -> None:
    """Tic-tac-toe on an open table where a mark may go anywhere: a square two away from
    every anchor has no compact id, and listing the actions says so (never drops it).
    On a small open table the dense ids are fewer, and kept."""
    text = (ROOT / "rulesets" / "tic-tac-toe.yaml").read_text()
    small = tmp_path / "small.yaml"
    small.write_text(text.replace("    rows: 3\n    cols: 3\n", "    reach: 2\n")
                     .replace("name: tic-tac-toe", "name: small-tic-tac-toe"))
    assert adapter.load(small, {"actions": "compact"}).num_distinct_actions() == \
        adapter.load(small).num_distinct_actions() == 28  # 25 squares, 2 supplies, nowhere
    text = text.replace("    rows: 3\n    cols: 3\n", "    reach: 12\n")
    text = text.replace("name: tic-tac-toe", "name: open-tic-tac-toe")
    text = text.replace("most_decisions: 9", "most_decisions: 25")
    path = tmp_path / "open-tic-tac-toe.yaml"
    path.write_text(text)
    game = adapter.load(path, {"actions": "compact"})
    assert game.num_distinct_actions() < adapter.load(path).num_distinct_actions()
    state = game.new_initial_state()  # (it draws nothing: no chance node)
    assert not state.is_chance_node()
    with pytest.raises(EncodingError, match="farther than 1 from every piece laid"):
        state.legal_actions()


def test_a_variant_replaces_most_decisions(tmp_path: Any) -> None:
    from interpreter.api import load_game

    path = tmp_path / "longer.yaml"
    path.write_text("tabletop: 1\nextends: tic-tac-toe\ngame:\n  name: tic-tac-toe-longer\n"
                    "  title: Tic-tac-toe, said longer\nmost_decisions: 12\n")
    game = load_game(str(path))
    assert (game.most_decisions, game.decision_limit) == (12, 12)
    assert load_game("tic-tac-toe").most_decisions == 9
