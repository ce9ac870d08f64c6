"""Tabletop: a declarative rules interpreter for tabletop games.

A ruleset goes ``load`` (YAML with positions, schema) → ``assemble`` (names,
expressions, every primitive's program, with the ``compile`` library) → a ``play`` Game
that runs on the ``run`` library → ``agents`` / ``simulate`` / ``cli`` / ``serve``.
The packages import one way, each only from the layers below it: pyproject.toml
[tool.importlinter] lists them, and README "Layout" says why.
"""

__version__ = "0.1.0"
