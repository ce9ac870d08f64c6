"""An option's `said`: what the log tells the table once the option is picked (issue 40
§1). A label speaks to the chooser ("Put your small black on a1"); the log is read by
every seat, so it says the move as table talk ("Player 2 placed a small black on a1"),
the notation beside it. Without `said`, the label is told of the chooser ("Player 2:
Put their small black on a1"), never "your" of another seat. `said` is hidden exactly
as the label is, and a playout nobody reads renders neither.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import Game, compile_game
from interpreter.compile.english import article
from interpreter.load.loader import load_ruleset
from interpreter.run.state import State
from interpreter.run.view import chose_text, view
from interpreter.scenarios.runner import seat_log_lines
from interpreter.view.render import log_lines

RULESETS = Path(__file__).parent / "rulesets"
BUNDLED = ["caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising"]
YOUR = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


def cards(tmp_path: Path, said: str | None) -> Game:
    """The test card game, its secret `play` option with this `said` (None: none)."""
    text = (RULESETS / "cards.yaml").read_text()
    label = '        label: "Play your {piece_name(card)}"\n'
    assert label in text
    if said is not None:
        text = text.replace(label, label + f'        said: "{said}"\n')
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    return compile_game(load_ruleset(path), {})


def played(game: Game, seed: int, moves: int) -> State:
    rnd = random.Random(seed)
    state = game.new_state(game.min_seats, seed)
    for _ in range(moves):
        if state.over:
            break
        seat = game.deciding_seats(state)[0]
        state = game.apply(state, seat, rnd.choice(game.legal_options(state, seat)))
    return state


def test_a_placed_piece_is_told_as_table_talk_in_every_log() -> None:
    from interpreter.serve.app import log_lines as served_lines

    class Table:
        game = load_game("high-rise")

    game = Table.game
    state = game.new_state(2, 2)
    seat = game.deciding_seats(state)[0]
    option = game.legal_options(state, seat)[0]
    state = game.apply(state, seat, option)
    piece, square = option.label.removeprefix("Put your ").split(" on ")
    said = f"Player {seat} placed {article(piece)} on {square}"
    for viewer in (0, 1, 2):  # spectator, the chooser, the other seat
        seen = view(game, state, viewer)
        assert seen["log"][-1]["said"] == said
        assert log_lines(game, seen["log"])[-1].plain == f"{said}  {option.notation}"
        assert served_lines(Table, seen["log"])[-1] == f"{said}  ({option.notation})"
    assert seat_log_lines(game, state, 3 - seat)[-1] == f"{said}  {option.notation}"


def test_without_said_the_label_is_told_of_the_chooser() -> None:
    from interpreter.run.view import told_of

    entry = {"seat": 2, "decision": "nS-a1", "words": "Put your small black on a1"}
    assert chose_text("Player 2", entry) == ("Player 2: Put their small black on a1",
                                             "nS-a1")
    assert told_of("Keep both in Your aquarium, you decide") == (
        "Keep both in Their aquarium, they decide")
    assert told_of("Youth plays on a yours-board") == "Youth plays on a theirs-board"


def test_a_revealed_secret_pick_is_told_by_its_said(tmp_path: Path) -> None:
    for said in (None, "{seat_name(chooser)} played the {piece_name(card)}"):
        game = cards(tmp_path, said)
        state = game.apply(game.new_state(2, seed=8), 1, "bid1")
        picks = {}
        for seat in (2, 1):
            option = next(o for o in game.legal_options(state, seat) if o.kind == "play")
            picks[seat] = option
            state = game.apply(state, seat, option)
        lines = [e["say"] for e in view(game, state, 1)["log"] if "say" in e]
        for seat, option in picks.items():
            card = option.label.removeprefix("Play your ")
            told = (f"Player {seat} played the {card} ({option.notation})" if said else
                    f"Player {seat} revealed: Play their {card} ({option.notation})")
            assert told in lines


def test_said_is_hidden_exactly_when_the_label_is(tmp_path: Path) -> None:
    game = cards(tmp_path, "{seat_name(chooser)} played the {piece_name(card)}")
    state = game.apply(game.new_state(2, seed=8), 1, "bid1")
    option = next(o for o in game.legal_options(state, 2) if o.kind == "play")
    state = game.apply(state, 2, option)
    card = option.label.removeprefix("Play your ")
    mine = view(game, state, 2)["log"][-1]
    assert mine["said"] == f"Player 2 played the {card}"
    theirs = view(game, state, 1)
    assert theirs["log"][-1] == {"seat": 2, "decision": None}  # a secret pick
    assert f"played the {card}" not in json.dumps(theirs)
    # words naming a piece the seat may not see are left out, said as the label
    in_hand = state.sites[game.zones["hand"].site_for(1)][0]
    state.append_log(("decision", 1, "x1", False, (), "Play your secret card", (),
                      "Player 1 played the secret card", (in_hand,)))
    assert view(game, state, 2)["log"][-1] == {"seat": 1, "decision": "x1",
                                               "words": "Play your secret card"}
    assert view(game, state, 1)["log"][-1]["said"] == "Player 1 played the secret card"


def test_a_playout_nobody_reads_renders_no_said() -> None:
    from interpreter.simulate.playout import decide, make_agents

    game = load_game("high-rise")
    state = game.new_state(2, 3)
    decide(game, state, game.deciding_seats(state)[0], make_agents(2, 3)[1], words=False)
    assert [len(e) for e in state.log_entries()] == [5]
    decide(game, state, game.deciding_seats(state)[0], make_agents(2, 3)[2])
    assert [len(e) for e in state.log_entries()] == [5, 9]


@pytest.mark.parametrize("name", BUNDLED)
def test_no_bundled_games_log_says_your_of_another_seat(name: str) -> None:
    """Each main move of the five bundled games reads as table talk for the others."""
    game = load_game(name)
    told = 0
    for seed in range(3):
        state = played(game, seed, 15)
        for viewer in range(game.min_seats + 1):
            for entry in view(game, state, viewer)["log"]:
                if entry.get("decision") is None or entry["seat"] == viewer:
                    continue
                line, _ = chose_text(game.seat_name(entry["seat"]), entry)
                assert not YOUR.search(line), line
                told += "said" in entry
    assert told


def test_a_said_takes_a_or_an_as_the_piece_sounds() -> None:
    """`a_or_an(text)` puts the article its first sound takes: High Rise's log said
    "placed a orange medium" before it."""
    game = load_game("high-rise")
    state = game.new_state(2, 3)
    rng = random.Random(1)
    said: list[str] = []
    while not state.over and len(said) < 60:
        seat = game.deciding_seats(state)[0]
        option = rng.choice(game.legal_options(state, seat))
        game.apply_in_place(state, seat, option.notation)
        said = [e.get("said", "") for e in view(game, state, 1)["log"] if isinstance(e, dict)]
    placed = [s for s in said if " placed " in s]
    assert any(" placed an orange " in s for s in placed), placed
    assert not any(re.search(r" a [aeiou]", s) for s in placed), placed
    assert not any(re.search(r" an [^aeiou]", s) for s in placed), placed
