"""Saved games: the ruleset, options, seed and decisions, enough to rebuild any game.

A save holds no state, only what made it: the same ruleset (checked by its hash),
options, player count and seed, replayed through the same decisions, give the same
game (principle 3). That keeps save files small, readable and valid across engine
changes that do not change the rules.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.compile.game import Game
from interpreter.errors import IllegalMove, SaveFileError
from interpreter.load.loader import LoadedRuleset
from interpreter.run.state import State

SAVE_FORMAT = "tabletop-save"
SAVE_VERSION = 1


@dataclass
class SavedGame:
    """Everything needed to rebuild a game: what it is, how it was set up, what was chosen."""

    game: str
    ruleset_hash: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: dict[int, str]
    decisions: list[tuple[int, str]] = field(default_factory=list)

    @classmethod
    def start(cls, game: Game, players: int, seed: int, seats: dict[int, str]) -> SavedGame:
        """A save for a new game of `game` (no decisions yet)."""
        return cls(game.name, game.loaded.content_hash, dict(game.options), players, seed,
                   dict(seats))

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "ruleset_hash": self.ruleset_hash,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "seats": {str(s): kind for s, kind in sorted(self.seats.items())},
            "decisions": [[seat, notation] for seat, notation in self.decisions],
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "save file") -> SavedGame:
        """Check a decoded save file's shape; every problem is a SaveFileError naming `where`."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError(f"{where} is not a tabletop saved game")
        if data.get("version") != SAVE_VERSION:
            raise SaveFileError(f"{where} is a version {data.get('version')!r} save; this "
                                f"tabletop reads version {SAVE_VERSION}")
        try:
            game = data["game"]
            digest = data["ruleset_hash"]
            options = data["options"]
            players = data["players"]
            seed = data["seed"]
            seats = {int(s): kind for s, kind in data["seats"].items()}
            decisions = [(int(seat), notation) for seat, notation in data["decisions"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SaveFileError(f"{where} is damaged ({type(exc).__name__}: {exc})") from None
        if not (isinstance(game, str) and isinstance(digest, str) and isinstance(options, dict)
                and type(players) is int and type(seed) is int
                and all(isinstance(k, str) for k in seats.values())
                and all(isinstance(n, str) for _, n in decisions)):
            raise SaveFileError(f"{where} is damaged (a field has the wrong type)")
        return cls(game, digest, options, players, seed, seats, decisions)


def save_text(saved: SavedGame) -> str:
    """The save as JSON, one decision per line so files stay readable and diffable."""
    data = saved.to_json()
    decisions = data.pop("decisions")
    head = json.dumps(data, indent=2)[:-2]
    if not decisions:
        return head + ',\n  "decisions": []\n}\n'
    body = ",\n".join("    " + json.dumps(d) for d in decisions)
    return head + ',\n  "decisions": [\n' + body + "\n  ]\n}\n"


def write_save(path: str | Path, saved: SavedGame) -> None:
    """Write atomically (temporary file, then rename) so a crash never leaves half a save."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    text = save_text(saved)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(tmp, _file_mode(target))
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise SaveFileError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def _file_mode(target: Path) -> int:
    """Keep an existing save's permissions; a new one gets the usual (umask) ones,
    not the private mode of a temporary file."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def read_save(path: str | Path) -> SavedGame:
    """Read and check a save file's shape (not yet whether it fits its ruleset)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise SaveFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise SaveFileError(f"{path} is not a tabletop saved game (not text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{path} is not a tabletop saved game (not JSON: {exc})") from None
    return SavedGame.from_json(data, str(path))


def check_ruleset(saved: SavedGame, loaded: LoadedRuleset, where: str = "the save") -> None:
    """Refuse a save made for another game or for a since-changed ruleset."""
    name = loaded.model.game.name
    if saved.game != name:
        raise SaveFileError(f"{where} is a game of '{saved.game}', not of '{name}'")
    if saved.ruleset_hash != loaded.content_hash:
        raise SaveFileError(f"the ruleset changed since this game was saved ({loaded.path}); "
                            f"{where} cannot be replayed")


def replay(game: Game, saved: SavedGame, where: str = "the save") -> State:
    """The saved game's current state: a new game replayed through every decision."""
    state = game.new_state(saved.players, saved.seed)
    for number, (seat, notation) in enumerate(saved.decisions, start=1):
        try:
            game.apply_in_place(state, seat, notation)
        except IllegalMove as exc:
            raise SaveFileError(f"decision {number} of {where} (seat {seat}: '{notation}') "
                                f"is no longer legal: {exc}") from None
    return state


__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "SavedGame", "check_ruleset", "read_save",
           "replay", "write_save"]
