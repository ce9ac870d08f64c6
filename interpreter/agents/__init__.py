"""Computer players. An agent sees only its seat's view and the legal options; a
searching agent (`mcts`, `ismcts`) is also handed the state to search from, and says
how much of it it reads (see `interpreter.agents.search`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from interpreter.agents.base import Agent, OptionChoice
from interpreter.agents.random_agent import RandomAgent
from interpreter.agents.spec import AgentSpec, parse_agent_spec
from interpreter.agents.uniform_agent import UniformAgent
from interpreter.errors import UsageError

if TYPE_CHECKING:
    from interpreter.play.game import Game

AGENTS: dict[str, type] = {"random": RandomAgent, "uniform": UniformAgent}

__all__ = ["AGENTS", "SEES_HIDDEN_NOTE", "Agent", "AgentSpec", "OptionChoice", "RandomAgent",
           "UniformAgent", "check_agent", "close_agents", "make_agent", "parse_agent_spec",
           "ruleset_settings", "ruleset_settings_note", "sees_hidden", "workers_note"]

SEES_HIDDEN_NOTE = ("mcts sees all that is hidden (cards, dice under covers, secrets: it "
                    "searches the true state); for a computer player that plays fair, use "
                    "ismcts.")
"""Said wherever such a player is chosen for a game that hides anything."""


def _register_search_agents() -> None:
    from interpreter.agents.search import ISMCTSAgent, MCTSAgent

    AGENTS["mcts"] = MCTSAgent
    AGENTS["ismcts"] = ISMCTSAgent


_register_search_agents()


def check_agent(text: str) -> AgentSpec:
    """An agent's name and settings (`mcts:playouts=400`), checked, or a UsageError."""
    return parse_agent_spec(text, AGENTS)


def make_agent(text: str, seed: int = 0, game: Game | None = None) -> Agent:
    """The agent written `text`, for `game`: it starts from the settings the game's
    ruleset gives a player of its name (`computer_players`), and `text`'s own win."""
    spec = check_agent(text)
    settings = dict(game.computer_players.get(spec.name, {})) if game is not None else {}
    settings.update(spec.settings)
    return AGENTS[spec.name](seed, **settings)


def ruleset_settings(game: Game, texts: Iterable[str]) -> dict[str, str]:
    """The settings `game`'s ruleset gives the computer players written `texts` (seats,
    matchups; a person or an unknown name is passed over), as written after `NAME:`: who
    reads a result must know an `mcts` is not the default one."""
    used = set()
    for text in texts:
        try:
            used.add(check_agent(text).name)
        except UsageError:
            continue
    return {name: ",".join(f"{k}={v}" for k, v in settings.items())
            for name, settings in game.computer_players.items() if name in used}


def ruleset_settings_note(game: Game, texts: Iterable[str]) -> str | None:
    """What `play` and the browser say when the ruleset changes how a chosen computer
    player plays; None when it does not."""
    given = ruleset_settings(game, texts)
    if not given:
        return None
    return ("This game's ruleset sets how its computer players play: "
            + ", ".join(f"{name}:{text}" for name, text in given.items())
            + " (a setting given to a seat wins).")


def sees_hidden(text: str) -> bool:
    """Whether the agent written `text` (`mcts:playouts=400`) reads the true state,
    secrets included; a person or an unknown name does not."""
    cls = AGENTS.get(text.partition(":")[0].strip().lower())
    return bool(getattr(cls, "sees_hidden", False))


def workers_note(texts: Iterable[str]) -> str | None:
    """What `play` and `analyze` say when a computer player written in `texts` is given
    more worker processes than this machine has cores; None when none is."""
    import os

    cores = os.cpu_count() or 1
    for text in texts:
        try:
            spec = check_agent(text)
        except UsageError:
            continue
        workers = spec.settings.get("workers", 1)
        if workers > cores:
            return (f"{spec.text} searches in {workers} processes on a machine of {cores} "
                    f"cores: they take turns on the cores, so it thinks no faster than "
                    f"with workers={cores}.")
    return None


def close_agents(agents: Iterable[Agent]) -> None:
    """Stop the worker processes of these players (`workers=N`); one that decides again
    starts them again."""
    for agent in agents:
        close = getattr(agent, "close", None)
        if close is not None:
            close()
