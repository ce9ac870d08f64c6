"""Moves in the game's words, and the last move marked (issue 40 §1).

Every log line of a decision says it as the options list said it (the option's label),
with the notation beside it as the shortcut to type; a secret pick's words are as
hidden as its notation; the last decision's moves are marked on the board (terminal and
browser) only where the seat saw the pieces.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.api import load_game
from interpreter.assemble.game import Game, compile_game
from interpreter.compile.english import article
from interpreter.load.loader import load_ruleset
from interpreter.run.state import State
from interpreter.run.view import last_move_words, told_of, view
from interpreter.view.render import log_lines, render_view, zones_split

RULESETS = Path(__file__).parent / "rulesets"
BUNDLED = ["caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising"]


def cards() -> Game:
    return compile_game(load_ruleset(RULESETS / "cards.yaml"), {})


def played(game: Game, seed: int, moves: int) -> tuple[State, list[tuple[int, str, str]]]:
    """A game after `moves` random decisions, and each decision's seat, notation and
    label as the options list showed them."""
    rnd = random.Random(seed)
    state = game.new_state(game.min_seats, seed)
    made = []
    for _ in range(moves):
        if state.over:
            break
        seat = game.deciding_seats(state)[0]
        option = rnd.choice(game.legal_options(state, seat))
        made.append((seat, option.notation, option.label))
        state = game.apply(state, seat, option)
    return state, made


def plain(lines: list) -> list[str]:
    return [line.plain for line in lines]


# -- moves in words ------------------------------------------------------------------------

@pytest.mark.parametrize("name", BUNDLED)
def test_each_decision_in_the_log_says_the_options_words_and_its_notation(name: str) -> None:
    game = load_game(name)
    state, made = played(game, 5, 12)
    seat = made[-1][0]
    seen = view(game, state, seat)
    decisions = [e for e in seen["log"] if "seat" in e]
    assert len(decisions) == len(made)
    lines = [line for line in plain(log_lines(game, seen["log"]))
             if not line.startswith("  ")]
    for entry, (who, notation, label), line in zip(decisions, made, lines, strict=True):
        assert entry["seat"] == who
        if entry["decision"] is None:  # another seat's secret
            assert "words" not in entry and line == f"{game.seat_name(who)} decided (secret)"
            continue
        assert entry["decision"] == notation
        if label != notation:
            assert entry["words"] == label
            told = entry.get("said") or f"{game.seat_name(who)}: {told_of(label)}"
            assert line == f"{told}  {notation}"


def test_the_notation_is_dim_beside_the_words() -> None:
    game = load_game("high-rise")
    state, made = played(game, 2, 1)
    line = log_lines(game, view(game, state, 1)["log"])[0]
    _, notation, label = made[0]
    piece_on = label.removeprefix("Put your ")
    assert line.plain == f"Player {made[0][0]} placed {article(piece_on)}  {notation}"
    dim = [line.plain[s.start:s.end] for s in line.spans if "dim" in str(s.style)]
    assert dim == [f"  {notation}"]


def test_a_secret_picks_words_are_hidden_like_its_notation() -> None:
    game = cards()
    state = game.apply(game.new_state(2, seed=8), 1, "bid1")
    option = next(o for o in game.legal_options(state, 2) if o.kind == "play")
    state = game.apply(state, 2, option)
    assert option.label.startswith("Play your ")
    mine = view(game, state, 2)["log"][-1]
    assert mine == {"seat": 2, "decision": option.notation, "words": option.label}
    theirs = view(game, state, 1)
    assert theirs["log"][-1] == {"seat": 2, "decision": None}
    assert option.label not in json.dumps(theirs)
    bid = view(game, state, 2)["log"][0]
    assert bid == {"seat": 1, "decision": None}  # a secret bid: neither notation nor words


def test_words_naming_a_piece_the_seat_may_not_see_are_left_out() -> None:
    """The notation names nothing hidden, the words do: the seat reads the notation."""
    game = cards()
    state = game.new_state(2, seed=3)
    in_hand = state.sites[game.zones["hand"].site_for(1)][0]
    state.append_log(("decision", 1, "x1", False, (), "Play your secret card", (in_hand,)))
    assert view(game, state, 2)["log"][-1] == {"seat": 1, "decision": "x1"}
    assert view(game, state, 1)["log"][-1] == {"seat": 1, "decision": "x1",
                                               "words": "Play your secret card"}


def test_a_revealed_pick_says_the_options_words_and_notation() -> None:
    game = cards()
    state = game.apply(game.new_state(2, seed=8), 1, "bid1")
    picks = {}
    for seat in (2, 1):
        option = next(o for o in game.legal_options(state, seat) if o.kind == "play")
        picks[seat] = option
        state = game.apply(state, seat, option)
    said = [e["say"] for e in view(game, state, 1)["log"] if "say" in e]
    for seat, option in picks.items():
        assert f"Player {seat} revealed: {told_of(option.label)} ({option.notation})" in said


def test_hot_seat_and_spectators_logs_say_the_words() -> None:
    from interpreter.serve.app import log_lines as served_lines

    class Table:
        game = load_game("high-rise")

    state, made = played(Table.game, 4, 3)
    spectator = view(Table.game, state, 0)
    seat, notation, label = made[-1]
    assert served_lines(Table, spectator["log"])[-1] == (
        f"Player {seat} placed {article(label.removeprefix('Put your '))}  ({notation})")


# -- the last move marked ------------------------------------------------------------------

def test_a_placed_piece_is_marked_where_it_went_and_where_it_came_from() -> None:
    game = load_game("high-rise")
    before = game.new_state(2, 2)
    seat = game.deciding_seats(before)[0]
    option = game.legal_options(before, seat)[0]
    after = game.apply(before, seat, option)
    square = option.notation.split("-")[-1]
    move = view(game, after, seat, before=before)["last_move"]
    assert move["marks"][square] == "to"
    assert move["marks"][f"supply[{seat}]"] == "from"
    words = last_move_words(game, move)
    assert words is not None and words.startswith(f"Last move (Player {seat}): ")
    assert words.endswith(f"→ {square}") and "Pieces left" in words


def test_the_marked_square_is_drawn_in_reverse_with_a_legend() -> None:
    game = load_game("high-rise")
    before = game.new_state(2, 2)
    seat = game.deciding_seats(before)[0]
    option = game.legal_options(before, seat)[0]
    after = game.apply(before, seat, option)
    seen = view(game, after, seat, before=before)
    out = io.StringIO()
    Console(file=out, width=80, color_system="standard", force_terminal=True).print(
        render_view(game, seen, colour=False))
    text = out.getvalue()
    assert "\x1b[7m" in text  # reverse video: the square it went to
    assert "Last move (Player" in text
    unmarked = io.StringIO()
    Console(file=unmarked, width=80, color_system="standard", force_terminal=True).print(
        *zones_split(game, view(game, after, seat), colour=False)[0])
    assert "\x1b[7m" not in unmarked.getvalue()


def test_a_card_played_from_a_hidden_hand_is_marked_only_where_the_others_see_it() -> None:
    game = cards()
    state = game.apply(game.new_state(2, seed=8), 1, "bid1")
    option = next(o for o in game.legal_options(state, 2) if o.kind == "play")
    state = game.apply(state, 2, option)
    before = state
    option = next(o for o in game.legal_options(state, 1) if o.kind == "play")
    after = game.apply(before, 1, option)
    for seat in (1, 2):
        move = view(game, after, seat, before=before)["last_move"]
        assert move["marks"].get("table") == "to"
        hand = {1: "hand[1]", 2: "hand[2]"}
        assert hand[3 - seat] not in move["marks"]  # another's hand: never marked
    theirs = view(game, after, 1, before=before)["last_move"]
    assert all(m["from"] != "hand[2]" for m in theirs["moves"])
    # a card seat 2 drew, hidden from seat 1, is not in seat 1's last move at all
    drawn = [m for m in view(game, after, 1, before=before)["last_move"]["moves"]
             if m["to"] == "hand[2]"]
    assert drawn == []


def place_seen(game: Game, seen: dict, name: str) -> dict:
    """The view's place of this name (a board's square, a pile, a seat's pile)."""
    site = game.site_name.index(name)
    zone = game.site_zone[site]
    data = seen["zones"][zone.id]
    if zone.per_seat:
        data = data[str(game.site_owner[site])]
    return data["places"][name] if "places" in data else data


def among(piece: dict, place: dict) -> bool:
    """Whether the place shows this piece (its attributes; the view adds its values)."""
    return any(all(p.get(k) == v for k, v in piece.items())
               for p in place.get("pieces", []))


@pytest.mark.parametrize("name", BUNDLED)
def test_each_bundled_games_last_move_names_only_what_the_seat_sees(name: str) -> None:
    """Where a piece went is marked only when the seat sees it there now, where it came
    from only when the seat saw it there before."""
    game = load_game(name)
    marked = 0
    for seed in range(3):
        before, _ = played(game, seed, 6)
        seat = game.deciding_seats(before)[0]
        after = game.apply(before, seat, game.legal_options(before, seat)[0])
        for viewer in range(0, game.min_seats + 1):
            move = view(game, after, viewer, before=before)["last_move"]
            if move is None:
                continue
            now, then = view(game, after, viewer), view(game, before, viewer)
            for m in move["moves"]:
                if m["to"] is not None:
                    marked += 1
                    assert among(m["piece"], place_seen(game, now, m["to"]))
                if m["from"] is not None:
                    assert among(m["piece"], place_seen(game, then, m["from"]))
    assert marked


def test_computer_players_moves_are_in_words_but_a_playout_keeps_none() -> None:
    """A computer player's move (the terminal's and the server's `decide`) is logged in
    words; a playout whose state nobody reads keeps only notations (the hot path)."""
    from interpreter.agents import make_agent
    from interpreter.simulate.playout import decide, make_agents, play_game

    game = load_game("high-rise")
    state = game.new_state(2, 1)
    seat = game.deciding_seats(state)[0]
    decide(game, state, seat, make_agent("random", seed=1, game=game))
    [entry] = view(game, state, seat)["log"]
    assert entry["words"].startswith("Put your ")
    kept = play_game(game, 2, 3, make_agents(2, 3), keep_state=True).final_state
    assert kept is not None
    assert all(len(e) == 9 for e in kept.log_entries() if e[0] == "decision")
    machine_state = game.new_state(2, 3)
    decide(game, machine_state, game.deciding_seats(machine_state)[0],
           make_agents(2, 3)[1], words=False)
    assert [len(e) for e in machine_state.log_entries()] == [5]
