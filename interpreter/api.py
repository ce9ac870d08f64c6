"""The front door for tools and tests: find, load and compile a game in one call."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interpreter.assemble.game import compile_game
from interpreter.load.catalog import find_ruleset
from interpreter.load.loader import LoadedRuleset, load_ruleset
from interpreter.play.game import Game

_CACHE_SIZE = 32
_cache: dict[str, tuple[tuple[tuple[str, float], ...], LoadedRuleset]] = {}
"""Loaded rulesets by path, with the modification time of every file each is made of (a
variant is stale when its base changes, too)."""


def _mtime(path: str) -> float:
    try:
        return Path(path).stat().st_mtime
    except OSError:
        return -1.0


_carried: dict[str, LoadedRuleset] = {}
"""Rulesets brought into this process ready-loaded, by the path they were loaded from:
a worker on another machine (a Ray node) plays them without reading that path there."""


def carry(rulesets: Mapping[str, LoadedRuleset]) -> None:
    """Make these loaded rulesets what `load` gives for their paths in this process."""
    _carried.update(rulesets)


def carried(path: str) -> LoadedRuleset | None:
    """The ruleset carried for `path`, if any (what `load` gives instead of the file)."""
    return _carried.get(path)


def uncarry(path: str, restore: LoadedRuleset | None = None) -> None:
    """`load(path)` reads the file again, or gives `restore` when one is named."""
    if restore is None:
        _carried.pop(path, None)
    else:
        _carried[path] = restore


def load(name_or_path: str | Path) -> LoadedRuleset:
    """A bundled game's name or a path → the validated ruleset (cached while none of its
    files changes; a carried ruleset when one was brought for that path)."""
    carried = _carried.get(str(name_or_path))
    if carried is not None:
        return carried
    path = str(find_ruleset(str(name_or_path)).resolve())
    hit = _cache.get(path)
    if hit is not None and all(_mtime(f) == t for f, t in hit[0]):
        return hit[1]
    before = _mtime(path)
    loaded = load_ruleset(path)
    stamps = ((path, before), *((f, _mtime(f)) for f in loaded.source.others))
    if len(_cache) >= _CACHE_SIZE:
        _cache.pop(next(iter(_cache)))
    _cache[path] = (stamps, loaded)
    return loaded


def load_game(name_or_path: str | Path, options: dict[str, Any] | None = None) -> Game:
    """A bundled game's name or a path → a compiled Game with the options applied."""
    return compile_game(load(name_or_path), options or {})
