"""Any ruleset as a PettingZoo AEC environment (`pip install 'tabletop[pettingzoo]'`).

    env = TabletopEnv("my-game")                 # or env(...), a path, options, players
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        mask = observation["action_mask"]
        action = None if terminated else env.action_space(agent).sample(mask)
        env.step(action)

- Agents are `player_0` ... (seat 1 is `player_0`); the seat whose decision it is acts.
  A simultaneous decision (a `choose` with `seats`) is taken one seat after another, in
  seat order, each seeing only its own view (not the others' secret picks).
- Actions are `Discrete(n)`: the game's fixed action ids (see
  `interpreter.adapters.encoding`), the same for every seat; `info["notations"]` maps
  the acting agent's legal ids to their notations, and `notation(action)` reads any id.
- Observations are a dict: `observation`, a float32 vector built from the seat's view
  alone (the information state, with the latest decisions of the log, if
  `information_state=True`), and `action_mask`, int8, 1 for the agent's legal actions
  (all 0 when it is not its turn).
- Rewards come at the end only: the returns of `encoding.returns` (winners +1 against
  each other seat, in [-1, 1], summing to 0). A seat knocked out of the game
  (`eliminate`) is done at once: its agent is terminated, with its standing as it goes
  out as its reward (above each seat out before it, below every other), takes its last
  (None) step before anyone else acts, and never acts again.
- Seeds: `reset(seed=s)` deals the engine's game with seed `s`; later resets without a
  seed deal `s + 1`, `s + 2`, ... (like `tabletop simulate --seed s`). Before any seed
  is given, games are dealt from a random seed. The ruleset's options are fixed when
  the environment is made; `reset`'s `options` are ignored.
"""

from __future__ import annotations

import io
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
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
from interpreter.run.view import SPECTATOR

__all__ = ["TabletopEnv", "env"]


class TabletopEnv(AECEnv):
    """A ruleset, its options and seat count as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "tabletop_v0", "is_parallelizable": False}

    def __init__(self, game: str | Path | Game, options: Mapping[str, Any] | None = None,
                 players: int | None = None, information_state: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        if isinstance(game, Game) and options:
            raise ValueError("a compiled game has its options already; pass its name or "
                             "path to set them")
        self.game = game if isinstance(game, Game) else load_game(game, dict(options or {}))
        self.players = self.game.check_players(players)
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
        self._legal: dict[int, Legal] | None = None

    def __str__(self) -> str:
        return f"tabletop_{self.game.name}_v0"

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # -- the game loop ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = seed
        if self._next_seed is None:
            self._next_seed = secrets.randbits(63)
        self.seed_dealt = self._next_seed
        self._next_seed += 1
        self._start(self.game.new_state(self.players, self.seed_dealt))

    def reset_to(self, state: State) -> None:
        """Play on from a position reached elsewhere (a saved game, a scenario): a
        copy of `state`, with as many seats as this environment."""
        if state.players != self.players:
            raise ValueError(f"the position has {state.players} seats, this environment "
                             f"{self.players}")
        self.seed_dealt = None
        self._start(state.copy())

    def _start(self, state: State) -> None:
        self.engine_state = state
        self._legal = None
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()
        if state.over:  # a finished game: nothing is left but the agents' last steps
            self.terminations = dict.fromkeys(self.agents, True)
        elif state.out:  # seats already knocked out
            self._knock_out()
            self._deads_step_first()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.engine_state is not None
        legal = self._legal_here()
        if action is None or int(action) not in legal:
            shown = "None" if action is None else f"{int(action)} ({self.notation(action)})"
            raise ValueError(f"{agent} cannot play {shown} here; legal: "
                             f"{', '.join(o.notation for o in legal.values())}")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_trusted(self.engine_state, self._seats[agent], legal[int(action)].raw)
        self._legal = None
        self._clear_rewards()
        if self.engine_state.over:
            for a, value in zip(self.possible_agents, returns(self.game, self.engine_state),
                                strict=True):
                if a in self.rewards:
                    self.rewards[a] = value
                    self.terminations[a] = True
        else:
            self._knock_out()
        self._accumulate_rewards()
        self._select()
        if not self.engine_state.over:
            self._deads_step_first()  # an agent knocked out takes its last step first
        if self.render_mode == "human":
            self.render()

    def _knock_out(self) -> None:
        """Seats knocked out of the game (`eliminate`) are done: they never act again, and
        their reward is their standing as they go out."""
        assert self.engine_state is not None
        for seat in self.engine_state.out:
            agent = self.possible_agents[seat - 1]
            if agent in self.terminations and not self.terminations[agent]:
                self.terminations[agent] = True
                self.rewards[agent] = knocked_out_return(self.engine_state, seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.engine_state is not None
        seat = self._seats[agent]
        seen = seat_view(self.game, self.engine_state, seat)
        vector = (self.observations.information(seen) if self.information_state
                  else self.observations.observation(seen))
        mask = np.zeros(self.actions.num_actions, np.int8)
        if not self.engine_state.over and agent == self.agent_selection:
            mask[list(self._legal_here())] = 1
        return {"observation": np.frombuffer(vector, np.float32), "action_mask": mask}

    def _select(self) -> None:
        """The agent to act: the lowest seat among those deciding (the first agent once
        the game is over, for the terminated agents' last steps)."""
        assert self.engine_state is not None
        seats = self.game.deciding_seats(self.engine_state)
        self.agent_selection = (self.possible_agents[min(seats) - 1] if seats
                                else self.agents[0])
        self.infos = {agent: {} for agent in self.agents}
        if seats:
            legal = self._legal_here()
            self.infos[self.agent_selection] = {
                "notations": {a: o.notation for a, o in legal.items()}}

    def _legal_here(self) -> dict[int, Legal]:
        if self._legal is None:
            assert self.engine_state is not None
            seats = self.game.deciding_seats(self.engine_state)
            self._legal = self.actions.legal(self.engine_state, min(seats)) if seats else {}
        return self._legal

    # -- for people ------------------------------------------------------------------------
    def notation(self, action: Any) -> str:
        """What an action id stands for: its notation here if it is legal now, else
        the notation without the parts computed from a position (they read `…`)."""
        legal = self._legal_here().get(int(action)) if self.engine_state is not None else None
        return legal.notation if legal is not None else self.actions.decode(int(action))

    def action_of(self, notation: str) -> int:
        """The action id of a notation (the same in every position)."""
        return self.actions.encode(notation)

    def render(self) -> str | None:
        """The table as a spectator sees it (text for `ansi`, printed for `human`)."""
        if self.render_mode is None or self.engine_state is None:
            return None
        from rich.console import Console

        from interpreter.view.render import render_view

        console = Console(width=100, record=True, file=io.StringIO())
        console.print(render_view(self.game, seat_view(self.game, self.engine_state, SPECTATOR),
                                  colour=False))
        text = console.export_text().replace(f" (you are {self.game.seat_name(SPECTATOR)})",
                                             "", 1)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.engine_state = None


def env(game: str | Path | Game, options: Mapping[str, Any] | None = None,
        players: int | None = None, information_state: bool = False,
        render_mode: str | None = None) -> TabletopEnv:
    """A new environment (PettingZoo's usual factory name)."""
    return TabletopEnv(game, options, players, information_state, render_mode)
