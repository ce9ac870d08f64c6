"""The gallery of classics against OpenSpiel (tests/openspiel_gallery.py does the work):
1,000 uniform random games of each classic replayed move for move in OpenSpiel's game
of the same name (legal moves one for one, chance copied from our deal, the same end and
returns), then the outcomes of uniform random play compared with OpenSpiel's own 4,000
games (win rates per seat and draws by two-proportion tests, mean length by Welch's t,
at 99%). Run with `-s` to see the figures."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

from openspiel_gallery import (
    BY_NAME,
    CLASSICS,
    Classic,
    Disagreement,
    Replayer,
    check_classic,
)

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = 1000
OPENSPIEL_GAMES = 4000


@pytest.mark.parametrize("classic", CLASSICS, ids=lambda c: c.ruleset)
def test_classic_plays_as_openspiel(classic: Classic) -> None:
    text, rows = check_classic(classic, REPLAYS, OPENSPIEL_GAMES)
    print("\n" + text)
    assert all(r.agrees for r in rows), text


def test_a_wrong_move_mapping_is_caught() -> None:
    """Connect Four with its columns read one off (a into b … g into a): the legal moves
    still match one for one until a column fills, and then they part ways."""
    shifted = dataclasses.replace(
        BY_NAME["connect-four"],
        action_string=lambda seat, n: f"{'xo'[seat - 1]}{(ord(n[0]) - ord('a') + 1) % 7}")
    replayer = Replayer(shifted)
    with pytest.raises(Disagreement):
        for seed in range(50):
            replayer.replay(seed)


def test_a_wrong_rule_is_caught(tmp_path: Path) -> None:
    """Liar's Dice without wild sixes: some replay's liar call ends the other way."""
    text = (ROOT / "rulesets" / "liars-dice.yaml").read_text(encoding="utf-8")
    wrong = text.replace("if d.pips == bid_face or d.pips == 6]", "if d.pips == bid_face]")
    assert wrong != text
    path = tmp_path / "liars-dice.yaml"
    path.write_text(wrong, encoding="utf-8")
    replayer = Replayer(dataclasses.replace(BY_NAME["liars-dice"], ruleset=str(path)))
    with pytest.raises(Disagreement, match="returns differ"):
        for seed in range(200):
            replayer.replay(seed)
