"""Finding rulesets: a bundled game's name, or a path."""

from __future__ import annotations

import contextlib
import importlib.util
import os
from pathlib import Path
from typing import Any

from interpreter.errors import UsageError, did_you_mean
from interpreter.invoked import runnable

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
        raise UsageError(f"name a game (see `{runnable('list')}`) or a ruleset file; got an "
                         "empty name")
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


# -- the catalog: what `tabletop list` shows of each game ---------------------------------

CATALOG_FORMAT = 1
"""Bumped when the shape of a catalog entry changes, so an older cache is not read."""

_CATALOG_CODE = ("catalog.py", "variants.py", "yaml_source.py", "parts.py")
"""The modules an entry is made by: a cache written by other versions of them is stale."""


def catalog_entry(path: Path) -> tuple[dict[str, Any], list[str]]:
    """A ruleset's name, title, seats, summary, group and options, read from its YAML
    (a variant merged into its base) without validating the rules or compiling them;
    and the files it was made from. A file that does not read is an entry with its
    error: the listing goes on, and `tabletop validate` says the rest."""
    from interpreter.errors import RulesetError
    from interpreter.load.variants import is_variant, merge_variant
    from interpreter.load.yaml_source import read_yaml

    name = path.name.removesuffix(".yaml")
    files = [str(path)]
    try:
        tree, source = read_yaml(path)
        base: str | None = None
        if is_variant(tree):
            tree, info = merge_variant(tree, source, str(path), read_base)
            base = info.base_name
            files += list(source.others)
        return _entry(name, tree, base), files
    except (RulesetError, UsageError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return {"name": name, "error": first}, files


def read_base(ref: str, near: Path) -> tuple[Any, Any, str]:
    """A variant's base: a path (from the variant's folder, or as given), or a bundled
    game's name; as (tree, source, path)."""
    from interpreter.errors import Diagnostic, RulesetError
    from interpreter.load.yaml_source import read_yaml

    if ref.endswith((".yaml", ".yml")) or "/" in ref:
        nearby = near / ref
        path = nearby if nearby.is_file() else Path(ref)
    else:
        try:
            path = find_ruleset(ref)
        except UsageError as exc:
            raise RulesetError([Diagnostic(str(exc))]) from None
    tree, source = read_yaml(path)
    return tree, source, str(path)


def _entry(name: str, tree: Any, base: str | None) -> dict[str, Any]:
    game = tree.get("game") if isinstance(tree, dict) else None
    if not isinstance(game, dict):
        return {"name": name, "error": "the ruleset has no `game` mapping"}
    seats = game.get("seats") if isinstance(game.get("seats"), dict) else {}
    entry: dict[str, Any] = {
        "name": name,
        "title": _text(game.get("title")) or name,
        "designer": _text(game.get("designer")),
        "seats": {"min": _plain(seats.get("min")), "max": _plain(seats.get("max"))},
        "summary": " ".join(str(game.get("summary") or "").split()),
        "status": _text(game.get("status")) or "complete",
        "group": _text(game.get("group")),
        "options": [_option(o) for o in tree.get("options") or [] if isinstance(o, dict)],
    }
    if base is not None:
        entry["extends"] = base
    return entry


def _option(o: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"id": _text(o.get("id")), "label": _text(o.get("label")),
                           "type": _text(o.get("type")), "default": _plain(o.get("default")),
                           "description": " ".join(str(o.get("description") or "").split())}
    for key in ("choices", "min", "max"):
        if o.get(key) is not None:
            out[key] = _plain(o[key])
    return out


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


def _plain(value: Any) -> Any:
    """A YAML value as JSON has it (the located strings and lists as plain ones)."""
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def bundled_catalog() -> list[dict[str, Any]]:
    """Every bundled game's catalog entry, in name order. Entries are kept in a cache
    file (see `catalog_cache`) and read again only for a game one of whose files (its
    own, a variant's bases) changed, so `tabletop list` need not parse every ruleset."""
    folder = rulesets_dir()
    cache = catalog_cache(folder)
    stored = _read_cache(cache)
    fresh: dict[str, Any] = {}
    for name in bundled_names():
        hit = stored.get(name)
        # an entry in error is read again: what it lacked (a variant's base, say) may be
        # a file that was not there to be stamped
        if hit is not None and "error" not in hit["entry"] and \
                all(_stamp(f) == s for f, s in hit["files"].items()):
            fresh[name] = hit
            continue
        entry, files = catalog_entry(folder / f"{name}.yaml")
        fresh[name] = {"entry": entry, "files": {f: _stamp(f) for f in files}}
    if fresh != stored:
        _write_cache(cache, fresh)
    return [fresh[name]["entry"] for name in sorted(fresh)]


def catalog_cache(folder: Path) -> Path:
    """Where the catalog of a rulesets folder is cached: $XDG_CACHE_HOME/tabletop (else
    ~/.cache/tabletop), one file per folder."""
    import hashlib

    root = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    key = hashlib.sha256(str(folder.resolve()).encode("utf-8")).hexdigest()[:16]
    return Path(root) / "tabletop" / f"catalog-{key}.json"


def _stamp(path: str) -> list[int]:
    """What says a file changed: its modification time (ns) and size; -1s when gone."""
    try:
        st = os.stat(path)
    except OSError:
        return [-1, -1]
    return [st.st_mtime_ns, st.st_size]


def _code_stamp() -> dict[str, list[int]]:
    here = Path(__file__).resolve().parent
    return {name: _stamp(str(here / name)) for name in _CATALOG_CODE}


def _read_cache(cache: Path) -> dict[str, Any]:
    """The cached entries, or none when the cache is missing, unreadable or made by
    other code."""
    import json

    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != CATALOG_FORMAT or \
            data.get("code") != _code_stamp() or not isinstance(data.get("games"), dict):
        return {}
    return data["games"]


def _write_cache(cache: Path, games: dict[str, Any]) -> None:
    """Write the cache atomically; a cache that cannot be written is only slower."""
    import json
    import tempfile

    data = {"format": CATALOG_FORMAT, "code": _code_stamp(), "games": games}
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=cache.parent,
                                         prefix=".catalog-", delete=False) as out:
            json.dump(data, out)
        os.replace(out.name, cache)
    except OSError:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(out.name)
