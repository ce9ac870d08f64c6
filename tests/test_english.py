"""Sentence-level tests of the rules' English: each general rule, expression → words.

The rulebooks are built from these rules, so each test names the rule it pins down: a
possessive for what a seat owns, a superlative for a ranking key, a tie-break ladder,
words that refer back to what a paragraph said already, and the exact rules' readings
of indexes, counts and lists.
"""

from __future__ import annotations

import pytest

from interpreter.compile.english import (
    Describer,
    ExpressionEnglish,
    numbered_phrase,
    superlative_of,
    zone_phrase,
)
from interpreter.located import Expr

GLOSSARY = {"beads": "the beads", "score": "the score", "captured": "the captured pile",
            "stash": "the stash",
            "goal_element": numbered_phrase("the goal element of {s}", ["s"]),
            "goal_altitude": numbered_phrase("the altitude of the goal element of {s}", ["s"]),
            "pips_at": numbered_phrase("the pips of the pyramids of {e} in the houses where "
                                       "{e} reaches {a}", ["e", "a"]),
            "points": numbered_phrase("the points {s} has won", ["s"])}
DEFINITIONS = {"trios": ["s"], "goal_element": ["s"], "goal_altitude": ["s"],
               "pips_at": ["e", "a"], "points": ["s"], "is_cap": ["p"]}


def english() -> ExpressionEnglish:
    return ExpressionEnglish(GLOSSARY, definitions=DEFINITIONS,
                             seat_indexed={"beads", "captured", "score"})


def describer() -> Describer:
    return Describer(GLOSSARY, definitions=DEFINITIONS, seat_indexed={"beads", "captured", "score"})


# -- possessives ----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("beads[current]", "the current player’s beads"),
    ("beads[chooser]", "the deciding player’s beads"),
    ("beads[who]", "the beads of who"),
    ("trios(current)", "the current player’s trios"),
    ("trios(who)", "the trios of who"),
    ("goal_element(current)", "the current player’s goal element"),
    ("goal_altitude(current)", "the altitude of the current player’s goal element"),
    ("goal_element(who)", "the goal element of who"),
    ("count(pieces(captured[current]))",
     "the number of pieces in the current player’s captured pile"),
])
def test_a_seat_said_by_a_phrase_owns_what_it_has(text: str, expected: str) -> None:
    assert english().text(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("beads[seat]", "their beads"),
    ("trios(seat)", "their trios"),
    ("goal_element(seat)", "their goal element"),
    ("goal_altitude(seat)", "the altitude of their goal element"),
    ("points(seat)", "the points they have won"),
    ("beads[current]", "the current player’s beads"),
])
def test_the_subject_of_a_sentence_owns_things_as_their(text: str, expected: str) -> None:
    e = english()
    with e.about("seat"):
        assert e.text(text) == expected
    assert "their" not in e.text(text) and " they " not in e.text(text)


# -- superlatives and the ranking -------------------------------------------------------------

@pytest.mark.parametrize(("phrase", "least", "expected"), [
    ("their trios", False, "the most trios"),
    ("their beads", True, "the fewest beads"),
    ("the number of pieces in their captured pile", False,
     "the most pieces in their captured pile"),
    ("the number of pieces in the stash", True, "the fewest pieces in the stash"),
    ("their score", False, "the highest score"),
    ("their score", True, "the lowest score"),
    ("the altitude of their goal element", False, "the highest altitude of their goal element"),
    ("the highest top of a panel below that altitude", False,
     "the highest top of a panel below that altitude"),
    ("the size of the largest group of panels", False, "the largest group of panels"),
    ("the size of their hand", False, "the largest size of their hand"),
    ("the points they have won", False, "the most points they have won"),
])
def test_a_ranking_key_reads_as_a_superlative(phrase: str, least: bool,
                                              expected: str) -> None:
    assert superlative_of(phrase, least) == expected


def test_the_winner_has_the_most_and_a_negated_key_is_the_fewest() -> None:
    said = describer().ranking([Expr("trios(seat)"), Expr("-beads[seat]")])
    assert said == ("When the game ends without named winners, the player with the most "
                    "trios wins; if tied, the player with the fewest beads wins. Players still "
                    "equal share the win (a draw).")
    assert "of the player" not in said and "minus" not in said


def test_a_tie_break_ladder_is_one_sentence_that_says_if_still_tied() -> None:
    said = describer().ranking([Expr("trios(seat)"), Expr("-beads[seat]"),
                                Expr("count(pieces(captured[seat]))")])
    assert said.count("; if tied, ") == 1 and said.count("; if still tied, ") == 1
    assert said.endswith("if still tied, the player with the most pieces in their captured "
                         "pile wins. Players still equal share the win (a draw).")


def test_a_thing_said_in_full_is_then_referred_to() -> None:
    said = describer().ranking([
        Expr("goal_altitude(seat)"),
        Expr("pips_at(goal_element(seat), goal_altitude(seat))"),
        Expr("trios(goal_element(seat))")])
    assert said.count("goal element") == 2, said
    assert ("the player with the most pips of the pyramids of their goal element in the "
            "houses where it reaches that altitude wins") in said
    assert said.endswith("if still tied, the player with the most trios of that element "
                         "wins. Players still equal share the win (a draw).")


def test_a_score_is_said_about_the_player() -> None:
    d = describer()
    assert d.scoring(Expr("trios(seat)")) == "A player's score is their trios."
    assert d.scoring(Expr("points(seat)")) == "A player's score is the points they have won."
    assert d.scoring(Expr("score[seat]")) == "Each player has a score."


# -- the exact rules, read as English --------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    # an index counted from 0 reads as an ordinal, the arithmetic done
    ("bag[k - 1]", "the k-th item of bag"),
    ("reversed(sorted(sizes))[k]", "the (k plus 1)-th item of sizes from largest to smallest"),
    ("panels(c)[3 - i]", "the (4 minus i)-th of the panels of c"),
    ("stack(here)[level + 1]", "the (level plus 2)-th of the pieces of here, bottom first"),
    ("bag[0]", "the first item of bag"),
    ("bag[-1]", "the last item of bag"),
    # a list of values indexed by a number is a table
    ("[0, 1, 3, 6][kinds]", "0, 1, 3 or 6 as kinds is 0, 1, 2 or 3"),
    # counting pieces: no "the number of the pieces"; none or some: empty or not
    ("count(pieces(stash))", "the number of pieces in the stash"),
    ("count([p for p in pieces(stash) if p.size == 1])",
     "the number of pieces p in the stash such that the size of p is 1"),
    ("count(pieces(stash)) == 0", "the stash is empty"),
    ("count(pieces(stash)) > 0", "the stash is not empty"),
    ("len(pieces(stash)) >= 1", "the stash is not empty"),
    ("height(sq) == 0", "sq is empty"),
    ("kept == []", "kept is empty"),
    ("count(pieces(stash)) == 5", "the number of pieces in the stash is 5"),
    # ranges with the arithmetic done
    ("range(3)", "the numbers 0, 1 and 2"),
    ("range(1, 7)", "the numbers from 1 to 6"),
    ("range(k + 1)", "the numbers from 0 to k"),
    ("range(1, players)", "the numbers from 1 to the number of players minus 1"),
    ("range(k - 2)", "the numbers from 0 to k minus 3"),
    # sums as a chain, brackets only where the reading needs them
    ("a_b + c_d - e_f + 1", "a b plus c d minus e f plus 1"),
    ("a_b - (c_d - e_f)", "a b minus (c d minus e f)"),
    ("2 * a_b + 3 * c_d", "2 times a b plus (3 times c d)"),
    ("(a_b * c_d + 5) // 6", "(a b times c d plus 5) divided by 6, rounded down"),
    ("(a_b + c_d) * 2", "(a b plus c d) times 2"),
    # a plural thing compared takes a plural verb
    ("beads[current] >= 3", "the current player’s beads are at least 3"),
    ("trios(current) == 3", "the current player’s trios are 3"),
    ("any(q > 1 for q in sizes)", "for at least one q in sizes, q is more than 1"),
    ("sorted(sizes)", "sizes from smallest to largest"),
    # the first n items of a list
    ("[pieces(heap)[k] for k in range(n_taken)]", "the first n taken of the pieces in heap"),
    ("[sizes[k] for k in range(0, 3)]", "the first 3 items of sizes"),
    ("[sizes[k] for k in range(count(pieces(stash)))]",
     "as many of sizes, from the first, as the number of pieces in the stash"),
    ("[sizes[k] + k for k in range(3)]",
     "the sizes of k plus k for each k in the numbers 0, 1 and 2"),
])
def test_the_exact_rules_read_as_english(text: str, expected: str) -> None:
    assert english().text(text) == expected


@pytest.mark.parametrize(("label", "kind", "expected"), [
    ("The pet shop", "pile", "the pet shop"),
    ("The Aquarium deck", "pile", "the Aquarium deck"),
    ("Breeding tank", "pile", "the breeding tank"),
    ("A pile being made", "pile", "the pile being made"),
    ("Feeding Time! cards", "pile", "the Feeding Time! cards"),
    ("Captured", "pile", "the captured pile"),
    ("Set aside", "pile", "the set aside pile"),
    ("Discs left", "pile", "the discs left"),
    ("Shown at the showdown", "pile", "the pile shown at the showdown"),
    ("The board", "grid", "the board"),
    ("Heaps", "slots", "the heaps"),
])
def test_a_place_reads_by_its_label_without_a_doubled_noun(label: str, kind: str,
                                                            expected: str) -> None:
    assert zone_phrase(label, kind) == expected


def test_a_seat_written_as_a_number_owns_by_its_name() -> None:
    assert english().text("beads[2] == 15") == "Player 2’s beads are 15"
