"""Errors that speak to people: designers, players and tools.

Every error a user can cause is one of these, so the CLI can print it and exit 1
instead of showing a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file, 1-based like editors count."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(slots=True)
class Diagnostic:
    """One problem in a ruleset (or scenario file), with where and what was expected."""

    message: str
    location: Location | None = None
    expected: str | None = None
    hint: str | None = None
    source_line: str | None = None

    def render(self) -> str:
        where = f"{self.location}: " if self.location else ""
        lines = [f"{where}error: {self.message}"]
        if self.source_line is not None and self.location is not None:
            text = self.source_line.rstrip("\n")
            lines.append(f"    {text}")
            lines.append("    " + " " * max(self.location.col - 1, 0) + "^")
        if self.expected:
            lines.append(f"  expected: {self.expected}")
        if self.hint:
            lines.append(f"  {self.hint}")
        return "\n".join(lines)


class TabletopError(Exception):
    """Base of every error that is the user's to fix; the CLI prints it and exits 1."""


@dataclass
class RulesetError(TabletopError):
    """A ruleset (or test file) that cannot be loaded; carries every problem found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics)


class RuleError(TabletopError):
    """The rules themselves went wrong while running (a budget ran out, a bad value).

    It is raised deep inside an expression or effect, where nothing is known of the
    ruleset's text; the layers it passes through on its way out add where it happened
    (``at``: the definition, option, effect or end rule, innermost first) and when
    (``during``: how many decisions had been made), so the designer reads
    ``FILE:LINE:COL: error: ...`` like any other mistake in the ruleset.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.trace: list[tuple[Location, str, str | None]] = []
        """(where, what stood there, that line of the file), innermost first."""
        self.decisions: int | None = None
        """Decisions made in the game before it happened (0: during the set-up)."""
        self.variant: tuple[Location, str] | None = None
        """For a game that is a variant: where it names its base, and the base's name."""

    def at(self, location: Location | None, what: str, line: str | None = None) -> RuleError:
        """Record a place the error passed through (ignored when already recorded)."""
        if location is not None and all(location != loc for loc, _, _ in self.trace):
            self.trace.append((location, what, line))
        return self

    def during(self, decisions: int, variant: tuple[Location, str] | None = None
               ) -> RuleError:
        if self.decisions is None:
            self.decisions = decisions
        if self.variant is None:
            self.variant = variant
        return self

    @property
    def location(self) -> Location | None:
        return self.trace[0][0] if self.trace else None

    def __str__(self) -> str:
        if not self.trace:
            text = self.message
            if self.decisions is not None:
                text += f" ({_when(self.decisions)})"
            return text
        loc, what, line = self.trace[0]
        lines = [f"{loc}: error: {self.message}"]
        if line is not None:
            lines.append(f"    {line.rstrip()}")
            lines.append("    " + " " * max(loc.col - 1, 0) + "^")
        lines.append(f"  in {what}")
        lines.extend(f"  in {outer} at {where}" for where, outer, _ in self.trace[1:])
        if self.decisions is not None:
            lines.append(f"  {_when(self.decisions)}")
        if self.variant is not None and self.variant[0].path != loc.path:
            where, base = self.variant
            lines.append(f"  in the variant of {base} at {where}: its changes may be the "
                         "cause")
        return "\n".join(lines)


def _when(decisions: int) -> str:
    if decisions == 0:
        return "during the set-up or before the first decision"
    return f"while carrying out decision {decisions}"


class BudgetError(RuleError):
    """A declared budget ran out: the rules loop, or ask for more than is sensible."""

    def __init__(self, budget: str, message: str) -> None:
        super().__init__(f"{message} (budgets.{budget}; raise it in the ruleset's "
                         f"'budgets' if this is wanted)")
        self.budget = budget


class IllegalMove(TabletopError):
    """A decision that is not among the legal options."""


class SaveFileError(TabletopError):
    """A saved game that cannot be loaded or does not match its ruleset."""


class UsageError(TabletopError):
    """A bad command-line argument (unknown game, malformed option, ...)."""


def did_you_mean(word: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint for a misspelt name, or None when nothing is close."""
    matches = difflib.get_close_matches(str(word), sorted(set(candidates)), n=3, cutoff=0.6)
    if not matches:
        return None
    return "did you mean " + " or ".join(f"'{m}'" for m in matches) + "?"
