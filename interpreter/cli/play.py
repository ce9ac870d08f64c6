"""The interactive game loop: people type decisions, computer players move on their own.

The loop takes its console and input function as arguments, so tests drive it with
scripted input and read what it printed. A person's screen is drawn from their seat's
view only. With a save file, the game is saved after every decision, so quitting,
Ctrl-C or a crash never loses more than the decision being typed; the game holds its
save file while it runs, so no second game overwrites it. The seed (which decides every
secret) is shown only once the game cannot go on: over, or stopped without a save.
A line typed at a prompt is read up to `LINE_LIMIT` characters, so a runaway line
(a file of junk on stdin) costs neither time nor memory.
"""

from __future__ import annotations

import copy
import os
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from rich.console import Console, Group
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from interpreter.agents.base import Agent
from interpreter.cli.options import HUMAN
from interpreter.cli.screen import MORE_WORDS, TurnScreen, turn_screen
from interpreter.errors import IllegalMove, RuleError, SaveFileError, did_you_mean
from interpreter.invoked import invocation
from interpreter.load.catalog import shorten
from interpreter.play.game import Game, Option, normalize_notation
from interpreter.run.state import State
from interpreter.run.view import has_secrets, hides_anything, view, witnesses
from interpreter.simulate.playout import decide
from interpreter.simulate.record import SavedGame, SaveInUse, SaveLock, write_save
from interpreter.view.choosing import exact_match, narrow
from interpreter.view.render import (
    log_lines,
    options_renderable,
    render_view,
    result_renderable,
    rulings_renderable,
    variables_text,
    zones_split,
)

HOW_TO_CHOOSE = """\
How to choose: type an option's number, or its notation. Case and spaces do
not matter: `A2 - N` is a2-n, and `c 1` is c1 (when only one option reads so).
Many options are shown in groups. To list some of them, type
  what a group shows in [ ]   e.g. pp: that group
  a place or a word           e.g. c3 or north: the options that involve it
  the start of a notation     e.g. pp-bM: the options whose notation starts so
  several of these            e.g. pp a5: the options that involve all of them
then type the number or notation of the one you want. A list too long for the
screen is shown a page at a time: `more` shows the next page."""

COMMANDS = """\
Commands:
  options   every legal option with what it does
  board     draw the board again (with all the options)
  more      the next page of a list too long for the screen
  state     everything your seat may see now, off-table things too
  log       the game so far, as your seat may see it
  position  the position as a test case writes it (in a game with no secrets)
  undo      take back your last decision and the computer players' replies
  ?         how to choose;  help: all this, how undo works, the rulings
  quit      stop playing (saved if you started with --save or --load)"""

UNDO_RULES = """\
Undo puts the game back exactly as it was before your decision: the same
hidden pieces, dice and draws, and the same computer replies if you choose the
same again (the game follows from its secret seed and the decisions). So it is
refused when something came out that you could use once your decision is taken
back: chance after your decision (a die, a shuffle, a draw), a piece or a
message revealed to you, a secret decision of another seat, or a decision of
another person."""

HELP = HOW_TO_CHOOSE + "\n" + COMMANDS

QUIT_WORDS = frozenset({"quit", "exit", "q"})
YES_WORDS = frozenset({"y", "yes"})

LINE_LIMIT = 10_000
"""Most characters one typed line may hold: far more than any notation a person types
(and than a save's longest notation), so a longer line is a mistake, refused unread."""
_SKIP_CHUNK = 64 * 1024


def line_reader(console: Console, stream: Callable[[], TextIO | None] = lambda: sys.stdin,
                limit: int = LINE_LIMIT) -> Callable[[str], str]:
    """`ask` for a session: shows the prompt, reads one line of at most `limit`
    characters (a longer one is skipped in chunks, said to be too long, and asked
    again), without its newline; EOFError at the end of input."""

    def ask(prompt: str) -> str:
        while True:
            console.print(Text(prompt), end="")
            source = stream()
            if source is None:
                raise EOFError
            line = source.readline(limit + 1)
            if not line:
                raise EOFError
            if line.endswith("\n"):
                return line[:-1].removesuffix("\r")
            if len(line) <= limit:
                return line  # the last line of the input, without a newline
            ended = _skip_line(source)
            console.print()
            console.print(Text(f"That line is too long (more than {limit:,} characters); "
                               "nothing of it was read.", style="red"), soft_wrap=True)
            if not ended:
                raise EOFError

    return ask


def _skip_line(source: TextIO) -> bool:
    """Read past the rest of a line a chunk at a time (constant memory); whether a
    newline ended it (False: the input ended first)."""
    while True:
        chunk = source.readline(_SKIP_CHUNK)
        if not chunk:
            return False
        if chunk.endswith("\n"):
            return True


class Quit(Exception):
    """The person asked to stop."""


class Undone(Exception):
    """The person took their last decision back: the state was rewound."""


@dataclass
class Before:
    """The game just before a person's decision, to go back to with `undo`: the state,
    the computer players (their generators too, so the same choice gets the same
    replies), the record's length and what the people had seen of the log."""

    seat: int
    state: State
    agents: dict[int, Agent]
    decisions: int
    seen_log: dict[int, int]


@dataclass
class PlaySession:
    """One game being played at this terminal."""

    game: Game
    state: State
    seats: dict[int, str]
    agents: dict[int, Agent]
    record: SavedGame
    console: Console
    ask: Callable[[str], str]
    """Reads one line of input after showing a prompt; raises EOFError at the end."""
    save_path: Path | None = None
    interactive: bool = True
    """Whether a person is at the keyboard (stdin is a terminal): only then ask questions."""
    colour: bool = True
    seen_log: dict[int, int] = field(default_factory=dict)
    """Per person: how much of their view's log they have already been shown."""
    at_keyboard: int | None = None
    """Hot-seat play: the person whose view may be on screen now."""
    replay: str | None = None
    """The command that plays this game again. It names the seed, which decides every
    hidden card and die, so it is shown only once the game cannot go on: over by its
    rules, or stopped with no save (see `show_seed`)."""
    private_screen: bool = False
    """Whether hot-seat screens are being drawn on the terminal's alternate screen."""
    fit: bool = False
    """Whether screens are fitted to the console's size (a terminal): the board stays
    in view at 80×24; without it (a file, a pipe) everything is printed."""
    history: list[Before] = field(default_factory=list)
    """People's decisions in this session, newest last, for `undo`."""
    rules_file: str | None = None
    """The ruleset file the game was played from (None: a bundled game), which the
    command that continues a save must name."""
    locks: list[SaveLock] = field(default_factory=list)
    """This game's hold on its save file(s), let go when the session ends."""
    before_last: State | None = None
    """The state just before the last decision, so the screens can mark what it moved
    (None at the start, after an undo and in a resumed game: nothing is marked)."""

    # -- running --------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (exit code 0), or until the person stops (0 for quit, 1 for
        Ctrl-C or end of input)."""
        try:
            return self._run()
        finally:
            self.release()

    def release(self) -> None:
        """Let go of the save file(s), so another game may continue them."""
        for lock in self.locks:
            lock.release()
        self.locks.clear()

    def _run(self) -> int:
        self.save()
        try:
            try:
                while not self.state.over:
                    self.step()
            finally:
                self.leave_private_screen()
        except Quit:
            self.save()
            self.console.print(self.saved_note("Game stopped."), soft_wrap=True)
            if self.save_path is None and self.interactive:
                try:
                    self.offer_save()
                except (KeyboardInterrupt, EOFError):
                    self.console.print()
            self.show_seed()
            return 0
        except KeyboardInterrupt:
            self.console.print()
            return self.interrupted("Interrupted.", ask=self.interactive)
        except EOFError:
            return self.interrupted("End of input: the game was not finished.", ask=False)
        self.show_end()
        return 0

    def step(self) -> None:
        """Let the next seat decide: a person is asked, a computer player just moves."""
        deciding = self.game.deciding_seats(self.state)
        if not deciding:
            raise RuleError("the game is stuck: no seat has a decision and it is not over")
        humans = [s for s in deciding if self.seats.get(s) == HUMAN]
        seat = humans[0] if humans else deciding[0]
        if self.seats.get(seat) == HUMAN:
            before = Before(seat, self.state.copy(), self._agents_copy(),
                            len(self.record.decisions), dict(self.seen_log))
            try:
                option = self.ask_person(seat)
            except Undone:
                return
            self.before_last = before.state
            self.state = self.game.apply(self.state, seat, option)
            notation = option.notation
            self.history.append(before)
        else:
            self.before_last = self.state.copy()
            notation = self.computer_decides(seat)
        self.record.decisions.append((seat, notation))
        self.save()

    def computer_decides(self, seat: int) -> str:
        """A computer player's move. One that searches shows how far it has got on a
        terminal (it may think for seconds); Ctrl-C while it thinks stops the game like
        any other Ctrl-C (saved, nothing half-done: it searches on copies)."""
        agent = self.agents[seat]
        if not hasattr(agent, "progress") or not self.console.is_terminal:
            return decide(self.game, self.state, seat, agent)
        name = f"{self.game.seat_name(seat)} ({self.seats.get(seat, agent.name)}) is thinking"
        with Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                      TextColumn("{task.fields[done]}", markup=False),
                      TimeElapsedColumn(), console=self.console, transient=True) as bar:
            task = bar.add_task(name, total=None, done="")

            def advance(done: int, planned: int) -> None:
                shown = f"{done:,}/{planned:,} playouts" if planned else f"{done:,} playouts"
                bar.update(task, completed=done, total=planned or None, done=shown)

            agent.progress = advance
            try:
                return decide(self.game, self.state, seat, agent)
            finally:
                agent.progress = None

    # -- a person's turn ------------------------------------------------------------------
    def hand_over(self, seat: int) -> None:
        """Hot-seat play with secrets: clear the screen and wait until `seat`'s player
        confirms they are at the keyboard, so nobody sees another seat's secrets."""
        humans = [s for s, kind in self.seats.items() if kind == HUMAN]
        if len(humans) < 2 or not has_secrets(self.game) or self.at_keyboard == seat:
            self.at_keyboard = seat
            return
        if self.at_keyboard is None:
            self.enter_private_screen()
        else:
            self.wipe_screen()
        name = self.game.seat_name(seat)
        self.console.rule()
        self.console.print(Text(f"Pass the keyboard to {name}. Everyone else: look away.",
                                style="bold"))
        self.ask(f"{name}, press Enter when you are at the keyboard: ")
        self.at_keyboard = seat

    def _terminal(self) -> bool:
        return self.console.is_terminal and not self.console.is_dumb_terminal

    def _control(self, codes: str) -> None:
        self.console.file.write(codes)
        self.console.file.flush()

    def enter_private_screen(self) -> None:
        """Hot-seat screens go on the alternate screen: terminals keep no scrollback of
        it, and leaving it brings back the screen from before the game, which shows no
        seat's secrets."""
        if self._terminal() and not self.private_screen:
            self._control("\x1b[?1049h")
            self.private_screen = True
        self.wipe_screen()

    def leave_private_screen(self) -> None:
        if self.private_screen:
            self.wipe_screen()
            self._control("\x1b[?1049l")
            self.private_screen = False

    def wipe_screen(self) -> None:
        """Clear the screen and the scrollback, so the next seat cannot scroll back to
        the last one's secrets. ESC[2J alone is not enough: tmux and VTE move the cleared
        screen into the scrollback, which ESC[3J (after it) then erases."""
        if self._terminal():
            self._control("\x1b[2J\x1b[3J\x1b[H")
        else:
            self.console.clear()

    def show_turn(self, seen: dict, log: list, options: list[Option],
                  what: str = "options", start: int = 0) -> TurnScreen:
        """A rule, then the seat's screen at its decision, fitted to the terminal (below
        the rule, above the prompt) when it has one; a list too long for it is shown
        from `start`."""
        self.console.rule(style="" if log else "dim")
        size = self.console.size
        screen = turn_screen(self.console, self.game, seen, log, options, self.colour,
                             size.height - 1 if self.fit else None, size.width, what,
                             start=start)
        self.console.print(screen)
        return screen

    def ask_person(self, seat: int) -> Option:
        self.hand_over(seat)
        seen = view(self.game, self.state, seat, before=self.before_last)
        log = seen["log"]
        start = self.seen_log.get(seat, 0)
        self.seen_log[seat] = len(log)
        options = self.game.legal_options(self.state, seat)
        listed, what = options, "options"  # the list on screen, for `more`
        shown = self.show_turn(seen, log[start:], options).shown
        while True:
            text = self.ask(f"{self.game.seat_name(seat)}> ").strip()
            if not text:
                continue
            exact = exact_match(options, text)
            if exact is not None:  # a notation wins over a command word that reads the same
                return exact
            word = normalize_notation(text)
            if word in QUIT_WORDS:
                raise Quit
            if word == "?":
                self.console.print(Text(HELP))
                continue
            if word in ("help", "h"):
                self.console.print(Text(HELP + "\n" + UNDO_RULES))
                self.console.print(rulings_renderable(self.game))
                continue
            if word in ("options", "o"):
                self.console.print(options_renderable(options, full=True))
                continue
            if word in ("board", "b"):
                listed, what = options, "options"
                shown = self.show_turn(seen, [], options).shown
                continue
            if word in MORE_WORDS:
                if len(shown) == len(listed):
                    self.console.print(Text("All of them are on the screen already.",
                                            style="dim"))
                    continue
                shown = self.show_turn(seen, [], listed, what, start=shown.stop).shown
                continue
            if word == "state":
                self.show_state(seen)
                continue
            if word == "log":
                self.show_log(seen)
                continue
            if word == "position":
                self.show_position()
                continue
            if word == "undo":
                self.undo(seat)
                continue
            if text.isascii() and text.isdigit():
                try:
                    return match_option(options, text)
                except IllegalMove as exc:
                    self.mistake(str(exc))
                    continue
            found = narrow(options, text)
            if found and len(found) < len(options):
                listed, what = found, f"options with '{shorten(text, 30)}'"
                shown = self.show_turn(seen, [], found, what).shown
                if len(found) == 1:
                    self.console.print(Text("Type its number or notation to choose it.",
                                            style="dim"))
                continue
            if found:  # everything involves it: show them all again
                listed, what = options, "options"
                shown = self.show_turn(seen, [], options).shown
                continue
            hint = close_notation(text, options)
            self.mistake(f"'{shorten(text, 40)}' is not a legal option"
                         + (f"; {hint}" if hint else ""))

    def mistake(self, message: str) -> None:
        self.console.print(Text(f"{message.rstrip('.?')} (? explains how to choose).",
                                style="red"))

    def show_state(self, seen: dict) -> None:
        """All the seat's view holds, off-table zones and variables too."""
        boards, lines = zones_split(self.game, seen, self.colour, everything=True)
        self.console.rule("What you may see", style="dim")
        self.console.print(Group(*boards, *lines))
        variables = variables_text(self.game, seen, everything=True)
        if variables is not None:
            self.console.print(variables)
        self.console.print(Text(f"Turn {seen['turn']}; {len(seen['log'])} entries in the "
                                "log (type `log`).", style="dim"))

    def show_position(self) -> None:
        """The position in the scenario tests' format, to paste into a test case. It
        names every piece, so only a game that hides nothing from anyone shows it."""
        from interpreter.scenarios.position import position_yaml  # only here: a quick start

        if hides_anything(self.game):
            self.console.print(Text(
                "This game hides things from its players, and a written position names "
                "every piece, so it is not shown during play. `tabletop run --json` prints "
                "the last position of a game.", style="dim"))
            return
        self.console.rule("The position, to paste into a test case", style="dim")
        self.console.print(Text(position_yaml(self.game, self.state).rstrip()))

    def show_log(self, seen: dict) -> None:
        """The whole log as the seat may read it, numbered."""
        lines = log_lines(self.game, seen["log"])
        self.console.rule("The game so far", style="dim")
        if not lines:
            self.console.print(Text("Nothing has happened yet.", style="dim"))
        for number, line in enumerate(lines, start=1):
            self.console.print(Text.assemble((f"{number:>4} ", "dim"), line))

    # -- undo -------------------------------------------------------------------------------
    def _agents_copy(self) -> dict[int, Agent]:
        """The computer players as they are now (their generators included)."""
        return {s: copy.deepcopy(a) for s, a in self.agents.items()}

    def undo(self, seat: int) -> None:
        """Take back `seat`'s last decision and the computer replies after it, or say
        why not. Raises Undone once the game is rewound."""
        mine = [i for i, b in enumerate(self.history) if b.seat == seat]
        if not mine:
            self.console.print(Text("Nothing to undo: you have made no decision yet.",
                                    style="yellow"))
            return
        index = mine[-1]
        before = self.history[index]
        reason = self.undo_refused(seat, before)
        if reason is not None:
            self.console.print(Text(f"Cannot undo: {reason}.", style="yellow"),
                               soft_wrap=True)
            return
        taken = self.record.decisions[before.decisions:]
        said = self.taken_words(before.state, taken[0][1])
        self.state = before.state.copy()
        self.agents = {s: copy.deepcopy(a) for s, a in before.agents.items()}
        del self.record.decisions[before.decisions:]
        self.seen_log = dict(before.seen_log)
        self.before_last = None
        del self.history[index:]
        self.save()
        replies = len(taken) - 1
        self.console.print(Text(
            f"Took back your decision {said}"
            + (f" and {replies} computer repl{'y' if replies == 1 else 'ies'}"
               if replies else "") + ".", style="green"), soft_wrap=True)
        raise Undone

    def taken_words(self, before: State, notation: str) -> str:
        """The person's own decision being taken back, in the option's words with its
        notation (`Put your red large on a1 (rL-a1)`), as the log said it."""
        made = self.state.log_entries()[len(before.log_entries()):]
        mine = next((e for e in made if e[0] == "decision"), None)
        if mine is None or len(mine) < 6 or mine[5] == notation:
            return notation
        return f"{mine[5]} ({notation})"

    def undo_refused(self, seat: int, before: Before) -> str | None:
        """Why taking back to `before` would let `seat` use what it learned since (None:
        it would not)."""
        for other, _ in self.record.decisions[before.decisions + 1:]:
            if other != seat and self.seats.get(other) == HUMAN:
                return f"{self.game.seat_name(other)} (a person) has decided since"
        if self.state.rng != before.state.rng:
            return "chance came into play after your decision (a die, a shuffle or a draw)"
        new = self.state.log_entries()[len(before.state.log_entries()):]
        for entry in new:
            if entry[0] == "decision" and entry[3] and entry[1] != seat:
                return (f"{self.game.seat_name(entry[1])} made a secret decision after "
                        "yours")
            if entry[0] == "say" and entry[2] is not None and seat in entry[2]:
                return "you were told something after your decision"
        if hidden_from(self.game, before.state, seat) - hidden_from(self.game, self.state,
                                                                   seat):
            return "something hidden from you was revealed after your decision"
        return None

    # -- ending -----------------------------------------------------------------------------
    def show_end(self) -> None:
        """The final position as the first person sees it (everything is revealed at the
        end that the ruleset reveals), then the result."""
        humans = [s for s, kind in sorted(self.seats.items()) if kind == HUMAN]
        seat = humans[0] if humans else 1
        final = view(self.game, self.state, seat, before=self.before_last)
        start = self.seen_log.get(seat, 0)
        self.console.rule("Game over")
        self.console.print(render_view(
            self.game, final, final["log"][start:], self.colour,
            log_title="Since your last move:" if humans else "The last moves:"))
        self.console.print(result_renderable(self.game, final))
        if self.save_path is not None:
            self.console.print(Text(f"The finished game is saved in {self.save_path}.",
                                    style="dim"))
        self.show_seed()

    def show_seed(self) -> None:
        """The seed, as the command that plays the game again from the start (same
        set-up and chance; the same computer players' moves too, unless the game was
        resumed from a save, which re-seeds them), once the game cannot go on: over by
        its rules, or stopped with no save. While a save can continue it, the seed
        would give away every secret still to come, so only the save (the referee's
        record) keeps it."""
        if self.replay is not None and (self.state.over or self.save_path is None):
            self.console.print(Text(f"This game's seed was {self.record.seed}; play it "
                                    f"again from the start with:\n  {self.replay}"),
                               soft_wrap=True)

    def interrupted(self, message: str, ask: bool) -> int:
        self.save()
        self.console.print(self.saved_note(message), soft_wrap=True)
        if ask and self.save_path is None:
            try:
                self.offer_save()
            except (KeyboardInterrupt, EOFError):
                self.console.print()
        self.show_seed()
        return 1

    def saved_note(self, message: str) -> Text:
        if self.save_path is None:
            return Text(message)
        return Text(f"{message} Saved to {self.save_path}; continue with "
                    f"`{self.resume_command(self.save_path)}`.")

    def resume_command(self, path: Path | str) -> str:
        """The command that continues the game saved in `path`."""
        return shlex.join([*invocation(), "play", *([self.rules_file] if self.rules_file else []),
                           "--load", str(path)])

    def offer_save(self) -> None:
        """Ask whether to keep the unfinished game, and where: never over a file
        without asking, never into a file another game is being saved to."""
        answer = self.ask("Save this game to continue later? [y/N] ").strip().lower()
        if answer not in YES_WORDS:
            return
        default = free_name(f"{self.game.name}-save.json")
        name = self.ask(f"File name [{default}]: ").strip() or default
        while True:
            lock = self.claim(Path(name))
            if lock is not None:
                break
            name = self.ask("Another file name (empty: do not save): ").strip()
            if not name:
                return
        self.save_path = Path(name)
        try:
            self.save()
        except SaveFileError as exc:  # say so: with no save, the seed is shown after
            self.save_path = None
            lock.release()
            self.console.print(Text(f"Not saved: {exc}", style="red"), soft_wrap=True)
            return
        self.locks.append(lock)
        self.console.print(Text(f"Saved to {name}; continue with "
                                f"`{self.resume_command(name)}`."), soft_wrap=True)

    def claim(self, path: Path) -> SaveLock | None:
        """Hold `path` for this game, once the person agrees to replace what is there;
        None (having said why) when it may not be used."""
        try:
            lock = SaveLock.take(path)
        except SaveInUse:
            self.console.print(Text(f"Not saved: another game is being saved to {path} "
                                    "right now.", style="yellow"), soft_wrap=True)
            return None
        except SaveFileError as exc:
            self.console.print(Text(f"Not saved: {exc}", style="red"), soft_wrap=True)
            return None
        try:
            if os.path.lexists(path):
                answer = self.ask(f"{path} already exists. Replace it? [y/N] ")
                if answer.strip().lower() not in YES_WORDS:
                    lock.release()
                    return None
        except BaseException:
            lock.release()
            raise
        return lock

    def save(self) -> None:
        if self.save_path is not None:
            write_save(self.save_path, self.record)


def free_name(name: str) -> str:
    """`name`, or the first of `name-2`, `name-3` … (before its suffix) that is free."""
    path = Path(name)
    for number in range(2, 1000):
        if not os.path.lexists(path):
            break
        path = Path(name).with_stem(f"{Path(name).stem}-{number}")
    return str(path)


def recall(game: Game, record: SavedGame, seats: dict[int, str],
           agents_at: Callable[[int], dict[int, Agent]]) -> list[Before]:
    """A loaded game's decisions by the seats people now play, to undo as if they were
    made at this sitting: each with the state before it, replayed from the record, and
    the computer players as a game resumed there would have them (`agents_at`)."""
    state = game.new_state(record.players, record.seed)
    out = []
    for index, (seat, notation) in enumerate(record.decisions):
        if seats.get(seat) == HUMAN:
            seen = {seat: len(view(game, state, seat)["log"])}
            out.append(Before(seat, state.copy(), agents_at(index), index, seen))
        game.apply_in_place(state, seat, notation)
    return out


def hidden_from(game: Game, state: State, seat: int) -> set[int]:
    """The pieces `seat` may not see in `state` (by the view's rules)."""
    return {p for p in range(game.n_pieces) if seat not in witnesses(game, state, (p,))}


def close_notation(text: str, options: list[Option]) -> str | None:
    """'did you mean' an option whose notation is close to `text`. A text over three
    times as long as every notation is close to none (difflib's ratio is below its 0.6
    cutoff), and comparing a long line costs far more than a short one, so it is not
    compared at all."""
    notations = [o.notation for o in options]
    if len(text) > 3 * max(map(len, notations), default=0):
        return None
    return did_you_mean(text, notations)


def match_option(options: list[Option], text: str) -> Option:
    """A typed option: its number in the list (from 1) or its notation (case and
    spaces ignored). Anything else is an IllegalMove saying what was wrong."""
    text = text.strip()
    if text.isascii() and text.isdigit():
        number = int(text) if len(text) <= 9 else 0
        if 1 <= number <= len(options):
            return options[number - 1]
        raise IllegalMove(f"there is no option {shorten(text, 12)} (choose 1 to "
                          f"{len(options)})")
    found = exact_match(options, text)
    if found is not None:
        return found
    hint = close_notation(text, options)
    raise IllegalMove(f"'{text}' is not a legal option" + (f"; {hint}" if hint else ""))
