"""The interactive game loop: people type decisions, computer players move on their own.

The loop takes its console and input function as arguments, so tests drive it with
scripted input and read what it printed. A person's screen is drawn from their seat's
view only. With a save file, the game is saved after every decision, so quitting,
Ctrl-C or a crash never loses more than the decision being typed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from interpreter.agents.base import Agent
from interpreter.cli.options import HUMAN
from interpreter.cli.render import (
    options_renderable,
    render_view,
    result_renderable,
    rulings_renderable,
)
from interpreter.errors import IllegalMove, RuleError, SaveFileError, did_you_mean
from interpreter.load.catalog import shorten
from interpreter.run.game import Game, Option, normalize_notation
from interpreter.run.playout import decide
from interpreter.run.record import SavedGame, write_save
from interpreter.run.state import State
from interpreter.run.view import view

HELP = """\
Type the number of an option, or its notation (case and spaces do not matter).
Other commands:
  options       list every legal option with what it does
  board         draw the board again
  help, ?       this help and the game's rulings
  quit          stop playing (the game is saved if you started with --save or --load)"""

QUIT_WORDS = frozenset({"quit", "exit", "q"})


class Quit(Exception):
    """The person asked to stop."""


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
    hidden card and die, so it is shown only once the game is over or stopped."""
    private_screen: bool = False
    """Whether hot-seat screens are being drawn on the terminal's alternate screen."""

    # -- running --------------------------------------------------------------------------
    def run(self) -> int:
        """Play to the end (exit code 0), or until the person stops (0 for quit, 1 for
        Ctrl-C or end of input)."""
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
            option = self.ask_person(seat)
            self.state = self.game.apply(self.state, seat, option)
            notation = option.notation
        else:
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

    def ask_person(self, seat: int) -> Option:
        self.hand_over(seat)
        seen = view(self.game, self.state, seat)
        log = seen["log"]
        start = self.seen_log.get(seat, 0)
        self.seen_log[seat] = len(log)
        self.console.rule()
        self.console.print(render_view(self.game, seen, log[start:], self.colour))
        options = self.game.legal_options(self.state, seat)
        self.console.print(options_renderable(options))
        mistakes = 0
        while True:
            text = self.ask(f"{self.game.seat_name(seat)}> ").strip()
            if not text:
                continue
            word = normalize_notation(text)
            exact = [o for o in options if normalize_notation(o.notation) == word]
            if exact:  # a notation wins over a command word that reads the same
                return exact[0]
            if word in QUIT_WORDS:
                raise Quit
            if word in ("help", "?", "h"):
                self.console.print(Text(HELP))
                self.console.print(rulings_renderable(self.game))
                continue
            if word in ("options", "o"):
                self.console.print(options_renderable(options, full=True))
                continue
            if word in ("board", "b"):
                self.console.print(render_view(self.game, seen, (), self.colour))
                self.console.print(options_renderable(options))
                continue
            try:
                return match_option(options, text)
            except IllegalMove as exc:
                mistakes += 1
                if mistakes <= 3:  # then the list has been shown enough: `options` shows it
                    message = f"{str(exc).rstrip('.?')}. The legal options are:"
                    self.console.print(Text(message, style="red"), soft_wrap=True)
                    self.console.print(options_renderable(options))
                else:
                    message = f"{str(exc).rstrip('.?')}. Type `options` to see them all."
                    self.console.print(Text(message, style="red"), soft_wrap=True)

    # -- ending -----------------------------------------------------------------------------
    def show_end(self) -> None:
        """The final position as the first person sees it (everything is revealed at the
        end that the ruleset reveals), then the result."""
        humans = [s for s, kind in sorted(self.seats.items()) if kind == HUMAN]
        seat = humans[0] if humans else 1
        final = view(self.game, self.state, seat)
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
        """Now that the game is over or stopped: its seed, as the command that plays it
        again from the start (same set-up and chance; the same computer players' moves
        too, unless the game was resumed from a save, which re-seeds them)."""
        if self.replay is not None:
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
                    f"`tabletop play --load {self.save_path}`.")

    def offer_save(self) -> None:
        """Ask whether to keep the unfinished game, and where."""
        answer = self.ask("Save this game to continue later? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            return
        default = f"{self.game.name}-save.json"
        name = self.ask(f"File name [{default}]: ").strip() or default
        self.save_path = Path(name)
        try:
            self.save()
        except SaveFileError as exc:  # say so, and still show the seed afterwards
            self.save_path = None
            self.console.print(Text(f"Not saved: {exc}", style="red"), soft_wrap=True)
            return
        self.console.print(Text(f"Saved to {name}; continue with "
                                f"`tabletop play --load {name}`."), soft_wrap=True)

    def save(self) -> None:
        if self.save_path is not None:
            write_save(self.save_path, self.record)


def has_secrets(game: Game) -> bool:
    """Whether some seat may see what another may not (then hot-seat play hides screens)."""
    # What nobody may see (a die under a cover) needs no hiding of screens; what only
    # its owner may see does.
    return (any("owner" in (z.contents, z.count) for z in game.ruleset.zones)
            or any(v.visible_to == "owner" for v in game.ruleset.variables)
            or any(c.secret for c in game.choices.values()))


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
    wanted = normalize_notation(text)
    for option in options:
        if normalize_notation(option.notation) == wanted:
            return option
    hint = did_you_mean(text, [o.notation for o in options])
    raise IllegalMove(f"'{text}' is not a legal option" + (f"; {hint}" if hint else ""))
