"""The gallery of classics against OpenSpiel: each bundled classic replayed move for move
in OpenSpiel's own game of the same name, and the outcomes of uniform random play in
the two engines compared.

A replay plays one game in our engine, each decision uniform over our legal options
(the harness's generator) and chance from our engine's own generator, and carries it
into OpenSpiel as it goes: at every decision the legal moves must correspond one to one
(each classic maps our notation to OpenSpiel's `action_to_string`), what our rules drew
at random (a deal, a die, a prize card) is read from the referee's state, hidden or not,
and given to OpenSpiel's chance node, and at the end both must be over with the same
returns. Used by tests/test_openspiel_gallery.py; `python tests/openspiel_gallery.py
[GAME ...]` prints the same figures.
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from interpreter.api import load_game
from interpreter.play.game import Game
from interpreter.run.state import State

Z99 = statistics.NormalDist().inv_cdf(1 - 0.01 / 2)
"""The two-sided 99% point of the normal distribution (2.576): each figure's interval."""
FIGURES = 4
Z99_ALL = statistics.NormalDist().inv_cdf(1 - 0.01 / (2 * FIGURES))
"""The 99% point for a game's four figures together (Bonferroni: 3.023). Uniform random
play in the two engines must agree on all four at once with 99% confidence; each figure
alone beyond 2.576 would be a false alarm in about one game in 25 of a correct gallery
of seven."""


class Referee:
    """Reads a game's state in the ruleset's own language (hidden pieces included)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._compiled: dict[str, Callable[[Any], Any]] = {}

    def read(self, state: State, expression: str) -> Any:
        compiled = self._compiled.get(expression)
        if compiled is None:
            compiled = self._compiled[expression] = self.game.compile_expression(expression)
        return compiled(self.game.env(state))


# -- the classics: our notation as OpenSpiel writes the same move ------------------------

def _square(notation: str) -> tuple[int, int]:
    """'b3' → (column from 0, row from 1)."""
    return ord(notation[0]) - ord("a"), int(notation[1:])


def _tic_tac_toe(seat: int, notation: str) -> str:
    col, row = _square(notation)
    return f"{'xo'[seat - 1]}({3 - row},{col})"  # OpenSpiel's row 0 is the top row


def _connect_four(seat: int, notation: str) -> str:
    return f"{'xo'[seat - 1]}{_square(notation)[0]}"  # a drop is named by its column


def _breakthrough(seat: int, notation: str) -> str:
    if "x" in notation:
        start, target = notation.split("x")
        return f"{start}{target}*"
    return notation.replace("-", "")


def _oware(seat: int, notation: str) -> str:
    col, _ = _square(notation)
    # player 1's houses a1…f1 are OpenSpiel's A…F; player 2's f2…a2 (sowing order) a…f
    return chr(ord("A") + col) if seat == 1 else chr(ord("a") + 5 - col)


def _kuhn(seat: int, notation: str) -> str:
    return {"pass": "Pass", "bet": "Bet"}[notation]


def _liars_dice(seat: int, notation: str) -> str:
    return "Liar" if notation == "liar" else notation


def _goofspiel(seat: int, notation: str) -> str:
    return f"[P{seat - 1}]Bid: {notation}"


def _pig(seat: int, notation: str) -> str:
    return {"roll": "roll", "hold": "stop"}[notation]


def _nim(seat: int, notation: str) -> str:
    heap, take = notation.split("-")
    return f"pile:{heap}, take:{take};"


def _hex(seat: int, notation: str) -> str:
    return notation  # the same names, a1 … on both boards, with the same hexes touching


def _dots_and_boxes(seat: int, notation: str) -> str:
    (x1, y1), (_, y2) = (_square(dot) for dot in notation.split("-"))
    # OpenSpiel counts dot rows from 0 at the top of the 3×3 dots: ours 3 is its 0
    if y1 == y2:
        return f"P{seat}(h,{3 - y1},{x1})"
    return f"P{seat}(v,{3 - y2},{x1})"


Chance = Callable[[Referee, State, Any], int]
"""What our rules drew, as the OpenSpiel chance outcome the state is waiting for."""


def _deal_kuhn(ref: Referee, state: State, os_state: Any) -> int:
    seat = len(os_state.history()) + 1  # OpenSpiel deals to player 0, then player 1
    return ref.read(state, f"first(pieces(hand[{seat}]) + pieces(shown[{seat}])).rank") - 1


def _roll_liars_dice(ref: Referee, state: State, os_state: Any) -> int:
    seat = len(os_state.history()) + 1  # one die each, player 0's rolled first
    return ref.read(state, f"first(pieces(cup[{seat}])).pips") - 1


def _prize_goofspiel(ref: Referee, state: State, os_state: Any) -> int:
    return ref.read(state, "top(prize).rank") - 1


def _die_pig(ref: Referee, state: State, os_state: Any) -> int:
    return ref.read(state, "rolled") - 1  # the roll our rules made after "roll"


Returns = Callable[[Referee, State], list[float]]


def _kuhn_returns(ref: Referee, state: State) -> list[float]:
    return [float(ref.read(state, f"won({s})")) for s in (1, 2)]


@dataclass(frozen=True)
class Classic:
    """One bundled classic and the OpenSpiel game it is checked against."""

    ruleset: str
    openspiel: str
    action_string: Callable[[int, str], str]
    params: dict[str, Any] = field(default_factory=dict)
    chance: Chance | None = None
    returns: Returns | None = None
    """Our returns, when they are not +1/−1 for the one winner (0 each for a draw)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Our ruleset's options matching `params` (a smaller board than the default)."""


CLASSICS = [
    Classic("tic-tac-toe", "tic_tac_toe", _tic_tac_toe),
    Classic("connect-four", "connect_four", _connect_four),
    Classic("kuhn-poker", "kuhn_poker", _kuhn, chance=_deal_kuhn, returns=_kuhn_returns),
    Classic("liars-dice", "liars_dice", _liars_dice, chance=_roll_liars_dice),
    Classic("goofspiel", "goofspiel", _goofspiel, chance=_prize_goofspiel),
    Classic("oware", "oware", _oware),
    Classic("breakthrough", "breakthrough", _breakthrough),
    Classic("pig", "pig", _pig, chance=_die_pig),
    Classic("nim", "nim", _nim),
    Classic("dots-and-boxes", "dots_and_boxes", _dots_and_boxes),
    # 11×11, both engines' default, takes about 4 minutes for 1,000 replays here: the
    # test plays 7×7 (`python tests/openspiel_gallery.py hex-11` plays 11×11)
    Classic("hex", "hex", _hex, params={"board_size": 7}, options={"size": 7}),
]
HEX_11 = Classic("hex", "hex", _hex)
BY_NAME = {c.ruleset: c for c in CLASSICS}
BY_NAME["hex-11"] = HEX_11


# -- one replay --------------------------------------------------------------------------

class Disagreement(AssertionError):
    """The two engines part ways: where, and how."""


@dataclass
class Outcome:
    returns: tuple[float, ...]
    length: int
    """Decisions made: a simultaneous decision (everyone at once) counts once."""


def winner_returns(state: State) -> list[float]:
    winners = state.winners or []
    if len(winners) != 1:
        return [0.0, 0.0]
    return [1.0 if s == winners[0] else -1.0 for s in (1, 2)]


class Replayer:
    """Replays random games of one classic in both engines.

    Every classic's notation names only the option's own values (a square, a card, a
    number), so an option's OpenSpiel string is worked out once per seat and option and
    kept; the first `fresh_games` replays render every notation anew and check the kept
    one against it."""

    fresh_games = 25

    def __init__(self, classic: Classic) -> None:
        self.classic = classic
        self.game = load_game(classic.ruleset, classic.options)
        self.referee = Referee(self.game)
        self.os_game = pyspiel.load_game(classic.openspiel, classic.params)
        self._strings: dict[tuple[int, tuple], str] = {}
        self._replays = 0

    def replay(self, seed: int) -> Outcome:
        game, classic = self.game, self.classic
        rng = random.Random(seed)
        state = game.new_state(2, seed)
        os_state = self.os_game.new_initial_state()
        length = 0
        where = f"{classic.ruleset} seed {seed}"
        self._replays += 1
        while True:
            self._feed_chance(state, os_state, where)
            if state.over:
                if not os_state.is_terminal():
                    raise Disagreement(f"{where}: our game ended after {length} decisions, "
                                       f"OpenSpiel's goes on: {os_state}")
                ours = (classic.returns or (lambda _r, s: winner_returns(s)))(
                    self.referee, state)
                if list(os_state.returns()) != ours:
                    raise Disagreement(f"{where}: returns differ: ours {ours}, OpenSpiel "
                                       f"{os_state.returns()}")
                return Outcome(tuple(ours), length)
            if os_state.is_terminal():
                raise Disagreement(f"{where}: OpenSpiel's game ended after {length} "
                                   f"decisions, ours goes on")
            seats = game.deciding_seats(state)
            if os_state.is_simultaneous_node():
                if sorted(seats) != [1, 2]:
                    raise Disagreement(f"{where}: OpenSpiel waits for both players, our "
                                       f"game for {seats}")
                picks = [self._pick(state, os_state, s, rng, where) for s in (1, 2)]
                for seat, (raw, _) in zip((1, 2), picks, strict=True):
                    game.apply_trusted(state, seat, raw)
                os_state.apply_actions([action for _, action in picks])
            else:
                if seats != [os_state.current_player() + 1]:
                    raise Disagreement(f"{where}: OpenSpiel's player "
                                       f"{os_state.current_player()} is to move, our "
                                       f"seats {seats}")
                raw, action = self._pick(state, os_state, seats[0], rng, where)
                game.apply_trusted(state, seats[0], raw)
                os_state.apply_action(action)
            length += 1

    def _feed_chance(self, state: State, os_state: Any, where: str) -> None:
        while os_state.is_chance_node():
            if self.classic.chance is None:
                raise Disagreement(f"{where}: OpenSpiel waits for chance")
            outcome = self.classic.chance(self.referee, state, os_state)
            if outcome not in os_state.legal_actions():
                raise Disagreement(f"{where}: our chance outcome {outcome} is not one of "
                                   f"OpenSpiel's {os_state.legal_actions()}")
            os_state.apply_action(outcome)

    def _pick(self, state: State, os_state: Any, seat: int, rng: random.Random,
              where: str) -> tuple[tuple, int]:
        """One of our options, uniformly, after checking our legal options are
        OpenSpiel's one for one; returns it with its OpenSpiel action."""
        game = self.game
        player = seat - 1
        theirs = {os_state.action_to_string(player, a): a
                  for a in os_state.legal_actions(player)}
        raws = game.raw_options(state, seat)
        ours = [self._string(state, seat, raw, where) for raw in raws]
        if len(set(ours)) != len(ours) or set(ours) != set(theirs):
            raise Disagreement(
                f"{where}, decision {state.decisions}, seat {seat}: legal moves differ: "
                f"only ours {sorted(set(ours) - set(theirs))}, only OpenSpiel's "
                f"{sorted(set(theirs) - set(ours))}, ours repeated "
                f"{sorted(o for o in set(ours) if ours.count(o) > 1)}")
        index = rng.randrange(len(raws))
        return raws[index], theirs[ours[index]]


    def _string(self, state: State, seat: int, raw: tuple, where: str) -> str:
        """Our option as OpenSpiel writes it."""
        kept = self._strings.get((seat, raw))
        if kept is not None and self._replays > self.fresh_games:
            return kept
        fresh = self.classic.action_string(seat, self.game.notation_of(state, seat, raw))
        if kept is not None and kept != fresh:
            raise Disagreement(f"{where}: the option {raw} reads {fresh} now, {kept} "
                               "before: its notation depends on more than its values")
        self._strings[(seat, raw)] = fresh
        return fresh


def openspiel_outcome(os_game: Any, rng: random.Random) -> Outcome:
    """One game of uniform random play in OpenSpiel alone (its own chance)."""
    state = os_game.new_initial_state()
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p))
                                 for p in range(os_game.num_players())])
            length += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            length += 1
    return Outcome(tuple(state.returns()), length)


# -- comparing the two samples -----------------------------------------------------------

@dataclass
class Sample:
    """Outcomes of one engine: who won, draws, lengths."""

    outcomes: list[Outcome]

    @property
    def n(self) -> int:
        return len(self.outcomes)

    def count(self, what: str) -> int:
        if what == "draw":
            return sum(1 for o in self.outcomes if o.returns[0] == o.returns[1])
        seat = int(what[-1]) - 1
        return sum(1 for o in self.outcomes if o.returns[seat] > o.returns[1 - seat])

    @property
    def lengths(self) -> list[int]:
        return [o.length for o in self.outcomes]


def proportion_z(k1: int, n1: int, k2: int, n2: int) -> float:
    """The two-proportion z statistic (pooled); 0 when both are 0% or 100%."""
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    return 0.0 if se == 0 else (k1 / n1 - k2 / n2) / se


def welch_t(a: list[int], b: list[int]) -> float:
    """Welch's t for two means (0 when both samples are constant and equal)."""
    va, vb = statistics.variance(a), statistics.variance(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    diff = statistics.fmean(a) - statistics.fmean(b)
    if se == 0:
        return 0.0 if diff == 0 else math.inf
    return diff / se


def interval(k: int, n: int) -> tuple[float, float]:
    """The 99% Wilson interval of a proportion."""
    p = k / n
    centre = (p + Z99 ** 2 / (2 * n)) / (1 + Z99 ** 2 / n)
    half = Z99 * math.sqrt(p * (1 - p) / n + Z99 ** 2 / (4 * n * n)) / (1 + Z99 ** 2 / n)
    return centre - half, centre + half


@dataclass
class Comparison:
    """One figure in both engines, and whether they agree at 99%."""

    what: str
    ours: str
    theirs: str
    statistic: float

    @property
    def within_99(self) -> bool:
        """Within this figure's own 99% interval."""
        return abs(self.statistic) <= Z99

    @property
    def agrees(self) -> bool:
        """Within the 99% interval of the game's figures taken together."""
        return abs(self.statistic) <= Z99_ALL


def compare(ours: Sample, theirs: Sample) -> list[Comparison]:
    rows = []
    for what, label in (("seat 1", "player 1 wins"), ("seat 2", "player 2 wins"),
                        ("draw", "draws")):
        k1, k2 = ours.count(what), theirs.count(what)
        rows.append(Comparison(label, _rate(k1, ours.n), _rate(k2, theirs.n),
                               proportion_z(k1, ours.n, k2, theirs.n)))
    a, b = ours.lengths, theirs.lengths
    rows.append(Comparison("mean length", _mean(a), _mean(b), welch_t(a, b)))
    return rows


def _rate(k: int, n: int) -> str:
    low, high = interval(k, n)
    return f"{k / n:6.1%} [{low:.1%}, {high:.1%}]"


def _mean(values: list[int]) -> str:
    m = statistics.fmean(values)
    half = Z99 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{m:7.2f} ± {half:.2f}"


def report(classic: Classic, ours: Sample, theirs: Sample, rows: list[Comparison],
           seconds: float, cpu: float) -> str:
    lines = [f"{classic.ruleset} vs OpenSpiel {classic.openspiel}"
             f"{classic.params or ''}: {ours.n} replays agreed move for move "
             f"({seconds:.1f} s, {cpu:.1f} s of CPU); OpenSpiel alone {theirs.n} games",
             f"  {'':14} {'ours (99% interval)':28} {'OpenSpiel (99% interval)':28} "
             "statistic"]
    for r in rows:
        mark = ("" if r.within_99 else "  beyond this figure's 99% interval" if r.agrees
                else "  <-- beyond the 99% interval of the four together")
        lines.append(f"  {r.what:14} {r.ours:28} {r.theirs:28} {r.statistic:+.2f}{mark}")
    return "\n".join(lines)


def check_classic(classic: Classic, games: int, openspiel_games: int, seed: int = 0
                  ) -> tuple[str, list[Comparison]]:
    """Replay `games` games (raising Disagreement at the first difference), sample
    OpenSpiel alone, and compare; returns the printed report and the comparisons."""
    replayer = Replayer(classic)
    start, cpu = time.perf_counter(), time.process_time()
    ours = Sample([replayer.replay(seed + k) for k in range(games)])
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    rng = random.Random(f"openspiel {seed}")
    theirs = Sample([openspiel_outcome(replayer.os_game, rng) for _ in range(openspiel_games)])
    rows = compare(ours, theirs)
    return report(classic, ours, theirs, rows, seconds, cpu), rows


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    names = sys.argv[1:] or list(BY_NAME)
    for name in names:
        text, _ = check_classic(BY_NAME[name], 1000, 4000)
        print(text)
