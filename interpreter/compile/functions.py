"""The built-in functions of the expression language.

Each function is general (no game is named here) and carries an English phrase for
the rulebook. Implementations take the evaluation environment first; ``env.state``
and ``env.game`` give the position and the compiled ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compile.expressions import MAX_SEQUENCE, Function
from interpreter.errors import RuleError
from interpreter.run import rng as rngmod

DIRECTIONS: dict[str, tuple[int, int]] = {
    # (row change, column change); rows count upward like a chessboard's ranks.
    "n": (1, 0), "ne": (1, 1), "e": (0, 1), "se": (-1, 1),
    "s": (-1, 0), "sw": (-1, -1), "w": (0, -1), "nw": (1, -1),
}
DIRECTION_NAMES = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east",
                   "s": "south", "sw": "south-west", "w": "west", "nw": "north-west"}
ORTHOGONAL = ["n", "e", "s", "w"]
DIAGONAL = ["ne", "se", "sw", "nw"]
ALL_DIRECTIONS = ["n", "ne", "e", "se", "s", "sw", "w", "nw"]


def _site(env: Any, site: Any, fn: str) -> int:
    if type(site) is int and 0 <= site < len(env.state.sites):
        return site
    if isinstance(site, str):  # a place named in text, e.g. passed through a definition
        found = env.game.site_by_name.get(site)
        if found is not None:
            return found
    raise RuleError(f"{fn}() needs a place (a square, pile or slot), got {site!r}")


def _list(value: Any, fn: str) -> list:
    if isinstance(value, list | tuple | range):
        return list(value)
    raise RuleError(f"{fn}() needs a list, got {value!r}")


def f_top(env: Any, site: Any) -> int | None:
    if site is None:
        return None
    if type(site) is not int or site < 0:
        _site(env, site, "top")
    try:
        stack = env.state.sites[site]
    except IndexError:
        _site(env, site, "top")
        raise
    return stack[-1] if stack else None


def f_bottom(env: Any, site: Any) -> int | None:
    if site is None:
        return None
    stack = env.state.sites[_site(env, site, "bottom")]
    return stack[0] if stack else None


def f_stack(env: Any, site: Any) -> list[int]:
    if site is None:
        return []
    return list(env.state.sites[_site(env, site, "stack")])


def f_height(env: Any, site: Any) -> int:
    if site is None:
        return 0
    if type(site) is not int or site < 0:
        _site(env, site, "height")
    try:
        return len(env.state.sites[site])
    except IndexError:
        _site(env, site, "height")
        raise


def f_empty(env: Any, site: Any) -> bool:
    return f_height(env, site) == 0


def f_pieces(env: Any, where: Any) -> list[int]:
    """Pieces of a place, of every place of a zone, or of a list of places."""
    sites = env.state.sites
    if type(where) is int or isinstance(where, str):
        return list(sites[_site(env, where, "pieces")])
    zone = getattr(where, "sites_in_play", None)
    if zone is not None:
        out: list[int] = []
        for s in zone(env.state.players):
            out.extend(sites[s])
        return out
    if isinstance(where, list | tuple):
        out = []
        for s in where:
            out.extend(sites[_site(env, s, "pieces")])
        return out
    raise RuleError(f"pieces() needs a place, a zone or a list of places, got {where!r}")


def f_cells(env: Any, zone: Any) -> list[int]:
    sites_in_play = getattr(zone, "sites_in_play", None)
    if sites_in_play is None:
        if type(zone) is int:
            return [zone]
        raise RuleError(f"cells() needs a zone, got {zone!r}")
    return sites_in_play(env.state.players)


def f_above(env: Any, piece: Any) -> list[int]:
    """The pieces on top of a piece in its stack, nearest first."""
    if piece is None:
        return []
    stack = env.state.sites[f_place_of(env, piece)]
    return stack[stack.index(piece) + 1:]


def f_below(env: Any, piece: Any) -> list[int]:
    """The pieces under a piece in its stack, nearest first."""
    if piece is None:
        return []
    stack = env.state.sites[f_place_of(env, piece)]
    return stack[:stack.index(piece)][::-1]


def f_place_of(env: Any, piece: Any) -> int | None:
    if piece is None:
        return None
    try:
        return env.state.loc[piece]
    except (IndexError, TypeError):
        raise RuleError(f"place_of() needs a piece, got {piece!r}") from None


def f_zone_of(env: Any, x: Any) -> str | None:
    """The zone id of a place (or of the place a piece is in)."""
    if x is None:
        return None
    return env.game.site_zone[_site(env, x, "zone_of")].id


def f_zone_of_piece(env: Any, piece: Any) -> str | None:
    site = f_place_of(env, piece)
    return None if site is None else env.game.site_zone[site].id


def f_owner(env: Any, site: Any) -> int | None:
    if site is None:
        return None
    return env.game.site_owner[_site(env, site, "owner")]


def f_offset(env: Any, site: Any, direction: Any, distance: Any = 1) -> int | None:
    if site is None:
        return None
    return env.game.offset(_site(env, site, "offset"), direction, distance)


def f_neighbours(env: Any, site: Any, dirs: Any = None) -> list[int]:
    if site is None:
        return []
    s = _site(env, site, "neighbours")
    out = []
    for d in (ALL_DIRECTIONS if dirs is None else _list(dirs, "neighbours")):
        t = env.game.offset(s, d, 1)
        if t is not None:
            out.append(t)
    return out


def f_row(env: Any, site: Any) -> int | None:
    rc = env.game.site_rc[_site(env, site, "row")]
    return None if rc is None else rc[0] + 1


def f_col(env: Any, site: Any) -> int | None:
    rc = env.game.site_rc[_site(env, site, "col")]
    return None if rc is None else rc[1] + 1


def f_place(env: Any, name: Any) -> int:
    if type(name) is int:
        return _site(env, name, "place")
    site = env.game.site_by_name.get(str(name))
    if site is None:
        raise RuleError(f"no place is called {name!r}")
    return site


def f_place_name(env: Any, site: Any) -> str:
    if site is None:
        return "nowhere"
    return env.game.site_name[_site(env, site, "place_name")]


def f_piece_name(env: Any, piece: Any) -> str:
    if piece is None:
        return "nothing"
    try:
        return env.game.piece_names[piece]
    except (IndexError, TypeError):
        raise RuleError(f"piece_name() needs a piece, got {piece!r}") from None


def f_piece_code(env: Any, piece: Any) -> str:
    if piece is None:
        return "-"
    try:
        return env.game.piece_codes[piece]
    except (IndexError, TypeError):
        raise RuleError(f"piece_code() needs a piece, got {piece!r}") from None


def f_value_name(env: Any, value: Any) -> str:
    return env.game.value_names.get(value, str(value))


def f_dir_name(env: Any, d: Any) -> str:
    return DIRECTION_NAMES.get(d, str(d))


def f_seat_name(env: Any, seat: Any) -> str:
    return f"Player {seat}"


def f_next_seat(env: Any, seat: Any) -> int:
    return seat % env.state.players + 1


def f_count(env: Any, items: Any) -> int:
    if items is None:
        return 0
    if isinstance(items, list | tuple | str | range):
        return len(items)
    return len(f_pieces(env, items))


def f_sum(env: Any, items: Any) -> Any:
    total = 0
    for x in _list(items, "sum"):
        total += x
    return total


def _extreme(name: str, pick: Callable[..., Any]) -> Callable[..., Any]:
    def impl(env: Any, *args: Any) -> Any:
        values = _list(args[0], name) if len(args) == 1 else list(args)
        if not values:
            return None
        try:
            return pick(values)
        except TypeError:
            raise RuleError(f"{name}() cannot compare these values: {values!r}") from None
    return impl


def f_any(env: Any, items: Any) -> bool:
    return any(_list(items, "any"))


def f_all(env: Any, items: Any) -> bool:
    return all(_list(items, "all"))


def f_sorted(env: Any, items: Any) -> list:
    try:
        return sorted(_list(items, "sorted"))
    except TypeError:
        raise RuleError("sorted() cannot order values of different kinds") from None


def f_reversed(env: Any, items: Any) -> list:
    return list(reversed(_list(items, "reversed")))


def f_first(env: Any, items: Any) -> Any:
    seq = _list(items, "first")
    return seq[0] if seq else None


def f_last(env: Any, items: Any) -> Any:
    seq = _list(items, "last")
    return seq[-1] if seq else None


def f_distinct(env: Any, items: Any) -> list:
    out, seen = [], set()
    for x in _list(items, "distinct"):
        key = tuple(x) if isinstance(x, list) else x
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def f_one_of_each_kind(env: Any, items: Any) -> list[int]:
    """One piece per set of identical attributes: interchangeable pieces give one option."""
    kinds = env.game.piece_kind
    out, seen = [], set()
    for p in _list(items, "one_of_each_kind"):
        k = kinds[p]
        if k not in seen:
            seen.add(k)
            out.append(p)
    return out


def f_without(env: Any, items: Any, item: Any) -> list:
    seq = _list(items, "without")
    if isinstance(item, list | tuple):
        drop = list(item)
        return [x for x in seq if x not in drop]
    return [x for x in seq if x != item]


def f_join(env: Any, items: Any, sep: Any = ", ") -> str:
    return str(sep).join(str(x) for x in _list(items, "join"))


def f_str(env: Any, x: Any) -> str:
    return str(x)


def f_abs(env: Any, x: Any) -> Any:
    return abs(x)


def f_range(env: Any, a: Any, b: Any = None) -> list[int]:
    lo, hi = (0, a) if b is None else (a, b)
    if hi - lo > MAX_SEQUENCE:
        raise RuleError("range() is too long")
    return list(range(lo, hi))


def f_repeat(env: Any, item: Any, n: Any) -> list:
    if not isinstance(n, int) or n < 0 or n > MAX_SEQUENCE:
        raise RuleError(f"repeat() needs a count from 0 to {MAX_SEQUENCE}")
    return [item] * n


def f_shuffled(env: Any, items: Any) -> list:
    seq = _list(items, "shuffled")
    state = env.state
    r = state.rng
    for i in range(len(seq) - 1, 0, -1):
        r, j = rngmod.below(r, i + 1)
        seq[i], seq[j] = seq[j], seq[i]
    state.rng = r
    return seq


def f_random_int(env: Any, lo: Any, hi: Any) -> int:
    if not isinstance(lo, int) or not isinstance(hi, int) or hi < lo:
        raise RuleError("random_int(lo, hi) needs whole numbers with lo <= hi")
    env.state.rng, x = rngmod.below(env.state.rng, hi - lo + 1)
    return lo + x


def f_roll(env: Any, sides: Any) -> int:
    return f_random_int(env, 1, sides)


def _fn(name: str, impl: Callable[..., Any], lo: int, hi: int, english: str, doc: str,
        random: bool = False, site_args: tuple[int, ...] = ()) -> Function:
    return Function(name, impl, lo, hi, english, doc, random, site_args)


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    _fn("top", f_top, 1, 1, "the top piece of {0}", "top(place): the top piece, or null",
        site_args=(0,)),
    _fn("bottom", f_bottom, 1, 1, "the bottom piece of {0}", "bottom(place)", site_args=(0,)),
    _fn("stack", f_stack, 1, 1, "the pieces of {0}, bottom first", "stack(place)",
        site_args=(0,)),
    _fn("height", f_height, 1, 1, "the number of pieces on {0}", "height(place)",
        site_args=(0,)),
    _fn("empty", f_empty, 1, 1, "{0} is empty", "empty(place)", site_args=(0,)),
    _fn("pieces", f_pieces, 1, 1, "the pieces in {0}", "pieces(place | zone | list of places)",
        site_args=(0,)),
    _fn("cells", f_cells, 1, 1, "the places of {0}", "cells(zone): its squares or slots"),
    _fn("above", f_above, 1, 1, "the pieces on top of {0}", "above(piece): nearest first"),
    _fn("below", f_below, 1, 1, "the pieces under {0}", "below(piece): nearest first"),
    _fn("place_of", f_place_of, 1, 1, "the place of {0}", "place_of(piece)"),
    _fn("zone_of", f_zone_of, 1, 1, "the zone of {0}", "zone_of(place)", site_args=(0,)),
    _fn("zone_of_piece", f_zone_of_piece, 1, 1, "the zone {0} is in", "zone_of_piece(piece)"),
    _fn("owner", f_owner, 1, 1, "the owner of {0}", "owner(place): its seat, or null",
        site_args=(0,)),
    _fn("offset", f_offset, 2, 3, "the square {2} step(s) {1} of {0}",
        "offset(square, direction, distance=1): null when off the board", site_args=(0,)),
    _fn("neighbours", f_neighbours, 1, 2, "the squares next to {0}",
        "neighbours(square, directions=all eight)", site_args=(0,)),
    _fn("row", f_row, 1, 1, "the row of {0}", "row(square), from 1", site_args=(0,)),
    _fn("col", f_col, 1, 1, "the column of {0}", "col(square), from 1", site_args=(0,)),
    _fn("place", f_place, 1, 1, "{0}", "place(name): the square or pile called so, e.g. "
        "place('c3')", site_args=(0,)),
    _fn("place_name", f_place_name, 1, 1, "the name of {0}", "place_name(place), e.g. c3"),
    _fn("piece_name", f_piece_name, 1, 1, "{0}", "piece_name(piece), e.g. red large"),
    _fn("piece_code", f_piece_code, 1, 1, "{0}", "piece_code(piece): short code, e.g. rL"),
    _fn("value_name", f_value_name, 1, 1, "{0}", "value_name(value): display name of a value"),
    _fn("dir_name", f_dir_name, 1, 1, "{0}", "dir_name(direction), e.g. north-east"),
    _fn("seat_name", f_seat_name, 1, 1, "{0}", "seat_name(seat), e.g. Player 2"),
    _fn("next_seat", f_next_seat, 1, 1, "the player after {0}", "next_seat(seat)"),
    _fn("count", f_count, 1, 1, "the number of {0}", "count(list)"),
    _fn("len", f_count, 1, 1, "the number of {0}", "len(list)"),
    _fn("sum", f_sum, 1, 1, "the total of {0}", "sum(list of numbers)"),
    _fn("min", _extreme("min", min), 1, 8, "the least of {0}", "min(list) or min(a, b, ...)"),
    _fn("max", _extreme("max", max), 1, 8, "the greatest of {0}", "max(list) or max(a, b, ...)"),
    _fn("any", f_any, 1, 1, "any of {0} holds", "any(list)"),
    _fn("all", f_all, 1, 1, "all of {0} hold", "all(list)"),
    _fn("sorted", f_sorted, 1, 1, "{0} in order", "sorted(list)"),
    _fn("reversed", f_reversed, 1, 1, "{0} in reverse order", "reversed(list)"),
    _fn("first", f_first, 1, 1, "the first of {0}", "first(list): null when empty"),
    _fn("last", f_last, 1, 1, "the last of {0}", "last(list): null when empty"),
    _fn("distinct", f_distinct, 1, 1, "the different values of {0}", "distinct(list)"),
    _fn("one_of_each_kind", f_one_of_each_kind, 1, 1, "one piece of each kind among {0}",
        "one_of_each_kind(pieces): one per set of identical attributes"),
    _fn("without", f_without, 2, 2, "{0} except {1}", "without(list, item or list)"),
    _fn("join", f_join, 1, 2, "{0}", "join(list, separator)"),
    _fn("str", f_str, 1, 1, "{0}", "str(value)"),
    _fn("abs", f_abs, 1, 1, "the absolute value of {0}", "abs(number)"),
    _fn("range", f_range, 1, 2, "the numbers from {0} to {1}", "range(n) or range(a, b)"),
    _fn("repeat", f_repeat, 2, 2, "{1} times {0}", "repeat(item, n): a list of n copies"),
    _fn("shuffled", f_shuffled, 1, 1, "{0} in random order", "shuffled(list)", random=True),
    _fn("random_int", f_random_int, 2, 2, "a random number from {0} to {1}",
        "random_int(lo, hi)", random=True),
    _fn("roll", f_roll, 1, 1, "a roll of a {0}-sided die", "roll(sides)", random=True),
]}
