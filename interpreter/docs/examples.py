"""The rulebook's examples: the scenario cases marked ``example:`` in the game's tests
file, each drawn before and after its shown moves (arrows for what moved, highlights
where pieces left the board), with the moves and the game's words, and the case's
checks stated in English. An example is a case, so ``tabletop test`` proves it; a case
that fails stops the rulebook rather than print a wrong example.

Also the set-up picture: a real seeded set-up (``rulebook.example_seed``)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from interpreter.assemble.describer import describer_for
from interpreter.compile.english import Describer, join_words
from interpreter.docs import sideview
from interpreter.docs.describe import MarkdownDescriber
from interpreter.docs.diagrams import Arrow, Highlight, position_svg
from interpreter.docs.figure import Diagram, sentence
from interpreter.docs.text import Md, as_markdown, md_code, md_escape
from interpreter.errors import Diagnostic, Location, RulesetError, TabletopError
from interpreter.load.catalog import tests_file_for
from interpreter.load.loader import LoadedRuleset
from interpreter.play.game import Game, normalize_notation
from interpreter.run.state import State
from interpreter.run.view import SPECTATOR, view
from interpreter.scenarios.runner import (
    CaseCannotRun,
    case_move,
    case_seat,
    case_start,
    check_case,
    load_scenario_file,
)


@dataclass
class ExampleMove:
    """One shown move: who made it, in words, what the game said and the picture after
    (the game's own texts, which the templates escape)."""

    seat: str
    label: str
    notation: str
    secret: bool
    said: list[str]
    after: Diagram | None
    """None when nothing everyone can see changed."""


@dataclass
class CaseExampleDoc:
    """An illustrated example: a scenario case marked ``example:``. Its `title`, `text`
    and `case` are the tests file's texts, and `values` the game's (the templates escape
    them); `where`, `checks` and `proof` are Markdown."""

    title: str
    text: str
    case: str
    where: Md
    """How the example starts, in sentences."""
    before: Diagram
    moves: list[ExampleMove]
    ending: str
    """Who won and the scores, when the game is over."""
    checks: list[Md]
    """What the case checks afterwards, in sentences."""
    proof: Md
    """Which case of which tests file this is (and so what proves it)."""
    houses: Diagram | None
    """The side views of its houses, when it has any."""
    values: list[dict[str, str]]
    """`label` and `value` of each value asked for, on the last position."""

    def diagrams(self) -> list[Diagram]:
        """Every picture of the example, in the order the page shows them."""
        return [self.before, *(m.after for m in self.moves if m.after),
                *([self.houses] if self.houses else [])]


def setup_picture(game: Game, players: int, base: str) -> Diagram:
    """The position after a real seeded set-up (`rulebook.example_seed`)."""
    seed = game.ruleset.rulebook.example_seed
    state = game.new_state(players, seed)
    return Diagram(f"{base}setup.svg", f"{game.title}: the position after set-up "
                   f"(seed {seed}, {players} players)",
                   position_svg(game, view(game, state, SPECTATOR),
                                f"{game.title} after set-up"))


def example_value(game: Game, value: Any) -> str:
    """A value in an example, as a reader reads it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return str(game.value_names.get(value, value))
    if isinstance(value, list | tuple):
        return join_words([example_value(game, v) for v in value]) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {example_value(game, v)}" for k, v in value.items())
    return str(value)


def case_examples(game: Game, loaded: LoadedRuleset, base: str,
                  tests_text: str | None = None) -> list[CaseExampleDoc]:
    """The examples of the game's tests file (``<game>.tests.yaml`` next to the ruleset,
    or `tests_text` as its text: an editor's draft): its cases marked ``example:``, in
    the file's order."""
    tests = tests_file_for(Path(loaded.path))
    if tests_text is None and not tests.is_file():
        return []
    suite = load_scenario_file(tests, text=tests_text)
    marked = [p for p in suite.cases if p.case.example is not None]
    text = tests.read_text(encoding="utf-8") if tests_text is None and marked else tests_text
    lines = (text or "").splitlines() if marked else []
    out = []
    for n, prepared in enumerate(marked, 1):
        try:
            out.append(_example(game, prepared, tests, f"{base}example-{n}"))
        except (CaseCannotRun, TabletopError) as exc:
            loc = prepared.location
            line = lines[loc.line - 1] if loc and 0 < loc.line <= len(lines) else None
            raise RulesetError([Diagnostic(
                f"the case '{prepared.case.name}' is an example of the rulebook, but it "
                f"fails: {str(exc).strip()}", loc or Location(str(tests), 1, 1),
                source_line=line)]) from None
    return out


def _example(book_game: Game, p: Any, tests: Path, stem: str) -> CaseExampleDoc:
    case = p.case
    ex = case.example
    game: Game = p.game
    d = describer_for(game, MarkdownDescriber, emphasis=True)
    shown = len(p.moves) if ex.show is None else ex.show
    first = len(p.moves) - shown
    state = case_start(p)
    for i in range(1, first + 1):
        case_move(p, state, i)
    states = [state.copy()]
    steps: list[tuple[int, Any, bool, list[str]]] = []
    for i in range(first + 1, len(p.moves) + 1):
        seat = case_seat(p, state, i)
        wanted = normalize_notation(p.moves[i - 1].notation)
        option = next((o for o in game.legal_options(state, seat)
                       if normalize_notation(o.notation) == wanted), None)
        decision = game.decision(state)
        secret = bool(decision and decision.simultaneous)
        heard = len(view(game, state, SPECTATOR)["log"])
        case_move(p, state, i)
        said = [e["say"] if e["say"] is not None else
                "(a message about a piece that onlookers cannot see now)"
                for e in view(game, state, SPECTATOR)["log"][heard:] if "say" in e]
        steps.append((seat, option, secret, said))
        states.append(state.copy())
    problems = check_case(p, state)
    if problems:
        raise CaseCannotRun("\n".join(problems))

    changes = [_moved(game, a, b) for a, b in pairwise(states)]
    zones = _zones(game, [pair for moved in changes for pair in moved])
    title = ex.caption
    views = [view(game, s, SPECTATOR) for s in states]
    before = Diagram(f"{stem}.svg", f"{title}: before" if steps else f"{title}: the position",
                     position_svg(game, views[0], f"{book_game.title}: {title}", zones))
    moves = []
    for k, (seat, option, secret, said) in enumerate(steps, 1):
        label = option.label if option is not None else p.moves[first + k - 1].notation
        notation = option.notation if option is not None else p.moves[first + k - 1].notation
        after = None
        if views[k]["zones"] != views[k - 1]["zones"]:
            arrows, highlights = _marks(game, changes[k - 1])
            after = Diagram(f"{stem}-{k}.svg", f"{title}: after “{label}”",
                            position_svg(game, views[k], f"{book_game.title}: {title}, "
                                         f"after {notation}", zones, arrows, highlights))
        moves.append(ExampleMove(game.seat_name(seat), label, notation, secret, said, after))
    houses = None
    stacks = sideview.houses(game, views[-1])
    if stacks:
        houses = Diagram(f"{stem}-side.svg", f"{title}: the houses seen from the south, "
                         "to scale", sideview.side_view_svg(game, stacks,
                                                            f"{title}: side view"))
    env = game.env(state)
    values = [{"label": _cell(label), "value": _cell(example_value(game, compiled(env)))}
              for label, compiled in p.example_values]
    return CaseExampleDoc(
        title, sentence(ex.text) if ex.text else "", case.name,
        Md(_where(book_game, p, first)), before, moves, _ending(game, state, views[-1]),
        as_markdown(_checks(game, d, p, state)),
        Md(f"This example is the scenario “{md_escape(case.name, start=False)}” of "
           f"{md_code(tests.name)}: `tabletop test` plays it and checks each of these "
           "statements."),
        houses, values)


# -- what changed ---------------------------------------------------------------------------

def _moved(game: Game, before: State, after: State) -> list[tuple[str, str]]:
    """(from, to) place names of every piece that changed place, by piece."""
    where = {p: s for s, stack in enumerate(before.lists()) for p in stack}
    out = []
    for s, stack in enumerate(after.lists()):
        for p in stack:
            old = where.get(p)
            if old is not None and old != s:
                out.append((game.site_name[old], game.site_name[s]))
    return out


def _zones(game: Game, moved: list[tuple[str, str]]) -> list[str]:
    """What an example draws: the boards on the table, and every zone pieces left or
    entered in its shown moves (in the game's order of zones)."""
    touched = {game.site_zone[game.site_by_name[name]].id for pair in moved for name in pair}
    chosen = [z for z, info in game.zones.items() if info.on_table
              and (info.kind in ("grid", "hex") or z in touched)]
    return chosen or [z for z, info in game.zones.items() if info.on_table]


def _marks(game: Game, moved: list[tuple[str, str]]) -> tuple[list[Arrow], list[Highlight]]:
    """An arrow for each way pieces went (with how many); a highlight, with the pile's
    name, on a square or slot that pieces left for a pile, unless pieces came back from
    that pile (a piece exchanged for another)."""
    counts: dict[tuple[str, str], int] = {}
    for pair in moved:
        counts[pair] = counts.get(pair, 0) + 1
    arrows = [Arrow(a, b, n) for (a, b), n in counts.items()]
    highlights = []
    for a, b in counts:
        to = game.site_zone[game.site_by_name[b]]
        leaves_board = game.site_zone[game.site_by_name[a]].kind != "pile"
        if leaves_board and to.kind == "pile" and (b, a) not in counts:
            highlights.append(Highlight(a, f"→ {to.label}"))
    return arrows, list(dict.fromkeys(highlights))


# -- in words -------------------------------------------------------------------------------

def _where(book_game: Game, p: Any, first: int) -> str:
    game: Game = p.game
    options = [f"{md_escape(o.label)}: "
               f"{md_escape(example_value(game, game.options[o.id]), start=False)}"
               for o in game.ruleset.options
               if game.options.get(o.id) != book_game.options.get(o.id)]
    start = (f"from the real set-up with seed {p.seed}" if p.placements is None
             else "from a position set out by hand")
    text = (f"With {p.players} players"
            + (f" (and the option{'s' if len(options) > 1 else ''} {join_words(options)})"
               if options else "") + f", {start}.")
    if first:
        moves = join_words([md_code(m.notation) for m in p.moves[:first]])
        text += (f" The move{'s' if first > 1 else ''} {moves} "
                 f"lead{'' if first > 1 else 's'} to the position below.")
    return text


def _winners(game: Game, winners: list[int]) -> str:
    names = [game.seat_name(w) for w in winners]
    if not names:
        return "Nobody wins."
    if len(names) == 1:
        return f"{names[0]} wins."
    return f"{join_words(names)} share the win."


def _ending(game: Game, state: State, seen: dict[str, Any]) -> str:
    if not state.over:
        return ""
    text = "The game is over. " + _winners(game, state.winners or [])
    scores = seen.get("scores")
    if scores:
        text += " Scores: " + ", ".join(
            f"{game.seat_name(int(s))} {example_value(game, v)}"
            for s, v in scores.items()) + "."
    return text


def _checks(game: Game, d: Describer, p: Any, state: State) -> list[str]:
    """The case's checks as sentences (all of them true: the case passed)."""
    case = p.case
    out = [sentence(d.cond(e.expr)) for e in p.expectations]
    if case.winners is not None:
        out.append(md_escape(_winners(game, sorted(set(case.winners)))))
    elif case.over is not None:
        out.append("The game is over." if case.over else "The game is not over.")
    if case.deciding is not None:
        names = [game.seat_name(s) for s in sorted(case.deciding)]
        out.append(f"{join_words(names)} {'decides' if len(names) == 1 else 'decide'} next."
                   if names else "Nobody has a decision to make.")
    seat = case.seat
    deciding = game.deciding_seats(state)
    if seat is None and deciding:
        seat = deciding[0]
    if seat is not None:
        who = game.seat_name(seat)
        labels = {normalize_notation(o.notation): md_escape(_lower(o.label), start=False)
                  for o in game.legal_options(state, seat)}

        def said(texts: list[Any]) -> list[str]:
            return [labels.get(normalize_notation(t.text), f"play {md_code(t.text)}")
                    for t in texts]

        if case.legal is not None:
            out.append(f"{who} may only " + join_words(said(case.legal), "or") + "."
                       if case.legal else f"{who} has no legal move.")
        out.extend(f"{who} may {x}." for x in said(case.legal_includes))
        out.extend(f"{who} may not play {md_code(t.text)}." for t in case.legal_excludes)
    for t in case.illegal:
        text = t.text
        who_seat, _, rest = text.partition(":")
        if rest and who_seat.strip().isdigit():
            out.append(f"{game.seat_name(int(who_seat))} may not play "
                       f"{md_code(rest.strip())}.")
        else:
            out.append(f"{game.seat_name(seat or 1)} may not play {md_code(text)}.")
    out.extend(_quoted("The game says", t) for t in case.log_includes)
    out.extend(_quoted("The game never says", t) for t in case.log_excludes)
    for s, texts in sorted(case.log_of.items()):
        out.extend(_quoted(f"{game.seat_name(s)} is told", t) for t in texts)
    for s, texts in sorted(case.log_hides.items()):
        out.extend(_quoted(f"{game.seat_name(s)} is never told", t) for t in texts)
    return out


def _quoted(said: str, text: str) -> str:
    return (f"{said} “{md_escape(text, start=False)}”"
            + ("" if text.rstrip()[-1:] in ".!?" else "."))


def _lower(label: str) -> str:
    """An option's label inside a sentence: `Move the cap` → `move the cap`."""
    return label[:1].lower() + label[1:] if label[1:2].islower() else label


def _cell(text: str) -> str:
    """Text for a Markdown table's cell, on one line (the template escapes it)."""
    return " ".join(text.split())


__all__ = ["CaseExampleDoc", "ExampleMove", "case_examples", "example_value",
           "setup_picture"]
