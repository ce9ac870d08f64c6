"""The `tabletop` commands, each named by the module and function that implement it, so
that a command's module (and the engine behind it) is imported only when it runs.

`tabletop --help` lists the commands from the one-line summaries here, without
importing any of them (tests/test_startup.py checks each summary against its command's
docstring, so the two cannot drift)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LazyCommand:
    """Where a command lives, and the first line of its help for the command list."""

    module: str
    function: str
    summary: str

    def load(self) -> Callable[..., Any]:
        return getattr(importlib.import_module(self.module), self.function)


COMMANDS: dict[str, LazyCommand] = {
    "list": LazyCommand("interpreter.cli.info", "list_games",
                        "List the bundled games, one line each, their variants indented "
                        "under them."),
    "validate": LazyCommand("interpreter.cli.info", "validate",
                            "Check rulesets: load and compile each one with its default "
                            "options."),
    "schema": LazyCommand("interpreter.cli.info", "schema",
                          "Print the JSON Schema of the ruleset language, for editors."),
    "parts": LazyCommand("interpreter.cli.parts_command", "parts",
                         "List every part of a game that a variant can change, with its "
                         "English."),
    "play": LazyCommand("interpreter.cli.play_command", "play",
                        "Play a game at this terminal against computer players (or with "
                        "friends)."),
    "run": LazyCommand("interpreter.cli.batch", "run",
                       "Play one game without a person and print how it ended."),
    "simulate": LazyCommand("interpreter.cli.batch", "simulate",
                            "Play many games between computer players and report the "
                            "balance."),
    "analyze": LazyCommand("interpreter.cli.analyze_command", "analyze",
                           "Is the game balanced? Play many games and report per seat, "
                           "variant and matchup."),
    "test": LazyCommand("interpreter.cli.batch", "test",
                        "Run scenario tests: named positions and moves with what must "
                        "hold afterwards."),
    "compile": LazyCommand("interpreter.cli.compile_command", "compile_source",
                           "Show the Python source generated from a ruleset's expressions "
                           "and option lists."),
    "serve": LazyCommand("interpreter.serve.command", "serve",
                         "Play in the browser: a local web server for games against "
                         "friends and computers."),
    "studio": LazyCommand("interpreter.studio.command", "studio",
                          "Edit, see, play, test and balance a ruleset in one browser page."),
    "docs": LazyCommand("interpreter.cli.docs_command", "docs",
                        "Write the rulebooks (Markdown, SVG diagrams, printable HTML) from "
                        "the rulesets."),
}
"""Every command, in the order `tabletop --help` lists them."""
