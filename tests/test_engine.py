"""The engine on tiny rulesets: zones and visibility, decks and hands, per-seat resources,
simultaneous and secret decisions, triggers, choices inside effects, procedures, retry,
arrange, budgets, endings, determinism, copy semantics and illegal moves."""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from interpreter.assemble.game import Game, compile_game
from interpreter.errors import IllegalMove, RuleError, RulesetError
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.run.state import State
from interpreter.run.view import redacted_log, view
from interpreter.simulate.playout import make_agents, play_game

RULESETS = Path(__file__).resolve().parent / "rulesets"


@cache
def game_of(name: str, **options: Any) -> Game:
    return compile_game(load_ruleset(RULESETS / f"{name}.yaml"), options)


def variant(name: str, old: str, new: str, options: dict[str, Any] | None = None) -> Game:
    text = (RULESETS / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text, old
    return compile_game(load_ruleset_text(text.replace(old, new, 1), f"{name}-variant.yaml"),
                        options or {})


def site(game: Game, zone: str, seat: int | None = None) -> int:
    info = game.zones[zone]
    return info.site_for(seat) if seat is not None else info.first


def pieces_in(game: Game, state: State, zone: str, seat: int | None = None) -> list[int]:
    return list(state.sites[site(game, zone, seat)])


def roundtrip(game: Game, state: State) -> State:
    data = json.loads(json.dumps(state.to_json()))
    back = game.state_from_json(data)
    assert back.to_json() == state.to_json()
    assert back.loc == state.loc
    return back


def play_randomly(game: Game, state: State, rnd: random.Random, limit: int = 10_000) -> State:
    for _ in range(limit):
        if state.over:
            return state
        seat = rnd.choice(game.deciding_seats(state))
        options = game.legal_options(state, seat)
        state = game.apply(state, seat, rnd.choice(options))
    raise AssertionError("game did not end")


# -- zones and visibility -------------------------------------------------------------------

def test_zone_visibility_in_views() -> None:
    game = game_of("cards")
    st = game.new_state(2, seed=3)
    me, other = view(game, st, 1), view(game, st, 2)
    z = me["zones"]
    # Face-down deck: count for everyone, contents for nobody.
    assert z["deck"] == {"count": 10 * 2 - 1 - 6}
    # Hands: the owner sees the cards; others only how many.
    assert z["hand"]["2"] == {"count": 3}
    assert len(z["hand"]["1"]["pieces"]) == 3
    assert z["hand"]["1"]["pieces"] == [
        {"suit": game.attributes["suit"][p], "rank": game.attributes["rank"][p]}
        for p in pieces_in(game, st, "hand", 1)]
    assert other["zones"]["hand"]["1"] == {"count": 3}
    # The face-up table: everyone sees everything.
    assert z["table"] == {"count": 0, "pieces": []}
    # The vault: nobody sees anything, not even how many.
    assert z["vault"] == {} and other["zones"]["vault"] == {}
    # Count visible to the owner only.
    assert z["tucked"]["2"] == {} and z["tucked"]["1"] == {"count": 0, "pieces": []}


def test_reveal_at_end() -> None:
    game = game_of("cards")
    st = play_randomly(game, game.new_state(2, seed=5), random.Random(5))
    v = view(game, st, 1)
    assert v["over"] and v["winners"]
    # Hidden zones with reveal_at_end (the default) are shown to everyone at the end ...
    assert "pieces" in v["zones"]["deck"]
    assert "pieces" in v["zones"]["hand"]["2"]
    assert "pieces" in v["zones"]["tucked"]["2"]
    # ... hidden variables too, except those marked reveal_at_end: false
    assert set(v["variables"]["coins"]) == {"1", "2"}
    assert set(v["variables"]["bids"]) == {"1", "2"}
    # ... but the vault (reveal_at_end: false) stays hidden.
    assert v["zones"]["vault"] == {}
    # Secret decisions are readable by everyone after the end.
    assert all(e.get("decision") is not None for e in v["log"] if "seat" in e)


# -- decks and hands ------------------------------------------------------------------------

def test_deck_is_shuffled_and_dealt_by_seed() -> None:
    game = game_of("cards")
    hands = {}
    for seed in range(6):
        st = game.new_state(2, seed)
        assert len(pieces_in(game, st, "hand", 1)) == 3
        assert len(pieces_in(game, st, "vault")) == 1
        assert sorted(pieces_in(game, st, "deck") + pieces_in(game, st, "hand", 1)
                      + pieces_in(game, st, "hand", 2) + pieces_in(game, st, "vault")) == \
            list(range(20))
        hands[seed] = pieces_in(game, st, "hand", 1)
        assert game.new_state(2, seed).to_json() == st.to_json()
    assert len({tuple(h) for h in hands.values()}) > 1  # the shuffle depends on the seed


def test_draw_takes_the_top_of_the_deck_into_the_hand() -> None:
    game = game_of("cards")
    st = game.new_state(2, seed=11)
    deck_before = pieces_in(game, st, "deck")
    st = game.apply(st, 1, "bid0")
    st = game.apply(st, 1, 0)
    st = game.apply(st, 2, 0)
    # Seat 1 drew first (the top card), then seat 2 (the next one).
    assert pieces_in(game, st, "hand", 1)[-1] == deck_before[-1]
    assert pieces_in(game, st, "hand", 2)[-1] == deck_before[-2]
    assert pieces_in(game, st, "deck") == deck_before[:-2]
    # Each seat is told privately what it drew.
    says1 = [e["say"] for e in redacted_log(game, st, 1) if "say" in e]
    says2 = [e["say"] for e in redacted_log(game, st, 2) if "say" in e]
    assert any(s.startswith("Player 1 drew") for s in says1)
    assert not any(s.startswith("Player 1 drew") for s in says2)
    assert any(s.startswith("Player 2 drew") for s in says2)


# -- per-seat resources ---------------------------------------------------------------------

def test_per_seat_variables_and_their_visibility() -> None:
    game = game_of("cards")
    st = game.new_state(3, seed=2)
    assert st.seat_vars["coins"] == [3, 3, 3]
    st = game.apply(st, 1, "bid2")
    assert st.seat_vars["coins"] == [1, 3, 3]
    assert st.seat_vars["bids"] == [2, 0, 0]
    v1, v2 = view(game, st, 1), view(game, st, 2)
    assert v1["variables"]["coins"] == {"1": 1}
    assert v2["variables"]["coins"] == {"2": 3}
    assert v1["variables"]["points"] == {"1": 0, "2": 0, "3": 0}
    assert v1["variables"]["bids"] == {} and v2["variables"]["bids"] == {}
    assert v1["variables"]["round"] == 1
    # The next bid of seat 1 is limited by its coins.
    while st.current != 1 or game.decision(st).simultaneous:
        seat = game.deciding_seats(st)[0]
        st = game.apply(st, seat, 0)
    assert [o.notation for o in game.legal_options(st, 1)] == ["bid0", "bid1"]


# -- secret and simultaneous decisions ------------------------------------------------------

def test_secret_single_seat_decision_is_redacted_for_others() -> None:
    game = game_of("cards")
    st = game.apply(game.new_state(2, seed=4), 1, "bid3")
    assert redacted_log(game, st, 1) == [{"seat": 1, "decision": "bid3"}]
    assert redacted_log(game, st, 2) == [{"seat": 1, "decision": None}]
    assert st.log_entries() == [("decision", 1, "bid3", True, (), "bid3", ())]


def test_simultaneous_choice() -> None:
    game = game_of("cards")
    st = game.apply(game.new_state(2, seed=8), 1, "bid1")
    decision = game.decision(st)
    assert decision is not None and decision.simultaneous
    assert game.deciding_seats(st) == [1, 2]
    hand1, hand2 = pieces_in(game, st, "hand", 1), pieces_in(game, st, "hand", 2)
    # Seat 2 picks first; nothing happens on the table yet.
    opts2 = [o for o in game.legal_options(st, 2) if o.kind == "play"]
    st = game.apply(st, 2, opts2[0])
    assert game.deciding_seats(st) == [1]
    assert pieces_in(game, st, "table") == []
    assert pieces_in(game, st, "hand", 2) == hand2
    with pytest.raises(IllegalMove, match="not Player 2's decision"):
        game.apply(st, 2, 0)
    # Seat 1 cannot learn what seat 2 picked, from its view or its log.
    v1 = view(game, st, 1)
    assert v1["log"][-1] == {"seat": 2, "decision": None}
    assert opts2[0].notation not in json.dumps(v1)
    assert view(game, st, 2)["log"][-1] == {"seat": 2, "decision": opts2[0].notation,
                                            "words": opts2[0].label}
    # A paused simultaneous choice survives a JSON round trip.
    st = roundtrip(game, st)
    opts1 = [o for o in game.legal_options(st, 1) if o.kind == "play"]
    st = game.apply(st, 1, opts1[-1])
    # Both picks are revealed, then carried out in seat order (1 before 2).
    card1 = opts1[-1].raw[1][0]
    card2 = opts2[0].raw[1][0]
    assert pieces_in(game, st, "table") == [card1, card2]
    assert card1 in hand1 and card2 in hand2
    says = [e[1] for e in st.log_entries() if e[0] == "say"]
    theirs = [o.label.replace("your", "their") for o in (opts1[-1], opts2[0])]
    assert says[:2] == [f"Player 1 revealed: {theirs[0]} ({opts1[-1].notation})",
                        f"Player 2 revealed: {theirs[1]} ({opts2[0].notation})"]
    assert st.seat_vars["points"] == [game.attributes["rank"][card1],
                                      game.attributes["rank"][card2]]
    assert game.deciding_seats(st) == [2]  # seat 2's turn to bid


def test_a_seat_without_options_is_not_asked() -> None:
    """Near the end a seat may have no card left: only the others are asked."""
    game = game_of("cards")
    seen = 0
    for seed in range(30):
        rnd = random.Random(seed)
        st = game.new_state(3, seed)
        while not st.over:
            decision = game.decision(st)
            if decision.simultaneous and not st.frames[-1][1][
                    next(k for k in st.frames[-1][1] if k.startswith("_picked"))]["picked"]:
                empty = [s for s in (1, 2, 3) if not pieces_in(game, st, "hand", s)]
                assert game.deciding_seats(st) == [s for s in (1, 2, 3) if s not in empty]
                seen += bool(empty)
            seat = rnd.choice(game.deciding_seats(st))
            st = game.apply(st, seat, rnd.choice(game.legal_options(st, seat)))
    assert seen > 0


# -- triggers and choices inside effects ----------------------------------------------------

def test_trigger_runs_before_the_flow_continues() -> None:
    game = game_of("triggers")
    st = game.apply(game.new_state(2, seed=1), 1, "plain2-a1")
    assert st.vars["trace"] == ["place a1", "placed a1"]   # where: only bombs trigger
    assert st.vars["blasts"] == 0
    st = game.apply(st, 2, "bomb1-c2")
    # The bomb's trigger ran at once and paused in its procedure, asking seat 2.
    assert st.vars["trace"] == ["place a1", "placed a1", "place c2", "bomb c2", "defuse c2"]
    assert st.vars["blasts"] == 1
    assert len(st.frames) == 3
    assert st.frames[1][1] == {"piece": st.sites[site(game, "board") + 5][0],
                               "place": site(game, "board") + 5}
    assert game.deciding_seats(st) == [2]
    assert sorted(o.notation for o in game.legal_options(st, 2)) == \
        ["keep", "trash-a1", "trash-c2"]


@pytest.mark.parametrize("through_json", [False, True])
def test_choice_inside_a_triggered_procedure_resumes(through_json: bool) -> None:
    game = game_of("triggers")
    st = game.apply(game.new_state(2, seed=1), 1, "plain2-a1")
    st = game.apply(st, 2, "bomb3-c2")
    if through_json:
        st = roundtrip(game, st)
    before = st.to_json()
    after = game.apply(st, 2, "trash-a1")
    assert st.to_json() == before
    assert after.vars["trace"] == [
        "place a1", "placed a1", "place c2", "bomb c2", "defuse c2",
        "trash a1", "trashed 2",          # the trash trigger fired inside the procedure
        "defused", "bomb done",           # the procedure, then the trigger, finished
        "placed c2",                      # and only then the option's effects went on
    ]
    assert after.seat_vars["trashed_value"] == [0, 2]
    assert pieces_in(game, after, "trash") == [st.sites[site(game, "board")][0]]
    assert len(after.frames) == 1 and after.current == 1
    assert game.deciding_seats(after) == [1]


def test_trigger_game_plays_to_the_end_with_round_trips() -> None:
    game = game_of("triggers")
    rnd = random.Random(3)
    for seed in range(10):
        st = game.new_state(2, seed)
        while not st.over:
            st = roundtrip(game, st)
            seat = game.deciding_seats(st)[0]
            st = game.apply(st, seat, rnd.choice(game.legal_options(st, seat)))
        assert st.winners and set(st.winners) <= {1, 2}
        assert game.scores(st) == {1: st.seat_vars["trashed_value"][0],
                                   2: st.seat_vars["trashed_value"][1]}
        roundtrip(game, st)


# -- procedures, loops ----------------------------------------------------------------------

def test_procedures_with_parameters() -> None:
    game = game_of("flow")
    st = game.new_state(2, seed=0)
    st = game.apply(st, 1, "up2")
    st = game.apply(st, 2, "up1")
    st = game.apply(st, 1, "up1")
    assert st.vars["calls"] == ["bump 1 2", "bump 2 1", "bump 1 1"]
    assert st.seat_vars["total"] == [3, 1]
    assert [o.notation for o in game.legal_options(st, 2)] == ["up1", "up2"]


def test_missing_and_unknown_parameters_are_errors() -> None:
    with pytest.raises(RulesetError, match="missing value for by"):
        variant("flow", "with: {who: current, by: n}", "with: {who: current}")
    with pytest.raises(RulesetError, match="has no parameter 'bye'") as info:
        variant("flow", "with: {who: current, by: n}", "with: {who: current, by: n, bye: 1}")
    assert "did you mean 'by'" in str(info.value)


# -- retry and arrange ----------------------------------------------------------------------

def test_retry_restores_the_state_between_tries() -> None:
    game = game_of("flow")
    for seed in range(20):
        st = game.new_state(2, seed)
        drawn = pieces_in(game, st, "drawn")
        assert len(drawn) == 2                                # not 2 per try
        assert [game.attributes["size"][p] for p in drawn] == [2, 2]
        assert st.vars["kept"] == 1                            # undone on every retry
        assert len(pieces_in(game, st, "bag")) == 10
        assert sorted(pieces_in(game, st, "bag") + drawn) == list(range(12))


def test_retry_gives_up_after_max_tries() -> None:
    game = variant("flow", "    until: drawn_size == 4", "    until: drawn_size == 4\n"
                   "    max_tries: 1")
    failures = 0
    for seed in range(20):
        try:
            game.new_state(2, seed)
        except RuleError as exc:
            assert "still did not hold after 1 tries" in str(exc)
            failures += 1
    # Two large chips on the first try is rare: most seeds needed more than one try.
    assert 10 <= failures < 20


def test_arrange_gives_valid_arrangements() -> None:
    game = game_of("flow")
    layouts = set()
    for seed in range(30):
        layout = game.new_state(2, seed).vars["layout"]
        assert sorted(layout) == ["blue"] * 3 + ["green"] * 3 + ["red"] * 3
        for r in range(3):
            for c in range(3):
                if c < 2:
                    assert layout[r * 3 + c] != layout[r * 3 + c + 1]
                if r < 2:
                    assert layout[r * 3 + c] != layout[(r + 1) * 3 + c]
        layouts.add(tuple(layout))
    assert len(layouts) > 5


def test_impossible_arrangement_is_a_rule_error() -> None:
    game = variant("flow", "arrange: repeat(red, 3) + repeat(blue, 3) + repeat(green, 3)",
                   "arrange: repeat(red, 6) + repeat(blue, 2) + repeat(green, 1)\n"
                   "    max_tries: 50")
    with pytest.raises(RuleError, match="no arrangement found in 50 tries") as info:
        game.new_state(2, 0)
    assert "(max_tries)" in str(info.value)
    assert info.value.location is not None and info.value.location.line > 1


def test_arrange_that_runs_out_of_steps_says_how_many_tries_it_made() -> None:
    """With the default max_tries (a million), the step budget stops an impossible
    arrange first; the message is arrange's own, with the budget to raise."""
    text = (RULESETS / "flow.yaml").read_text(encoding="utf-8")
    text = text.replace("arrange: repeat(red, 3) + repeat(blue, 3) + repeat(green, 3)",
                        "arrange: repeat(red, 6) + repeat(blue, 2) + repeat(green, 1)", 1)
    text = text.replace("\nturn:\n", "\nbudgets:\n  steps_for_setup: 20000\nturn:\n", 1)
    game = compile_game(load_ruleset_text(text, "flow-variant.yaml"), {})
    with pytest.raises(RuleError, match=r"arrange: no arrangement found in [\d,]+ tries before "
                       r"the set-up had run 20,000 steps") as info:
        game.new_state(2, 0)
    assert "budgets.steps_for_setup" in str(info.value)
    assert "in effect 'arrange'" in str(info.value)


@pytest.mark.parametrize(("into", "message"), [
    ("[null] + without(cells(board), place('a1'))", "nothing (null) is not a place"),
    ("[place('a1')] + without(cells(board), place('c3'))", "a place is listed more than once"),
    ("without(cells(board), place('c3'))", "9 values for 8 places"),
])
def test_arrange_refuses_bad_places(into: str, message: str) -> None:
    game = variant("flow", "into: cells(board)", f'into: "{into}"')
    with pytest.raises(RuleError, match=re.escape(message)):
        game.new_state(2, 0)


def test_arrange_deals_the_same_layout_for_the_same_seed() -> None:
    game = game_of("flow")
    first = [game.new_state(2, seed).vars["layout"] for seed in range(10)]
    assert first == [game.new_state(2, seed).vars["layout"] for seed in range(10)]
    assert len({tuple(x) for x in first}) > 3


# -- budgets --------------------------------------------------------------------------------

def test_infinite_loop_is_stopped() -> None:
    game = game_of("budgets", mode="loop")
    with pytest.raises(RuleError, match="steps_for_setup") as info:
        game.new_state(2, 0)
    assert "5,000 steps" in str(info.value)
    assert info.value.location is not None and info.value.location.line > 1  # the loop's effect


def test_endless_game_is_stopped() -> None:
    game = game_of("budgets", mode="endless")
    with pytest.raises(RuleError, match="turns_per_game") as info:
        game.new_state(2, 0)
    assert "40 turns" in str(info.value)


def test_too_many_decisions_are_stopped() -> None:
    game = game_of("budgets", mode="chatty")
    st = game.new_state(2, 0)
    with pytest.raises(RuleError, match="decisions_per_game"):
        for _ in range(100):
            st = game.apply(st, st.current, "pass")
    assert st.decisions == 25


def test_budgets_allow_a_finite_game() -> None:
    game = game_of("budgets", mode="fine")
    result = play_game(game, 2, 0, make_agents(2, 0))
    assert result.turns == 3 and result.winners == [1, 2] and result.draw


# -- endings --------------------------------------------------------------------------------

def test_end_rule_ranking_and_ties() -> None:
    game = game_of("flow")
    st = game.new_state(2, seed=0)
    for seat, move in [(1, "up1"), (2, "up2"), (1, "up2"), (2, "up1"), (1, "up1"),
                       (2, "up1")]:
        st = game.apply(st, seat, move)
    assert st.over and st.reason == "out of turns"
    assert st.seat_vars["total"] == [4, 4]
    assert st.winners == [1, 2]                         # equal ranks draw
    assert game.scores(st) == {1: 4, 2: 4}
    st = game.new_state(3, seed=0)
    for seat, move in [(1, "up1"), (2, "up2"), (3, "up2"), (1, "up1"), (2, "up2"),
                       (3, "up1")]:
        st = game.apply(st, seat, move)
    assert st.winners == [2]
    assert game.scores(st) == {1: 2, 2: 4, 3: 3}
    assert view(game, st, 1)["scores"] == {"1": 2, "2": 4, "3": 3}


def test_end_game_effect_with_winners() -> None:
    game = game_of("flow", turns=20)
    st = game.new_state(2, seed=0)
    for seat, move in [(1, "up2"), (2, "up2"), (1, "up2")]:
        st = game.apply(st, seat, move)
    assert "stop" not in [o.notation for o in game.legal_options(st, 2)]
    st = game.apply(st, 2, "up2")
    st = game.apply(st, 1, "stop")
    assert st.over and st.winners == [1] and st.reason == "Player 1 stops"
    assert st.log_entries()[-1] == ("say", "Game over: Player 1 stops", None, ())


def test_winners_from_an_end_rule_expression() -> None:
    game = game_of("triggers")
    results = [play_game(game, 2, s, make_agents(2, s)) for s in range(12)]
    for r in results:
        tv = r.final_state.seat_vars["trashed_value"]
        expected = [1] if tv[0] > tv[1] else [2] if tv[1] > tv[0] else [1, 2]
        assert r.winners == expected
    assert len({tuple(r.winners) for r in results}) > 1


# -- determinism ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cards", "triggers", "flow"])
def test_same_seed_same_game(name: str) -> None:
    game = game_of(name)
    a = play_game(game, 2, 42, make_agents(2, 42))
    b = play_game(game, 2, 42, make_agents(2, 42))
    assert a.decisions == b.decisions
    assert a.final_state.to_json() == b.final_state.to_json()
    others = [play_game(game, 2, s, make_agents(2, s)) for s in range(43, 48)]
    assert any(o.decisions != a.decisions for o in others)


def test_replaying_the_log_gives_the_same_state() -> None:
    game = game_of("cards")
    a = play_game(game, 3, 7, make_agents(3, 7))
    moves = [f"{seat}: {notation}" for seat, notation in a.decisions]
    b = play_game(game, 3, 7, {}, moves=moves)
    assert b.final_state.to_json() == a.final_state.to_json()


# -- copy semantics -------------------------------------------------------------------------

def test_apply_does_not_mutate_its_input() -> None:
    for name in ("cards", "triggers", "flow"):
        game = game_of(name)
        rnd = random.Random(1)
        st = game.new_state(2, 1)
        while not st.over:
            before = json.dumps(st.to_json(), sort_keys=True)
            seat = rnd.choice(game.deciding_seats(st))
            options = game.legal_options(st, seat)
            nxt = game.apply(st, seat, rnd.choice(options))
            assert json.dumps(st.to_json(), sort_keys=True) == before
            assert [o.notation for o in game.legal_options(st, seat)] == \
                [o.notation for o in options]
            st = nxt


def test_copy_is_independent() -> None:
    game = game_of("triggers")
    st = game.apply(game.new_state(2, 1), 1, "bomb1-a1")
    twin = st.copy()
    assert twin.to_json() == st.to_json()
    game.apply_in_place(twin, 1, "keep")
    assert twin.to_json() != st.to_json()
    assert st.vars["trace"][-1] == "defuse a1" and len(st.frames) == 3


# -- illegal moves --------------------------------------------------------------------------

def test_illegal_moves() -> None:
    game = game_of("minimal")
    st = game.new_state(2, 0)
    with pytest.raises(IllegalMove, match="'take3' is not a legal option") as info:
        game.apply(st, 1, "take3")
    assert "did you mean 'take1'" in str(info.value) or "'take2'" in str(info.value)
    with pytest.raises(IllegalMove, match="not Player 2's decision"):
        game.apply(st, 2, "take1")
    with pytest.raises(IllegalMove, match="no option 5"):
        game.apply(st, 1, 5)
    with pytest.raises(IllegalMove):
        game.apply(st, 1, (0, (7,)))
    assert game.apply(st, 1, " TAKE1 ").to_json() == game.apply(st, 1, "take1").to_json()
    while not st.over:
        st = game.apply(st, st.current, "take2" if len(st.sites[0]) >= 2 else "take1")
    assert st.winners == [st.current]
    with pytest.raises(IllegalMove, match="the game is over"):
        game.apply(st, st.current, "take1")
    assert game.deciding_seats(st) == [] and game.legal_options(st, 1) == []


def test_illegal_move_in_a_move_list() -> None:
    game = game_of("minimal")
    with pytest.raises(IllegalMove, match=r"move 2 \('take9'\)"):
        play_game(game, 2, 0, {}, moves=["take1", "take9"])


def test_minimal_trigger_and_procedure() -> None:
    game = game_of("minimal")
    st = game.new_state(3, 0)
    st = game.apply(st, 1, "take2")
    st = game.apply(st, 2, "take2")
    st = game.apply(st, 3, "take2")
    assert st.over and st.winners == [3]
    assert st.seat_vars["takes"] == [2, 2, 2]
    assert st.vars["last_taker"] == 3
    assert st.vars["big_taken"] == 2  # the trigger counted both size-3 counters
