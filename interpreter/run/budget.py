"""Counting the work the rules do, so that a runaway stops with a message, not a hang.

Effects counted one by one cannot bound the work of a single expression
(``[a for a in range(10**5) for b in range(10**5)]`` is one step of one effect), so the
expression machinery counts too: every element a comprehension, an option listing or a
built-in goes through, every character of text a template or a ``say`` writes. The
count lives on the evaluation environment; a machine run (one decision's worth of
rules) may spend ``steps_per_decision`` and a whole game ``steps_per_game``. Counting
is deterministic, so the same game stops at the same place in any process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NoReturn

from interpreter.errors import BudgetError, RuleError


def spend(env: Any, n: int) -> None:
    """Charge `n` steps to `env` (the hot paths inline these two lines)."""
    env.steps += n
    if env.steps > env.step_limit:
        overspent(env)


def overspent(env: Any) -> NoReturn:
    """Raise the error of whichever step budget `env` ran out of."""
    budget = env.step_budget
    budgets = env.game.budgets
    if budget == "steps_per_game":
        raise BudgetError(budget, f"the game went past {budgets.steps_per_game:,} steps in "
                                  "all; the rules may never end")
    if budget == "steps_for_setup":
        raise BudgetError(budget, f"the set-up ran more than {budgets.steps_for_setup:,} "
                                  "steps before the first decision: a loop does not end, or "
                                  "an expression goes through too many values")
    raise BudgetError(budget, f"the rules ran more than {budgets.steps_per_decision:,} steps "
                              "without needing a decision: a loop does not end, or an "
                              "expression goes through too many values")


def too_long(budget: str, what: str, size: int, limit: int) -> NoReturn:
    raise BudgetError(budget, f"{what} of {size:,} would be longer than {limit:,}")


def too_large(value: Any, limit: int) -> NoReturn:
    raise BudgetError("largest_number", f"the number {_short(value)} is larger than "
                                        f"{limit:,} (or smaller than -{limit:,})")


def _short(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    digits = len(str(abs(value))) if abs(value) < 10 ** 60 else None
    return f"{value}" if digits is not None else "with more than 60 digits"


def describe(value: Any) -> str:
    """What a value is, in the designer's words, for messages: never a Python type, and
    never the whole of a value that may be huge."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value}" if abs(value) < 10 ** 15 else "a very large number"
    if isinstance(value, str):
        return f"the text {value[:20]!r}" + ("…" if len(value) > 20 else "")
    if isinstance(value, list | tuple):
        return f"a list of {len(value)}"
    label = repr(value)
    if label.startswith(("zone ", "variable ")):
        return label
    return "a value"


@dataclass(frozen=True)
class Limits:
    """A ruleset's size budgets, fixed when it compiles (closures capture them)."""

    list_length: int = 100_000
    text_length: int = 100_000
    largest_number: int = 2 ** 53 - 1


DEFAULT_LIMITS = Limits()


DEFAULT_LIMITS = Limits()


def loop_items(env: Any, items: Any, per: int = 1, what: str = "a comprehension") -> Any:
    """What a loop goes through (a list, or nothing), charged by its length times what
    each element costs."""
    if items is None:
        return ()
    if isinstance(items, list | tuple | range | str):
        env.steps += len(items) * per
        if env.steps > env.step_limit:
            overspent(env)
        return items
    raise RuleError(f"{what} needs a list to go through, got {describe(items)}")
