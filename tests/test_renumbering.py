"""A view names no piece and no place by the engine's number for it.

Pieces and places are plain whole numbers while a game runs, so nothing stops a number
standing for one from reaching a player: a variable that keeps fish (`kept: [17, 42]`),
a square remembered in a list, a `say` or a label that prints one. The check: the same
game with every piece and place numbered otherwise (a pile nobody sees comes first,
holding a copy of the first set, so every other number moves on) must look the same to
every seat at every decision, log and options included. Play is the same in both (the
rules never see the numbers, only the pieces and places they stand for), so any
difference is a number shown for what it stands for. A variable that holds pieces or
places says so (`holds: pieces` / `places`); its view names them as the seat sees them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load
from interpreter.assemble.game import Game, compile_game
from interpreter.load.loader import LoadedRuleset
from interpreter.load.schema import PieceSet, ZoneDecl
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.simulate.playout import choose_option, make_agents

RULESETS = Path(__file__).resolve().parent / "rulesets"
FIRST = "renumbering_first"
"""The pile (and set) put first in the renumbered game."""

GAMES: list[tuple[str, dict[str, Any], int, int]] = [
    # game, options, players, seed (Aquarium's: a pair of fish is kept early on)
    ("caldera-two-trios", {"power_play": True}, 3, 5), ("bottoms-up", {}, 4, 5),
    ("high-rise", {}, 2, 5), ("high-rise", {"covered_hidden": True}, 2, 5),
    ("high-rise-numbered-slips", {}, 2, 5), ("high-rise-black-white-covers", {}, 2, 5),
    ("aquarium", {}, 3, 0), ("aquarium", {"mode": "advanced"}, 2, 0),
    ("aquarius-rising", {}, 3, 5), ("aquarius-rising", {"chicken": True, "dragon": True}, 2, 5),
    (str(RULESETS / "cards.yaml"), {}, 3, 5), (str(RULESETS / "houses.yaml"), {}, 2, 5),
]


def renumbered(loaded: LoadedRuleset) -> LoadedRuleset:
    """The same ruleset with a pile nobody sees first among the zones and a copy of the
    first set in it first among the sets: every other piece and place has another
    number, and the rules play exactly as before."""
    rules = loaded.model
    first = rules.pieces.sets[0]
    copy = PieceSet.model_validate({**first.model_dump(exclude={"seat"}), "id": FIRST,
                                    "count": "1", "start": FIRST})
    pile = ZoneDecl.model_validate({"id": FIRST, "kind": "pile", "contents": "nobody",
                                    "count": "nobody", "reveal_at_end": False,
                                    "on_table": False})
    model = rules.model_copy(update={
        "zones": [pile, *rules.zones],
        "pieces": rules.pieces.model_copy(update={"sets": [copy, *rules.pieces.sets]})})
    return replace(loaded, model=model)


@cache
def pair(name: str, options: tuple[tuple[str, Any], ...]) -> tuple[Game, Game]:
    loaded = load(name)
    return compile_game(loaded, dict(options)), compile_game(renumbered(loaded), dict(options))


def shown(game: Game, state: State, seat: int) -> dict[str, Any]:
    """What `seat` is shown (its view and its options), the added pile left out."""
    seen = view(game, state, seat)
    seen["zones"].pop(FIRST, None)
    options = [(o.notation, o.label) for o in game.legal_options(state, seat)] \
        if seat in seen["deciding"] else []
    return {"view": seen, "options": options}


def compare(game: Game, other: Game, players: int, seed: int, every: int = 5) -> int:
    """Play a random game in both, by notation; compare what a spectator and the seat
    deciding are shown at every decision, and every seat every `every` decisions and at
    the end. Returns the comparisons made."""
    a, b = game.new_state(players, seed), other.new_state(players, seed)
    agents = make_agents(players, seed)
    compared = step = 0
    while True:
        deciding = game.deciding_seats(a)
        seats = range(SPECTATOR, players + 1) if step % every == 0 or a.over else [
            SPECTATOR, deciding[0]]
        for seat in seats:
            x, y = shown(game, a, seat), shown(other, b, seat)
            assert x == y, (f"{game.name}, seed {seed}, decision {step}, seat {seat}: "
                            f"{first_difference(x, y)}")
            compared += 1
        if a.over:
            return compared
        raw = choose_option(game, a, deciding[0], agents[deciding[0]])
        spec = game.choices[a.frames[-1][0]]
        notation = spec.render(game.env(a), deciding[0], raw, label=False)
        game.apply_in_place(a, deciding[0], raw)
        other.apply_in_place(b, deciding[0], notation)
        step += 1


def first_difference(x: Any, y: Any, path: str = "") -> str:
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(x.keys() | y.keys(), key=str):
            if x.get(k) != y.get(k):
                return first_difference(x.get(k), y.get(k), f"{path}.{k}")
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y, strict=True)):
            if p != q:
                return first_difference(p, q, f"{path}[{i}]")
    return f"{path.lstrip('.')}: {str(x)[:200]} ≠ {str(y)[:200]}"


@pytest.mark.parametrize(("name", "options", "players", "seed"), GAMES,
                         ids=[f"{Path(n).stem}-{'-'.join(o) or 'default'}-{p}"
                              for n, o, p, _ in GAMES])
def test_no_view_depends_on_how_pieces_and_places_are_numbered(
        name: str, options: dict[str, Any], players: int, seed: int) -> None:
    game, other = pair(name, tuple(sorted(options.items())))
    assert other.n_pieces > game.n_pieces and len(other.site_name) > len(game.site_name)
    assert compare(game, other, players, seed) > 20




@pytest.mark.parametrize(("name", "players", "seed"), [("aquarium", 3, 0),
                                                       ("aquarius-rising", 2, 5)])
def test_what_the_browser_is_sent_does_not_depend_on_numbering(name: str, players: int,
                                                               seed: int) -> None:
    """The browser's message (the board's picture, the view, the log, the options and
    what each involves) is the same in the renumbered game."""
    from test_serve_noninterference import sent

    from interpreter.serve.app import Server
    from interpreter.serve.tables import Store

    game, other = pair(name, ())
    server = Server(Store(None))
    a, b = game.new_state(players, seed), other.new_state(players, seed)
    agents = make_agents(players, seed)
    compared = 0
    for step in range(60):
        mover = game.deciding_seats(a)[0]
        if step % 6 == 0:
            for seat in (mover, None):
                x, y = (json.loads(sent(server, g, s, step, seat))
                        for g, s in ((game, a), (other, b)))
                y["view"]["zones"].pop(FIRST)
                assert x == y, first_difference(x, y)
                compared += 1
        raw = choose_option(game, a, mover, agents[mover])
        notation = game.choices[a.frames[-1][0]].render(game.env(a), mover, raw, label=False)
        game.apply_in_place(a, mover, raw)
        other.apply_in_place(b, mover, notation)
    assert compared == 20
