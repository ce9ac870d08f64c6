"""Saved games: the ruleset, options, seed and decisions, enough to rebuild any game.

A save holds no state, only what made it: the same ruleset (checked by its hash),
options, player count and seed, replayed through the same decisions, give the same
game (principle 3). That keeps save files small, readable and valid across engine
changes that do not change the rules.

A save is also the referee's record: its seed decides every hidden card and die, and its
decisions include secret picks. So it is written readable by its owner only, and no
message ever quotes what it holds; reading one checks every field and bounds its size
and depth, so a damaged or hostile file is one clear SaveFileError.

Nothing saved is lost: a save is replaced atomically (the old version or the new one,
never half of each, even when the process is killed mid-write), one game at a time holds
it (a `SaveLock` for the whole session), and the temporary file a killed writer left
behind is removed by the next game that holds the save.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.errors import IllegalMove, SaveFileError, UsageError
from interpreter.play.game import Game
from interpreter.run.state import State

if TYPE_CHECKING:
    from interpreter.load.loader import LoadedRuleset

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
        """Check a decoded save file field by field; every problem is a SaveFileError
        naming `where` and the field, and quoting nothing of the file (it holds secrets)."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError(f"{where} is not a tabletop saved game")
        version = data.get("version")
        if type(version) is not int or version != SAVE_VERSION:  # `true` is no version 1
            raise SaveFileError(f"{where} was written in a save format this tabletop cannot "
                                f"read (field 'version'; it reads version {SAVE_VERSION})")
        for key in ("game", "ruleset_hash", "options", "players", "seed", "seats",
                    "decisions"):
            if key not in data:
                raise _damaged(where, key, "is missing")
        game = data["game"]
        if not (isinstance(game, str) and GAME_NAME.fullmatch(game)):
            raise _damaged(where, "game", "must be a game's name (lowercase letters, digits "
                           "and dashes; never a path)")
        digest = data["ruleset_hash"]
        if not (isinstance(digest, str) and HASH.fullmatch(digest)):
            raise _damaged(where, "ruleset_hash", "must be 64 hexadecimal digits")
        options = data["options"]
        if not (isinstance(options, dict) and len(options) <= MAX_OPTIONS and all(
                isinstance(k, str) and len(k) <= MAX_OPTION_TEXT and _option_value_ok(v)
                for k, v in options.items())):
            raise _damaged(where, "options", "must map option names to true/false, whole "
                           "numbers or short texts")
        players = data["players"]
        if not (type(players) is int and 1 <= players <= MAX_PLAYERS):
            raise _damaged(where, "players", f"must be a whole number from 1 to {MAX_PLAYERS}")
        seed = data["seed"]
        if not (type(seed) is int and abs(seed) < 10 ** MAX_SEED_DIGITS):
            raise _damaged(where, "seed", f"must be a whole number of at most "
                           f"{MAX_SEED_DIGITS} digits")
        return cls(game, digest, dict(options), players, seed,
                   _seats(data["seats"], players, where),
                   _decisions(data["decisions"], players, where))


SAVE_FILE_LIMIT = 32 * 1024 * 1024
"""Largest save file read (bytes): far above a game at the default decision budget
(200,000 decisions of some 30 bytes each), small enough to refuse a runaway file."""
MAX_SEED_DIGITS = 100
"""Seeds in save files (and on the command line) have at most this many digits."""
MAX_PLAYERS = 10_000
MAX_OPTIONS = 1_000
MAX_OPTION_TEXT = 200
MAX_NOTATION = 10_000
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")
"""A ruleset's `game.name` (the schema's pattern): a name to look up, never a path."""
HASH = re.compile(r"[0-9a-f]{64}")
_SEAT_KEY = re.compile(r"[0-9]{1,5}")


def _damaged(where: str, key: str, problem: str) -> SaveFileError:
    return SaveFileError(f"{where} is damaged: field '{key}' {problem}")


def _option_value_ok(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_OPTION_TEXT
    return type(value) in (bool, int) and abs(value) < 10 ** MAX_SEED_DIGITS


def _seats(raw: Any, players: int, where: str) -> dict[int, str]:
    """`{"1": "human", ...}` with seats of the game and known kinds of player."""
    from interpreter.agents import AGENTS, check_agent

    kinds = {"human", *AGENTS}
    if not isinstance(raw, dict):
        raise _damaged(where, "seats", "must map seat numbers to kinds of player")
    seats: dict[int, str] = {}
    for key, kind in raw.items():
        if not (isinstance(key, str) and _SEAT_KEY.fullmatch(key)
                and 1 <= int(key) <= players):
            raise _damaged(where, "seats", f"must name seats from 1 to {players} (the "
                           "'players' field)")
        if not isinstance(kind, str) or len(kind) > 200:
            raise _damaged(where, "seats", f"must give each seat one of "
                           f"{', '.join(sorted(kinds))}")
        if kind != "human":
            try:
                check_agent(kind)
            except UsageError as exc:
                raise _damaged(where, "seats", f"seat {key}: {exc}") from None
        seats[int(key)] = kind
    return seats


def _decisions(raw: Any, players: int, where: str) -> list[tuple[int, str]]:
    """`[[seat, notation], ...]` with seats of the game and notations as text."""
    if not isinstance(raw, list):
        raise _damaged(where, "decisions", "must be a list of [seat, notation] pairs")
    out: list[tuple[int, str]] = []
    for number, item in enumerate(raw, start=1):
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                and 1 <= item[0] <= players and isinstance(item[1], str)
                and 0 < len(item[1]) <= MAX_NOTATION):
            raise _damaged(where, "decisions", f"item {number} must be [seat, notation]: a "
                           f"seat from 1 to {players} and the option's notation as text")
        out.append((item[0], item[1]))
    return out


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
    """Write atomically (temporary file, then rename) so a crash never leaves half a save,
    readable by its owner only (0600, also when replacing a file that was more open): a
    save holds the seed and every decision, secret ones too, so it is the referee's record."""
    try:
        write_private(Path(path), save_text(saved))
    except OSError as exc:
        raise SaveFileError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def write_private(target: Path, text: str, durable: bool = False) -> None:
    """Replace `target` atomically (a temporary file renamed over it), readable by its
    owner only; with `durable`, flushed to the disk before the rename (a server's saves
    must survive a power cut, not only a crash)."""
    folder = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, SAVE_MODE)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            if durable:
                out.flush()
                os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


SAVE_MODE = 0o600
"""Owner read and write, nobody else: what every save file is written with."""


def _temporary_name(target: Path) -> re.Pattern[str]:
    """The names `write_private` gives its temporary files for `target` (mkstemp's
    random part has no dot, so another file's temporaries never match)."""
    return re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]+\.tmp")


def remove_leftovers(target: Path) -> list[Path]:
    """Remove the temporary files a writer of `target` left behind when it was killed
    mid-write, and return them. Call it only while holding `target`'s SaveLock: then no
    other writer's temporary file is live."""
    folder = target.parent if str(target.parent) else Path(".")
    pattern = _temporary_name(target)
    removed = []
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if pattern.fullmatch(e.name)]
    except OSError:
        return []
    for name in names:
        path = folder / name
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        except OSError:
            continue  # not ours to remove (another owner): the save itself is unharmed
        removed.append(path)
    return removed


class SaveInUse(SaveFileError):
    """Another game holds the save file (a `tabletop play` that is still running)."""


class SaveLock:
    """One game's hold on a save file, for its whole session: a second `tabletop play`
    saving to the same file would silently overwrite the first one's game, so it is
    refused. The hold is an OS lock (flock) on a lock file beside the save
    (`.NAME.lock`), so the kernel releases it when the process ends, however it ends; a
    lock file left by a crash holds nothing."""

    def __init__(self, target: Path, lock_path: Path, fd: int) -> None:
        self.target = target
        self.lock_path = lock_path
        self._fd: int | None = fd

    @classmethod
    def take(cls, target: str | Path) -> SaveLock:
        """Hold `target` (and remove what a killed writer left behind), or raise
        SaveInUse when another game holds it, SaveFileError when the folder cannot
        hold a save."""
        target = Path(target)
        lock_path = target.with_name(f".{target.name}.lock")
        while True:
            try:
                fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, SAVE_MODE)
            except OSError as exc:
                raise SaveFileError(f"cannot save the game to {target}: "
                                    f"{exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise SaveInUse(f"another game is being saved to {target} right now "
                                    "(a `tabletop play` that is still running)") from None
                raise SaveFileError(f"cannot lock {target} against a second game: "
                                    f"{exc.strerror or exc}") from None
            if _same_file(fd, lock_path):
                break
            os.close(fd)  # its last holder removed it while we waited: take the new one
        lock = cls(target, lock_path, fd)
        remove_leftovers(target)
        return lock

    @classmethod
    def tidy_if_free(cls, target: str | Path) -> None:
        """Remove what a killed writer of `target` left behind, unless a game holds it
        now (its temporary file is then live)."""
        with contextlib.suppress(SaveFileError):
            cls.take(target).release()

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let go (again: nothing). The lock file is removed while still locked, so a
        game that opened it meanwhile sees it is gone and takes a new one."""
        if self._fd is None:
            return
        try:
            if _same_file(self._fd, self.lock_path):
                self.lock_path.unlink(missing_ok=True)
        except OSError:
            pass
        os.close(self._fd)
        self._fd = None


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        return False


def read_save(path: str | Path) -> SavedGame:
    """Read and check a save file's shape (not yet whether it fits its ruleset). Nothing
    of the file's content is quoted in a message: it holds the seed and secret picks."""
    try:
        with open(path, "rb") as file:
            raw = file.read(SAVE_FILE_LIMIT + 1)
    except OSError as exc:
        raise SaveFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) > SAVE_FILE_LIMIT:
        raise SaveFileError(f"{path} is not a tabletop saved game (larger than "
                            f"{SAVE_FILE_LIMIT // (1024 * 1024)} MiB)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveFileError(f"{path} is not a tabletop saved game (not text)") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{path} is not a tabletop saved game (not JSON: {exc.msg} at "
                            f"line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise SaveFileError(f"{path} is not a tabletop saved game (nested too deeply)"
                            ) from None
    except ValueError:  # a number too long to convert (Python's int-string limit)
        raise SaveFileError(f"{path} is damaged: it holds a number too long to read"
                            ) from None
    return SavedGame.from_json(data, str(path))


def _no_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


def check_ruleset(saved: SavedGame, loaded: LoadedRuleset, where: str = "the save") -> None:
    """Refuse a save made for another game or for a since-changed ruleset; when its hash
    is that of another bundled game's ruleset, say which game it really is."""
    name = loaded.model.game.name
    if saved.game != name:
        raise SaveFileError(f"{where} is a game of '{saved.game}', not of '{name}'")
    if saved.ruleset_hash != loaded.content_hash:
        other = bundled_game_with_hash(saved.ruleset_hash)
        if other is not None and other != name:
            raise SaveFileError(f"{where} is damaged: its field 'game' says '{saved.game}' "
                                f"but its ruleset hash is that of '{other}'")
        raise SaveFileError(f"the ruleset changed since this game was saved ({loaded.path}); "
                            f"{where} cannot be replayed")


def bundled_game_with_hash(digest: str) -> str | None:
    """The bundled game whose ruleset has this content hash, if any."""
    from interpreter.api import load
    from interpreter.errors import TabletopError
    from interpreter.load.catalog import bundled_names

    for name in bundled_names():
        try:
            if load(name).content_hash == digest:
                return name
        except TabletopError:
            continue
    return None


def replay(game: Game, saved: SavedGame, where: str = "the save") -> State:
    """The saved game's current state: a new game replayed through every decision. An
    illegal decision is named by its number and seat, never by what was chosen (it may
    be a secret pick)."""
    return replay_with_before(game, saved, where)[0]


def replay_with_before(game: Game, saved: SavedGame, where: str = "the save"
                       ) -> tuple[State, State | None]:
    """`replay`, and the state just before the last decision (None: no decision yet),
    so a screen can mark what the last move changed."""
    state = game.new_state(saved.players, saved.seed)
    before = None
    for number, (seat, notation) in enumerate(saved.decisions, start=1):
        if number == len(saved.decisions):
            before = state.copy()
        try:
            game.apply_in_place(state, seat, notation)
        except IllegalMove:
            raise SaveFileError(f"decision {number} of {where} (seat {seat}) is not legal "
                                f"when the game is replayed: the file was changed, or "
                                f"written by a tabletop that plays these rules differently"
                                ) from None
    return state, before


__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "SaveInUse", "SaveLock", "SavedGame",
           "check_ruleset", "read_save", "remove_leftovers", "replay",
           "replay_with_before", "write_save"]
