"""The effect primitives of the language.

Each primitive is one class that owns four things: its schema (the pydantic fields),
its execution (``compile`` emits machine instructions), its English sentence
(``english``, used by the rulebook) and its tests (``tests/test_primitives_*.py``).
A ruleset writes an effect as a mapping whose first key is the primitive's keyword::

    - move: top(origin)
      to: captured[current]

A primitive module imports compile/ and run/ only inside the methods that need them
(``compile``, ``english``): load/ reads effects through the primitives' schemas, and so
stays free of the compiler and the runtime (tests/test_layers.py).
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

from pydantic import Discriminator, Tag

from interpreter.primitives.base import Primitive
from interpreter.primitives.chance import Arrange
from interpreter.primitives.decisions import Choose, OptionDef
from interpreter.primitives.dispatch import Match
from interpreter.primitives.ending import Eliminate, EndGame, Say
from interpreter.primitives.flow import Add, Call, ForEach, If, Let, Repeat, Retry, Set, While
from interpreter.primitives.pieces import Move, Show, Shuffle, Swap
from interpreter.primitives.stacks import Create, Destroy, Grow, Recolor, Shrink

PRIMITIVES: dict[str, type[Primitive]] = {
    cls.keyword: cls
    for cls in (Let, Set, Add, If, While, Repeat, ForEach, Call, Retry,
                Move, Swap, Shuffle, Show, Arrange, Choose, EndGame, Eliminate, Say,
                Shrink, Grow, Recolor, Destroy, Create, Match)
}


def effect_keyword(value: Any) -> str | None:
    """The primitive an effect mapping names: the first of its keys that is a keyword."""
    if isinstance(value, Primitive):
        return value.keyword
    if isinstance(value, dict):
        for key in value:
            if key in PRIMITIVES:
                return str(key)
        for key in value:
            return f"?{key}"
    return None


Effect = Annotated[
    Annotated[Let, Tag("let")]
    | Annotated[Set, Tag("set")]
    | Annotated[Add, Tag("add")]
    | Annotated[If, Tag("if")]
    | Annotated[While, Tag("while")]
    | Annotated[Repeat, Tag("repeat")]
    | Annotated[ForEach, Tag("for_each")]
    | Annotated[Call, Tag("call")]
    | Annotated[Retry, Tag("retry")]
    | Annotated[Move, Tag("move")]
    | Annotated[Swap, Tag("swap")]
    | Annotated[Shuffle, Tag("shuffle")]
    | Annotated[Show, Tag("show")]
    | Annotated[Arrange, Tag("arrange")]
    | Annotated[Choose, Tag("choose")]
    | Annotated[EndGame, Tag("end_game")]
    | Annotated[Eliminate, Tag("eliminate")]
    | Annotated[Say, Tag("say")]
    | Annotated[Shrink, Tag("shrink")]
    | Annotated[Grow, Tag("grow")]
    | Annotated[Recolor, Tag("recolor")]
    | Annotated[Destroy, Tag("destroy")]
    | Annotated[Create, Tag("create")]
    | Annotated[Match, Tag("match")],
    Discriminator(effect_keyword, custom_error_type="unknown_effect",
                  custom_error_message="unknown effect",
                  custom_error_context={"expected": ", ".join(sorted(PRIMITIVES))}),
]
Block = list[Effect]

# The recursive `Block` annotations resolve, now that every primitive exists, when a
# model is first used: the models are built then, not at import (`defer_build`, see
# interpreter.located.Node), as each primitive's module finds the names here.

for _cls in (*PRIMITIVES.values(), OptionDef):
    vars(sys.modules[_cls.__module__]).update(Block=Block, Effect=Effect)

__all__ = ["PRIMITIVES", "Block", "Effect", "OptionDef", "Primitive", "effect_keyword"]
