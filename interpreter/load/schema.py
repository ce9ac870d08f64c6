"""The ruleset language: pydantic models for everything a ruleset declares.

Effects (the verbs) live in ``interpreter.primitives``; this module holds the nouns:
game facts, options, pieces, zones, variables, definitions, procedures, triggers,
the end of the game and the rulings. ``tabletop schema`` prints the JSON Schema
generated from these models, for editors.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    StrictInt,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)

from interpreter.errors import Location, did_you_mean
from interpreter.located import Expr, Name, Node, Template
from interpreter.primitives import Block

Visibility = Literal["everyone", "owner", "nobody"]


class Seats(Node):
    """How many seats (players) the game takes."""

    min: int = Field(ge=1, le=16)
    max: int = Field(ge=1, le=16)


class GameInfo(Node):
    """Facts about the game, for `tabletop list` and the rulebook."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="file-name id, e.g. my-game")
    title: str
    designer: str | None = Field(default=None, description="who designed the game, for the "
                                 "rulebook's credits (left out when not given)")
    year: int | None = None
    seats: Seats
    playing_time: str | None = None
    summary: str = Field(description="one line: what the game is about")
    status: str = "complete"
    group: str | None = Field(default=None, description="the shelf `tabletop list` shows "
                              "the game on, with the others of that group, e.g. Classics")
    introduction: str | None = None
    source: str | None = Field(default=None, description="where the rules come from")


class OptionDecl(Node):
    """A choice made before the game starts (a mode, a board size, a rule on/off)."""

    id: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    label: str
    description: str
    type: Literal["bool", "int", "choice"]
    default: bool | int | str
    choices: list[str] | None = None
    min: int | None = None
    max: int | None = None

    @model_validator(mode="after")
    def _default_is_a_value(self) -> OptionDecl:
        """A default the option could not be set to would be taken silently (a variant's
        `change: {options: {x: {default: 7}}}` of an on/off option, say)."""
        value = self.default
        if self.type == "bool" and not isinstance(value, bool):
            raise ValueError(f"an on/off option's default is true or false, not {value!r}")
        if self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"a whole-number option's default is a whole number, not "
                                 f"{value!r}")
            if self.min is not None and self.max is not None and self.min > self.max:
                raise ValueError(f"min {self.min} is more than max {self.max}")
            if (self.min is not None and value < self.min) or (
                    self.max is not None and value > self.max):
                raise ValueError(f"the default {value} is outside {self.min} to {self.max}")
        if self.type == "choice":
            if not self.choices:
                raise ValueError("a choice option needs `choices`, the values it may take")
            if value not in self.choices:
                hint = did_you_mean(str(value), self.choices)
                raise ValueError(f"the default {value!r} is not one of the choices ("
                                 + ", ".join(self.choices) + ")" + (f"; {hint}" if hint
                                                                    else ""))
        return self


NAMED_COLOURS: dict[str, str] = {
    "red": "#d7263d", "yellow": "#f4c20d", "green": "#2e9e44", "blue": "#1f6fd1",
    "black": "#262626", "white": "#f7f7f7", "grey": "#9a9a9a", "gray": "#9a9a9a",
    "purple": "#8e44ad", "orange": "#f07f13", "clear": "#cfe9f3", "cyan": "#1fb8cf",
    "pink": "#f06ba8", "brown": "#8b5a2b", "silver": "#c0c0c0", "gold": "#d4a017",
    "violet": "#7f3fbf", "magenta": "#d633a8", "teal": "#138d90", "lime": "#8cc63f",
    "navy": "#1f2f6b", "maroon": "#7a1f2b", "olive": "#7b7d2a", "beige": "#e9dcc0",
    "transparent": "#cfe9f3",
}
"""The colour names a ruleset may use for its pieces, and how the pictures draw them (clear
and transparent are drawn see-through: this hex is how they look over white)."""


def _colour_spec(text: str) -> str:
    """A value's colour as the pictures take it: CSS hex (#RGB → #RRGGBB) or a known name,
    lower case; anything else is an error where it is written."""
    word = text.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{3}", word):
        return "#" + "".join(ch * 2 for ch in word[1:])
    if re.fullmatch(r"#[0-9a-f]{6}", word) or word in NAMED_COLOURS:
        return word
    raise ValueError(f"'{text}' is not a colour: write #RRGGBB, #RGB or one of "
                     + ", ".join(NAMED_COLOURS))


ColourSpec = Annotated[str, AfterValidator(_colour_spec), WithJsonSchema({"anyOf": [
    {"type": "string", "pattern": "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"},
    {"type": "string", "enum": list(NAMED_COLOURS)}]})]
GlyphSpec = Annotated[str, StringConstraints(min_length=1, max_length=4, strip_whitespace=True)]

DATA_DEPTH = 8
"""How deeply lists may nest in a piece's data (a card's pattern of moves is 2 deep)."""


def _data_list(value: list[Any]) -> list[Any]:
    """A list in a piece's data: numbers, texts and lists of them, a few levels deep."""
    def check(v: Any, depth: int) -> None:
        if isinstance(v, list):
            if depth >= DATA_DEPTH:
                raise ValueError(f"lists in a piece's data nest at most {DATA_DEPTH} deep")
            for x in v:
                check(x, depth + 1)
        elif isinstance(v, bool) or not isinstance(v, int | str):
            raise ValueError(f"a piece's data holds whole numbers, texts and lists of them, "
                             f"not {v!r}")
    check(value, 0)
    return value


DataList = Annotated[list[Any], AfterValidator(_data_list), WithJsonSchema({
    "type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"},
                                          {"type": "array"}]}})]
TableValue = StrictInt | str | DataList
"""A value in a set's table: a number, a text, or a list of them (a card's pattern of
moves, `[[0, 2], [0, -1]]`), lists inside lists too."""


class AttributeDecl(Node):
    """A piece attribute (colour, size ...) with its possible values."""

    values: list[int | str] = Field(default_factory=list, description="the values the "
                                    "attribute may take (needed unless `data` is true)")
    data: bool = Field(default=False, description="the values are given piece by piece in "
                       "the sets' tables, not from a fixed list: numbers, texts or lists of "
                       "them (a movement card's pattern [[0, 2], [0, -1]]), read like any "
                       "other attribute (for d in card.pattern)")
    names: dict[int | str, str] = Field(default_factory=dict,
                                        description="display name of a value, e.g. 3: large")
    short: dict[int | str, str] = Field(default_factory=dict,
                                        description="one or two letters for boards, e.g. 3: L")
    styles: dict[int | str, str] = Field(default_factory=dict,
                                         description="terminal style of a value, "
                                                     "e.g. red: bold red")
    colours: dict[int | str, ColourSpec] = Field(
        default_factory=dict, description="the colour a value is drawn in by the rulebook's "
        "pictures: #RRGGBB, #RGB or a colour name (" + ", ".join(NAMED_COLOURS) + "; clear "
        "is drawn see-through, with a dashed outline), e.g. x: '#c0392b'. Without it, a "
        "value named after a colour is drawn in it, else in its style's colour, else in a "
        "colour of a fixed palette by the value's place")
    glyphs: dict[int | str, GlyphSpec] = Field(
        default_factory=dict, description="the symbol the rulebook's pictures print on a "
        "piece for a value (1 to 4 characters, e.g. o: ◯), instead of its short form; "
        "the terminal and the move codes keep the short form")

    @model_validator(mode="after")
    def _mappings_name_values(self) -> AttributeDecl:
        """A colour or glyph for a value the attribute lacks is a typo the pictures would
        silently ignore."""
        if not self.values and not self.data:
            raise ValueError("an attribute needs its `values` (or `data: true` when the sets' "
                             "tables give each piece's value, lists too)")
        for what, mapping in (("colours", self.colours), ("glyphs", self.glyphs)):
            for v in mapping:
                if v not in self.values:
                    raise ValueError(f"{what} gives '{v}', which is not one of this "
                                     f"attribute's values ({', '.join(map(str, self.values))})")
        return self


class PanelsDecl(Node):
    """A piece's face divided into regions (a card's quarters, a tile's edges), each region
    showing the value of an attribute; pieces may lie turned, which changes what shows
    where, and other pieces may stand on a region."""

    layout: list[list[str | None]] = Field(
        min_length=1, description="the attribute giving each region's value, by position "
        "as the piece stands upright, rows top first, e.g. [[tl, tr], [bl, br]]; null for a "
        "position with no region. A position is named by its attribute in panel()")
    turn: Literal[90, 180, 360] = Field(
        default=360, description="degrees a piece may be turned by: 180 either way up (a "
        "card), 90 any side up (a square tile), 360 never")
    facing: Name | None = Field(
        default=None, description="the per-piece variable holding each piece's turn in "
        "degrees clockwise (needed unless turn is 360)")
    standing_on: Name | None = Field(
        default=None, description="the per-piece variable naming the region (of the nearest "
        "piece with panels below it in its stack) a piece stands on: a pyramid on a card's "
        "quarter")


SHAPES = ("pyramid", "card", "disc", "square", "die")
"""How pictures may draw a piece: a pyramid in profile, a card with its face, a disc, a
square tile, or a die showing pips for its number."""
Shape = Literal["pyramid", "card", "disc", "square", "die"]


class CardFace(Node):
    """How a card's face is drawn from its data (in the rulebook's pictures, the
    browser's table and the terminal's lists): a band of colour across the top with the
    card's mark, a title, a number in the corners and an icon repeated. Each text is a
    template like pieces.name (each attribute stands for the name of the piece's value,
    `piece` for the piece itself); an empty result draws nothing."""

    band: str | None = Field(
        default=None, description="attribute whose value's colour fills the band across the "
        "top, with the value's mark (its glyph, short form or initial) so that the colour "
        "is never the only sign; default: the attribute that colours the pieces")
    title: Template | None = Field(
        default=None, description="the card's words, large in its middle (a text template "
        "as pieces.name), e.g. '{size}'; default: the piece's name")
    corner: Template | None = Field(
        default=None, description="small text in the top-left corner, repeated bottom-right "
        "on a large card (a text template), e.g. '${value}'; default: the short form of the "
        "first number-valued attribute the piece has, if any")
    icon: str | None = Field(
        default=None, min_length=1, max_length=4, description="a symbol printed `icons` "
        "times under the title, e.g. ★")
    icons: Expr | None = Field(
        default=None, description="how many times the icon is printed: an expression using "
        "`piece`, e.g. piece.stars (a whole number, 0 to 12)")


class PieceSet(Node):
    """A set of pieces: one piece per combination of the listed attribute values, and
    per row of its table when it has one (cards whose numbers differ card by card)."""

    id: str
    label: str | None = None
    count: Expr = Field(default_factory=lambda: Expr("1"),
                        description="how many such sets (may depend on options)")
    each: dict[str, list[StrictInt | str]] = Field(
        default_factory=dict,
        description="attribute: values to combine; an attribute left out has no value "
                    "(null) on these pieces")
    table: list[dict[str, TableValue]] = Field(
        default_factory=list,
        description="a data table, one row per piece (for each combination of `each`): "
                    "the values of the attributes `each` does not give, e.g. "
                    "{size: 1, value: 2, stars: 1}; an attribute declared with `data: true` "
                    "may take any number, text or list, e.g. pattern: [[0, 2], [0, -1]]")
    component: str | None = Field(
        default=None, min_length=1, max_length=40,
        description="when one copy of the set is a single physical component and its "
        "pieces are that component's faces (a die: one piece per face), the word for those "
        "components, plural, e.g. 'dice': the rulebook counts components, not faces")
    provisional: bool = Field(default=False, description="the values are not confirmed: "
                              "the rulebook marks the set's table as provisional")
    start: Name = Field(description="the zone the pieces begin in (before setup)")
    seat: int | None = Field(default=None, ge=1, description="with a per-seat start zone: "
                             "whose pile the pieces begin in")
    shape: Shape | None = Field(
        default=None, description="how the pictures draw this set's pieces (instead of "
        "pieces.shape)")
    card: CardFace | None = Field(
        default=None, description="how this set's cards' faces are drawn, instead of "
        "pieces.card (fish cards and action cards differ)")
    back: str | None = Field(
        default=None, min_length=1, max_length=80,
        description="what a piece of this set shows when it is hidden (a card's back, "
        "e.g. 'Goal card'): every seat sees which backs lie where, and pieces with the "
        "same back cannot be told apart face down. Give sets shuffled into one deck the "
        "same back. Without it, a hidden piece shows nothing (all pieces without a back "
        "look alike)")

    @model_validator(mode="wrap")
    @classmethod
    def _keep_row_locations(cls, data: Any, handler: Any) -> Any:
        model = handler(data)
        rows = data.get("table") if isinstance(data, dict) else None
        item_locs = getattr(rows, "item_locs", None) or []
        object.__setattr__(model, "__tabletop_rows__", [
            (item_locs[i] if i < len(item_locs) else None, getattr(row, "key_locs", None) or {})
            for i, row in enumerate(rows or [])])
        return model

    def row_loc(self, index: int, key: str | None = None) -> Location | None:
        """Where row `index` of the table (or its `key`) is written."""
        rows = self.__dict__.get("__tabletop_rows__") or getattr(
            self, "__tabletop_rows__", None) or []
        if index >= len(rows):
            return self.key_loc("table")
        row_loc, key_locs = rows[index]
        return (key_locs.get(key) if key is not None else None) or row_loc or \
            self.key_loc("table")


class PiecesDecl(Node):
    """The components: attributes, then the sets made from them."""

    attributes: dict[str, AttributeDecl]
    sets: list[PieceSet] = Field(min_length=1)
    glyph: str | None = Field(default=None, description="attribute drawn as the piece's letter")
    shape: Shape | None = Field(
        default=None, description="how the pictures draw a piece: pyramid (in profile, as "
        "wide as its size), card (its face: see pieces.card), disc, square (a tile), or die "
        "(pips for its glyph attribute's number, else its first number); default: pyramids "
        "for pieces with a size, square tiles for others")
    card: CardFace | None = Field(
        default=None, description="how a card's face is drawn from its data (pieces drawn "
        "as cards); without it a card shows its name, a band of its colour and a number "
        "in its corner")
    style: str | None = Field(default=None, description="attribute that colours the piece")
    face: list[str] = Field(
        default_factory=list, description="attributes printed on a card's face in the "
        "rulebook's pictures and legend, each by its short form if it has one, else its "
        "value's name (e.g. [value, stars] with short $3 and name 2★)")
    panels: PanelsDecl | None = Field(
        default=None, description="faces divided into regions, e.g. a card's four quarters: "
        "read with panel(piece, region), panels(piece) and edge(piece, side)")
    height: Expr | None = Field(
        default=None, description="each piece's height (an expression using `piece`), e.g. "
        "in micrometres so that sums stay exact: altitude(piece) stacks them up")
    height_unit: Literal["µm", "um", "mm", "cm", "in"] | None = Field(
        default=None, description="the unit of pieces.height, for the rulebook's side "
        "views of houses and its altitudes (µm, mm and cm are shown in millimetres)")
    name: Template | None = Field(
        default=None, description="a piece's name: a text template whose {expression} parts "
        "use the attributes, each standing for the name of the piece's value (empty when it "
        "has none), e.g. '{colour} {size}'; default: its values' names in order")


class ZoneDecl(Node):
    """A place where pieces lie, with who may see what is in it."""

    id: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    label: str | None = None
    kind: Literal["grid", "hex", "pile", "slots"] = Field(
        description="grid: rows × cols squares, each a stack (or an open grid, with "
                    "`reach`); hex: a board of hexagons, rows × cols in a rhombus (as Hex's "
                    "board) or a hexagon with `side` hexes along each side, named like a "
                    "grid's squares (a1 bottom left), six directions ne, e, se, sw, w, nw; "
                    "pile: one ordered pile (deck, hand, supply); slots: numbered places "
                    "without geometry (a field, a row of pits)")
    rows: Expr | None = None
    cols: Expr | None = None
    side: Expr | None = Field(
        default=None, description="kind: hex, instead of rows and cols: a hexagon-shaped "
        "board with this many hexes along each of its six sides (2 × side − 1 rows)")
    reach: Expr | None = Field(
        default=None, description="an open grid (instead of rows and cols): a table with no "
        "edge the game can reach, its squares named x,y from the centre 0,0 (x to the east, y "
        "to the north) and laid out `reach` squares each way, e.g. the number of cards that "
        "could lie in a row; the terminal and pictures show only the part in use")
    size: Expr | None = Field(default=None, description="number of slots (kind: slots)")
    per_seat: bool = Field(default=False, description="each seat has its own")
    contents: Visibility = Field(default="everyone", description="who sees which pieces")
    count: Visibility = Field(default="everyone", description="who sees how many pieces")
    reveal_at_end: bool = True
    on_table: bool = Field(
        default=True, description="false for a place that is not part of the play area (the "
        "box, a pile used only while setting up): the terminal and the rulebook's pictures "
        "leave it out")
    conceal: Expr | None = Field(
        default=None,
        description="pieces for which this holds are shown to nobody, only as hidden "
                    "pieces (uses `piece`, `place`, `viewer`), e.g. a die under a cover")
    area: Literal["seat", "centre"] | None = Field(
        default=None, description="where the zone lies on the table: seat, in its owner's "
        "area (each seat's own in front of that seat); centre, in the middle of the table "
        "for all. Default: a zone per seat in its owner's area, a shared zone in the centre")
    arrange: Literal["row", "fan", "stack", "grid"] | None = Field(
        default=None, description="how its pieces lie: row, side by side (alike pieces as one "
        "with ×n); fan, a hand of overlapping cards; stack, one pile with its count (the top "
        "piece face up when it may be seen); grid, a board. Default: grid for a grid or hex "
        "board; fan for a pile only its owner sees (a hand); stack for a pile nobody sees (a "
        "deck); row for other piles and for slots")
    description: str | None = None

    @model_validator(mode="after")
    def _area_and_arrangement_fit(self) -> ZoneDecl:
        """A shared zone has no owner to sit in front of; a board is laid out by its own
        squares, and a pile or slots have none to lay out as one."""
        if self.area == "seat" and not self.per_seat:
            raise ValueError("`area: seat` is for a zone per seat (`per_seat: true`): a "
                             "shared zone has no owner; it lies in the centre")
        board = self.kind in ("grid", "hex")
        if self.arrange == "grid" and not board:
            raise ValueError(f"`arrange: grid` is for a grid or hex board, not a "
                             f"{self.kind}")
        if self.arrange is not None and self.arrange != "grid" and board:
            raise ValueError(f"a {self.kind} board is drawn as its squares: it takes "
                             f"`arrange: grid` (or none), not {self.arrange}")
        if self.kind == "slots" and self.arrange not in (None, "row"):
            raise ValueError(f"slots are drawn as a row of numbered places: they take "
                             f"`arrange: row` (or none), not {self.arrange}")
        return self


class VarDecl(Node):
    """A game variable, or a per-seat resource with `per_seat`."""

    id: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    label: str | None = Field(
        default=None, description="what players call it, e.g. 'Beads' or 'Secret colour': "
        "the terminal, the browser and the rulebook show the variable under this label "
        "('Your secret colour: green', 'Beads: 15 (you) · Player 2: 12'); default: its id "
        "in words")
    initial: Expr = Field(default_factory=lambda: Expr("0"))
    per_seat: bool = False
    per_piece: bool = Field(
        default=False, description="one value per piece (`initial` may use `piece`), e.g. "
        "which way up a card lies; read as facing[p], written with `set: facing` + `piece:`; "
        "a seat sees a piece's values only while it sees the piece")
    visible_to: Visibility = "everyone"
    reveal_at_end: bool = True
    on_table: bool = Field(
        default=True, description="false for the rules' own bookkeeping (a counter the "
        "rules keep, a value the prompt or the log already says): public, but not shown to "
        "players (not on the terminal, nor in the browser's table, nor among the things to "
        "keep track of in the rulebook's players' layer); views still carry it for tools "
        "and computer players. A variable no player may see (`visible_to: nobody`) is "
        "never shown either")
    holds: Literal["pieces", "places", "seats"] | None = Field(
        default=None, description="what the variable's value is made of, when it is pieces "
        "(a piece, a list of them, null) or places (squares, piles): views then show each "
        "piece as the seat sees it (described, or hidden with its back) and each place by "
        "its name, never the engine's numbers for them; seats (a seat, a list of them, "
        "null): players read each as the seat's name (Player 2), views keep the numbers")
    description: str | None = None


class ProcedureDecl(Node):
    """A named block of effects, run by `call`, with its own local names."""

    id: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    params: list[str] = Field(default_factory=list)
    do: Block
    text: str | None = None


class TriggerDecl(Node):
    """Effects that run as soon as a piece enters a zone, pausing whatever was going on."""

    id: str
    enters: Name = Field(description="the zone a piece enters")
    where: Expr | None = Field(default=None, description="condition on `piece` and `place`")
    do: Block
    text: str | None = None


class EndRule(Node):
    """A way the game ends, checked at the end of every turn."""

    id: str
    when: Expr
    winners: Expr | None = Field(default=None, description="list of seats; default: ranking")
    text: str | None = None


class Budgets(Node):
    """Limits that stop runaway rules with a clear error instead of a hang.

    Steps count the work the rules do: every effect carried out, every element a
    comprehension, an option listing or a built-in goes through, every character of
    text a template or `say` writes. Sizes bound what expressions may build and what
    the ruleset may declare. Each default is far above what the bundled games need;
    raise one in a ruleset that really needs more.
    """

    steps_per_decision: int = Field(
        default=1_000_000, ge=1, le=10 ** 10,
        description="steps the rules may take between two decisions (or during set-up)")
    steps_for_setup: int = Field(
        default=10_000_000, ge=1, le=10 ** 11,
        description="steps the set-up may take, up to the first decision (a random set-up "
                    "under a condition may need many deals)")
    steps_per_game: int = Field(
        default=50_000_000, ge=1, le=10 ** 12,
        description="steps the rules may take in a whole game")
    decisions_per_game: int = Field(default=100_000, ge=1, le=10 ** 9)
    turns_per_game: int = Field(default=10_000, ge=1, le=10 ** 9)
    list_length: int = Field(default=100_000, ge=1, le=10 ** 7,
                             description="longest list an expression may build")
    text_length: int = Field(default=100_000, ge=1, le=10 ** 7,
                             description="longest text an expression or template may build")
    value_size: int = Field(
        default=1_000_000, ge=1, le=10 ** 8,
        description="largest value a variable or a local name may keep, counting one for "
                    "each value and one for each character of a text, as if nothing in it "
                    "were shared (what saving or showing it writes)")
    largest_number: int = Field(
        default=2 ** 53 - 1, ge=1, le=2 ** 63 - 1,
        description="largest number (either sign) a rule may compute; the default is the "
                    "largest whole number every JSON reader keeps exactly")
    pieces: int = Field(default=10_000, ge=1, le=10 ** 6,
                        description="most pieces the ruleset may declare")
    places: int = Field(default=10_000, ge=1, le=10 ** 6,
                        description="most places (squares, piles, slots) its zones may have")


class Definition(Node):
    """A definition with the words the rulebook uses for it, where the words made from
    its name read poorly (`in_stash(c, z)` → "a {c} of size {z} is in the stash")."""

    value: Expr
    says: str = Field(max_length=1000,
                      description="how a use of it reads, with {parameter} for each "
                                  "parameter, e.g. '{c} has a piece in the stash'")
    text: str | None = Field(
        default=None, max_length=4000,
        description="what it means, in the players' words: the rulebook's players' layer "
                    "gives it where the score or the ranking uses it (e.g. how a "
                    "player's points are counted)")


class Ruling(Node):
    """A ruling or clarification, shown in the rulebook and pinned by a scenario test."""

    id: str
    text: str


class RulebookDecl(Node):
    """How the generated rulebook presents the game. Its examples are the scenario cases
    marked `example:` in the game's tests file (<game>.tests.yaml)."""

    example_seed: int = Field(default=1, ge=0, le=10 ** 9, description="the seed of the "
                              "set-up pictured in the rulebook (a real seeded set-up)")
    turn_summary: list[str] = Field(
        default_factory=list, description="the turn in a few lines, in the designer's "
        "words, printed as the rulebook's one-page turn summary (default: generated from "
        "the turn's effects and options)")


def _settings_text(value: Any) -> Any:
    """A player's settings are the text after `mcts:` on the command line; a bare number
    (`mcts: 5`) most likely meant a budget, so say how to write one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    hint = f"playouts={value}" if isinstance(value, int) else f"seconds={value}"
    raise ValueError(f"settings are text such as '{hint}', not a bare number")


AgentSettings = Annotated[str, BeforeValidator(_settings_text)]


class ComputerPlayers(Node):
    """How the searching computer players play this game unless told otherwise: their
    settings as on the command line (`judge=score`); a setting given to `--agent` wins."""

    mcts: AgentSettings | None = Field(default=None, description="settings of `mcts` in this game, "
                             "e.g. 'judge=score' or 'playouts=800,depth=10'")
    ismcts: AgentSettings | None = Field(default=None, description="settings of `ismcts` in this "
                               "game, e.g. 'judge=score'")


class Ruleset(Node):
    """A whole game."""

    tabletop: Literal[1] = Field(default=1, description="language version")
    game: GameInfo
    options: list[OptionDecl] = Field(default_factory=list)
    pieces: PiecesDecl
    zones: list[ZoneDecl] = Field(min_length=1)
    variables: list[VarDecl] = Field(default_factory=list)
    define: dict[str, Expr | Definition] = Field(
        default_factory=dict,
        description="named expressions: 'name' or 'name(a, b)': expression (or a mapping "
                    "with `value` and `says`, the words the rulebook uses for it)")
    procedures: list[ProcedureDecl] = Field(default_factory=list)
    triggers: list[TriggerDecl] = Field(default_factory=list)
    first_seat: Expr = Field(default_factory=lambda: Expr("1"))
    setup: Block = Field(default_factory=list)
    turn: Block
    end: list[EndRule] = Field(default_factory=list)
    rank: list[Expr] = Field(default_factory=list,
                             description="per-seat keys (using `seat`), best first, when no "
                                         "end rule names the winners; equal ranks draw")
    scores: Expr | None = Field(default=None, description="a seat's score (using `seat`)")
    most_decisions: Expr | None = Field(
        default=None, description="the most decisions a game can take, when the rules bound "
        "it (every choice of every seat counts one; 9 where each marks one of 9 squares), "
        "computed from the options alone (e.g. `size * size`) and true for every seat count; "
        "a game that "
        "goes past it stops with a rules error. Learning frameworks size their buffers "
        "from it (OpenSpiel's max_game_length)")
    budgets: Budgets = Field(default_factory=Budgets)
    rulings: list[Ruling] = Field(default_factory=list)
    rulebook: RulebookDecl = Field(default_factory=RulebookDecl)
    computer_players: ComputerPlayers = Field(
        default_factory=ComputerPlayers,
        description="the settings the searching computer players start from in this game "
                    "(e.g. `mcts: judge=score`); `--agent` settings win")


class VariantGame(Node):
    """A variant's own name and title; any other game fact it gives replaces the base's."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="file-name id, e.g. "
                      "my-game-two-winners")
    title: str
    designer: str | None = None
    year: int | None = None
    seats: Seats | None = None
    playing_time: str | None = None
    summary: str | None = None
    status: str | None = None
    group: str | None = None
    introduction: str | None = None
    source: str | None = None


class VariantItems(Node):
    """Whole items for `add` and `replace`, written as in a ruleset; each names its id."""

    options: list[OptionDecl] | None = None
    attributes: dict[str, AttributeDecl] | None = None
    sets: list[PieceSet] | None = None
    zones: list[ZoneDecl] | None = None
    variables: list[VarDecl] | None = None
    define: dict[str, Expr | Definition] | None = None
    procedures: list[ProcedureDecl] | None = None
    triggers: list[TriggerDecl] | None = None
    end: list[EndRule] | None = None
    rulings: list[Ruling] | None = None


class VariantIds(Node):
    """The ids of the base's items a variant removes."""

    options: list[str] | None = None
    attributes: list[str] | None = None
    sets: list[str] | None = None
    zones: list[str] | None = None
    variables: list[str] | None = None
    define: list[str] | None = None
    procedures: list[str] | None = None
    triggers: list[str] | None = None
    end: list[str] | None = None
    rulings: list[str] | None = None


class ReplaceEffect(Node):
    """Put these effects where the effect with this id stands."""

    replace: str
    with_: Block = Field(alias="with")


class RemoveEffect(Node):
    remove: str = Field(description="the id of the effect to take out")


class InsertBefore(Node):
    before: str = Field(description="the id of the effect the new ones go before")
    insert: Block


class InsertAfter(Node):
    after: str = Field(description="the id of the effect the new ones go after")
    insert: Block


class Insert(Node):
    """Items put into a list (steps, options, end rules …) next to a part, or at the end
    of one; for `define` and `attributes`, a mapping of new names."""

    before: str | None = Field(default=None, description="the address the items go before")
    after: str | None = Field(default=None, description="the address the items go after")
    into: str | None = Field(default=None, description="the address of a list (or of "
                             "`define`, `attributes`) the items go at the end of")
    items: list[Any] | dict[str, Any] = Field(description="written as in a ruleset")


Address = Annotated[str, Field(description="a part's address, as `tabletop parts GAME` "
                                           "lists it: `turn.2`, `cap_move`, `end.three-trios`")]


class Variant(Node):
    """A ruleset that extends another and changes parts of it by address (merge rules: the
    README's "Variants")."""

    tabletop: Literal[1] = Field(default=1, description="language version")
    extends: str = Field(description="the base: a bundled game's name, or a path from this "
                                     "file's folder; it may be a variant itself")
    game: VariantGame
    replace: dict[Address, Any] | None = Field(
        default=None, description="address: the part's new YAML, written as in a ruleset "
        "(`tabletop parts GAME ADDRESS --yaml` prints the base's)")
    remove: list[Address] | VariantIds | None = Field(
        default=None, description="the addresses of the parts to take out")
    insert: list[Insert] | Insert | None = Field(
        default=None, description="items to put next to a part: {before: ADDRESS, items: "
        "[...]}, {after: ADDRESS, items: [...]} or {into: ADDRESS, items: [...]}")
    change: dict[Address, dict[str, Any]] | None = Field(
        default=None, description="address: only the fields that change, e.g. "
        "`options.power_play: {default: false}`; `options: {power_play: {...}}` (a block "
        "of named items: id → fields) is short for the same")
    add: VariantItems | None = Field(
        default=None, description="older form: whole items added at the end of a block "
        "(`insert: [{into: BLOCK, items: [...]}]` says the same)")
    effects: list[ReplaceEffect | RemoveEffect | InsertBefore | InsertAfter] | None = Field(
        default=None, description="older form: edits of the effects that carry an `id:` "
                                  "(an effect's id is its address)")
    first_seat: Expr | None = None
    rank: list[Expr] | None = None
    scores: Expr | None = None
    most_decisions: Expr | None = None
    budgets: dict[str, int] | None = Field(default=None, description="only the budgets that "
                                           "change")
    rulebook: RulebookDecl | None = None
    computer_players: ComputerPlayers | None = None


def definition_bodies(rs: Ruleset) -> dict[str, Expr]:
    """Each definition key with its expression, however it was written."""
    return {key: d.value if isinstance(d, Definition) else d for key, d in rs.define.items()}


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the language, for editors (yaml-language-server)."""
    from pydantic.json_schema import models_json_schema

    _, both = models_json_schema([(Ruleset, "validation"), (Variant, "validation")],
                                 by_alias=True, ref_template="#/$defs/{model}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Tabletop ruleset",
        "description": "A whole game, or (with `extends`) a variant of another ruleset.",
        "$defs": both["$defs"],
        "if": {"type": "object", "required": ["extends"]},
        "then": {"$ref": "#/$defs/Variant"},
        "else": {"$ref": "#/$defs/Ruleset"},
    }


def json_schema_text() -> str:
    return json.dumps(json_schema(), indent=2, sort_keys=True) + "\n"
