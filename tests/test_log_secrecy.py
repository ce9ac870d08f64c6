"""The log is a channel around the view: it must not rebuild what the view conceals.

A log line whose text describes a piece (its name, code or an attribute) is hidden from
a seat that may not see that piece *now*. The strongest check is a faithful pair of
histories: two games whose decisions differ only in which of two pieces went where,
reaching positions that differ only in pieces concealed from everyone, must look the
same to every seat, log included.
"""

from __future__ import annotations

import itertools
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import Game, compile_game
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.run.state import State
from interpreter.run.view import view

RULESETS = Path(__file__).resolve().parent / "rulesets"


def dump(v: dict[str, Any]) -> str:
    return json.dumps(v, sort_keys=True)


@cache
def memory_mode() -> Game:
    return load_game("high-rise", {"covered_hidden": True, "rows": 3, "cols": 3})


def replay(game: Game, seed: int, decisions: list[tuple[int, str]]) -> State:
    state = game.new_state(2, seed)
    for seat, notation in decisions:
        game.apply_in_place(state, seat, notation)
    return state


def random_decisions(game: Game, seed: int, count: int) -> list[tuple[int, str]]:
    rnd = random.Random(seed)
    state = game.new_state(2, seed)
    out = []
    while not state.over and len(out) < count:
        seat = game.deciding_seats(state)[0]
        option = rnd.choice(game.legal_options(state, seat))
        out.append((seat, option.notation))
        game.apply_in_place(state, seat, option)
    return out


def covered(game: Game, state: State, square_name: str, size: int, colour: str) -> bool:
    """Whether the piece of that colour and size on the square has a larger piece above
    it (the memory-mode rule, worked out here from the position, not by the engine)."""
    stack = state.sites[game.site_by_name[square_name]]
    sizes = game.attributes["size"]
    colours = game.attributes["colour"]
    for i, p in enumerate(stack):
        if colours[p] == colour and sizes[p] == size:
            return any(sizes[q] > size for q in stack[i + 1:])
    raise AssertionError(f"no {colour} {size} on {square_name}")


CODES = {"r": "red", "y": "yellow", "g": "green", "b": "blue", "k": "black", "p": "purple",
         "o": "orange", "c": "clear", "n": "cyan", "w": "white"}
SIZES = {"S": 1, "M": 2, "L": 3}


def parse(notation: str) -> tuple[str, int, str]:
    code, square = notation.split("-")
    return CODES[code[0]], SIZES[code[1]], square


def test_memory_mode_log_does_not_tell_which_covered_piece_is_where() -> None:
    """Swap which of two pieces a seat placed on two squares; once both are covered by
    larger pieces, neither seat can tell the two games apart, log included."""
    game = memory_mode()
    compared = 0
    for seed in range(40):
        decisions = random_decisions(game, seed, 30)
        first = replay(game, seed, decisions)
        found = 0
        for i, j in itertools.combinations(range(len(decisions)), 2):
            (seat_i, a), (seat_j, b) = decisions[i], decisions[j]
            colour_a, size_a, square_a = parse(a)
            colour_b, size_b, square_b = parse(b)
            if (seat_i != seat_j or a.split("-")[0] == b.split("-")[0] or square_a == square_b
                    or not covered(game, first, square_a, size_a, colour_a)
                    or not covered(game, first, square_b, size_b, colour_b)):
                continue
            swapped = list(decisions)
            swapped[i] = (seat_i, f"{b.split('-')[0]}-{square_a}")
            swapped[j] = (seat_j, f"{a.split('-')[0]}-{square_b}")
            second = replay(game, seed, swapped)
            if not (covered(game, second, square_a, size_b, colour_b)
                    and covered(game, second, square_b, size_a, colour_a)):
                continue
            assert first.lists() != second.lists()  # the positions really differ
            for seat in (1, 2):
                assert dump(view(game, first, seat)) == dump(view(game, second, seat))
            found += 1
            if found == 2:
                break
        compared += found
    assert compared >= 20


def test_memory_mode_log_still_shows_what_is_visible() -> None:
    """Only lines about hidden pieces are hidden: a placement still on top is readable."""
    game = memory_mode()
    decisions = random_decisions(game, 3, 6)
    state = replay(game, 3, decisions)
    log = view(game, state, 1)["log"]
    shown = [e["decision"] for e in log if "seat" in e]
    assert len(shown) == 6
    _, last = decisions[-1]
    assert shown[-1] == last  # the last piece placed is on top of its stack: visible
    assert None in shown or all(
        not covered(game, state, parse(n)[2], parse(n)[1], parse(n)[0]) for _, n in decisions)


def test_without_memory_mode_no_placement_is_hidden() -> None:
    game = load_game("high-rise", {})
    decisions = random_decisions(game, 5, 12)
    state = replay(game, 5, decisions)
    for seat in (1, 2):
        shown = [e["decision"] for e in view(game, state, seat)["log"] if "seat" in e]
        assert shown == [n for _, n in decisions]


@cache
def cards() -> Game:
    return compile_game(load_ruleset(RULESETS / "cards.yaml"))


def hidden_from(game: Game, state: State, seat: int, piece: int) -> bool:
    """Worked out from the zone declarations alone (not the engine's view code)."""
    site = state.loc[piece]
    zone = game.site_zone[site]
    if state.over and zone.reveal_at_end:
        return False
    return zone.contents == "nobody" or (zone.contents == "owner"
                                         and game.site_owner[site] != seat)


def test_a_revealed_choice_of_a_card_now_hidden_is_not_readable() -> None:
    """Cards: a simultaneous pick is revealed, then a tucked card lies face down in its
    owner's pile: the reveal line must not keep naming it for the other seats."""
    game = cards()
    found = 0
    for seed in range(60):
        rnd = random.Random(seed)
        state = game.new_state(2, seed)
        while not state.over:
            seat = game.deciding_seats(state)[0]
            game.apply_in_place(state, seat, rnd.choice(game.legal_options(state, seat)))
            for entry in state.log_entries():
                if entry[0] != "say" or "revealed tuck" not in entry[1]:
                    continue
                assert entry[3], "the reveal line records the card it names"
                for viewer in (1, 2):
                    texts = [e.get("say") for e in view(game, state, viewer)["log"]]
                    secret = any(hidden_from(game, state, viewer, p) for p in entry[3])
                    assert (entry[1] in texts) != secret
                    found += secret
    assert found > 20


@pytest.mark.parametrize("name, options, players", [
    ("high-rise", {"covered_hidden": True}, 2), ("cards", {}, 3)])
def test_the_text_of_a_line_about_a_hidden_piece_never_shows(name: str, options: dict,
                                                              players: int) -> None:
    """Rewrite the text of every log line that names a piece hidden from a seat: that
    seat's view must not change (so nothing of the text can reach it)."""
    game = cards() if name == "cards" else load_game(name, options)
    rewritten = 0
    for seed in range(6):
        rnd = random.Random(seed)
        state = game.new_state(players, seed)
        steps = 0
        while not state.over and steps < 80:
            steps += 1
            seat = game.deciding_seats(state)[0]
            game.apply_in_place(state, seat, rnd.choice(game.raw_options(state, seat)))
            if steps % 9:
                continue
            for viewer in range(1, players + 1):
                other = state.copy()
                entries = other.log_entries()
                changed = False
                for k, e in enumerate(entries):
                    refs = e[4] if e[0] == "decision" else e[3]
                    if any(hidden_from_view(game, state, viewer, p) for p in refs):
                        text_at = 2 if e[0] == "decision" else 1
                        entries[k] = (*e[:text_at], e[text_at] + " (X)", *e[text_at + 1:])
                        changed = True
                if not changed:
                    continue
                other.log = None
                for e in entries:
                    other.append_log(e)
                assert dump(view(game, state, viewer)) == dump(view(game, other, viewer))
                rewritten += 1
    assert rewritten > 5


def hidden_from_view(game: Game, state: State, seat: int, piece: int) -> bool:
    """Hidden by the zone's declarations, or shown only as a hidden piece in the view."""
    if hidden_from(game, state, seat, piece):
        return True
    site = state.loc[piece]
    zone = game.site_zone[site]
    if zone.conceal is None or (state.over and zone.reveal_at_end):
        return False
    env = game.env(state)
    env.temps.update(piece=piece, place=site, viewer=seat)
    return bool(zone.conceal(env))


@cache
def cards_on_record() -> Game:
    """The same game, its secret picks declared on the record (`on_record: true`)."""
    text = (RULESETS / "cards.yaml").read_text(encoding="utf-8")
    marked = text.replace("    seats: seats\n", "    seats: seats\n    on_record: true\n", 1)
    assert marked != text
    return compile_game(load_ruleset_text(marked, str(RULESETS / "cards.yaml")))


def test_a_reveal_on_the_record_stays_readable_for_those_who_saw_it() -> None:
    """With `on_record`, the reveal line keeps naming the card for the seats that could see
    it when it was revealed (everyone: it was played face up), even once it lies face down,
    and for a spectator too (it was on the open table); the same histories without it hide
    the line. Nothing else of the views differs."""
    plain, marked = cards(), cards_on_record()
    kept = {0: 0, 1: 0, 2: 0}
    for seed in range(40):
        rnd = random.Random(seed)
        a, b = plain.new_state(2, seed), marked.new_state(2, seed)
        while not a.over:
            seat = plain.deciding_seats(a)[0]
            option = rnd.choice(plain.legal_options(a, seat))
            plain.apply_in_place(a, seat, option.notation)
            marked.apply_in_place(b, seat, option.notation)
            for viewer in (0, 1, 2):  # 0: a spectator
                seen_a, seen_b = view(plain, a, viewer), view(marked, b, viewer)
                log_a, log_b = seen_a.pop("log"), seen_b.pop("log")
                assert dump(seen_a) == dump(seen_b)
                for x, y in zip(log_a, log_b, strict=True):
                    if x != y:  # only a hidden reveal line, now readable
                        assert x == {"say": None} and "revealed" in y["say"]
                        kept[viewer] += 1
    assert min(kept.values()) > 20, kept
