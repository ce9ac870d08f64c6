"""Finding rulesets: a bundled game's name, or a path."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from interpreter.errors import UsageError, did_you_mean

TESTS_SUFFIX = ".tests.yaml"
CHECKOUT_RULESETS = Path(__file__).resolve().parents[2] / "rulesets"
"""The designers' folder of a source checkout (an editable install plays from it)."""
PACKAGED_RULESETS = "interpreter.rulesets"
"""The same files as installed package data (pyproject.toml maps rulesets/ there)."""


def rulesets_dir() -> Path:
    """Where bundled rulesets live: $TABLETOP_RULESETS, else a checkout's rulesets/ (so an
    edit is played at once), else the copy installed with the package."""
    env = os.environ.get("TABLETOP_RULESETS")
    if env:
        return Path(env)
    if CHECKOUT_RULESETS.is_dir():
        return CHECKOUT_RULESETS
    return _packaged() or CHECKOUT_RULESETS


def _packaged() -> Path | None:
    """The installed rulesets folder: a package without an __init__.py, found by its
    spec (importlib.resources would give a MultiplexedPath for a namespace package)."""
    try:
        spec = importlib.util.find_spec(PACKAGED_RULESETS)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    return None


def bundled_names() -> list[str]:
    folder = rulesets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name[:-5] for p in folder.glob("*.yaml")
                  if not p.name.endswith(TESTS_SUFFIX))


def find_ruleset(name_or_path: str) -> Path:
    """A bundled game's name, or a path to a ruleset file."""
    shown = shorten(name_or_path)
    if not name_or_path.strip():
        raise UsageError("name a game (see `tabletop list`) or a ruleset file; got an empty "
                         "name")
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or os.sep in name_or_path or "/" in name_or_path:
        try:
            exists, regular = p.exists(), p.is_file()
        except OSError as exc:
            raise UsageError(f"cannot read {shown}: {exc.strerror or exc}") from None
        if not exists:
            raise UsageError(f"no such ruleset file: {shown}")
        if not regular:
            raise UsageError(f"{shown} is not a ruleset file (it is "
                             f"{'a folder' if p.is_dir() else 'not a regular file'})")
        return p
    if len(name_or_path) > 100 or not name_or_path.isprintable():
        raise UsageError(f"unknown game '{shown}' (bundled games: "
                         f"{', '.join(bundled_names()) or 'none'})")
    candidate = rulesets_dir() / f"{name_or_path}.yaml"
    if candidate.is_file():
        return candidate
    names = bundled_names()
    hint = did_you_mean(name_or_path, names)
    known = ", ".join(names) or "none"
    raise UsageError(f"unknown game '{shown}' (bundled games: {known})"
                     + (f"; {hint}" if hint else ""))


def tests_file_for(ruleset_path: Path) -> Path:
    return ruleset_path.with_name(ruleset_path.name[: -len(ruleset_path.suffix)] + TESTS_SUFFIX)


def shorten(text: str, limit: int = 60) -> str:
    """A user's input as quoted back in a message: at most `limit` characters."""
    text = text.replace("\n", " ")
    return text if len(text) <= limit else text[:limit - 1] + "…"
