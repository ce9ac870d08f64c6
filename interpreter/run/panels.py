"""Pieces with faces divided into regions (a card's four quarters, a tile's edges), turned
on the table, and the physical heights of what stands on them.

A ruleset's ``pieces.panels`` names, for each region of a piece's face in its upright
position, the attribute that gives that region's value; a piece may lie turned by
multiples of ``turn`` degrees (kept in a per-piece variable), which changes what shows
where. Matching across touching edges, and pieces standing on a region, are then plain
expressions over ``panel``, ``panels`` and ``edge``. Heights make houses physical:
``altitude`` stacks cards on the tips of what stands on them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import RuleError
from interpreter.run.budget import describe as kind_of
from interpreter.run.state import EMPTY

SIDES = ("n", "e", "s", "w")


@dataclass
class PanelsInfo:
    """A compiled ``pieces.panels`` declaration."""

    layout: list[list[str | None]]
    """Attribute ids by position, rows top first (None: a position with no region)."""
    turn: int
    """Degrees a piece may be turned by (its facing is a multiple): 90, 180 or 360."""
    facing: str | None
    """The per-piece variable holding each piece's turn, in degrees clockwise."""
    standing_on: str | None
    """The per-piece variable naming the region a piece stands on (of the nearest
    paneled piece below it in its stack)."""
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    shown: dict[int, list[list[str | None]]] = field(default_factory=dict)
    """Facing → the attribute shown at each position (the layout, turned)."""
    paneled: list[bool] = field(default_factory=list)
    """For each piece: whether it has panels (a value in any region); set by compile."""
    all_values: dict[int, list[tuple[Any, ...]]] = field(default_factory=dict)
    """Facing → for each piece, its panels' values as ``panels()`` gives them (a piece
    without panels: none): a piece's attributes never change, so these are made once,
    by compile, and the built-ins look them up instead of turning the layout each call."""
    cells: dict[tuple[int, str], list[Any]] = field(default_factory=dict)
    """(facing, region) → for each piece, the value ``panel()`` gives (a piece without
    panels: null)."""
    edges: dict[tuple[int, str], list[tuple[Any, ...]]] = field(default_factory=dict)
    """(facing, side) → for each piece, the values along that side as ``edge()`` gives
    them (a piece without panels: none)."""
    count: int = 0
    """How many pieces the tables above cover (the game's pieces; none before compile)."""
    lengthy: bool = True
    """Whether a piece's panels or edge in those tables could be longer than the game's
    budgets.list_length (the built-ins then check each list they hand out)."""

    def __post_init__(self) -> None:
        rows, cols = len(self.layout), len(self.layout[0])
        self.positions = {name: (r, c) for r, row in enumerate(self.layout)
                          for c, name in enumerate(row) if name is not None}
        grid = self.layout
        for facing in range(0, 360, self.turn):
            self.shown[facing] = grid
            if self.turn == 180 or rows != cols:
                # half a turn: what was at the far corner shows here
                grid = [[grid[rows - 1 - r][cols - 1 - c] for c in range(cols)]
                        for r in range(rows)]
            else:
                # a quarter turn clockwise: the left column comes up to the top row
                grid = [[grid[rows - 1 - c][r] for c in range(cols)] for r in range(rows)]

    @property
    def attributes(self) -> list[str]:
        return [a for row in self.layout for a in row if a is not None]

    def mark_pieces(self, game: Any) -> None:
        """Which pieces have panels, and what each shows, each way it may face."""
        attrs = game.attributes
        pieces = range(game.n_pieces)
        self.paneled = [any(attrs[a][p] is not None for a in self.attributes)
                        for p in pieces]
        for facing, grid in self.shown.items():
            self.all_values[facing] = [
                tuple(attrs[a][p] for row in grid for a in row if a is not None)
                if self.paneled[p] else () for p in pieces]
            for region, (r, c) in self.positions.items():
                a = grid[r][c]
                self.cells[facing, region] = [
                    None if a is None or not self.paneled[p] else attrs[a][p] for p in pieces]
            for side in SIDES:
                line = side_of(grid, side)
                self.edges[facing, side] = [
                    tuple(None if a is None else attrs[a][p] for a in line)
                    if self.paneled[p] else () for p in pieces]
        self.count = len(self.paneled)
        longest = max((len(v) for table in [*self.all_values.values(), *self.edges.values()]
                       for v in table), default=0)
        self.lengthy = longest > game.limits.list_length

    def has_panels(self, game: Any, piece: int) -> bool:
        return self.paneled[piece]

    def facing_of(self, env: Any, piece: int, facing: Any = None) -> list[list[str | None]]:
        """What shows where on `piece`: as it lies, or as it would if turned to `facing`."""
        if facing is None:
            facing = 0 if self.facing is None else env.state.piece_vars[self.facing][piece]
        found = self.shown.get(facing) if type(facing) is int else None
        if found is None:
            raise RuleError(f"{env.game.piece_names[piece]} faces {kind_of(facing)}: a piece "
                            f"turns by {self.turn}° ({', '.join(map(str, self.shown))})")
        return found

    def value(self, env: Any, piece: int, position: Any, facing: Any = None) -> Any:
        where = self.positions.get(position) if isinstance(position, str) else None
        if where is None:
            raise RuleError(f"panel(): {kind_of(position)} is not a region (the regions: "
                            f"{', '.join(self.positions)})")
        if not self.has_panels(env.game, piece):
            return None
        attr = self.facing_of(env, piece, facing)[where[0]][where[1]]
        return None if attr is None else env.game.attributes[attr][piece]

    def values(self, env: Any, piece: int, facing: Any = None) -> list[Any]:
        if not self.has_panels(env.game, piece):
            return []
        attrs = env.game.attributes
        return [attrs[a][piece] for row in self.facing_of(env, piece, facing) for a in row
                if a is not None]

    def edge(self, env: Any, piece: int, side: Any, facing: Any = None) -> list[Any]:
        if side not in SIDES:
            raise RuleError(f"edge(): {kind_of(side)} is not a side (use n, e, s or w)")
        if not self.has_panels(env.game, piece):
            return []
        line = side_of(self.facing_of(env, piece, facing), side)
        attrs = env.game.attributes
        return [None if a is None else attrs[a][piece] for a in line]


def side_of(grid: list[list[str | None]], side: str) -> list[str | None]:
    """The positions of `grid` along one of its sides, in reading order."""
    return (grid[0] if side == "n" else grid[-1] if side == "s"
            else [row[-1] for row in grid] if side == "e" else [row[0] for row in grid])


def altitude(env: Any, piece: int) -> Any:
    """The height of `piece`'s top above the table.

    Up its stack from the table: a piece standing on a region stands on the top of the
    nearest paneled piece below it; anything else lies on the highest top of what is
    directly beneath it (the pieces standing on the card below, or that card itself).
    """
    game, state = env.game, env.state
    heights = game.piece_heights
    if heights is None:
        raise RuleError("altitude() needs the pieces' heights: declare pieces.height")
    panels = game.panels
    standing = (state.piece_vars.get(panels.standing_on)
                if panels is not None and panels.standing_on else None)
    stack = state.sites.get(state.loc[piece], EMPTY)
    support: Any = 0  # where the next piece lying flat comes to rest
    card_top: Any = None  # the top of the nearest paneled piece so far
    tips: Any = None  # the highest top of the pieces standing on that piece
    for q in stack:
        env.steps += 1
        if standing is not None and standing[q] is not None and card_top is not None:
            top = card_top + heights[q]
            tips = top if tips is None or top > tips else tips
            support = tips
        else:
            top = support + heights[q]
            support = top
            if panels is not None and panels.has_panels(game, q):
                card_top, tips = top, None
        if q == piece:
            return top
    raise RuleError("altitude(): the piece is not in its place")  # pragma: no cover
