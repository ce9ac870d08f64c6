"""Every bundled ruleset's generated English is free of phrases known to read like code.

The rulebooks (both layers) are checked as committed in generated_docs/ (a test in
test_docs.py keeps them fresh), and `tabletop parts` is said for every bundled ruleset.
Each phrase below was once in a rulebook; the general rules of the expression English
(compile/english.py) replaced it, and this keeps it from coming back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.api import load, load_game
from interpreter.assemble.part_words import PartWords
from interpreter.load.parts import parts

ROOT = Path(__file__).resolve().parent.parent
BOOKS = sorted(p for p in (ROOT / "generated_docs").glob("*/index.md")
               if (ROOT / "rulesets" / f"{p.parent.name}.yaml").exists())
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml")
                  if not p.name.endswith(".tests.yaml"))

BAD = [
    (re.compile(r"\b(?:highest|lowest|most|fewest|largest|greatest)\b[^.;:]*?\bof the player\b"),
     "'of the player' after a superlative (say 'their …', or leave the owner out)"),
    (re.compile(r"\b(?:highest|lowest|most|fewest) minus\b"), "a superlative of a negation"),
    (re.compile(r"ties are broken by the highest"), "a tie-break list without its order"),
    (re.compile(r"\bitem number\b"), "'item number' (an index reads as an ordinal)"),
    (re.compile(r"(?:minus 1\)? of [^,;]*|at position (?:\*[^*]+\*|\d+)), counting from 0"),
     "'counting from 0' where an ordinal fits"),
    (re.compile(r"\b(the|a|an|of|is|to|in|pile|deck) \1\b", re.I), "a doubled word"),
    (re.compile(r"\bthe (?:a|an) ", re.I), "an article doubled ('the a pile')"),
    (re.compile(r"\bthe number of the pieces\b"), "'the number of the pieces'"),
    (re.compile(r"\bplus 1 minus 1\b"), "arithmetic left undone"),
    (re.compile(r"\(\(\("), "brackets three deep"),
    (re.compile(r"\bit is not so that\b"), "'it is not so that'"),
]


def _bad_phrases(text: str) -> list[str]:
    found = []
    for pattern, what in BAD:
        for m in pattern.finditer(text):
            line = text[text.rfind("\n", 0, m.start()) + 1:text.find("\n", m.end())]
            found.append(f"{what}: …{m.group(0)}… in: {line.strip()[:200]}")
    return found


def test_the_checks_find_the_phrases_they_name() -> None:
    """Each pattern catches the phrase it was written for (so a pass means something)."""
    samples = [
        "the player with the highest trios of the player wins",
        "ties are broken by the highest minus the beads of the player",
        "item number (*s* minus 1) of *bag*, counting from 0",
        "the item of *q* at position *k*, counting from 0",
        "Move the top piece onto the a pile being made pile pile.",
        "if the number of the pieces in the deck is 0",
        "the numbers from 0 to *n* plus 1 minus 1",
        "(((a plus b) plus c) plus d)",
        "it is not so that a card is free",
    ]
    caught = [s for s in samples if _bad_phrases(s)]
    assert caught == samples


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.parent.name)
def test_a_rulebook_has_no_phrase_that_reads_like_code(book: Path) -> None:
    found = _bad_phrases(book.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", RULESETS)
def test_the_parts_of_a_ruleset_have_no_phrase_that_reads_like_code(game: str) -> None:
    words = PartWords(load_game(game))
    said = "\n".join(line for p in parts(load(game).tree) for line in words.lines(p))
    found = _bad_phrases(said)
    assert not found, "\n".join(found)


def test_a_steps_own_name_is_never_read_as_a_direction_in_parts() -> None:
    """`hand[s]` in a procedure whose parameter is `s`: the hand of s, not of "south"."""
    words = PartWords(load_game("aquarius-rising"))
    said = "\n".join(words.say(p) for p in parts(load("aquarius-rising").tree))
    assert "hand of south" not in said and "‹south›" not in said
    assert "onto the hand of s." in said
