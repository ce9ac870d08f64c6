"""Finding rulesets: a bundled game's name, or a path."""

from __future__ import annotations

import os
from pathlib import Path

from interpreter.errors import UsageError, did_you_mean

TESTS_SUFFIX = ".tests.yaml"


def rulesets_dir() -> Path:
    """Where bundled rulesets live: $TABLETOP_RULESETS, else the project's rulesets/."""
    env = os.environ.get("TABLETOP_RULESETS")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parents[2] / "rulesets"
    if here.is_dir():
        return here
    return Path.cwd() / "rulesets"


def bundled_names() -> list[str]:
    folder = rulesets_dir()
    if not folder.is_dir():
        return []
    return sorted(p.name[:-5] for p in folder.glob("*.yaml")
                  if not p.name.endswith(TESTS_SUFFIX))


def find_ruleset(name_or_path: str) -> Path:
    """A bundled game's name, or a path to a ruleset file."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or os.sep in name_or_path or "/" in name_or_path:
        if not p.is_file():
            raise UsageError(f"no such ruleset file: {name_or_path}")
        return p
    candidate = rulesets_dir() / f"{name_or_path}.yaml"
    if candidate.is_file():
        return candidate
    names = bundled_names()
    hint = did_you_mean(name_or_path, names)
    known = ", ".join(names) or "none"
    raise UsageError(f"unknown game '{name_or_path}' (bundled games: {known})"
                     + (f"; {hint}" if hint else ""))


def tests_file_for(ruleset_path: Path) -> Path:
    return ruleset_path.with_name(ruleset_path.name[: -len(ruleset_path.suffix)] + TESTS_SUFFIX)
