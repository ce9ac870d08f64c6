"""A ruleset written in a test, compiled, and an expression's outcome on it: what the
codegen, budget and remembered-call tests compare between the generated code and the
checked closures (the careful path, `generate=False`)."""

from __future__ import annotations

from typing import Any

from interpreter.assemble.game import compile_game
from interpreter.errors import TabletopError
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.machine import Env


def game_of(text: str, options: dict[str, Any] | None = None, generate: bool = True,
            file: str = "probe.yaml") -> Game:
    """`text` compiled as the ruleset file `file` (the name its errors give)."""
    return compile_game(load_ruleset_text(text, file), options or {}, generate=generate)


def outcome(game: Game, text: str, env: Env | None = None,
            limit: int | None = None) -> tuple[str, str, int]:
    """What expression `text` gives on `env` (a new two-seat game's, by default), within
    a step limit: ("value", repr, steps) or ("error", message, steps)."""
    if env is None:
        env = Env(game, game.new_state(2, 1))
    if limit is not None:
        env.step_limit = limit
    try:
        return ("value", repr(game.compile_expression(text)(env)), env.steps)
    except TabletopError as exc:
        return ("error", str(exc), env.steps)
