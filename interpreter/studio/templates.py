"""New-game templates: the starting points the studio offers a designer (a grid game, a
card game, a stacking game), each a short commented ruleset with a tests file.

Each template is a valid ruleset of its own (`templates/ID.yaml`, with its scenario
tests in `templates/ID.tests.yaml`), so the test suite validates, plays and tests it as
it is. A new game is that text with the designer's name and title put in place of the
template's own: only the `name:` and `title:` lines of its `game:` block change (and
the tests file's references to the ruleset's file), so the comments that teach stay.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources

from interpreter.errors import UsageError

NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A game's name: its file's id (the ruleset language's own pattern for `game.name`)."""
MAX_NAME = 60
MAX_TITLE = 100


@dataclass(frozen=True)
class Template:
    """One starting point: `id` picks it, `title` and `summary` are what the designer
    reads when choosing; `name` and `game_title` are the template's own game name and
    title, replaced in a new game's text."""

    id: str
    title: str
    summary: str
    name: str
    game_title: str

    def ruleset_text(self, name: str, title: str | None = None) -> str:
        """The template's ruleset as the designer's game `name` with `title` (by
        default, the name in words): valid YAML whatever the title holds."""
        name = check_name(name)
        title = check_title(title if title is not None else default_title(name))
        text = _read(f"{self.id}.yaml")
        text = _replace_once(text, f"\n  name: {self.name}\n", f"\n  name: {name}\n")
        return _replace_once(text, f"\n  title: {self.game_title}\n",
                             f"\n  title: {yaml_string(title)}\n")

    def tests_text(self, name: str) -> str:
        """The template's tests file for the game `name` (saved beside it as
        `NAME.tests.yaml`): every reference to the template's ruleset file names it."""
        name = check_name(name)
        text = _read(f"{self.id}.tests.yaml")
        return re.sub(rf"\b{re.escape(self.name)}(?=\.(?:tests\.)?yaml\b)", name, text)


TEMPLATES: tuple[Template, ...] = (
    Template("grid", "Grid game",
             "Place marks on a square grid; four in a line wins. Shows a grid, an option "
             "(the grid's size), definitions and end rules.",
             "line-up", "Line Up"),
    Template("cards", "Card game",
             "A shuffled deck, secret hands; play a card, score it if it beats the last one. "
             "Shows hidden cards, a set-up that deals, a per-player score and ranking.",
             "climb", "Climb"),
    Template("stacking", "Stacking game",
             "Place discs or move a stack you control onto a neighbour, capping it; a "
             "stack four high wins. Shows stacks, moves in a direction and two kinds of "
             "option in one decision.",
             "cap-it", "Cap It"),
)


def template(template_id: str) -> Template:
    """The template called `template_id`; a clear message naming the others if none is."""
    for t in TEMPLATES:
        if t.id == template_id:
            return t
    shown = str(template_id)[:40]
    raise UsageError(f"no template called '{shown}' (templates: "
                     f"{', '.join(t.id for t in TEMPLATES)})")


def check_name(name: str) -> str:
    """`name` if it can be a game's name (its file's id), else a clear message."""
    if not isinstance(name, str) or not name:
        raise UsageError("name the new game: lower-case letters, digits and dashes, "
                         "e.g. my-game")
    if len(name) > MAX_NAME or not NAME.fullmatch(name):
        raise UsageError(f"'{name[:MAX_NAME]}' cannot be a game's name: use lower-case "
                         "letters, digits and dashes, starting with a letter or digit "
                         f"(at most {MAX_NAME} characters), e.g. my-game")
    return name


def check_title(title: str) -> str:
    """`title` without surrounding spaces if it can be a game's title: one line of
    printable text."""
    if not isinstance(title, str) or not title.strip():
        raise UsageError("give the new game a title")
    title = title.strip()
    if len(title) > MAX_TITLE:
        raise UsageError(f"a game's title is at most {MAX_TITLE} characters")
    if not title.isprintable():
        raise UsageError("a game's title is one line of text (no line breaks or tabs)")
    return title


def default_title(name: str) -> str:
    """A name in words, as a title: `my-first-game` → `My First Game`."""
    return " ".join(w.capitalize() for w in name.split("-") if w) or name


PLAIN_TITLE = re.compile(r"[A-Za-z][A-Za-z0-9 '!?.,&()-]*[A-Za-z0-9!?.)]|[A-Za-z]")
"""A title written as it is: words that no YAML reader takes for anything but text."""
YAML_WORDS = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"}


def yaml_string(text: str) -> str:
    """`text` as a YAML scalar: as it is when plain words, else double-quoted (a JSON
    string is a double-quoted YAML scalar, whatever quotes, colons, hashes or braces
    the text holds)."""
    if PLAIN_TITLE.fullmatch(text) and text.lower() not in YAML_WORDS and "  " not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _read(file: str) -> str:
    return resources.files("interpreter.studio").joinpath("templates", file).read_text(
        encoding="utf-8")


def _replace_once(text: str, old: str, new: str) -> str:
    """Replace the one occurrence of `old` (a template kept to the shape this module
    expects: its tests check every template)."""
    if text.count(old) != 1:
        raise AssertionError(f"a template must hold {old.strip()!r} exactly once")
    return text.replace(old, new)
