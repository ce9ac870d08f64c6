"""A variant's rulebook page: only its differences from the base, in words, linked to the
base's page; every kind of change a variant can make reads as a sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.docs.build import build_docs, load_all
from interpreter.docs.variant_page import VariantPage, build_variant_page
from interpreter.load.loader import load_ruleset

ROOT = Path(__file__).resolve().parents[1]

BASE = """\
tabletop: 1
game:
  name: counters
  title: Counters
  designer: Test Suite
  seats: {min: 2, max: 3}
  summary: Take counters from the pile; whoever takes the last one wins.

options:
  - id: double_take
    label: Double take
    description: a player may take two counters at once
    type: bool
    default: true
  - id: spare_rule
    label: Spare rule
    description: a rule nobody reads
    type: int
    default: 2
    min: 1
    max: 5

pieces:
  attributes:
    colour:
      values: [red, blue]
    size:
      values: [1, 2, 3]
      names: {1: small, 2: medium, 3: large}
    weight:
      values: [light, heavy]
  sets:
    - id: counters
      label: Counter
      each: {colour: [red, blue], size: [1, 2, 3]}
      start: pile
    - id: tokens
      label: Token
      count: 2
      each: {colour: [red]}
      start: box

zones:
  - id: pile
    label: The pile
    kind: pile
  - id: taken
    kind: pile
    per_seat: true
  - id: box
    kind: pile
    contents: nobody
  - id: tray
    kind: pile

variables:
  - id: takes
    initial: 0
    per_seat: true
  - id: last_taker
    initial: 0
  - id: big_taken
    initial: 0
  - id: spare
    initial: 0

define:
  big(p): p.size == 3
  left: count(pieces(pile))

procedures:
  - id: take
    params: [who]
    do:
      - id: take-top
        move: top(pile)
        to: taken[who]
      - id: count-take
        add: takes
        seat: who
        amount: 1
  - id: tidy
    do:
      - id: tidy-up
        say: the table is tidy
        text: The table is tidied.

triggers:
  - id: count_big
    enters: taken
    where: big(piece)
    do:
      - id: count-big
        add: big_taken
        amount: 1

setup:
  - id: shuffle-pile
    shuffle: pile
  - id: greet
    say: welcome

turn:
  - id: the-choice
    choose: "{seat_name(current)}: take one or two"
    options:
      - id: take
        for:
          n: "[1, 2] if double_take else [1]"
        where: n <= left
        notation: "take{n}"
        do:
          - id: take-loop
            repeat:
              - id: call-take
                call: take
                with: {who: current}
              - id: count-down
                let:
                  n: n - 1
            until: n == 0
          - id: note-taker
            set: last_taker
            value: current

end:
  - id: empty
    when: left == 0
    winners: "[current]"
    text: Whoever takes the last counter wins.
  - id: long
    when: big_taken >= 6
    text: The game ends when six large counters are taken.

rank: [big_taken]
scores: takes[seat]

rulings:
  - id: taking
    text: A player takes from the top of the pile.
  - id: spare-ruling
    text: Nothing else matters.
"""


def write_variant(folder: Path, body: str, name: str = "v", game: str = "") -> Path:
    (folder / "base.yaml").write_text(BASE, encoding="utf-8")
    path = folder / f"{name}.yaml"
    path.write_text(f"tabletop: 1\nextends: base.yaml\n"
                    f"game: {{name: {name}, title: Counters Variant{game}}}\n" + body,
                    encoding="utf-8")
    return path


def page_of(tmp_path: Path, body: str, game: str = "") -> VariantPage:
    return build_variant_page(load_ruleset(write_variant(tmp_path, body, game=game)))


_FORBIDDEN = [
    (re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]"), "an identifier with '_'"),
    (re.compile(r"\b(None|True|False)\b"), "a Python value"),
    (re.compile(r"[\[\]{}<>]"), "a bracket"),
    (re.compile(r"\b(count-big|take-top|note-taker|shuffle-pile|tidy-up)\b"), "an effect id"),
]


def english(page: VariantPage) -> str:
    """Every entry of the page, checked for what a reader must never see."""
    text = "\n".join(page.added + page.removed + page.changed)
    for pattern, what in _FORBIDDEN:
        found = pattern.search(text)
        assert found is None, f"{what} in {text!r}"
    return text


def one(entries: list[str]) -> str:
    assert len(entries) == 1, entries
    return entries[0]


# -- the named parts -----------------------------------------------------------------------

def test_options(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  options:
    double_take: {default: false}
    spare_rule: {max: 9, description: a rule somebody reads}
add:
  options:
    - {id: fast, label: Fast game, description: the game is shorter, type: bool,
       default: false}
""")
    english(p)
    assert p.changed == [
        "The option **Double take** is off unless chosen (in Counters: on).",
        "The option **Spare rule**:\n"
        "    - A rule somebody reads (in Counters: A rule nobody reads).\n"
        "    - Values: a whole number from 1 to 9 (in Counters: a whole number from 1 to 5)."]
    assert p.added == ["The option **Fast game**: The game is shorter.\n"
                       "    - Values: on/off.\n    - Default: off."]
    assert not p.removed
    q = page_of(tmp_path, "change:\n  options:\n    spare_rule: {default: 4}\n")
    assert q.changed == ["The option **Spare rule** is 4 unless chosen (in Counters: 2)."]


def test_an_option_removed_or_replaced(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
remove:
  options: [spare_rule]
replace:
  options:
    - {id: double_take, label: Double take, description: a player may take two, type: bool,
       default: true}
""")
    english(p)
    assert p.removed == ["The option **Spare rule**: A rule nobody reads.\n"
                         "    - Values: a whole number from 1 to 5.\n    - Default: 2."]
    assert p.changed == ["The option **Double take**: A player may take two (in Counters: "
                         "A player may take two counters at once)."]


def test_attributes(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  attributes:
    size: {names: {1: tiny, 2: middling, 3: huge}}
remove:
  attributes: [weight]
add:
  attributes:
    shine: {values: [dull, shiny]}
""")
    english(p)
    assert p.changed == ["The **size** of the pieces: tiny, middling or huge (in Counters: "
                         "small, medium or large)."]
    assert p.removed == ["The **weight** of the pieces: light or heavy."]
    assert p.added == ["The **shine** of the pieces: dull or shiny."]


def test_sets_say_their_pieces_before_and_after(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  sets:
    tokens: {count: 5}
add:
  sets:
    - {id: chips, label: Chip, count: 3, each: {colour: [blue]}, start: box}
remove:
  sets: [counters]
""")
    english(p)
    assert p.added == ["Components: 3 Chips (blue) — **3 pieces**, starting in *Box*."]
    assert p.removed == ["Components: Counters: 6 pieces, one of each colour (red, blue) "
                         "in each size (small, medium, large), starting in *The pile*."]
    # 3 chips and 5 tokens are as many pieces as the 6 counters and 2 tokens: no total
    assert p.changed == ["Components: 5 Tokens (red) — **5 pieces**, starting in "
                         "*Box* (in Counters: 2 Tokens (red) — **2 pieces**, starting "
                         "in *Box*)."]
    q = page_of(tmp_path, "change:\n  sets:\n    tokens: {count: spare_rule * 3}\n")
    assert q.changed == [
        "Components:\n"
        "    - 6 Tokens (red) — **6 pieces** with the default options, starting in "
        "*Box* (in Counters: 2 Tokens (red) — **2 pieces**, starting in *Box*).\n"
        "    - Number of Tokens: the spare rule times 3 (in Counters: a fixed number).",
        "Components in all: 12 pieces (in Counters: 8), with the default options and the "
        "fewest players."]


def test_zones(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  zones:
    box: {contents: everyone, description: where the spare pieces wait}
replace:
  zones.tray: {id: tray, kind: grid, rows: 2, cols: 2}
add:
  zones:
    - {id: discard, kind: pile, label: Discard pile}
""")
    english(p)
    assert p.added == ["The place **Discard pile**: A pile of pieces."]
    assert p.changed == [  # the changes in the order the variant writes them
        "The place **Box**:\n"
        "    - Where the spare pieces wait (in Counters: not described).\n"
        "    - Everyone sees its pieces.\n"
        "        - In Counters: Its pieces are seen by nobody; everything is revealed when the "
        "game ends.",
        "The place **Tray**: A board of 2 × 2 squares, a1 to b2 (a1 is bottom left; each "
        "square holds a stack of pieces) (in Counters: A pile of pieces)."]


def test_variables_and_terms(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  variables:
    big_taken: {initial: 2, description: large counters taken}
replace:
  define.left: count(pieces(pile)) - 1
remove:
  variables: [spare]
add:
  define:
    is_heavy(p): p.weight == heavy
""")
    english(p)
    assert p.added == ["The term **is heavy**: ***p* is heavy** when the weight of *p* is "
                       "heavy."]
    assert p.removed == ["Something to keep track of: **Spare**: Starts at 0."]  # its label
    assert p.changed == [
        "Something to keep track of: **Big taken**:\n"
        "    - Large counters taken (in Counters: not described).\n"
        "    - Starts at 2 (in Counters: Starts at 0).",
        "The term **left**: **the left** means the number of pieces in the pile minus 1 "
        "(in Counters: **the left** means the number of pieces in the pile)."]


def test_procedures_and_triggers(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  procedures:
    take: {text: The player takes the top counter.}
  triggers:
    count_big: {where: piece.size >= 2}
remove:
  procedures: [tidy]
add:
  triggers:
    - id: note_red
      enters: taken
      where: piece.colour == red
      text: A red counter is announced.
      do:
        - say: a red one
""")
    english(p)
    assert p.removed == ["The procedure **Tidy**: The table is tidied.\n"
                         "    - Exactly: announce: “the table is tidy”."]
    assert p.added == ["**Whenever: note red**: A red counter is announced.\n"
                       "    - Whenever a piece enters Taken and the colour of *piece* is red.\n"
                       "    - Rules: Announce: “a red one”."]
    assert p.changed == [
        "The procedure **Take**: The player takes the top counter (in Counters: no text of "
        "its own).",
        "**Whenever: count big**: Whenever a piece enters Taken and the size of *piece* is "
        "at least 2 (in Counters: Whenever a piece enters Taken and the big of *piece*)."]
    q = page_of(tmp_path, """\
replace:
  procedures.take:
    id: take
    params: [who]
    do:
      - {move: bottom(pile), to: "taken[who]"}
      - {add: takes, seat: who, amount: 2}
""")
    assert q.changed == [
        "The procedure **Take**, rules:\n"
        "    - Now:\n"
        "        - Move the bottom piece of the pile onto the taken pile of *who*.\n"
        "        - Add 2 to the takes of *who*.\n"
        "    - In Counters:\n"
        "        - Move the top piece of the pile onto the taken pile of *who*.\n"
        "        - Add 1 to the takes of *who*."]


def test_end_rules_and_rulings(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
change:
  end:
    empty: {when: left <= 1, text: Whoever leaves one counter or none wins.}
  rulings:
    taking: {text: A player takes from the bottom of the pile.}
remove:
  end: [long]
  rulings: [spare-ruling]
add:
  rulings:
    - {id: new-rule, text: Counters are counted twice.}
""")
    english(p)
    assert p.added == ["The ruling **New rule**: Counters are counted twice."]
    assert p.removed == [
        "The ruling **Spare ruling**: Nothing else matters.",
        "The end of the game: The game ends when six large counters are taken. *The game "
        "ends after a turn when the big taken is at least 6; the ranking below decides who "
        "wins.*"]
    assert p.changed == [
        "The ruling **Taking**: A player takes from the bottom of the pile (in Counters: A "
        "player takes from the top of the pile).",
        "The end of the game: Whoever leaves one counter or none wins. *The game ends after "
        "a turn when the left is at most 1; the current player wins.*\n"
        "    - In Counters: Whoever takes the last counter wins. *The game ends after a turn "
        "when the left is 0; the current player wins.*"]


def test_a_change_the_rulebook_cannot_show_still_has_a_sentence(tmp_path: Path) -> None:
    p = page_of(tmp_path, "change:\n  zones:\n    tray: {reveal_at_end: true}\n")
    assert p.changed == ["The place **Tray**: the same words as in Counters (how the "
                         "interpreter plays it changes)."]


# -- effects -------------------------------------------------------------------------------

def test_effects_say_where_they_stand_and_the_old_and_new_rule(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
effects:
  - {replace: note-taker, with: [{say: nobody is noted, text: Nobody is noted.}]}
  - {remove: greet}
  - {before: shuffle-pile, insert: [{say: get ready}]}
  - {after: count-take, insert: [{say: one more, id: one-more}, {say: and again}]}
  - {replace: count-big, with: []}
  - {remove: count-down}
""")
    english(p)
    assert p.added == [
        "In the set-up, before “Shuffle the pile”, a new step: Announce: “get ready”.",
        "In the procedure *take*, after “Add 1 to the takes of *who*”, new steps:\n"
        "    - Announce: “one more”.\n"
        "    - Announce: “and again”."]
    assert p.removed == [
        "In the set-up: Announce: “welcome”.",
        "In a turn, within the decision “the current player: take one or two”, in the "
        "option “Take”, within “Repeat”: Let *n* be *n* minus 1.",
        "In “Whenever: count big”: Add 1 to the big taken."]
    assert p.changed == [
        "In a turn, within the decision “the current player: take one or two”, in the "
        "option “Take”:\n"
        "    - Now: Nobody is noted.\n"
        "        - Exactly: announce: “nobody is noted”.\n"
        "    - In Counters: Set the last taker to the current player."]


def test_a_replaced_effect_with_the_designers_words_is_said_by_them(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
effects:
  - replace: tidy-up
    with: [{say: the table is cleared, text: The table is cleared.}]
""")
    assert p.changed == [
        "In the procedure *tidy*:\n"
        "    - Now: The table is cleared.\n"
        "        - Exactly: announce: “the table is cleared”.\n"
        "    - In Counters: The table is tidied."]


def test_effects_edited_on_effects_the_variant_put_in_itself(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
effects:
  - {before: shuffle-pile, insert: [{id: ready, say: get ready}]}
  - {after: ready, insert: [{id: steady, say: steady}]}
  - {replace: steady, with: [{say: go}]}
""")
    assert p.added == [
        "In the set-up, before “Shuffle the pile”, a new step: Announce: “get ready”.",
        "In the set-up, a new step: Announce: “go”."]
    assert not p.removed and not p.changed


# -- whole keys and the game -----------------------------------------------------------------

def test_whole_keys(tmp_path: Path) -> None:
    p = page_of(tmp_path, """\
first_seat: "2"
rank: ["takes[seat]", big_taken]
scores: takes[seat] * 2
rulebook: {example_seed: 7}
budgets: {turns_per_game: 500}
""")
    english(p)
    assert p.changed == [
        "**The first player**: Player 2 takes the first turn; then turns go round the table "
        "in seat order.\n"
        "    - In Counters: Player 1 takes the first turn; then turns go round the table in "
        "seat order.",
        "**The score**: A player's score is their takes times 2 (in Counters: A "
        "player's score is their takes).",
        "**The ranking**: When the game ends without named winners, the player with the "
        "most takes wins; if tied, the player with the highest big taken wins. Players "
        "still equal share the win (a draw).\n"
        "    - In Counters: When the game ends without named winners, the player with the "
        "highest big taken wins. Players still equal share the win (a draw).",
        "**The set-up picture**: set up with seed 7 (in Counters: set up with seed 1).",
        "**The limits on the computer's work**, turns per game: 500 (in Counters: 10,000)."]
    assert not p.added and not p.removed
    q = page_of(tmp_path, "rank: [big_taken]\n")
    assert q.changed == ["**The ranking**: as in Counters (the variant says it again)."]


def test_the_game_says_what_a_player_needs_not_its_title(tmp_path: Path) -> None:
    p = page_of(tmp_path, "", game=", seats: {min: 2, max: 2}, summary: Short., "
                                   "status: playtesting")
    assert p.changed == ["**Players**: 2 (in Counters: 2–3).",
                         "**Status**: playtesting (in Counters: complete)."]
    assert (p.title, p.summary, p.seats) == ("Counters Variant", "Short.", "2")


def test_a_variant_that_changes_nothing_says_so(tmp_path: Path) -> None:
    p = page_of(tmp_path, "")
    assert p.same_as_base
    files = build_docs(rulesets=tmp_path)
    assert "Its rules are those of Counters." in files["v/index.md"]
    assert "## " not in files["v/index.md"]


# -- the site ------------------------------------------------------------------------------

def test_pages_link_variants_and_bases_both_ways(tmp_path: Path) -> None:
    write_variant(tmp_path, "change:\n  options:\n    double_take: {default: false}\n")
    (tmp_path / "w.yaml").write_text(
        "tabletop: 1\nextends: v.yaml\ngame: {name: w, title: Second Variant}\n"
        "add:\n  rulings: [{id: more, text: More.}]\n", encoding="utf-8")
    files = build_docs(rulesets=tmp_path)
    v, w = files["v/index.md"], files["w/index.md"]
    assert "A variant of **[Counters](../counters/index.md)**, for 2–3 players." in v
    assert "Variants: [Second Variant](../w/index.md)" in v
    assert "A variant of **[Counters Variant](../v/index.md)**" in w
    assert "Variants: [Counters Variant](../v/index.md)" in files["counters/index.md"]
    assert "The ruling **More**: More." in w and "Double take" not in w
    index = files["index.md"]
    assert index.index("- **[Counters](counters/index.md)**") < index.index(
        "\n    - Variant: **[Counters Variant](v/index.md)**") < index.index(
        "\n        - Variant: **[Second Variant](w/index.md)**")
    assert "(print/w.html)" in index
    html = files["print/v.html"]
    assert html.startswith("<!DOCTYPE html>") and "Printable version" not in html
    assert 'href="counters.html"' in html and "index.md" not in html
    # A variant's page prints as one page of its own: no cover, one <main>.
    assert 'class="cover"' not in html and html.count("<main>") == 1


def test_a_base_without_a_page_is_named_not_linked(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write_variant(tmp_path / "sub", "")
    (tmp_path / "sub" / "v.yaml").unlink()
    (tmp_path / "out.yaml").write_text(
        "tabletop: 1\nextends: sub/base.yaml\ngame: {name: out, title: Out}\n",
        encoding="utf-8")
    _, pages, skipped = load_all(tmp_path)
    assert not skipped
    page = pages[0]
    assert page.base_link is None
    files = build_docs(rulesets=tmp_path)
    assert "A variant of **Counters**, for" in files["out/index.md"]
    assert "- **[Out](out/index.md)**, a variant of Counters: " in files["index.md"]


@pytest.fixture(scope="module")
def bundled_files() -> dict[str, str]:
    """Every bundled game's generated files: one build for the tests that read them."""
    return build_docs()


def test_the_bundled_variant_pages(bundled_files: dict[str, str]) -> None:
    files = bundled_files
    page = files["caldera-two-trios/index.md"]
    assert "A variant of **[Caldera](../caldera/index.md)**" in page
    assert "- The option **Power Play** is off unless chosen (in Caldera: on)." in page
    assert "## Changed" in page and "## Added" not in page and "## Setup" not in page
    assert "The first player to hold two monochrome trios wins at once." in page
    assert "    - In Caldera: The first player to hold three monochrome trios" in page
    assert "[Caldera: Two Trios](../caldera-two-trios/index.md)" in \
        files["caldera/index.md"]
    assert "print/caldera-two-trios.html" in files
    for rel, text in files.items():
        if rel.endswith("/index.md") and "A variant of" in text:
            for pattern, what in _FORBIDDEN[:2]:
                body = text.split("\n## ", 1)[-1]
                assert pattern.search(body) is None, f"{rel}: {what}"


def test_every_bundled_variant_has_a_page_a_print_page_and_a_link(
        bundled_files: dict[str, str]) -> None:
    files = bundled_files
    _, pages, skipped = load_all()
    assert not skipped and pages
    for page in pages:
        assert f"{page.name}/index.md" in files and f"print/{page.name}.html" in files
        assert f"]({page.name}/index.md)" in files["index.md"]
        assert page.base_link == f"../{page.base_name}/index.md"
        assert f"](../{page.name}/index.md)" in files[f"{page.base_name}/index.md"]
        assert not page.same_as_base
        english(page)


def test_a_variant_prints_as_a_short_pdf(tmp_path: Path) -> None:
    weasyprint = pytest.importorskip("weasyprint", reason="the pdf extra is not installed")
    from interpreter.docs.build import build_pdfs, environment, print_variant_html

    # the variant and its base only: loading every bundled game would print the same page
    paths = [ROOT / "rulesets" / "caldera.yaml", ROOT / "rulesets" / "caldera-two-trios.yaml"]
    written = build_pdfs(tmp_path, names=["caldera-two-trios"], paths=paths)
    assert [p.name for p in written] == ["caldera-two-trios.pdf"]
    _, pages, _ = load_all(paths=paths)
    page = next(p for p in pages if p.name == "caldera-two-trios")
    rendered = weasyprint.HTML(string=print_variant_html(environment(), page)).render()
    assert len(rendered.pages) == 1


@pytest.mark.parametrize("name", ["caldera-two-trios"])
def test_the_variant_page_is_deterministic(name: str) -> None:
    loaded = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    assert build_variant_page(loaded) == build_variant_page(loaded)
