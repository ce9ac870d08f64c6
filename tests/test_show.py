"""A private reveal (`show`): the seats shown a piece see its face, in their view and
their log, until it moves; every other seat learns nothing (its view and log are the
same whichever piece it was), and so do the computer players and adapters that read
views. Scenario tests check what one seat's log says (`log_of`, `log_hides`)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from rich.console import Console
from test_hidden_information import dump
from through_play import sweep

from interpreter.adapters.encoding import ActionEncoder, ObservationEncoder
from interpreter.agents.information import InformationSet
from interpreter.api import load_game
from interpreter.assemble.describer import describer_for
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.scenarios.runner import run_scenario_files
from interpreter.view.render import render_view

RULESETS = Path(__file__).resolve().parent / "rulesets"


@cache
def peek() -> Game:
    return load_game(str(RULESETS / "peek.yaml"))


def top_of_hand(game: Game, state: State, seat: int) -> int:
    return state.sites[game.zones["hand"].site_for(seat)][-1]


def swapped(game: Game, state: State, a: int, b: int) -> State:
    """The same position with two pieces exchanged (surgery, for a world 'Y')."""
    other = state.copy()
    sa, sb = other.loc[a], other.loc[b]
    ia, ib = other.sites[sa].index(a), other.sites[sb].index(b)
    other.stack(sa)[ia], other.stack(sb)[ib] = b, a
    other.loc[a], other.loc[b] = sb, sa
    return other


def worlds() -> tuple[State, State]:
    """Two positions that differ in the top card of player 2's hand (X, or Y from the
    deck), each after player 1 looked at it."""
    game = peek()
    x = game.new_state(3, 4)
    y = swapped(game, x, top_of_hand(game, x, 2), x.sites[game.zones["deck"].first][0])
    for state in (x, y):
        game.apply_in_place(state, 1, "look2")
    return x, y


def test_the_shown_seat_sees_the_face_in_its_view_and_log() -> None:
    game = peek()
    x, _ = worlds()
    card = top_of_hand(game, x, 2)
    name = game.piece_names[card]
    seen = view(game, x, 1)
    assert seen["zones"]["hand"]["2"]["shown"] == [
        {a: game.attributes[a][card] for a in game.attribute_order}]
    assert seen["zones"]["hand"]["2"]["backs"] == {"Card": 2}  # not where in the hand
    assert {"say": f"Shown to Player 1: {name}"} in seen["log"]
    assert {"say": f"Player 1 sees {name}"} in seen["log"]  # `say ... to` is readable now
    console = Console(width=120, record=True)
    console.print(render_view(game, seen, colour=False))
    assert f"shown to you: {name}" in console.export_text()


def test_a_seat_not_shown_learns_nothing() -> None:
    game = peek()
    x, y = worlds()
    assert top_of_hand(game, x, 2) != top_of_hand(game, y, 2)
    assert dump(view(game, x, 1)) != dump(view(game, y, 1))  # the looker tells them apart
    assert dump(view(game, x, 3)) == dump(view(game, y, 3))
    assert "shown" not in json.dumps(view(game, x, 3)["zones"])
    encoder = ObservationEncoder(game, ActionEncoder(game))
    assert encoder.observation(view(game, x, 3)) == encoder.observation(view(game, y, 3))
    assert encoder.observation(view(game, x, 1)) != encoder.observation(view(game, y, 1))
    # the computer player's positions drawn for seat 3: the same in both worlds
    for seed in range(5):
        a, b = (InformationSet(game, s, 3).sample(seed) for s in (x, y))
        data_a, data_b = a.to_json(), b.to_json()
        del data_a["steps"], data_b["steps"]  # (the rules' work: the surgery made them)
        assert data_a == data_b
        # the card shown to player 1 is, in the drawn position, the one dealt there
        assert a.shown == {top_of_hand(game, a, 2): (1,)}
        assert view(game, a, 3)["zones"] == view(game, x, 3)["zones"]
        # and for seat 1, the card it saw stays where it is
        assert top_of_hand(game, InformationSet(game, x, 1).sample(seed), 2) == \
            top_of_hand(game, x, 2)


def test_moving_the_piece_ends_the_reveal_and_states_keep_it() -> None:
    game = peek()
    x, _ = worlds()
    card = top_of_hand(game, x, 2)
    assert x.shown == {card: (1,)}
    copy = x.copy()
    data = json.loads(json.dumps(x.to_json()))
    again = game.state_from_json(data)
    assert again.shown == copy.shown == {card: (1,)}
    assert again.to_json() == x.to_json()
    game.apply_in_place(x, 2, "discard")  # player 2 discards that very card: face up
    assert x.shown == {} and copy.shown == {card: (1,)}
    assert "shown" not in x.to_json()


def test_the_rulebook_says_it() -> None:
    game = peek()
    text = "\n".join(describer_for(game).sentences(game.ruleset.turn))
    assert "to the current player and nobody else (they see it until it moves)" in text


def test_play_shows_nothing_of_a_revealed_card_to_the_others() -> None:
    """The non-interference sweep (`through_play`) on a game of private reveals."""
    tally = sweep(peek(), 3, range(3))
    assert {"draw", "seed", "redeal"} <= set(tally.pairs), tally
    assert tally.compared >= 100, tally


def test_scenario_log_of_reads_one_seats_log(tmp_path: Path) -> None:
    results = run_scenario_files([RULESETS / "peek.tests.yaml"])
    assert [r.passed for r in results] == [True, True], [r.message for r in results]
    path = tmp_path / "wrong.tests.yaml"
    path.write_text(f"""\
ruleset: {RULESETS / 'peek.yaml'}
players: 3
cases:
  - name: another seat was not shown the card
    position:
      hand:
        1: [sun 1]
        2: [moon 3, sun 4]
        3: [moon 2]
      deck: [moon 1, moon 4, moon 5, sun 2, sun 3, sun 5]
    moves: [look2]
    log_includes: ["Player 1 sees sun 4"]
    log_of:
      3: ["sun 4"]
    log_hides:
      1: ["sun 4"]
""")
    [result] = run_scenario_files([path])
    assert not result.passed
    assert "log_of: no log line Player 3 may read contains 'sun 4'" in result.message
    assert "log_hides: Player 1 may read 'sun 4': 'Shown to Player 1: sun 4'" in result.message
    assert "log_includes" not in result.message  # the referee's log has it
