"""The rulebook's two layers: the rules as players read them, and the exact rules.

The player-facing layer must never show the engine's bookkeeping (local values,
variables no player sees, log messages), must use the designer's words where they wrote
them, and must say when it leaves a step to the exact rules; the exact rules keep
everything."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.compile.english import humanize
from interpreter.docs.build import environment, render_game
from interpreter.docs.players import LEFT_OUT, reads_poorly
from interpreter.docs.rulebook import Rulebook, build_rulebook
from interpreter.load.loader import load_ruleset, load_ruleset_text

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["caldera", "bottoms-up", "high-rise", "aquarium", "aquarius-rising"]


def book_of(name: str) -> Rulebook:
    return build_rulebook(load_ruleset(ROOT / "rulesets" / f"{name}.yaml"))


def player_text(book: Rulebook) -> str:
    p = book.players
    assert p is not None
    parts = [p.setup, p.turn, *p.turn_summary,
             *(x["text"] + x["rules"] for x in p.procedures + p.triggers)]
    return "\n".join(parts)


def page(book: Rulebook) -> str:
    return render_game(environment(), book, None, [])


@pytest.mark.parametrize("name", GAMES)
def test_the_player_layer_never_shows_the_engines_bookkeeping(name: str) -> None:
    book = book_of(name)
    text = player_text(book)
    assert not reads_poorly(text), [line for line in text.splitlines() if reads_poorly(line)]
    assert "Exactly:" not in text
    assert "Announce:" not in text and "Tell " not in text
    hidden = [v.id for v in load_ruleset(ROOT / "rulesets" / f"{name}.yaml").model.variables
              if v.visible_to == "nobody"]
    for var in hidden:
        assert not re.search(rf"\bthe {re.escape(humanize(var))}\b", text), var
    # Nor do the "things to keep track of" players see.
    names = {v["name"] for v in book.players.variables}
    assert not names & {humanize(v) for v in hidden}


@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_reads_whole_to_players(name: str) -> None:
    """The designers' words cover every step: nothing is left to the exact rules alone."""
    book = book_of(name)
    assert not book.players.setup_left_out
    assert not book.players.turn_left_out
    assert LEFT_OUT not in page(book)
    assert len(book.players.turn_summary) >= 3


@pytest.mark.parametrize("name", GAMES)
def test_the_exact_rules_keep_every_step(name: str) -> None:
    book = book_of(name)
    text = page(book)
    head, exact = text.split("\n## The exact rules\n")
    assert book.turn in exact and (not book.setup or book.setup in exact)
    for p in book.procedures:
        assert p["rules"] in exact
    assert "Exactly:" not in head.split("## Options and variants")[0].split("## Examples")[0]


def test_pages_show_no_internal_status_or_paths() -> None:
    for name in GAMES:
        text = page(book_of(name))
        assert "seeds/" not in text and "RULES-NOTES" not in text
        assert "| complete |" not in text and "Status: complete" not in text
        assert "options in the first decision" not in text


def test_component_counts_say_what_is_in_the_box() -> None:
    bottoms = page(book_of("bottoms-up"))
    assert "5 of each colour (red, yellow, green, blue, white, black) in each size" in bottoms
    assert "one of each colour (red, yellow, green, blue, white, black)" not in bottoms
    high = book_of("high-rise")
    assert high.total_text == "69 pieces and 9 six-sided dice"
    assert "54 pieces" not in page(high)


RULESET = """
game: {name: tiny, title: Tiny, seats: {min: 2, max: 2}, designer: Someone,
       summary: A tiny game.}
pieces:
  attributes:
    colour: {values: [red]}
  sets:
    - {id: stones, count: 4, each: {colour: [red]}, start: box}
zones:
  - {id: box, kind: pile}
  - {id: board, kind: grid, rows: 1, cols: 3}
variables:
  - {id: ticks, initial: 0, visible_to: nobody}
  - {id: rounds, initial: 0}
turn:
  - let: {here: "first(cells(board))"}
  - add: ticks
    amount: 1
  - say: "{seat_name(current)} plays."
  - add: rounds
    amount: 1
  - move: first(pieces(box))
    to: here
  - choose: "{seat_name(current)}: go on?"
    options:
      - id: stop
        notation: stop
        label: Stop
        do:
          - end_game: stopped
      - id: go_on
        notation: go
        label: Go on
        text: Keep playing.
        do: []
"""


def test_a_step_needing_a_local_value_is_left_to_the_exact_rules_and_said_so() -> None:
    book = build_rulebook(load_ruleset_text(RULESET, "tiny.yaml"))
    p = book.players
    assert p.turn_left_out
    assert "ticks" not in p.turn.lower()
    assert "Add 1 to the rounds." in p.turn
    assert "- Stop." in p.turn and "- Keep playing." in p.turn
    assert "here" not in p.turn
    text = page(book)
    assert LEFT_OUT in text
    assert "Let *here* be" in text.split("## The exact rules")[1]
    # Without a designer's turn summary, the summary is the turn's top-level steps.
    assert p.turn_summary[0] == "Add 1 to the rounds."
    # A decision's options join its line.
    assert p.turn_summary[-1] == "The current player chooses one of these: Stop; keep playing."


def test_a_phrase_slot_after_the_keeps_one_article() -> None:
    """Aquarius Rising's rulebook read "the panels along the the opposite of d side"."""
    from interpreter.compile.english import fill

    assert fill("the panels along the {1} side of {0}", ["x", "the opposite of *d*"]) == (
        "the panels along the opposite of *d* side of x")
    assert fill("the panels along the {1} side of {0}", ["x", "*d*"]) == (
        "the panels along the *d* side of x")
    assert fill("the {} of {}", ["a card", "y"]) == "a card of y"
    assert fill("breathe {}", ["the air"]) == "breathe the air"


def test_the_players_layer_leaves_out_variables_kept_off_the_table() -> None:
    """`on_table: false` is the rules' bookkeeping (Aquarium's pairs kept, Bottoms Up's
    queue of stacks): the exact rules list it as such, the players' layer does not."""
    root = Path(__file__).resolve().parents[1] / "generated_docs"
    aquarium = (root / "aquarium" / "index.md").read_text(encoding="utf-8")
    players, exact = aquarium.split("Everything the game keeps track of", 1)
    assert "Fish kept as a pair" not in players and "Price of the pet shop" not in players
    assert "**Beads**" in players
    for label, name in (("Price of the pet shop", "price"), ("Fish kept as a pair", "kept")):
        entry = exact.split(f"**{label}**")[1][:300]
        assert f"Called *{name}* in the exact rules" in entry
        assert "the rules' own bookkeeping" in entry
    bottoms = (root / "bottoms-up" / "index.md").read_text(encoding="utf-8")
    players, _ = bottoms.split("Everything the game keeps track of", 1)
    assert "**Queue**" not in players and "**Chain steps**" not in players
