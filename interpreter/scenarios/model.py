"""The scenario-test file: named cases that pin down how a ruleset plays.

A tests file sits next to its ruleset as ``<game>.tests.yaml`` (``tabletop test``
runs them all). It is read with the same located YAML as rulesets, so every mistake
is reported as ``file:line:col: error: ...`` with a did-you-mean hint.

Format::

    ruleset: my-game          # optional: a bundled game's name or a path relative to
                              # this file; default: the ruleset named like this file
    players: 2                # optional defaults for every case (a case may override)
    options: {power_play: true}

    cases:
      - name: a cap moves in all eight directions    # say which rule the case pins
        note: free text, e.g. the rulebook sentence this case checks (optional)
        players: 2            # default: the game's minimum number of seats
        options: {power_play: false}   # merged over the file's options

        # The start: EITHER a seed (the real set-up, run with that random seed) ...
        seed: 3
        # ... OR a position built by hand. All pieces start where the ruleset's sets
        # start them; each place named here then holds exactly the pieces listed,
        # bottom first (the pieces are taken from wherever they are). Places are named
        # as the game names them: a square ("b2"), a pile ("box"), a seat's pile
        # ("captured[1]"); or group them under their zone: a grid's squares by name,
        # a per-seat zone's places by seat number.
        position:
          board:
            b2: [red small, red medium, red large, black small]
            c3: []
          captured:
            1: [red large]
          e5: [blue small]               # a place named directly
        turn: 1               # with a position: whose turn it is (default 1)
        out: [3]              # with a position: seats already knocked out (optional)
        ended: {winners: [1], reason: "Player 1 has three trios"}
                              # with a position: the game is over in it (optional; then
                              # no turn starts, and `turn` says whose turn it was)

        variables:            # optional: set ruleset variables (expressions, evaluated
          quiet_turns: 3      # on the start state); per-seat ones as {seat: value}

        moves:                # decisions applied in order, by their notation; the
          - b2-ne             # deciding seat makes them ("2: b2-ne" or {2: b2-ne}
          - "2: c1-n"         # names the seat, needed when several seats decide)

        # What must hold afterwards (all are optional; every failure is reported):
        expect:               # expressions over the resulting state, in the ruleset's
          - height('b2') == 3 # own language: its definitions, variables and zones
          - trios(1) == 0     # can be used (and the turn's local values, if any)
        seat: 1               # whose options the checks below are about
                              # (default: the one seat that must decide now)
        legal: [a1-n, a1-e]   # exactly these options are legal (order does not matter)
        legal_includes: [a1-n]
        legal_excludes: [a1-s]
        illegal: [b2-ne]      # each is refused if tried ("1: ..." to try it as seat 1)
        deciding: [2]         # exactly these seats must decide now
        over: true            # the game is (or with false: is not) over
        winners: [1]          # the game is over with exactly these winners
        log_includes: ["Eruption from b2"]  # text found in the game's log lines
        log_excludes: ["captures"]          # text found in none of them
                              # (both read the whole log, as the referee sees it)
        log_of:               # text found in the log as one seat may read it (its
          2: ["Shown to Player 2"]          # lines, what it may see of the others)
        log_hides:            # text in no line of the log that seat may read
          3: ["Ace"]

        # Optional: show the case in the rulebook as an illustrated example (``tabletop
        # test`` proves it like any other case). The moves before the shown ones only
        # reach the position; each shown move is drawn before and after, with arrows
        # for what moved and marks where pieces left the board, its words and what the
        # game said; the checks above are stated in words under it.
        example:
          caption: A cap move that erupts       # the example's heading
          text: the designer's words about it   # optional
          show: 1             # how many of the last moves to show (default: all)
          values:             # optional: a table of values on the final position
            - {label: Fire's altitude (mm), value: altitude_of(fire) / 1000}

Pieces are named by the game's piece names (``red large``) or short codes (``rL``); a
piece given as a mapping adds its per-piece variables (``{piece: FW, facing: 180}``) and
the attributes that tell it from pieces of the same name (``{piece: red fish size 1,
value: 2}``). Notations are those the game shows for its options (``tabletop play``
lists them).

A position seen in play is written in this format by ``position_of`` in
``interpreter.scenarios.position`` (``tabletop run --json`` prints the final one as
``final_state``): its keys are a case's, ready to paste.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from interpreter.located import Expr, Node, _LocatedText


class Text(_LocatedText):
    """A word of the tests file (a piece, a place, a notation) with its position."""

    kind = "text"
    json_types = ("string", "number")
    description = "Text: a piece name, a place name or a move's notation."


PieceList = list[Text | dict[Text, Any]]
Position = dict[Text, PieceList | dict[Text, PieceList]]
Moves = list[Text | dict[int, Text]]


class ExampleValue(Node):
    """A value printed under an example, evaluated on the case's final position."""

    label: str = Field(description="what the value is, e.g. Fire's altitude")
    value: Expr = Field(description="an expression of the game's language, e.g. "
                        "altitude_of(fire)")


class Example(Node):
    """How a case appears in the rulebook as an illustrated example."""

    caption: str = Field(description="the example's heading")
    text: str | None = Field(default=None, description="the designer's words about it")
    show: int | None = Field(default=None, ge=0, description="how many of the case's last "
                             "moves to show, each drawn before and after (default: all); "
                             "the moves before them only reach the position")
    values: list[ExampleValue] = Field(default_factory=list, description="values to print "
                                       "in a table under the example, on its last position")


class Ended(Node):
    """A position in which the game is over (a finished game's last position)."""

    winners: list[int] = Field(default_factory=list, description="who won (none: nobody)")
    reason: str | None = Field(default=None, description="how the game ended, as its end "
                               "rule says it")


class Case(Node):
    """One named scenario: a start, decisions, and what must hold afterwards."""

    name: str = Field(description="which rule this case pins down")
    note: str | None = Field(default=None, description="free text for the reader")
    players: int | None = Field(default=None, description="number of seats")
    options: dict[str, Any] = Field(default_factory=dict, description="option values")
    seed: int | None = Field(default=None, description="start from the real set-up")
    position: Position | None = Field(default=None, description="start from this position")
    turn: int | None = Field(default=None, description="whose turn the position starts at")
    out: list[int] = Field(default_factory=list, description="with a position: the seats "
                           "already knocked out of the game, in the order they went out")
    ended: Ended | None = Field(default=None, description="with a position: the game is "
                                "over in it, with these winners (no turn starts)")
    variables: dict[Text, Expr | dict[int, Expr]] = Field(default_factory=dict)
    moves: Moves = Field(default_factory=list, description="notations applied in order")
    expect: list[Expr] = Field(default_factory=list, description="must all be true")
    seat: int | None = Field(default=None, description="whose options are checked")
    legal: list[Text] | None = Field(default=None, description="exactly these are legal")
    legal_includes: list[Text] = Field(default_factory=list)
    legal_excludes: list[Text] = Field(default_factory=list)
    illegal: list[Text] = Field(default_factory=list, description="each must be refused")
    deciding: list[int] | None = Field(default=None, description="exactly these seats decide")
    over: bool | None = None
    winners: list[int] | None = None
    log_includes: list[str] = Field(default_factory=list)
    log_excludes: list[str] = Field(default_factory=list)
    log_of: dict[int, list[str]] = Field(default_factory=dict, description="for a seat, texts "
                                         "found in the log as that seat may read it")
    log_hides: dict[int, list[str]] = Field(default_factory=dict, description="for a seat, "
                                            "texts in no line of the log that seat may read")
    example: Example | None = Field(default=None, description="show this case in the "
                                    "rulebook as an illustrated example")


class ScenarioFile(Node):
    """A whole tests file: the ruleset it tests, shared defaults, and the cases."""

    ruleset: str | None = Field(default=None, description="bundled game name or path")
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    base_changes: list[str] = Field(
        default_factory=list, description="a variant's tests: the names of the base's cases "
        "this variant changes on purpose; `tabletop test VARIANT --base` then fails when "
        "any other base case changes, or one of these still holds")
    cases: list[Case]


__all__ = ["Case", "Ended", "Example", "ExampleValue", "ScenarioFile", "Text"]
