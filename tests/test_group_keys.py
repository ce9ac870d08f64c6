"""Issue 40 §1: group keys a new player can read, group lines that are not garbled, and
board legends that say only what is true of the board shown.

The terminal lists many options as groups (`[kS] (5) · [rM] (5)`); when only the keys
fit, a line says what each key's letters stand for, built from the options' own words
(any ruleset). A group line of groups and single options shares only the words that all
of them share, so every entry keeps words of its own. A legend says stacks read bottom
to top only when some place holds a stack, and never "colour shows the colour".
"""

from __future__ import annotations

import io
import re

from rich.console import Console
from test_play_screen import midgame

from interpreter.api import load_game
from interpreter.cli.screen import groups_inline, groups_lines, turn_screen
from interpreter.play.game import Option
from interpreter.run.view import view
from interpreter.view.choosing import OptionGroup, distinct_titles, group_options
from interpreter.view.render import legend, zones_split


def plain(renderable: object, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def option(i: int, notation: str, label: str, kind: str) -> Option:
    return Option(i, notation, label, kind, (0, (i,)))


# -- 1. group keys explained --------------------------------------------------------------

def test_keys_alone_come_with_what_their_letters_stand_for() -> None:
    """Bottoms Up and High Rise at 80x24 show only the keys, every way of taking a
    colour letter and a size letter (`[r|y|k][S|M|L]`), and a `Keys:` line says k is
    black and S small, in 80 columns."""
    for name, decisions, players, options in (("bottoms-up", 8, 4, None),
                                              ("high-rise", 0, None, {"rows": 8, "cols": 8})):
        game, state, seat = midgame(name, decisions, options, players=players, seed=2)
        seen = view(game, state, seat)
        console = Console(file=io.StringIO(), width=80, height=24, color_system=None)
        console.print(turn_screen(console, game, seen, seen["log"],
                                  game.legal_options(state, seat), False, 23, 80))
        text = console.file.getvalue()  # type: ignore[attr-defined]
        keys_line = next(line for line in text.splitlines() if line.startswith("Keys: "))
        assert len(keys_line.rstrip()) <= 80
        every = re.search(r"\[([^]]+)\]\[([^]]+)\], e\.g\. \[(\w\w)\]\n", text)
        assert every, text  # `[p|o|c][M|L], e.g. [pM]`: all keys, and what one looks like
        groups = group_options(game.legal_options(state, seat))
        for group in groups:  # each letter of each key is explained, by its group's words
            assert group.key[0] in every[1].split("|") and group.key[1] in every[2].split("|")
            first, size = group.title.split()[2], group.title.split()[3]
            assert f" {group.key[0]}={first} " in keys_line + " "
            assert f" {group.key[1]}={size} " in keys_line + " "


def test_a_key_whose_letters_spell_nothing_keeps_its_words() -> None:
    """Caldera's `[pp]` spells no words letter by letter: with the keys alone, it still
    says it is the Power Play."""
    game, state, seat = midgame("caldera", 14)
    text = plain(groups_inline(group_options(game.legal_options(state, seat)), words=False))
    assert "[pp] Power Play: put your" in text and "Keys:" not in text


def test_keys_are_not_explained_by_words_that_differ_in_meaning() -> None:
    """A letter that would stand for two different words (b: blue and black) makes no
    legend: the groups keep their words."""
    options = [option(0, "b1-a", "Put the blue small on a", "p"),
               option(1, "b1-b", "Put the blue small on b", "p"),
               option(2, "b2-a", "Put the black medium on a", "p"),
               option(3, "b2-b", "Put the black medium on b", "p")]
    text = plain(groups_inline(group_options(options), words=False))
    assert "Keys:" not in text and "blue small" in text and "black medium" in text


# -- 2. group lines are not garbled -------------------------------------------------------

def test_a_group_among_single_options_keeps_its_own_words_and_no_double_ellipsis() -> None:
    """Aquarius Rising: 21 cards to play and one action card. The line was
    `Play … …: [ground] the (21) · 22 TH 2`; now the shared `Play …` is said once, the
    group's words go on (`the …`) and the action says what it is."""
    cards = [option(i, f"{c} {x},{y}", f"Play the {name} card on {x},{y}", "ground")
             for i, (c, name, x, y) in enumerate([("SSSS", "Space", 1, 0),
                                                  ("WAWA", "Water beside Air", 1, 0),
                                                  ("SSSS", "Space", 0, -1)])]
    action = option(3, "TH 2", "Play Trade Hands: swap hands with Player 2", "action")
    groups = group_options([*cards, action])
    shared, own = distinct_titles(groups)
    assert shared == "Play …"
    assert own == ["the …", "Trade Hands: swap hands with Player 2"]
    text = plain(groups_inline(groups))
    assert "… …" not in text
    assert text.startswith("Play …: [ground] the … (3) · 4 TH 2 Trade Hands: swap hands")


def test_titles_share_an_end_only_when_every_title_goes_on() -> None:
    """A group's title (`Put the blue small pyramid on the …`) and one option's whole
    label end differently: no words are shared at the end, and none is left without
    words (was `Put the … …: [b1] blue small pyramid on the (2) · 3 k1 0,0 br`)."""
    labels = ["Put the blue small pyramid on the top-left quarter (Water) of the card on 0,0",
              "Put the blue small pyramid on the top-right quarter (Water) of the card on 0,0",
              "Put the black small pyramid on the bottom-right quarter (Space) of the card "
              "on 0,0"]
    notations = ["b1 0,0 tl", "b1 0,0 tr", "k1 0,0 br"]
    groups = group_options([option(i, n, label, "pyramid")
                            for i, (n, label) in enumerate(zip(notations, labels, strict=True))])
    shared, own = distinct_titles(groups)
    assert shared == "Put the …"
    assert own[0] == "blue small pyramid on the …"
    assert own[1].startswith("black small pyramid on the bottom-right")
    assert "… …" not in plain(groups_inline(groups))


def test_no_shared_end_without_a_shared_start() -> None:
    """`Play the …` and `Build the …` share only `the`: each keeps its whole title
    (was `… the …: [play] Play (11) · [build] Build (2)`)."""
    groups = [OptionGroup("Play the …", [], "play"), OptionGroup("Build the …", [], "build")]
    assert distinct_titles(groups) == ("", ["Play the …", "Build the …"])


def test_aquarius_rising_group_lines_at_80x24_read_as_words() -> None:
    """Every group line of a game of Aquarius Rising has no `… …` and no group key
    without words or a legend."""
    for decisions in range(0, 30):
        game, state, seat = midgame("aquarius-rising", decisions)
        options = game.legal_options(state, seat)
        groups = group_options(options)
        if not 1 < len(groups) < len(options):
            continue
        for words in (True, False):
            text = plain(groups_inline(groups, words=words))
            assert "… …" not in text, text
            assert ": [" in text or text.startswith("[") or ": 1 " in text, text


# -- 3. legends say only what is true of this board -----------------------------------------

def board_text(name: str, decisions: int, colour: bool, **kw: object) -> str:
    game, state, seat = midgame(name, decisions, **kw)  # type: ignore[arg-type]
    boards, lines = zones_split(game, view(game, state, seat), colour)
    return "".join(plain(b) for b in boards) + "".join(plain(line) for line in lines)


def test_no_stacks_no_stack_legend_and_never_colour_shows_the_colour() -> None:
    for name, decisions in (("tic-tac-toe", 3), ("connect-four", 5), ("breakthrough", 4),
                            ("hex", 4)):
        for colour in (True, False):
            text = board_text(name, decisions, colour)
            assert "bottom to top" not in text, name
            assert "shows the colour" not in text and "X = X" not in text, name


def test_stacks_are_explained_where_a_place_holds_several_pieces() -> None:
    text = board_text("caldera", 0, True)
    assert "Stacks read bottom to top; S = small, M = medium, L = large; the letters' " \
           "colour shows the piece's colour." in " ".join(text.split())
    assert "shows the colour" not in text


def test_legend_names_what_the_letters_and_their_colour_say() -> None:
    game = load_game("bottoms-up")
    assert legend(game, stacks=False).plain == (
        "S = small, M = medium, L = large; the letters' colour shows the piece's colour.")
    assert legend(game, stacks=False, colour=False).plain.startswith(
        "S = small, M = medium, L = large; r = red")  # without colours: the first letter
    assert legend(load_game("tic-tac-toe"), stacks=False, colour=False).plain == ""


def test_keys_that_are_not_every_combination_are_listed_with_the_legend() -> None:
    """Three of the four colour-size pairs: each key listed, the letters explained."""
    options = [option(i, f"{key}-{to}", f"Put your {words} on {to}", "p")
               for i, (key, words, to) in enumerate(
                   (k, w, t) for k, w in (("rS", "red small"), ("rL", "red large"),
                                          ("kS", "black small")) for t in ("a1", "b1"))]
    text = plain(groups_inline(group_options(options), words=False))
    assert text.startswith("Put your … on … (2 each): [rS] · [rL] · [kS]\n"), text
    assert "Keys: r=red k=black · S=small L=large" in text


def test_a_title_cut_after_a_comma_drops_the_comma() -> None:
    """Aquarius Rising's two ways to build (`…(story 2), matching Fire`, `…(story 2),
    turned round, matching Fire`): the group's title reads `(story 2) …`."""
    label = "Build the Fire over Earth card on the house at -2,0 (story 2), {}matching Fire"
    options = [option(0, "FFEE -2,0 ^2", label.format(""), "build"),
               option(1, "FFEE -2,0 r ^2", label.format("turned round, "), "build"),
               option(2, "SSSS 1,0", "Play the Space card on 1,0", "ground"),
               option(3, "SSSS 0,1", "Play the Space card on 0,1", "ground")]
    build = next(g for g in group_options(options) if g.options[0].kind == "build")
    assert build.title == "Build the Fire over Earth card on the house at -2,0 (story 2) …"


def test_a_long_key_stands_whole_in_the_one_a_line_list() -> None:
    """What to type is never cut short at 80 columns; the words are."""
    pair = [option(0, "FFEE -2,0", "x", "build"), option(1, "FFEE -2,0 r", "y", "build")]
    groups = [OptionGroup("Build the Fire over Earth card on the house at -2,0 (story 2) …",
                          pair, "FFEE -2,0"),
              OptionGroup("Play the …", [option(2, "SSSS 1,0", "z", "ground")] * 2, "ground")]
    assert "[FFEE -2,0]" in plain(groups_lines(groups))


def test_a_glyph_that_is_also_the_style_is_explained_once() -> None:
    """Hex's stones show their colour as their letter (X = Black): said once, with or
    without colours."""
    game = load_game("hex")
    assert legend(game, stacks=False).plain == "X = Black, O = White."
    assert legend(game, stacks=False, colour=False).plain == "X = Black, O = White."
