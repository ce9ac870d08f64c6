"""The Aquarium draft (issue 12: 2–6 players; Intro, Normal and Advanced), not yet
bundled: its scenario cases, and random games with the rules' invariants checked at every
decision (no card created or lost, each seat's nine action cards kept, no bead debt, a
pet shop of at most five cards, a breeding tank of one pair), the JSON round trip, same
seed → same game, and beads hidden."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from fuzz_support import play_checked

from interpreter.api import load_game
from interpreter.run.game import Game
from interpreter.run.playout import decide, make_agents
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.scenarios.runner import run_scenario_files

DRAFT = Path(__file__).resolve().parents[1] / "rulesets" / "aquarium.yaml"
GAMES_PER_SEAT_COUNT = 15


@cache
def aquarium(mode: str = "normal") -> Game:
    return load_game(DRAFT, {"mode": mode})


def test_scenarios_pass() -> None:
    results = run_scenario_files([DRAFT.with_name("aquarium.tests.yaml")])
    assert len(results) == 57
    failed = [(r.name, r.message) for r in results if not r.passed]
    assert not failed, failed


def check(game: Game, state: State) -> None:
    sites = state.sites
    everything = sorted(p for stack in sites for p in stack)
    assert everything == list(range(game.n_pieces)), "a card was created or lost"
    zone = game.zones
    shop = sites[zone["shop"].first]
    assert len(shop) <= 5 or state.over
    action = game.attributes["action"]
    beads = state.seat_vars["beads"]
    total = sum(beads) + state.vars["bank"]
    assert total == 15 * state.players + 1000, "a bead was created or lost"
    assert state.vars["bank"] >= 0
    for s in range(1, state.players + 1):
        cards = [p for z in ("hand", "chosen", "played", "used")
                 for p in sites[zone[z].site_for(s)]]
        assert len(cards) == 9 and len({action[p] for p in cards}) == 9, (s, cards)
        assert state.seat_vars["beads"][s - 1] >= 0
        for p in sites[zone["aquarium"].site_for(s)]:
            assert game.attributes["kind"][p] in ("fish", "plant")
        tank = sites[zone["tank"].site_for(s)]
        assert len(tank) in (0, 2)
        if tank:  # one pair of identical fish
            size = game.attributes["size"]
            assert size[tank[0]] == size[tank[1]]


def play(players: int, seed: int, mode: str) -> tuple[list[tuple[int, str]], dict]:
    game = aquarium(mode)
    state = game.new_state(players, seed)
    return play_checked(game, state, seed, check)


@pytest.mark.parametrize("mode", ["intro", "normal", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int, mode: str) -> None:
    games = [play(players, seed, mode) for seed in range(GAMES_PER_SEAT_COUNT)]
    assert all(len(log) > 50 for log, _ in games)
    assert len({json.dumps(final, sort_keys=True) for _, final in games}) == len(games)
    assert play(players, 3, mode) == games[3], "the same seed must give the same game"


def test_beads_and_hands_are_hidden_from_the_other_seats() -> None:
    game = aquarium()
    state = game.new_state(4, 11)
    agents = make_agents(4, 11)
    for _ in range(60):
        seat = game.deciding_seats(state)[0]
        decide(game, state, seat, agents[seat])
    for seat in range(1, 5):
        mine = view(game, state, seat)
        assert mine["variables"]["beads"] == {str(seat): state.seat_vars["beads"][seat - 1]}
        for s in range(1, 5):
            shown = mine["zones"]["hand"][str(s)]
            assert ("pieces" in shown) == (s == seat), (seat, s, shown)
        # non-interference: other seats' beads differ, this seat's view does not
        other = state.copy()
        other.seat_vars["beads"] = [b if s == seat else b + 7 + s
                                    for s, b in enumerate(other.seat_vars["beads"], start=1)]
        assert json.dumps(view(game, other, seat), sort_keys=True) == json.dumps(
            mine, sort_keys=True)
        # ... and its own beads do show
        own = state.copy()
        own.seat_vars["beads"] = [b + 1 for b in own.seat_vars["beads"]]
        assert view(game, own, seat)["variables"]["beads"] != mine["variables"]["beads"]


def _hide_differently(game: Game, state: State, seat: int, rnd: random.Random) -> State:
    """A copy of `state` that differs only in what `seat` may not know: the order of the
    face-down decks, and which of their cards the other seats hold in hand, have chosen
    face down or have used (not the Pass card: it comes back to its hand at once, so
    everyone knows where it is)."""
    other = state.copy()
    zone = game.zones
    action = game.attributes["action"]
    for name in ("deck", "food_deck", "influence_one", "influence_two"):
        rnd.shuffle(other.sites[zone[name].first])
    for t in range(1, state.players + 1):
        if t == seat:
            continue
        hand = other.sites[zone["hand"].site_for(t)]
        for name in ("used", "chosen"):
            there = other.sites[zone[name].site_for(t)]
            mine = [i for i, p in enumerate(hand) if action[p] != "pass_card"]
            theirs = [j for j, p in enumerate(there) if action[p] != "pass_card"]
            if mine and theirs:
                i, j = rnd.choice(mine), rnd.choice(theirs)
                hand[i], there[j] = there[j], hand[i]
                other.loc[hand[i]] = zone["hand"].site_for(t)
                other.loc[there[j]] = zone[name].site_for(t)
    return other


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_what_a_seat_may_not_know_never_shows(players: int) -> None:
    """Non-interference: change only the deck order, the food costs' order, the Influence
    decks and the other seats' hidden action cards, and a seat's view (log included), its
    legal options and its computer player's decision stay the same."""
    game = aquarium("normal")
    rnd = random.Random(players)
    compared = 0
    for seed in range(3):
        state = game.new_state(players, seed)
        agents = make_agents(players, seed)
        while not state.over:
            deciding = game.deciding_seats(state)
            if state.decisions % 7 == 0:
                for seat in range(1, players + 1):
                    other = _hide_differently(game, state, seat, rnd)
                    assert json.dumps(view(game, state, seat), sort_keys=True) == json.dumps(
                        view(game, other, seat), sort_keys=True), (seed, seat)
                    if seat in deciding:
                        assert ([o.notation for o in game.legal_options(state, seat)]
                                == [o.notation for o in game.legal_options(other, seat)])
                        a, b = make_agents(players, seed + 99), make_agents(players, seed + 99)
                        assert (decide(game, state.copy(), seat, a[seat])
                                == decide(game, other, seat, b[seat]))
                    compared += 1
            decide(game, state, deciding[0], agents[deciding[0]])
    assert compared > 100


def test_the_terminal_lists_face_up_cards_by_name_and_hides_the_others() -> None:
    from rich.console import Console

    from interpreter.cli.render import render_view

    game = aquarium("normal")
    state = game.new_state(3, 4)
    console = Console(width=200, record=True, color_system=None)
    console.print(render_view(game, view(game, state, 1), colour=False))
    text = console.export_text()
    assert "The pet shop: red fish size 1" in text
    # each seat's own piles are listed under its name, the viewer's marked "(you)"
    assert "Player 3\n  Aquarium: red fish size 1" in text
    assert ("Player 1 (you)\n  Aquarium: green fish size 1 ($1 1★)\n"
            "  Action cards in hand: One more fish card · One fewer fish card · "
            "Replacement fish card") in text
    assert ("Player 2\n  Aquarium: green fish size 1 ($1 1★)\n"
            "  Action cards in hand: 9 × Action card") in text
    assert "The Aquarium deck: 64 × Aquarium card" in text


def test_the_rulebook_draws_cards_as_cards() -> None:
    """`shape: card`: each kind of card is a card with its code on a band of its colour
    (and a face-down one a grey back), not a pyramid."""
    from interpreter.docs.diagrams import legend_svg, position_svg

    game = aquarium("normal")
    state = game.new_state(3, 4)
    kinds = [view(game, state, 1)["zones"]["shop"]["pieces"][0],
             {"kind": "plant", "plant": "fern", "value": 2, "stars": 0}]
    svg = legend_svg(game, kinds, "cards")
    assert "<polygon" not in svg
    assert svg.count('rx="3" fill="#ffffff"') == 2
    assert ">r1$2</text>" in svg and ">F$2</text>" in svg
    assert "<title>red fish size 1</title>" in svg
    assert "<text" in svg and "fern plant" in svg
    board = position_svg(game, view(game, state, 1), "after set-up", ["shop", "hand"])
    assert ">r1$2</text>" in board
    assert "Action cards in hand (Player 2): 9 pieces, hidden" in board


def test_hot_seat_shows_each_seat_its_own_hand_and_beads_only() -> None:
    """Three people at one keyboard: a purchase, two secret Phase I picks. Each screen,
    after its seat confirms, lists that seat's own action cards and beads and no one
    else's, and the cards the table saw played are in the log."""
    import io

    from rich.console import Console

    from interpreter.cli.play import PlaySession
    from interpreter.cli.play_command import build_agents
    from interpreter.run.record import SavedGame

    game = aquarium()
    seats = {s: "human" for s in (1, 2, 3)}
    state = game.new_state(3, 11)
    answers = iter(["", "buy", "", "more", "", "pass", "", "quit"])
    out = io.StringIO()
    session = PlaySession(game, state, seats, build_agents(game, seats, 11),
                          SavedGame.start(game, 3, 11, seats), Console(file=out, width=1000),
                          lambda prompt: next(answers), interactive=False, colour=False)
    assert session.run() == 0
    screens = out.getvalue().split("Pass the keyboard to")[1:]
    assert [s.split(".")[0].strip() for s in screens] == [
        "Player 1", "Player 2", "Player 3", "Player 2"]
    for screen in screens:
        me = int(screen.split(".")[0].strip()[-1])
        assert f"Player {me} (you)" in screen
        assert f"beads Player {me} " in screen
        for other in (1, 2, 3):
            if other != me:
                assert f"beads Player {other}" not in screen
        # a hand is listed by card only under its owner's name
        blocks = screen.split("\nPlayer ")
        for block in blocks[1:]:
            owner = int(block[0])
            if "Action cards in hand:" in block:
                listed = "Pass card" in block.split("Action cards in hand:")[1].split("\n")[0]
                assert listed == (owner == me), (me, owner, block)
    assert "Player 2 plays One more fish." in screens[-1]
    assert "Player 3 plays Pass." in screens[-1]
