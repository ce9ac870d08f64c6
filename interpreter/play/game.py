"""Game: a compiled ruleset with its options applied, immutable, shared by all states;
it creates states, tells who decides, lists and samples the legal options of a decision
and carries out choices (with run.machine, which advances a state).

assemble.game.compile_game fills a Game in; nothing here compiles anything.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from interpreter.errors import IllegalMove, Location, RuleError, UsageError, did_you_mean
from interpreter.load.catalog import shorten
from interpreter.load.data_values import data_text, frozen_value
from interpreter.run import rng as rngmod
from interpreter.run.budget import Limits
from interpreter.run.budget import describe as kind_of
from interpreter.run.machine import Env, Machine, check_pending
from interpreter.run.panels import PanelsInfo
from interpreter.run.state import State
from interpreter.run.tables import (
    ALL_DIRECTIONS,
    DIRECTIONS,
    HEX_DIRECTIONS,
    HEX_ORDER,
    ChoiceSpec,
    Compiled,
    Decision,
    EndRuleInfo,
    Option,
    TriggerInfo,
    VariableInfo,
    ZoneInfo,
)

if TYPE_CHECKING:
    from interpreter.agents.random_agent import RandomAgent
    from interpreter.load.loader import LoadedRuleset
    from interpreter.load.schema import Budgets, Ruleset



@dataclass(frozen=True)
class CardShown:
    """What a card's face shows, worked out from its data once (pieces.card): the
    pictures draw it, the terminal lists it."""

    title: str
    """The card's words (its name when the ruleset says nothing)."""
    corner: str = ""
    """Small text in its corner (a number: `$3`), or nothing."""
    icons: str = ""
    """The icon repeated as many times as the card says (`★★`), or nothing."""
    band: str | None = None
    """The attribute whose value colours its band (None: the one colouring pieces)."""

    def line(self) -> str:
        """The face in one line of text (`size 1 $1 ★`): what a glyph can say."""
        return " ".join(part for part in (self.title, self.corner, self.icons) if part)


class Game:
    """A compiled ruleset with options applied; create states and play them."""

    def __init__(self, loaded: LoadedRuleset, options: dict[str, Any]) -> None:
        self.loaded = loaded
        self.ruleset: Ruleset = loaded.model
        self.name = self.ruleset.game.name
        self.title = self.ruleset.game.title
        self.options = options
        self.recipe: Callable[[], Game] | None = None
        """How to compile this game again in another process (a call that pickles, set
        by whoever compiled it): a search's worker processes build their own copy."""
        self.budgets: Budgets = self.ruleset.budgets
        self.most_decisions: int | None = None
        """The most decisions a game can take, as the ruleset says (`most_decisions`)."""
        self.decision_limit = self.budgets.decisions_per_game
        """Decisions a game may take before the engine stops it (the lower of the two)."""
        self.limits = Limits(self.budgets.list_length, self.budgets.text_length,
                             self.budgets.largest_number, self.budgets.value_size)
        self.program: list[Callable[[Machine], int]] = []
        self.program_where: list[tuple[Location | None, str]] = []
        """For each instruction: the effect it comes from (where, what), for errors."""
        self.program_weights: list[int] = []
        """For each instruction: the steps it costs (see run.budget)."""
        self.choices: dict[int, ChoiceSpec] = {}
        self.zones: dict[str, ZoneInfo] = {}
        self.site_zone: list[ZoneInfo] = []
        self.site_owner: list[int | None] = []
        self.site_name: list[str] = []
        self.site_rc: list[tuple[int, int] | None] = []
        self.site_by_name: dict[str, int] = {}
        self.neighbour_cache: dict[tuple, list[int]] = {}
        """neighbours(place, directions), looked up once per game: the board is fixed."""
        self.attributes: dict[str, list[Any]] = {}
        self.attribute_order: list[str] = []
        self.piece_names: list[str] = []
        self.piece_namer: Callable[[dict[str, str]], str] = lambda names: " ".join(
            names.values())
        """A piece's name from its values' names (diagrams name pieces seen in views)."""
        self.piece_codes: list[str] = []
        self.piece_shapes: list[str | None] = []
        """How pictures draw each piece (its set's shape, else pieces.shape)."""
        self.piece_cards: list[CardShown | None] = []
        """Each piece's card face (pieces.card, else its set's `card`, else defaults), for
        pieces drawn as cards; None for others."""
        self.piece_backs: list[str | None] = []
        """What each piece shows when hidden (its set's `back`, else None: nothing):
        public, like a card's back."""
        self.has_backs = False
        """Whether any set declares a back (only then do views show backs)."""
        self.panels: PanelsInfo | None = None
        self.piece_heights: list[Any] | None = None
        """Each piece's height (pieces.height), for altitude()."""
        self.piece_kind: list[tuple] = []
        self.piece_kind_id: list[int] = []
        """A number for each piece's kind (its attribute values): quicker to compare."""
        self._piece_by_kind: dict[tuple, int] | None = None
        self.piece_start: list[int] = []
        self.start_sites: dict[int, list[int]] = {}
        """Each site's pieces before the set-up (from piece_start; blank states copy it)."""
        self.value_names: dict[Any, str] = {}
        self.value_styles: dict[str, dict[Any, str]] = {}
        self.end_rules: list[EndRuleInfo] = []
        self.rank_keys: list[Compiled] = []
        self.score: Compiled | None = None
        self.rank_locs: list[Location | None] = []
        self.score_loc: Location | None = None
        self.computer_players: dict[str, dict[str, Any]] = {}
        """The ruleset's settings for each searching computer player (`computer_players`),
        checked: what a player of that name starts from."""
        self.triggers: list[TriggerInfo] = []
        self.variables: dict[str, VariableInfo] = {}
        self.first_seat: Compiled = lambda env: 1
        self.turn_pc = 0
        """Where a turn starts in the program (scenario positions begin here)."""
        self.cache_readers: dict[str, tuple[str, ...]] | None = None
        """For each change the rules make (board, vars, turn): the cached definitions
        that read it (None while the game compiles: a change forgets them all)."""
        self._kind_orders: dict[int, list[int]] = {}
        """For each decision (by its place in the program): its kinds of option in the
        order of their ids, the order the random player picks a kind in."""
        self._compiler: Any = None
        """Kept so expressions written outside the ruleset (scenario expectations) can
        be compiled later with the ruleset's own names."""

    # -- facts --------------------------------------------------------------------------
    @property
    def min_seats(self) -> int:
        return self.ruleset.game.seats.min

    @property
    def max_seats(self) -> int:
        return self.ruleset.game.seats.max

    @property
    def n_pieces(self) -> int:
        return len(self.piece_names)

    def seat_name(self, seat: int) -> str:
        return f"Player {seat}"

    @cached_property
    def variant(self) -> tuple[Location, str] | None:
        """Where a variant names its base, and the base: told with a run-time error."""
        info = self.loaded.variant
        if info is None or info.extends_loc is None:
            return None
        return info.extends_loc, info.base_name

    def source_line(self, loc: Location | None) -> str | None:
        """The ruleset's line at `loc` (quoted under an error)."""
        return self.loaded.source.line_at(loc)

    def locate_error(self, exc: RuleError, pc: int) -> RuleError:
        """Add the effect that instruction `pc` carries out to an error's trace."""
        if 0 <= pc < len(self.program_where):
            loc, what = self.program_where[pc]
            exc.at(loc, what, self.source_line(loc))
        return exc

    def offset(self, site: int, direction: Any, distance: Any = 1) -> int | None:
        """The place `distance` steps `direction` of a board's place (None off the board)."""
        rc = self.site_rc[site]
        if rc is None:
            raise RuleError(f"offset() works on grid squares, not on {self.site_name[site]}")
        zone = self.site_zone[site]
        hexes = zone.kind == "hex"
        step = (HEX_DIRECTIONS if hexes else DIRECTIONS).get(direction)
        if step is None:
            if hexes:
                shown = repr(direction[:20]) if isinstance(direction, str) else kind_of(
                    direction)
                raise RuleError(f"a hex board has no direction {shown} (use one of "
                                f"{', '.join(HEX_ORDER)})")
            raise RuleError(f"unknown direction {kind_of(direction)} (use one of "
                            f"{', '.join(ALL_DIRECTIONS)})")
        if type(distance) is not int:
            raise RuleError("offset(): the distance must be a whole number, got "
                            f"{kind_of(distance)}")
        return self._at(site, rc, zone, step[0] * distance, step[1] * distance)

    def shift(self, site: int, dx: Any, dy: Any) -> int | None:
        """offset(place, dx, dy): the place dx columns east and dy rows north of a board's
        place (on a hex board, a row north is a step north-east), None off the board."""
        rc = self.site_rc[site]
        if rc is None:
            raise RuleError(f"offset() works on grid squares, not on {self.site_name[site]}")
        if type(dx) is not int or type(dy) is not int:
            bad = dy if type(dx) is int else dx
            raise RuleError("offset(place, dx, dy): the columns and rows must be whole "
                            f"numbers, got {kind_of(bad)}")
        return self._at(site, rc, self.site_zone[site], dy, dx)

    @staticmethod
    def _at(site: int, rc: tuple[int, int], zone: ZoneInfo, dr: int, dc: int) -> int | None:
        r, c = rc[0] + dr, rc[1] + dc
        if zone.cells:  # a hex board: its places by (row, column)
            found = zone.cells.get((r, c))
            return None if found is None else site - zone.cells[rc] + found
        if 0 <= r < zone.rows and 0 <= c < zone.cols:
            return site + dr * zone.cols + dc
        return None

    # -- states -------------------------------------------------------------------------
    def new_state(self, players: int | None = None, seed: int = 0) -> State:
        """A new game, set up and advanced to its first decision."""
        players = self.check_players(players)
        st = self.blank_state(players, seed)
        st.frames = [[0, {}]]
        Machine(self, st).run()
        return st

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.min_seats
        if not self.min_seats <= players <= self.max_seats:
            raise UsageError(f"{self.title} takes {self.min_seats} to {self.max_seats} players, "
                             f"not {players}")
        return players

    def blank_state(self, players: int, seed: int) -> State:
        """Pieces in their start zones, variables at their initial values; no flow yet."""
        st = object.__new__(State)
        st.players = players
        st.sites = self.start_sites.copy()  # (shared with the game: copied on change)
        st.places = len(self.site_zone)
        st.owned = set()
        st.loc = self.piece_start[:]
        st.vars = {}
        st.seat_vars = {}
        st.piece_vars = {}
        st.frames = []
        st.triggers = []
        st.rng = rngmod.seed_state(seed)
        st.current = 1
        st.turn = 0
        st.decisions = 0
        st.log = None
        st.over = False
        st.winners = None
        st.reason = None
        st.steps = 0
        st.out = ()
        st.shown = {}
        st._cache = None
        st._log_json = None
        if self.variables:
            self._set_initial_values(st, players)
        return st

    def _set_initial_values(self, st: State, players: int) -> None:
        env = Env(self, st)
        for var in self.variables.values():
            try:
                if var.per_seat:
                    values = []
                    for s in range(1, players + 1):
                        env.temps["seat"] = s
                        values.append(var.initial(env))
                    st.seat_vars[var.id] = values
                elif var.per_piece:
                    values = []
                    for p in range(self.n_pieces):
                        env.temps["piece"] = p
                        values.append(var.initial(env))
                    st.piece_vars[var.id] = values
                else:
                    st.vars[var.id] = var.initial(env)
            except RuleError as exc:
                raise exc.at(var.loc, f"the initial value of variable '{var.id}'",
                             self.source_line(var.loc)).during(0, self.variant) from None

    def start_turn(self, state: State, seat: int) -> None:
        """Begin `seat`'s turn on a state built by hand (a scenario's position) and run
        to the first decision. The state must come from ``blank_state``."""
        state.current = seat
        state.frames = [[self.turn_pc, {}]]
        Machine(self, state).run()

    def piece_like(self, values: dict[str, Any]) -> int | None:
        """A piece with these attribute values, as a view shows a piece (None when no
        piece has them): its name and code are the ones the game gives it."""
        if self._piece_by_kind is None:
            self._piece_by_kind = {}
            for p, kind in enumerate(self.piece_kind):
                self._piece_by_kind.setdefault(kind, p)
        return self._piece_by_kind.get(tuple(frozen_value(values.get(a))
                                             for a in self.attribute_order))

    @cached_property
    def has_data_lists(self) -> bool:
        """Whether some piece's data holds a list (an attribute declared `data: true`)."""
        return any(type(v) is list for values in self.attributes.values() for v in values)

    def piece_card(self, values: dict[str, Any]) -> CardShown | None:
        """The card face of the piece a view shows (None: not a card, or hidden)."""
        if values.get("hidden") or not self.piece_cards:
            return None
        same = self.piece_like(values)
        return None if same is None else self.piece_cards[same]

    def piece_face(self, values: dict[str, Any]) -> str:
        """What a card shows besides its name or code: its `face` attributes, each by its
        short form if it has one, else its value's name (`$3 2★`); empty for none."""
        attrs = self.ruleset.pieces.attributes
        shown = []
        for attr in self.ruleset.pieces.face:
            if attr in values and attr in attrs:
                v = frozen_value(values[attr])
                if isinstance(v, tuple):  # a card's data list
                    shown.append(data_text(v))
                    continue
                short = attrs[attr].short.get(v)
                shown.append(str(short) if short else str(attrs[attr].names.get(v, v)))
        return " ".join(shown)

    def state_from_json(self, data: dict[str, Any]) -> State:
        return State.from_json(data, self.n_pieces)

    # -- decisions ----------------------------------------------------------------------
    def env(self, state: State) -> Env:
        return Env(self, state, state.frames[-1][1] if state.frames else {})

    def deciding_seats(self, state: State) -> list[int]:
        if state.over or not state.frames:
            return []
        frame = state.frames[-1]
        spec = self.choices.get(frame[0])
        if spec is None:
            return []
        if spec.simultaneous:
            slot = frame[1].get(spec.slot) or {"seats": [], "picked": {}}
            return [s for s in slot["seats"] if str(s) not in slot["picked"]]
        if spec.seat is None:
            return [state.current]
        return [spec.seat(self.env(state))]

    def decision(self, state: State) -> Decision | None:
        seats = self.deciding_seats(state)
        if not seats:
            return None
        spec = self.choices[state.frames[-1][0]]
        env = self.env(state)
        env.temps["chooser"] = seats[0]
        try:
            prompt = spec.prompt(env)
        except RuleError as exc:
            raise exc.at(spec.loc, "the question of this decision (choose)",
                         self.source_line(spec.loc)).during(state.decisions, self.variant) from None
        return Decision(seats, prompt, spec.simultaneous)

    def options_for(self, state: State, spec: ChoiceSpec, seat: int, env: Env) -> list:
        """The options of `seat` at the decision `state` is paused at, listed once.

        The machine only checks, when it reaches the decision, that there is an option
        (charging that to the game's steps); whoever needs them all (people, agents,
        checking a choice) lists them here on an environment of its own, without
        charging the game, so its step count never depends on who looked."""
        cache = state._cache
        if cache is None:
            cache = state._cache = {}
        opts = cache.get(seat)
        if opts is None:
            try:
                opts = cache[seat] = spec.list_options(env, seat)
            except RuleError as exc:
                raise exc.during(state.decisions, self.variant) from None
        return opts

    def raw_options(self, state: State, seat: int) -> list[tuple[int, tuple]]:
        """The legal options of `seat` in internal form (fast path for agents)."""
        if seat not in self.deciding_seats(state):
            return []
        spec = self.choices[state.frames[-1][0]]
        return self.options_for(state, spec, seat, self.env(state))

    def legal_options(self, state: State, seat: int) -> list[Option]:
        """The legal options of `seat`, with notation and label."""
        raws = self.raw_options(state, seat)
        if not raws:
            return []
        spec = self.choices[state.frames[-1][0]]
        env = self.env(state)
        out = []
        try:
            for i, raw in enumerate(raws):
                out.append(Option(i, spec.render(env, seat, raw, label=False),
                                  spec.render(env, seat, raw, label=True),
                                  spec.kinds[raw[0]].id, raw))
        except RuleError as exc:
            raise exc.during(state.decisions, self.variant) from None
        return out

    def sample_option(self, state: State, seat: int, agent: RandomAgent,
                      searched: list[int] | None = None) -> tuple[int, tuple]:
        """The random player's choice for `seat`, without listing every option: which
        kinds have an option, then the options of the one kind picked (or, for a kind
        that is every combination of its sources, the n-th straight away). The same
        random draws as choosing from the full list, so the same games."""
        return self._sample(state, seat, agent, searched, self.env(state), None)

    def play_sampled(self, state: State, seat: int, agent: RandomAgent,
                     searched: list[int] | None = None, machine: Machine | None = None,
                     words: bool = True) -> str:
        """`sample_option` then `apply_trusted` in one go, on one machine (`machine`,
        when given, is the one that advanced `state` last, used again): the sampling's
        work is not charged to the game (its steps, names and cached definitions are
        dropped before the choice is carried out), so the game is the same step for
        step."""
        # the sampling starts from what `machine` computed on its way to the pause (its
        # values of definitions), when no one advanced the state since (Machine.again),
        # the options' own listing being the work it did not do yet
        m = (machine.again(keep_cache=True) if machine is not None
             else Machine(self, state, limited=False))
        env = m.env
        raw = self._sample(state, seat, agent, searched, env, m.found)
        env.steps = 0
        env.temps.clear()
        env.cache.clear()
        said = m.decide(self.choices[state.frames[-1][0]], seat, raw, words)
        m.cache_for = state.decisions  # (it paused at the next decision, or the end)
        return said

    def _sample(self, state: State, seat: int, agent: RandomAgent,
                searched: list[int] | None, env: Env,
                found: tuple[ChoiceSpec, int, int] | None) -> tuple[int, tuple]:
        """`sample_option`'s draw; `found`: what the machine that paused here found of
        the seat's options (Machine.found), None when nothing is known."""
        spec = self.choices[state.frames[-1][0]]
        listed = state._cache.get(seat) if state._cache is not None else None
        if listed:  # someone listed them all already (uncharged): choose from that list
            k = self._pick_kind(spec, agent, {k for k, _ in listed})
            mine = [raw for raw in listed if raw[0] == k]
            return mine[agent.pick(len(mine))]
        if searched is not None:
            # a playout counts its players' own search with the rules' steps, so that it
            # still stops on the game's budget when the options grow without end (the
            # state's own count stays the rules' alone: a replay gives the same state)
            left = self.budgets.steps_per_game - state.steps - searched[0]
            if left < env.step_limit:
                env.step_limit, env.step_budget = max(left, 0), "steps_per_game"
        try:
            # the machine paused here only because the seat has an option: with one
            # kind, that is the kind
            kinds = spec.kinds
            if len(kinds) == 1:
                env.temps["chooser"] = seat
                k = 0
            else:
                having = _kinds_with_options(spec, env, seat, found)
                if not having:
                    raise RuleError(f"{self.seat_name(seat)} has no option at this decision")
                k = self._pick_kind(spec, agent, having)
            kind = kinds[k]
            sized = spec._located(env, k, kind.sized) if kind.direct else None
            if sized is not None:
                count, nth = sized
            else:
                options = spec.kind_options(env, k)
                count, nth = len(options), options.__getitem__
            if not count:
                raise RuleError(f"{self.seat_name(seat)} has no option at this decision")
            index = agent.pick(count)
        except RuleError as exc:
            raise exc.at(spec.loc, "this decision (choose)", self.source_line(spec.loc)
                         ).during(state.decisions, self.variant) from None
        finally:
            if searched is not None:
                searched[0] += env.steps
        return k, nth(index)

    def _pick_kind(self, spec: ChoiceSpec, agent: RandomAgent, kinds: Collection[int]
                   ) -> int:
        """The kind the random player picks among those with options: by their ids, as it
        picks from a full list (no draw when there is one)."""
        if len(kinds) == 1:
            return next(iter(kinds))
        order = self._kind_orders.get(spec.pc)
        if order is None:
            order = self._kind_orders[spec.pc] = [
                k for _, k in sorted((kind.id, k) for k, kind in enumerate(spec.kinds))]
        by_id = [k for k in order if k in kinds]
        return by_id[agent.pick(len(by_id))]

    def apply_trusted(self, state: State, seat: int, raw: tuple[int, tuple],
                      words: bool = True) -> str:
        """Carry out an option the engine itself listed or sampled for the seat whose
        decision it is (no checks); returns its notation. Without `words` the log keeps
        only its notation (a playout nobody reads)."""
        return Machine(self, state).decide(self.choices[state.frames[-1][0]], seat, raw,
                                           words)

    def notation_of(self, state: State, seat: int, raw: tuple[int, tuple]) -> str:
        spec = self.choices[state.frames[-1][0]]
        try:
            return spec.render(self.env(state), seat, raw, label=False)
        except RuleError as exc:
            raise exc.during(state.decisions, self.variant) from None

    def group_notation_of(self, state: State, seat: int, raw: tuple[int, tuple]
                          ) -> str | None:
        """How the option reads by its first value alone (None: its kind has no group)."""
        spec = self.choices[state.frames[-1][0]]
        try:
            return spec.render_group(self.env(state), seat, raw)
        except RuleError as exc:
            raise exc.during(state.decisions, self.variant) from None

    def apply(self, state: State, seat: int, choice: Option | str | int | tuple) -> State:
        """A new state with `seat`'s choice carried out (the given state is untouched)."""
        new = state.copy()
        self.apply_in_place(new, seat, choice)
        return new

    def apply_in_place(self, state: State, seat: int, choice: Option | str | int | tuple) -> None:
        spec = check_pending(self, state, seat)
        raws = self.options_for(state, spec, seat, self.env(state))
        m = Machine(self, state)
        if isinstance(choice, Option):
            raw = choice.raw
        elif isinstance(choice, tuple):
            raw = choice
        elif isinstance(choice, int) and not isinstance(choice, bool):
            if not 0 <= choice < len(raws):
                raise IllegalMove(f"there is no option {choice}")
            raw = raws[choice]
        else:
            raw = self._match_notation(state, spec, seat, raws, str(choice))
        if raw not in raws:
            raise IllegalMove("that option is not legal now")
        m.decide(spec, seat, raw)

    def _match_notation(self, state: State, spec: ChoiceSpec, seat: int, raws: list,
                        text: str) -> tuple:
        wanted = normalize_notation(text)
        env = self.env(state)
        notations = [spec.render(env, seat, r, label=False) for r in raws]
        for raw, notation in zip(raws, notations, strict=True):
            if normalize_notation(notation) == wanted:
                return raw
        hint = did_you_mean(text, notations)
        raise IllegalMove(f"'{shorten(text)}' is not a legal option"
                          + (f"; {hint}" if hint else ""))

    # -- results ------------------------------------------------------------------------
    def scores(self, state: State) -> dict[int, Any] | None:
        if self.score is None:
            return None
        env = self.env(state)
        out = {}
        for s in range(1, state.players + 1):
            env.temps["seat"] = s
            try:
                out[s] = self.score(env)
            except RuleError as exc:
                raise exc.at(self.score_loc, "the scores", self.source_line(self.score_loc)
                             ).during(state.decisions, self.variant) from None
        return out

    def ranked_winners(self, env: Env) -> list[int]:
        keys = self.rank_keys_of(env)
        try:
            best = max(keys.values())
        except TypeError:
            raise RuleError("the ranking keys of the seats cannot be compared") from None
        return [s for s in keys if keys[s] == best]

    def rank_keys_of(self, env: Env) -> dict[int, tuple]:
        """Each seat's place in the game's ranking (`rank`, else `scores`, else nothing),
        then, when seats were knocked out, its standing (in the game, or how late it went
        out): larger ranks higher."""
        seats = list(range(1, env.state.players + 1))
        keys: dict[int, tuple] = {}
        for s in seats:
            env.temps["seat"] = s
            if self.rank_keys:
                values = []
                for key, loc in zip(self.rank_keys, self.rank_locs, strict=True):
                    try:
                        values.append(key(env))
                    except RuleError as exc:
                        raise exc.at(loc, "a ranking key", self.source_line(loc)) from None
                keys[s] = tuple(values)
            elif self.score is not None:
                try:
                    keys[s] = (self.score(env),)
                except RuleError as exc:
                    raise exc.at(self.score_loc, "the scores",
                                 self.source_line(self.score_loc)) from None
            else:
                keys[s] = ()
        out = env.state.out
        if out:  # seats knocked out: below those still in, the later out the higher
            for s in seats:
                keys[s] += (out.index(s) - len(out) if s in out else 0,)
        return keys

    def rank_keys_compared(self, env: Env) -> dict[int, tuple]:
        """Each seat's ranking keys as far as comparing it with the other seats needs
        them: a tie-break is computed only for the seats still tied with another on every
        key before it. The keys compare (<, ==, max) exactly as `rank_keys_of`'s do (two
        tuples are decided at their first difference), at a fraction of the cost when the
        first key decides: what a searching player needs at the end of each playout. A
        tie-break that would fail is not noticed when it is not needed."""
        if not self.rank_keys or env.state.out:
            return self.rank_keys_of(env)
        keys: dict[int, tuple] = {s: () for s in range(1, env.state.players + 1)}
        tied = [list(keys)]
        for key, loc in zip(self.rank_keys, self.rank_locs, strict=True):
            still: list[list[int]] = []
            for group in tied:
                values: list[tuple[Any, list[int]]] = []  # each value, and its seats
                for s in group:
                    env.temps["seat"] = s
                    try:
                        value = key(env)
                    except RuleError as exc:
                        raise exc.at(loc, "a ranking key", self.source_line(loc)) from None
                    keys[s] += (value,)
                    for seen, seats in values:
                        if seen is value or seen == value:  # as tuples compare
                            seats.append(s)
                            break
                    else:
                        values.append((value, [s]))
                still.extend(seats for _, seats in values if len(seats) > 1)
            tied = still
            if not tied:
                break
        return keys

    def describe_option_value(self, value: Any) -> str:
        return show_value(self, value)

    def name_of_described(self, piece: dict[str, Any]) -> str:
        """The name of a piece as a view describes it (`describe_piece`), e.g. in a
        variable that holds pieces; a hidden one as its back."""
        if piece.get("hidden"):
            return f"a hidden {piece['back']}" if piece.get("back") else "a hidden piece"
        key = tuple(frozen_value(piece.get(attr)) for attr in self.attribute_order)
        return self._names_by_kind.get(key) or " ".join(str(v) for v in piece.values())

    @cached_property
    def _names_by_kind(self) -> dict[tuple, str]:
        names: dict[tuple, str] = {}
        for p in reversed(range(self.n_pieces)):
            names[frozen_value(tuple(self.attributes[a][p] for a in self.attribute_order))] = \
                self.piece_names[p]
        return names

    def compile_expression(self, text: str, temps: Iterable[str] = (),
                           local_names: Iterable[str] = ()) -> Compiled:
        """Compile an expression written outside the ruleset (e.g. a scenario's
        expectation) against the ruleset's scope: its definitions, variables, zones and
        options. Raises ExpressionError (offset within `text`) when it does not compile."""
        if self._compiler is None:
            raise RuleError("this game was not compiled from a ruleset")
        return self._compiler.compile_outside(text, temps, local_names)


def _kinds_with_options(spec: ChoiceSpec, env: Env, seat: int,
                        found: tuple[ChoiceSpec, int, int] | None) -> list[int]:
    """The kinds in which `seat` has options; those `found` tells (the kinds the machine
    checked on its way to this pause, for this seat) are not checked again."""
    if found is None or found[0] is not spec or found[1] != seat:
        return spec.kinds_with_options(env, seat)
    first = found[2]  # (the kinds before it have none)
    return [first, *spec.kinds_with_options(env, seat, first + 1)]


def numeric_scores(scores: dict[int, Any] | None) -> list[float] | None:
    """The scores (`Game.scores`, seat 1 first) as numbers, or None when the game keeps
    none (or not numbers): what a score margin can be taken of."""
    if not scores:
        return None
    values = list(scores.values())
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    return [float(v) for v in values]


def normalize_notation(text: str) -> str:
    return " ".join(text.strip().lower().split())


def show_value(game: Game, value: Any) -> str:
    """How a value reads inside a template: names for places' and attributes' values
    (and, for a view's value, a piece as it describes it: its name)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return ", ".join(show_value(game, v) for v in value)
    if isinstance(value, dict):
        return game.name_of_described(value)
    return str(value)
