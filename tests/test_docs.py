"""The generated rulebooks: fresh, deterministic, buildable by mkdocs, printable as PDF,
and written in English (no identifier, Python value or bracket reaches the reader)."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from interpreter.api import load, load_game
from interpreter.assemble.describer import describer_for
from interpreter.compile.english import Describer, ExpressionEnglish
from interpreter.compile.expressions import _Compiler
from interpreter.compile.functions import FUNCTIONS
from interpreter.docs import build_docs, write_docs
from interpreter.docs.build import DocsResult, build_pdfs
from interpreter.docs.cli import docs_command
from interpreter.docs.diagrams import colour_hex
from interpreter.docs.rulebook import Rulebook
from interpreter.primitives import PRIMITIVES

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated_docs"
RULESETS = ROOT / "rulesets"


SMALL_RULESETS = [RULESETS / "pig.yaml", RULESETS / "tic-tac-toe.yaml"]
"""Two small games: what a test checks of the writing, checking or templates of the
rulebooks (not of one game's pages) does not need every game built (seconds each)."""


class FreshCheck(NamedTuple):
    """`write_docs`'s check of generated_docs/ and what the build behind it made: the
    rulebooks (`load_books`'s) and every file (`build_docs`'s). Building them all takes
    seconds per game, so the tests share this one build rather than making their own."""

    result: DocsResult
    books: list[Rulebook]
    files: dict[str, str]


@pytest.fixture(scope="module")
def fresh_check() -> FreshCheck:
    import interpreter.docs.build as build

    loaded: list[tuple[list[Rulebook], Any, dict[str, str]]] = []
    built: list[dict[str, str]] = []
    load_all, build_files = build.load_all, build._build

    def load_kept(*args: Any, **kwargs: Any) -> Any:
        loaded.append(load_all(*args, **kwargs))
        return loaded[-1]

    def build_kept(*args: Any, **kwargs: Any) -> Any:
        files, skipped = build_files(*args, **kwargs)
        built.append(files)
        return files, skipped
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "load_all", load_kept)
        patch.setattr(build, "_build", build_kept)
        result = write_docs(GENERATED, check=True)
    assert len(loaded) == len(built) == 1, "write_docs no longer builds through _build"
    assert loaded[0][2] == result.skipped
    return FreshCheck(result, loaded[0][0], built[0])


@pytest.fixture(scope="module")
def files(fresh_check: FreshCheck) -> dict[str, str]:
    """Every generated file of the bundled site (what `build_docs(GENERATED)` gives)."""
    return fresh_check.files


@pytest.fixture(scope="module")
def small_rulesets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rulesets folder of the `SMALL_RULESETS` only."""
    folder = tmp_path_factory.mktemp("rulesets")
    for path in SMALL_RULESETS:
        shutil.copy(path, folder / path.name)
    return folder


# -- drift ------------------------------------------------------------------------------

def test_committed_rulebooks_are_fresh(fresh_check: FreshCheck) -> None:
    result = fresh_check.result
    assert result.fresh, (
        "generated_docs/ is out of date; run: tabletop docs\n"
        f"stale: {result.stale}\nmissing: {result.missing}\nextra: {result.extra}")


def test_building_twice_gives_identical_files(files: dict[str, str]) -> None:
    assert build_docs(GENERATED) == files


def test_every_loading_ruleset_has_a_rulebook(fresh_check: FreshCheck,
                                              files: dict[str, str]) -> None:
    books, skipped = fresh_check.books, fresh_check.result.skipped  # load_books()'s
    assert not skipped, skipped
    for book in books:
        assert f"{book.name}/index.md" in files
        assert f"print/{book.name}.html" in files
        assert f"[{book.title}]({book.name}/index.md)" in files["index.md"]


def test_check_reports_stale_files_and_the_fix(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "docs"
    assert docs_command(out, paths=SMALL_RULESETS) == 0
    assert docs_command(out, check=True, paths=SMALL_RULESETS) == 0
    (out / "pig" / "index.md").write_text("old text\n", encoding="utf-8")
    # A game dropped from the rulesets leaves the pages tabletop wrote for it ...
    (out / "oldgame").mkdir()
    (out / "oldgame" / "index.md").write_text("x\n", encoding="utf-8")
    with (out / ".tabletop-docs").open("a", encoding="utf-8") as manifest:
        manifest.write("oldgame/index.md\n")
    # ... and a designer's own file is not tabletop's to remove.
    (out / "notes.md").write_text("mine\n", encoding="utf-8")
    capsys.readouterr()
    assert docs_command(out, check=True, paths=SMALL_RULESETS) == 1
    said = capsys.readouterr()
    assert "stale: " in said.out and "pig/index.md" in said.out
    assert "extra: " in said.out and "oldgame/index.md" in said.out
    assert "notes.md" not in said.out
    assert "run: tabletop docs" in said.err
    assert docs_command(out, paths=SMALL_RULESETS) == 0
    assert write_docs(out, check=True, paths=SMALL_RULESETS).fresh
    assert not (out / "oldgame").exists()
    assert (out / "notes.md").read_text(encoding="utf-8") == "mine\n"


def test_a_designers_templates_come_first(tmp_path: Path, small_rulesets: Path) -> None:
    (tmp_path / "index.md.j2").write_text(
        "# My games\n{% for book in books %}- {{ book.title }}\n{% endfor %}",
        encoding="utf-8")
    files = build_docs(tmp_path / "out", templates=tmp_path, rulesets=small_rulesets)
    assert files["index.md"].startswith("# My games\n- ")
    assert "## Components" in files["pig/index.md"]  # the package's template


@pytest.mark.parametrize(("text", "message"), [
    ("{{ nosuch.attribute.deeper }}\n", "the template uses 'nosuch', which it is never given"),
    ("{% for x in %}\n{{ broken", "template syntax"),
    (b"\xff\xfe\x00\x00", "the template is not UTF-8 text (byte 0xff)"),
])
def test_a_broken_template_is_told_before_any_rulebook_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        text: str | bytes, message: str) -> None:
    """Building every rulebook takes seconds: the designer's own template is checked first
    (it used to be read only after all of them were built)."""
    import interpreter.docs.build as build

    def built(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a rulebook was built before the template was checked")
    monkeypatch.setattr(build, "load_all", built)
    template = tmp_path / "tpl" / "game.md.j2"
    template.parent.mkdir()
    if isinstance(text, bytes):
        template.write_bytes(text)
    else:
        template.write_text(text, encoding="utf-8")
    assert docs_command(tmp_path / "out", templates=template.parent) == 1
    err = capsys.readouterr().err
    assert f"{template}:1:1: error: {message}" in err or (
        "game.md.j2:1:1: error: " + message) in err, err


def test_an_unwritable_pdf_folder_is_told_before_any_rulebook_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import interpreter.docs.build as build

    monkeypatch.setattr(build, "write_docs", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("the rulebooks were built first")))
    monkeypatch.setattr("interpreter.docs.cli.write_docs", build.write_docs)
    assert docs_command(tmp_path / "out", pdf=Path("/proc/nosuch/pdf")) == 1
    assert "cannot write the PDFs to /proc/nosuch/pdf" in capsys.readouterr().err


# -- content ----------------------------------------------------------------------------

def test_caldera_rulebook_content(files: dict[str, str]) -> None:
    page = files["caldera/index.md"]
    for heading in ("## Overview", "## Components", "## Setup", "## Playing a turn",
                    "## Rulings and clarifications", "## End of the game and scoring",
                    "## Options and variants", "## Examples"):
        assert heading in page
    assert ("Rainbow stashes: 90 pieces, 6 of each colour (red, yellow, green, "
            "blue, black) in each size (small, medium, large)") in page
    assert "## The exact rules" in page
    assert "![Caldera: the position after set-up" in page
    assert "### Power Play" in page and "default: **on**" in page
    assert "Move a cap one square in any of the eight directions" in page  # the option text
    assert "Exactly: cap move" in page  # … and the rule generated from its effects
    assert "### An eruption that captures (the text's example)" in page  # a marked case


def test_setup_diagrams_hide_what_is_hidden(files: dict[str, str]) -> None:
    svg = files["high-rise/setup.svg"]
    assert "a hidden piece" in svg and ">?<" in svg
    assert "die " not in svg  # the dice under the covers stay hidden
    assert "Set aside: " not in svg  # the unused covers and dice are off the table


def test_svgs_are_deterministic_documents(files: dict[str, str]) -> None:
    svgs = {k: v for k, v in files.items() if k.endswith(".svg")}
    assert len(svgs) >= 9
    for name, svg in svgs.items():
        assert svg.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\""), name
        assert svg.rstrip().endswith("</svg>"), name
        assert " id=" not in svg, name
    assert colour_hex("red") != colour_hex("blue")
    assert colour_hex("octarine") == colour_hex("grey")


def test_print_pages_are_standalone(files: dict[str, str]) -> None:
    page = files["print/caldera.html"]
    assert page.startswith("<!DOCTYPE html>")
    assert "@page" in page and "break-before: page" in page
    assert "<svg" in page and 'src="setup.svg"' not in page  # SVGs inline
    assert "Printable version" not in page


# -- the site and the PDF ----------------------------------------------------------------

def test_mkdocs_builds_the_site_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                          "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert (site / "caldera" / "index.html").is_file()
    assert (site / "print" / "caldera.html").is_file()


def test_mkdocs_nav_lists_every_game_and_guide(files: dict[str, str]) -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for rel in files:
        if rel.endswith("/index.md") or rel.startswith("guides/"):
            assert rel in nav, f"add {rel} to the nav in mkdocs.yml"


def test_the_guides_are_copied_into_the_site_and_listed_on_the_index(
        files: dict[str, str]) -> None:
    guides = sorted((ROOT / "guides").glob("*.md"))
    assert guides, "the project's guides/ folder has pages"
    for path in guides:
        rel = f"guides/{path.name}"
        assert files[rel] == path.read_text(encoding="utf-8")
        title = re.search(r"^# (.+)$", files[rel], flags=re.M).group(1).strip()
        assert f"[{title}]({rel})" in files["index.md"]


def test_a_rulebook_prints_as_pdf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Caldera's rulebook alone is loaded, and its pages are counted in the document the
    PDF is written from (laying the book out again cost as much as the PDF)."""
    weasyprint = pytest.importorskip("weasyprint", reason="the pdf extra is not installed")
    pages: list[int] = []
    render = weasyprint.HTML.render

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        document = render(self, *args, **kwargs)
        pages.append(len(document.pages))
        return document
    monkeypatch.setattr(weasyprint.HTML, "render", counted)
    written = build_pdfs(tmp_path, names=["caldera"], paths=[RULESETS / "caldera.yaml"])
    assert [p.name for p in written] == ["caldera.pdf"]
    data = written[0].read_bytes()
    assert data.startswith(b"%PDF")
    assert data.rstrip().endswith(b"%%EOF")
    assert len(pages) == 1 and pages[0] >= 5, pages


# -- English ----------------------------------------------------------------------------

_FORBIDDEN = [
    (re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]"), "an identifier with '_'"),
    (re.compile(r"\b(None|True|False)\b"), "a Python value"),
    (re.compile(r"[\[\]{}<>'\"]"), "a bracket or a straight quote"),
]


def _check_english(text: str, where: str) -> None:
    for pattern, what in _FORBIDDEN:
        found = pattern.search(text)
        assert found is None, f"{where}: {what} in {text!r}"


_BLOCK = [{"say": "The {piece_name(top(my_square))} moves."}]

PRIMITIVE_SAMPLES: dict[str, list[dict[str, Any]]] = {
    "let": [{"let": {"power_played": "not is_done", "the_count": "count(the_stash)"}}],
    "set": [{"set": "fewest_left", "value": "pieces_left"},
            {"set": "secret_colour", "value": "first(all_colours)", "seat": "next_seat(current)"}],
    "add": [{"add": "quiet_turns", "amount": "1"},
            {"add": "seat_beads", "amount": "-2", "seat": "current"}],
    "if": [{"if": "pieces_left > 0 and not is_done", "then": _BLOCK, "else": _BLOCK}],
    "while": [{"while": "height(my_square) > 0", "do": _BLOCK}],
    "repeat": [{"repeat": _BLOCK, "until": "has_erupted"}],
    "for_each": [{"for_each": "my_square", "in": "cells(the_board)", "do": _BLOCK}],
    "call": [{"call": "take_effect", "with": {"the_target": "top(my_square)"}}],
    "retry": [{"retry": _BLOCK, "until": "all(is_ok(c) for c in cells(the_board))"}],
    "move": [{"move": "top(from_square)", "to": "captured[current]"},
             {"move": "[p for p in pieces(the_box) if p.colour == red]", "to": "the_deck",
              "at": "bottom"}],
    "swap": [{"swap": "top(a_square)", "with": "bottom(b_square)"}],
    "shuffle": [{"shuffle": "the_deck"}],
    "arrange": [{"arrange": "repeat(red, 6) + repeat(dark_blue, 6)",
                 "into": "without(cells(the_board), place('c3'))",
                 "where": "all(assigned[n] != value for n in neighbours(place, orthogonal))",
                 "as": "nest_colour"}],
    "choose": [{"choose": "{seat_name(current)}: move a cap",
                "options": [{"id": "cap_move", "for": {"from_square": "cap_squares",
                                                       "the_dir": "directions"},
                             "let": {"to_square": "offset(from_square, the_dir)"},
                             "where": "to_square != null and not is_cap(top(to_square))",
                             "notation": "{place_name(from_square)}-{the_dir}",
                             "label": "Move {dir_name(the_dir)}", "do": _BLOCK},
                            {"id": "pass_turn", "notation": "pass", "text": "Pass."}],
                "if_none": [{"end_game": "{seat_name(current)} has no legal move"}]},
               {"choose": "{seat_name(chooser)}: pick a card", "seats": "seats",
                "options": [{"id": "pick_card", "for": {"the_card": "pieces(my_hand[chooser])"},
                             "notation": "{piece_code(the_card)}", "do": _BLOCK}],
                "secret": True}],
    "end_game": [{"end_game": "{seat_name(current)} wins", "winners": "[current]"},
                 {"end_game": "no moves left"}],
    "say": [{"say": "Eruption from {place_name(from_square)}!", "to": "[current]"}],
    "eliminate": [{"eliminate": "current"}, {"eliminate": "[s for s in seats if s != current]"}],
    "show": [{"show": "top(my_square)", "to": "[current]"},
             {"show": "pieces(the_box)", "to": "next_seat(current)"}],
    "shrink": [{"shrink": "top(my_square)", "supply": "the_stash", "as": "new_piece",
                "else": [{"destroy": "top(my_square)", "to": "the_destroyed"}]},
               {"shrink": "top(my_square)", "supply": "the_stash", "steps": "2"}],
    "grow": [{"grow": "top(my_square)", "supply": "the_stash", "else": _BLOCK}],
    "recolor": [{"recolor": "top(my_square)", "to": "dark_blue", "supply": "the_stash",
                 "attribute": "piece_colour"}],
    "destroy": [{"destroy": "top(my_square)", "to": "the_destroyed"}],
    "create": [{"create": {"piece_colour": "top(my_square).colour", "size": "1"},
                "from": "the_stash", "to": "free_slot", "as": "born_piece", "else": _BLOCK}],
    "match": [{"match": "top(my_square).colour",
               "cases": {"red": _BLOCK, "dark_blue": [], "white": _BLOCK},
               "default": _BLOCK}],
}


@pytest.fixture(scope="module")
def describers() -> list[Describer]:
    return [Describer(), Describer(emphasis=True),
            describer_for(load_game("caldera"), emphasis=True)]


def test_every_primitive_has_a_sample() -> None:
    missing = sorted(set(PRIMITIVES) - set(PRIMITIVE_SAMPLES))
    assert not missing, f"add an English sample for the new primitive(s): {missing}"


@pytest.mark.parametrize("keyword", sorted(PRIMITIVE_SAMPLES))
def test_every_primitive_reads_as_english(keyword: str, describers: list[Describer]) -> None:
    for sample in PRIMITIVE_SAMPLES[keyword]:
        effect = PRIMITIVES[keyword].model_validate(sample)
        for d in describers:
            lines = d.sentences([effect])
            assert lines and all(line.strip() for line in lines)
            for line in lines:
                _check_english(line, keyword)


EXPRESSIONS = [
    "42", "'c3'", "'some_text'", "null", "true", "false", "my_name", "current",
    "is_done and other_flag", "is_done or not other_flag", "not (a_b == c_d)", "-my_amount",
    "+my_amount", "a_b + 1", "a_b - 1", "a_b * 2", "a_b / 2", "a_b // 2", "a_b % 2",
    "a_b == c_d", "a_b != null", "a_b < 1", "a_b <= 1", "a_b > 1", "a_b >= 1",
    "a_b in c_d", "a_b not in c_d", "1 < a_b < 3", "a_b if is_ok else c_d", "[]",
    "[red, dark_blue]", "(a_b, c_d)", "top(my_square).piece_colour", "my_list[0]",
    "my_list[-1]", "my_list[a_b]", "my_list[a_b + 1]", "captured[current]",
    "[p for p in pieces(the_box) if p.colour == red]",
    "[p.size for p in pieces(the_box)]", "sum(p.size for p in pieces(the_box))",
    "any(p.colour == red for p in pieces(the_box))",
    "all(p.size > 1 for p in pieces(the_box) if p.colour == red)",
    "[a + b for a in my_list for b in other_list if a != b]",
    "is_cap(top(my_square))", "not is_cap(top(my_square))", "key_after(a_b, c_d)",
    "where_is(my_piece)", "can_land(my_square)", "not any(x for x in my_list)",
    "seat_name(current) + ' scores ' + str(my_score)", "repeat(red, 6) + [dark_blue]",
]


def test_every_expression_construct_is_covered() -> None:
    kinds = {name[2:] for name in dir(_Compiler) if name.startswith("c_")}
    seen = {type(node).__name__ for text in EXPRESSIONS
            for node in ast.walk(ast.parse(text, mode="eval"))}
    assert kinds <= seen, f"add expressions using: {sorted(kinds - seen)}"


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_every_expression_reads_as_english(text: str, describers: list[Describer]) -> None:
    for d in describers:
        said = d.english.text(text)
        assert said.strip()
        _check_english(said, text)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_every_builtin_function_reads_as_english(name: str,
                                                 describers: list[Describer]) -> None:
    fn = FUNCTIONS[name]
    samples = ["my_square", "the_dir", "the_count"]
    for n in range(fn.min_args, min(fn.max_args, 3) + 1):
        text = f"{name}({', '.join(samples[:n])})"
        for d in describers:
            said = d.english.text(text)
            assert said.strip(), text
            _check_english(said, text)


# -- particular phrasings ---------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("(a_b + 4) // 5", "(a b plus 4) divided by 5, rounded down"),
    ("top(c).pips != null", "the top piece of c has a pips value"),
    ("top(c).colour == null", "the top piece of c has no colour"),
    ("[p.colour for p in pieces(the_box)]", "the colour of each of the pieces in the box"),
    ("distinct([p.colour for p in pieces(the_box)])",
     "the different colours among the pieces in the box"),
    ("[first([p for p in pieces(the_box) if p.size == s]) for s in [1, 2]]",
     "the first of the pieces p in the box such that the size of p is s (for each s in 1 "
     "and 2)"),
    ("[q.size for q in my_list if q.size > 1]",
     "the size of q for each q in my list such that the size of q is more than 1"),
    ("all(p != n for n in my_list)", "for all n in my list, p is not n"),
    ("my_colours[square]", "the my colours of square"),
])
def test_phrasings(text: str, expected: str) -> None:
    glossary = {"the_box": "the box"}
    assert ExpressionEnglish(glossary).text(text) == expected


def test_a_loop_name_that_is_also_a_direction_stays_a_name() -> None:
    said = ExpressionEnglish().text("any(n == m for n in neighbours(m, orthogonal))")
    assert "north" not in said and " n " in f" {said} "


def _said(effect: dict[str, Any], d: Describer | None = None) -> list[str]:
    key = next(iter(effect))
    return (d or Describer()).sentences([PRIMITIVES[key].model_validate(effect)])


def test_a_designers_text_comes_first_and_the_exact_rule_stays_under_it() -> None:
    lines = _said({"for_each": "s", "in": "seats", "text": "Each player draws  a card.",
                   "do": [{"move": "top(the_deck)", "to": "hand[s]"}]})
    assert lines[0] == "Each player draws a card."
    assert lines[1].strip().startswith("Exactly: for each *s* in the players")
    assert lines[2].strip().startswith("Move the top piece of the deck")
    assert len(lines[2]) - len(lines[2].lstrip()) > len(lines[1]) - len(lines[1].lstrip())


def test_appending_to_a_list_reads_as_adding() -> None:
    assert _said({"let": {"seen": "seen + [key_now]"}}) == ["Add key now to the end of seen."]
    assert _said({"set": "queue", "value": "queue + [a_b, c_d]"}) == [
        "Add a b and c d to the end of queue."]
    assert _said({"let": {"seen": "other + [key_now]"}})[0].startswith("Let ")


def test_announcements_mark_what_changes_from_game_to_game() -> None:
    d = Describer(emphasis=True)
    assert _said({"say": "The {piece_name(top(sq))} moves."}, d) == [
        "Announce: “The ‹the top piece of *sq*› moves.”".replace("The ‹the", "‹The")]
    assert _said({"say": "Hello {seat_name(current)}", "to": "[current]"}, d) == [
        "Tell the current player, and nobody else: “Hello ‹the current player›”."]


def test_arrange_says_its_own_names_in_words() -> None:
    lines = _said({"arrange": "repeat(red, 2)", "into": "cells(the_board)",
                   "where": "all(assigned[n] != value for n in neighbours(place, orthogonal))",
                   "as": "nest_colour"})
    assert "the value dealt to n is not the value being dealt" in lines[0]
    assert "the squares next to the place" in lines[0]
    assert lines[0].endswith("What a place is dealt is its nest colour.")


def test_calls_name_their_arguments() -> None:
    assert _said({"call": "take_effect", "with": {"target": "top(sq)", "here": "here"}}) == [
        "Do *take effect*, with target being the top piece of sq and here."]


def test_the_rulebook_says_which_pieces_share_a_back() -> None:
    from interpreter.api import load_game
    from interpreter.docs.rulebook import _backs

    sentence = _backs(load_game("aquarius-rising"))
    assert sentence is not None
    assert "*Aquarius card* (Element cards, Action cards, " in sentence
    assert "*Goal card* (Goal cards)" in sentence
    assert sentence.count("Action cards") == 1  # three sets of one name, said once
    assert _backs(load_game("caldera")) is None  # no backs declared: nothing said


# -- plurals ------------------------------------------------------------------------------

@pytest.mark.parametrize(("noun", "expected"), [
    ("stone", "stones"), ("Black stones", "Black stones"), ("Coins", "Coins"),
    ("Glass", "Glasses"), ("Bonus", "Bonuses"), ("box", "boxes"), ("Cherry", "Cherries"),
    ("Day", "Days"), ("Die", "Dice"), ("black die", "black dice"), ("Dice", "Dice"),
    ("Wolf", "Wolves"), ("Chessman", "Chessmen"), ("Human", "Humans"), ("Mouse", "Mice"),
    ("Sheep", "Sheep"), ("Fish card", "Fish cards"), ("Hero", "Heroes"), ("AI", "AIs"),
    ("Coin (gold)", "Coins (gold)"), ("Axis", "Axes"), ("quiz", "quizzes"),
])
def test_a_label_is_made_plural_once(noun: str, expected: str) -> None:
    from interpreter.docs.rulebook import plural

    assert plural(noun, 2) == expected
    assert plural(noun, 1) == noun


@pytest.mark.parametrize(("k", "words", "expected"), [
    (1, "six-sided dice", "1 six-sided die"), (2, "six-sided dice", "2 six-sided dice"),
    (1, "Coins", "1 Coin"), (1, "glass", "1 glass"), (1, "DICE", "1 DIE"),
    (1, "sheep", "1 sheep"), (0, "dice", "0 dice"),
])
def test_one_component_named_in_the_plural_is_counted_in_the_singular(
        k: int, words: str, expected: str) -> None:
    from interpreter.docs.rulebook import counted

    assert counted(k, words) == expected


def test_a_game_of_one_die_lists_one_die_and_no_empty_count_of_pieces() -> None:
    """Pig's rulebook read "In all: 0 pieces and 1 six-sided dice"."""
    from interpreter.docs.rulebook import build_rulebook

    book = build_rulebook(load("pig"))
    assert book.total_text == "1 six-sided die"
    assert [row["summary"] for row in book.components] == ["1 six-sided die"]


def test_a_set_labelled_in_the_plural_is_not_pluralised_again() -> None:
    """A set labelled "Black stones" once read "Black stoneses" in the rulebook."""
    from interpreter.docs.build import environment, render_game
    from interpreter.docs.rulebook import build_rulebook
    from interpreter.load.loader import load_ruleset_text

    text = (ROOT / "tests" / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("    - id: counters\n", "    - id: counters\n      label: Black stones\n",
                        1)
    book = build_rulebook(load_ruleset_text(text, "stones.yaml"))
    page = render_game(environment(), book, None)
    assert "**Black stones: 6 pieces" in page
    assert "stoneses" not in page
