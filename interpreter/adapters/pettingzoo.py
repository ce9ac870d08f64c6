"""Any ruleset as a PettingZoo environment (`pip install 'tabletop[pettingzoo]'`).

    env = env("my-game")          # or a path; options, players, render_mode
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        mask = observation["action_mask"]
        action = None if terminated or truncated else env.action_space(agent).sample(mask)
        env.step(action)

- `env()` is the AEC environment wrapped as PettingZoo's own board games are
  (`TerminateIllegalWrapper` with reward -1, `AssertOutOfBoundsWrapper`,
  `OrderEnforcingWrapper`): an illegal action ends the game, -1 for the agent that
  played it and 0 for the others. `raw_env()` (`TabletopEnv`) is the bare one, which
  refuses an illegal action with a ValueError. `parallel_env()` is the parallel
  environment of a game with simultaneous decisions (`interpreter.adapters.
  pettingzoo_parallel`).
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
- `metadata["name"]` is the game's own (`tabletop_<name>_v0`); render modes are
  `ansi` and `human` (the table as text) and `rgb_array` (the table's drawing).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interpreter.adapters.pettingzoo_base import FRAME_WIDTH, ILLEGAL_REWARD, TableBase
from interpreter.adapters.pettingzoo_parallel import TabletopParallelEnv
from interpreter.play.game import Game
from interpreter.run.state import State

try:
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the PettingZoo adapter needs the 'pettingzoo' extra: "
                      "pip install 'tabletop[pettingzoo]'") from exc

__all__ = ["ILLEGAL_REWARD", "TabletopEnv", "TabletopParallelEnv", "env", "parallel_env",
           "raw_env"]


class TabletopEnv(TableBase, AECEnv):
    """A ruleset, its options and seat count as a PettingZoo AEC environment (bare:
    `env()` wraps it)."""

    def __init__(self, game: str | Path | Game, options: Mapping[str, Any] | None = None,
                 players: int | None = None, information_state: bool = False,
                 render_mode: str | None = None, frame_width: int = FRAME_WIDTH) -> None:
        AECEnv.__init__(self)
        self._make(game, options, players, information_state, render_mode, frame_width)

    # -- the game loop ---------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._start(self._deal(seed))

    def reset_to(self, state: State) -> None:
        """Play on from a position reached elsewhere (a saved game, a scenario): a
        copy of `state`, with as many seats as this environment."""
        self._start(self._position(state))

    def _start(self, state: State) -> None:
        self.engine_state = state
        self._changed()
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
        seat = self._seats[agent]
        legal = self.legal_of(seat)
        if action is None or int(action) not in legal:
            shown = "None" if action is None else f"{int(action)} ({self.notation(action)})"
            raise ValueError(f"{agent} cannot play {shown} here; legal: "
                             f"{', '.join(o.notation for o in legal.values())}")
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_trusted(self.engine_state, seat, legal[int(action)].raw)
        self._changed()
        self._clear_rewards()
        if self.engine_state.over:
            for a, value in self._final_returns().items():
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
        for agent, value in self._knocked_out(self.terminations).items():
            self.terminations[agent] = True
            self.rewards[agent] = value

    def observe(self, agent: str) -> dict[str, Any]:
        return self._observation(agent, agent == self.agent_selection)

    def _select(self) -> None:
        """The agent to act: the lowest seat among those deciding (the first agent once
        the game is over, for the terminated agents' last steps)."""
        seats = self._deciding()
        self.agent_selection = (self.possible_agents[min(seats) - 1] if seats
                                else self.agents[0])
        self.infos = {agent: {} for agent in self.agents}
        if seats:
            self.infos[self.agent_selection] = self._notations(min(seats))


def raw_env(game: str | Path | Game, options: Mapping[str, Any] | None = None,
            players: int | None = None, information_state: bool = False,
            render_mode: str | None = None, frame_width: int = FRAME_WIDTH) -> TabletopEnv:
    """The bare AEC environment: an illegal action raises a ValueError."""
    return TabletopEnv(game, options, players, information_state, render_mode, frame_width)


def env(game: str | Path | Game, options: Mapping[str, Any] | None = None,
        players: int | None = None, information_state: bool = False,
        render_mode: str | None = None, frame_width: int = FRAME_WIDTH) -> AECEnv:
    """The AEC environment wrapped as PettingZoo's own board games are: an illegal
    action ends the game (ILLEGAL_REWARD for the agent that played it, 0 for the
    others), an action outside the space is an AssertionError, and calls out of order
    (a step before `reset`) are refused."""
    wrapped = wrappers.TerminateIllegalWrapper(
        raw_env(game, options, players, information_state, render_mode, frame_width),
        illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(game: str | Path | Game, options: Mapping[str, Any] | None = None,
                 players: int | None = None, information_state: bool = False,
                 render_mode: str | None = None, frame_width: int = FRAME_WIDTH,
                 illegal_reward: float | None = ILLEGAL_REWARD) -> TabletopParallelEnv:
    """The parallel environment of a game with simultaneous decisions (see
    `interpreter.adapters.pettingzoo_parallel`; a ValueError for any other game)."""
    return TabletopParallelEnv(game, options, players, information_state, render_mode,
                               frame_width, illegal_reward)
