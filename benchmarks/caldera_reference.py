"""Caldera written by hand in plain Python: the yardstick for the engine's speed.

It implements exactly the rules of ``rulesets/caldera.yaml`` (2 or 3 players, Power Play
on or off) with the same set-up deal, the same legal options in the same order with the
same notations, the same effects and the same end rules, the quiet-turns ruling included;
``tests/test_caldera_reference.py`` checks it against the engine move for move. Only the
random generator's seeding comes from the engine (``interpreter.run.rng.seed_state``), so
that a seed deals the same volcano; the generator itself (SplitMix64) is inlined.

It is written the way a fast game implementation is: precomputed tables for the board's
geometry, option ids and notations; pieces, squares and cap arrangements as small ints
(a cap arrangement is a 25-bit mask); lists, not dicts, in the hot path.

Squares are numbered as the engine's sites: a1=0, b1=1, ..., e1=4, a2=5, ..., e5=24 (rows
count up from 1, "n" is towards row 5); the Caldera c3 is 12. A piece is
``3 * colour + size - 1`` for red, yellow, green and blue (0-11); a cap (black small) is 12.
An option is an int: a cap move ``8 * origin + direction`` (0-199), a Power Play
``200 + 25 * piece + square``.

    game = Caldera(seed=7)
    while not game.over:
        options = game.options()
        game.apply(options[0])
    game.winners, game.scores(), game.reason
"""

from __future__ import annotations

from interpreter.run.rng import seed_state

# -- the board ------------------------------------------------------------------------
SIZE = 5
SQUARES = SIZE * SIZE
CALDERA = 12
NAMES = [f"{'abcde'[c]}{r + 1}" for r in range(SIZE) for c in range(SIZE)]
DIRECTIONS = ("n", "ne", "e", "se", "s", "sw", "w", "nw")
STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def _square(r: int, c: int) -> int:
    return r * SIZE + c if 0 <= r < SIZE and 0 <= c < SIZE else -1


# -- pieces ---------------------------------------------------------------------------
COLOURS = ("red", "yellow", "green", "blue")
COLOUR_CODES = "rygb"
SIZE_CODES = "SML"
CAP = 12
KINDS = 12
PIECE_SIZE = [p % 3 + 1 for p in range(KINDS)] + [1]
PIECE_CODE = [COLOUR_CODES[p // 3] + SIZE_CODES[p % 3] for p in range(KINDS)] + ["kS"]
PIECE_DESC = [(COLOURS[p // 3], p % 3 + 1) for p in range(KINDS)] + [("black", 1)]
"""A piece as the engine's views show it: (colour, size)."""

# -- options --------------------------------------------------------------------------
PP_BASE = 200
N_OPTIONS = PP_BASE + KINDS * SQUARES
TARGET = [-1] * PP_BASE
"""A cap move's destination (-1: off the board)."""
RAY: list[tuple[int, ...]] = [()] * PP_BASE
"""A cap move's landing squares for erupting pieces: 2, 3, ... squares from the origin."""
for _sq in range(SQUARES):
    _r, _c = divmod(_sq, SIZE)
    for _d, (_dr, _dc) in enumerate(STEPS):
        _opt = 8 * _sq + _d
        TARGET[_opt] = _square(_r + _dr, _c + _dc)
        _ray = []
        for _k in range(2, SIZE):
            _t = _square(_r + _k * _dr, _c + _k * _dc)
            if _t < 0:
                break
            _ray.append(_t)
        RAY[_opt] = tuple(_ray)
CAP_MOVES: list[tuple[tuple[int, int, int], ...]] = [
    tuple((8 * sq + d, TARGET[8 * sq + d], 1 << TARGET[8 * sq + d])
          for d in range(8) if TARGET[8 * sq + d] >= 0)
    for sq in range(SQUARES)]
"""For each origin, its moves that stay on the board: (option, destination, its bit)."""
NOTATION = ([f"{NAMES[o // 8]}-{DIRECTIONS[o % 8]}" for o in range(PP_BASE)]
            + [f"pp-{PIECE_CODE[(o - PP_BASE) // SQUARES]}-{NAMES[(o - PP_BASE) % SQUARES]}"
               for o in range(PP_BASE, N_OPTIONS)])
OPTION_OF = {n.lower(): o for o, n in enumerate(NOTATION)}
"""Option by notation, lower-cased (the engine matches notations whatever their case)."""

# -- the set-up deal --------------------------------------------------------------------
DEAL_PLACES = [sq for sq in range(SQUARES) if sq != CALDERA]
N_DEAL = len(DEAL_PLACES)
MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
DEAL_STEPS: list[tuple[int, int, int, int, int]] = []
"""For each place in dealing order: (its index i, the colours left m, the bound a 64-bit
draw must be under to be accepted for m (rejection sampling, as rng.below does), and the
deal indices of its orthogonal neighbours dealt before it: the one to the south and the one
to the west, the only ones that hold a colour when it is dealt). A missing neighbour is
N_DEAL, a slot past the deck's end that holds no colour."""
for _i, _sq in enumerate(DEAL_PLACES):
    _r, _c = divmod(_sq, SIZE)
    _near = {_square(_r + dr, _c + dc) for dr, dc in ((1, 0), (0, 1), (-1, 0), (0, -1))}
    _before = [k for k in range(_i) if DEAL_PLACES[k] in _near] + [N_DEAL, N_DEAL]
    _m = N_DEAL - _i
    DEAL_STEPS.append((_i, _m, (1 << 64) - ((1 << 64) % _m), _before[0], _before[1]))
MAX_TRIES = 200_000

# -- the end --------------------------------------------------------------------------
QUIET_TURNS = 60
START_PIECES = 72
THREE_TRIOS = "The first player to hold three monochrome trios wins at once."
NOTHING_LEFT = "No pieces are left on the board outside the caps."
NO_PROGRESS = ("60 turns in a row have passed without the board reaching fewer pieces "
               "than ever before.")


def _mix(r: int) -> int:
    """SplitMix64's output for state r (interpreter.run.rng.next_u64)."""
    z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def deal(seed: int) -> list[int]:
    """The nest colour (0-3: red, yellow, green, blue) of each square, -1 for the Caldera:
    the engine's `arrange`, draw for draw. The 24 colours are dealt to a1, b1, ... in turn
    by Fisher-Yates, one place at a time from the same deck (never reset), and as soon as
    a place gets the colour of an orthogonal neighbour dealt before it, the deal starts
    again from the first place."""
    r = seed_state(seed)
    deck = [c for c in range(4) for _ in range(6)] + [-1]
    steps = DEAL_STEPS
    for _ in range(MAX_TRIES):
        for i, m, limit, west, south in steps:
            r = (r + GOLDEN) & MASK64
            z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            while z >= limit:  # rejected (about 1 draw in 10^18): draw again
                r = (r + GOLDEN) & MASK64
                z = _mix(r)
            j = i + z % m
            v = deck[j]
            deck[j] = deck[i]
            deck[i] = v
            if deck[west] == v or deck[south] == v:
                break
        else:
            colours = [-1] * SQUARES
            for sq, v in zip(DEAL_PLACES, deck, strict=False):
                colours[sq] = v
            return colours
    raise RuntimeError(f"no arrangement found in {MAX_TRIES} tries")


class Caldera:
    """One game of Caldera, always paused at a decision of `current` (or over)."""

    __slots__ = ("board", "capmask", "captured", "counts", "current", "decisions",
                 "erupted", "fewest", "left", "over", "players", "power_play",
                 "power_played", "quiet", "reason", "seen", "turn", "winners")

    def __init__(self, seed: int = 0, players: int = 2, power_play: bool = True) -> None:
        if not 2 <= players <= 3:
            raise ValueError(f"Caldera takes 2 to 3 players, not {players}")
        self.players = players
        self.power_play = power_play
        board: list[list[int]] = [[] for _ in range(SQUARES)]
        capmask = 0
        for sq, colour in enumerate(deal(seed)):
            if colour >= 0:
                board[sq] = [3 * colour, 3 * colour + 1, 3 * colour + 2]
                if colour == 0:
                    board[sq].append(CAP)
                    capmask |= 1 << sq
        self.board = board
        self.capmask = capmask
        self.captured: list[list[int]] = [[] for _ in range(players + 1)]
        """Each seat's captured pieces in the order they came (index 0 unused)."""
        self.counts = [[0] * KINDS for _ in range(players + 1)]
        self.left = START_PIECES
        self.fewest = START_PIECES
        self.quiet = 0
        self.current = 1
        self.turn = 0
        self.decisions = 0
        self.over = False
        self.winners: list[int] | None = None
        self.reason: str | None = None
        self.erupted = False
        self.power_played = False
        self.seen: set[int] = set()
        self._begin_turn()

    # -- turns ---------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        self.turn += 1
        if self.left == 0:
            self._finish(None, NOTHING_LEFT)
            return
        self.erupted = False
        self.power_played = False
        self.seen = {self.capmask}
        self._check_stuck()

    def _check_stuck(self) -> None:
        """The decision's `if_none`: a player with no legal option ends the game."""
        if not self.has_option():
            self._finish(None, f"Player {self.current} has no legal move")

    def _end_turn(self) -> None:
        left = self.left
        if left < self.fewest:
            self.fewest = left
            self.quiet = 0
        else:
            self.quiet += 1
        seat = self.current
        if self.trios(seat) >= 3:
            self._finish([seat], THREE_TRIOS)
        elif left == 0:
            self._finish(None, NOTHING_LEFT)
        elif self.quiet >= QUIET_TURNS:
            self._finish(None, NO_PROGRESS)
        else:
            self.current = seat % self.players + 1
            self._begin_turn()

    def _finish(self, winners: list[int] | None, reason: str) -> None:
        if winners is None:
            keys = [(self.trios(s), len(self.captured[s])) for s in range(1, self.players + 1)]
            best = max(keys)
            winners = [s + 1 for s, k in enumerate(keys) if k == best]
        self.over = True
        self.winners = winners
        self.reason = reason

    # -- results -------------------------------------------------------------------------
    def trios(self, seat: int) -> int:
        c = self.counts[seat]
        return (min(c[0], c[1], c[2]) + min(c[3], c[4], c[5]) + min(c[6], c[7], c[8])
                + min(c[9], c[10], c[11]))

    def scores(self) -> dict[int, int]:
        return {s: self.trios(s) for s in range(1, self.players + 1)}

    # -- options -------------------------------------------------------------------------
    def cap_moves(self) -> list[int]:
        """The cap moves, caps in square order, each in direction order n, ne, ... nw."""
        capmask = self.capmask
        seen = self.seen
        out = []
        caps = capmask
        while caps:
            low = caps & -caps
            origin = low.bit_length() - 1
            caps ^= low
            rest = capmask ^ low
            for opt, _to, bit in CAP_MOVES[origin]:
                if not capmask & bit and rest | bit not in seen:
                    out.append(opt)
        return out

    def power_plays(self) -> list[int]:
        """The Power Plays: each kind of captured piece (in the order first captured) on
        each square without a cap, in square order."""
        if not self.power_play or self.power_played:
            return []
        pile = self.captured[self.current]
        if not pile:
            return []
        capmask = self.capmask
        free = [sq for sq in range(SQUARES) if not capmask >> sq & 1]
        out: list[int] = []
        kinds = 0
        for p in pile:
            if not kinds >> p & 1:
                kinds |= 1 << p
                base = PP_BASE + SQUARES * p
                out.extend([base + sq for sq in free])
        return out

    def options(self) -> list[int]:
        """The legal options of the seat to move, in the engine's order."""
        if self.over:
            return []
        return self.cap_moves() + self.power_plays()

    def has_option(self) -> bool:
        if self.power_play and not self.power_played and self.captured[self.current]:
            return True  # a Power Play: some square has no cap (there are only 6 caps)
        capmask = self.capmask
        seen = self.seen
        caps = capmask
        while caps:
            low = caps & -caps
            caps ^= low
            rest = capmask ^ low
            for _opt, _to, bit in CAP_MOVES[low.bit_length() - 1]:
                if not capmask & bit and rest | bit not in seen:
                    return True
        return False

    def legal_notations(self) -> list[str]:
        return [NOTATION[o] for o in self.options()]

    # -- moves ---------------------------------------------------------------------------
    def apply(self, opt: int) -> None:
        """Carry out a legal option (not checked: take it from `options`)."""
        self.decisions += 1
        board = self.board
        if opt < PP_BASE:
            origin = opt >> 3
            stack = board[origin]
            board[TARGET[opt]].append(stack.pop())
            capmask = self.capmask ^ (1 << origin) | (1 << TARGET[opt])
            self.capmask = capmask
            self.seen.add(capmask)
            ray = RAY[opt]
            if stack and ray and not capmask >> ray[0] & 1:
                seat = self.current
                pile = self.captured[seat]
                counts = self.counts[seat]
                for landing in ray:
                    if not stack or capmask >> landing & 1:
                        break
                    piece = stack.pop()
                    dest = board[landing]
                    if dest and PIECE_SIZE[dest[-1]] == PIECE_SIZE[piece]:
                        pile.append(piece)
                        counts[piece] += 1
                        self.left -= 1
                    else:
                        dest.append(piece)
                self.erupted = True
                self._end_turn()
                return
        else:
            piece, sq = divmod(opt - PP_BASE, SQUARES)
            seat = self.current
            self.captured[seat].remove(piece)
            self.counts[seat][piece] -= 1
            board[sq].append(piece)
            self.left += 1
            self.power_played = True
        self._check_stuck()

    def apply_notation(self, notation: str) -> None:
        opt = OPTION_OF.get(notation.strip().lower())
        if opt is None or opt not in self.options():
            raise ValueError(f"{notation!r} is not a legal option")
        self.apply(opt)

    @classmethod
    def from_position(cls, board: dict[str, list[str]], captured: dict[int, list[str]],
                      players: int = 2, current: int = 1, power_play: bool = True,
                      fewest_left: int = START_PIECES, quiet_turns: int = 0) -> Caldera:
        """A game from a position (pieces by code, e.g. ``{"a1": ["rS", "kS"]}``, stacks
        bottom first), at the start of `current`'s turn, like a scenario test's."""
        game = object.__new__(cls)
        code = {c: p for p, c in enumerate(PIECE_CODE)}
        game.players = players
        game.power_play = power_play
        game.board = [[code[c] for c in board.get(NAMES[sq], [])] for sq in range(SQUARES)]
        game.capmask = sum(1 << sq for sq in range(SQUARES) if game.board[sq][-1:] == [CAP])
        game.captured = [[code[c] for c in captured.get(s, [])] for s in range(players + 1)]
        game.counts = [[pile.count(k) for k in range(KINDS)] for pile in game.captured]
        game.left = sum(p != CAP for stack in game.board for p in stack)
        game.fewest = fewest_left
        game.quiet = quiet_turns
        game.current = current
        game.turn = 0
        game.decisions = 0
        game.over = False
        game.winners = None
        game.reason = None
        game.erupted = False
        game.power_played = False
        game.seen = set()
        game._begin_turn()
        return game

    def copy(self) -> Caldera:
        new = object.__new__(Caldera)
        for name in Caldera.__slots__:
            setattr(new, name, getattr(self, name))
        new.board = [s[:] for s in self.board]
        new.captured = [p[:] for p in self.captured]
        new.counts = [c[:] for c in self.counts]
        new.seen = set(self.seen)
        new.winners = None if self.winners is None else self.winners[:]
        return new

    # -- the position as the engine's views show it -------------------------------------------
    def position(self) -> dict:
        return {
            "current": self.current,
            "turn": self.turn,
            "board": {NAMES[sq]: [PIECE_DESC[p] for p in self.board[sq]]
                      for sq in range(SQUARES)},
            "captured": {s: [PIECE_DESC[p] for p in self.captured[s]]
                         for s in range(1, self.players + 1)},
            "variables": {"fewest_left": self.fewest, "quiet_turns": self.quiet},
        }


class _Draws:
    """A random player's generator: SplitMix64 from its seed folded to 64 bits, a draw
    below n by rejection, as interpreter.run.rng.below draws."""

    def __init__(self, seed: int) -> None:
        self.r = (seed ^ (seed >> 64)) & MASK64

    def randrange(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self.r = (self.r + GOLDEN) & MASK64
            z = _mix(self.r)
            if z < limit:
                return z % n


def random_playout(seed: int, players: int = 2, agent_seeds: list[int] | None = None,
                   power_play: bool = True, game: Caldera | None = None
                   ) -> tuple[Caldera, list[str]]:
    """One game between random players; returns the final position and the notations.

    Each seat draws from its own SplitMix64 (seeded by ``agent_seeds[seat - 1]`` folded to
    64 bits, as the engine's random player is)
    with the engine's random player's policy: a kind of option (cap move or Power Play)
    at random, then an option of that kind. `game`: a game already set up (for `seed`,
    `players` and `power_play`), played on in place."""
    if game is None:
        game = Caldera(seed, players, power_play)
    seeds = agent_seeds or [seed * 31 + s for s in range(1, players + 1)]
    rngs = [None] + [_Draws(s) for s in seeds]
    log = []
    while not game.over:
        rng = rngs[game.current]
        caps = game.cap_moves()
        plays = game.power_plays()
        if not plays:
            pick = caps
        elif not caps or rng.randrange(2):  # both kinds: cap_move (0) or power_play (1)
            pick = plays
        else:
            pick = caps
        opt = pick[rng.randrange(len(pick))]
        log.append(NOTATION[opt])
        game.apply(opt)
    return game, log
