"""The front door for tools and tests: find, load and compile a game in one call."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from interpreter.compile.game import Game, compile_game
from interpreter.load.catalog import find_ruleset
from interpreter.load.loader import LoadedRuleset, load_ruleset


@lru_cache(maxsize=32)
def _load_cached(path: str, mtime: float) -> LoadedRuleset:
    return load_ruleset(path)


def load(name_or_path: str | Path) -> LoadedRuleset:
    """A bundled game's name or a path → the validated ruleset (cached while unchanged)."""
    path = find_ruleset(str(name_or_path))
    return _load_cached(str(path.resolve()), path.stat().st_mtime)


def load_game(name_or_path: str | Path, options: dict[str, Any] | None = None) -> Game:
    """A bundled game's name or a path → a compiled Game with the options applied."""
    return compile_game(load(name_or_path), options or {})
