"""Tabletop: a declarative rules interpreter for tabletop games.

The pipeline reads top to bottom in the package layout:
``load`` (YAML with positions, schema) → ``compile`` (names, expressions, program)
→ ``run`` (state, machine, views) → ``agents`` / ``cli`` / ``scenarios``.
"""

__version__ = "0.1.0"
