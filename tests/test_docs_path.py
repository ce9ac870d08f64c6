"""`tabletop docs PATH`: a designer's own game gets its rulebook, apart from the site.

Runs the command in-process (Typer's CliRunner) from a scratch folder holding a copy of
a small ruleset, as a designer's working folder would.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from console import invoke

from interpreter.docs.build import MANIFEST

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "benchmarks" / "rulesets" / "tic-tac-toe.yaml"
MINE = GAME.name




@pytest.fixture
def desk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A designer's folder with their game in it (and its tests file), as the cwd."""
    shutil.copy(GAME, tmp_path / GAME.name)
    shutil.copy(GAME.with_name("tic-tac-toe.tests.yaml"), tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TABLETOP_RULESETS", raising=False)
    return tmp_path


def written(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def test_a_named_ruleset_gets_its_rulebook_alone_in_rulebooks(desk: Path) -> None:
    result = invoke("docs", MINE)
    assert result.exit_code == 0, result.output
    files = written(desk / "rulebooks")
    assert {"index.md", "tic-tac-toe/index.md", "tic-tac-toe/setup.svg",
            "print/tic-tac-toe.html", MANIFEST} <= files
    # only this game: no bundled game, no project guide, and the site is not touched
    assert not [f for f in files if f.startswith(("caldera", "guides/"))]
    assert not (desk / "generated_docs").exists()
    book = (desk / "rulebooks" / "tic-tac-toe" / "index.md").read_text(encoding="utf-8")
    assert "Tic-tac-toe" in book and "three of their marks" in book
    assert "(tic-tac-toe/index.md)" in (desk / "rulebooks" / "index.md").read_text()
    assert "wrote rulebooks/tic-tac-toe/index.md" in result.stdout


def test_check_and_out_work_on_a_named_ruleset(desk: Path) -> None:
    assert invoke("docs", MINE, "--out", "book").exit_code == 0
    assert (desk / "book" / "tic-tac-toe" / "index.md").is_file()
    assert not (desk / "rulebooks").exists()
    fresh = invoke("docs", MINE, "--out", "book", "--check")
    assert fresh.exit_code == 0 and "up to date" in fresh.stdout
    ruleset = desk / MINE
    ruleset.write_text(ruleset.read_text().replace("Tic-tac-toe", "Noughts and Crosses", 1))
    stale = invoke("docs", MINE, "--out", "book", "--check")
    assert stale.exit_code == 1
    assert "stale: book/tic-tac-toe/index.md" in stale.stdout
    assert f"run: tabletop docs {MINE} --out book" in stale.output


def test_a_bundled_game_by_name_and_the_same_file_twice(desk: Path) -> None:
    result = invoke("docs", "caldera", str(ROOT / "rulesets" / "caldera.yaml"))
    assert result.exit_code == 0, result.output
    files = written(desk / "rulebooks")
    assert "caldera/index.md" in files and "print/caldera.html" in files
    assert not [f for f in files if f.startswith(("high-rise", "aquarium"))]


def test_two_files_of_one_game_are_refused(desk: Path) -> None:
    shutil.copy(desk / MINE, desk / "copy.yaml")
    result = invoke("docs", MINE, "copy.yaml")
    assert result.exit_code == 1
    assert f"{MINE} and copy.yaml are both the game 'tic-tac-toe'" in result.output


@pytest.mark.parametrize(("arg", "message"), [
    ("nope.yaml", "error: no such ruleset file: nope.yaml"),
    ("nosuchgame", "error: unknown game 'nosuchgame' (bundled games: "),
    ("./", "error: ./ is not a ruleset file (it is a folder)"),
])
def test_a_bad_path_is_one_line_and_exit_1(desk: Path, arg: str, message: str) -> None:
    result = invoke("docs", arg)
    assert result.exit_code == 1
    assert result.output.startswith(message) and result.output.count("\n") == 1, (
        result.output)
    assert not (desk / "rulebooks").exists()


def test_a_ruleset_with_errors_gives_them_located_and_writes_nothing(desk: Path) -> None:
    bad = desk / MINE
    lines = bad.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("game:"))
    lines.insert(at + 1, "  colour: red")  # not a key of `game`
    bad.write_text("\n".join(lines) + "\n")
    result = invoke("docs", MINE)
    assert result.exit_code == 1
    assert f"{MINE}:{at + 2}:3: error: unknown key 'colour'" in result.output
    assert not (desk / "rulebooks").exists()


def page_size(html: str) -> str:
    """The paper of a printable page: its CSS `@page { size: ... }`."""
    found = re.search(r"@page\s*\{[^}]*?(?<![-\w])size:\s*([\w-]+)", html)
    assert found, "no @page size in the printable page"
    return found.group(1)


def test_paper_sets_the_printable_pages_size(desk: Path) -> None:
    assert invoke("docs", MINE, "--paper", "letter").exit_code == 0
    page = (desk / "rulebooks" / "print" / "tic-tac-toe.html").read_text()
    assert invoke("docs", MINE, "--paper", "A4", "--out", "a4").exit_code == 0
    a4 = (desk / "a4" / "print" / "tic-tac-toe.html").read_text()
    assert page_size(page) == "letter" and page_size(a4) == "A4"
    wrong = invoke("docs", MINE, "--paper", "b5")
    assert wrong.exit_code != 0 and "'b5' is not one of 'a4', 'letter'" in wrong.output


def test_a_named_ruleset_prints_as_pdf_on_its_paper(desk: Path) -> None:
    weasyprint = pytest.importorskip("weasyprint", reason="the pdf extra is not installed")
    result = invoke("docs", MINE, "--pdf", "pdfs", "--paper", "letter")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (desk / "pdfs").iterdir()) == ["tic-tac-toe.pdf"]
    assert (desk / "pdfs" / "tic-tac-toe.pdf").read_bytes().startswith(b"%PDF")
    html = (desk / "rulebooks" / "print" / "tic-tac-toe.html").read_text()
    page = weasyprint.HTML(string=html).render().pages[0]
    assert (round(page.width), round(page.height)) == (816, 1056)  # 8.5 × 11 in at 96 px
