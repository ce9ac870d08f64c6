"""How the user started tabletop, so that every command a message prints is one they
can type as it is: plain `tabletop` only when that name runs this very script (the
quick start never puts it on PATH: there it is `.venv/bin/tabletop`)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys

PROGRAM = "tabletop"


def invocation(argv0: str | None = None) -> list[str]:
    """What to type for `tabletop`, as words: the name itself when it is on PATH and runs
    this script (or when tabletop was not started as a command at all, as in tests);
    else the path the user invoked, relative to the current folder when that is shorter;
    `python -m interpreter.cli` when run that way."""
    script = argv0 if argv0 is not None else (sys.argv[0] if sys.argv else "")
    name = os.path.basename(script)
    if name == "__main__.py" and os.path.basename(os.path.dirname(script)) == "cli":
        return [_typed(sys.executable, "python3", "python"), "-m", "interpreter.cli"]
    if os.path.splitext(name)[0] != PROGRAM:
        return [PROGRAM]
    return [_typed(script, PROGRAM)]


def command_prefix(argv0: str | None = None) -> str:
    """`invocation` as the shell reads them."""
    return shlex.join(invocation(argv0))


def _typed(path: str, *names: str) -> str:
    """How to type a program's path: a name on PATH that finds this same file (the path
    as given, not the file a link points to: a virtual environment's python is a link),
    else the shorter of the path relative to the current folder and the absolute one."""
    full = os.path.abspath(path)
    for name in names:
        found = shutil.which(name)
        if found is not None and os.path.abspath(found) == full:
            return name
    try:
        relative = os.path.relpath(full)
    except ValueError:  # another drive (Windows)
        relative = full
    if os.sep not in relative:
        relative = os.path.join(os.curdir, relative)
    return min(relative, full, key=len)


def runnable(*words: str) -> str:
    """A tabletop command line as this user can run it: `runnable("play", "--load", f)`."""
    return shlex.join([*invocation(), *words])
