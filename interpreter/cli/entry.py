"""The `tabletop` console script's entry point, kept free of heavy imports.

Starting tabletop imports Typer and the app (each command imports the engine when it
runs), which can take a while on a busy machine; a Ctrl-C in that time must end the
command quietly (exit 130, as a KeyboardInterrupt during a command does), not with a
traceback of the import."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from interpreter.cli.app import main as run
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        sys.exit(130)
    run()
