"""`NAME[:KEY=VALUE,...]`: how a computer player and its settings are written on the
command line and in save files (`mcts:playouts=400`, `mcts:seconds=1`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.errors import UsageError, did_you_mean
from interpreter.load.catalog import shorten


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting an agent takes: its type, its default and what it does."""

    kind: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    """For a setting that names one of a few ways (`judge=score`): the ways."""


@dataclass(frozen=True, slots=True)
class AgentSpec:
    name: str
    settings: dict[str, Any]

    @property
    def text(self) -> str:
        """As written back (in a save file, a replay command): `mcts:playouts=50`."""
        given = ",".join(f"{key}={value}" for key, value in self.settings.items())
        return f"{self.name}:{given}" if given else self.name


def parse_agent_spec(text: str, agents: Mapping[str, type]) -> AgentSpec:
    """Check `text` against the agents and the settings each declares (`SETTINGS`)."""
    name, sep, rest = text.strip().partition(":")
    name = name.strip().lower()
    cls = agents.get(name)
    if cls is None:
        hint = did_you_mean(name, list(agents))
        raise UsageError(f"unknown agent '{shorten(name)}' (agents: {', '.join(agents)})"
                         + (f"; {hint}" if hint else ""))
    declared: dict[str, Setting] = getattr(cls, "SETTINGS", {})
    settings: dict[str, Any] = {}
    if sep and not rest.strip():
        raise UsageError(f"agent '{shorten(text)}': nothing after ':' (e.g. "
                         f"{_example(name, declared)})")
    for pair in rest.split(",") if rest.strip() else []:
        key, eq, value = pair.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not declared:
            raise UsageError(f"agent '{name}' takes no settings, not '{shorten(pair)}'")
        if not eq or not key or not value:
            raise UsageError(f"agent '{shorten(text)}': a setting is KEY=VALUE (e.g. "
                             f"{_example(name, declared)}), not '{shorten(pair)}'")
        setting = declared.get(key)
        if setting is None:
            hint = did_you_mean(key, list(declared))
            raise UsageError(f"agent '{name}' has no setting '{shorten(key)}' (settings: "
                             f"{', '.join(declared)})" + (f"; {hint}" if hint else ""))
        if key in settings:
            raise UsageError(f"agent '{shorten(text)}': '{key}' is given twice")
        settings[key] = _value(name, key, value, setting)
    return AgentSpec(name, settings)


def _value(agent: str, key: str, text: str, setting: Setting) -> Any:
    if setting.choices:
        word = text.lower()
        if word not in setting.choices:
            hint = did_you_mean(word, list(setting.choices))
            raise UsageError(f"agent '{agent}': {key} is one of {', '.join(setting.choices)}, "
                             f"not '{shorten(text, 20)}'" + (f"; {hint}" if hint else ""))
        return word
    try:
        value = setting.kind(text)
    except ValueError:
        kind = "a whole number" if setting.kind is int else "a number"
        raise UsageError(f"agent '{agent}': {key} is {kind}, not '{shorten(text, 20)}'"
                         ) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise UsageError(f"agent '{agent}': {key} is a finite number, not '{shorten(text, 20)}'")
    if setting.low is not None and value < setting.low:
        raise UsageError(f"agent '{agent}': {key} must be at least {setting.low:g}, "
                         f"not {shorten(text, 20)}")
    if setting.high is not None and value > setting.high:
        raise UsageError(f"agent '{agent}': {key} must be at most {setting.high:g}, "
                         f"not {shorten(text, 20)}")
    return value


def _example(name: str, declared: Mapping[str, Setting]) -> str:
    if not declared:
        return name
    key, setting = next(iter(declared.items()))
    return f"{name}:{key}={setting.default}"
