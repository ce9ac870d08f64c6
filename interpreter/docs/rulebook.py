"""What a rulebook says, computed from a ruleset: the context the templates render.

Everything here comes from the ruleset and the compiled Game: component counts from
the pieces the compiler made, rules in English from each primitive's ``english`` via
the Describer, diagrams from real seeded positions, option differences from compiling
the game again with the option changed. Templates only arrange it.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from interpreter.assemble.describer import describer_for
from interpreter.assemble.game import _DEF_KEY, compile_game_once
from interpreter.compile.english import Describer, attribute_noun, humanize, join_words
from interpreter.compile.expressions import ExpressionError, names_used, parse
from interpreter.docs.describe import MarkdownDescriber
from interpreter.docs.diagrams import (
    WIDTH,
    PieceStyle,
    _Canvas,
    legend_svg,
)
from interpreter.docs.examples import CaseExampleDoc, case_examples, setup_picture
from interpreter.docs.figure import Diagram, sentence
from interpreter.docs.players import (
    LEFT_OUT,
    PlayerRules,
    bookkeeping_variables,
    mentions,
    own_fields,
    reads_poorly,
    template_exprs,
    unseen_names,
)
from interpreter.docs.text import Md, as_markdown, md_escape
from interpreter.errors import TabletopError
from interpreter.load.data_values import data_text, frozen_value
from interpreter.load.loader import LoadedRuleset
from interpreter.load.schema import Definition, OptionDecl, definition_bodies
from interpreter.located import Expr, Template
from interpreter.play.game import Game
from interpreter.primitives import Choose, Primitive
from interpreter.primitives.decisions import OptionDef
from interpreter.primitives.ending import EndGame

_VISIBILITY = {"everyone": "everyone", "owner": "only its owner", "nobody": "nobody"}


class RulebookDescriber(MarkdownDescriber):
    """The Describer for rulebooks: local names in italics; a designer's option `text`
    first, then the exact rule generated from the option's effects."""

    def option(self, o: OptionDef) -> list[str]:
        if not o.text:
            return super().option(o)
        rule = [f"- {self.option_head(o)}" + (":" if o.do else "."),
                *self.block(o.do)]
        return [f"{self.indent}- {md_escape(' '.join(o.text.split()))}",
                *(self.indent * 2 + line for line in self.exactly(rule))]


def markdown_list(lines: list[str], indent: str = "  ") -> str:
    """Describer lines (nesting by indent) → a nested Markdown list."""
    out = []
    for line in lines:
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // len(indent)
        text = stripped[2:] if stripped.startswith("- ") else stripped
        text = text[:1].upper() + text[1:]
        out.append("    " * depth + "- " + text)
    return "\n".join(out)


_IRREGULAR = {"die": "dice", "man": "men", "woman": "women", "child": "children",
              "person": "people", "mouse": "mice", "goose": "geese", "foot": "feet",
              "tooth": "teeth", "ox": "oxen", "louse": "lice", "penny": "pence",
              "leaf": "leaves", "loaf": "loaves", "half": "halves", "calf": "calves",
              "elf": "elves", "shelf": "shelves", "wolf": "wolves", "thief": "thieves",
              "knife": "knives", "life": "lives", "wife": "wives", "hero": "heroes",
              "potato": "potatoes", "tomato": "tomatoes", "domino": "dominoes",
              "echo": "echoes", "torpedo": "torpedoes",
              "cactus": "cacti", "fungus": "fungi", "index": "indices", "axis": "axes",
              "crisis": "crises", "oasis": "oases", "phenomenon": "phenomena",
              "criterion": "criteria"}
"""Nouns whose plural is not made by adding -s or -es."""
_SAME = frozenset(("sheep", "fish", "deer", "moose", "series", "species", "aircraft",
                   "swine", "bison", "salmon", "trout", "offspring", "dice", "people",
                   "men", "women", "children", "mice", "geese", "feet", "teeth", "oxen",
                   "cattle", "news", "chess", "glasses", "scissors", "pliers", "tongs"))
"""Nouns the same in the plural, and plurals that end in no -s."""
_SINGULAR_S = ("ss", "us", "is", "os", "as")
"""Endings of singular nouns in -s (glass, bonus, iris, cosmos, atlas): all else that ends
in -s is taken to be a plural already (Black stones, Coins, Glasses)."""


def plural(noun: str, n: int) -> str:
    """`noun` for `n` things: the last word of the name (before any bracket) made plural
    (3 Black stones, not stoneses; 2 Dice; 4 Wolves), keeping its capitals."""
    if n == 1:
        return noun
    words = noun.split(" (")
    head = words[0]
    cut = len(head) - len(head.rstrip(".,;:!?"))
    stem, tail = (head[:-cut], head[-cut:]) if cut else (head, "")
    before, _, last = stem.rpartition(" ")
    return " (".join([before + (" " if before else "") + _plural_word(last) + tail,
                      *words[1:]])


def counted(k: int, words: str) -> str:
    """`k` of a component the designer names in the plural (`six-sided dice`): one is
    `1 six-sided die`, not `1 six-sided dice`."""
    if k != 1:
        return f"{k} {words}"
    before, _, last = words.rpartition(" ")
    lower = last.lower()
    single = next((one for one, many in _IRREGULAR.items() if many == lower), None)
    if single is None and lower.endswith("s") and not lower.endswith(_SINGULAR_S):
        single = lower[:-1]  # coins, tokens
    if single is None:
        return f"1 {words}"
    return f"1 {before}{' ' if before else ''}{_same_case(last, single)}"


def _plural_word(word: str) -> str:
    lower = word.lower()
    if not lower or not lower[-1].isalpha() or lower in _SAME:
        return word
    if lower in _IRREGULAR:
        return _same_case(word, _IRREGULAR[lower])
    if lower.endswith("man") and lower not in ("human", "german", "roman", "talisman"):
        return word[:-2] + ("EN" if word.isupper() else "en")  # chessman, horseman
    if lower.endswith("s") and not lower.endswith(_SINGULAR_S):
        return word  # already a plural
    if lower.endswith("z") and not lower.endswith("zz"):
        return word + "zes"  # quiz
    if lower.endswith(("s", "sh", "ch", "x", "z")):
        return word + "es"
    if lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return word[:-1] + "ies"
    return word + "s"  # (an acronym too: AIs)


def _same_case(word: str, plural_form: str) -> str:
    """`plural_form` written with `word`'s capitals (Die → Dice, DIE → DICE)."""
    if word.isupper() and len(word) > 1:
        return plural_form.upper()
    if word[:1].isupper():
        return plural_form[:1].upper() + plural_form[1:]
    return plural_form


@dataclass
class OptionDoc:
    id: str
    label: str
    kind: str
    default: str
    values: str
    description: str
    changes: list[str]
    mentions: list[str]


@dataclass
class Rulebook:
    """Everything a game's rulebook says (the templates' context)."""

    name: str
    title: str
    designer: str | None
    year: int | None
    seats: str
    playing_time: str | None
    status: str
    summary: str
    introduction: str | None
    source: str | None
    players_shown: int
    components: list[dict[str, Any]]
    total_pieces: int
    total_text: str
    """`90 pieces`, or `69 pieces and 9 dice` when some sets are components (dice)."""
    components_note: str | None
    backs: str | None
    """Which sets look alike face down (pieces.sets[].back), as a sentence."""
    zones: list[dict[str, Any]]
    variables: list[dict[str, Any]]
    glossary: list[str]
    setup: str
    setup_diagram: Diagram
    legend: Diagram
    first_player: str
    turn: str
    procedures: list[dict[str, str]]
    triggers: list[dict[str, str]]
    end_rules: list[dict[str, str]]
    ranking: str | None
    scoring: str | None
    rulings: list[dict[str, str]]
    options: list[OptionDoc]
    diagrams: list[Diagram] = field(default_factory=list)
    panels: Diagram | None = None
    """How the pieces' panels read (a piece upright and turned), for games with panels."""
    panels_note: str | None = None
    case_examples: list[CaseExampleDoc] = field(default_factory=list)
    players: PlayerLayer | None = None
    """The rules as a player reads them (the sections above are the exact rules)."""


@dataclass
class PlayerLayer:
    """The player-facing rules: designer's words, plain English, no bookkeeping."""

    setup: str
    turn: str
    turn_summary: list[str]
    procedures: list[dict[str, str]]
    triggers: list[dict[str, str]]
    variables: list[dict[str, Any]]
    setup_left_out: bool
    turn_left_out: bool
    end: list[str] = field(default_factory=list)
    """Every way the game ends, each saying who then wins."""
    scoring: list[str] = field(default_factory=list)
    """What the score's and the ranking's terms mean."""
    left_out_note: str = LEFT_OUT


# -- helpers ------------------------------------------------------------------------------

def _pieces_by_set(game: Game) -> list[tuple[Any, int, int]]:
    """(set, copies, pieces) for each declared set, from the compiled game."""
    out = []
    env = game.env(game.blank_state(game.min_seats, 0))
    for ps in game.ruleset.pieces.sets:
        combos = (math.prod(len(v) for v in ps.each.values()) or 1) * max(1, len(ps.table))
        try:
            copies = game.compile_expression(ps.count.text)(env)
        except (TabletopError, ExpressionError):
            copies = 1
        out.append((ps, copies, copies * combos))
    return out


def _value_list(game: Game, attr: str, values: list[Any]) -> str:
    names = game.ruleset.pieces.attributes[attr].names
    return ", ".join(md_escape(names.get(v, v)) for v in values)


def _each_phrase(game: Game, each: dict[str, list[Any]], copies: int = 1,
                 label: str = "", lead: bool = False) -> str:
    """What a set's pieces are, in words: what varies (`one of each colour (red, …)`),
    then what every piece shares, leaving out what the set's label already says."""
    varying = [(a, v) for a, v in each.items() if len(v) > 1]
    fixed = [said for a, v in each.items() if len(v) == 1
             for said in [_fixed_value(game, a, v[0])]
             if not re.search(rf"(?<!\w){re.escape(said)}(?!\w)", label, re.IGNORECASE)]
    parts = []
    if varying:
        parts.append(f"{'one' if copies == 1 else copies} of each " + " in each ".join(
            f"{attribute_noun(a)} ({_value_list(game, a, v)})" for a, v in varying))
    if fixed:
        if (varying or lead) and not fixed[0][:1].isdigit():
            first, *rest = fixed
            parts.append(", ".join([f"all {plural(first, 2)}", *rest]))
        else:
            parts.append(("all with " if varying or lead else "") + ", ".join(fixed))
    return "; ".join(parts)


def _fixed_value(game: Game, attr: str, value: Any) -> str:
    """A value every piece of a set shares: its name where it says what it is (`size 1`,
    `2★`, `fish`), with the attribute's noun before a bare number (`value 3`)."""
    said = _value_list(game, attr, [value])
    return f"{humanize(attr)} {said}" if said.replace(".", "").isdigit() else said


def _cell(game: Game, attr: str, value: Any) -> str:
    """A table cell under the attribute's column: its name without the column's noun
    (`1`, not `size 1`, under Size)."""
    said = _value_list(game, attr, [value])
    noun = humanize(attr) + " "
    return said[len(noun):] if said.lower().startswith(noun.lower()) else said


def _count_english(game: Game, d: Describer, count: Expr) -> str:
    """A piece count in words; a count that only names a term says what the term means
    (not "the number of stashes: the stashes")."""
    body = definition_bodies(game.ruleset).get(count.text.strip())
    return d.expr(body if body is not None else count)


def _component(ps: Any) -> str | None:
    """A set's word for its components (`dice`), escaped."""
    return md_escape(ps.component) if ps.component else None


def _id_words(identifier: str) -> str:
    """An id as words: trigger, end and ruling ids may be any text."""
    return md_escape(humanize(identifier))


def _place_phrase(game: Game, zone_id: str, seat: int | None) -> str:
    label = md_escape(game.zones[zone_id].label)
    return f"{label} of Player {seat}" if seat else label


_DEPENDS: dict[str, set[str]] = {}
"""Definition name → every name its body reads, directly or through other definitions
(filled by ``_definition_uses`` for the ruleset being documented)."""


def _definition_uses(define: dict[str, Expr]) -> None:
    direct: dict[str, set[str]] = {}
    for key, body in define.items():
        m = _DEF_KEY.match(key)
        if m:
            params = {p.strip() for p in (m.group(2) or "").split(",")}
            direct[m.group(1)] = names_used(body.text) - params
    _DEPENDS.clear()
    for name in direct:
        seen: set[str] = set()
        todo = [name]
        while todo:
            for used in direct.get(todo.pop(), set()):
                if used not in seen:
                    seen.add(used)
                    todo.append(used)
        _DEPENDS[name] = seen


def _reads(text: str, name: str) -> bool:
    used = names_used(text)
    return name in used or any(name in _DEPENDS.get(u, ()) for u in used)


def _expr_mentions(value: Any, name: str) -> bool:
    if isinstance(value, Expr | Template):
        if isinstance(value, Template):
            return any(_reads(part, name) for part in template_exprs(value.text))
        return _reads(value.text, name)
    if isinstance(value, dict):
        return any(_expr_mentions(v, name) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_expr_mentions(v, name) for v in value if not isinstance(v, Primitive))
    return False


def _walk(effects: list[Primitive], where: str):
    for e in effects:
        yield e, where
        if isinstance(e, Choose):
            for o in e.options:
                yield o, f"{where}, the option “{_option_title(o)}”"
                yield from _walk(o.do, f"{where}, the option “{_option_title(o)}”")
            yield from _walk(e.if_none, where)
            continue
        for child in e.children():
            yield from _walk(child, where)


def _option_title(o: OptionDef) -> str:
    return md_escape(humanize(o.id).capitalize())


def _sections(game: Game) -> list[tuple[str, list[Primitive]]]:
    rs = game.ruleset
    out = [("the set-up", rs.setup), ("the turn", rs.turn)]
    out += [(f"the procedure “{humanize(p.id)}”", p.do) for p in rs.procedures]
    out += [(f"the trigger “{_id_words(t.id)}”", t.do) for t in rs.triggers]
    return out


# -- the parts ----------------------------------------------------------------------------

def _components(game: Game, d: Describer) -> tuple[list[dict[str, Any]], int, str | None]:
    rows = []
    note = None
    for ps, copies, n in _pieces_by_set(game):
        label = md_escape(ps.label or humanize(ps.id).capitalize())
        count_text = ps.count.text.strip()
        depends = not count_text.isdigit()
        if depends:
            note = "Some counts depend on the options:"
        rows.append({
            "label": label,
            "copies": copies,
            "copies_text": f"{copies}*" if depends else str(copies),
            "count_rule": sentence(f"number of "
                                   f"{_component(ps) or plural(label.split(' (')[0], 2)}: "
                                   f"{_count_english(game, d, ps.count)}")
            if depends else None,
            "each": _each_phrase(game, {a: list(v) for a, v in ps.each.items()}),
            "pieces": n,
            "start": (_place_phrase(game, ps.start.text, ps.seat)
                      if game.zones[ps.start.text].on_table else None),
            "summary": _set_summary(game, ps, label, copies, n, depends),
            "table": _table(game, ps, label),
        })
    return rows, game.n_pieces, note


def _total_text(game: Game) -> str:
    """The components in all: loose pieces counted one by one, dice by the die."""
    loose = game.n_pieces
    whole: dict[str, int] = {}
    for ps, copies, n in _pieces_by_set(game):
        if ps.component:
            loose -= n
            whole[_component(ps)] = whole.get(_component(ps), 0) + copies
    return join_words([*([f"{loose} {plural('piece', loose)}"] if loose or not whole else []),
                       *(counted(k, word) for word, k in whole.items())])


def _backs(game: Game) -> str | None:
    """`Face down, a piece shows only its back: Blue card (Spell cards, …); Red card
    (Quest cards).` for the sets that declare one."""
    by_back: dict[str, list[str]] = {}
    for ps in game.ruleset.pieces.sets:
        if ps.back is not None:
            label = md_escape(ps.label or humanize(ps.id)).split(" (")[0]
            by_back.setdefault(md_escape(ps.back), []).append(_component(ps)
                                                              or plural(label, 2))
    if not by_back:
        return None
    parts = [f"*{back}* ({', '.join(dict.fromkeys(labels))})"
             for back, labels in by_back.items()]
    return ("Face down, a piece shows only its back; these look alike face down: "
            + "; ".join(parts) + ".")


def _table(game: Game, ps: Any, label: str) -> dict[str, Any] | None:
    """A set's data table as the rulebook shows it: a column per attribute its rows give
    (in the order the attributes are declared), identical rows counted once."""
    if not ps.table:
        return None
    order = [a for a in game.attribute_order if any(a in row for row in ps.table)]
    counted: dict[tuple, int] = {}
    for row in ps.table:
        key = tuple(frozen_value(row.get(a)) for a in order)
        counted[key] = counted.get(key, 0) + 1
    return {
        "title": label,
        "columns": ["Copies", *(humanize(a).capitalize() for a in order)],
        "rows": [[str(n), *("—" if v is None else md_escape(data_text(v))
                            if isinstance(v, tuple) else _cell(game, a, v)
                            for a, v in zip(order, key, strict=True))]
                 for key, n in counted.items()],
        "per": _per_row(game, ps, label),
        "provisional": ps.provisional,
    }


def _per_row(game: Game, ps: Any, label: str) -> str:
    """What each row of a set's table stands for: `for one of each colour (…)`, or what
    all its pieces share (`all with size 1, value 3`)."""
    varies = any(len(v) > 1 for v in ps.each.values())
    said = _each_phrase(game, {a: list(v) for a, v in ps.each.items()}, label=label,
                        lead=not varies)
    return f"for {said}" if varies and said else said


def _set_summary(game: Game, ps: Any, label: str, copies: int, n: int, depends: bool) -> str:
    each = {a: list(v) for a, v in ps.each.items()}
    star = ""
    if ps.component:
        return (counted(copies, _component(ps) or "")
                + (" with the default options" if depends else ""))
    pieces = f"{n} piece{'s' if n != 1 else ''}" + (" with the default options"
                                                   if depends else "")
    if ps.table:
        said = _per_row(game, ps, label)
        per = f", {said}" if said else ""
        mark = " (provisional)" if ps.provisional else ""
        sets = f"{copies}{star} × " if copies != 1 else ""
        return (f"{sets}{plural(label, 2)}: one for each row of their table below"
                f"{mark}{per} — {pieces}")
    if any(len(v) > 1 for v in each.values()):
        return (f"{plural(label, 2)}: {pieces}, "
                f"{_each_phrase(game, each, copies, label)}")
    said = _each_phrase(game, each, label=label)
    return (f"{copies}{star} {plural(label, copies)}" + (f" ({said})" if said else "")
            + f" — {pieces}")


def hex_board_words(info: Any) -> str:
    """A hex board in words: its shape, its names and its six directions."""
    if info.side is None:
        last = f"{chr(96 + info.cols)}{info.rows}"
        shape = (f"a board of {info.rows} × {info.cols} hexes in a rhombus, a1 to {last} "
                 "(a1 is bottom left; each row lies half a hex to the right of the row "
                 "below)")
    else:
        shape = (f"a hexagon of {info.per_owner} hexes, {info.side} along each side, named "
                 f"by row from 1 at the bottom and by column from a (the columns lean to "
                 "the right going up)")
    return (shape + "; each hex touches six others, to the north-east, east, south-east, "
            "south-west, west and north-west, and holds a stack of pieces")


def _zones(game: Game, d: Describer) -> list[dict[str, Any]]:
    out = []
    for z in game.ruleset.zones:
        info = game.zones[z.id]
        if info.kind == "grid" and info.reach is not None:
            shape = ("an open table with no edge the game reaches, in squares named x,y: "
                     "0,0 in the centre, x counting squares to the east (negative to the "
                     "west), y to the north (negative to the south); each square holds a "
                     "stack of pieces")
        elif info.kind == "grid":
            last = f"{chr(96 + info.cols)}{info.rows}"
            shape = (f"a board of {info.rows} × {info.cols} squares, a1 to {last} (a1 is "
                     "bottom left; each square holds a stack of pieces)")
        elif info.kind == "hex":
            shape = hex_board_words(info)
        elif info.kind == "slots":
            shape = f"{info.per_owner} numbered places, each holding a stack (no board)"
        else:
            shape = "a pile of pieces"
        if z.per_seat:
            shape += ", one for each player"
        seen = []
        concealed = (sentence(f"a piece is hidden from everyone when {d.expr(z.conceal)}")
                     if z.conceal is not None else "")
        if z.contents != "everyone":
            seen.append(f"its pieces are seen by {_VISIBILITY[z.contents]}")
        if z.count != "everyone" and z.contents != "everyone":
            seen.append(f"how many there are is known to {_VISIBILITY[z.count]}")
        if seen and z.reveal_at_end:
            seen.append("everything is revealed when the game ends")
        out.append({"id": z.id, "label": md_escape(info.label), "shape": shape,
                    "on_table": info.on_table,
                    "description": sentence(md_escape(z.description)) if z.description
                    else "",
                    "visibility": sentence("; ".join(seen)) if seen else "",
                    "concealed": concealed})
    return out


def _variables(game: Game, d: Describer) -> list[dict[str, Any]]:
    out = []
    for v in game.ruleset.variables:
        label, words = game.variables[v.id].label, humanize(v.id)
        parts = [f"starts at {d.expr(v.initial)}"]
        if label.lower() != words.lower():  # the exact rules name it by its id
            parts.insert(0, f"called *{md_escape(words)}* in the exact rules")
        if v.per_seat:
            parts.append("each player has their own")
        if v.per_piece:
            parts.append("each piece has its own, seen with the piece")
        if v.visible_to != "everyone":
            parts.append(f"seen by {_VISIBILITY[v.visible_to]}"
                         + (" until the game ends" if v.reveal_at_end else ""))
        elif not v.on_table:
            parts.append("the rules' own bookkeeping, not shown to players")
        out.append({"name": md_escape(label),  # as players see it
                    "description": sentence(md_escape(v.description or "")),
                    "facts": sentence("; ".join(parts))})
    return out


def _glossary(game: Game, d: Describer) -> list[str]:
    out = []
    for key, body in definition_bodies(game.ruleset).items():
        line = _glossary_line(game, d, key, body)
        if line is not None:
            out.append(line)
    return out


def _glossary_line(game: Game, d: Describer, key: str, body: Expr) -> str | None:
    """One term of the glossary: `**the die of square** means …`."""
    m = _DEF_KEY.match(key)
    if not m:
        return None
    name = m.group(1)
    params = [p.strip() for p in (m.group(2) or "").split(",") if p.strip()]
    call = ast.Call(ast.Name(name), [ast.Name(p) for p in params], [])
    term = d.english.node(call) if params else d.english.node(ast.Name(name))
    meaning = d.expr(body)
    verb = "when" if _is_condition(body, definition_bodies(game.ruleset)) else "means"
    return f"**{term}** {verb} {meaning}."


def _is_condition(body: Expr, bodies: dict[str, Expr]) -> bool:
    """Whether a definition's value is a yes/no (its term then reads "… when …")."""
    try:
        tree = parse(body.text)
    except ExpressionError:
        return False
    if isinstance(tree, ast.IfExp):
        tree = tree.body
    if isinstance(tree, ast.Compare | ast.BoolOp) or (
            isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.Not)):
        return True
    if isinstance(tree, ast.Constant):
        return isinstance(tree.value, bool)
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name):
        name = tree.func.id
        if name in ("any", "all", "empty"):
            return True
        for key, other in bodies.items():
            if key.split("(")[0].strip() == name and other is not body:
                return _is_condition(other, bodies)
    return False


def _first_player(game: Game, d: Describer) -> str:
    text = game.ruleset.first_seat.text.strip()
    if text.isdigit():
        return (f"Player {text} takes the first turn; then turns go round the table in "
                "seat order.")
    return (f"The first turn is taken by {d.expr(game.ruleset.first_seat)}; then turns go "
            "round the table in seat order.")


def _end_rules(game: Game, d: Describer) -> list[dict[str, str]]:
    out = []
    for rule in game.ruleset.end:
        who = d.expr(rule.winners) if rule.winners is not None else ""
        verb = "win" if who.endswith("players") or " and " in who else "wins"
        winners = (f"{who} {verb}" if rule.winners is not None
                   else "the ranking below decides who wins")
        out.append({"text": sentence(md_escape(rule.text) if rule.text else _id_words(rule.id)),
                    "exact": sentence(f"the game ends after a turn when {d.cond(rule.when)}; "
                                      f"{winners}")})
    bound = _decision_bound(game, d)
    if bound:
        out.append({"text": bound, "exact": bound})
    return out


def _decision_bound(game: Game, d: Describer) -> str | None:
    """The ruleset's `most_decisions`, as a sentence of the exact rules."""
    written = game.ruleset.most_decisions
    if written is None or game.most_decisions is None:
        return None
    most = f"{game.most_decisions:,}"
    if not written.text.strip().isdigit():
        most = f"{d.expr(written)} ({most} with the default options)"
    return sentence(f"the decisions of a game, each choice of each player counting one, "
                    f"number at most {most}")


_SAYS_WHO = re.compile(r"\b(wins?|won|winners?|draw|loses?|lost)\b", re.IGNORECASE)
"""Words by which a designer's end text already says who wins."""


def _player_end(game: Game, d: Describer) -> list[str]:
    """Every way the game ends, each with who then wins, in the players' words: the end
    rules checked after each turn, then the rules' own `end_game` steps."""
    out = []
    ends = set()
    for rule in game.ruleset.end:
        said = sentence(md_escape(rule.text) if rule.text else _id_words(rule.id))
        ends.add(said.lower())
        out.append(_with_winners(game, d, said, rule.winners))
    for where, block in _sections(game):
        for node, _ in _walk(block, where):
            if isinstance(node, EndGame):
                if sentence(md_escape(d.text(node.end_game))).lower() in ends:
                    continue  # an end rule, also checked at once where it can happen
                if node.text:
                    said = sentence(md_escape(node.text))
                else:
                    reason = d.text(node.end_game).rstrip(".")
                    if reason[1:2].islower() or reason[1:2] == " ":
                        reason = reason[:1].lower() + reason[1:]
                    said = f"The game ends when {reason}."
                line = _with_winners(game, d, said, node.winners)
                if not reads_poorly(line) and line not in out:
                    out.append(line)
    return out


def _with_winners(game: Game, d: Describer, said: str, winners: Expr | None) -> str:
    """An end in words, with who wins then unless the words already say it."""
    if _SAYS_WHO.search(said):
        return said
    if not re.search(r"\bends?\b", said, re.IGNORECASE):
        said = f"The game ends when {said[:1].lower()}{said[1:]}"  # a condition alone
    if winners is None:
        who = ("the scoring below decides who wins" if game.ruleset.rank
               or game.ruleset.scores is not None else "the game is a draw")
    elif winners.text.strip().replace(" ", "") == "[]":
        who = "the game is a draw"
    else:
        names = d.expr(winners)
        if reads_poorly(names) or mentions(winners, unseen_names(game)):
            return said
        verb = "win" if " and " in names or names.endswith("players") else "wins"
        who = f"{names} {verb}"
    return f"{said} {who[:1].upper()}{who[1:]}."


def _score_terms(game: Game, d: Describer) -> list[str]:
    """What each term the score and the ranking use means, so the players' layer says
    the whole scoring: the designer's `text` for it; else, for a term without
    parameters, its meaning in English where that reads as a player would say it (a
    term the designer gave words to (`says`) stands as they wrote it)."""
    rs = game.ruleset
    written = {(m.group(1) if (m := _DEF_KEY.match(k)) else k): (k, v)
               for k, v in rs.define.items()}
    out: list[str] = []
    for name in _terms_used([*([rs.scores] if rs.scores is not None else []), *rs.rank],
                            set(written)):
        key, definition = written[name]
        if isinstance(definition, Definition):
            if definition.text:
                out.append(sentence(md_escape(" ".join(definition.text.split()))))
            continue
        line = _glossary_line(game, d, key, definition_bodies(rs)[key])
        if line is not None and not reads_poorly(line) and not mentions(
                definition, unseen_names(game)):
            out.append(line)
    return list(dict.fromkeys(out))


def _terms_used(exprs: list[Expr], terms: set[str]) -> list[str]:
    """The defined terms these expressions use at their top level (not those inside a
    term's arguments, which the term's own words cover), in order."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        name = (node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                else node.id if isinstance(node, ast.Name) else None)
        if name in terms:
            if name not in found:
                found.append(name)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for expr in exprs:
        try:
            visit(parse(expr.text))
        except ExpressionError:
            continue
    return found


def _ranking(game: Game, d: Describer) -> tuple[str | None, str | None]:
    rs = game.ruleset
    ranking = None
    if rs.rank:
        ranking = d.ranking(rs.rank)
    scoring = None
    if rs.scores is not None:
        scoring = d.scoring(rs.scores)
    return ranking, scoring


def _in_sentence(label: str) -> str:
    """A label inside a sentence: `The board` → `the board`."""
    return "the " + label[4:] if label.startswith("The ") else label


def _option_values(o: OptionDecl) -> tuple[str, str, list[Any]]:
    if o.type == "bool":
        return ("on/off", "on" if o.default else "off", [not o.default])
    if o.type == "int":
        lo = o.min if o.min is not None else "any"
        hi = o.max if o.max is not None else "any"
        alt = int(o.default) + 1
        if o.max is not None and alt > o.max:
            alt = int(o.default) - 1
        return (f"a whole number from {lo} to {hi}", str(o.default), [alt])
    choices = o.choices or []
    return ("one of " + join_words([md_escape(c) for c in choices], "or"),
            md_escape(o.default), [c for c in choices if c != o.default])


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return md_escape(value)


def _facts(game: Game) -> dict[str, str]:
    """What an option can change that a reader sees at once: components and places."""
    facts: dict[str, str] = {}
    for ps, copies, n in _pieces_by_set(game):
        label = plural(md_escape(ps.label or humanize(ps.id)), 2)
        facts[f"pieces:{ps.id}"] = (f"{_component(ps)}: {copies}" if ps.component
                                    else f"{label}: {copies} ({n} pieces)")
    facts["pieces"] = f"in all: {_total_text(game)}"
    for z in game.zones.values():
        if z.kind == "grid" and z.reach is None:
            facts[f"zone:{z.id}"] = f"{md_escape(z.label)}: {z.rows} × {z.cols} squares"
        elif z.kind == "hex":
            facts[f"zone:{z.id}"] = (f"{md_escape(z.label)}: {z.rows} × {z.cols} hexes"
                                     if z.side is None else
                                     f"{md_escape(z.label)}: a hexagon of {z.per_owner} hexes")
        elif z.kind == "slots":
            facts[f"zone:{z.id}"] = f"{md_escape(z.label)}: {z.per_owner} places"
    return facts


def _options(game: Game, loaded: LoadedRuleset, d: Describer) -> list[OptionDoc]:
    out = []
    base = _facts(game)
    present = _on_table_values(game) if game.ruleset.options else set()
    for o in game.ruleset.options:
        kind, default, alts = _option_values(o)
        changes = []
        changed: dict[tuple[str, Any], str] = {}
        for alt in alts[:3]:
            try:
                other = compile_game_once(loaded, {**game.options, o.id: alt})
            except TabletopError as exc:
                changes.append(f"With {_show(alt)}: the game cannot be built "
                               f"({md_escape(exc, start=False)}).")
                continue
            theirs_on_table = _on_table_values(other)
            changed |= {v: "brings into play" for v in theirs_on_table - present}
            changed |= {v: "leaves out" for v in present - theirs_on_table}
            theirs = _facts(other)
            diff = [f"{theirs[k]} (instead of {base[k].split(': ', 1)[-1]})"
                    for k in base if k in theirs and theirs[k] != base[k]]
            if diff:
                changes.append(f"With {_show(alt)}: " + "; ".join(diff) + ".")
        out.append(OptionDoc(Md(md_escape(o.id)), Md(md_escape(o.label)), Md(kind), Md(default),
                             Md(kind), Md(sentence(md_escape(o.description))),
                             as_markdown(changes),
                             as_markdown(_mentions(game, o.id, d, changed))))
    return out


def _mentions(game: Game, name: str, d: Describer,
              changed: dict[tuple[str, Any], str] | None = None) -> list[str]:
    """The parts of the rules that read an option (where it makes a difference), and
    those that name the pieces it brings into play or leaves out (`changed`)."""
    rs = game.ruleset
    _definition_uses(definition_bodies(rs))
    out: list[str] = []
    for ps in rs.pieces.sets:
        if _expr_mentions(ps.count, name):
            label = md_escape(ps.label or humanize(ps.id)).split(" (")[0]
            out.append(f"the number of {_component(ps) or plural(label, 2)}: "
                       f"{_count_english(game, d, ps.count)}")
    for z in rs.zones:
        for what, e in (("rows", z.rows), ("columns", z.cols), ("places", z.size),
                        ("hexes along each side", z.side),
                        ("hidden pieces", z.conceal)):
            if e is not None and _expr_mentions(e, name):
                out.append(f"{what} of {_in_sentence(md_escape(game.zones[z.id].label))}: "
                           f"{d.expr(e)}")
    for key, body in definition_bodies(rs).items():
        if _expr_mentions(body, name):
            m = _DEF_KEY.match(key)
            out.append(f"the term “{humanize(m.group(1) if m else key)}”: {d.expr(body)}")
    for where, block in _sections(game):
        for node, place, said in _walk_said(block, where, d):
            if any(_expr_mentions(v, name) for v in own_fields(node)):
                what = (place if isinstance(node, OptionDef)
                        else f"a step of {place}: {said}")
                if what not in out:
                    out.append(what)
    for rule in rs.end:
        if _expr_mentions(rule.when, name) or _expr_mentions(rule.winners, name):
            out.append("the end of the game: "
                       + sentence(md_escape(rule.text) if rule.text else _id_words(rule.id)))
    out += _through_pieces(game, d, out, changed or {})
    return [sentence(m) for m in out]


def _walk_said(effects: list[Primitive], where: str, d: Describer,
               said: str = ""):
    """`_walk`, with each step's words: the designer's text of the step or of the
    nearest step around it, else the first line of its exact rule."""
    for e in effects:
        mine = (md_escape(" ".join(e.text.split())).rstrip(".") if e.text else said
                or _first_line(e, d))
        yield e, where, mine
        if isinstance(e, Choose):
            for o in e.options:
                place = f"{where}, the option “{_option_title(o)}”"
                words = md_escape(" ".join(o.text.split())).rstrip(".") if o.text else mine
                yield o, place, words
                yield from _walk_said(o.do, place, d, words)
            yield from _walk_said(e.if_none, where, d, mine)
            continue
        for child in e.children():
            yield from _walk_said(child, where, d, mine)


def _first_line(e: Primitive, d: Describer) -> str:
    lines = e.english(d)
    return lines[0].lstrip("- ").rstrip(".:") if lines else humanize(type(e).__name__)


def _names_in(node: Any) -> set[str]:
    """Every name a step's own fields read."""
    out: set[str] = set()
    for value in own_fields(node):
        items = (list(value.values()) if isinstance(value, dict)
                 else value if isinstance(value, list | tuple) else [value])
        for v in items:
            if isinstance(v, Template):
                for part in template_exprs(v.text):
                    out |= names_used(part)
            elif isinstance(v, Expr):
                out |= names_used(v.text)
            elif hasattr(v, "text") and isinstance(getattr(v, "text", None), str):
                out.add(v.text)
    return out


def _through_pieces(game: Game, d: Describer, listed: list[str],
                    changed: dict[tuple[str, Any], str]) -> list[str]:
    """What an option changes through the pieces it brings into play or leaves out
    (To the Clouds' white pyramids): every term and step that names them."""
    rs = game.ruleset
    out: list[str] = []
    for (attr, raw), how in sorted(changed.items(), key=lambda kv: str(kv[0])):
        pieces = f"the {_value_list(game, attr, [raw])} pieces it {how}"
        for key, body in definition_bodies(rs).items():
            if str(raw) in names_used(body.text):
                m = _DEF_KEY.match(key)
                out.append(f"through {pieces}: the term “{humanize(m.group(1) if m else key)}”: "
                           f"{d.expr(body)}")
        for where, block in _sections(game):
            for node, place, said in _walk_said(block, where, d):
                if str(raw) in _names_in(node):
                    what = place if isinstance(node, OptionDef) else f"a step of {place}: {said}"
                    line = f"through {pieces}: {what}"
                    if line not in out and what not in listed:
                        out.append(line)
    return list(dict.fromkeys(out))


def _on_table_values(game: Game) -> set[tuple[str, Any]]:
    """The piece values on the table after a few seeded set-ups, with the fewest and the
    most players (so that what a random deal leaves in the box shows): what a set of
    options brings into play."""
    out: set[tuple[str, Any]] = set()
    attributes = game.ruleset.pieces.attributes
    for seed, seats in product((1, 2, 3), sorted({game.min_seats, game.max_seats})):
        try:
            state = game.new_state(seats, seed)
        except TabletopError:
            return out
        for p, site in enumerate(state.loc):
            if site >= 0 and game.site_zone[site].on_table:
                out.update((a, game.attributes[a][p]) for a in game.attribute_order
                           if a in attributes and not attributes[a].data
                           and game.attributes[a][p] is not None)
    return out


def _legend(game: Game, base: str) -> Diagram:
    style = PieceStyle(game)
    seen: list[dict[str, Any]] = []
    keys = set()
    for p in range(game.n_pieces):
        piece = {a: game.attributes[a][p] for a in game.attribute_order
                 if game.attributes[a][p] is not None}
        key = tuple(sorted((k, str(v)) for k, v in piece.items()))
        if key not in keys:
            keys.add(key)
            seen.append(piece)
    _ = style
    return Diagram(f"{base}pieces.svg", f"{game.title}: one of each kind of piece",
                   legend_svg(game, seen, f"{game.title}: the pieces"))


def _position_word(r: int, c: int, rows: int, cols: int) -> str:
    """Where a position of a layout is on the face: `top left`, `bottom`, `centre`."""
    up = "" if rows == 1 else "top" if r == 0 else "bottom" if r == rows - 1 else ""
    side = "" if cols == 1 else "left" if c == 0 else "right" if c == cols - 1 else ""
    return " ".join(w for w in (up, side) if w) or "centre"


def _panels(game: Game, base: str, d: Describer) -> tuple[Diagram | None, str | None]:
    """A picture of a piece with panels as it may lie (upright and each way turned, its
    regions named; something standing on a region), and the sentences that go with it."""
    panels = game.panels
    if panels is None:
        return None, None
    style = PieceStyle(game)

    def values(p: int) -> dict[str, Any]:
        return {a: game.attributes[a][p] for a in game.attribute_order
                if game.attributes[a][p] is not None}

    paneled = [p for p in range(game.n_pieces) if panels.has_panels(game, p)]
    if not paneled:
        return None, None
    sample = max(paneled, key=lambda p: (len({game.attributes[a][p]
                                               for a in panels.attributes}), -p))
    piece = values(sample)
    stander = None
    if panels.standing_on is not None:
        others = [p for p in range(game.n_pieces) if not panels.has_panels(game, p)]
        pyramids = [p for p in others if game.piece_shapes[p] == "pyramid"]
        pick = (pyramids or others or [None])[0]
        if pick is not None:
            stander = values(pick)
    rows, cols = len(panels.layout), len(panels.layout[0])
    first_region = next(iter(panels.positions))
    c = _Canvas()
    size, gap, x, top = 104.0, 30.0, 14.0, 12.0
    pictures: list[tuple[dict[str, Any], list[dict[str, Any]], str]] = []
    for facing in panels.shown:
        shown = dict(piece)
        if panels.facing is not None:
            shown[panels.facing] = facing
        pictures.append((shown, [], "upright" if facing == 0 else f"turned {facing}°"))
    if stander is not None:
        on = {**stander, panels.standing_on: first_region}
        pictures.append((dict(pictures[0][0]), [on], f"{style.name(stander)} on {first_region}"))
    per_row = max(1, int((WIDTH - 2 * x + gap) // (size + gap)))
    for i, (shown, above, caption) in enumerate(pictures):
        row, col = divmod(i, per_row)
        gx, gy = x + col * (size + gap), top + row * (size + 40)
        if above:
            c.house(style, [shown, *above], gx, gy, size)
        else:
            c.panel_card(style, shown, gx, gy, size, size, names=True)
        words = caption if len(caption) <= 26 else caption[:25] + "…"
        c.text(gx + size / 2, gy + size + 15, words, size=11, anchor="middle")
    n_rows = (len(pictures) + per_row - 1) // per_row
    title = f"{game.title}: how a piece's panels read"
    diagram = Diagram(f"{base}panels.svg", title,
                      c.svg(WIDTH, top + n_rows * (size + 40), title))
    regions = [f"{name} ({_position_word(r, c2, rows, cols)})"
               for name, (r, c2) in panels.positions.items()]
    sets = [md_escape(ps.label or humanize(ps.id)) for ps in game.ruleset.pieces.sets
            if any(a in ps.each for a in panels.attributes)
            or any(a in row for row in ps.table for a in panels.attributes)]
    turning = {90: "It may lie turned by any number of quarter turns.",
               180: "It may lie either way up (turned by 180°).",
               360: "It never turns."}[panels.turn]
    names = [s.split(" (")[0] for s in sets]
    which = (names[0] if len(names) == 1
             else f"piece with panels ({join_words(names)})" if names else "piece")
    note = (f"The face of each {which} is divided into regions, each showing a value: "
            f"{join_words(regions)}. {turning}")
    if panels.turn != 360:
        note += (" A region is named by where it lies on the table, whichever way the "
                 "piece is turned, so turning it changes what shows there; in the "
                 "pictures a dot marks the corner that is top left when it is upright.")
    if stander is not None:
        note += (" A piece may stand on a region of the piece beneath it, as the last "
                 "picture shows.")
    return diagram, note


def _summary_of(lines: list[str], indent: str) -> list[str]:
    """The turn's top steps, one line each; what a step nests one level down (the
    options of a decision) joins its line: "The current player chooses one of these:
    Place a mark; Pass."."""
    out: list[str] = []
    for line in lines:
        depth = (len(line) - len(line.lstrip(" "))) // len(indent)
        text = line.strip()[2:]
        if depth == 0 or not out:
            out.append(text)
        elif depth == 1:
            head = out[-1]
            out[-1] = (f"{head} {text.rstrip('.')}" if head.endswith(":")
                       else f"{head.rstrip('.')}; {text[:1].lower()}{text[1:].rstrip('.')}")
    return out


def _ruling(ident: str, text: str) -> dict[str, str]:
    """A ruling under its title, its text without the title said again ("**Power
    play.** Power Play: …" reads "**Power play.** …")."""
    title = _id_words(ident.replace("-", " ")).capitalize()
    words = " ".join(text.split())
    head = re.match(r"\s*([^:.]{1,80})[:.]\s+", words)
    if head and _same_words(head.group(1), humanize(ident.replace("-", " "))):
        rest = words[head.end():]
        words = rest[:1].upper() + rest[1:]
    return {"id": md_escape(ident), "title": title, "text": md_escape(words)}


def _same_words(a: str, b: str) -> bool:
    """Whether two titles are the same words, whatever their case and punctuation."""
    def norm(x: str) -> list[str]:
        return re.findall(r"\w+", x.lower())
    return norm(a) == norm(b)


def _player_procedures(game: Game, d: Describer, called: list[str]) -> list[dict[str, str]]:
    """The procedures players read: those the designer summed up for them (`text`), and
    those the players' layer points to ("see … below"); a procedure with neither is the
    rules' own helper, in the exact rules only."""
    shown: dict[str, dict[str, str]] = {}
    todo = [p.id for p in game.ruleset.procedures if p.text] + called
    by_id = {p.id: p for p in game.ruleset.procedures}
    while todo:
        name = todo.pop(0)
        p = by_id.get(name)
        if p is None or name in shown:
            continue
        rules = PlayerRules(game, d)
        # The designer's summary stands for the steps; they are in the exact rules.
        body = "" if p.text else markdown_list(rules.lines(p.do), d.indent)
        todo += rules.called
        shown[name] = {"name": humanize(p.id.replace("-", " ")).capitalize(),
                       "text": sentence(md_escape(p.text)) if p.text else "", "rules": body}
    return [shown[p.id] for p in game.ruleset.procedures if p.id in shown]


def _player_layer(game: Game, d: Describer, variables: list[dict[str, Any]]) -> PlayerLayer:
    """The rules in a player's words: each section leaves the engine's bookkeeping to
    the exact rules and says so when it left a step out."""
    rs = game.ruleset
    setup_rules = PlayerRules(game, d)
    setup = markdown_list(setup_rules.lines(rs.setup), d.indent) if rs.setup else ""
    turn_rules = PlayerRules(game, d)
    turn_lines = turn_rules.lines(rs.turn)
    summary = ([md_escape(line) for line in rs.rulebook.turn_summary]
               or _summary_of(turn_lines, d.indent))
    triggers = []
    called = [*setup_rules.called, *turn_rules.called]
    for t in rs.triggers:
        rules = PlayerRules(game, d)
        body = "" if t.text else markdown_list(rules.lines(t.do), d.indent)
        called += rules.called
        triggers.append({"name": _id_words(t.id.replace("-", " ")).capitalize(),
                         "text": sentence(md_escape(t.text)) if t.text else "",
                         "rules": body})
    procedures = _player_procedures(game, d, called)
    seen = {v.id for v in rs.variables if v.id not in bookkeeping_variables(game)}
    return PlayerLayer(
        setup=Md(setup), turn=Md(markdown_list(turn_lines, d.indent)),
        turn_summary=as_markdown([sentence(line) for line in summary]),
        procedures=as_markdown(procedures), triggers=as_markdown(triggers),
        variables=[v for v, decl in zip(variables, rs.variables, strict=True)
                   if decl.id in seen],
        setup_left_out=setup_rules.left_out > 0, turn_left_out=turn_rules.left_out > 0,
        end=as_markdown(_player_end(game, d)), scoring=as_markdown(_score_terms(game, d)))


def build_rulebook(loaded: LoadedRuleset, base: str = "", tests_text: str | None = None
                   ) -> Rulebook:
    """The rulebook of one ruleset (default options, the fewest players); its worked
    examples from `tests_text` when given (an editor's draft of its tests file)."""
    game = compile_game_once(loaded, {})
    d = describer_for(game, RulebookDescriber, emphasis=True)
    info = game.ruleset.game
    players = game.min_seats
    seats = (f"{info.seats.min}" if info.seats.min == info.seats.max
             else f"{info.seats.min}–{info.seats.max}")
    components, total, note = _components(game, d)
    setup_diagram = setup_picture(game, players, base)
    legend = _legend(game, base)
    ranking, scoring = _ranking(game, d)
    rs = game.ruleset
    # The ruleset's own texts stay text (the templates escape them); everything built
    # here is Markdown with the ruleset's words escaped in it.
    book = Rulebook(
        name=info.name, title=info.title, designer=info.designer, year=info.year,
        seats=seats, playing_time=info.playing_time, status=info.status,
        summary=" ".join(info.summary.split()),
        introduction=" ".join(info.introduction.split()) if info.introduction else None,
        source=info.source, players_shown=players,
        components=as_markdown(components), total_pieces=total,
        components_note=as_markdown(note),
        total_text=Md(_total_text(game)),
        backs=as_markdown(_backs(game)),
        zones=as_markdown(_zones(game, d)), variables=as_markdown(_variables(game, d)),
        glossary=as_markdown(_glossary(game, d)),
        setup=Md(markdown_list(d.sentences(rs.setup), d.indent) if rs.setup else ""),
        setup_diagram=setup_diagram, legend=legend,
        first_player=Md(_first_player(game, d)),
        turn=Md(markdown_list(d.sentences(rs.turn), d.indent)),
        procedures=as_markdown([
            {"name": humanize(p.id), "text": sentence(md_escape(p.text)) if p.text else "",
             "params": join_words([d.name(x) for x in p.params]) if p.params else "",
             "rules": markdown_list(d.sentences(p.do), d.indent)}
            for p in rs.procedures]),
        triggers=as_markdown([
            {"name": _id_words(t.id), "text": sentence(md_escape(t.text)) if t.text else "",
             "when": sentence(
                 "whenever a piece enters "
                 + _in_sentence(md_escape(game.zones[t.enters.text].label))
                 + (f" and {d.cond(t.where)}" if t.where is not None else "")),
             "rules": markdown_list(d.sentences(t.do), d.indent)}
            for t in rs.triggers]),
        end_rules=as_markdown(_end_rules(game, d)), ranking=as_markdown(ranking),
        scoring=as_markdown(scoring),
        rulings=as_markdown([_ruling(r.id, r.text) for r in rs.rulings]),
        options=_options(game, loaded, d),
    )
    book.players = _player_layer(game, d, book.variables)
    book.panels, panels_note = _panels(game, base, d)
    book.panels_note = as_markdown(panels_note)
    book.case_examples = case_examples(game, loaded, base, tests_text)
    book.diagrams = [legend, *([book.panels] if book.panels else []), setup_diagram,
                     *(dg for x in book.case_examples for dg in x.diagrams())]
    return book


__all__ = ["Diagram", "Rulebook", "RulebookDescriber",
           "build_rulebook", "markdown_list", "parse"]
