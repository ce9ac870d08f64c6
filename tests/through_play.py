"""Non-interference through play: two games that differ only in a hidden fact reached by
playing, followed by the same public moves, look the same to a seat until it learns the
fact.

Comparing a state with a copy changed by surgery on what a seat may not see (another
hand shuffled, a hidden value redrawn) misses every value the rules *derive* from a
hidden fact: the copy keeps the derived value as it was. Aquarium's public `bank` was
such a value (every payment moved it, so the bank told each player's beads). Here the
second game is reached through the rules themselves, so everything the rules derive from
the hidden fact differs as it would in play. The kinds of pair (`KINDS`):

- "pick": a decision the observer may not read (another seat's secret choice) made
  otherwise, with another legal option of that seat;
- "draw": one random draw of the rules (a shuffle, a die) come out otherwise, every
  later draw as before, when that changes something the observer may not see;
- "seed": a game of another seed whose first position the observer sees exactly as the
  first game's (so it cannot catch a leak that shows at once: "draw" does);
- "redeal" / "redeal-one": the position with the pieces the observer may not see dealt
  anew (all of them, or those of one back: the goal cards, not the hands) and its
  hidden values drawn anew, as `ismcts` draws positions, kept when the observer sees it
  as the true one. This is surgery too, so it cannot see a derived value; it checks the
  rest of the game from there.

Then both games play the first game's decisions, by notation. At every decision the
observer's whole view (every zone, count, variable and log line) and its options (their
notations and labels) must be the same in both, until a notation is no longer legal in
the second game (the public moves part: no fault) or the observer legitimately learns
the fact (`learned`): a piece it sees differs (revealed, or a card dealt otherwise came
up), a value of its own differs (its own secret colour), a line told to it alone, a
decision it may read or the rules' line revealing a simultaneous pick differs, a line of
the log about a piece it saw differs, or the game is over. Any other difference is a
leak: something the observer sees (a variable, a count, a line of the log that names no
piece, who decides, an option) depends on what it may not know. The message names the
game, the pair and the first differing parts.

One difference is known and let through, counted apart ("identical pieces told apart"):
the log hides a line about a piece while that piece is out of the seat's sight and shows
it again when it comes back, so when one of two identical cards comes up, which lines
come back tells which of the two it is (see `_twins`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from interpreter.agents.information import InformationSet
from interpreter.errors import IllegalMove, RuleError
from interpreter.play.game import Game, normalize_notation
from interpreter.run import rng as rngmod
from interpreter.run.state import State
from interpreter.run.view import (
    SPECTATOR,
    _HiddenPieces,
    _may_see,
    describe_piece,
    redacted_log,
    view,
)
from interpreter.simulate.playout import choose_option, make_agents

Move = tuple[int, str, tuple]
"""A decision: the seat, its option's notation and the option in internal form."""


class Leak(AssertionError):
    """A seat's view differs between two games it may not tell apart."""


@dataclass
class Tally:
    """What a sweep compared: pairs by kind, decisions compared after the divergence,
    and why each pair's comparison stopped."""

    pairs: Counter[str] = field(default_factory=Counter)
    compared: int = 0
    stopped: Counter[str] = field(default_factory=Counter)

    def add(self, kind: str, compared: int, why: str) -> None:
        self.pairs[kind] += 1
        self.compared += compared
        self.stopped[why] += 1


def random_moves(game: Game, players: int, seed: int, limit: int = 10_000) -> list[Move]:
    """The decisions of a game of the random players of `seed`."""
    state = game.new_state(players, seed)
    agents = make_agents(players, seed)
    moves: list[Move] = []
    while not state.over and len(moves) < limit:
        seat = game.deciding_seats(state)[0]
        raw = choose_option(game, state, seat, agents[seat])
        moves.append((seat, notation_of(game, state, seat, raw), raw))
        game.apply_in_place(state, seat, raw)
    return moves


def notation_of(game: Game, state: State, seat: int, raw: tuple) -> str:
    """The notation of one option of `seat`'s decision (without listing the others)."""
    spec = game.choices[state.frames[-1][0]]
    return spec.render(game.env(state), seat, raw, label=False)


def play(game: Game, state: State, move: Move) -> None:
    """Carry out the option of this notation: the same option when it is legal and reads
    the same here (the quick way), else whichever option has the notation."""
    seat, notation, raw = move
    if (raw in game.raw_options(state, seat) and normalize_notation(
            notation_of(game, state, seat, raw)) == normalize_notation(notation)):
        game.apply_in_place(state, seat, raw)
    else:
        game.apply_in_place(state, seat, notation)


def seen(game: Game, state: State, seat: int, before: State | None = None
         ) -> dict[str, Any]:
    """All `seat` is shown: its view (with the last move marked, given the state
    `before` it), and its options (notation and label) when it decides."""
    shown = view(game, state, seat, before=before)
    options = ([(o.notation, o.label) for o in game.legal_options(state, seat)]
               if seat in shown["deciding"] else [])
    return {"view": shown, "options": options}


# -- following two games with the same moves -------------------------------------------------
def follow(game: Game, a: State, b: State, seat: int, moves: list[Move], label: str,
           dealt: bool = False) -> tuple[int, str]:
    """Play `moves` in both games (copies), comparing what `seat` is shown before each
    and at the end. Returns (decisions compared, why the comparison stopped); raises
    Leak at a difference the seat may not legitimately see. `dealt`: `b` was dealt
    anew from what the seat sees (see `learned`)."""
    a, b = a.copy(), b.copy()
    before_a = before_b = None  # the states before the last move, to mark it
    for step in range(len(moves) + 1):
        seen_a, seen_b = seen(game, a, seat, before_a), seen(game, b, seat, before_b)
        if seen_a != seen_b:
            why = learned(game, a, b, seat, seen_a["view"], seen_b["view"], dealt)
            if why is None:
                raise Leak(f"{label}: after {step} more decisions, seat {seat} is shown "
                           f"different things: {differences(seen_a, seen_b)}")
            return step, why
        if a.over or b.over or step == len(moves):
            return step + 1, "over" if a.over else "end of moves"
        before_a, before_b = a.copy(), b.copy()
        try:
            play(game, a, moves[step])
        except (IllegalMove, RuleError):
            return step + 1, "end of moves"  # the first game's moves stop being legal
        try:
            play(game, b, moves[step])
        except (IllegalMove, RuleError):
            return step + 1, "illegal"
    raise AssertionError("unreachable")


def learned(game: Game, a: State, b: State, seat: int, view_a: dict[str, Any],
            view_b: dict[str, Any], dealt: bool = False) -> str | None:
    """Why `seat` may see these two views differ (None: it may not).

    With `dealt` (a position dealt anew from what the seat sees), who decides may differ
    too: the deal sees the view, not the history, so it may give a seat cards it could
    not hold (Aquarium: a hand is known from the cards its player has played), and a seat
    with no card to play is not asked. Two games reached by play never differ so."""
    if a.over or b.over:
        return "over"
    if _piece_differs(view_a["zones"], view_b["zones"]):
        return "a piece it sees"
    if _own_value_differs(game, view_a["variables"], view_b["variables"], seat):
        return "its own value"
    if dealt and _alike_but(view_a, view_b, ("deciding", "current", "prompt", "turn")):
        return "who decides (a deal play cannot reach)"
    entries_a, entries_b = _readable(a, seat), _readable(b, seat)
    flips: list[tuple[dict[str, Any], dict[str, Any], tuple, tuple]] = []
    for x, y, raw_a, raw_b in zip(view_a["log"], view_b["log"], entries_a, entries_b,
                                  strict=False):
        if x == y:
            continue
        if x.keys() != y.keys() or x.get("seat") != y.get("seat"):
            return None
        if None in (x.get("decision", x.get("say")), y.get("decision", y.get("say"))):
            flips.append((x, y, raw_a, raw_b))
            continue
        if "seat" in x:
            return "a decision it reads"  # a secret pick revealed
        if raw_a[2] == raw_b[2] == (seat,):
            return "a line told to it alone"
        if _reveal(game, x["say"]) and _reveal(game, y["say"]) == _reveal(game, x["say"]):
            return "a pick revealed"
        if _named(game, a, raw_a) != _named(game, b, raw_b):
            return "a line about a piece it saw"
        return None
    if (flips and len(view_a["log"]) == len(view_b["log"])
            and _twins(game, flips) and _alike_but(view_a, view_b, ("log",))):
        return "identical pieces told apart"
    return None


def _twins(game: Game, flips: list[tuple[dict[str, Any], dict[str, Any], tuple, tuple]]
           ) -> bool:
    """Whether lines readable in one game only and lines readable in the other only name
    pieces of the same kinds: the log tells apart pieces that are alike (which of two
    identical cards came up), not what they are."""
    def kinds(side: int) -> set[tuple]:
        found = set()
        for flip in flips:
            shown, raw = flip[side], flip[2 + side]
            if shown.get("decision", shown.get("say")) is not None:
                refs = _refs(raw)
                found |= {(game.piece_kind[p], game.piece_backs[p]) for p in refs}
        return found
    return bool(kinds(0)) and kinds(0) == kinds(1)


def _alike_but(x: dict[str, Any], y: dict[str, Any], keys: tuple[str, ...]) -> bool:
    return ({k: v for k, v in x.items() if k not in keys}
            == {k: v for k, v in y.items() if k not in keys})


def _own_value_differs(game: Game, x: dict[str, Any], y: dict[str, Any], seat: int) -> bool:
    """Whether a value only `seat` sees of its own (its secret colour) differs."""
    return any(game.variables[var].per_seat and game.variables[var].visible_to == "owner"
               and x[var].get(str(seat)) != y[var].get(str(seat)) for var in x)


def _readable(state: State, seat: int) -> list[tuple]:
    """The log entries as `redacted_log` lists them for `seat`, as recorded."""
    return [e for e in state.log_entries() if e[0] == "decision"
            or e[2] is None or seat in e[2] or state.over]


def _reveal(game: Game, text: str | None) -> str | None:
    """The seat whose simultaneous secret pick a line reveals, if it is the rules' own
    line for that (`machine.resolve_simultaneous`: "Player 2 revealed work3")."""
    for s in range(1, game.max_seats + 1):
        if text and text.startswith((f"{game.seat_name(s)} revealed ",
                                     f"{game.seat_name(s)} revealed: ")):
            return game.seat_name(s)
    return None


def _named(game: Game, state: State, entry: tuple) -> list[dict[str, Any]]:
    """What the pieces a line of the log names are (their attributes)."""
    return [describe_piece(game, p, state) for p in _refs(entry)]


def _refs(entry: tuple) -> tuple:
    """The pieces a log entry names: a decision's notation and words, a line's text."""
    if entry[0] == "decision":
        return entry[4] + (entry[6] if len(entry) > 6 else ())
    return entry[3]


def _piece_differs(x: Any, y: Any) -> bool:
    """Whether two views' zones show, somewhere, a piece (described, not hidden) that
    is not the same in both: the seat sees something that differs."""
    if isinstance(x, dict) and isinstance(y, dict):
        if "pieces" in x or "pieces" in y:
            px, py = x.get("pieces") or [], y.get("pieces") or []
            for i in range(max(len(px), len(py))):
                p = px[i] if i < len(px) else None
                q = py[i] if i < len(py) else None
                if p != q and not (_hidden(p) and _hidden(q)):
                    return True
            return False
        return any(_piece_differs(x.get(k), y.get(k)) for k in x.keys() | y.keys())
    return False


def _hidden(piece: dict[str, Any] | None) -> bool:
    return piece is None or bool(piece.get("hidden"))


def differences(x: Any, y: Any, path: str = "", limit: int = 4) -> str:
    """The first few places where two values differ, as `path: a ≠ b`."""
    found = list(_differences(x, y, path))[:limit]
    return "; ".join(f"{p or 'the whole'}: {a!r} ≠ {b!r}" for p, a, b in found)


def _differences(x: Any, y: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(x.keys() | y.keys(), key=str):
            yield from _differences(x.get(k), y.get(k), f"{path}.{k}" if path else str(k))
    elif isinstance(x, list | tuple) and isinstance(y, list | tuple) and len(x) == len(y):
        for i, (p, q) in enumerate(zip(x, y, strict=True)):
            yield from _differences(p, q, f"{path}[{i}]")
    elif x != y:
        yield path, _short(x), _short(y)


def _short(value: Any) -> Any:
    text = repr(value)
    return value if len(text) <= 120 else text[:117] + "..."


# -- the pairs -------------------------------------------------------------------------------
KINDS = ("pick", "draw", "seed", "redeal", "redeal-one")


@dataclass
class Pair:
    """Two games `seat` may not tell apart, and the moves both play from there."""

    kind: str
    label: str
    seat: int
    a: State
    b: State
    moves: list[Move]

    def follow(self, game: Game) -> tuple[int, str]:
        return follow(game, self.a, self.b, self.seat, self.moves, self.label,
                      dealt=self.kind.startswith("redeal"))


def pairs(game: Game, players: int, seed: int, *, kinds: tuple[str, ...] = KINDS,
          observers: tuple[int, ...] | None = None, picks: int = 4, draws: int = 4,
          seeds_tried: int = 12, redeals: int = 3) -> Iterator[Pair]:
    """The pairs of the random game of `seed`, for each observer (default: every seat and
    a spectator):
    up to `picks` hidden picks, up to `draws` random draws of the rules made otherwise
    (of those that change what the observer may not see), the first other seed (of
    `seeds_tried`) whose first position it sees alike, and `redeals` re-deals of each
    kind at random decisions. Each pair is made as the game is replayed (the positions
    of a game of Aquarius Rising are too big to keep them all)."""
    moves = random_moves(game, players, seed)
    rnd = random.Random(seed)
    where = f"{game.name}, {players} players, seed {seed}"
    for seat in observers or range(SPECTATOR, players + 1):
        if "draw" in kinds:
            yield from other_draws(game, players, seed, moves, seat, rnd, draws, where)
        points = {kind: {rnd.randrange(len(moves) + 1) for _ in range(redeals)}
                  for kind in ("redeal", "redeal-one") if kind in kinds}
        picked = 0
        state = game.new_state(players, seed)
        if "seed" in kinds:
            for b in other_deals(game, state, seed, seat, seeds_tried):
                yield Pair("seed", f"{where}, dealt otherwise", seat, state.copy(), b, moves)
                break
        for k in range(len(moves) + 1):
            for kind, at in points.items():
                if k in at:
                    b = redeal(game, state, seat, rnd, one_back=kind == "redeal-one")
                    if b is not None:
                        yield Pair(kind, f"{where}, re-dealt at decision {k}"
                                   + (" (one kind of back)" if kind == "redeal-one" else ""),
                                   seat, state.copy(), b, moves[k:])
            if k == len(moves):
                break
            mover, notation, _ = moves[k]
            if "pick" in kinds and picked < picks and mover != seat and _secret(game, state):
                before = state.copy()
                play(game, state, moves[k])
                entries = [e for e in redacted_log(game, state, seat) if "seat" in e]
                others = [o for o in game.legal_options(before, mover)
                          if o.notation != notation]
                if others and entries[-1]["decision"] is None:
                    picked += 1
                    yield Pair("pick", f"{where}, decision {k + 1} picked otherwise", seat,
                               state.copy(), game.apply(before, mover, rnd.choice(others).raw),
                               moves[k + 1:])
            else:
                play(game, state, moves[k])


def _secret(game: Game, state: State) -> bool:
    """Whether the decision being taken is a secret one."""
    return game.choices[state.frames[-1][0]].secret


@contextmanager
def counted_draws(change: tuple[int, int] | None = None) -> Iterator[list[int]]:
    """Count the rules' random draws (`rng.below`: shuffles, `random_int`, `roll`), each
    by how many outcomes it had; with `change` (i, k), draw i comes out k further on (mod
    its outcomes) and every later draw as before. (`arrange` deals with its own compiled
    generator: its draws are not counted.)"""
    sizes: list[int] = []
    original = rngmod.below

    def below(state: int, n: int) -> tuple[int, int]:
        state, x = original(state, n)
        if change is not None and len(sizes) == change[0]:
            x = (x + change[1]) % n
        sizes.append(n)
        return state, x

    rngmod.below = below
    try:
        yield sizes
    finally:
        rngmod.below = original


def replay(game: Game, players: int, seed: int, moves: list[Move], upto: int,
           change: tuple[int, int] | None = None) -> tuple[State, list[int]]:
    """The game of `seed` after `upto` of `moves` (with one draw changed), and how many
    draws the rules had made before each of its decisions."""
    with counted_draws(change) as sizes:
        state = game.new_state(players, seed)
        marks = [len(sizes)]
        for move in moves[:upto]:
            play(game, state, move)
            marks.append(len(sizes))
    return state, marks


def other_draws(game: Game, players: int, seed: int, moves: list[Move], seat: int,
                rnd: random.Random, wanted: int, where: str) -> Iterator[Pair]:
    """Pairs of the game and the same game with one random draw of the rules come out
    otherwise (a die rolled another number, a deck shuffled otherwise), from the first
    decision after the draw, when the draw changed something `seat` may not see."""
    with counted_draws() as sizes:
        _, marks = replay(game, players, seed, moves, len(moves))
    choices = [i for i, n in enumerate(sizes) if n > 1]
    rnd.shuffle(choices)
    found = 0
    for i in choices[:4 * wanted]:
        if found == wanted:
            return
        at = next(d for d, mark in enumerate(marks) if mark > i)
        change = (i, 1 + rnd.randrange(sizes[i] - 1))
        a, _ = replay(game, players, seed, moves, at)
        try:
            b, _ = replay(game, players, seed, moves, at, change)
        except (IllegalMove, RuleError):
            continue  # the changed draw made one of the moves before `at` illegal
        if _hidden_differs(game, a, b, seat):
            found += 1
            yield Pair("draw", f"{where}, draw {i + 1} (before decision {at + 1}) made "
                       "otherwise", seat, a, b, moves[at:])


def _hidden_differs(game: Game, a: State, b: State, seat: int) -> bool:
    """Whether two positions differ in something `seat` may not see: a place holding a
    piece hidden from it, or a value hidden from it."""
    hidden_a, hidden_b = _HiddenPieces(game, a, seat), _HiddenPieces(game, b, seat)
    for x, y in zip(a.lists(), b.lists(), strict=True):
        if x != y and (hidden_a.any(x) or hidden_b.any(y)):
            return True
    for var in game.variables.values():
        if var.per_piece:
            continue
        if var.per_seat:
            if any(a.seat_vars[var.id][s - 1] != b.seat_vars[var.id][s - 1]
                   and not _may_see(var.visible_to, s, seat, a.over, var.reveal_at_end)
                   for s in range(1, a.players + 1)):
                return True
        elif (a.vars[var.id] != b.vars[var.id]
              and not _may_see(var.visible_to, None, seat, a.over, var.reveal_at_end)):
            return True
    return False


def other_deals(game: Game, start: State, seed: int, seat: int, tries: int
                ) -> Iterator[State]:
    """First positions of other seeds that `seat` sees exactly as `start`."""
    first = seen(game, start, seat)
    for k in range(1, tries + 1):
        other = game.new_state(start.players, seed + 7919 * k)
        if seen(game, other, seat) == first:
            yield other


def redeal(game: Game, state: State, seat: int, rnd: random.Random, one_back: bool = False
           ) -> State | None:
    """`state` with what `seat` may not see dealt and drawn anew (the log and the random
    generator kept), if `seat` sees it exactly as `state` (None otherwise). With
    `one_back`, only the hidden pieces of one back (one deck: the goal cards, not the
    hands) are dealt anew and the rest is kept, so that the same moves stay legal for
    longer (another seat's hand dealt anew soon makes its next card unplayable)."""
    try:
        positions = InformationSet(game, state, seat)
        if _pinned(state) & set(positions.pieces):
            return None  # the paused rules hold a hidden piece (a pick not yet carried out)
        other = positions.sample(rnd.randrange(1 << 62))
        if one_back:
            groups = [slots for slots, group in positions.groups if len(group) > 1]
            if not groups:
                return None
            other = _keep_all_but(state, other, rnd.choice(groups))
        _same_where_alike(game, state, other, [x for slots, _ in positions.groups
                                               for x in slots])
        _keep_nobodys_values(game, state, other)
        other.log, other._log_json, other.rng = state.log, state._log_json, state.rng
        if seen(game, other, seat) == seen(game, state, seat):
            return other
    except RuleError:  # a position the rules never reach
        pass
    return None


def _pinned(state: State) -> set[int]:
    """Every whole number the paused machine holds (its local names, queued triggers):
    the pieces among them must stay where they are, or the rules would carry on with a
    piece that is no longer where they found it (a position play never reaches)."""
    found: set[int] = set()
    stack: list[Any] = [[f[1] for f in state.frames], state.triggers]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack += value.values()
        elif isinstance(value, list | tuple):
            stack += value
        elif isinstance(value, int) and not isinstance(value, bool):
            found.add(value)
    return found


def _same_where_alike(game: Game, state: State, dealt: State, slots: list[tuple[int, int]]
                      ) -> None:
    """Give each re-dealt place that holds a piece identical to the true one (the same
    attributes and back) the true piece itself, with its own values.

    Which of two identical pieces lies where is no fact of the game, so the pair should
    not differ in it. (The log does tell identical pieces apart: a line about a card is
    readable exactly while that card is in view, so when one of two identical cards comes
    up, the line about the one it is comes back. That is the log's redaction by piece,
    left as it is; this harness looks for facts, not for which twin is which.)"""
    def kind(p: int) -> tuple:
        return game.piece_kind[p], game.piece_backs[p]

    leftover: dict[tuple, list[int]] = {}
    open_slots: list[tuple[int, int]] = []
    for site, index in slots:
        true, drawn = state.sites[site][index], dealt.sites[site][index]
        if kind(true) == kind(drawn):
            dealt.stack(site)[index] = true
            dealt.loc[true] = site
            for var, values in dealt.piece_vars.items():
                values[true] = state.piece_vars[var][true]
        else:
            leftover.setdefault(kind(true), []).append(true)
            open_slots.append((site, index))
    for site, index in open_slots:  # a piece from the same place first, if one is left
        spare = leftover[kind(dealt.sites[site][index])]
        piece = next((p for p in spare if state.loc[p] == site), spare[-1])
        spare.remove(piece)
        dealt.stack(site)[index] = piece
        dealt.loc[piece] = site
    dealt._cache = None


def _keep_nobodys_values(game: Game, state: State, dealt: State) -> None:
    """The values nobody sees, as they were: most are the rules' own bookkeeping, worked
    out from play (Bottoms Up's queue of stacks to recalculate), which a new set-up would
    reset in the middle of what it keeps track of, a position play never reaches. (The
    pairs of another pick or draw reach such values through play.)"""
    for var in game.variables.values():
        if var.visible_to != "nobody" or var.per_piece:
            continue
        if var.per_seat:
            dealt.seat_vars[var.id] = state.seat_vars[var.id][:]
        else:
            dealt.vars[var.id] = state.vars[var.id]


def _keep_all_but(state: State, dealt: State, slots: list[tuple[int, int]]) -> State:
    """`state` with the pieces of `dealt` in these places (a deal of one back anew)."""
    out = state.copy()
    for site, index in slots:
        piece = dealt.sites[site][index]
        out.stack(site)[index] = piece
        out.loc[piece] = site
    out._cache = None
    return out


def sweep(game: Game, players: int, seeds: range, tally: Tally | None = None,
          **settings: Any) -> Tally:
    """Follow every pair of the random games of `seeds` (`settings` as for `pairs`);
    raises Leak at the first leak."""
    tally = tally or Tally()
    for seed in seeds:
        for pair in pairs(game, players, seed, **settings):
            tally.add(pair.kind, *pair.follow(game))
    return tally
