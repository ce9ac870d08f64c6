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

import itertools
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
    value_size: int = 1_000_000


DEFAULT_LIMITS = Limits()


_SEQUENCE_TYPES = (list, tuple)


def value_size(value: Any, limit: int) -> int:
    """The size of `value` as if nothing in it were shared, which is what saving,
    showing or comparing it goes through: one for each value, one more for each
    character of a text, and a list is one and the sizes of its elements. Past `limit`,
    some number above it (see `measure`)."""
    return measure(value, limit)[0]


def measure(value: Any, limit: int) -> tuple[int, int]:
    """`value_size`, and the elements gone through to find it.

    A value may share its parts (`[l, l]` holds `l` twice, at the cost of one
    reference), so its size can be far beyond what it takes in memory; walking it
    element by element would then take as long as its size. So a list of lists of
    lists is measured depth first, each distinct list once (by identity, for this one
    measure), and counting stops as soon as the size passes `limit`: measuring goes
    through no more than about `limit` elements, however the value shares its parts.
    The usual values (a list of numbers, a list of short lists) are measured by
    Python's built-ins."""
    kind = type(value)
    if kind is str:
        return 1 + len(value), 0
    if kind is not list and kind is not tuple:
        return 1, 0
    n = len(value)
    kinds = set(map(type, value))
    if list not in kinds and tuple not in kinds:
        if str not in kinds:
            return 1 + n, n  # the common case: numbers, pieces, places
        return 1 + n + sum(len(x) for x in value if type(x) is str), n
    if kinds <= SEQUENCE_KINDS:  # a list of lists, the next usual case
        inner = sum(map(len, value))  # every occurrence: what it would be unshared
        if 1 + n + inner > limit:
            return 1 + n + inner, n
        # (at most `limit` elements to go through, even if the lists are shared)
        inner_kinds = set(map(type, itertools.chain.from_iterable(value)))
        if SEQUENCE_KINDS.isdisjoint(inner_kinds):
            size = 1 + n + inner
            if str in inner_kinds:
                size += sum(len(x) for x in itertools.chain.from_iterable(value)
                            if type(x) is str)
            return size, n + inner
    return _measure(value, limit, 1, 0, 1, limit)


SEQUENCE_KINDS = frozenset(_SEQUENCE_TYPES)
"""What makes a list more than its length to go through: the lists in it."""
NOT_PLAIN = frozenset((list, tuple, str))
"""What makes a list more than its length to keep: lists and texts in it."""


def shown_size(value: Any, limit: int) -> int:
    """At least how many characters a template writes for `value` (a list's elements
    joined by ", ", as play.game.show_value writes them), counted like `value_size`:
    each distinct list once, stopping past `limit`. So a text too long to build is
    refused before it is built."""
    kind = type(value)
    if kind is str:
        return len(value)
    if kind is not list and kind is not tuple:
        return 1
    return _measure(value, limit, 0, 2, 0, None)[0]


def _measure(root: list | tuple, limit: int, own: int, between: int, text: int,
             most: int | None) -> tuple[int, int]:
    """The size of a list as if unshared, and the elements gone through, depth first,
    each distinct list once: a list is `own` plus `between` for each gap between its
    elements plus its elements' sizes; a text is `text` plus its length; anything else
    is one. Over `limit`: some number above it. With `most` (when the size is at least
    the elements gone through), it also stops once it has gone through more elements
    than that."""
    sizes: dict[int, int] = {}
    seen = 0
    most = most if most is not None else -1
    stack = [root]
    while stack:
        node = stack[-1]
        key = id(node)
        if key in sizes:
            stack.pop()
            continue
        inner = [x for x in node if type(x) in _SEQUENCE_TYPES and id(x) not in sizes]
        if inner:
            stack.extend(inner)
            if len(stack) > limit:  # (a list inside itself would never end: no value is)
                return limit + 1, seen
            continue
        stack.pop()
        size = own + between * max(len(node) - 1, 0)
        for x in node:
            kind = type(x)
            if kind is list or kind is tuple:
                size += sizes[id(x)]
            elif kind is str:
                size += text + len(x)
            else:
                size += 1
        seen += len(node)
        if size > limit or seen > most >= 0:
            return max(size, limit + 1), seen
        sizes[key] = size
    return sizes[id(root)], seen


def walk_steps(env: Any, value: list | tuple) -> int:
    """What going through a list in full costs, as comparing it with another list,
    sorting or hashing it does: its length when it holds no list, else its size as if
    nothing in it were shared (two references to one long list are gone through twice),
    measured only as far as the steps left allow (past them, more than are left)."""
    if SEQUENCE_KINDS.isdisjoint(map(type, value)):
        return len(value)
    return measure(value, max(env.step_limit - env.steps, 0))[0]


def charge_walk(env: Any, value: list | tuple) -> None:
    """Charge `walk_steps` to `env`."""
    env.steps += walk_steps(env, value)
    if env.steps > env.step_limit:
        overspent(env)


def kept(env: Any, value: Any, limit: int, what: str) -> Any:
    """`value`, unless its size (`value_size`) is over budgets.value_size: a value a
    variable or a local name keeps is saved, shown and compared, and a few references
    to one list can stand for billions of values. Measuring it is charged by the
    elements it goes through."""
    size, work = measure(value, limit)
    env.steps += work
    if size > limit:
        raise BudgetError("value_size", f"{what}: the value would be larger than "
                                        f"{limit:,} values and characters if nothing in it "
                                        "were shared")
    if env.steps > env.step_limit:
        overspent(env)
    return value


def option_values(env: Any, value: Any, limit: int, what: str) -> Any:
    """`value`, an option's `for` list or `let` value: refused like a local name's
    (`kept`) when it holds lists (an option's values become local names of the turn,
    saved with a paused game); a list of plain values, the usual one, is only looked
    at, and not charged, so that listing options costs what it did."""
    if type(value) is list and not SEQUENCE_KINDS.isdisjoint(map(type, value)):
        kept(env, value, limit, what)
    return value


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
