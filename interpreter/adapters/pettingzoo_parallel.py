"""A ruleset with simultaneous decisions as a PettingZoo parallel environment.

    env = parallel_env("my-game.yaml", players=4)
    observations, infos = env.reset(seed=1)
    while env.agents:
        actions = {agent: env.action_space(agent).sample(observations[agent]["action_mask"])
                   for agent in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

- A simultaneous decision (a `choose` with `seats`: every listed seat picks in secret,
  such as sealed bids or cards chosen at once) is one step: every seat
  deciding acts at once, each from the observation it had before anyone picked, and the
  picks are carried out together. Any other decision is a step of its one seat.
- Every live agent is in every step's dicts. An agent with no decision in a step has
  an action mask of zeros and its action is ignored (it may be left out, or None), as
  PettingZoo's `turn_based_aec_to_parallel` does; `infos[agent]["notations"]` is given
  to the agents that decide.
- An illegal action of a deciding agent ends the game, as PettingZoo's
  `TerminateIllegalWrapper` ends its board games: that agent's reward is
  `illegal_reward` (-1), the others' 0, and every agent is terminated and truncated.
  With `illegal_reward=None` it raises a ValueError instead.
- Observations, rewards, seeds, knock-outs and rendering are the AEC environment's
  (`interpreter.adapters.pettingzoo`): observations come from each seat's view alone.

Offered only for rulesets with a simultaneous decision: in a game whose seats all take
turns there is nothing to do at once, and PettingZoo's own
`turn_based_aec_to_parallel(env(...))` gives the same steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interpreter.adapters.pettingzoo_base import (
    FRAME_WIDTH,
    ILLEGAL_REWARD,
    TableBase,
    has_simultaneous_decisions,
)
from interpreter.play.game import Game
from interpreter.run.state import State

try:
    from pettingzoo import ParallelEnv
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("the PettingZoo adapter needs the 'pettingzoo' extra: "
                      "pip install 'tabletop[pettingzoo]'") from exc

Step = tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool],
             dict[str, dict[str, Any]]]


class TabletopParallelEnv(TableBase, ParallelEnv):
    """A ruleset with simultaneous decisions, its options and seat count as a
    PettingZoo parallel environment."""

    def __init__(self, game: str | Path | Game, options: Mapping[str, Any] | None = None,
                 players: int | None = None, information_state: bool = False,
                 render_mode: str | None = None, frame_width: int = FRAME_WIDTH,
                 illegal_reward: float | None = ILLEGAL_REWARD) -> None:
        self._make(game, options, players, information_state, render_mode, frame_width,
                   illegal_reward)
        if not has_simultaneous_decisions(self.game):
            raise ValueError(
                f"{self.game.title} has no simultaneous decision (a choose with seats): its "
                "seats take turns, so use its AEC env(), or PettingZoo's "
                "turn_based_aec_to_parallel(env(...)) for a parallel interface")
        self.illegal_reward = illegal_reward
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        return self._start(self._deal(seed))

    def reset_to(self, state: State) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Play on from a position reached elsewhere (even in the middle of a
        simultaneous decision: the seats still to pick decide): a copy of `state`."""
        return self._start(self._position(state))

    def _start(self, state: State) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.engine_state = state
        self._changed()
        out = set(state.out)
        self.agents = ([] if state.over else
                       [a for a in self.possible_agents if self._seats[a] not in out])
        return self._observations(self.agents), self._infos(self.agents)

    def step(self, actions: Mapping[str, Any]) -> Step:
        live = self.agents[:]
        if not live:
            return {}, {}, {}, {}, {}
        assert self.engine_state is not None
        chosen: dict[int, tuple[int, tuple]] = {}
        illegal: list[str] = []
        for seat in self._deciding():
            agent = self.possible_agents[seat - 1]
            action, legal = actions.get(agent), self.legal_of(seat)
            if action is None or int(action) not in legal:
                illegal.append(agent)
            else:
                chosen[seat] = legal[int(action)].raw
        if illegal:
            return self._illegal(live, illegal, actions)
        for seat, raw in chosen.items():  # picked together: each one's options were listed
            self.game.apply_trusted(self.engine_state, seat, raw)  # before any was carried out
        self._changed()
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, False)
        if self.engine_state.over:
            final = self._final_returns()
            rewards = {agent: final[agent] for agent in live}
            terminations = dict.fromkeys(live, True)
        else:
            for agent, value in self._knocked_out(terminations).items():
                rewards[agent], terminations[agent] = value, True
        self.agents = [agent for agent in live if not terminations[agent]]
        if self.render_mode == "human":
            self.render()
        return (self._observations(live), rewards, terminations, dict.fromkeys(live, False),
                self._infos(live))

    def _illegal(self, live: list[str], illegal: list[str], actions: Mapping[str, Any]
                 ) -> Step:
        """The game ends on an illegal action (or raises, without an illegal reward)."""
        if self.illegal_reward is None:
            agent = illegal[0]
            legal = self.legal_of(self._seats[agent])
            raise ValueError(f"{agent} cannot play {actions.get(agent)!r} here; legal: "
                             f"{', '.join(o.notation for o in legal.values())}")
        rewards = {agent: self.illegal_reward if agent in illegal else 0.0 for agent in live}
        observations = {agent: self._observation(agent, False) for agent in live}
        self.agents = []
        return (observations, rewards, dict.fromkeys(live, True), dict.fromkeys(live, True),
                {agent: {} for agent in live})

    def _observations(self, agents: list[str]) -> dict[str, Any]:
        deciding = set(self._deciding())
        return {agent: self._observation(agent, self._seats[agent] in deciding)
                for agent in agents}

    def _infos(self, agents: list[str]) -> dict[str, dict[str, Any]]:
        deciding = set(self._deciding())
        return {agent: self._notations(self._seats[agent])
                if self._seats[agent] in deciding else {} for agent in agents}
