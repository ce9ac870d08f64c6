"""Parsing the repeatable `--option K=V` and `--seat N=kind` arguments.

Values stay text here: the compiler checks option values against their declarations
(`coerce_option`), so the command line and save files share one set of rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from interpreter.agents import AGENTS, check_agent
from interpreter.errors import UsageError, did_you_mean
from interpreter.load.catalog import shorten
from interpreter.simulate.record import MAX_NOTATION as MAX_MOVE  # as long as a save's

HUMAN = "human"


def seat_kinds() -> list[str]:
    """Who may sit at a seat: a person at this terminal, or any computer player."""
    return [HUMAN, *AGENTS]


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    """`["power_play=false", ...]` → `{"power_play": "false"}`; unknown keys are the
    compiler's to report (it knows the game's options)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageError(f"--option takes KEY=VALUE (e.g. --option power_play=false), "
                             f"not '{shorten(pair)}'")
        if key in out:
            raise UsageError(f"--option {shorten(key)} is given twice")
        out[key] = value.strip()
    return out


def parse_seats(specs: Iterable[str], players: int,
                defaults: dict[int, str] | None = None) -> dict[int, str]:
    """`["2=human"]` → who sits at every seat. Without `defaults`: seat 1 is a person,
    the others play at random."""
    seats = dict(defaults) if defaults else {
        s: (HUMAN if s == 1 else "random") for s in range(1, players + 1)}
    kinds = seat_kinds()
    given: set[int] = set()
    for spec in specs:
        head, sep, kind = spec.partition("=")
        head, kind = head.strip(), kind.strip().lower()
        if not sep or not (head.isascii() and head.isdigit()) or not kind:
            raise UsageError(f"--seat takes SEAT=KIND (e.g. --seat 2=human), not "
                             f"'{shorten(spec)}'")
        seat = int(head) if len(head) <= 6 else 0
        if not 1 <= seat <= players:
            raise UsageError(f"--seat {shorten(spec)}: there is no seat {shorten(head, 10)} "
                             f"in a {players}-player game (seats 1 to {players})")
        if kind.partition(":")[0].strip() not in kinds:
            hint = did_you_mean(kind, kinds)
            raise UsageError(f"--seat {shorten(spec)}: unknown kind '{shorten(kind)}' (use one of "
                             f"{', '.join(kinds)})" + (f"; {hint}" if hint else ""))
        if kind != HUMAN:
            try:
                kind = check_agent(kind).text
            except UsageError as exc:
                raise UsageError(f"--seat {shorten(spec)}: {exc}") from None
        if seat in given:
            raise UsageError(f"--seat {seat} is given twice")
        given.add(seat)
        seats[seat] = kind
    return seats


MAX_MOVES_BYTES = 20_000_000
"""Largest moves file read (a game of 200,000 decisions of 100 characters each)."""


def read_moves(source: str, stdin_text: str | None = None) -> list[tuple[int, str]]:
    """A moves file (or `-` for stdin) → (line number, move) pairs; blank lines and
    `#` comments are skipped so the line numbers in messages match the file."""
    if source == "-":
        text = stdin_text if stdin_text is not None else ""
    elif not source.strip():
        raise UsageError("--moves takes a file name, or `-` for stdin")
    else:
        try:
            with Path(source).open("rb") as stream:
                data = stream.read(MAX_MOVES_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"cannot read the moves file {shorten(source)}: "
                             f"{exc.strerror or exc}") from None
        if len(data) > MAX_MOVES_BYTES:
            raise UsageError(f"the moves file {shorten(source)} is longer than "
                             f"{MAX_MOVES_BYTES:,} bytes")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise UsageError(f"the moves file {shorten(source)} is not text (UTF-8)") from None
    out = []
    name = "stdin" if source == "-" else source
    for number, line in enumerate(text.splitlines(), start=1):
        move = line.split("#", 1)[0].strip()
        if len(move) > MAX_MOVE:
            raise UsageError(f"{name}, line {number}: a move of {len(move):,} characters is "
                             f"no option's notation (at most {MAX_MOVE:,})")
        if move:
            out.append((number, move))
    return out



def describe_seats(seats: dict[int, str], order: Sequence[int] | None = None) -> str:
    """`{1: "human", 2: "random"}` → `"1=human 2=random"` (as typed with --seat)."""
    return " ".join(f"{s}={seats[s]}" for s in (order or sorted(seats)))
