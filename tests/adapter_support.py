"""Shared by the OpenSpiel and PettingZoo adapter tests: which games to run, and
positions that differ only in what one seat may not see."""

from __future__ import annotations

import random
from typing import Any

from interpreter.agents.random_agent import RandomAgent
from interpreter.api import load_game
from interpreter.load.catalog import bundled_names
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import _HiddenPieces


def bundled_configs(flipped: bool = True) -> list[tuple[str, int, dict[str, Any]]]:
    """Every bundled game at its fewest and most seats with its default options, and
    (`flipped`) with each yes/no option turned the other way at its fewest seats."""
    out: list[tuple[str, int, dict[str, Any]]] = []
    for name in bundled_names():
        game = load_game(name)
        for seats in sorted({game.min_seats, game.max_seats}):
            out.append((name, seats, {}))
        for option in game.ruleset.options if flipped else ():
            if option.type == "bool":
                out.append((name, game.min_seats, {option.id: not game.options[option.id]}))
    return out


def config_id(config: tuple[str, int, dict[str, Any]]) -> str:
    name, seats, options = config
    return "-".join([name, str(seats), *(f"{k}={v}" for k, v in options.items())])


def random_position(game: Game, players: int, seed: int, decisions: int) -> State:
    """The position after `decisions` random decisions (or the end)."""
    state = game.new_state(players, seed)
    agent = RandomAgent(seed)
    for _ in range(decisions):
        if state.over:
            break
        game.play_sampled(state, game.deciding_seats(state)[0], agent)
    return state


def reshuffled(game: Game, state: State, seat: int, salt: int) -> State:
    """`state` with every fact `seat` may not know changed: the pieces it cannot see
    dealt again among the places where pieces of their back lie, the values of others'
    secret per-seat variables swapped among them, the random generator changed."""
    rnd = random.Random(salt)
    other = state.copy()
    hidden = _HiddenPieces(game, state, seat)
    by_back: dict[str | None, list[tuple[int, int]]] = {}
    for site, stack in enumerate(state.lists()):
        for i, p in enumerate(stack):
            if hidden.hidden(p):
                by_back.setdefault(game.piece_backs[p], []).append((site, i))
    for slots in by_back.values():
        pieces = [state.sites[site][i] for site, i in slots]
        rnd.shuffle(pieces)
        for (site, i), piece in zip(slots, pieces, strict=True):
            other.stack(site)[i] = piece
            other.loc[piece] = site
    for var in game.variables.values():
        if var.per_seat and var.visible_to == "owner":
            values = other.seat_vars[var.id]
            others = [s for s in range(state.players) if s != seat - 1]
            shuffled = [values[s] for s in others]
            rnd.shuffle(shuffled)
            for s, value in zip(others, shuffled, strict=True):
                values[s] = value
    other.rng ^= rnd.getrandbits(64)
    other._cache = None
    return other


HIDDEN = [("high-rise", 2, {}), ("bottoms-up", 4, {}), ("aquarium", 3, {}),
          ("aquarius-rising", 3, {})]
"""Games with something hidden from some seat, and seats to play them with (not High
Rise's memory mode: `reshuffled` would swap covered pieces with dice, both without a
back, into positions the rules cannot read)."""


def hidden_pairs(name: str, players: int, options: dict[str, Any]
                 ) -> list[tuple[Game, State, State, int]]:
    """(game, position, the position with what `seat` may not see changed, seat), at a
    few depths of random games; at least one pair really differs."""
    game = load_game(name, options)
    out = []
    for seed, depth in [(1, 5), (2, 25), (3, 60)]:
        state = random_position(game, players, seed, depth)
        if state.over:
            continue
        seat = game.deciding_seats(state)[0]
        for s in {seat, seat % players + 1}:
            for salt in (1, 2):
                out.append((game, state, reshuffled(game, state, s, salt), s))
    assert any(a.lists() != b.lists() or a.seat_vars != b.seat_vars for _, a, b, _ in out)
    return out
