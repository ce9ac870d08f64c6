"""What a rulebook says, computed from a ruleset: the context the templates render.

Everything here comes from the ruleset and the compiled Game: component counts from
the pieces the compiler made, rules in English from each primitive's ``english`` via
the Describer, diagrams from real seeded positions, option differences from compiling
the game again with the option changed. Templates only arrange it.
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from typing import Any

from interpreter.compile.english import (
    Describer,
    attribute_noun,
    describer_for,
    humanize,
    join_words,
)
from interpreter.compile.expressions import ExpressionError, names_used, parse
from interpreter.compile.game import _DEF_KEY, compile_game_once
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
    own_fields,
    template_exprs,
)
from interpreter.docs.text import Md, as_markdown, md_escape
from interpreter.errors import TabletopError
from interpreter.load.data_values import data_text, frozen_value
from interpreter.load.loader import LoadedRuleset
from interpreter.load.located import Expr, Template
from interpreter.load.schema import OptionDecl, definition_bodies
from interpreter.primitives import Choose, Primitive
from interpreter.primitives.decisions import OptionDef
from interpreter.run.game import Game

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
    designer: str
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


def _each_phrase(game: Game, each: dict[str, list[Any]], copies: int = 1) -> str:
    varying = [(a, v) for a, v in each.items() if len(v) > 1]
    fixed = [(a, v[0]) for a, v in each.items() if len(v) == 1]
    parts = []
    if varying:
        parts.append(f"{'one' if copies == 1 else copies} of each " + " in each ".join(
            f"{attribute_noun(a)} ({_value_list(game, a, v)})" for a, v in varying))
    if fixed:
        said = ", ".join(f"{humanize(a)} {_value_list(game, a, [v])}" for a, v in fixed)
        parts.append(("all with " if varying else "") + said)
    return "; ".join(parts)


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
            "start": _place_phrase(game, ps.start.text, ps.seat),
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
                            if isinstance(v, tuple) else _value_list(game, a, [v])
                            for a, v in zip(order, key, strict=True))]
                 for key, n in counted.items()],
        "per": _each_phrase(game, {a: list(v) for a, v in ps.each.items()}),
        "provisional": ps.provisional,
    }


def _set_summary(game: Game, ps: Any, label: str, copies: int, n: int, depends: bool) -> str:
    each = {a: list(v) for a, v in ps.each.items()}
    star = ""
    if ps.component:
        return (counted(copies, _component(ps) or "")
                + (" with the default options" if depends else ""))
    pieces = f"{n} piece{'s' if n != 1 else ''}" + (" with the default options"
                                                   if depends else "")
    if ps.table:
        per = f", for {_each_phrase(game, each)}" if each else ""
        mark = " (provisional)" if ps.provisional else ""
        sets = f"{copies}{star} × " if copies != 1 else ""
        return (f"{sets}{plural(label, 2)}: one for each row of their table below"
                f"{mark}{per} — {pieces}")
    if any(len(v) > 1 for v in each.values()):
        return (f"{plural(label, 2)}: {pieces}, "
                f"{_each_phrase(game, each, copies)}")
    return f"{copies}{star} {plural(label, copies)} ({_each_phrase(game, each)}) — {pieces}"


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
        if info.kind == "grid":
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
                    "description": sentence(md_escape(z.description)) if z.description
                    else "",
                    "visibility": sentence("; ".join(seen)) if seen else "",
                    "concealed": concealed})
    return out


def _variables(game: Game, d: Describer) -> list[dict[str, Any]]:
    out = []
    for v in game.ruleset.variables:
        parts = [f"starts at {d.expr(v.initial)}"]
        if v.per_seat:
            parts.append("each player has their own")
        if v.per_piece:
            parts.append("each piece has its own, seen with the piece")
        if v.visible_to != "everyone":
            parts.append(f"seen by {_VISIBILITY[v.visible_to]}"
                         + (" until the game ends" if v.reveal_at_end else ""))
        elif not v.on_table:
            parts.append("the rules' own bookkeeping, not shown to players")
        out.append({"name": humanize(v.id), "description": sentence(md_escape(v.description or "")),
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
    return out


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
        if z.kind == "grid":
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
    for o in game.ruleset.options:
        kind, default, alts = _option_values(o)
        changes = []
        for alt in alts[:3]:
            try:
                other = compile_game_once(loaded, {**game.options, o.id: alt})
            except TabletopError as exc:
                changes.append(f"With {_show(alt)}: the game cannot be built "
                               f"({md_escape(exc, start=False)}).")
                continue
            theirs = _facts(other)
            diff = [f"{theirs[k]} (instead of {base[k].split(': ', 1)[-1]})"
                    for k in base if k in theirs and theirs[k] != base[k]]
            if diff:
                changes.append(f"With {_show(alt)}: " + "; ".join(diff) + ".")
        out.append(OptionDoc(Md(md_escape(o.id)), Md(md_escape(o.label)), Md(kind), Md(default),
                             Md(kind), Md(sentence(md_escape(o.description))),
                             as_markdown(changes), as_markdown(_mentions(game, o.id, d))))
    return out


def _mentions(game: Game, name: str, d: Describer) -> list[str]:
    """The parts of the rules that read an option (where it makes a difference)."""
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
        for node, place in _walk(block, where):
            if any(_expr_mentions(v, name) for v in own_fields(node)):
                what = place if isinstance(node, OptionDef) else f"a step of {place}"
                if what not in out:
                    out.append(what)
    for rule in rs.end:
        if _expr_mentions(rule.when, name) or _expr_mentions(rule.winners, name):
            out.append("the end of the game: "
                       + sentence(md_escape(rule.text) if rule.text else _id_words(rule.id)))
    return [sentence(m) for m in out]


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
    procedures = []
    for p in rs.procedures:
        # The designer's summary stands for the steps; they are in the exact rules.
        body = "" if p.text else markdown_list(PlayerRules(game, d).lines(p.do), d.indent)
        procedures.append({"name": humanize(p.id.replace("-", " ")).capitalize(),
                           "text": sentence(md_escape(p.text)) if p.text else "",
                           "rules": body})
    triggers = []
    for t in rs.triggers:
        triggers.append({"name": _id_words(t.id.replace("-", " ")).capitalize(),
                         "text": sentence(md_escape(t.text)) if t.text else "",
                         "rules": "" if t.text else markdown_list(
                             PlayerRules(game, d).lines(t.do), d.indent)})
    seen = {v.id for v in rs.variables if v.id not in bookkeeping_variables(game)}
    return PlayerLayer(
        setup=Md(setup), turn=Md(markdown_list(turn_lines, d.indent)),
        turn_summary=as_markdown([sentence(line) for line in summary]),
        procedures=as_markdown(procedures), triggers=as_markdown(triggers),
        variables=[v for v, decl in zip(variables, rs.variables, strict=True)
                   if decl.id in seen],
        setup_left_out=setup_rules.left_out > 0, turn_left_out=turn_rules.left_out > 0)


def build_rulebook(loaded: LoadedRuleset, base: str = "") -> Rulebook:
    """The rulebook of one ruleset (default options, the fewest players)."""
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
        rulings=as_markdown([
            {"id": md_escape(r.id), "title": _id_words(r.id.replace("-", " ")).capitalize(),
             "text": md_escape(" ".join(r.text.split()))} for r in rs.rulings]),
        options=_options(game, loaded, d),
    )
    book.players = _player_layer(game, d, book.variables)
    book.panels, panels_note = _panels(game, base, d)
    book.panels_note = as_markdown(panels_note)
    book.case_examples = case_examples(game, loaded, base)
    book.diagrams = [legend, *([book.panels] if book.panels else []), setup_diagram,
                     *(dg for x in book.case_examples for dg in x.diagrams())]
    return book


__all__ = ["Diagram", "Rulebook", "RulebookDescriber",
           "build_rulebook", "markdown_list", "parse"]
