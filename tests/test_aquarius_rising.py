"""Aquarius Rising (issue 13: 2–5 players; the 1.0 and 2.0 decks, the Dragon start, To the
Clouds, Sky High and Aqua-Chicken): its scenario cases, and random games with the rules'
invariants checked at every decision (no card or pyramid created or lost; every house a
valid stack of cards on four pyramids; pyramids on their quarter's element, one size a
card, never beside a card of the same story that has one; the ground connected; one goal
a seat), the JSON round trip, same seed → same game, and what a seat may not know never
showing in its view, its log, its options or its computer player's choice."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fuzz_support import play_checked

from interpreter.api import load_game
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.scenarios.runner import run_scenario_files
from interpreter.simulate.playout import decide, make_agents

RULESET = Path(__file__).resolve().parents[1] / "rulesets" / "aquarius-rising.yaml"
GAMES_PER_COMBINATION = 3

VARIANTS: dict[str, dict[str, Any]] = {
    "2.0": {},
    "1.0": {"deck": "1.0"},
    "dragon": {"dragon": True},
    "clouds": {"clouds": True},
    "sky-high": {"sky_high": True},
    "sky-high-to-the-clouds": {"clouds": True, "sky_high": True},
    "aqua-chicken": {"chicken": True},
}
SEAT_COUNTS = (2, 3, 4, 5)
RAINBOW_PER_SEAT = {2: 30, 3: 20, 4: 15, 5: 12}
"""Rainbow pyramids each seat starts with (two sets, one and five more, one, twelve):
all four sets (60 pyramids, 120 pips) are dealt, whatever the seat count."""


@cache
def rising(variant: str = "2.0") -> Game:
    return load_game(RULESET, VARIANTS[variant])


def test_scenarios_pass() -> None:
    results = run_scenario_files([RULESET.with_name("aquarius-rising.tests.yaml")])
    assert len(results) == 79
    failed = [(r.name, r.message) for r in results if not r.passed]
    assert not failed, failed


# -- invariants -----------------------------------------------------------------------------

WILD = ("white", "clear")
COLOUR_ELEMENT = {"red": "fire", "blue": "water", "yellow": "air", "green": "earth",
                  "black": "space"}


def check(game: Game, state: State) -> None:
    """Every rule about what may stand where, checked on a whole position."""
    sites, zone, attrs = state.lists(), game.zones, game.attributes
    kind, colour, size = attrs["kind"], attrs["colour"], attrs["size"]
    everything = sorted(p for stack in sites for p in stack)
    assert everything == list(range(game.n_pieces)), "a card or pyramid was created or lost"
    facing, quarter = state.piece_vars["facing"], state.piece_vars["quarter"]
    env = game.env(state)
    panels = game.panels
    assert panels is not None
    table = zone["table"]
    in_table = range(table.first, table.first + table.per_owner)
    used = {s for s in state.loc if s in in_table}
    assert {game.site_name[s] for s in used} == {game.site_name[s] for s in state.vars["ground"]}
    assert game.site_by_name["0,0"] in used
    story_has_pyramids: dict[int, list[bool]] = {}
    for s in used:
        stack = sites[s]
        assert kind[stack[0]] in ("element_card", "dragon_card")
        carrying: list[bool] = []
        card, on_card = None, []
        for p in stack:
            assert facing[p] in (0, 180)
            if kind[p] == "pyramid":
                assert card is not None and kind[card] == "element_card", "a pyramid off a card"
                q = quarter[p]
                assert q in ("tl", "tr", "bl", "br")
                assert q not in [quarter[x] for x in on_card], "two pyramids on a quarter"
                assert not on_card or size[p] == size[on_card[0]], "two sizes on a card"
                element = panels.value(env, card, q)
                assert colour[p] in WILD or COLOUR_ELEMENT[colour[p]] == element
                on_card.append(p)
            else:
                assert kind[p] == "element_card" or p == stack[0]
                if card is not None:
                    assert len(on_card) == 4, "a card above a card without four pyramids"
                    carrying.append(True)
                card, on_card = p, []
        carrying.append(bool(on_card))
        story_has_pyramids[s] = carrying
    for s in used:
        for n in neighbours(game, s):
            if n in used:
                for k, (a, b) in enumerate(zip(story_has_pyramids[s], story_has_pyramids[n],
                                               strict=False)):
                    assert not (a and b), f"story {k} of {game.site_name[s]} and its neighbour"
    reached, todo = set(), [game.site_by_name["0,0"]]
    while todo:
        s = todo.pop()
        if s in reached:
            continue
        reached.add(s)
        todo.extend(n for n in neighbours(game, s) if n in used)
    assert reached == used, "the ground is not in one piece"
    for p in range(game.n_pieces):
        if quarter[p] is not None:
            assert state.loc[p] in used and kind[p] == "pyramid"
    goals = "blind_goals" if state_options(game)["chicken"] else "goals"
    for s in range(1, state.players + 1):
        assert len(sites[zone[goals].site_for(s)]) == 1
        assert all(kind[p] in ("element_card", "action_card")
                   for p in sites[zone["hand"].site_for(s)])
        assert all(kind[p] == "pyramid" for p in sites[zone["supply"].site_for(s)])


def state_options(game: Game) -> dict[str, Any]:
    return game.options


def neighbours(game: Game, site: int) -> list[int]:
    found = (game.offset(site, d) for d in ("n", "e", "s", "w"))
    return [n for n in found if n is not None]


def play(players: int, seed: int, variant: str) -> tuple[list[tuple[int, str]], dict]:
    game = rising(variant)
    state = game.new_state(players, seed)
    rainbow = {s: [p for p in state.sites[game.zones["supply"].site_for(s)]
                   if game.attributes["colour"][p] not in WILD]
               for s in range(1, players + 1)}
    assert {len(r) for r in rainbow.values()} == {RAINBOW_PER_SEAT[players]}, rainbow
    assert sum(game.attributes["size"][p] for r in rainbow.values() for p in r) == 120
    return play_checked(game, state, seed, check)


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("players", SEAT_COUNTS)
def test_random_games_keep_every_invariant(players: int, variant: str) -> None:
    games = [play(players, seed, variant) for seed in range(GAMES_PER_COMBINATION)]
    assert all(len(log) > 20 for log, _ in games)
    assert len({json.dumps(final, sort_keys=True) for _, final in games}) == len(games)
    assert play(players, 1, variant) == games[1], "the same seed must give the same game"


# -- the fourth tie-break, as the ruling words it ---------------------------------------------

ELEMENTS = ("fire", "water", "air", "earth", "space")
QUARTER_CELLS = {"tl": (0, 1), "tr": (1, 1), "bl": (0, 0), "br": (1, 0)}
"""Where each quarter of the card on square x,y lies on a grid of quarters: at 2x + dx,
2y + dy. Two quarters touch edge to edge when their cells are next to each other."""


def _join(parent: dict[Any, Any], a: Any, b: Any) -> None:
    def root(c: Any) -> Any:
        while parent[c] != c:
            c = parent[c]
        return c
    parent[root(a)] = root(b)


def _root(parent: dict[Any, Any], c: Any) -> Any:
    while parent[c] != c:
        c = parent[c]
    return c


def group_sizes(game: Game, state: State) -> dict[str, list[int]]:
    """RULES-NOTES' groups of "connected panels", computed over quarters rather than as
    the ruleset does: quarters of an element that touch edge to edge, within a card or
    across two ground cards, form a group; a group counts its printed panels (the
    quarters of one element joined within their card are one panel); the Dragon has no
    quarters. Each element's group sizes, largest first."""
    env, kind, panels = game.env(state), game.attributes["kind"], game.panels
    assert panels is not None
    element: dict[tuple[int, int], str] = {}
    card_at: dict[tuple[int, int], int] = {}
    for s in state.vars["ground"]:
        card = state.sites[s][0]
        if kind[card] != "element_card":
            continue
        x, y = map(int, game.site_name[s].split(","))
        for q, (dx, dy) in QUARTER_CELLS.items():
            element[2 * x + dx, 2 * y + dy] = panels.value(env, card, q)
            card_at[2 * x + dx, 2 * y + dy] = card
    groups = {c: c for c in element}
    printed = {c: c for c in element}
    for (cx, cy), e in element.items():
        for n in ((cx + 1, cy), (cx, cy + 1)):
            if element.get(n) == e:
                _join(groups, (cx, cy), n)
                if card_at[n] == card_at[cx, cy]:
                    _join(printed, (cx, cy), n)
    found: dict[Any, set[Any]] = {}
    for c in element:
        found.setdefault(_root(groups, c), set()).add(_root(printed, c))
    sizes: dict[str, list[int]] = {e: [] for e in ELEMENTS}
    for root, panel_ids in found.items():
        sizes[element[root]].append(len(panel_ids))
    return {e: sorted(n, reverse=True) for e, n in sizes.items()}


@pytest.mark.parametrize(("variant", "players"), [("2.0", 2), ("dragon", 3), ("1.0", 5)])
def test_the_fourth_tie_break_is_the_largest_group_of_printed_panels(variant: str,
                                                                      players: int) -> None:
    """The ruleset's connected_panels agrees with the ruling computed quarter by quarter,
    all through random games: separate groups not added, panels joined within a card,
    each half of a half card one panel, the Dragon connecting nothing."""
    game = rising(variant)
    counted = {e: game.compile_expression(f"connected_panels({e})") for e in ELEMENTS}
    compared, apart = 0, 0
    for seed in range(3):
        state = game.new_state(players, seed)
        agents = make_agents(players, seed)
        while True:
            if state.decisions % 4 == 0 or state.over:
                sizes = group_sizes(game, state)
                env = game.env(state)
                assert ({e: f(env) for e, f in counted.items()}
                        == {e: max([0, *n]) for e, n in sizes.items()}), (seed, state.decisions)
                compared += 1
            if state.over:
                break
            seat = game.deciding_seats(state)[0]
            decide(game, state, seat, agents[seat])
        apart += sum(1 for n in sizes.values() if len(n) > 1 and n[1] > 1)
    assert compared > 60
    assert apart > 0, "no game ended with an element in two groups of two or more"


# -- hidden information -------------------------------------------------------------------------

def _hide_differently(game: Game, state: State, seat: int, rnd: random.Random) -> State:
    """A copy of `state` that differs only in what `seat` may not know: the deck's order,
    which cards the other seats hold (each swaps one with the deck), and which goals the
    other seats (and, in Aqua-Chicken, this seat too) hold or lie unused."""
    other = state.copy()
    zone, sites = game.zones, other.sites
    deck = other.stack(zone["draw_pile"].first)
    rnd.shuffle(deck)

    def swap(a: int, i: int, b: int, j: int) -> None:
        other.stack(a)[i], other.stack(b)[j] = sites[b][j], sites[a][i]
        other.loc[sites[a][i]], other.loc[sites[b][j]] = a, b

    chicken = game.options["chicken"]
    for t in range(1, state.players + 1):
        hand = zone["hand"].site_for(t)
        if t != seat and sites[hand] and deck:
            swap(hand, rnd.randrange(len(sites[hand])), zone["draw_pile"].first,
                 rnd.randrange(len(deck)))
        goal = zone["blind_goals" if chicken else "goals"].site_for(t)
        spare = zone["spare_goals"].first
        if (t != seat or chicken) and sites[goal] and sites[spare]:
            swap(goal, 0, spare, rnd.randrange(len(sites[spare])))
    return other


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("variant", ["2.0", "1.0", "aqua-chicken"])
@pytest.mark.parametrize("players", SEAT_COUNTS)
def test_what_a_seat_may_not_know_never_shows(players: int, variant: str) -> None:
    """Non-interference: change only the deck's order, the other seats' hands and the
    goals a seat may not see, and that seat's view (log included), its legal options and
    its computer player's decision stay the same — across trades, shuffles and rotations."""
    game = rising(variant)
    rnd = random.Random(players)
    compared = 0
    for seed in range(2):
        state = game.new_state(players, seed)
        agents = make_agents(players, seed)
        while not state.over:
            deciding = game.deciding_seats(state)
            if state.decisions % 5 == 0:
                for seat in range(1, players + 1):
                    other = _hide_differently(game, state, seat, rnd)
                    assert _same(view(game, state, seat), view(game, other, seat)), (seed, seat)
                    if seat in deciding:
                        assert ([o.notation for o in game.legal_options(state, seat)]
                                == [o.notation for o in game.legal_options(other, seat)])
                        a, b = make_agents(players, seed + 99), make_agents(players, seed + 99)
                        assert (decide(game, state.copy(), seat, a[seat])
                                == decide(game, other, seat, b[seat]))
                    compared += 1
            decide(game, state, deciding[0], agents[deciding[0]])
    assert compared > 40


def test_goals_show_to_their_owner_only_and_to_nobody_in_aqua_chicken() -> None:
    for variant, own_seen in (("2.0", True), ("aqua-chicken", False)):
        game = rising(variant)
        state = game.new_state(3, 5)
        for seat in (1, 2, 3):
            mine = view(game, state, seat)
            zone = "blind_goals" if variant == "aqua-chicken" else "goals"
            for s in (1, 2, 3):
                shown = mine["zones"][zone][str(s)]
                assert ("pieces" in shown) == (own_seen and s == seat), (variant, seat, s)
                assert shown["count"] == 1
            hands = mine["zones"]["hand"]
            assert all(("pieces" in hands[str(s)]) == (s == seat) for s in (1, 2, 3))
        # at the end, every goal is shown to everyone
        agents = make_agents(3, 5)
        while not state.over:
            seat = game.deciding_seats(state)[0]
            decide(game, state, seat, agents[seat])
        final = view(game, state, 2)
        zone = "blind_goals" if variant == "aqua-chicken" else "goals"
        assert all("pieces" in final["zones"][zone][str(s)] for s in (1, 2, 3))


def test_a_game_is_a_list_of_notations_that_replays_exactly() -> None:
    game = rising("sky-high-to-the-clouds")
    log, final = play(4, 7, "sky-high-to-the-clouds")
    state = game.new_state(4, 7)
    for seat, notation in log:
        game.apply_in_place(state, seat, notation)
    assert _same(state.to_json(), final)


def test_the_turn_summary_asks_one_matching_edge_and_says_how_to_build_up() -> None:
    """The rulebook's summary of playing a card keeps to the rules (issue 38): a ground
    card needs "at least one matching panel across a touching edge; other touching edges
    need not match" (RULES-NOTES), and the text lets a card go on top of a card that
    carries four pyramids, matching the element of at least one of them."""
    said = " ".join(rising().ruleset.rulebook.turn_summary[1].split())
    assert "every edge" not in said
    assert "at least one of its panels matching the panel it touches across an edge" in said
    assert "need not match" in said
    assert "built on a house whose top card carries four pyramids" in said
    assert "at least one of its panels over a pyramid of that element" in said
