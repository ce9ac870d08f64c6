"""The machine: advances a state until a seat must decide or the game is over.

It executes the compiled program of a Game on a State, one instruction at a time,
keeping only plain data in the state (program counters and local variables in
frames), so that it can stop at any decision and resume later in any process.
Budgets turn runaway rules into a clear error instead of a hang.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.errors import BudgetError, IllegalMove, RuleError, did_you_mean
from interpreter.run import rng as rngmod
from interpreter.run.budget import describe as kind_of
from interpreter.run.budget import overspent
from interpreter.run.state import State
from interpreter.run.view import revealed_line, witnesses

if TYPE_CHECKING:
    from interpreter.play.game import Game
    from interpreter.run.tables import ChoiceSpec

PAUSE = -1
SWITCH = -2

MAX_CALL_DEPTH = 200
"""Deepest nesting of procedure calls and triggers (the bundled games' chains reach 4): each
level is a frame saved in the state, so an endless recursion must stop early."""

DECISION_STEPS = 100
"""Steps a decision costs in itself (checking it, writing its notation in the log): a
game of many cheap decisions must run into its step budget too."""


CALLS = "#calls"
"""The key, in `Env.cache`, of the calls of definitions with parameters remembered for
the state as it is (compile.codegen.remembered): no definition has that name. Kept in
the cache, they go whenever it forgets anything."""


class Env:
    """What expressions see: the state, the game, the current frame's locals, temporaries,
    and the step count that budgets the work they do."""

    __slots__ = ("cache", "game", "locals", "mentioned", "readers", "state", "step_budget",
                 "step_limit", "steps", "temps")

    def __init__(self, game: Game, state: State, local_vars: dict[str, Any] | None = None):
        self.game = game
        self.state = state
        self.temps: dict[str, Any] = {}
        self.cache: dict[str, Any] = {}
        """Values of definitions for the state as it is; a change forgets those that
        read what it changed."""
        self.readers: dict[str, tuple[str, ...]] | None = game.cache_readers
        self.fresh(local_vars if local_vars is not None else {})

    def fresh(self, local_vars: dict[str, Any], keep_cache: bool = False) -> None:
        """As a new environment is: no temporaries, nothing cached (unless `keep_cache`:
        the cache holds only values of the state as it is), no steps yet."""
        self.locals = local_vars
        if self.temps:
            self.temps.clear()
        if self.cache and not keep_cache:
            self.cache.clear()
        self.steps = 0
        self.step_limit: int = self.game.budgets.steps_per_decision
        self.step_budget = "steps_per_decision"
        self.mentioned: list[int] | None = None
        """While a log line is written: the pieces its text describes."""

    def forget(self, change: str) -> None:
        """The rules changed the board, a variable or the turn: forget the definitions
        that read it (all of them while the game is still compiling)."""
        cache = self.cache
        if not cache:
            return
        readers = self.readers
        if readers is None:
            cache.clear()
            return
        for name in readers[change]:
            cache.pop(name, None)
        cache.pop(CALLS, None)  # (a call may read what changed: remembered ones go)


class Machine:
    """Runs one state forward; created for each advance, never stored."""

    __slots__ = ("cache_for", "charged", "env", "fault", "found", "game", "retry_snapshots",
                 "state")

    def __init__(self, game: Game, state: State, limited: bool = True) -> None:
        self.game = game
        self.state = state
        self.env = Env(game, state, state.frames[-1][1] if state.frames else {})
        self.retry_snapshots: dict[int, Any] = {}
        self.charged = 0
        """Steps of `env` already added to the state's total."""
        self.fault = -1
        """Where in a generated stretch an error came from (its instruction's position):
        the machine only knows the position the stretch started at."""
        self.cache_for = -1
        """The decisions the state had when this machine paused at the next one (set by
        whoever saw it get there: Game.play_sampled): while the state still has that
        many, no one else advanced it, and what `env` computed is its values."""
        self.found: tuple[ChoiceSpec, int, int] | None = None
        """At the decision this machine paused at: (the decision, its seat, the first kind
        of option the seat has there), the kinds before it having none (valid with the
        cache, see `cache_for`): a sampler need not check them again."""
        if limited:  # (not for a machine that only decides: `decide` sets the limit)
            self.limit_steps(setup=state.decisions == 0)

    def again(self, keep_cache: bool = False) -> Machine:
        """This machine, ready to advance its state from where it paused as a new one
        would (a playout's decisions reuse one machine: cheaper than making one each).
        With `keep_cache`, its environment keeps the definitions it computed on the way,
        when the state is as it left it (`cache_for`: they are its values), for work that
        is not charged to the game, such as listing the options at the pause."""
        st = self.state
        keep_cache = keep_cache and self.cache_for == st.decisions
        self.cache_for = -1
        if not keep_cache:
            self.found = None
        self.env.fresh(st.frames[-1][1] if st.frames else {}, keep_cache)
        if self.retry_snapshots:
            self.retry_snapshots = {}
        self.charged = 0
        self.fault = -1
        return self

    def limit_steps(self, setup: bool) -> None:
        """From here on, the rules may take a decision's worth of steps (or the set-up's),
        and no more than the game has left."""
        env, budgets = self.env, self.game.budgets
        if setup:
            env.step_limit = env.steps + budgets.steps_for_setup
            env.step_budget = "steps_for_setup"
        else:
            env.step_limit = env.steps + budgets.steps_per_decision
            env.step_budget = "steps_per_decision"
        game_limit = budgets.steps_per_game - self.state.steps + self.charged
        if game_limit < env.step_limit:
            env.step_limit = max(game_limit, env.steps)
            env.step_budget = "steps_per_game"

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> None:
        st = self.state
        program = self.game.program
        weights = self.game.program_weights
        frames = st.frames
        env = self.env
        limit = env.step_limit
        frame = frames[-1]
        env.locals = frame[1]
        pc = frame[0]
        try:
            while not st.over:
                if st.triggers:
                    self._fire_trigger()
                    frame = frames[-1]
                    env.locals = frame[1]
                pc = frame[0]
                env.steps += weights[pc]
                if env.steps > limit:
                    overspent(env)
                r = program[pc](self)
                if r >= 0:
                    frame[0] = r
                elif r == PAUSE:
                    return
                else:
                    frame = frames[-1]
                    env.locals = frame[1]
        except RuleError as exc:
            self.game.locate_error(exc, self._where(pc))
            raise exc.during(st.decisions, self.game.variant) from None
        except RecursionError:
            exc = RuleError("the rules nest too deeply here (a value nested inside itself, or "
                            "definitions calling each other too many levels down)")
            self.game.locate_error(exc, self._where(pc))
            raise exc.during(st.decisions, self.game.variant) from None
        except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError,
                ZeroDivisionError) as bug:
            exc = RuleError(f"this effect failed with {type(bug).__name__}: {bug}; the rules "
                            "may be wrong, but tabletop should have said how: this is a bug "
                            "in tabletop, please report it")
            self.game.locate_error(exc, self._where(pc))
            raise exc.during(st.decisions, self.game.variant) from None
        finally:
            st.steps += env.steps - self.charged
            self.charged = env.steps

    def _where(self, pc: int) -> int:
        """The instruction an error came from: inside a stretch, the one it reached."""
        fault, self.fault = self.fault, -1
        return fault if fault >= 0 else pc

    def _fire_trigger(self) -> None:
        index, piece, place = self.state.triggers.pop(0)
        trigger = self.game.triggers[index]
        self._check_depth(f"trigger '{trigger.id}'")
        self.state.frames.append([trigger.entry.pc, {"piece": piece, "place": place}])

    # -- frames --------------------------------------------------------------------------
    def push_frame(self, pc: int, local_vars: dict[str, Any], return_pc: int) -> None:
        self._check_depth("a procedure")
        self.state.frames[-1][0] = return_pc
        self.state.frames.append([pc, local_vars])

    def _check_depth(self, what: str) -> None:
        if len(self.state.frames) >= MAX_CALL_DEPTH:
            raise RuleError(f"{what} was started {MAX_CALL_DEPTH} levels deep inside "
                            "procedures and triggers (tabletop's limit): a procedure calls "
                            "itself, or triggers set each other off, without end")

    def pop_frame(self) -> int:
        if len(self.state.frames) <= 1:
            raise RuleError("'return' outside a procedure")
        self.state.frames.pop()
        return SWITCH

    def seat_index(self, seat: Any) -> int:
        if type(seat) is not int or not 1 <= seat <= self.state.players:
            raise RuleError(f"{kind_of(seat)} is not a seat of this game (seats 1 to "
                            f"{self.state.players})")
        return seat - 1

    # -- effects on pieces ---------------------------------------------------------------
    def place(self, site: Any, what: str) -> int:
        """A value given where a place is expected: a place, or a text naming one (a
        square's name computed as the game goes, e.g. 'c' + str(n))."""
        if type(site) is int and 0 <= site < self.state.places:
            return site
        if isinstance(site, str):
            found = self.game.site_by_name.get(site)
            if found is not None:
                return found
            hint = did_you_mean(site[:40], list(self.game.site_by_name))
            raise RuleError(f"{what}: {kind_of(site)} names no place of this game"
                            + (f" ({hint})" if hint else ""))
        raise RuleError(f"{what}: {kind_of(site)} is not a place")

    def move(self, piece: Any, site: Any, bottom: bool = False) -> None:
        st = self.state
        if type(piece) is not int or not 0 <= piece < len(st.loc):
            raise RuleError(f"move: {kind_of(piece)} is not a piece")
        if type(site) is not int or not 0 <= site < st.places:
            site = self.place(site, "move")
        if st.shown and piece in st.shown:
            self.unshow((piece,))
        old = st.stack(st.loc[piece])
        if old and old[-1] == piece:
            old.pop()
        else:
            env = self.env
            env.steps += len(old)
            if env.steps > env.step_limit:
                overspent(env)
            old.remove(piece)
        if bottom:
            st.stack(site).insert(0, piece)
        else:
            st.stack(site).append(piece)
        st.loc[piece] = site
        self.env.forget("board")
        triggers = self.game.site_zone[site].triggers
        if triggers:
            self._queue_triggers(triggers, piece, site)

    def _queue_triggers(self, triggers: list[int], piece: int, site: int) -> None:
        temps = self.env.temps
        for index in triggers:
            trigger = self.game.triggers[index]
            if trigger.where is not None:
                temps["piece"], temps["place"] = piece, site
                try:
                    if not trigger.where(self.env):
                        continue
                except RuleError as exc:
                    raise exc.at(trigger.loc, f"the condition of trigger '{trigger.id}'",
                                 self.game.source_line(trigger.loc)) from None
            self.state.triggers.append([index, piece, site])

    def swap(self, a: int, b: int) -> None:
        st = self.state
        for p in (a, b):
            if type(p) is not int or not 0 <= p < len(st.loc):
                raise RuleError(f"swap: {kind_of(p)} is not a piece")
        if st.shown:
            self.unshow((a, b))
        sa, sb = st.loc[a], st.loc[b]
        stack_a, stack_b = st.stack(sa), st.stack(sb)
        ia, ib = stack_a.index(a), stack_b.index(b)
        stack_a[ia], stack_b[ib] = b, a
        st.loc[a], st.loc[b] = sb, sa
        self.env.forget("board")

    def shuffle(self, site: Any) -> None:
        st = self.state
        if type(site) is not int or not 0 <= site < st.places:
            site = self.place(site, "shuffle")
        seq = st.stack(site)
        if st.shown:
            self.unshow(seq)
        self.env.steps += len(seq)
        r = st.rng
        for i in range(len(seq) - 1, 0, -1):
            r, j = rngmod.below(r, i + 1)
            seq[i], seq[j] = seq[j], seq[i]
        st.rng = r
        self.env.forget("board")

    # -- the table -----------------------------------------------------------------------
    def say(self, text: str, seats: Any, pieces: tuple[int, ...] = (),
            on_record: bool = False) -> None:
        """A line in the log; `pieces`: those its text describes (see view.redacted_log);
        `on_record`: it stays readable for the seats that can see them now."""
        if seats is not None:
            if not isinstance(seats, list | tuple):
                seats = [seats]
            seats = tuple(sorted({self.seat_index(s) + 1 for s in seats}))
        if on_record:
            self.state.append_log(("say", text, seats, pieces,
                                   witnesses(self.game, self.state, pieces)))
        else:
            self.state.append_log(("say", text, seats, pieces))

    def show(self, pieces: Any, seats: Any) -> None:
        """Let `seats` see these pieces, wherever they lie, until each moves (a private
        reveal: a look at another player's hand); the log tells them, and only them,
        what they saw."""
        st = self.state
        if not isinstance(pieces, list | tuple):
            pieces = [pieces]
        if not isinstance(seats, list | tuple):
            seats = [seats]
        to = {self.seat_index(s) + 1 for s in seats}
        for p in pieces:
            if type(p) is not int or not 0 <= p < len(st.loc):
                raise RuleError(f"show: {kind_of(p)} is not a piece")
        if not pieces or not to:
            return
        shown = dict(st.shown)  # replaced, not changed: copies of the state share it
        for p in pieces:
            shown[p] = tuple(sorted(to.union(shown.get(p, ()))))
        st.shown = shown
        names = ", ".join(self.game.piece_names[p] for p in pieces)
        who = ", ".join(self.game.seat_name(s) for s in sorted(to))
        seen = tuple(sorted(to))  # on the record for them: they remember what they saw
        st.append_log(("say", f"Shown to {who}: {names}", seen, tuple(pieces), seen))

    def unshow(self, pieces: Any) -> None:
        """These pieces moved (or were shuffled): what was shown of them is forgotten."""
        st = self.state
        gone = [p for p in pieces if p in st.shown]
        if gone:
            st.shown = {p: seats for p, seats in st.shown.items() if p not in gone}

    def finish(self, winners: Any, reason: str) -> None:
        st = self.state
        if winners is None:
            winners = self.game.ranked_winners(self.env)
        if not isinstance(winners, list | tuple):
            winners = [winners]
        for w in winners:
            self.seat_index(w)
        st.over = True
        st.winners = sorted(set(winners))
        st.reason = reason
        st.append_log(("say", f"Game over: {reason}", None, ()))

    def begin_turn(self, next_pc: int) -> int:
        st = self.state
        st.turn += 1
        if st.turn > self.game.budgets.turns_per_game:
            raise BudgetError("turns_per_game", f"the game went past "
                              f"{self.game.budgets.turns_per_game:,} turns; the rules may "
                              "never end")
        self.env.locals.clear()
        self.env.forget("turn")
        return next_pc

    def end_turn(self, turn_pc: int) -> int:
        st = self.state
        env = self.env
        for rule in self.game.end_rules:
            env.steps += rule.weight
            try:
                if rule.when(env):
                    self.finish(rule.winners(env) if rule.winners else None, rule.text)
                    return PAUSE
            except RuleError as exc:
                raise exc.at(rule.loc, f"end rule '{rule.id}'",
                             self.game.source_line(rule.loc)) from None
        if st.out:
            return self.next_seat_in(turn_pc)
        st.current = st.current % st.players + 1
        env.forget("turn")
        return turn_pc

    def next_seat_in(self, turn_pc: int) -> int:
        """The turn passes to the next seat still in the game; when at most one is left
        (and no end rule ended the game), the game ends, the last seat in winning."""
        st = self.state
        left = [s for s in range(1, st.players + 1) if s not in st.out]
        if len(left) <= 1:
            self.finish(left or [st.out[-1]], "only one player is left in the game" if left
                        else "no player is left in the game")
            return PAUSE
        seat = st.current % st.players + 1
        while seat in st.out:
            seat = seat % st.players + 1
        st.current = seat
        self.env.forget("turn")
        return turn_pc

    def eliminate(self, seats: Any) -> None:
        """Knock seats out of the game: no more turns, no more decisions, and ranked
        below every seat still in (the later out, the higher)."""
        st = self.state
        if not isinstance(seats, list | tuple):
            seats = [seats]
        for s in seats:
            self.seat_index(s)
            if s not in st.out:
                st.out = (*st.out, s)
                st.append_log(("say", f"{self.game.seat_name(s)} is out of the game", None,
                               ()))
        self.env.forget("turn")

    # -- decisions -----------------------------------------------------------------------
    def ask(self, spec: ChoiceSpec) -> int:
        st = self.state
        env = self.env
        if spec.simultaneous:
            slot = env.locals.get(spec.slot)
            if slot is None:
                seats = spec.seats(env)  # type: ignore[misc]
                if not isinstance(seats, list | tuple):
                    raise RuleError("choose: 'seats' must be a list of seats, got "
                                    f"{kind_of(seats)}")
                waiting = []
                for s in sorted({self.seat_index(s) + 1 for s in seats}):
                    if s in st.out:
                        continue  # knocked out: decides nothing more
                    if self.has_option(spec, s):
                        waiting.append(s)
                slot = {"seats": waiting, "picked": {}, "next": 0}
                env.locals[spec.slot] = slot
            if len(slot["picked"]) == len(slot["seats"]):
                return spec.resolve_pc
            return PAUSE
        if spec.seat is not None:
            seat = spec.seat(env)
            self.seat_index(seat)
        else:
            seat = st.current  # always a seat
        if not st.out or seat not in st.out:
            k = self.first_with_option(spec, seat)
            if k >= 0:
                self.found = (spec, seat, k)
                return PAUSE
        return spec.none.pc if spec.none is not None else spec.after.pc

    def has_option(self, spec: ChoiceSpec, seat: int) -> bool:
        """Whether `seat` has an option here: a pause only needs to know that (listing
        them all is left to whoever asks, and not charged to the game)."""
        return self.first_with_option(spec, seat) >= 0

    def first_with_option(self, spec: ChoiceSpec, seat: int) -> int:
        """The first kind of option `seat` has here (-1: none)."""
        self.state._cache = None
        try:
            return spec.first_with_option(self.env, seat)
        except RuleError as exc:
            raise exc.during(self.state.decisions, self.game.variant) from None

    def resolve_simultaneous(self, spec: ChoiceSpec) -> int:
        env = self.env
        slot = env.locals[spec.slot]
        order = slot["seats"]
        i = slot["next"]
        if i == 0:
            for s in order:
                k, values = slot["picked"][str(s)]
                env.mentioned = []
                try:
                    notation = spec.render(env, s, (k, tuple(values)), label=False)
                    said = spec.render_said(env, s, (k, tuple(values)))
                    words = said if said is not None else spec.render(
                        env, s, (k, tuple(values)), label=True)
                    line = ("say", revealed_line(self.game.seat_name(s), words, notation,
                                                 said=said is not None),
                            None, tuple(env.mentioned))
                    if spec.on_record:  # revealing is showing it to the whole table
                        line += (tuple(range(1, self.state.players + 1)),)
                    self.state.append_log(line)
                finally:
                    env.mentioned = None
        if i >= len(order):
            del env.locals[spec.slot]
            return spec.after.pc
        env.locals[spec.slot] = {**slot, "next": i + 1}
        seat = order[i]
        k, values = slot["picked"][str(seat)]
        env.locals.update(spec.bind(env, seat, (k, tuple(values))))
        return spec.kinds[k].entry.pc

    def too_many_decisions(self) -> RuleError:
        """The game went past the decisions its ruleset says a game can take at most
        (`most_decisions`: the rules are wrong, or that number is), or past the budget."""
        game = self.game
        most = game.most_decisions
        if most is not None and most <= game.budgets.decisions_per_game:
            return RuleError(f"the game went past {most:,} decisions, the most the ruleset "
                             "says a game can take (most_decisions): the rules let a game "
                             "go on longer than that")
        return BudgetError("decisions_per_game", f"the game went past "
                           f"{game.budgets.decisions_per_game:,} decisions")

    def decide(self, spec: ChoiceSpec, seat: int, option: tuple[int, tuple],
               words: bool = True) -> str:
        """Carry out one seat's choice (already checked legal), then run on; returns its
        notation (written once, here, where the log needs it). With `words`, the log
        also keeps the option's label and its `said`, for people to read; a playout
        nobody reads leaves them out (rendering them costs the hot path up to a third)."""
        st = self.state
        env = self.env
        self.found = None  # (it pauses again, or it does not: a simultaneous decision)
        st.decisions += 1
        self.limit_steps(setup=False)
        env.steps += DECISION_STEPS
        if st.decisions > self.game.decision_limit:
            exc = self.too_many_decisions()
            raise exc.at(spec.loc, "this decision (choose)", self.game.source_line(spec.loc)
                         ).during(st.decisions, self.game.variant) from None
        kind = spec.kinds[option[0]]
        env.mentioned = mentioned = []
        try:
            bound = spec.bind(env, seat, option)
            notation = kind.notation(env)
            entry: tuple = ("decision", seat, notation, spec.secret, tuple(mentioned))
            if words:
                env.mentioned = named = []  # the words may name what the notation does not
                label = kind.label(env)
                entry += (label, tuple(named))
                if kind.said is not None:  # and what the log says, others still
                    env.mentioned = told = []
                    said = kind.said(env)
                    entry += (said, tuple(told))
        except RuleError as exc:
            raise spec._locate(env, option[0], exc).during(st.decisions, self.game.variant
                                                           ) from None
        finally:
            env.mentioned = None
        st.log = (entry, st.log)
        st._cache = None
        if spec.simultaneous:
            slot = env.locals[spec.slot]
            picked = {**slot["picked"], str(seat): [option[0], list(option[1])]}
            env.locals[spec.slot] = {**slot, "picked": picked}
            if len(picked) < len(slot["seats"]):
                return notation
            st.frames[-1][0] = spec.resolve_pc
        else:
            env.locals.update(bound)
            st.frames[-1][0] = kind.entry.pc
        self.run()
        return notation

    # -- retry (setup under constraints) -------------------------------------------------
    def snapshot(self) -> State:
        return self.state.copy()

    def restore(self, snap: State) -> None:
        st = self.state
        self.env.steps += len(st.loc) + st.places
        st.sites = snap.sites.copy()  # (the lists shared with the snapshot: copied on change)
        st.owned = set()
        snap.owned.clear()
        st.loc = snap.loc[:]
        st.vars = snap.vars.copy()
        st.seat_vars = {k: v[:] for k, v in snap.seat_vars.items()}
        st.piece_vars = {k: v[:] for k, v in snap.piece_vars.items()}
        st.triggers = [t[:] for t in snap.triggers]
        st.log = snap.log
        st.out = snap.out
        st.shown = snap.shown
        self.env.cache.clear()


def check_pending(game: Game, state: State, seat: int) -> ChoiceSpec:
    """The decision waiting for `seat`, or IllegalMove explaining why there is none."""
    if state.over:
        raise IllegalMove("the game is over")
    spec = game.choices.get(state.frames[-1][0])
    if spec is None:
        raise IllegalMove("no decision is pending")
    if seat not in game.deciding_seats(state):
        raise IllegalMove(f"it is not {game.seat_name(seat)}'s decision")
    return spec
