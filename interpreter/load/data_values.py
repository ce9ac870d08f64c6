"""A piece's data values (numbers, texts, lists of them) as keys, as the game keeps them,
and as players read them; apart from the schema, so the run layer reads them without
loading the schema's primitives."""

from __future__ import annotations

from typing import Any


def frozen_value(value: Any) -> Any:
    """A piece's values as a key (its kind, a lookup by values): lists become tuples. The
    game keeps the lists themselves, as the language has lists; nothing changes a value in
    place, and a view shows copies."""
    if isinstance(value, list | tuple):
        return tuple(frozen_value(v) for v in value)
    return value


def plain_data(value: Any) -> Any:
    """A piece's data as the game keeps it: plain lists (not the reader's located ones),
    lists inside lists too."""
    if isinstance(value, list | tuple):
        return [plain_data(v) for v in value]
    return value


def data_text(value: Any) -> str:
    """A value as players read it: a list as `[0, 2]`, lists inside lists too."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(data_text(v) for v in value) + "]"
    return str(value)


__all__ = ["data_text", "frozen_value", "plain_data"]
