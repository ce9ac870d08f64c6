"""`game.designer` is optional: a ruleset without one validates, and its rulebook's facts
table and cover credit no one rather than print `None`."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from interpreter.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()


def without_designer(tmp_path: Path, year: bool = False) -> Path:
    lines = [line for line in (ROOT / "rulesets" / "tic-tac-toe.yaml").read_text()
             .splitlines() if not line.startswith("  designer:")]
    text = "\n".join(lines).replace("  name: tic-tac-toe", "  name: noughts"
                                    + ("\n  year: 1850" if year else ""), 1)
    path = tmp_path / "noughts.yaml"
    path.write_text(text + "\n")
    return path


def test_a_ruleset_without_a_designer_validates(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(without_designer(tmp_path))])
    assert result.exit_code == 0, result.output


def test_its_rulebook_leaves_the_designer_out(tmp_path: Path) -> None:
    for year in (False, True):
        path = without_designer(tmp_path, year)
        out = tmp_path / f"book-{year}"
        result = runner.invoke(app, ["docs", str(path), "--out", str(out)])
        assert result.exit_code == 0, result.output
        page = (out / "noughts" / "index.md").read_text()
        printed = (out / "print" / "noughts.html").read_text()
        for text in (page, printed, (out / "index.md").read_text()):
            assert "None" not in text
        assert "Designer" not in page and "Designer" not in printed
        facts = page.split("\n\n")[3]
        assert facts.splitlines()[0] == ("| Players | Playing time | Year |" if year
                                         else "| Players | Playing time |"), facts
        assert ("| 1850 |" in facts) is year


def test_list_shows_a_game_without_a_designer(tmp_path: Path) -> None:
    result = runner.invoke(app, ["list", str(without_designer(tmp_path))],
                           env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Tic-tac-toe (noughts): 2 players"
