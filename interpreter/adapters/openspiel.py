"""Any ruleset as an OpenSpiel game (`pip install 'tabletop[openspiel]'`).

Importing this module registers every bundled game with pyspiel as `tabletop_` and its
name (`-` written `_`), as OpenSpiel's own Python games are registered when imported;
`register("my-game.yaml")` registers another ruleset the same way. A game's parameters
are its options and `players` (its seat count, default its fewest); a ruleset is read
when registered and compiled when first loaded with given options:

    import interpreter.adapters.openspiel  # registers the bundled games
    game = pyspiel.load_game("tabletop_my_game(players=3,some_option=False)")
    game = load("my-game", {"some_option": False}, players=3)  # register and load

Choices made for OpenSpiel's model (see `interpreter.adapters.encoding` for the action
ids, tensors and returns):

- Chance: every draw of the rules (a roll, a shuffle, a deal) is an explicit chance
  node, its outcomes `0 … n-1` equally likely (`chance_outcomes()`). The engine cannot
  stop inside an effect, so a decision (or the set-up) is carried out on a copy of the
  state before it, with its generator replaced by the outcomes chosen so far
  (`rng.Scripted`); a draw past them raises `rng.ChanceNeeded(n)`, the state becomes a
  chance node of `n` outcomes, and applying one runs the decision again from the saved
  copy with one more outcome. Exact by construction; a decision costs one run per draw
  it makes. A draw of more outcomes than the game's `max_chance_outcomes` (a die of
  unknown size, a deal under a condition, which may deal again thousands of times and so
  draws one 64-bit generator state to deal from) is made of several chance nodes
  (`rng.Scripted`'s digits). A ruleset that draws nothing (`compile.draws`) is
  `DETERMINISTIC`, with no chance node at all.
- A state is a function of its history and the game's parameters: there is no seed.
- Simultaneous decisions (a `choose` with `seats`) are taken one seat after another,
  in seat order; each sees only what its view shows, so not the others' secret picks.
- Players are seats minus one (seat 1 is player 0).
- `max_game_length` is the ruleset's `most_decisions` (the most decisions its rules let
  a game take, which the engine enforces) where it gives one, else the decisions budget
  (`budgets.decisions_per_game`, 100,000 by default): a bound the engine enforces too,
  but no measure of the game.
- Observations and information states are built from the seat's view alone
  (`interpreter.run.view`); `public_info`-only observers see the spectator's view. At a
  chance node they show the position before the decision being carried out.
- Saving: `state.serialize()`, `pyspiel.serialize_game_and_state` and pickling (a game,
  a state) save the engine's state as JSON with the chance outcomes of a decision under
  way; loading them in another process needs the ruleset registered there (importing
  this module registers the bundled games).
- `resample_from_infostate` draws a position from what a seat knows, as the engine's
  own `ismcts` player does (`interpreter.adapters.resample`): OpenSpiel's
  information-set MCTS plays the games with secrets. A guessed position the rules
  cannot go on from ends there with no winner (`ismcts` drops it; OpenSpiel cannot).
"""

from __future__ import annotations

import copy
import json
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

try:
    import numpy as np
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the OpenSpiel adapter needs the 'openspiel' extra: "
                      "pip install 'tabletop[openspiel]'") from exc

from pydantic import BaseModel

from interpreter.adapters.compact import COMPACT, DENSE, CompactActionEncoder
from interpreter.adapters.encoding import (
    ActionEncoder,
    Legal,
    ObservationEncoder,
    information_string,
    observation_string,
    returns,
    seat_view,
)
from interpreter.adapters.resample import end_if_impossible, resampled_position
from interpreter.api import load as load_ruleset
from interpreter.api import load_game
from interpreter.compile.draws import Draw, model_parts, most_outcomes, ruleset_draws
from interpreter.compile.functions import FUNCTIONS
from interpreter.errors import UsageError
from interpreter.load.catalog import bundled_names, find_ruleset
from interpreter.play.game import Game
from interpreter.run.machine import Machine
from interpreter.run.rng import ChanceNeeded, Scripted
from interpreter.run.state import State
from interpreter.run.tables import Option
from interpreter.run.view import SPECTATOR

PREFIX = "tabletop_"
REST = Scripted()
"""The generator of a state at rest between decisions: it has no outcome to give, so
a draw outside a decision the adapter carries out cannot pass unnoticed."""
ACTIONS = "actions"
"""The parameter choosing the action ids: `dense` (fixed ids) or `compact` (the squares
of open tables relative to the pieces laid: `interpreter.adapters.compact`)."""

__all__ = ["PREFIX", "TabletopGame", "TabletopObserver", "TabletopState", "load",
           "openspiel_name", "register", "register_bundled", "state_from_engine"]


# -- compiled games, shared by every state ------------------------------------------------
@dataclass
class Compiled:
    """A compiled ruleset with its action and observation encoders."""

    game: Game
    actions: ActionEncoder | CompactActionEncoder
    observations: ObservationEncoder


_COMPILED: dict[tuple[str, tuple], Compiled] = {}
_SOURCES: dict[str, str] = {}
"""Registered OpenSpiel names → the ruleset (a bundled game's name, or a path)."""
_SOURCE_CHOICES: dict[str, dict[str, dict[Any, str]]] = {}
"""Registered OpenSpiel names → their choice options' parameter values → choices."""


def _compiled(source: str, options: tuple[tuple[str, Any], ...]) -> Compiled:
    key = (source, options)
    found = _COMPILED.get(key)
    if found is None:
        if len(_COMPILED) >= 32:
            _COMPILED.pop(next(iter(_COMPILED)))
        settings = dict(options)
        mode = settings.pop(ACTIONS, DENSE)
        game = load_game(source, settings)
        actions = ActionEncoder(game)
        observations = ObservationEncoder(game, actions)
        found = _COMPILED[key] = Compiled(
            game, CompactActionEncoder(actions) if mode == COMPACT else actions, observations)
    return found


def openspiel_name(game_name: str) -> str:
    """The name pyspiel knows a ruleset by: `tabletop_` and its name, `-` as `_`."""
    return PREFIX + game_name.replace("-", "_")


# -- registration -------------------------------------------------------------------------
def register(name_or_path: str | Path) -> str:
    """Register a ruleset with pyspiel (once) and return the name to load it by. The
    ruleset is read and checked now, and compiled when a game of it is loaded."""
    text = str(name_or_path)
    is_path = "/" in text or text.endswith((".yaml", ".yml"))
    source = str(find_ruleset(text).resolve()) if is_path else text
    for name, known in _SOURCES.items():
        if known == source:
            return name
    model = load_ruleset(source).model
    name = openspiel_name(model.game.name)
    known = _SOURCES.get(name)
    if known is not None:
        if known != source:
            raise UsageError(f"OpenSpiel already knows {name} from {known}; a ruleset of the "
                             "same name cannot be registered again")
        return name
    seats = model.game.seats
    defaults: dict[str, Any] = {"players": seats.min, ACTIONS: DENSE}
    choices: dict[str, dict[Any, str]] = {}
    for option in model.options:
        if option.id in defaults:
            raise UsageError(f"option '{option.id}' has the name of an OpenSpiel parameter")
        value = option.default
        if option.type == "choice" and option.choices:
            choices[option.id] = _choice_params(option.choices)
            value = next(p for p, c in choices[option.id].items() if c == value)
        defaults[option.id] = value
    facts = _Facts(model.game.title, seats.min, seats.max, _hides(model),
                   tuple(ruleset_draws(model, FUNCTIONS)))
    cls = type(f"TabletopGame_{name}", (TabletopGame,), {
        "_source": source, "_defaults": defaults, "_choices": choices, "_facts": facts})
    cls.__qualname__ = cls.__name__
    globals()[cls.__name__] = cls  # (pickle finds a game's class by its name)
    pyspiel.register_game(_game_type(name, facts, defaults, seats.min), cls)
    _SOURCES[name] = source
    _SOURCE_CHOICES[name] = choices
    return name


@dataclass(frozen=True)
class _Facts:
    """What OpenSpiel's game type says of a ruleset, read without compiling it."""

    title: str
    min_seats: int
    max_seats: int
    hides: bool
    draws: tuple[Draw, ...]


def _choice_params(choices: list[str]) -> dict[Any, str]:
    """A choice option's values as OpenSpiel parameters, to their choices. OpenSpiel
    reads `deck=1.0` in a game's name as a number, so choices that all read as numbers
    (or all as true/false) are numbers (or true/false) there, and the name of a game
    loads it again."""
    read = [_read_param(c) for c in choices]
    kinds = {type(r) for r in read}
    if len(kinds) == 1 and kinds != {str} and len(set(read)) == len(read):
        return dict(zip(read, choices, strict=True))
    return {c: c for c in choices}


def _read_param(text: str) -> Any:
    """A parameter's text as OpenSpiel's game names read it."""
    if text in ("True", "true", "False", "false"):
        return text in ("True", "true")
    digits = "+-0123456789"
    if text and all(ch in digits for ch in text):
        try:
            return int(text)
        except ValueError:
            return text
    if text and all(ch in digits + "." for ch in text):
        try:
            return float(text)
        except ValueError:
            return text
    return text


def register_bundled() -> list[str]:
    """Register every bundled game (done on import); their OpenSpiel names."""
    return [register(name) for name in bundled_names()]


def load(name_or_path: str | Path, options: Mapping[str, Any] | None = None,
         players: int | None = None) -> pyspiel.Game:
    """Register a ruleset and load it with these options and seats."""
    name = register(name_or_path)
    choices = _SOURCE_CHOICES[name]
    params: dict[str, Any] = {}
    for key, value in (options or {}).items():
        to_param = {c: p for p, c in choices.get(key, {}).items()}
        params[key] = to_param.get(value, value)
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(name, params)


def _game_type(name: str, facts: _Facts, defaults: Mapping[str, Any],
               players: int) -> pyspiel.GameType:
    information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if facts.hides
                   else pyspiel.GameType.Information.PERFECT_INFORMATION)
    utility = (pyspiel.GameType.Utility.ZERO_SUM if players > 1
               else pyspiel.GameType.Utility.GENERAL_SUM)
    chance = (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts.draws
              else pyspiel.GameType.ChanceMode.DETERMINISTIC)
    return pyspiel.GameType(
        short_name=name, long_name=f"Tabletop: {facts.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=chance,
        information=information, utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=facts.max_seats, min_num_players=facts.min_seats,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(defaults))


def _hides(model: BaseModel) -> bool:
    """Whether any seat may be kept from knowing something (pieces, a count, a value,
    another's choice), read from the validated ruleset."""
    for _, part in model_parts(model):
        if not isinstance(part, BaseModel):
            continue
        keyword = getattr(type(part), "keyword", None)
        if keyword == "choose" and (getattr(part, "secret", False)
                                    or getattr(part, "seats", None) is not None):
            return True
    if any(z.contents != "everyone" or z.count != "everyone" or z.conceal is not None
           for z in model.zones):
        return True
    return any(v.visible_to != "everyone" for v in model.variables)


# -- the game -----------------------------------------------------------------------------
class TabletopGame(pyspiel.Game):
    """A ruleset with its options and seat count, as OpenSpiel sees it."""

    _source: ClassVar[str] = ""
    _defaults: ClassVar[dict[str, Any]] = {}
    _choices: ClassVar[dict[str, dict[Any, str]]] = {}
    _facts: ClassVar[_Facts]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = set(given) - set(self._defaults)
        if unknown:
            raise pyspiel.SpielError(f"unknown parameter(s) {', '.join(sorted(unknown))}; "
                                     f"parameters: {', '.join(self._defaults)}")
        values = {**self._defaults, **given}
        facts = self._facts
        players = values["players"]
        if type(players) is not int or not facts.min_seats <= players <= facts.max_seats:
            raise pyspiel.SpielError(f"{facts.title} takes {facts.min_seats} to "
                                     f"{facts.max_seats} players, not {players!r}")
        options = tuple((k, self._option(k, values[k])) for k in self._defaults
                        if k != "players")
        self.compiled = _compiled(self._source, options)
        self.options = options
        tabletop = self.compiled.game
        self.stochastic = bool(facts.draws)
        self.most_outcomes = most_outcomes(list(facts.draws), tabletop.n_pieces,
                                           len(tabletop.site_name))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.compiled.actions.num_actions,
            max_chance_outcomes=self.most_outcomes,
            num_players=players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if players > 1 else None,
            max_game_length=tabletop.decision_limit)
        name = openspiel_name(tabletop.name)
        super().__init__(_game_type(name, facts, self._defaults, players), info, values)
        self._start: _Engine | None = None

    def _option(self, key: str, value: Any) -> Any:
        """An option's value as the ruleset has it (a choice from its parameter)."""
        if key == ACTIONS and value not in (DENSE, COMPACT):
            raise pyspiel.SpielError(f"actions is {DENSE} or {COMPACT}, not {value!r}")
        choices = self._choices.get(key)
        if choices is None:
            return value
        for param, choice in choices.items():
            if param == value or choice == value:
                return choice
        raise pyspiel.SpielError(f"{key} is one of {', '.join(choices.values())}, "
                                 f"not {value!r}")

    @property
    def tabletop(self) -> Game:
        """The engine's game (compiled ruleset)."""
        return self.compiled.game

    @property
    def actions(self) -> ActionEncoder | CompactActionEncoder:
        return self.compiled.actions

    def new_initial_state(self) -> TabletopState:
        return TabletopState(self)

    def start(self) -> _Engine:
        """The engine of a new game (set up, or waiting for the set-up's first draw),
        made once and shared by every new state until one changes it."""
        if self._start is None:
            engine = _Engine((self._source, self.options), None)
            _advance(self, engine, 0, None, ())
            self._start = engine
        return copy.deepcopy(self._start)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> TabletopObserver:
        return TabletopObserver(self, iig_obs_type, params)


class _Position:
    """An engine state and what was worked out from it, shared by the OpenSpiel states
    that hold it (a state and its clones, until one of them moves on)."""

    __slots__ = ("holders", "legal", "state", "tensors", "text", "views")

    def __init__(self, state: State | None) -> None:
        self.state = state
        self.holders = 1
        self.legal: dict[int, Legal] | None = None
        self.views: dict[int, dict[str, Any]] = {}
        self.tensors: dict[tuple[int, bool], Any] = {}
        self.text: str | None = None


@dataclass(frozen=True)
class _Pending:
    """A decision (or the set-up: seat 0, no option) being carried out, waiting for
    chance: the outcomes drawn so far, and how many the next draw has."""

    seat: int
    raw: tuple | None
    outcomes: tuple[int, ...]
    n: int


class _Engine:
    """The engine's state inside an OpenSpiel state.

    OpenSpiel clones a Python state by deep-copying its attributes and saves it by
    pickling them. A clone shares the position (the engine's state and what was worked
    out from it) until one of them changes it, which then copies it if another still
    holds it: OpenSpiel and its searches clone far more states than they play on, and a
    big board makes a copy dear. At a chance node the position is the state before the
    decision under way (`pending`), which is never changed: each run starts from a copy.
    It is saved as the engine's JSON, with the ruleset and options to compile it again
    in another process."""

    __slots__ = ("key", "pending", "position")

    def __init__(self, key: tuple[str, tuple], state: State | None) -> None:
        self.key = key
        self.position = _Position(state)
        self.pending: _Pending | None = None

    @property
    def compiled(self) -> Compiled:
        return _compiled(*self.key)

    @property
    def state(self) -> State | None:
        return self.position.state

    def to_change(self, state: State | None = None) -> State:
        """The state (or `state`, replacing it), about to be changed: copied first if
        another OpenSpiel state holds it too."""
        held = self.position
        if state is None:
            state = held.state
            assert state is not None
            if held.holders > 1:
                state = state.copy()
        held.holders -= 1
        self.position = _Position(state)
        self.pending = None
        return state

    def settle(self, state: State) -> None:
        """A decision carried out: `state` is the new position."""
        self.to_change(state)

    def __deepcopy__(self, memo: dict) -> _Engine:
        out = object.__new__(_Engine)
        out.key, out.position, out.pending = self.key, self.position, self.pending
        self.position.holders += 1
        return out

    def __del__(self) -> None:
        held = getattr(self, "position", None)
        if held is not None:
            held.holders -= 1

    def __getstate__(self) -> dict[str, Any]:
        state = self.position.state
        pending = self.pending
        return {"key": self.key, "state": None if state is None else _to_json(state),
                "pending": None if pending is None else (
                    pending.seat, pending.raw, pending.outcomes, pending.n)}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        key = saved["key"]
        self.key = (key[0], tuple(tuple(kv) for kv in key[1]))
        data = saved["state"]
        self.position = _Position(None if data is None else _from_json(self.compiled.game,
                                                                        data))
        pending = saved.get("pending")
        self.pending = None if pending is None else _Pending(*pending)


def _to_json(state: State) -> dict[str, Any]:
    """The engine's JSON of a state (its generator, if outcomes given from outside, as
    null: a state at rest has none left)."""
    data = state.to_json()
    if type(state.rng) is not int:
        data["rng"] = None
    return data


def _from_json(game: Game, data: dict[str, Any]) -> State:
    rest = data["rng"] is None
    state = game.state_from_json({**data, "rng": 0} if rest else data)
    if rest:
        state.rng = REST
    return state


def _advance(game: TabletopGame, engine: _Engine, seat: int, raw: tuple | None,
             outcomes: tuple[int, ...]) -> None:
    """Carry out `seat`'s option `raw` (seat 0: the set-up) from the engine's position,
    with these chance outcomes: the engine settles on the state after it, or waits
    for the next draw's outcome."""
    tabletop = game.tabletop
    rng = Scripted(outcomes, 0, max(game.most_outcomes, 2))
    before = engine.position.state
    if before is None:
        state = tabletop.blank_state(game.num_players(), 0)
        state.rng = rng
        state.frames = [[0, {}]]
    else:
        state = before.copy()
        state.rng = rng
    try:
        if raw is None:
            Machine(tabletop, state).run()
        else:
            tabletop.apply_trusted(state, seat, raw)
    except ChanceNeeded as need:
        if not game.stochastic:
            raise _drew(game) from None
        engine.pending = _Pending(seat, raw, outcomes, need.n)
        return
    assert state.rng.exhausted, "a decision drew fewer outcomes than it did before"
    state.rng = REST
    engine.settle(state)


def _drew(game: TabletopGame) -> RuntimeError:
    return RuntimeError(f"{game.tabletop.title} drew at random, though its ruleset was read "
                        "as drawing nothing (compile.draws): this is a bug in tabletop, "
                        "please report it")


class TabletopState(pyspiel.State):
    """One position: the engine's state, or a chance node inside a decision."""

    def __init__(self, game: TabletopGame) -> None:
        super().__init__(game)
        self._engine = game.start()

    # -- what OpenSpiel asks ---------------------------------------------------------------
    def current_player(self) -> int:
        engine = self._engine
        if engine.pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        st = engine.state
        assert st is not None
        if st.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(engine.compiled.game.deciding_seats(st)) - 1

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return list(self._legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pending = self._engine.pending
        if pending is None:
            return []
        p = 1.0 / pending.n
        return [(o, p) for o in range(pending.n)]

    def _apply_action(self, action: int) -> None:
        if self.__dict__.get("guessed"):  # (a clone copies it)
            end_if_impossible(lambda: self._carry_out(action), self._engine)
        else:
            self._carry_out(action)

    def _carry_out(self, action: int) -> None:
        engine = self._engine
        game = self.get_game()
        pending = engine.pending
        if pending is not None:
            if not 0 <= action < pending.n:
                raise ValueError(f"this draw has {pending.n} outcomes, not {action}")
            _advance(game, engine, pending.seat, pending.raw, (*pending.outcomes, action))
            return
        compiled = engine.compiled
        option = self._legal().get(action)
        if option is None:
            raise ValueError(f"action {action} ({compiled.actions.decode(action)}) is not "
                             "legal here")
        seat = self.current_player() + 1
        if game.stochastic:
            _advance(game, engine, seat, option.raw, ())
            return
        try:  # (in place: nothing to go back to, as nothing is drawn)
            compiled.game.apply_trusted(engine.to_change(), seat, option.raw)
        except ChanceNeeded:
            raise _drew(game) from None

    def _action_to_string(self, player: int, action: int) -> str:
        engine = self._engine
        if player == int(pyspiel.PlayerId.CHANCE):
            pending = engine.pending
            return (f"outcome {action} of {pending.n}" if pending is not None
                    else f"outcome {action}")
        if player == self.current_player():
            option = self._legal().get(action)
            if option is not None:
                return option.notation
        return engine.compiled.actions.decode(action)

    def is_terminal(self) -> bool:
        engine = self._engine
        return engine.pending is None and engine.state is not None and engine.state.over

    def returns(self) -> list[float]:
        st = self._engine.state
        if st is None or self._engine.pending is not None:
            return [0.0] * self.num_players()
        return returns(self._engine.compiled.game, st)

    def __str__(self) -> str:
        engine = self._engine
        held = engine.position
        if held.text is None:
            held.text = "(the set-up)" if held.state is None else _describe(held.state)
        pending = engine.pending
        if pending is None:
            return held.text
        doing = "the set-up" if pending.raw is None else f"seat {pending.seat}'s {pending.raw}"
        return (f"{held.text}\n(carrying out {doing}: outcomes {list(pending.outcomes)}, "
                f"the next of {pending.n})")

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> TabletopState:
        """A state `player_id` cannot tell from this one, its hidden facts drawn anew
        (`interpreter.adapters.resample`); before the deal, a clone. It is `guessed`, as
        is every state reached from it: where the guess turns out to be one the rules
        cannot go on from, that game ends there with no winner."""
        st = self._engine.state
        if st is None:
            return self.clone()
        game = self.get_game()
        drawn = resampled_position(game.tabletop, st, player_id + 1, probability_sampler)
        out = state_from_engine(game, drawn)
        out.guessed = True
        return out

    # -- for people and tools --------------------------------------------------------------
    @property
    def engine_state(self) -> State | None:
        """The engine's state (at a chance node, the state before the decision under
        way; None during the set-up); treat it as read-only."""
        return self._engine.state

    def legal_options(self) -> dict[int, Option]:
        """The current player's legal options by action id, with their notations,
        labels and kinds (what `interpreter.agents` players choose from)."""
        engine = self._engine
        if engine.pending is not None or engine.state is None or engine.state.over:
            return {}
        game = engine.compiled.game
        seat = self.current_player() + 1
        options = {o.notation: o for o in reversed(game.legal_options(engine.state, seat))}
        return {action: options[legal.notation] for action, legal in self._legal().items()}

    def view(self, player: int) -> dict[str, Any] | None:
        """What `player` may know (the seat's view; -1: the spectator's), None during
        the set-up: the only thing observations are built from."""
        engine = self._engine
        if engine.state is None:
            return None
        seat = SPECTATOR if player < 0 else player + 1
        views = engine.position.views
        seen = views.get(seat)
        if seen is None:
            seen = views[seat] = seat_view(engine.compiled.game, engine.state, seat)
        return seen

    def _legal(self) -> dict[int, Legal]:
        engine = self._engine
        held = engine.position
        if held.legal is None:
            assert held.state is not None
            seat = min(engine.compiled.game.deciding_seats(held.state))
            held.legal = engine.compiled.actions.legal(held.state, seat)
        return held.legal


def state_from_engine(game: TabletopGame, state: State) -> TabletopState:
    """An OpenSpiel state at a position reached outside OpenSpiel (a saved game, a
    scenario): a copy of `state`, whose OpenSpiel history starts there (it is empty).
    Its later draws are chance nodes, as every draw of the game is."""
    out = game.new_initial_state()
    copied = state.copy()
    copied.rng = REST
    out._engine.settle(copied)
    return out


def _describe(st: State) -> str:
    """The whole state as compact JSON, for `str(state)` (OpenSpiel compares clones by
    it): every fact but the log, and only the places that hold pieces."""
    data = {
        "players": st.players, "current": st.current, "turn": st.turn,
        "decisions": st.decisions, "over": st.over, "winners": st.winners,
        "reason": st.reason, "steps": st.steps,
        "rng": st.rng if type(st.rng) is int else None,
        "sites": {str(i): stack for i, stack in st.sites.items() if stack},
        "vars": st.vars, "seat_vars": st.seat_vars, "piece_vars": st.piece_vars,
        "frames": st.frames, "triggers": st.triggers}
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=repr)


# -- observations -------------------------------------------------------------------------
class TabletopObserver:
    """OpenSpiel's observer: tensors and strings from one seat's view.

    The default observation is the seat's view without its log; with `perfect_recall`
    it is the information state (the view, and the log as the seat may read it); with
    no private information (`private_info=NONE`) it is the spectator's view."""

    def __init__(self, game: TabletopGame, iig_obs_type: Any = None,
                 params: Mapping[str, Any] | None = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {dict(params)}")
        self.encoder = game.compiled.observations
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = None if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer sees one seat's view, never every seat's "
                             "private information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        size = (self.encoder.information_size if self.perfect_recall
                else self.encoder.observation_size)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, width in self.encoder.names:
            if at + width > size:
                break
            self.dict[name] = self.tensor[at:at + width]
            at += width

    def _seen(self, state: TabletopState, player: int) -> dict[str, Any] | None:
        return state.view(-1 if self.public_only else player)

    def set_from(self, state: TabletopState, player: int) -> None:
        self.tensor[:] = np.frombuffer(self._tensor(state, player, self.perfect_recall),
                                       np.float32)

    def _tensor(self, state: TabletopState, player: int, recall: bool) -> array:
        """The tensor of this state and seat, made once (OpenSpiel asks again and again
        for a position's observations)."""
        key = (-1 if self.public_only else player, recall)
        tensors = state._engine.position.tensors
        found = tensors.get(key)
        if found is None:
            seen = self._seen(state, player)
            found = tensors[key] = (
                self.encoder.information(seen, self._tensor(state, player, False)) if recall
                else self.encoder.observation(seen))
        return found

    def string_from(self, state: TabletopState, player: int) -> str:
        seen = self._seen(state, player)
        return information_string(seen) if self.perfect_recall else observation_string(seen)



register_bundled()
