"""Computer players that search: `mcts` (UCT) and `ismcts` (information-set MCTS).

Both run the same open-loop search over the engine's own states. Each playout starts
from a fresh *determinization* of the position (a copy in which every fact the player
may not know is drawn anew), walks down the tree by UCB1 among the options that are
legal in that copy (counting, for each option, how often it was available: the
"availability" of single-observer ISMCTS, Cowling, Powley & Whitehouse 2012), adds one
node, and finishes the game with the random player. Tree nodes are keyed by option, not
by state, so dice and shuffles met on the way are drawn anew in every playout and
averaged over, never foreseen.

What the two read of the true state:

- `mcts` reads the whole state except the game's random generator: it knows every
  hidden card (in a game with secrets it is a cheating baseline: use `ismcts` there).
- `ismcts` reads only what its seat's view shows (`interpreter.agents.information`):
  pieces it may not see are dealt anew among the places where pieces of their back
  lie, secret values are drawn as a new set-up would give them, others' secret
  choices still to be revealed are chosen again. Its options are keyed by notation
  (what a player reads), so its decision is the same for any two states its seat
  cannot tell apart. A guessed position can be one the rules cannot go on from (the
  view does not say what the log let a player remember); such playouts are dropped and
  counted (`dropped`).

With `groups=N`, a decision with more than N options is searched in two steps, as
"move groups" (Childs, Brodeur & Kocsis 2008): first by what the option's first `for`
value reads as in its notation (the piece, in `"{piece_code(piece)}-{place_name(square)}"`),
then the option within that group. With 400 playouts and 15 kinds of piece for 64
squares (960 options), a flat search tries 400 options once each and takes the first;
by piece first, each kind gets some twenty-five playouts and the good ones most. An
option kind with one `for` value, or whose notation has no part naming its first value
alone, is a group of its own. It is off by default (`groups=0`): it won most games
against the flat search on the largest bundled board, but not where a flat search can
try each option a few times (the README's benchmark figures), and the figures measured
for the bundled games are the flat search's.

The default depth of 20 decisions is a matter of speed: in a bundled game of about 200
decisions, a decision at 400 playouts took 0.5 s at depth 20 and 4.5 s played to the end.

With `workers=N` one search runs in N processes, root-parallel: the playouts are cut
into N shares, each searched from the same position with its own seed (from the agent's
generator and the share's number) in a tree of its own, and the root's visit counts are
added up in share order before the choice (`interpreter.agents.pool` keeps the
processes). No tree is shared, so no share waits for another; each tree holds 1/N of
the playouts, so it looks less far ahead than one tree of them all. The sum does not
depend on where or when a share ran, so the same seed and settings give the same choice
(not the choice of workers=1). An `ismcts` share is sent its seat's information set
(`InformationSet.shareable`), never the true state.

How a playout judges the position it reached (`judge`):

- `play` (the default): it plays on at random and stops after `depth` decisions; the
  position is then judged by the game's own ranking (`rank`, else `scores`): each seat
  scores between 1/4 and 3/4 by the share of the others it is ahead of (a tie counting
  half), so a lead counts for less than a win (1) and trailing for more than a loss (0).
- `score`: it plays no random move. The seat that took the new option first makes its
  own follow-up decisions (a colour to choose, a place to move a piece to), each for
  the best judgement of the position after it; then each seat scores
  `(1 + tanh(margin / lead)) / 2`, its margin being its score minus the best other
  seat's (a game without numeric `scores`: its share of the ranking, as above). Where
  one move changes much, as a chain of effects does, a random continuation judges a
  move mostly by the random moves after it; with a few playouts for each of hundreds of
  options, each option is then judged by luck. In the README's figures it
  wins more games where each turn offers 100 to 340 options and each move sets off a
  chain of effects, at about three times the time per game.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from interpreter.agents.base import OptionChoice, seeded
from interpreter.agents.information import InformationSet
from interpreter.agents.pool import SearchPool, can_start_processes
from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.spec import Setting
from interpreter.errors import RuleError, UsageError
from interpreter.play.game import numeric_scores
from interpreter.run.machine import Machine
from interpreter.run.rng import below, derive_seed, next_u64

if TYPE_CHECKING:
    from collections.abc import Sequence

    from interpreter.play.game import Game
    from interpreter.run.state import State

Raw = tuple[int, tuple]
Share = tuple[int, int, dict[Any, tuple[int, dict[Any, int] | None]]]
"""A share's answer: playouts done, dropped, and per root option (or group) its visits
and, for a group, its options' visits."""

CORES = os.cpu_count() or 1


class _Node:
    """One option (or group of options) in the tree: who took it and how it did for
    them."""

    __slots__ = ("actor", "available", "children", "grouped", "visits", "wins")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.wins = 0.0
        self.available = 0
        self.children: dict[Any, _Node] = {}
        self.grouped: bool | None = None
        """Whether the decision after it is searched in two steps (its children are
        groups); settled the first time a playout reaches that decision."""


class SearchAgent:
    """The shared search; subclasses say what a determinization may read and how an
    option is named across determinizations."""

    name: ClassVar[str]
    SETTINGS: ClassVar[dict[str, Setting]] = {
        "playouts": Setting(int, 400, "playouts per decision (the same seed gives the "
                            "same choices)", 1, 10_000_000),
        "seconds": Setting(float, 0.0, "think this long per decision instead of counting "
                           "playouts (0: count playouts); not reproducible", 0, 86_400),
        "depth": Setting(int, 20, "decisions a playout plays before judging the position "
                         "by the game's ranking (0: play to the end)", 0, 10_000_000),
        "c": Setting(float, 0.7, "exploration: larger tries more options, smaller "
                     "trusts the best so far", 0, 100),
        "groups": Setting(int, 0, "a decision with more options than this is searched "
                          "in two steps: the option's first value (the piece), then the "
                          "rest (the place); 0: never", 0, 10_000_000),
        "judge": Setting(str, "play", "how a playout judges the position it reaches: play "
                         "(on at random for `depth` decisions, then by the game's ranking) "
                         "or score (at once, after its mover's own follow-up decisions, by "
                         "each seat's score minus the best other's)",
                         choices=("play", "score")),
        "lead": Setting(float, 3.0, "with judge=score: a lead of this many points counts "
                        "as 0.88 of a win, twice as many as 0.98", 0.001, 1e9),
        "workers": Setting(int, 1, "processes one search uses, each searching its share of "
                           "the playouts from the same position; their counts are added up "
                           "(the same seed gives the same choices for the same number; more "
                           f"than this machine's {CORES} cores is allowed, but no faster)",
                           1, 256),
    }

    FOLLOW_UPS: ClassVar[int] = 8
    """With judge=score, at most this many follow-up decisions are taken in a row before
    judging (a bound, for rules that let a seat decide on and on)."""

    def __init__(self, seed: int = 0, playouts: int = 400, seconds: float = 0.0,
                 depth: int = 20, c: float = 0.7, groups: int = 0, judge: str = "play",
                 lead: float = 3.0, workers: int = 1) -> None:
        if type(workers) is not int or workers < 1:
            raise UsageError(f"the {self.name} player's workers is a whole number of at "
                             f"least 1, not {workers!r}")
        self.rng = seeded(seed)
        self.workers = workers
        self.settings = {"playouts": playouts, "seconds": seconds, "depth": depth, "c": c,
                         "groups": groups, "judge": judge, "lead": lead}
        """As given (workers aside): what a worker process's own searcher is made with."""
        self._pool: SearchPool | None = None
        self.playouts = playouts
        self.seconds = seconds
        self.depth = depth
        self.c = c
        self.groups = groups
        self.judge_at_once = judge == "score"
        self.lead = lead
        self.roller = RandomAgent()
        """The player of the playouts: the fast kind-first random player."""
        self.last_playouts = 0
        """Playouts of the last search (for reports)."""
        self.progress: Callable[[int, int], None] | None = None
        """Called with (playouts done, playouts planned or 0 when timed) as it thinks."""
        self.dropped = 0
        """Playouts of the last search dropped because the rules could not go on from
        their determinization (see `drops_impossible`)."""

    drops_impossible: ClassVar[bool] = False
    """Whether a playout whose rules fail is dropped rather than reported: a guessed
    position can be one the rules cannot carry on from (a hand dealt without the card
    the log shows was taken back); the true state never is."""

    # -- what subclasses decide ----------------------------------------------------------
    def determinize(self, game: Game, state: State, seat: int) -> State:
        raise NotImplementedError

    def key(self, game: Game, state: State, seat: int, raw: Raw) -> Any:
        raise NotImplementedError

    def group_keys(self, game: Game, state: State, seat: int, raws: list[Raw],
                   keys: list[Any]) -> list[Any]:
        """Each option's group (an ungrouped option is a group of its own)."""
        raise NotImplementedError

    # -- the agent interface --------------------------------------------------------------
    def choose(self, view: Callable[[], dict[str, Any]], options: Sequence[OptionChoice]
               ) -> int:
        raise TypeError(f"the {self.name} player searches the game's states: it decides "
                        "through search(game, state, seat)")

    def search(self, game: Game, state: State, seat: int) -> Raw:
        """The option to take: the root option visited most (ties: the first listed)."""
        raws = game.raw_options(state, seat)
        if len(raws) == 1:
            self.last_playouts = 0
            return raws[0]
        if self.workers > 1:
            root = self._search_shared(game, state, seat, len(raws))
        else:
            root = self._grow(game, state, seat, len(raws), self.playouts, self.seconds)
        if self.dropped == self.last_playouts:
            raise RuleError(f"the {self.name} player found no position its seat could be "
                            "in from which the rules could go on")
        keys = [self.key(game, state, seat, raw) for raw in raws]
        among = range(len(raws))
        children = root.children
        if root.grouped:
            groups = self.group_keys(game, state, seat, raws, keys)
            g = groups[_most_visited(children, groups, among)]
            child = children.get(g)
            children = child.children if child is not None else {}
            among = [i for i in among if groups[i] == g]
        return raws[_most_visited(children, keys, among)]

    def _grow(self, game: Game, state: State | None, seat: int, options: int,
              playouts: int, seconds: float) -> _Node:
        """The root of a search of `playouts` playouts (or `seconds` of them) from
        `state` (None: what `determinize` draws from does not need it), whose decision
        has `options` options. Sets `last_playouts` and `dropped`."""
        root = _Node(0)
        root.grouped = 0 < self.groups < options
        self.dropped = 0
        deadline = time.perf_counter() + seconds if seconds else None
        planned = 0 if deadline else playouts
        done = 0
        report_every = max(1, planned // 100) if planned else 16
        while True:
            if deadline is None:
                if done >= planned:
                    break
            elif done and time.perf_counter() >= deadline:
                break
            if self.drops_impossible:
                try:
                    self._playout(game, state, seat, root)  # type: ignore[arg-type]
                except RuleError:
                    self.dropped += 1
            else:
                self._playout(game, state, seat, root)  # type: ignore[arg-type]
            done += 1
            if self.progress is not None and done % report_every == 0:
                self.progress(done, planned)
        self.last_playouts = done
        return root

    # -- on several cores -------------------------------------------------------------------
    def _search_shared(self, game: Game, state: State, seat: int, options: int) -> _Node:
        """Root-parallel search: `workers` shares of the playouts, each from the same
        position with its own seed (from this agent's generator and the share's
        number), their root counts added up in share order. Where each share runs does
        not change the sum, so the choice depends only on the seed and the settings."""
        n = self.workers
        self.rng, base = next_u64(self.rng)
        position = self.shared_position(game, state, seat, base)
        timed = self.seconds
        jobs = [(self.name, self.settings, position, seat, options,
                 derive_seed(base, "worker", i), self.playouts // n + (i < self.playouts % n),
                 timed) for i in range(n)]
        jobs = [job for job in jobs if job[6] or timed]
        progress = self.progress

        def here() -> Share:
            return run_share(game, jobs[0], _scaled(progress, n, self.playouts))

        if can_start_processes() and len(jobs) > 1:
            if self._pool is None:
                self._pool = SearchPool(n - 1)
            shares = self._pool.run(game, jobs[1:], here)
        else:  # in a pool's worker: one share after another, each its part of the time
            jobs = [(*job[:7], timed / len(jobs)) for job in jobs]
            shares = [here()] + [run_share(game, job) for job in jobs[1:]]
        return self._summed(shares, options)

    def shared_position(self, game: Game, state: State, seat: int, seed: int) -> Any:
        """What a share searches from, as sent to another process."""
        raise NotImplementedError

    def _summed(self, shares: list[Share], options: int) -> _Node:
        """One root holding the shares' visit counts added up, in share order."""
        root = _Node(0)
        root.grouped = 0 < self.groups < options
        self.last_playouts = sum(done for done, _, _ in shares)
        self.dropped = sum(dropped for _, dropped, _ in shares)
        for _, _, counts in shares:
            for key, (visits, below_it) in counts.items():
                child = root.children.get(key)
                if child is None:
                    child = root.children[key] = _Node(0)
                child.visits += visits
                for sub, sub_visits in (below_it or {}).items():
                    grand = child.children.get(sub)
                    if grand is None:
                        grand = child.children[sub] = _Node(0)
                    grand.visits += sub_visits
        return root

    def close(self) -> None:
        """Stop this player's worker processes (started again if it searches again)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def worker_pids(self) -> list[int]:
        """The ids of this player's worker processes (none before its first search)."""
        return self._pool.pids() if self._pool is not None else []

    def _grouping(self, raws: list[Raw]) -> bool:
        return 0 < self.groups < len(raws)

    # -- one playout ----------------------------------------------------------------------
    def _draw(self, n: int) -> int:
        self.rng, index = below(self.rng, n)
        return index

    def _playout(self, game: Game, root_state: State, seat: int, root: _Node) -> None:
        state = self.determinize(game, root_state, seat)
        node = root
        path: list[_Node] = []
        key_of = self.key
        while not state.over:
            actor = game.deciding_seats(state)[0]
            raws = game.raw_options(state, actor)
            if not raws:  # only in a guessed position (the machine pauses on an option)
                raise RuleError(f"{game.seat_name(actor)} has no option here")
            keys = [key_of(game, state, actor, raw) for raw in raws]
            if node.grouped is None:
                node.grouped = self._grouping(raws)
            if node.grouped:
                groups = self.group_keys(game, state, actor, raws, keys)
                group, _, new = self._pick(node, groups, range(len(raws)), actor, path)
                among = [i for i, g in enumerate(groups) if g == group]
                _, i, new_option = self._pick(path[-1], keys, among, actor, path)
                game.apply_trusted(state, actor, raws[i], words=False)
                if new or new_option:
                    break
                node = path[-1]
                continue
            _, i, new = self._pick(node, keys, range(len(raws)), actor, path)
            game.apply_trusted(state, actor, raws[i], words=False)
            if new:
                break
            node = path[-1]
        if self.judge_at_once:
            rewards = self._judge(game, state, path[-1].actor)
        else:
            rewards = self._finish(game, state)
        for node in path:
            node.visits += 1
            node.wins += rewards[node.actor - 1]

    def _pick(self, node: _Node, keys: list[Any], among: Sequence[int] | range,
              actor: int, path: list[_Node]) -> tuple[Any, int, bool]:
        """One step down the tree: the child of `node` to follow among the options
        `among`, named by `keys` (options', or their groups'): an untried one at random,
        else the best by UCB1 with availability. It is appended to `path`. Returns its
        key, the first of its options, and whether it is new."""
        children = node.children
        first: dict[Any, int] = {}
        for i in among:
            first.setdefault(keys[i], i)
        untried = []
        for k in first:
            child = children.get(k)
            if child is None:
                untried.append(k)
            else:
                child.available += 1
        if untried:
            k = untried[self._draw(len(untried))]
            child = children[k] = _Node(actor)
            child.available = 1
            path.append(child)
            return k, first[k], True
        c = self.c
        best, best_value = None, -1.0
        for k in first:
            child = children[k]
            visits = child.visits
            if not visits:  # its first playout was dropped (see `dropped`)
                best = k
                break
            value = child.wins / visits + c * math.sqrt(math.log(child.available) / visits)
            if value > best_value:
                best, best_value = k, value
        path.append(children[best])
        return best, first[best], False

    def _finish(self, game: Game, state: State) -> list[float]:
        """Play on at random (at most `depth` decisions) and share out the result."""
        roller = self.roller
        self.rng, roller.rng = next_u64(self.rng)
        limit = self.depth or -1
        played = 0
        searched = [0]
        machine = Machine(game, state, limited=False)
        while not state.over and played != limit:
            seats = game.deciding_seats(state)
            game.play_sampled(state, seats[0], roller, searched, machine, words=False)
            played += 1
        return _outcome(state) if state.over else _ranked(game, state)

    def _judge(self, game: Game, state: State, mover: int) -> list[float]:
        """judge=score: `mover` makes its own follow-up decisions, each for the best
        judgement of the position after it; then the position is judged as it stands."""
        judged: list[float] | None = None  # the judgement of `state`, once known
        for _ in range(self.FOLLOW_UPS):
            if state.over or game.deciding_seats(state) != [mover]:
                break
            best, best_judged = None, None
            for raw in game.raw_options(state, mover):
                after = state.copy()
                game.apply_trusted(after, mover, raw, words=False)
                value = self._judged(game, after)
                if best_judged is None or value[mover - 1] > best_judged[mover - 1]:
                    best, best_judged = after, value
            if best is None:  # only in a guessed position (see `dropped`)
                raise RuleError(f"{game.seat_name(mover)} has no option here")
            state, judged = best, best_judged
        return judged if judged is not None else self._judged(game, state)

    def _judged(self, game: Game, state: State) -> list[float]:
        """Each seat's share of a finished game, else `(1 + tanh(margin / lead)) / 2`."""
        if state.over:
            return _outcome(state)
        scores = numeric_scores(game.scores(state))
        if scores is None or len(scores) < 2:
            return _ranked(game, state)
        second, top = sorted(scores)[-2:]
        lead = self.lead
        return [0.5 + 0.5 * math.tanh((v - (second if v == top else top)) / lead)
                for v in scores]


def _outcome(state: State) -> list[float]:
    """Each seat's share of a finished game: the winners share 1 (a draw: all)."""
    n = state.players
    winners = state.winners or []
    if not winners:
        return [1.0 / n] * n
    share = 1.0 / len(winners)
    return [share if s in winners else 0.0 for s in range(1, n + 1)]


def _ranked(game: Game, state: State) -> list[float]:
    """Each seat between 1/4 and 3/4 by the share of the others it is ahead of in the
    game's ranking (a tie counting half): a lead counts for less than a win."""
    n = state.players
    if n == 1:
        return [0.5]
    keys = game.rank_keys_compared(game.env(state))
    out = []
    for s in range(1, n + 1):
        mine, ahead = keys[s], 0.0
        for t in range(1, n + 1):
            if t != s:
                theirs = keys[t]
                ahead += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        out.append(0.25 + 0.5 * ahead / (n - 1))
    return out


def _most_visited(children: dict[Any, _Node], keys: list[Any], among: Sequence[int] | range
                  ) -> int:
    """The option among `among` whose key's child was visited most (ties: the first)."""
    best, best_visits = among[0], -1
    for i in among:
        child = children.get(keys[i])
        visits = child.visits if child is not None else 0
        if visits > best_visits:
            best, best_visits = i, visits
    return best


class MCTSAgent(SearchAgent):
    """UCT over the true state; only the future's dice and shuffles are unknown to it
    (the game's generator is drawn anew in each playout)."""

    name = "mcts"
    sees_hidden = True

    def determinize(self, game: Game, state: State, seat: int) -> State:
        copy = state.copy()
        self.rng, copy.rng = next_u64(self.rng)
        return copy

    def shared_position(self, game: Game, state: State, seat: int, seed: int) -> Any:
        return state

    def key(self, game: Game, state: State, seat: int, raw: Raw) -> Any:
        try:
            hash(raw)
        except TypeError:  # an option over lists (`for: {pick: "[[1], [1, 1]]"}`)
            return _hashable(raw)
        return raw

    def group_keys(self, game: Game, state: State, seat: int, raws: list[Raw],
                   keys: list[Any]) -> list[Any]:
        kinds = game.choices[state.frames[-1][0]].kinds
        return [(key[0], key[1][0]) if kinds[raw[0]].group is not None else key
                for raw, key in zip(raws, keys, strict=True)]


def _hashable(value: Any) -> Any:
    """A tree key for a value the rules computed: a list (or a mapping) becomes a tuple
    marked as such, so that equal values meet at one node and no list equals a tuple."""
    if isinstance(value, tuple):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, list):
        return ("[]", *(_hashable(v) for v in value))
    if isinstance(value, dict):
        return ("{}", frozenset((k, _hashable(v)) for k, v in value.items()))
    return value


class ISMCTSAgent(SearchAgent):
    """Information-set MCTS: searches only over what its seat's view allows."""

    name = "ismcts"
    drops_impossible = True

    def __init__(self, seed: int = 0, **settings: Any) -> None:
        super().__init__(seed, **settings)
        self._sampler: InformationSet | None = None
        """What the seat knows at the decision being searched (made once per search)."""

    def determinize(self, game: Game, state: State, seat: int) -> State:
        assert self._sampler is not None
        self.rng, seed = next_u64(self.rng)
        return self._sampler.sample(seed)

    def key(self, game: Game, state: State, seat: int, raw: Raw) -> Any:
        return game.notation_of(state, seat, raw)

    def group_keys(self, game: Game, state: State, seat: int, raws: list[Raw],
                   keys: list[Any]) -> list[Any]:
        """By what the seat reads: the group notation, worked out once per first value."""
        kinds = game.choices[state.frames[-1][0]].kinds
        named: dict[tuple[int, Any], Any] = {}
        out = []
        for raw, key in zip(raws, keys, strict=True):
            if kinds[raw[0]].group is None:
                out.append(key)
                continue
            first = (raw[0], raw[1][0])
            group = named.get(first)
            if group is None:
                group = named[first] = (raw[0], game.group_notation_of(state, seat, raw))
            out.append(group)
        return out

    def shared_position(self, game: Game, state: State, seat: int, seed: int) -> Any:
        """The seat's information set, holding nothing of the true state the seat may
        not know: all that leaves this process."""
        assert self._sampler is not None
        return self._sampler.shareable(seed)

    def search(self, game: Game, state: State, seat: int) -> Raw:
        self._sampler = InformationSet(game, state, seat)
        try:
            return super().search(game, state, seat)
        finally:
            self._sampler = None


def run_share(game: Game, job: tuple, progress: Callable[[int, int], None] | None = None
              ) -> Share:
    """Search one share of a decision (see `SearchAgent._search_shared`), in any process:
    the same job gives the same answer."""
    name, settings, position, seat, options, seed, playouts, seconds = job
    cls = MCTSAgent if name == "mcts" else ISMCTSAgent
    searcher = cls(seed, **settings)  # one per share: threads may search at once
    searcher.progress = progress
    state = position
    if isinstance(searcher, ISMCTSAgent):
        searcher._sampler, state = position.attached(game), None
    try:
        root = searcher._grow(game, state, seat, options, playouts, seconds)
    finally:
        searcher.progress = None
        if isinstance(searcher, ISMCTSAgent):
            searcher._sampler = None
    counts = {key: (child.visits, {k: c.visits for k, c in child.children.items()}
                    if root.grouped else None)
              for key, child in root.children.items()}
    return searcher.last_playouts, searcher.dropped, counts


def _scaled(progress: Callable[[int, int], None] | None, shares: int, planned: int
            ) -> Callable[[int, int], None] | None:
    """Progress of the whole search from the first share's (the others keep pace)."""
    if progress is None:
        return None

    def report(done: int, share_planned: int) -> None:
        progress(min(done * shares, planned) if share_planned else done * shares,
                 planned if share_planned else 0)

    return report
