"""Schema building blocks that keep their source position through pydantic.

``Expr``, ``Template`` and ``Name`` hold ruleset text that the compiler resolves
later; they carry the YAML location so a bad name is reported where it was written.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from pydantic import (
    BaseModel,
    ConfigDict,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from interpreter.errors import Location


class _LocatedText:
    """Text from the ruleset plus where it was written."""

    __slots__ = ("loc", "text")
    kind: ClassVar[str] = "text"
    json_types: ClassVar[tuple[str, ...]] = ("string",)
    description: ClassVar[str] = ""

    def __init__(self, text: str, loc: Location | None = None) -> None:
        self.text = text
        self.loc = loc

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _LocatedText) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    @classmethod
    def _validate(cls, value: Any) -> _LocatedText:
        if isinstance(value, cls):
            return value
        if isinstance(value, bool) and "boolean" in cls.json_types:
            return cls("true" if value else "false", None)
        if isinstance(value, int | float) and not isinstance(value, bool) and (
            "number" in cls.json_types
        ):
            if isinstance(value, float) and not math.isfinite(value):
                raise ValueError("a number here must be finite (not .nan or .inf)")
            return cls(repr(value), getattr(value, "loc", None))
        if isinstance(value, str):
            return cls(str(value), getattr(value, "loc", None))
        raise ValueError(f"expected {cls.kind}")

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls._validate,
            serialization=core_schema.plain_serializer_function_ser_schema(str),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        types: Any = cls.json_types[0] if len(cls.json_types) == 1 else cls.json_types
        out: dict[str, Any] = {"type": types}
        if cls.description:
            out["description"] = cls.description
        return out


class Expr(_LocatedText):
    """An expression: a condition or computed value, compiled once at load."""

    kind = "an expression (text, a number or true/false)"
    json_types = ("string", "number", "boolean")
    description = "An expression, e.g. `top(c).size == piece.size` or `count(captured[seat]) > 3`."


class Template(_LocatedText):
    """Text with `{expression}` parts, for notations, labels and messages."""

    kind = "a text template"
    json_types = ("string",)
    description = "Text in which `{expression}` parts are filled in, e.g. `{cellname(c)}-{d}`."


class Name(_LocatedText):
    """A reference to something the ruleset declares (a zone, a variable, a procedure)."""

    kind = "a name"
    json_types = ("string",)
    description = "The id of something declared elsewhere in the ruleset."


class Node(BaseModel):
    """Base of every ruleset model: unknown keys are errors, and the position is kept."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=False,
                              defer_build=True)
    """`defer_build`: a model's validator is built when first used, not at import, so
    commands that read no ruleset (`--help`, `list`) do not pay for the whole language's
    schema, and a validation builds the ruleset's once instead of each primitive's."""

    @model_validator(mode="wrap")
    @classmethod
    def _keep_location(cls, data: Any, handler: Any) -> Any:
        model = handler(data)
        loc = getattr(data, "loc", None)
        if loc is not None:
            object.__setattr__(model, "__tabletop_loc__", loc)
            if getattr(data, "key_locs", None):
                object.__setattr__(model, "__tabletop_key_locs__", data.key_locs)
                _locate_numbers(model, data)
        return model

    def key_loc(self, key: str) -> Location | None:
        """Where `key` is written in this mapping (or the mapping's own position)."""
        locs = self.__dict__.get("__tabletop_key_locs__") or getattr(
            self, "__tabletop_key_locs__", None) or {}
        return locs.get(key) or self.loc

    @property
    def loc(self) -> Location | None:
        return self.__dict__.get("__tabletop_loc__") or getattr(self, "__tabletop_loc__", None)


def _locate_numbers(model: BaseModel, data: Any) -> None:
    """An expression written as a plain number (`count: 3`, `let: {n: 9}`, `rank: [1]`)
    has no position of its own (YAML numbers are not located): give it its key's or
    list item's, so errors about it are located."""
    key_locs = data.key_locs
    for name, info in type(model).model_fields.items():
        key = info.alias or name
        value = model.__dict__.get(name)
        if isinstance(value, _LocatedText):
            if value.loc is None:
                value.loc = key_locs.get(key)
        elif isinstance(value, dict) and value:
            raw = data.get(key)
            locs = getattr(raw, "key_locs", None) or {}
            for k, item in value.items():
                if isinstance(item, _LocatedText) and item.loc is None:
                    item.loc = locs.get(k) or key_locs.get(key)
        elif isinstance(value, list) and value:
            raw = data.get(key)
            locs = getattr(raw, "item_locs", None) or []
            for i, item in enumerate(value):
                if isinstance(item, _LocatedText) and item.loc is None:
                    item.loc = locs[i] if i < len(locs) else key_locs.get(key)
