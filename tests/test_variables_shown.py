"""Issue 40 §1: a variable is shown to players only under its label, and only when a
player would care. One function (`interpreter.view.shown`) says which variables and in
which words, and the terminal, the browser's table and the rulebook's "things to keep
track of" all use it; views still carry every variable a seat may see, for tools."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.api import compile_game, load_game
from interpreter.docs.players import bookkeeping_variables
from interpreter.docs.rulebook import build_rulebook
from interpreter.load.catalog import bundled_names
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.play.game import Game
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.serve.app import Server
from interpreter.serve.tables import Store, Table
from interpreter.simulate.record import SavedGame
from interpreter.view.render import render_view, variables_text
from interpreter.view.shown import shown_variables, variable_lines, your

ROOT = Path(__file__).resolve().parents[1]

TINY = """\
tabletop: 1
game:
  name: tiny-bank
  title: Tiny Bank
  designer: Test Suite
  seats: {min: 2, max: 3}
  summary: Take a coin or pass; the richest wins.
pieces:
  attributes:
    kind: {values: [coin]}
  sets:
    - {id: coins, count: 6, each: {kind: [coin]}, start: pot}
zones:
  - {id: pot, label: The pot, kind: pile}
  - {id: purse, label: Purse, kind: pile, per_seat: true}
variables:
  - id: gold
    label: Gold
    per_seat: true
    initial: 3
    visible_to: owner
  - id: fame
    per_seat: true
    initial: 0
  - id: last_taker
    label: Last to take a coin
    holds: seats
    initial: "null"
  - id: takes
    initial: 0
    on_table: false
    description: coins taken so far, for the end rule
  - id: omen
    initial: 7
    visible_to: nobody
turn:
  - choose: "{seat_name(current)}: take a coin or pass"
    options:
      - id: take
        notation: take
        label: Take a coin
        where: count(pieces(pot)) > 0
        do:
          - {move: top(pot), to: "purse[current]"}
          - {add: gold, seat: current, amount: 1}
          - {add: fame, seat: current, amount: 2}
          - {set: last_taker, value: current}
          - {add: takes, amount: 1}
      - {id: pass, notation: pass, label: Pass}
end:
  - id: empty
    when: takes >= 6
    text: The pot is empty.
"""


@cache
def tiny() -> Game:
    return compile_game(load_ruleset_text(TINY, "tiny.yaml"), {})


def text_of(renderable: object) -> str:
    console = Console(width=100, no_color=True, record=True)
    console.print(renderable)
    return console.export_text()


def after(game: Game, moves: list[str], players: int = 2) -> State:
    state = game.new_state(players, 1)
    for notation in moves:
        game.apply_in_place(state, game.deciding_seats(state)[0], notation)
    return state


# -- the terminal -----------------------------------------------------------------------

def test_the_terminal_shows_each_variable_under_its_label() -> None:
    game = tiny()
    state = after(game, ["take", "pass", "take"])
    shown = text_of(variables_text(game, view(game, state, 1)))
    assert shown.splitlines() == [
        "Your gold: 5",                      # owner only: the seat's own, as "your"
        "Fame: 4 (you) · Player 2: 0",       # no label: its id in words; yours first
        "Last to take a coin: Player 1",     # holds seats: the seat's name
    ]
    # the rules' bookkeeping and what nobody sees are never shown, nor any raw id
    assert "takes" not in shown.lower() and "omen" not in shown.lower()
    assert "last_taker" not in shown and "gold Player" not in shown


def test_a_spectator_reads_every_seat_by_name_and_nothing_it_may_not_see() -> None:
    game = tiny()
    state = after(game, ["take"])
    assert variable_lines(game, view(game, state, SPECTATOR)) == [
        ("Fame", "Player 1: 2 · Player 2: 0"), ("Last to take a coin", "Player 1")]


def test_nothing_yet_reads_none() -> None:
    game = tiny()
    lines = dict(variable_lines(game, view(game, game.new_state(2, 1), 2)))
    assert lines["Last to take a coin"] == "none"


def test_the_state_command_still_shows_the_bookkeeping_as_such() -> None:
    game = tiny()
    state = after(game, ["take"])
    shown = text_of(variables_text(game, view(game, state, 1), everything=True))
    assert "Takes: 1 (the rules' bookkeeping)" in shown
    assert "omen" not in shown.lower()  # nobody may see it: not in the view at all


def test_views_still_carry_every_variable_a_seat_may_see() -> None:
    game = tiny()
    state = after(game, ["take"])
    seen = view(game, state, 1)["variables"]
    assert seen["takes"] == 1 and seen["last_taker"] == 1  # numbers, for tools and agents
    assert seen["gold"] == {"1": 4} and "omen" not in seen


def test_your_reads_as_english() -> None:
    assert your("Secret colour") == "Your secret colour"
    assert your("The beads") == "Your beads"
    assert your("UFO count") == "Your UFO count"


# -- every bundled game --------------------------------------------------------------------

@cache
def bundled(name: str) -> Game:
    return load_game(name, {})


NAMES = bundled_names()


@pytest.mark.parametrize("name", NAMES)
def test_every_bundled_variable_has_a_label_its_designer_gave(name: str) -> None:
    """Each bundled ruleset decided how players call each of its variables."""
    rs = bundled(name).ruleset
    unlabelled = [v.id for v in rs.variables if not v.label]
    assert not unlabelled, f"{name}: variables without a label: {unlabelled}"


@pytest.mark.parametrize("name", NAMES)
def test_a_bundled_game_screen_shows_no_raw_variable(name: str) -> None:
    """Along a random game, every variable line on a seat's screen is a shown variable
    under its label, never a bookkeeping one nor an id."""
    game = bundled(name)
    hidden = bookkeeping_variables(game)
    labels = {v.label for v in shown_variables(game)}
    labels |= {your(label) for label in labels}
    rng = random.Random(3)
    state = game.new_state(game.min_seats, 3)
    for _ in range(40):
        if state.over:
            break
        seat = game.deciding_seats(state)[0]
        seen = view(game, state, seat)
        for label, _ in variable_lines(game, seen):
            assert label in labels
        screen = text_of(render_view(game, seen, colour=False))
        for var_id in hidden:
            label = game.variables[var_id].label
            assert not re.search(rf"^{re.escape(label)}:", screen, re.M), (name, var_id)
        for var in game.variables.values():  # never a dump: `quiet turns 0`, `starter 1`
            words = re.escape(var.id.replace("_", " "))
            raw = re.compile(rf"(?i)\b{words} (Player \d|-?\d|yes\b|no\b|–)")
            assert not raw.search(screen), (name, var.id, screen)
            assert "_" not in var.id or var.id not in screen, (name, var.id, screen)
        options = game.legal_options(state, seat)
        game.apply_in_place(state, seat, rng.choice(options).notation)


def test_the_bundled_games_show_what_players_track() -> None:
    """The choices made for the bundled games: what a player would care about stays,
    the rules' counters and values said elsewhere go."""
    def shown(name: str) -> list[str]:
        return [v.id for v in shown_variables(bundled(name))]
    assert shown("bottoms-up") == ["secret_colour"]
    assert shown("aquarium") == ["beads"]            # the price is said in the question
    assert shown("caldera") == ["quiet_turns"]       # fewest_left only counts them
    assert shown("high-rise") == []                  # starter: whoever decides first
    assert shown("perudo") == ["dice", "bid_quantity", "bid_face", "bidder"]
    assert shown("pig") == ["score", "turn_total"]   # the die shows the last roll
    assert not bundled("high-rise").zones["box"].on_table  # no "Set aside: 45 × Die"
    assert not bundled("caldera").zones["box"].on_table


def test_the_bottoms_up_screen_says_your_secret_colour() -> None:
    game = bundled("bottoms-up")
    state = game.new_state(4, 3)
    colour = state.seat_vars["secret_colour"][1]
    screen = text_of(render_view(game, view(game, state, 2), colour=False))
    assert f"Your secret colour: {colour}" in screen
    assert "secret colour Player" not in screen


def test_aquariums_beads_read_as_yours_and_nobody_elses() -> None:
    game = bundled("aquarium")
    state = game.new_state(3, 2)
    lines = variable_lines(game, view(game, state, 2))
    assert lines == [("Your beads", "15")]


# -- the browser and the rulebook use the same function -------------------------------------

def test_the_browser_is_sent_the_same_lines_as_the_terminal() -> None:
    game = bundled("bottoms-up")
    state = game.new_state(4, 3)
    record = SavedGame.start(game, 4, 0, {})
    table = Table("0" * 16, game, game.name, state, record, {}, "s" * 16, False)
    server = Server(Store(None))
    for seat in (1, 3, None):
        message = server.state_message(table, seat, True)
        seen = message["view"]
        assert message["table"] == [{"label": label, "text": text}
                                    for label, text in variable_lines(game, seen)]
    mine = server.state_message(table, 3, True)["table"]
    assert mine == [{"label": "Your secret colour",
                     "text": state.seat_vars["secret_colour"][2]}]


def test_the_play_page_shows_the_table_not_the_raw_variables() -> None:
    script = (ROOT / "interpreter/serve/static/play.js").read_text()
    tree = script[script.index("function renderTree"):script.index("function treeNode")]
    assert 'key === "variables"' in tree and "for (const line of table)" in tree
    assert "renderTree(msg.view || {}, msg.table || [])" in script


def test_bookkeeping_is_what_players_are_not_shown() -> None:
    for name in ("caldera", "aquarium", "perudo", "bottoms-up"):
        game = bundled(name)
        shown = {v.id for v in shown_variables(game)}
        assert bookkeeping_variables(game) == {v.id for v in game.ruleset.variables} - shown


def test_the_rulebook_lists_what_players_track_under_its_label() -> None:
    book = build_rulebook(load_ruleset(ROOT / "rulesets" / "caldera.yaml"))
    assert book.players is not None
    names = [str(v["name"]) for v in book.players.variables]
    assert names == ["Turns without progress"]
    perudo = build_rulebook(load_ruleset(ROOT / "rulesets" / "perudo.yaml"))
    assert perudo.players is not None
    assert [str(v["name"]) for v in perudo.players.variables] == [
        "Dice left", "Dice in the last bid", "Face of the last bid", "Last bidder"]


def test_the_exact_rules_say_what_they_call_a_labelled_variable() -> None:
    """The exact rules' sentences name a variable by its id ("add 1 to the quiet turns"):
    its entry under its label says so, so a reader can match the two."""
    book = build_rulebook(load_ruleset(ROOT / "rulesets" / "caldera.yaml"))
    entry = next(v for v in book.variables if str(v["name"]) == "Turns without progress")
    assert str(entry["facts"]).startswith("Called *quiet turns* in the exact rules; starts at")
    pig = build_rulebook(load_ruleset(ROOT / "rulesets" / "pig.yaml"))
    score = next(v for v in pig.variables if str(v["name"]) == "Score")
    assert "exact rules" not in str(score["facts"])  # the same words: nothing to say


# -- in a real browser ------------------------------------------------------------------------

def test_the_play_page_draws_the_table_under_the_labels(tmp_path: Path) -> None:
    """The page's state panel, in Chromium: the seat's secret colour under its label,
    and none of the view's raw variables (ids, the rules' bookkeeping)."""
    browser_test = pytest.importorskip("test_browser")
    if browser_test.CHROMIUM is None:
        pytest.skip("no Chromium executable")
    from serve_support import Running
    with Running(tmp_path) as server, \
            browser_test.playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=browser_test.CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            made = server.create(ruleset="bottoms-up", players=4, seed=3,
                                 seats={"1": "human", "2": "random", "3": "random",
                                        "4": "random"})
            table = server.store.live[made["game"]]
            colour = table.state.seat_vars["secret_colour"][0]
            page = browser_test.open_page(browser, server, made["links"]["1"])
            page.click("#state-panel summary")  # the panel opens on a click
            panel = page.locator("#state").inner_text()
            assert f"Your secret colour: {colour}" in panel
            for raw in ("secret_colour", "queue", "chain_steps", "moved", "variables"):
                assert raw not in panel, (raw, panel)
        finally:
            browser.close()
