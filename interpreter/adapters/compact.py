"""A compact numbering of actions for open tables (OpenSpiel's `actions=compact`).

On an open table (a grid zone with a `reach`, which grows as pieces are laid) the dense
ids (`interpreter.adapters.encoding`) give every square a number: an 83 × 83 table
times 70 card codes times the ways a card lies makes millions of ids, so a legal-action
mask or a policy head has millions of entries. In the compact numbering a
square of an open table is written relative to what is laid there instead:

- the *anchors* of a position are the centre of each open table, then every square of
  an open table that holds a piece, in board order;
- a square is `(anchor, offset)`: the first anchor within `REACH` rows and columns of it
  (in a `(2 × REACH + 1)²` window), and where in that window it lies;
- every other place (a hand, a pile, a closed board, `nowhere`) keeps a fixed number.

A game without an open table, or whose open table has fewer squares than that would
number, keeps its dense ids.

Each notation's other parts keep their dense lists, so an id is the dense block's
mixed radix with the place part's radix `places + anchors × window` (anchors: the
centres and one per piece of the game, the most squares pieces can cover): for a
bundled game with an 83 × 83 table and 157 pieces, the place part goes from 6,915 texts
to 26 + 158 × 9 = 1,448, and the ids from 3,872,960 to 811,440 (guides/openspiel.md).

What it costs:

- an id means a place only in a position: the same id is a different square once
  more pieces are laid, and the same square has different ids in different positions
  (a policy learns "next to the third piece laid", not "at 3,−1");
- a square farther than `REACH` from every anchor has no id: a legal option there is
  refused with an `EncodingError` (never silently dropped or merged);
- listing legal actions works out the position's anchors and table (a dictionary of
  window squares) once per position, on top of the dense ids.

Legal options still map one to one to ids in every position: two squares never share
an anchor and offset (an offset from an anchor names one square), and each square takes
the smallest.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

from interpreter.adapters.encoding import (
    COMPUTED,
    ActionEncoder,
    EncodingError,
    Legal,
    legal_by_id,
)
from interpreter.run.state import State

REACH = 1
"""How far (rows and columns) from an anchor a square may lie: the 8 squares around a
laid piece, and the piece's own square (to build on it)."""

COMPACT = "compact"
DENSE = "dense"


class CompactActionEncoder:
    """Action ids with the squares of open tables relative to the laid pieces (see the
    module's docstring). Decoding and encoding need the position."""

    def __init__(self, dense: ActionEncoder) -> None:
        game = dense.game
        self.dense = dense
        self.game = game
        names = game.site_name
        self.open = [z for z in game.zones.values() if z.kind == "grid" and z.reach is not None]
        self.open_sites = {s for z in self.open
                           for s in range(z.first, z.first + z.owners * z.per_owner)}
        words = tuple(dict.fromkeys([*names, "nowhere"]))
        self.place_words = words
        self.closed = [i for i in range(len(words)) if i not in self.open_sites]
        """Dense place indices kept as they are (compact index: their order here)."""
        self.closed_index = {i: k for k, i in enumerate(self.closed)}
        self.centres = [z.first + owner * z.per_owner + (z.rows // 2) * z.cols + z.cols // 2
                        for z in self.open for owner in range(z.owners)]
        self.window = [(dr, dc) for dr in range(-REACH, REACH + 1)
                       for dc in range(-REACH, REACH + 1)]
        self.anchors = len(self.centres) + min(game.n_pieces, len(self.open_sites))
        self.place_radix = len(self.closed) + self.anchors * len(self.window)
        if self.place_radix >= len(words):  # a small table: its squares as they are
            self.open, self.open_sites = [], set()
        self.blocks: list[tuple[Any, tuple[int, ...], tuple[bool, ...], int]] = []
        """Per dense block: the block, its compact weights, which parts are places, and
        its compact offset."""
        offset = 0
        for block in dense.blocks:
            is_place = tuple(bool(self.open) and p.words == words for p in block.parts)
            radices = [self.place_radix if place else p.radix
                       for p, place in zip(block.parts, is_place, strict=True)]
            weights, w = [], 1
            for r in reversed(radices):
                weights.append(w)
                w *= r
            self.blocks.append((block, tuple(reversed(weights)), is_place, offset))
            offset += w
        self.num_actions = max(offset, 1)
        self._dense_starts = [b.offset for b in dense.blocks]
        self._starts = [b[3] for b in self.blocks]

    # -- a position's anchors ----------------------------------------------------------------
    def anchors_of(self, state: State) -> list[int]:
        """The centres of the open tables, then their squares holding pieces, in order."""
        laid = sorted(s for s, stack in state.sites.items() if stack and s in self.open_sites)
        return [*self.centres, *laid]

    def table(self, state: State) -> dict[int, int]:
        """Each square near an anchor, to its compact place index (the smallest)."""
        game, width, closed = self.game, len(self.window), len(self.closed)
        out: dict[int, int] = {}
        if not self.open:
            return out
        for k, anchor in enumerate(self.anchors_of(state)[:self.anchors]):
            rc, zone = game.site_rc[anchor], game.site_zone[anchor]
            for w, (dr, dc) in enumerate(self.window):
                site = game._at(anchor, rc, zone, dr, dc)
                if site is not None and site not in out:
                    out[site] = closed + k * width + w
        return out

    # -- ids -------------------------------------------------------------------------------
    def encode(self, notation: str, state: State, table: dict[int, int] | None = None) -> int:
        """The id of a notation in this position."""
        dense = self.dense.encode(notation)
        i = bisect_right(self._dense_starts, dense) - 1
        block, weights, is_place, offset = self.blocks[i]
        local, out = dense - block.offset, offset
        for part, weight, cweight, place in zip(block.parts, block.weights, weights, is_place,
                                                strict=True):
            digit = (local // weight) % part.radix
            if place:
                digit = self._place(digit, state, table)
            out += digit * cweight
        return out

    def _place(self, word: int, state: State, table: dict[int, int] | None) -> int:
        k = self.closed_index.get(word)
        if k is not None:
            return k
        found = (table if table is not None else self.table(state)).get(word)
        if found is None:
            raise EncodingError(f"{self.place_words[word]} is farther than {REACH} from every "
                                f"piece laid: {self.game.title}'s compact action ids cannot "
                                "name it (use actions=dense)")
        return found

    def decode(self, action: int, state: State | None = None) -> str:
        """The notation an id stands for in this position; without one, a square of an
        open table reads `@k+dx+dy` (anchor k, and where from it)."""
        if not 0 <= action < self.num_actions:
            raise EncodingError(f"{action} is not an action of {self.game.title} "
                                f"(0 to {self.num_actions - 1})")
        i = bisect_right(self._starts, action) - 1
        block, weights, is_place, offset = self.blocks[i]
        anchors = None if state is None else self.anchors_of(state)
        out = [block.literals[0]]
        local = action - offset
        for part, weight, place, literal in zip(block.parts, weights, is_place,
                                                block.literals[1:], strict=True):
            radix = self.place_radix if place else part.radix
            digit = (local // weight) % radix
            if part.words is None:
                out.append(COMPUTED)
            elif not place:
                out.append(part.words[digit])
            else:
                out.append(self._place_text(digit, anchors))
            out.append(literal)
        return "".join(out)

    def _place_text(self, digit: int, anchors: list[int] | None) -> str:
        closed = len(self.closed)
        if digit < closed:
            return self.place_words[self.closed[digit]]
        k, w = divmod(digit - closed, len(self.window))
        dr, dc = self.window[w]
        if anchors is None or k >= len(anchors):
            return f"@{k}{dc:+d}{dr:+d}"
        anchor = anchors[k]
        site = self.game._at(anchor, self.game.site_rc[anchor], self.game.site_zone[anchor],
                             dr, dc)
        return "nowhere" if site is None else self.place_words[site]

    def legal(self, state: State, seat: int) -> dict[int, Legal]:
        """`seat`'s legal options by compact id, in id order (as `ActionEncoder.legal`)."""
        table = self.table(state)
        return legal_by_id(self.game, state, seat,
                           lambda notation: self.encode(notation, state, table))
