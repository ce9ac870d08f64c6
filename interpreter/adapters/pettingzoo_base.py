"""What the PettingZoo AEC and parallel environments share: the game and its encoders,
the agents and their spaces, seeding, a seat's observation and legal actions, the
rewards at the end, and the pictures (see `interpreter.adapters.pettingzoo`)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from gymnasium.utils import EzPickle
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the PettingZoo adapter needs the 'pettingzoo' extra: "
                      "pip install 'tabletop[pettingzoo]'") from exc

from interpreter.adapters.encoding import (
    ActionEncoder,
    Legal,
    ObservationEncoder,
    knocked_out_return,
    returns,
    seat_view,
)
from interpreter.api import load_game
from interpreter.play.game import Game
from interpreter.run.state import State

RENDER_MODES = ["ansi", "human", "rgb_array"]
FRAME_WIDTH = 720
"""The default width of an `rgb_array` frame in pixels (the table drawing's own)."""
ILLEGAL_REWARD = -1.0
"""The reward of an agent whose illegal action ends the game (PettingZoo's classics')."""


def env_name(game: Game) -> str:
    """PettingZoo's name of a game's environment: `tabletop_<name>_v0`, each run of
    other characters than letters and digits written `_`."""
    return f"tabletop_{re.sub(r'[^0-9A-Za-z]+', '_', game.name).strip('_')}_v0"


def has_simultaneous_decisions(game: Game) -> bool:
    """Whether the rules have a decision several seats take at once (a `choose` with
    `seats`): the games offered as a parallel environment."""
    return any(spec.simultaneous for spec in game.choices.values())


class TableBase(EzPickle):
    """A ruleset, its options and seat count with PettingZoo's agents, spaces and
    seeding; the engine's state of the game being played. Pickles as its arguments
    (EzPickle, as PettingZoo's own environments), so pass a game by name or path."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": RENDER_MODES, "name": "tabletop_v0", "is_parallelizable": False,
        "render_fps": 1}

    def _make(self, game: str | Path | Game, options: Mapping[str, Any] | None,
              players: int | None, information_state: bool, render_mode: str | None,
              frame_width: int, *more: Any) -> None:
        """Set up from the constructor's arguments (`more`: the rest of them, kept for
        pickling)."""
        EzPickle.__init__(self, game, options, players, information_state, render_mode,
                          frame_width, *more)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
        if isinstance(game, Game) and options:
            raise ValueError("a compiled game has its options already; pass its name or "
                             "path to set them")
        self.game = game if isinstance(game, Game) else load_game(game, dict(options or {}))
        self.players = self.game.check_players(players)
        self.metadata = {**type(self).metadata, "name": env_name(self.game)}
        self.actions = ActionEncoder(self.game)
        self.observations = ObservationEncoder(self.game, self.actions)
        self.information_state = information_state
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._seats = {agent: i + 1 for i, agent in enumerate(self.possible_agents)}
        size = (self.observations.information_size if information_state
                else self.observations.observation_size)
        n = self.actions.num_actions
        low = np.asarray(self.observations.low[:size], np.float32)
        high = np.asarray(self.observations.high[:size], np.float32)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (n,), dtype=np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(n)
                              for agent in self.possible_agents}
        self.engine_state: State | None = None
        """The engine's state of the game being played (PettingZoo's `state()`, a view
        of everything, is not given: agents see only their seat's view)."""
        self.seed_dealt: int | None = None
        """The engine's seed of the game being played (`tabletop` replays it)."""
        self._next_seed: int | None = None
        self._legal: dict[int, dict[int, Legal]] = {}
        self.frame_width = frame_width
        """The width of `rgb_array` frames in pixels (their height follows the table's)."""
        self._frames: Any = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # -- games -----------------------------------------------------------------------------
    def _deal(self, seed: int | None) -> State:
        """A new game: with `seed`, or the seed after the last one dealt."""
        if seed is not None:
            self._next_seed = seed
        if self._next_seed is None:
            self._next_seed = secrets.randbits(63)
        self.seed_dealt = self._next_seed
        self._next_seed += 1
        return self.game.new_state(self.players, self.seed_dealt)

    def _position(self, state: State) -> State:
        """A copy of a position reached elsewhere, checked for this seat count."""
        if state.players != self.players:
            raise ValueError(f"the position has {state.players} seats, this environment "
                             f"{self.players}")
        self.seed_dealt = None
        return state.copy()

    def _changed(self) -> None:
        """The position changed: legal actions are listed again when asked."""
        self._legal = {}

    def _deciding(self) -> list[int]:
        assert self.engine_state is not None
        return self.game.deciding_seats(self.engine_state)

    def legal_of(self, seat: int) -> dict[int, Legal]:
        """The legal actions of `seat` now (none if it does not decide)."""
        legal = self._legal.get(seat)
        if legal is None:
            assert self.engine_state is not None
            legal = self._legal[seat] = (self.actions.legal(self.engine_state, seat)
                                         if seat in self._deciding() else {})
        return legal

    def _observation(self, agent: str, decides: bool) -> dict[str, np.ndarray]:
        """The agent's observation: its seat's view, and its legal actions if it
        `decides` now (else a mask of zeros)."""
        assert self.engine_state is not None
        seat = self._seats[agent]
        seen = seat_view(self.game, self.engine_state, seat)
        vector = (self.observations.information(seen) if self.information_state
                  else self.observations.observation(seen))
        mask = np.zeros(self.actions.num_actions, np.int8)
        if decides and not self.engine_state.over:
            mask[list(self.legal_of(seat))] = 1
        return {"observation": np.frombuffer(vector, np.float32), "action_mask": mask}

    def _notations(self, seat: int) -> dict[str, Any]:
        """The info of a seat that decides: its legal actions' notations."""
        return {"notations": {a: o.notation for a, o in self.legal_of(seat).items()}}

    def _final_returns(self) -> dict[str, float]:
        """Every agent's return at the end of the game."""
        assert self.engine_state is not None
        return dict(zip(self.possible_agents, returns(self.game, self.engine_state),
                        strict=True))

    def _knocked_out(self, done: Mapping[str, bool]) -> dict[str, float]:
        """Agents whose seats are out of the game (`eliminate`) and not yet done, with
        their standing as they go out as their reward."""
        assert self.engine_state is not None
        out = {}
        for seat in self.engine_state.out:
            agent = self.possible_agents[seat - 1]
            if agent in done and not done[agent]:
                out[agent] = knocked_out_return(self.engine_state, seat)
        return out

    # -- for people ------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        """What an action id stands for: its notation here if a deciding seat may play
        it now, else the notation without the parts computed from a position (they read
        `…`)."""
        if self.engine_state is not None:
            for seat in self._deciding():
                legal = self.legal_of(seat).get(int(action))
                if legal is not None:
                    return legal.notation
        return self.actions.decode(int(action))

    def action_of(self, notation: str) -> int:
        """The action id of a notation (the same in every position)."""
        return self.actions.encode(notation)

    def render(self) -> str | np.ndarray | None:
        """The table as a spectator sees it: text (`ansi`; printed for `human`) or an
        RGB array (`rgb_array`, every frame of one shape)."""
        from interpreter.adapters import pettingzoo_render

        if self.render_mode is None or self.engine_state is None:
            return None
        if self.render_mode == "rgb_array":
            if self._frames is None:
                self._frames = pettingzoo_render.Frames(self.game, self.players,
                                                        self.frame_width)
            return self._frames.frame(self.engine_state)
        text = pettingzoo_render.table_text(self.game, self.engine_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.engine_state = None
