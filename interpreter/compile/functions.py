"""The built-in functions of the expression language.

Each function is general (no game is named here) and carries an English phrase for
the rulebook. Implementations take the evaluation environment first; ``env.state``
and ``env.game`` give the position and the compiled ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compile.expressions import Function, kind_of
from interpreter.errors import RuleError
from interpreter.run import rng as rngmod
from interpreter.run.budget import charge_walk, overspent, too_large, too_long
from interpreter.run.panels import altitude
from interpreter.run.state import EMPTY
from interpreter.run.tables import (  # the board's directions, read by the rules too
    ALL_DIRECTIONS,
    DIAGONAL,
    DIRECTION_NAMES,
    DIRECTIONS,
    HEX_ORDER,
    ORTHOGONAL,
    SIDES,
)

__all__ = ["ALL_DIRECTIONS", "DIAGONAL", "DIRECTIONS", "DIRECTION_NAMES", "FUNCTIONS",
           "HEX_ORDER", "ORTHOGONAL"]


def _site(env: Any, site: Any, fn: str) -> int:
    if type(site) is int and 0 <= site < env.state.places:
        return site
    if isinstance(site, str):  # a place named in text, e.g. passed through a definition
        found = env.game.site_by_name.get(site)
        if found is not None:
            return found
    raise RuleError(f"{fn}() needs a place (a square, pile or slot), got {kind_of(site)}")


def _piece(env: Any, piece: Any, fn: str) -> int:
    if type(piece) is int and 0 <= piece < len(env.game.piece_kind):
        return piece
    raise RuleError(f"{fn}() needs a piece, got {kind_of(piece)}")


def _seat(env: Any, seat: Any, fn: str) -> int:
    if type(seat) is int and 1 <= seat <= env.state.players:
        return seat
    raise RuleError(f"{fn}() needs a seat (1 to {env.state.players}), got {kind_of(seat)}")


def _charge(env: Any, value: Any, fn: str) -> list | tuple | range:
    """`value` as a list (not copied), its length charged to `env`'s step budget."""
    if isinstance(value, list | tuple | range):
        env.steps += len(value)
        if env.steps > env.step_limit:
            overspent(env)
        return value
    raise RuleError(f"{fn}() needs a list, got {kind_of(value)}")


def _walked(env: Any, value: Any, fn: str) -> list | tuple | range:
    """`value` as a list (not copied), charged by all that comparing or hashing its
    elements goes through (run.budget.walk_steps: its length, unless it holds lists)."""
    if isinstance(value, list | tuple):
        charge_walk(env, value)
        return value
    return _charge(env, value, fn)


def _built(env: Any, out: list) -> list:
    """A list a built-in made: within budgets.list_length, charged by its length."""
    limit = env.game.limits.list_length
    if len(out) > limit:
        too_long("list_length", "a list", len(out), limit)
    env.steps += len(out)
    if env.steps > env.step_limit:
        overspent(env)
    return out


def f_top(env: Any, site: Any) -> int | None:
    if site is None:
        return None
    state = env.state
    if type(site) is not int or not 0 <= site < state.places:
        site = _site(env, site, "top")
    stack = state.sites.get(site, EMPTY)
    return stack[-1] if stack else None


def f_bottom(env: Any, site: Any) -> int | None:
    if site is None:
        return None
    state = env.state
    if type(site) is not int or not 0 <= site < state.places:
        site = _site(env, site, "bottom")
    stack = state.sites.get(site, EMPTY)
    return stack[0] if stack else None


def f_stack(env: Any, site: Any) -> list[int]:
    if site is None:
        return []
    state = env.state
    if type(site) is not int or not 0 <= site < state.places:
        site = _site(env, site, "stack")
    out = list(state.sites.get(site, EMPTY))
    # _built, written out: the hottest built-ins of open tables skip a call
    if len(out) > env.game.limits.list_length:
        too_long("list_length", "a list", len(out), env.game.limits.list_length)
    env.steps += len(out)
    if env.steps > env.step_limit:
        overspent(env)
    return out


def f_height(env: Any, site: Any) -> int:
    if site is None:
        return 0
    state = env.state
    if type(site) is not int or not 0 <= site < state.places:
        site = _site(env, site, "height")
    return len(state.sites.get(site, EMPTY))


def f_empty(env: Any, site: Any) -> bool:
    return f_height(env, site) == 0


def f_pieces(env: Any, where: Any) -> list[int]:
    """Pieces of a place, of every place of a zone, or of a list of places."""
    sites = env.state.sites
    if type(where) is int or isinstance(where, str):
        return _built(env, list(sites.get(_site(env, where, "pieces"), EMPTY)))
    zone = getattr(where, "sites_in_play", None)
    if zone is not None:
        out: list[int] = []
        for s in zone(env.state.players):
            out.extend(sites.get(s, EMPTY))
        return _built(env, out)
    if isinstance(where, list | tuple):
        out = []
        for s in _charge(env, where, "pieces"):
            out.extend(sites.get(_site(env, s, "pieces"), EMPTY))
        return _built(env, out)
    raise RuleError(f"pieces() needs a place, a zone or a list of places, got {kind_of(where)}")


def f_cells(env: Any, zone: Any) -> list[int]:
    sites_in_play = getattr(zone, "sites_in_play", None)
    if sites_in_play is None:
        if type(zone) is int and 0 <= zone < env.state.places:
            return [zone]
        raise RuleError(f"cells() needs a zone, got {kind_of(zone)}")
    return _built(env, sites_in_play(env.state.players))


def f_above(env: Any, piece: Any) -> list[int]:
    """The pieces on top of a piece in its stack, nearest first."""
    if piece is None:
        return []
    if type(piece) is not int or not 0 <= piece < len(env.game.piece_kind):
        _piece(env, piece, "place_of")
    state = env.state
    stack = state.sites.get(state.loc[piece], EMPTY)
    out = stack[stack.index(piece) + 1:]
    if len(out) > env.game.limits.list_length:  # _built, written out
        too_long("list_length", "a list", len(out), env.game.limits.list_length)
    env.steps += len(out)
    if env.steps > env.step_limit:
        overspent(env)
    return out


def f_below(env: Any, piece: Any) -> list[int]:
    """The pieces under a piece in its stack, nearest first."""
    if piece is None:
        return []
    stack = env.state.sites.get(f_place_of(env, piece), EMPTY)
    return _built(env, stack[:stack.index(piece)][::-1])


def f_place_of(env: Any, piece: Any) -> int | None:
    if piece is None:
        return None
    return env.state.loc[_piece(env, piece, "place_of")]


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


_ONE = object()
"""offset()'s distance when none is given: one step (and no vector's rows)."""


def f_offset(env: Any, site: Any, direction: Any, distance: Any = _ONE) -> int | None:
    """offset(place, direction, distance) or, with a number first, offset(place, dx, dy):
    a move by a vector (columns east, rows north)."""
    if site is None:
        return None
    if type(direction) is int:
        if distance is _ONE:
            raise RuleError("offset(place, dx, dy) needs both the columns and the rows (or "
                            f"a direction such as 'n', not {direction})")
        return env.game.shift(_site(env, site, "offset"), direction, distance)
    return env.game.offset(_site(env, site, "offset"), direction,
                           1 if distance is _ONE else distance)



def f_neighbours(env: Any, site: Any, dirs: Any = None) -> list[int]:
    if site is None:
        return []
    s = _site(env, site, "neighbours")
    directions = (board_directions(env.game.site_zone[s]) if dirs is None
                  else _charge(env, dirs, "neighbours"))
    key = (s, tuple(directions)) if all(type(d) is str for d in directions) else None
    cache = env.game.neighbour_cache
    found = cache.get(key) if key is not None else None
    if found is None:
        found = []
        for d in directions:
            t = env.game.offset(s, d, 1)
            if t is not None:
                found.append(t)
        if key is not None and len(cache) < 100_000:
            cache[key] = found  # a board's geometry never changes: look it up once
    return list(found)


def board_directions(zone: Any) -> list[str]:
    """The directions a board's places have neighbours in: six on hexes, else eight."""
    return HEX_ORDER if zone.kind == "hex" else ALL_DIRECTIONS


def f_border(env: Any, zone: Any, side: Any) -> list[int]:
    """The places along one side of a board (a grid or hex board): what a connection
    goal links, e.g. border(board, 'n') and border(board, 's')."""
    if getattr(zone, "kind", None) not in ("grid", "hex") or zone.reach is not None:
        raise RuleError(f"border() needs a board with edges (a grid or hex zone), got "
                        f"{kind_of(zone)}")
    sides = SIDES[zone.shape]
    if side not in sides:
        shown = repr(side[:20]) if isinstance(side, str) else kind_of(side)
        raise RuleError(f"{zone.label} has no side {shown} (its sides are "
                        f"{', '.join(sides)})")
    return _built(env, [s for s in zone.sites_in_play(env.state.players)
                        if on_side(zone, env.game.site_rc[s], side)])


def on_side(zone: Any, rc: tuple[int, int], side: str) -> bool:
    """Whether the place at (row, column) from 0 lies along the board's `side`."""
    r, c = rc
    top, right = zone.rows - 1, zone.cols - 1
    if zone.side is None:  # a rectangle of squares, or a rhombus of hexes
        return {"n": r == top, "s": r == 0, "e": c == right, "w": c == 0}[side]
    k = zone.side - 1  # a hexagon: its six sides, its corners on two of them
    return {"n": r == top, "s": r == 0, "ne": r + c == 3 * k, "sw": r + c == k,
            "se": c == right, "nw": c == 0}[side]


def _coordinate(env: Any, site: Any, fn: str, axis: int) -> int | None:
    """A square's row (axis 0) or column (1): from 1 on a board, from the centre (signed)
    on an open grid."""
    s = _site(env, site, fn)
    rc = env.game.site_rc[s]
    if rc is None:
        return None
    reach = env.game.site_zone[s].reach
    return rc[axis] + 1 if reach is None else rc[axis] - reach


def f_row(env: Any, site: Any) -> int | None:
    return _coordinate(env, site, "row", 0)


def f_col(env: Any, site: Any) -> int | None:
    return _coordinate(env, site, "col", 1)


def _panels(env: Any, piece: Any, fn: str) -> tuple[Any, int]:
    panels = env.game.panels
    if panels is None:
        raise RuleError(f"{fn}() needs pieces with panels: declare pieces.panels")
    return panels, _piece(env, piece, fn)


def f_panel(env: Any, piece: Any, region: Any, facing: Any = None) -> Any:
    if piece is None:
        return None
    panels = env.game.panels
    if panels is not None and type(region) is str and type(piece) is int \
            and 0 <= piece < panels.count:
        if facing is None:  # (_facing, written out: these built-ins are the hottest)
            facing = 0 if panels.facing is None else env.state.piece_vars[panels.facing][piece]
        table = panels.cells.get((facing, region)) if type(facing) is int else None
        if table is not None:  # a piece at a facing it may take: made at compile time
            return table[piece]
    panels, p = _panels(env, piece, "panel")
    return panels.value(env, p, region, facing)


def f_panels(env: Any, piece: Any, facing: Any = None) -> list[Any]:
    if piece is None:
        return []
    panels = env.game.panels
    if panels is not None and type(piece) is int and 0 <= piece < panels.count:
        if facing is None:  # (_facing, written out)
            facing = 0 if panels.facing is None else env.state.piece_vars[panels.facing][piece]
        table = panels.all_values.get(facing) if type(facing) is int else None
        if table is not None:  # a piece at a facing it may take: made at compile time
            out = list(table[piece])
            if panels.lengthy and len(out) > env.game.limits.list_length:  # (_built)
                too_long("list_length", "a list", len(out), env.game.limits.list_length)
            env.steps += len(out)
            if env.steps > env.step_limit:
                overspent(env)
            return out
    panels, p = _panels(env, piece, "panels")
    return _built(env, panels.values(env, p, facing))


def f_edge(env: Any, piece: Any, side: Any, facing: Any = None) -> list[Any]:
    if piece is None:
        return []
    panels = env.game.panels
    if panels is not None and type(side) is str and type(piece) is int \
            and 0 <= piece < panels.count:
        if facing is None:  # (_facing, written out)
            facing = 0 if panels.facing is None else env.state.piece_vars[panels.facing][piece]
        table = panels.edges.get((facing, side)) if type(facing) is int else None
        if table is not None:  # a piece at a facing it may take: made at compile time
            out = list(table[piece])
            if panels.lengthy and len(out) > env.game.limits.list_length:  # (_built)
                too_long("list_length", "a list", len(out), env.game.limits.list_length)
            env.steps += len(out)
            if env.steps > env.step_limit:
                overspent(env)
            return out
    panels, p = _panels(env, piece, "edge")
    return _built(env, panels.edge(env, p, side, facing))


def f_altitude(env: Any, piece: Any) -> Any:
    if piece is None:
        return None
    return altitude(env, _piece(env, piece, "altitude"))


def f_place(env: Any, name: Any) -> int:
    if type(name) is int:
        return _site(env, name, "place")
    if not isinstance(name, str):
        raise RuleError(f"place() needs the name of a place, got {kind_of(name)}")
    site = env.game.site_by_name.get(name)
    if site is None:
        raise RuleError(f"no place is called {name[:40]!r}")
    return site


def f_place_name(env: Any, site: Any) -> str:
    if site is None:
        return "nowhere"
    return env.game.site_name[_site(env, site, "place_name")]


def f_piece_name(env: Any, piece: Any) -> str:
    if piece is None:
        return "nothing"
    return env.game.piece_names[_piece(env, piece, "piece_name")]


def f_a_or_an(env: Any, text: Any) -> str:
    """The text after the article its first sound takes, so a template can say "placed
    an orange medium" whatever the piece is."""
    from interpreter.compile.english import article
    return article(str(text))


def f_piece_code(env: Any, piece: Any) -> str:
    if piece is None:
        return "-"
    return env.game.piece_codes[_piece(env, piece, "piece_code")]


def f_value_name(env: Any, value: Any) -> str:
    if isinstance(value, list | tuple):
        raise RuleError(f"value_name() needs one value, got {kind_of(value)}")
    return env.game.value_names.get(value, f_str(env, value))


def f_dir_name(env: Any, d: Any) -> str:
    if not isinstance(d, str):
        raise RuleError(f"dir_name() needs a direction such as 'ne', got {kind_of(d)}")
    return DIRECTION_NAMES.get(d, d)


def f_seat_name(env: Any, seat: Any) -> str:
    if seat is None:
        return "nobody"
    return f"Player {_seat(env, seat, 'seat_name')}"


def f_next_seat(env: Any, seat: Any) -> int:
    """The seat after `seat` in the turn order: seats knocked out are passed over."""
    st = env.state
    after = _seat(env, seat, "next_seat") % st.players + 1
    if st.out:
        for _ in range(st.players):
            if after not in st.out:
                break
            after = after % st.players + 1
    return after


def f_count(env: Any, items: Any) -> int:
    if items is None:
        return 0
    if isinstance(items, list | tuple | str | range):
        return len(items)
    return len(f_pieces(env, items))


def _number(value: Any, fn: str) -> int | float:
    if isinstance(value, int | float):
        return value
    raise RuleError(f"{fn}() needs numbers, got {kind_of(value)}")


def f_sum(env: Any, items: Any) -> Any:
    big = env.game.limits.largest_number
    total = 0
    for x in _charge(env, items, "sum"):
        total += _number(x, "sum")
        if not -big <= total <= big:
            too_large(total, big)
    return total


def _extreme(name: str, pick: Callable[..., Any]) -> Callable[..., Any]:
    def impl(env: Any, *args: Any) -> Any:
        if len(args) == 1:
            values = _walked(env, args[0], name)
        else:
            values = args
            if type(args[0]) in _LIST_TYPES and all(  # lists compared with lists
                    type(v) in _LIST_TYPES for v in args):
                for v in args:
                    charge_walk(env, v)
        if not values:
            return None
        try:
            return pick(values)
        except TypeError:
            raise RuleError(f"{name}() cannot compare these values: "
                            f"{', '.join(sorted({kind_of(v) for v in values}))}") from None
    return impl


def f_any(env: Any, items: Any) -> bool:
    return any(_charge(env, items, "any"))


def f_all(env: Any, items: Any) -> bool:
    return all(_charge(env, items, "all"))


def f_sorted(env: Any, items: Any) -> list:
    seq = _walked(env, items, "sorted")
    try:
        return sorted(seq)
    except TypeError:
        raise RuleError("sorted() cannot order values of different kinds") from None


def f_reversed(env: Any, items: Any) -> list:
    return list(reversed(_charge(env, items, "reversed")))


def f_first(env: Any, items: Any) -> Any:
    if not isinstance(items, list | tuple | range):
        raise RuleError(f"first() needs a list, got {kind_of(items)}")
    return items[0] if items else None


def f_last(env: Any, items: Any) -> Any:
    if not isinstance(items, list | tuple | range):
        raise RuleError(f"last() needs a list, got {kind_of(items)}")
    return items[-1] if items else None


_LIST_TYPES = (list, tuple)


def _key(value: Any) -> Any:
    """A hashable stand-in for a value (lists become tuples, all the way down)."""
    if isinstance(value, list | tuple):
        return tuple(_key(v) for v in value)
    return value


def f_distinct(env: Any, items: Any) -> list:
    out, seen = [], set()
    for x in _walked(env, items, "distinct"):
        key = _key(x) if isinstance(x, list | tuple) else x
        if key not in seen:
            seen.add(key)
            out.append(x)
    return out


def f_reachable(env: Any, start: Any, through: Any, dirs: Any = None) -> list[int]:
    """The places reachable from `start` (a place or a list of places) by steps to
    neighbouring places (`neighbours`, in `dirs`: all eight by default) that are in
    `through`: a connection ("are the two edges linked?"), a region, the squares a piece
    can slide to, without a loop in the rules. A start is in the result only when it is
    in `through` too. Places come nearest first (in the order found). Each place reached
    costs a step, and one more for each neighbour it has."""
    if start is None:
        return []
    places = env.state.places
    starts = ([_site(env, x, "reachable") for x in _charge(env, start, "reachable")]
              if isinstance(start, list | tuple) else [_site(env, start, "reachable")])
    allowed = set()
    for x in _charge(env, through, "reachable"):
        if type(x) is int and 0 <= x < places:
            allowed.add(x)
        elif x is not None:
            allowed.add(_site(env, x, "reachable"))
    directions = tuple(ALL_DIRECTIONS if dirs is None else _charge(env, dirs, "reachable"))
    frontier = list(dict.fromkeys(starts))
    out = [x for x in frontier if x in allowed]
    seen = set(frontier)
    cache = env.game.neighbour_cache
    limit = env.step_limit
    while frontier:
        nxt = []
        for site in frontier:
            around = cache.get((site, directions))
            if around is None:
                around = _neighbours_of(env, site, directions)
            env.steps += len(around) + 1
            if env.steps > limit:
                overspent(env)
            for t in around:
                if t in allowed and t not in seen:
                    seen.add(t)
                    out.append(t)
                    nxt.append(t)
        frontier = nxt
    return out


def _neighbours_of(env: Any, site: int, directions: tuple) -> list[int]:
    """A place's neighbours in these directions, looked up once per board (as
    `neighbours` does, charging nothing: the caller charges the same either way)."""
    found = []
    for d in directions:
        t = env.game.offset(site, d, 1)
        if t is not None:
            found.append(t)
    cache = env.game.neighbour_cache
    if all(type(d) is str for d in directions) and len(cache) < 100_000:
        cache[(site, directions)] = found
    return found


def f_groups(env: Any, items: Any, links: Any) -> list[list]:
    """The connected groups of `items`: two items are in one group when a chain of links
    ([a, b] pairs) joins them, so a board's regions, chains or networks need no loop in
    the rules. Each group keeps the order of `items` (a repeated item counts once), and
    the groups come in the order of their first items; an item no link touches is a group
    of its own."""
    items, links = _charge(env, items, "groups"), _charge(env, links, "groups")
    index: dict[Any, int] = {}
    order: list[Any] = []
    for item in items:
        if index.setdefault(_key(item), len(order)) == len(order):
            order.append(item)
    parent = list(range(len(order)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for link in links:
        if not isinstance(link, list | tuple) or len(link) != 2:
            raise RuleError(f"groups() needs links that are pairs [a, b], got {kind_of(link)}")
        ends = [index.get(_key(end)) for end in link]
        for end, i in zip(link, ends, strict=True):
            if i is None:
                raise RuleError(f"groups() has a link to {kind_of(end)}, which is not one "
                                "of its items")
        a, b = root(ends[0]), root(ends[1])  # type: ignore[arg-type]
        parent[max(a, b)] = min(a, b)
    found: dict[int, list] = {}
    for i, item in enumerate(order):
        found.setdefault(root(i), []).append(item)
    return _built(env, list(found.values()))


def f_one_of_each_kind(env: Any, items: Any) -> list[int]:
    """One piece per set of identical attributes: interchangeable pieces give one option
    (the first of each kind, in the order given)."""
    seq = _charge(env, items, "one_of_each_kind")
    if not seq:
        return []
    ids = env.game.piece_kind_id
    if set(map(type, seq)) != {int} or min(seq) < 0 or max(seq) >= len(ids):
        for p in seq:  # name the first thing that is not a piece
            _piece(env, p, "one_of_each_kind")
    return first_of_each_kind(seq, ids)


def first_of_each_kind(pieces: Any, kind_ids: list[int]) -> list[int]:
    """The first piece of each kind among `pieces` (all of them pieces), in order."""
    seen: set[int] = set()
    add = seen.add
    out = []
    for p in pieces:
        k = kind_ids[p]
        if k not in seen:
            add(k)
            out.append(p)
    return out


def f_without(env: Any, items: Any, item: Any) -> list:
    if isinstance(item, list | tuple):  # every value is made a key: all gone through
        seq = _walked(env, items, "without")
        _walked(env, item, "without")
        try:
            drop = {_key(x) for x in item}
        except TypeError:
            raise RuleError("without() cannot compare these values") from None
        return [x for x in seq if _key(x) not in drop]
    seq = _charge(env, items, "without")
    return [x for x in seq if x != item]


def f_join(env: Any, items: Any, sep: Any = ", ") -> str:
    seq = _charge(env, items, "join")
    limit = env.game.limits.text_length
    sep_text = f_str(env, sep)
    if seq and set(map(type, seq)) == _TEXT:  # texts only: measured, then joined at once
        size = sum(map(len, seq)) + len(sep_text) * (len(seq) - 1)
        if size > limit:
            too_long("text_length", "a text", size, limit)
        out = sep_text.join(seq)
        env.steps += size
        if env.steps > env.step_limit:
            overspent(env)
        return out
    parts = []
    size = 0
    for x in seq:
        text = f_str(env, x)
        size += len(text) + len(sep_text)
        if size > limit + len(sep_text):
            too_long("text_length", "a text", size, limit)
        parts.append(text)
    out = sep_text.join(parts)
    env.steps += len(out)
    if env.steps > env.step_limit:
        overspent(env)
    return out


_TEXT = {str}


def f_str(env: Any, x: Any) -> str:
    """A value as text, refusing to build more than budgets.text_length characters."""
    limit = env.game.limits.text_length
    if isinstance(x, str):
        return x
    if x is None or isinstance(x, bool | int | float):
        return repr(x) if isinstance(x, float) else str(x)
    if isinstance(x, list | tuple):
        parts: list[str] = []
        size = 2
        for v in _charge(env, x, "str"):
            text = repr(v) if isinstance(v, str) else f_str(env, v)
            size += len(text) + 2
            if size > limit:
                too_long("text_length", "a text", size, limit)
            parts.append(text)
        return "[" + ", ".join(parts) + "]"
    return repr(x)


def f_abs(env: Any, x: Any) -> Any:
    return abs(_number(x, "abs"))


def _whole(value: Any, fn: str) -> int:
    if type(value) is int:
        return value
    raise RuleError(f"{fn}() needs whole numbers, got {kind_of(value)}")


def f_range(env: Any, a: Any, b: Any = None) -> list[int]:
    lo, hi = (0, _whole(a, "range")) if b is None else (_whole(a, "range"), _whole(b, "range"))
    limit = env.game.limits.list_length
    if hi - lo > limit:
        too_long("list_length", "range()", hi - lo, limit)
    return _built(env, list(range(lo, hi)))


def f_repeat(env: Any, item: Any, n: Any) -> list:
    limit = env.game.limits.list_length
    n = _whole(n, "repeat")
    if n > limit:
        too_long("list_length", "repeat()", n, limit)
    return _built(env, [item] * max(n, 0))


def f_shuffled(env: Any, items: Any) -> list:
    seq = list(_charge(env, items, "shuffled"))
    state = env.state
    r = state.rng
    for i in range(len(seq) - 1, 0, -1):
        r, j = rngmod.below(r, i + 1)
        seq[i], seq[j] = seq[j], seq[i]
    state.rng = r
    return seq


def f_random_int(env: Any, lo: Any, hi: Any) -> int:
    lo, hi = _whole(lo, "random_int"), _whole(hi, "random_int")
    if hi < lo:
        raise RuleError(f"random_int(lo, hi) needs lo <= hi, got {lo} and {hi}")
    if hi - lo + 1 > 1 << 64:
        raise RuleError("random_int() can choose among at most 2**64 numbers")
    env.state.rng, x = rngmod.below(env.state.rng, hi - lo + 1)
    return lo + x


def f_roll(env: Any, sides: Any) -> int:
    sides = _whole(sides, "roll")
    if sides < 1:
        raise RuleError(f"roll() needs a die with at least 1 side, got {sides}")
    return f_random_int(env, 1, sides)


def _fn(name: str, impl: Callable[..., Any], lo: int, hi: int, english: str, doc: str,
        random: bool = False, site_args: tuple[int, ...] = (),
        describes_piece: bool = False) -> Function:
    return Function(name, impl, lo, hi, english, doc, random, site_args, describes_piece)


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
        "offset(square, direction, distance=1), or offset(square, dx, dy): the place dx "
        "columns east and dy rows north (on a hex board, a row north is a step north-east); "
        "null when off the board", site_args=(0,)),
    _fn("neighbours", f_neighbours, 1, 2, "the squares next to {0}",
        "neighbours(square, directions=all eight, or all six on a hex board)",
        site_args=(0,)),
    _fn("border", f_border, 2, 2, "the places along the {1} side of {0}",
        "border(zone, side): the places along one side of a board: n, e, s, w (a grid, a "
        "rhombus of hexes) or n, ne, se, s, sw, nw (a hexagon of hexes)"),
    _fn("row", f_row, 1, 1, "the row of {0}", "row(square), from 1 (on an open grid: its y, "
        "0 at the centre, growing northward)", site_args=(0,)),
    _fn("col", f_col, 1, 1, "the column of {0}", "col(square), from 1 (on an open grid: its "
        "x, 0 at the centre, growing eastward)", site_args=(0,)),
    _fn("panel", f_panel, 2, 3, "what {0} shows in region {1}", "panel(piece, region, facing=as it "
        "lies): the value its face shows in that region as it lies now (turned or not), or "
        "as it would turned to `facing`, e.g. panel(card, 'tl'); null for a piece without "
        "panels", describes_piece=True),
    _fn("panels", f_panels, 1, 2, "the panels of {0}", "panels(piece, facing=as it lies): "
        "the values its face shows, region by region (rows top first)",
        describes_piece=True),
    _fn("edge", f_edge, 2, 3, "the panels along the {1} side of {0}", "edge(piece, side, "
        "facing=as it lies): the values along side n, e, s or w (west to east, or north to "
        "south), so edge(a, 'e')[i] touches edge(b, 'w')[i] when b is east of a",
        describes_piece=True),
    _fn("altitude", f_altitude, 1, 1, "the altitude of {0}", "altitude(piece): the height "
        "of its top above the table (pieces.height), a piece standing on a region resting "
        "on the piece with panels beneath it, anything else on the highest top below it"),
    _fn("place", f_place, 1, 1, "{0}", "place(name): the square or pile called so, e.g. "
        "place('c3')", site_args=(0,)),
    _fn("place_name", f_place_name, 1, 1, "the name of {0}", "place_name(place), e.g. c3"),
    _fn("piece_name", f_piece_name, 1, 1, "{0}", "piece_name(piece), e.g. red large",
        describes_piece=True),
    _fn("a_or_an", f_a_or_an, 1, 1, "{0}",
        "a_or_an(text): the text after a or an, e.g. an orange medium"),
    _fn("piece_code", f_piece_code, 1, 1, "{0}", "piece_code(piece): short code, e.g. rL",
        describes_piece=True),
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
    _fn("groups", f_groups, 2, 2, "the groups of {0} connected by {1}", "groups(items, "
        "links): the connected groups of the items, two being connected when a chain of "
        "links ([a, b] pairs) joins them; each group in the items' order, e.g. "
        "max([count(g) for g in groups(squares, pairs)])"),
    _fn("reachable", f_reachable, 2, 3, "the places reachable from {0} through {1}",
        "reachable(start, through, directions=all eight): the places reachable from a "
        "place (or list of places) by steps to neighbouring places that are in the list "
        "`through`, e.g. reachable(a1, [c for c in cells(board) if mine(c)], orthogonal)",
        site_args=(0,)),
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
