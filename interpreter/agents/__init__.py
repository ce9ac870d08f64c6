"""Computer players. An agent sees only its seat's view and the legal options."""

from __future__ import annotations

from interpreter.agents.base import Agent, OptionChoice
from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.uniform_agent import UniformAgent

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "uniform": UniformAgent}

__all__ = ["AGENTS", "Agent", "OptionChoice", "RandomAgent", "UniformAgent", "make_agent"]


def make_agent(name: str, seed: int = 0) -> Agent:
    cls = AGENTS.get(name)
    if cls is None:
        from interpreter.errors import UsageError, did_you_mean

        hint = did_you_mean(name, AGENTS)
        raise UsageError(f"unknown agent '{name}' (agents: {', '.join(AGENTS)})"
                         + (f"; {hint}" if hint else ""))
    return cls(seed)
