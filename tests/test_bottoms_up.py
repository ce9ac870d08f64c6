"""Bottoms Up: colour effects, chains, secret colours, scoring, and random play.

Positions are built by hand with ``Game.blank_state`` and begun with
``Game.start_turn``; every piece not named starts in the stash.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import time
from collections.abc import Iterable

import pytest
from fuzz_support import game_for, start_worker

from interpreter.api import load_game
from interpreter.assemble.game import Game
from interpreter.run.state import State
from interpreter.run.view import view
from interpreter.simulate.playout import make_agents, play_game

GAME = "bottoms-up"
COLOURS = ["red", "yellow", "green", "blue", "white", "black"]


@pytest.fixture(scope="module")
def game() -> Game:
    return load_game(GAME)


# -- building positions -------------------------------------------------------------------

def _take(game: Game, st: State, code: str, source: int) -> int:
    for p in st.sites[source]:
        if game.piece_codes[p] == code:
            return p
    raise AssertionError(f"no {code} left in {game.site_name[source]}")


def _put(st: State, piece: int, site: int) -> None:
    st.stack(st.loc[piece]).remove(piece)
    st.stack(site).append(piece)
    st.loc[piece] = site


def position(game: Game, stacks: list[list[str]], players: int = 4, seat: int = 1,
             destroyed: Iterable[str] = (), stash_only: Iterable[str] | None = None,
             secret: list[str] | None = None) -> State:
    """Stacks (bottom first) on field:1, field:2 ...; `destroyed` pieces go to the
    destroyed pile; with `stash_only`, every other stash piece is destroyed too."""
    st = game.blank_state(players, 0)
    field = game.zones["field"].first
    stash = game.zones["stash"].first
    dead = game.zones["destroyed"].first
    for i, codes in enumerate(stacks):
        for code in codes:
            _put(st, _take(game, st, code, stash), field + i)
    for code in destroyed:
        _put(st, _take(game, st, code, stash), dead)
    if stash_only is not None:
        keep = list(stash_only)
        for p in list(st.sites[stash]):
            code = game.piece_codes[p]
            if code in keep:
                keep.remove(code)
            else:
                _put(st, p, dead)
    st.seat_vars["secret_colour"] = list(secret or COLOURS[:players])
    game.start_turn(st, seat)
    return st


def field(game: Game, st: State) -> list[list[str]]:
    """The stacks of the field as codes, bottom first, up to the last non-empty place."""
    zone = game.zones["field"]
    out = [[game.piece_codes[p] for p in st.sites[s]] for s in zone.sites_in_play(st.players)]
    while out and not out[-1]:
        out.pop()
    return out


def count_in(game: Game, st: State, zone: str, code: str) -> int:
    return sum(1 for p in st.sites[game.zones[zone].first] if game.piece_codes[p] == code)


def play(game: Game, st: State, *moves: str) -> State:
    for m in moves:
        seat = game.deciding_seats(st)[0]
        game.apply_in_place(st, seat, m)
    return st


def notations(game: Game, st: State) -> list[str]:
    return [o.notation for o in game.legal_options(st, game.deciding_seats(st)[0])]


def placing(game: Game, st: State) -> bool:
    """Back at a placement decision (the chain is over)."""
    decision = game.decision(st)
    return decision is not None and "take a piece from the stash" in decision.prompt


# -- colour effects -----------------------------------------------------------------------

def test_red_shrinks_by_one(game: Game) -> None:
    st = play(game, position(game, [["yL"]]), "rS-field:1")
    assert field(game, st) == [["yM", "rS"]]
    assert count_in(game, st, "stash", "yL") == 5  # the large went back to the stash


def test_red_on_a_large_with_no_medium_left_gives_a_small(game: Game) -> None:
    st = play(game, position(game, [["yL"]], destroyed=["yM"] * 5), "rS-field:1")
    assert field(game, st) == [["yS", "rS"]]


def test_red_with_nothing_smaller_destroys_for_good(game: Game) -> None:
    st = play(game, position(game, [["yM"]], destroyed=["yS"] * 5), "rM-field:1")
    assert field(game, st) == [["rM"]]
    assert count_in(game, st, "destroyed", "yM") == 1
    assert count_in(game, st, "destroyed", "yS") == 5
    st = play(game, position(game, [["gS"]]), "rS-field:1")
    assert field(game, st) == [["rS"]]
    assert count_in(game, st, "destroyed", "gS") == 1
    # A destroyed piece is never offered again, and never used as a replacement.
    only = position(game, [["gM"], ["bS"]], destroyed=["gS"] * 5)
    assert all(not n.startswith("gS-") for n in notations(game, only))
    play(game, only, "rS-field:1")
    assert field(game, only) == [["rS"], ["bS"]]


def test_blue_offers_every_other_colour_of_that_size(game: Game) -> None:
    st = play(game, position(game, [["rM"]]), "bS-field:1")
    assert notations(game, st) == ["colour-yellow", "colour-green", "colour-blue",
                                   "colour-white", "colour-black"]
    play(game, st, "colour-white")
    assert field(game, st) == [["wM", "bS"]]


def test_blue_must_change_when_one_colour_is_left(game: Game) -> None:
    others = [f"{c}M" for c in "ygbwk"] * 5
    st = play(game, position(game, [["rM"]], destroyed=[*others[:-1]]), "bS-field:1")
    # Only one black medium is left: the change is forced (no way to keep red).
    assert notations(game, st) == ["colour-black"]
    play(game, st, "colour-black")
    assert field(game, st) == [["kM", "bS"]]


def test_blue_with_no_other_colour_has_no_effect(game: Game) -> None:
    others = [f"{c}M" for c in "ygbwk"] * 5
    st = play(game, position(game, [["rM"]], destroyed=others), "bS-field:1")
    assert field(game, st) == [["rM", "bS"]]
    assert placing(game, st)


def test_green_grows_by_one(game: Game) -> None:
    st = play(game, position(game, [["rS"]]), "gS-field:1")
    assert field(game, st) == [["rM", "gS"]]


def test_green_when_the_next_size_is_not_available(game: Game) -> None:
    st = play(game, position(game, [["rS"]], destroyed=["rM"] * 5), "gS-field:1")
    assert field(game, st) == [["rS", "gS"]]


def test_green_on_a_large_creates_a_new_small(game: Game) -> None:
    st = play(game, position(game, [["rL"], ["bS"]]), "gS-field:1")
    assert field(game, st) == [["rL", "gS"], ["bS"], ["rS"]]


def test_green_on_a_large_with_no_small_left_does_nothing(game: Game) -> None:
    st = play(game, position(game, [["rL"]], destroyed=["rS"] * 5), "gS-field:1")
    assert field(game, st) == [["rL", "gS"]]


def test_yellow_moves_onto_a_stack_which_is_then_recalculated(game: Game) -> None:
    st = play(game, position(game, [["rS"], ["bM"], ["gL"]]), "yS-field:1")
    assert notations(game, st) == ["move-field:2", "move-field:3", "move-new"]
    play(game, st, "move-field:2")
    # The red small landed on the blue medium: field:2 is recalculated, red shrinks it.
    assert field(game, st) == [["yS"], ["bS", "rS"], ["gL"]]


def test_yellow_to_open_field(game: Game) -> None:
    st = play(game, position(game, [["rS"], ["bM"]]), "yS-field:1", "move-new")
    assert field(game, st) == [["yS"], ["bM"], ["rS"]]


def test_a_chain_across_three_stacks(game: Game) -> None:
    # yM on yS: the yS goes onto field:2 (a green small); there the yellow small moves
    # the green small onto field:3 (a blue medium), which green grows to a large.
    st = play(game, position(game, [["yS"], ["gS"], ["bM"]]), "yM-field:1", "move-field:2",
              "move-field:3")
    assert field(game, st) == [["yM"], ["yS"], ["bL", "gS"]]
    assert placing(game, st)


def test_a_piece_moved_by_yellow_is_not_moved_again(game: Game) -> None:
    # The yellow small lands on a white small: both take yellow's effect; the white is
    # moved, the yellow small has already been moved in this chain and stays.
    st = play(game, position(game, [["yS"], ["wS"], ["kM"]]), "yM-field:1", "move-field:2")
    assert notations(game, st) == ["move-field:1", "move-field:3", "move-new"]
    play(game, st, "move-field:3")
    assert field(game, st) == [["yM"], ["yS"], ["kM", "wS"]]
    assert placing(game, st)


def test_black_is_immune_as_the_lower_piece(game: Game) -> None:
    for upper in ("rS", "gS", "yS", "wS"):
        st = play(game, position(game, [["kM"], ["rS"]]), f"{upper}-field:1")
        assert field(game, st) == [["kM", upper], ["rS"]], upper
        assert placing(game, st)
    st = play(game, position(game, [["kM"]]), "bS-field:1")
    assert field(game, st) == [["kM", "bS"]]


def test_black_has_no_effect_as_the_upper_piece(game: Game) -> None:
    st = play(game, position(game, [["rM"]]), "kS-field:1")
    assert field(game, st) == [["rM", "kS"]]


def test_white_upper_gives_the_lower_piece_its_own_effect(game: Game) -> None:
    assert field(game, play(game, position(game, [["rM"]]), "wS-field:1")) == [["rS", "wS"]]
    assert field(game, play(game, position(game, [["gM"]]), "wS-field:1")) == [["gL", "wS"]]
    st = play(game, position(game, [["bM"]]), "wS-field:1")
    assert "colour-blue" not in notations(game, st)
    assert field(game, play(game, st, "colour-red")) == [["rM", "wS"]]
    st = play(game, position(game, [["yM"], ["kS"]]), "wS-field:1", "move-field:2")
    assert field(game, st) == [["wS"], ["kS", "yM"]]


def test_white_on_white_does_nothing(game: Game) -> None:
    st = play(game, position(game, [["wM"]]), "wS-field:1")
    assert field(game, st) == [["wM", "wS"]]


def test_white_lower_piece_and_upper_both_take_the_effect(game: Game) -> None:
    st = play(game, position(game, [["wM"]]), "rM-field:1")
    assert field(game, st) == [["wS", "rS"]]
    st = play(game, position(game, [["wS"]]), "gS-field:1")
    assert field(game, st) == [["wM", "gM"]]
    st = play(game, position(game, [["wM"]]), "bS-field:1", "colour-red")
    assert notations(game, st)[0] == "colour-red"  # now the blue small itself changes
    play(game, st, "colour-green")
    assert field(game, st) == [["rM", "gS"]]


def test_recalculation_runs_from_the_bottom_pair_up(game: Game) -> None:
    # rL under gM under the new rS: first gM shrinks... no: first the bottom pair
    # (rL, gM): green grows rL? It is large, so a new red small appears; then (gM, rS):
    # red shrinks gM to gS.
    st = play(game, position(game, [["rL", "gM"]]), "rS-field:1")
    assert field(game, st) == [["rL", "gS", "rS"], ["rS"]]


def test_the_lower_piece_leaving_makes_the_next_pair_start_at_the_same_level(
        game: Game) -> None:
    # (rS, yS): yellow moves the red small away; the yellow drops to the bottom and the
    # next pair is (yS, gS): green grows the yellow small. Then field:2 is recalculated:
    # the red small destroys the blue small under it.
    st = play(game, position(game, [["rS", "yS"], ["bS"]]), "gS-field:1", "move-field:2")
    assert field(game, st) == [["yM", "gS"], ["rS"]]
    assert count_in(game, st, "destroyed", "bS") == 1


def test_the_chain_budget_stops_a_runaway_chain_with_a_message(game: Game) -> None:
    st = position(game, [["rM", "gM"], ["bS"]])
    st.vars["chain_steps"] = 1999  # as if this placement had already run 1999 effects
    play(game, st, "rS-field:1")
    # Only the bottom pair was resolved before the budget ran out.
    assert field(game, st) == [["rL", "gM", "rS"], ["bS"]]
    assert st.vars["queue"] == []
    says = [e[1] for e in st.log_entries() if e[0] == "say"]
    assert any(s.startswith("The chain of effects stopped after 2000 effects") for s in says)
    assert placing(game, st)


# -- the end and scoring ------------------------------------------------------------------

def test_the_game_ends_when_no_stash_piece_is_left(game: Game) -> None:
    st = position(game, [["rS"], ["bS"]], stash_only=["kM", "kL"])
    play(game, st, "kM-field:1")
    assert not st.over
    play(game, st, "kL-field:2")
    assert st.over
    assert count_in(game, st, "destroyed", "rL") == 5


def test_scoring_of_tops_by_size_and_a_shared_win(game: Game) -> None:
    st = position(game, [["gS", "rL"], ["gS", "rS"], ["bS", "yM"], ["kS"], ["gS"]],
                  stash_only=["kS"], secret=["red", "yellow", "blue", "green"])
    play(game, st, "kS-field:4")
    assert st.over
    # red: a large (3) and a small (1) on top of stacks = 4; yellow: a medium = 2;
    # blue tops nothing; green's lone small is not a stack; black tops field:4.
    assert game.scores(st) == {1: 4, 2: 2, 3: 0, 4: 0}
    assert st.winners == [1]
    tie = position(game, [["gS", "rM"], ["gS", "yM"], ["kS"]], stash_only=["kS"],
                   secret=["red", "yellow", "blue", "green"])
    play(game, tie, "kS-field:3")
    assert game.scores(tie) == {1: 2, 2: 2, 3: 0, 4: 0}
    assert tie.winners == [1, 2]


# -- setup and secret colours -------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 5, 6])
def test_setup_deals_distinct_secret_colours_and_starting_smalls(game: Game,
                                                                 players: int) -> None:
    st = game.new_state(players, 3)
    secrets = st.seat_vars["secret_colour"]
    assert len(set(secrets)) == players and set(secrets) <= set(COLOURS)
    assert sorted(game.deciding_seats(st)) == list(range(1, players + 1))
    for seat in range(1, players + 1):
        assert [o.notation for o in game.legal_options(st, seat)] == [
            f"start-{c}" for c in COLOURS]
        mine = view(game, st, seat)["variables"]["secret_colour"]
        assert mine == {str(seat): secrets[seat - 1]}
    for seat in range(1, players + 1):
        game.apply_in_place(st, seat, "start-red")
    # Only 5 red smalls: a sixth choice of red takes the first colour that has one.
    expected = [["rS"]] * min(players, 5) + [["yS"]] * max(0, players - 5)
    assert field(game, st) == expected
    assert game.deciding_seats(st) == [1]


def _with_other_secrets(game: Game, st: State, seat: int, rnd: random.Random) -> State:
    """A copy differing only in the secret colours of the seats other than `seat` (and in
    the log lines that only those seats can read)."""
    other = State.from_json(json.loads(json.dumps(st.to_json())), game.n_pieces)
    secrets = other.seat_vars["secret_colour"]
    mine = secrets[seat - 1]
    while True:  # a different deal of the other seats' colours
        rest = [c for c in COLOURS if c != mine]
        rnd.shuffle(rest)
        new = {s: rest.pop() if s != seat else mine for s in range(1, st.players + 1)}
        if [new[s] for s in range(1, st.players + 1)] != secrets:
            break
    other.seat_vars["secret_colour"] = [new[s] for s in range(1, st.players + 1)]
    entries = []
    for e in other.log_entries():
        if e[0] == "say" and e[2] is not None and len(e[2]) == 1 and e[2][0] != seat:
            e = ("say", f"Your secret colour is {new[e[2][0]]}.", *e[2:])
        entries.append(e)
    other.log = None
    for e in entries:
        other.append_log(e)
    return other


def _dump(v: dict) -> str:
    return json.dumps(v, sort_keys=True)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_other_seats_secret_colours_never_show(game: Game, players: int) -> None:
    rnd = random.Random(players)
    compared = 0
    for seed in range(8):
        a = game.new_state(players, seed)
        seat = rnd.randint(1, players)
        b = _with_other_secrets(game, a, seat, rnd)
        assert a.seat_vars != b.seat_vars
        while not a.over:
            assert _dump(view(game, a, seat)) == _dump(view(game, b, seat))
            compared += 1
            decider = game.deciding_seats(a)[0]
            opts = notations(game, a)
            assert opts == notations(game, b)
            pick = rnd.choice(opts)
            game.apply_in_place(a, decider, pick)
            game.apply_in_place(b, decider, pick)
        # At the end every colour is revealed.
        assert _dump(view(game, a, seat)) != _dump(view(game, b, seat))
        assert view(game, a, seat)["variables"]["secret_colour"] == {
            str(s): c for s, c in enumerate(a.seat_vars["secret_colour"], start=1)}
    assert compared > 300


def test_views_and_log_hide_other_secret_colours(game: Game) -> None:
    st = game.new_state(5, 9)
    secrets = st.seat_vars["secret_colour"]
    for seat in range(1, 6):
        v = view(game, st, seat)
        assert v["variables"]["secret_colour"] == {str(seat): secrets[seat - 1]}
        says = [e["say"] for e in v["log"] if "say" in e]
        assert says == [f"Your secret colour is {secrets[seat - 1]}."]
    spectator = view(game, st, 0)
    assert spectator["variables"]["secret_colour"] == {}


# -- random play ----------------------------------------------------------------------------

def _check_pieces(game: Game, st: State) -> None:
    n = game.n_pieces
    assert sorted(p for stack in st.lists() for p in stack) == list(range(n)), "piece lost"
    for site, stack in enumerate(st.lists()):
        for p in stack:
            assert st.loc[p] == site


def _play_batch(args: tuple[int, list[int]]) -> dict:
    """Play random games, checking the invariants after every decision."""
    players, seeds = args
    game = game_for(GAME)
    stash = game.zones["stash"].first
    stats = {"games": 0, "decisions": 0, "max_chain": 0, "max_yellow": 0, "shared": 0,
             "results": []}
    for seed in seeds:
        rnd = random.Random(seed)
        st = game.new_state(players, seed)
        log: list[str] = []
        checkpoint = rnd.randint(10, 60) if seed % 10 == 0 else -1
        while not st.over:
            seat = game.deciding_seats(st)[0]
            raws = game.raw_options(st, seat)
            raw = raws[rnd.randrange(len(raws))]
            log.append(game.notation_of(st, seat, raw))
            game.apply_in_place(st, seat, raw)
            stats["decisions"] += 1
            _check_pieces(game, st)
            stats["max_chain"] = max(stats["max_chain"], st.vars["chain_steps"])
            stats["max_yellow"] = max(stats["max_yellow"], len(st.vars["moved"]))
            if stats["decisions"] % 7 == 0 or len(log) == checkpoint:
                data = json.loads(json.dumps(st.to_json()))
                back = game.state_from_json(data)
                assert back.to_json() == st.to_json()
                assert back.loc == st.loc
                if len(log) == checkpoint and not st.over:
                    # A restored game (maybe paused inside a chain) plays on identically.
                    for a, b in ((st, back),):
                        s2 = a.copy()
                        for x in (s2, b):
                            r2 = random.Random(seed + 1)
                            while not x.over:
                                who = game.deciding_seats(x)[0]
                                opts = game.raw_options(x, who)
                                game.apply_in_place(x, who, opts[r2.randrange(len(opts))])
                        assert s2.to_json() == b.to_json()
        assert not st.sites[stash], "the game ended with pieces in the stash"
        assert all(not e[1].startswith("The chain of effects stopped")
                   for e in st.log_entries() if e[0] == "say")
        scores = game.scores(st) or {}
        best = max(scores.values())
        assert st.winners == sorted(s for s, v in scores.items() if v == best)
        stats["shared"] += len(st.winners) > 1
        stats["games"] += 1
        stats["results"].append((seed, st.winners, len(log)))
    return stats


@pytest.mark.parametrize("players", [4, 5, 6])
def test_random_games_keep_every_invariant(players: int) -> None:
    n, chunk = 1000, 50
    jobs = [(players, list(range(i, i + chunk))) for i in range(0, n, chunk)]
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(2, initializer=start_worker) as pool:
        batches = pool.map(_play_batch, jobs)
    elapsed = time.perf_counter() - start
    games = sum(b["games"] for b in batches)
    assert games == n
    max_chain = max(b["max_chain"] for b in batches)
    print(f"\n{players} seats: {games} games in {elapsed:.1f}s; "
          f"{sum(b['decisions'] for b in batches)} decisions; longest chain {max_chain} "
          f"effects; most yellow moves in one placement "
          f"{max(b['max_yellow'] for b in batches)}; shared wins "
          f"{sum(b['shared'] for b in batches)}")
    assert max_chain < 2000
    again = _play_batch((players, [0, 1, 2]))
    assert again["results"] == batches[0]["results"][:3], "same seed, same game"


def test_random_agents_play_through_the_playout(game: Game) -> None:
    for players in (4, 5, 6):
        result = play_game(game, players, 5, make_agents(players, 5))
        assert result.winners and result.final_state is not None
        assert result.scores is not None and len(result.scores) == players


def test_ismcts_positions_keep_the_chain_bookkeeping_of_a_placement(game: Game) -> None:
    """A search in the middle of a chain (blue's colour, yellow's destination) must play
    on from the chain as it stands: the pieces yellow already moved and the effects
    already counted are public bookkeeping, not secrets to draw anew (they were reset to
    a fresh set-up's, so a sampled position could move a piece twice)."""
    from interpreter.agents.information import InformationSet

    rng = random.Random(3)
    found = 0
    for seed in range(60):
        st = game.new_state(4, seed)
        while not st.over and found < 5:
            seat = game.deciding_seats(st)[0]
            if st.vars["moved"] or st.vars["chain_steps"]:
                sample = InformationSet(game, st, seat).sample(seed)
                assert sample.vars["moved"] == st.vars["moved"]
                assert sample.vars["chain_steps"] == st.vars["chain_steps"]
                assert sample.vars["queue"] == st.vars["queue"]
                found += 1
            st = game.apply(st, seat, rng.choice(game.legal_options(st, seat)))
        if found >= 5:
            break
    assert found >= 5, "no decision in the middle of a chain was reached"
