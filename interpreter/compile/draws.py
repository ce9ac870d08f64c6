"""What a ruleset may draw at random, read from the validated ruleset.

Every draw of the engine goes through `rng.below`: a shuffle (`shuffle`, `shuffled`),
a deal (`arrange`), a die (`roll`, `random_int`). `ruleset_draws` lists each place in
the rules that may draw, with the most outcomes one of its draws can ask when the rules
alone say it (`roll(6)`: 6), so that a game that draws nothing is known to be
deterministic, and a game's chance nodes (the OpenSpiel adapter's) have a bound. It
reads the ruleset without compiling it (registering every bundled game with OpenSpiel
costs a fraction of compiling them): the functions that draw are the compiler's own
(`Function.random`), which it allows only in effects, so every call of one written in
the rules is a draw.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from interpreter.compile import expressions as ex
from interpreter.located import Expr

SHUFFLE = "shuffle"
"""A `shuffle` effect: its draws ask at most as many outcomes as the game has pieces."""
DEAL = "deal"
"""An `arrange` without a condition: at most as many outcomes as the game has places."""
CONDITIONAL_DEAL = "deal under a condition"
"""An `arrange` with `where`: it may deal again any number of times (see compile.deal)."""


@dataclass(frozen=True)
class Draw:
    """A place in the rules that may draw at random."""

    what: str
    """The effect or function that draws (`shuffle`, `roll`, ...)."""
    most: int | None = None
    """The most outcomes one of its draws asks, when the rules alone say it."""


SPLIT_BASE = 256
"""Chance nodes of a game whose draws the rules do not bound ask at most this many
outcomes: a larger draw is made of several (see rng.Scripted)."""


def ruleset_draws(model: BaseModel, functions: Mapping[str, Any]) -> list[Draw]:
    """Every place in a validated ruleset (`load`'s model, variant merged) that may draw
    at random: its `shuffle` and `arrange` effects, and its expressions' calls of the
    functions that draw (`functions`: the compiler's)."""
    out: list[Draw] = []
    for name, value in model_parts(model):
        if name == "define":
            continue
        if isinstance(value, BaseModel):
            keyword = getattr(type(value), "keyword", None)
            if keyword == "shuffle":
                out.append(Draw(SHUFFLE))
            elif keyword == "arrange":
                out.append(Draw(CONDITIONAL_DEAL if getattr(value, "where", None) is not None
                                else DEAL))
        elif isinstance(value, Expr):
            out += drawn_in(value.text, functions)
    return out


def model_parts(value: Any, name: str = "") -> Iterator[tuple[str, Any]]:
    """Every model and expression inside `value` (depth first), with the name of the
    top-level field it lies under."""
    if isinstance(value, BaseModel):
        yield name, value
        for field_name in type(value).model_fields:
            yield from model_parts(getattr(value, field_name), name or field_name)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from model_parts(item, name)
    elif isinstance(value, dict):
        for item in value.values():
            yield from model_parts(item, name)
    else:
        yield name, value


def most_outcomes(draws: list[Draw], pieces: int, places: int) -> int:
    """The most outcomes one chance node of a game asks (0: it draws nothing): a
    shuffle asks at most the number of pieces, a deal without a condition the number of
    places, a call with its size written out that size; any other draw (a deal under a
    condition, `roll(sides)`) is split into draws of at most `SPLIT_BASE`."""
    known: list[int] = []
    for draw in draws:
        if draw.what == SHUFFLE:
            known.append(pieces)
        elif draw.what == DEAL:
            known.append(places)
        elif draw.most is not None:
            known.append(draw.most)
        else:
            known.append(SPLIT_BASE)
    return max(known, default=0)


def drawn_in(text: str, functions: Mapping[str, Any]) -> list[Draw]:
    """The draws an effect's expression may make: its calls of the functions that draw
    (a definition cannot draw: the compiler refuses it)."""
    try:
        tree = ex.parse(text)
    except ex.ExpressionError:
        return []  # (reported where the expression is compiled)
    return [Draw(node.func.id, _most(node.func.id, node.args)) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and getattr(functions.get(node.func.id), "random", False)]


def _most(name: str, args: list[ast.expr]) -> int | None:
    """The most outcomes one draw of this call asks, when its arguments are written out:
    `roll(6)`, `random_int(2, 12)`, `shuffled([a, b, c])`."""
    values = [a.value if isinstance(a, ast.Constant) and type(a.value) is int else None
              for a in args]
    if name == "roll" and len(values) == 1 and values[0] is not None:
        return max(values[0], 1)
    if name == "random_int" and len(values) == 2 and None not in values:
        lo, hi = values
        assert lo is not None and hi is not None
        return max(hi - lo + 1, 1)
    if name == "shuffled" and len(args) == 1 and isinstance(args[0], ast.List | ast.Tuple):
        return max(len(args[0].elts), 1)
    return None
