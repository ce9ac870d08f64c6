"""Non-interference: what a seat may not see cannot change what it is shown.

For random positions of the `cards` ruleset (face-down deck, owner-only hands, a vault
nobody sees, private coins, secret bids and simultaneous secret plays), a second state
is built that differs only in what seat S may not see; S's view must be byte-identical.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

from interpreter.assemble.game import Game, compile_game
from interpreter.load.loader import load_ruleset
from interpreter.run.state import State
from interpreter.run.view import redacted_log, view

RULESETS = Path(__file__).resolve().parent / "rulesets"


@cache
def cards() -> Game:
    return compile_game(load_ruleset(RULESETS / "cards.yaml"))


def dump(v: dict[str, Any]) -> str:
    return json.dumps(v, sort_keys=True)


def random_position(game: Game, players: int, seed: int, steps: int) -> State:
    rnd = random.Random(seed)
    state = game.new_state(players, seed)
    for _ in range(steps):
        if state.over:
            break
        seat = rnd.choice(game.deciding_seats(state))
        game.apply_in_place(state, seat, rnd.choice(game.raw_options(state, seat)))
    return state


def _ints(value: Any) -> set[int]:
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_ints(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def pinned_pieces(state: State) -> set[int]:
    """Pieces the paused machine refers to (a pending pick, a bound name): left alone.
    Every whole number in the frames counts, which may pin a few extra pieces."""
    return _ints([f[1] for f in state.frames]) | _ints(state.triggers)


def hidden_sites(game: Game, state: State, seat: int) -> list[int]:
    """Places whose contents `seat` may not see, from the ruleset's declarations."""
    out = []
    for zone_decl in game.ruleset.zones:
        zone = game.zones[zone_decl.id]
        if state.over and zone.reveal_at_end:
            continue
        for s in zone.sites_in_play(state.players):
            owner = game.site_owner[s]
            if zone.contents == "nobody" or (zone.contents == "owner" and owner != seat):
                out.append(s)
    return out


def differ_in_hidden(game: Game, state: State, seat: int, rnd: random.Random) -> State:
    """A copy of `state` with the pieces in `seat`'s hidden places shuffled among those
    places (each place keeps its size) and hidden variables changed."""
    other = state.copy()
    pinned = pinned_pieces(state)
    slots = [(s, i) for s in hidden_sites(game, state, seat)
             for i, p in enumerate(state.sites[s]) if p not in pinned]
    pieces = [other.sites[s][i] for s, i in slots]
    rnd.shuffle(pieces)
    for (s, i), p in zip(slots, pieces, strict=True):
        other.stack(s)[i] = p
        other.loc[p] = s
    for var in game.variables.values():
        if state.over and var.reveal_at_end:
            continue
        if var.per_seat:
            for s in range(1, state.players + 1):
                if var.visible_to == "nobody" or (var.visible_to == "owner" and s != seat):
                    other.seat_vars[var.id][s - 1] = rnd.randrange(100)
        elif var.visible_to != "everyone":
            other.vars[var.id] = rnd.randrange(100)
    return other


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st_.sampled_from([2, 3]), seed=st_.integers(0, 10_000),
       steps=st_.integers(0, 40), shuffle_seed=st_.integers(0, 10_000))
def test_views_do_not_depend_on_what_a_seat_may_not_see(players: int, seed: int, steps: int,
                                                         shuffle_seed: int) -> None:
    game = cards()
    state = random_position(game, players, seed, steps)
    rnd = random.Random(shuffle_seed)
    for seat in range(1, players + 1):
        other = differ_in_hidden(game, state, seat, rnd)
        assert dump(view(game, state, seat)) == dump(view(game, other, seat))
        if seat in game.deciding_seats(state):
            assert [o.notation for o in game.legal_options(state, seat)] == \
                [o.notation for o in game.legal_options(other, seat)]


def test_the_hidden_variation_is_not_vacuous() -> None:
    """The states compared above really differ, and a seat that may see the change
    does get a different view (so the comparison can fail)."""
    game = cards()
    differing = 0
    for seed in range(30):
        state = random_position(game, 2, seed, seed % 12)
        other = differ_in_hidden(game, state, 1, random.Random(seed))
        if other.lists() != state.lists():
            differing += 1
            if other.sites[game.zones["hand"].site_for(2)] != \
                    state.sites[game.zones["hand"].site_for(2)]:
                assert dump(view(game, state, 2)) != dump(view(game, other, 2))
    assert differing >= 25


def relabel_identical(game: Game, state: State, rnd: random.Random) -> tuple[State, int]:
    """Exchange the ids of pairs of identical pieces everywhere: the same position."""
    other = state.copy()
    pinned = pinned_pieces(state)
    by_kind: dict[tuple, list[int]] = {}
    for p in range(game.n_pieces):
        if p not in pinned:
            by_kind.setdefault(game.piece_kind[p], []).append(p)
    swaps = 0
    for group in by_kind.values():
        if len(group) == 2 and rnd.random() < 0.8:
            a, b = group
            sa, sb = other.loc[a], other.loc[b]
            ia, ib = other.sites[sa].index(a), other.sites[sb].index(b)
            other.stack(sa)[ia], other.stack(sb)[ib] = b, a
            other.loc[a], other.loc[b] = sb, sa
            swaps += 1
            relabel_log(other, {a: b, b: a})
    return other, swaps


def relabel_log(state: State, mapping: dict[int, int]) -> None:
    """The log's references to pieces, relabelled as the pieces were (same history)."""
    entries = []
    for e in state.log_entries():
        refs = e[4] if e[0] == "decision" else e[3]
        refs = tuple(mapping.get(p, p) for p in refs)
        if e[0] == "decision" and len(e) > 5:  # the words' pieces too
            entries.append((*e[:4], refs, e[5], tuple(mapping.get(p, p) for p in e[6])))
        elif e[0] == "decision":
            entries.append((*e[:4], refs))
        else:
            entries.append((*e[:3], refs))
    state.log = None
    for e in entries:
        state.append_log(e)


@settings(max_examples=150, deadline=None)
@given(players=st_.sampled_from([2, 3]), seed=st_.integers(0, 10_000),
       steps=st_.integers(0, 60))
def test_views_name_no_piece_ids(players: int, seed: int, steps: int) -> None:
    """Exchanging identical pieces (even visible ones) changes no view: views describe
    pieces by their attributes, never by id."""
    game = cards()
    state = random_position(game, players, seed, steps)
    other, swaps = relabel_identical(game, state, random.Random(seed))
    assert swaps > 0
    for seat in range(0, players + 1):  # seat 0: a spectator
        assert dump(view(game, state, seat)) == dump(view(game, other, seat))


def test_view_pieces_are_attribute_descriptions_only() -> None:
    game = cards()
    allowed = set(game.attribute_order)
    checked = 0
    for seed in range(20):
        state = random_position(game, 3, seed, seed * 3)
        for seat in (1, 2, 3):
            v = view(game, state, seat)

            def walk(node: Any) -> None:
                nonlocal checked
                if isinstance(node, dict):
                    if "pieces" in node:
                        for p in node["pieces"]:
                            assert isinstance(p, dict) and set(p) <= allowed
                            checked += 1
                    for value in node.values():
                        walk(value)
                elif isinstance(node, list):
                    for value in node:
                        walk(value)
            walk(v["zones"])
    assert checked > 100


def test_secret_decisions_stay_secret_until_the_end() -> None:
    game = cards()
    checked = 0
    for seed in range(25):
        rnd = random.Random(seed)
        state = game.new_state(2, seed)
        while not state.over:
            raw = state.log_entries()
            for seat in (1, 2):
                shown = [e for e in redacted_log(game, state, seat) if "seat" in e]
                decisions = [e for e in raw if e[0] == "decision"]
                assert len(shown) == len(decisions)
                for entry, original in zip(shown, decisions, strict=True):
                    who, notation, secret = original[1:4]
                    if secret and who != seat:
                        assert entry["decision"] is None
                        checked += 1
                    else:
                        assert entry["decision"] == notation
                private = [e for e in raw if e[0] == "say" and e[2] is not None
                           and seat not in e[2]]
                texts = {e.get("say") for e in redacted_log(game, state, seat)}
                assert not any(e[1] in texts for e in private)
            seat = rnd.choice(game.deciding_seats(state))
            state = game.apply(state, seat, rnd.choice(game.legal_options(state, seat)))
        # After the end, everything is readable.
        for seat in (1, 2):
            assert all(e["decision"] is not None
                       for e in redacted_log(game, state, seat) if "seat" in e)
    assert checked > 200


def test_a_pending_secret_pick_does_not_show() -> None:
    """Seat 2 picks different cards in two copies of a state: seat 1 cannot tell."""
    game = cards()
    compared = 0
    for seed in range(40):
        state = random_position(game, 2, seed, seed % 7)
        decision = game.decision(state)
        if state.over or not decision.simultaneous or game.deciding_seats(state) != [1, 2]:
            continue
        options = game.legal_options(state, 2)
        if len(options) < 2:
            continue
        a = game.apply(state, 2, options[0])
        b = game.apply(state, 2, options[-1])
        assert a.to_json() != b.to_json()
        assert dump(view(game, a, 1)) == dump(view(game, b, 1))
        assert [o.notation for o in game.legal_options(a, 1)] == \
            [o.notation for o in game.legal_options(b, 1)]
        assert dump(view(game, a, 2)) != dump(view(game, b, 2))  # seat 2 knows its pick
        compared += 1
    assert compared >= 5


def test_a_secret_bid_does_not_show() -> None:
    game = cards()
    for seed in range(10):
        state = game.new_state(3, seed)
        a, b = game.apply(state, 1, "bid0"), game.apply(state, 1, "bid3")
        for seat in (2, 3):
            assert dump(view(game, a, seat)) == dump(view(game, b, seat))
        assert dump(view(game, a, 1)) != dump(view(game, b, 1))


def test_backs_show_which_deck_a_hidden_card_is_from_and_nothing_more() -> None:
    """A set's `back` is public, like a card's back: a hand another seat may not look at
    shows how many cards of each back it holds; two hands with the same backs look alike."""
    from interpreter.api import load_game

    game = load_game("aquarius-rising")
    state = game.new_state(2, 5)
    theirs = view(game, state, 1)["zones"]
    hand, goal = theirs["hand"]["2"], theirs["goals"]["2"]
    assert hand == {"count": len(state.sites[game.zones["hand"].site_for(2)]),
                    "backs": {"Aquarius card": hand["count"]}}
    assert goal == {"count": 1, "backs": {"Goal card": 1}}
    assert theirs["draw_pile"] == {"count": 49, "backs": {"Aquarius card": 49}}
    mine = view(game, state, 2)["zones"]["hand"]["2"]
    assert "backs" not in mine and len(mine["pieces"]) == hand["count"]  # faces, to its owner
    # a different Aquarius card in that hand (swapped with the deck's top): same view
    other = state.copy()
    hand_site = game.zones["hand"].site_for(2)
    deck_site = game.zones["draw_pile"].first
    a, b = other.sites[hand_site][0], other.sites[deck_site][-1]
    assert game.piece_kind[a] != game.piece_kind[b]
    other.stack(hand_site)[0], other.stack(deck_site)[-1] = b, a
    other.loc[a], other.loc[b] = deck_site, hand_site
    other._cache = None
    assert dump({k: v for k, v in view(game, other, 1).items() if k != "log"}) == dump(
        {k: v for k, v in view(game, state, 1).items() if k != "log"})
