"""The folder a studio works in: which paths a client may name, reading and writing its
files, and the editor's unsaved drafts.

A client names files by their path relative to the workspace root (posix, e.g.
``my-game.yaml``). Every name is resolved inside the root and refused otherwise (``..``,
an absolute path, a symlink leading out, a NUL): the server listens on loopback, but a
page of another site could still try to reach it, and the token alone should not let it
read the designer's other files. Writes are atomic (a temporary file, then
``os.replace``), so a crash leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from interpreter.load.catalog import TESTS_SUFFIX, tests_file_for
from interpreter.load.loader import LoadedRuleset, load_ruleset_text

NEW_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A new file's name before ``.yaml`` (or ``.tests.yaml``): lower-case words and dashes."""
MAX_FILES = 500
"""Files listed at most (a workspace opened on a home folder still answers quickly)."""
SKIPPED_DIRS = {"node_modules", "__pycache__", "site-packages", "venv"}
LISTED_BYTES = 65536
"""How much of a YAML file is read to tell a ruleset from another file, and its title."""


class StudioError(Exception):
    """A request the studio refuses, with the words the designer reads and its HTTP
    status (the app turns it into ``{"error": message}``)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def _kind(path: Path, head: str) -> str:
    if path.name.endswith(TESTS_SUFFIX):
        return "tests"
    if re.search(r"^(game|extends)\s*:", head, re.MULTILINE):
        return "ruleset"
    return "other"


def _title(head: str) -> str | None:
    """The game's title as its ruleset file writes it (read, not validated: a listing
    must not cost a compile per file)."""
    found = re.search(r"^game\s*:\s*\n((?:[ \t]+.*\n|\s*\n)*)", head + "\n", re.MULTILINE)
    if found is None:
        return None
    title = re.search(r"^[ \t]+title\s*:\s*(.+?)\s*$", found.group(1), re.MULTILINE)
    if title is None:
        return None
    text = title.group(1)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return text or None


@dataclass
class Workspace:
    """The folder the studio was started on (its only root), the file it was started
    with, and the editor's drafts."""

    roots: tuple[Path, ...]
    start: str | None = None
    """The file the studio opens first (the ruleset named on the command line)."""
    drafts: dict[Path, str] = field(default_factory=dict)
    """The editor's latest text of each file, unsaved (set by /api/check): the panels
    test, balance and describe what the designer sees, not what was last saved."""

    @classmethod
    def open(cls, target: Path) -> Workspace:
        """The workspace of a ruleset file (its folder) or of a folder; StudioError when
        it is neither."""
        try:
            path = target.expanduser().resolve()
        except (OSError, RuntimeError) as exc:
            raise StudioError(f"{target}: cannot open it ({exc})") from None
        if path.is_dir():
            return cls((path,))
        if path.is_file():
            if path.suffix not in (".yaml", ".yml"):
                raise StudioError(f"{target} is not a ruleset file (a .yaml file) or a "
                                  "folder")
            ws = cls((path.parent,))
            ws.start = ws.shown(path)
            return ws
        raise StudioError(f"{target}: no such file or folder")

    # -- names and paths -------------------------------------------------------------------
    def resolve(self, name: Any) -> Path:
        """A client's name → the absolute path inside the root (StudioError 403 when it
        would lead anywhere else, 400 when it is no name at all)."""
        if not isinstance(name, str) or not name.strip():
            raise StudioError("name a file of the workspace (a path such as "
                              "'my-game.yaml')")
        if "\0" in name or "\\" in name:
            raise StudioError(f"'{name[:60]!s}' is not a file name the studio opens", 403)
        pure = PurePosixPath(name)
        if pure.is_absolute() or ".." in pure.parts:
            raise StudioError(f"{name[:60]}: the studio opens only files inside its folder "
                              f"({self.roots[0]})", 403)
        root = self.roots[0]
        try:
            path = (root / pure).resolve()
        except (OSError, RuntimeError, ValueError):
            raise StudioError(f"{name[:60]}: not a path the studio can open", 403) from None
        if not any(path == r or path.is_relative_to(r) for r in self.roots):
            raise StudioError(f"{name[:60]}: it leads outside the studio's folder "
                              f"({root}), which the studio does not open", 403)
        return path

    def shown(self, path: Path) -> str:
        """An absolute path inside the root → the name the client uses."""
        for root in self.roots:
            if path.is_relative_to(root):
                return path.relative_to(root).as_posix()
        raise StudioError(f"{path} is outside the studio's folder", 403)

    def new_path(self, name: Any, suffix: str = ".yaml") -> Path:
        """Where a new file called `name` (``my-game`` or ``my-game.yaml``) goes: in the
        root, lower-case words and dashes only; StudioError when it is not such a name
        or the file exists."""
        if not isinstance(name, str):
            raise StudioError("name the new file: lower-case letters, digits and dashes")
        stem = name.strip().removesuffix(suffix).removesuffix(".yaml")
        if not NEW_NAME.fullmatch(stem) or len(stem) > 80:
            raise StudioError(f"'{name[:60]}' is not a name for a new file: use lower-case "
                              "letters, digits and dashes (e.g. my-game)")
        path = self.roots[0] / f"{stem}{suffix}"
        if path.exists():
            raise StudioError(f"{path.name} already exists: choose another name", 409)
        return path

    # -- reading ---------------------------------------------------------------------------
    def read_disk(self, path: Path) -> str:
        try:
            if path.stat().st_size > 2 * 1024 * 1024:
                raise StudioError(f"{self.shown(path)} is larger than 2 MB, more than the "
                                  "studio opens", 413)
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise StudioError(f"{self.shown(path)}: no such file", 404) from None
        except IsADirectoryError:
            raise StudioError(f"{self.shown(path)} is a folder, not a file") from None
        except UnicodeDecodeError:
            raise StudioError(f"{self.shown(path)} is not UTF-8 text") from None
        except OSError as exc:
            raise StudioError(f"cannot read {self.shown(path)}: {exc.strerror or exc}"
                              ) from None

    def text(self, name: str) -> str:
        """The draft of the file if the editor has one, else the file on disk."""
        path = self.resolve(name)
        draft = self.drafts.get(path)
        return draft if draft is not None else self.read_disk(path)

    def loaded(self, name: str) -> LoadedRuleset:
        """The ruleset from `text(name)`, loaded with its real path (so `extends:` and
        relative paths work); RulesetError when it is not valid."""
        path = self.resolve(name)
        return load_ruleset_text(self.text(name), str(path))

    def tests_path(self, ruleset_name: str) -> Path:
        """The tests file beside a ruleset (``my-game.tests.yaml``)."""
        return tests_file_for(self.resolve(ruleset_name))

    def mtime(self, path: Path) -> float | None:
        try:
            return path.stat().st_mtime
        except OSError:
            return None

    # -- writing ---------------------------------------------------------------------------
    def write(self, name: str, text: Any, mtime: Any = None) -> float:
        """Write a file atomically; with `mtime`, only if the disk's is still that one
        (409 otherwise: someone else changed it). The draft goes: the disk holds it now.
        Returns the new mtime."""
        if not isinstance(text, str):
            raise StudioError("'text' must be the file's text (a string)")
        path = self.resolve(name)
        if path.suffix not in (".yaml", ".yml"):
            raise StudioError(f"{name[:60]}: the studio writes only YAML files (.yaml)", 403)
        now = self.mtime(path)
        if now is None:
            stem = path.name.removesuffix(".yaml").removesuffix(".tests")
            if not path.name.endswith(".yaml") or not NEW_NAME.fullmatch(stem):
                raise StudioError(f"'{path.name[:60]}' is not a name for a new file: use "
                                  "lower-case letters, digits and dashes (e.g. my-game.yaml)")
            if not path.parent.is_dir():
                raise StudioError(f"{name[:60]}: its folder does not exist", 404)
        if mtime is not None:
            if not isinstance(mtime, int | float) or isinstance(mtime, bool):
                raise StudioError("'mtime' must be the number /api/file gave")
            if now != mtime:
                raise StudioError(f"{self.shown(path)} changed on disk since it was opened: "
                                  "reload it (or save under another name)", 409)
        self.write_path(path, text)
        self.drafts.pop(path, None)
        return self.mtime(path) or 0.0

    def write_path(self, path: Path, text: str) -> None:
        """Replace a file's text all at once (a temporary file beside it, then
        os.replace): a reader sees the old text or the new, never half."""
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            with contextlib.suppress(OSError):
                os.chmod(temp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
            os.replace(temp, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise StudioError(f"cannot write {self.shown(path)}: {exc.strerror or exc}",
                              500) from None

    # -- listing ---------------------------------------------------------------------------
    def files(self) -> list[dict[str, Any]]:
        """The YAML files under the root (hidden folders and virtual environments left
        out), each with its kind and, for a ruleset, its title."""
        out: list[dict[str, Any]] = []
        root = self.roots[0]
        for folder, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
            for file in sorted(names):
                if file.startswith(".") or not file.endswith((".yaml", ".yml")):
                    continue
                path = Path(folder) / file
                try:
                    if not path.resolve().is_relative_to(root):
                        continue  # a symlink leading out is not offered
                    with path.open(encoding="utf-8", errors="replace") as f:
                        head = f.read(LISTED_BYTES)
                except OSError:
                    continue
                entry: dict[str, Any] = {"path": self.shown(path), "kind": _kind(path, head)}
                if entry["kind"] == "ruleset":
                    title = _title(head)
                    if title:
                        entry["title"] = title
                out.append(entry)
                if len(out) >= MAX_FILES:
                    return out
        return out


# -- new files ---------------------------------------------------------------------------------

def _words(stem: str) -> str:
    return " ".join(w.capitalize() for w in stem.split("-") if w) or stem


def _create(ws: Workspace, name: Any, ruleset: str, tests: str) -> dict[str, str]:
    """Write a new ruleset and its tests file (neither may exist yet)."""
    path = ws.new_path(name)
    tests_path = tests_file_for(path)
    if tests_path.exists():
        raise StudioError(f"{tests_path.name} already exists: choose another name", 409)
    ws.write_path(path, ruleset)
    ws.write_path(tests_path, tests)
    return {"path": ws.shown(path), "tests_path": ws.shown(tests_path)}


def new_game(ws: Workspace, template: Any, name: Any) -> dict[str, str]:
    """POST /api/new: a new game `name` from a template, with its tests file."""
    from interpreter.studio.templates import TEMPLATES

    found = next((t for t in TEMPLATES if t.id == template), None)
    if found is None:
        raise StudioError(f"there is no template '{str(template)[:40]}' (templates: "
                          f"{', '.join(t.id for t in TEMPLATES)})")
    stem = ws.new_path(name).name.removesuffix(".yaml")
    return _create(ws, name, found.ruleset_text(stem), found.tests_text(stem))


def new_variant(ws: Workspace, base: Any, name: Any) -> dict[str, str]:
    """POST /api/variant: a variant `name` of a bundled game, changing nothing yet
    (`extends: BASE`), and an empty tests file."""
    from interpreter.errors import did_you_mean
    from interpreter.load.catalog import bundled_names

    names = bundled_names()
    if not isinstance(base, str) or base not in names:
        hint = did_you_mean(str(base), names) if isinstance(base, str) else None
        raise StudioError(f"'{str(base)[:40]}' is not a bundled game"
                          + (f"; {hint}" if hint else ""))
    stem = ws.new_path(name).name.removesuffix(".yaml")
    if stem == base:
        raise StudioError(f"a variant needs a name of its own, not '{base}'")
    ruleset = (f"# A variant of {base}: write what it changes under `change:` (see "
               f"`tabletop parts {base}`\n# for every part a variant can change).\n"
               f"tabletop: 1\nextends: {base}\n\ngame:\n  name: {stem}\n"
               f"  title: {json.dumps(_words(stem))}\n")
    tests = (f"# Scenario tests for {stem}. Run them with `tabletop test {stem}.yaml`.\n"
             f"ruleset: {stem}.yaml\n\ncases: []\n")
    return _create(ws, name, ruleset, tests)
