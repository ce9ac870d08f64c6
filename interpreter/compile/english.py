"""Describer: turns primitives and expressions into rulebook English.

Primitives call back into a Describer for the parts they contain, so each primitive
owns its sentence while expressions and nested blocks are rendered in one place.
Expressions are translated from their syntax tree: each built-in function carries its
own English pattern, definitions read as their (humanized) names, the ruleset's zones,
options and variables as their labels, and operators as words. No identifier with an
underscore, no Python literal and no bracket reaches the reader.

``assemble.describer.describer_for(game)`` builds one that knows a compiled game's names.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from interpreter.compile.expressions import ExpressionError, parse, split_template
from interpreter.compile.functions import DIRECTION_NAMES, FUNCTIONS
from interpreter.located import Expr, Name, Template

if TYPE_CHECKING:
    from interpreter.primitives.base import Primitive
    from interpreter.primitives.decisions import OptionDef

_COMPARE = {ast.Eq: "is", ast.NotEq: "is not", ast.Lt: "is less than",
            ast.LtE: "is at most", ast.Gt: "is more than", ast.GtE: "is at least",
            ast.In: "is one of", ast.NotIn: "is not one of"}
_NEGATED = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE, ast.GtE: ast.Lt,
            ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.In: ast.NotIn, ast.NotIn: ast.In}
_ARITH = {ast.Add: "plus", ast.Sub: "minus", ast.Mult: "times", ast.FloorDiv: "divided by",
          ast.Div: "divided by", ast.Mod: "modulo"}
_NAMES = {"current": "the current player", "players": "the number of players",
          "seats": "the players", "turn": "the turn number",
          "eliminated": "the players knocked out", "directions":
          "the eight directions", "orthogonal": "the four orthogonal directions",
          "diagonal": "the four diagonal directions", "hex_directions": "the six directions",
          "chooser": "the deciding player",
          "seat": "the player", "null": "nothing", "none": "nothing", "None": "nothing",
          "true": "yes", "True": "yes", "false": "no", "False": "no"}
_TEXT_FUNCTIONS = {"str", "seat_name", "place_name", "piece_name", "piece_code", "dir_name",
                   "value_name", "join"}
_LIST_FUNCTIONS = {"repeat", "without", "sorted", "reversed", "cells", "pieces", "stack",
                   "shuffled", "distinct", "one_of_each_kind", "range", "neighbours", "above",
                   "below", "reachable", "border"}
_PREPOSITIONS = {"after", "before", "of", "in", "on", "at", "from", "to", "for", "with",
                 "under", "over", "by"}
_ADJECTIVE_ENDINGS = ("ed", "able", "ible", "ful", "less", "ous", "ive", "al", "ic", "y", "en",
                      "ing", "est", "er")
_ADJECTIVES = {"ok", "free", "open", "safe", "full", "legal", "valid", "alone", "same", "last",
               "first", "top", "bare", "clear", "done", "over", "out", "live", "dead"}
_OWNERS = {"current", "chooser", "seat"}
"""Names of a seat said by a fixed phrase ("the current player"), which can own things."""
_DETERMINERS = ("the ", "their ", "its ", "a ", "an ", "that ", "those ")
_HEAD_END = {"of", "in", "on", "at", "below", "above", "under", "over", "where", "that",
             "which", "who", "whose", "with", "from", "to", "for", "by", "if", "such", "is",
             "and", "or", "when", "as", "than", "the", "a", "an", "among", "they", "it",
             "he", "she", "we", "you", "has", "have", "had", "are", "was", "were", "be",
             "can", "may", "must", "will", "could", "would"}
_SUPERLATIVES = {"highest", "lowest", "largest", "smallest", "most", "fewest", "greatest",
                 "least", "longest", "shortest", "best", "worst", "biggest", "first", "last"}
_IDENTIFIER = re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)(?![\w-])")
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth"]


def humanize(identifier: str) -> str:
    """`power_played` → `power played` (how a designer's name reads in a sentence)."""
    return identifier.replace("_", " ").strip()


def humanize_text(text: str) -> str:
    """Every `snake_case` identifier left in a sentence, written as words."""
    return _IDENTIFIER.sub(lambda m: humanize(m.group(1)), text)


def attribute_noun(attribute: str) -> str:
    """`colour` → colour; a plural-looking name (`pips`) → `pips value`."""
    word = humanize(attribute)
    return f"{word} value" if word.endswith("s") else word


def join_words(items: list[str], last: str = "and") -> str:
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def article(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


_POSSESSOR = re.compile(r"^(?:the )?(?:(?!(?:the|of|in|on|at|to|from|by|for|with|and|or)\b)"
                        r"[A-Za-z][\w-]* )*?[\w-]+’s ")
"""A possessor that starts a phrase: `the current player’s `."""


def head_noun(phrase: str) -> str | None:
    """The noun a phrase is about: `the altitude of their goal element` → altitude,
    `their goal element` → element, `the highest top of a panel` → top."""
    words = _POSSESSOR.sub("", phrase, count=1)  # the current player’s beads: beads
    if words == phrase:
        for d in _DETERMINERS:
            if words.startswith(d):
                words = words[len(d):]
                break
        else:
            return None
    run: list[str] = []
    for w in words.split():
        if w in _HEAD_END or not re.fullmatch(r"[A-Za-z][A-Za-z-]*", w):
            break
        run.append(w)
    if not run or run[-1] in _SUPERLATIVES:
        return None
    return run[-1]


def is_plural(noun: str) -> bool:
    return noun.endswith("s") and not noun.endswith(("ss", "us", "is"))


def _referring(phrase: str) -> str | None:
    """Words that refer back to a thing said in full: "that altitude", "those pips"."""
    head = head_noun(phrase)
    if head is None:
        return None
    return f"{'those' if is_plural(head) else 'that'} {head}"


_BEST = {"size": ("largest", "smallest"), "length": ("longest", "shortest")}
"""The superlatives a noun takes (the default: highest, lowest; a plural: most, fewest)."""


def superlative_of(phrase: str, least: bool = False) -> str:
    """`the number of pieces in X` → `the most pieces in X`; `their trios` → `the most
    trios` (`the fewest` when `least`); `the altitude of Y` → `the highest altitude of Y`;
    a phrase that is a superlative already is kept."""
    words = phrase
    if words.startswith("the number of "):
        noun = words.removeprefix("the number of ").removeprefix("the ")
        return f"the {'fewest' if least else 'most'} {noun}"
    for d in ("the ", "their "):
        if words.startswith(d):
            words = words[len(d):]
            break
    rest = words.split()
    if rest[:3] == ["size", "of", "the"] and len(rest) > 3 and rest[3] in _SUPERLATIVES \
            and not least:
        return " ".join(rest[2:])  # the size of the largest group: the largest group
    first = words.split(" ", 1)[0]
    if first in _SUPERLATIVES and not least:
        return f"the {words}"
    head = head_noun("the " + words)
    if head is not None and is_plural(head):
        best = "fewest" if least else "most"
    else:
        best = _BEST.get(head or "", ("highest", "lowest"))[least]
    return f"the {best} {words}"


def _is_adjective(word: str) -> bool:
    return word in _ADJECTIVES or word.endswith(_ADJECTIVE_ENDINGS)


def definition_phrase(name: str, args: list[str], owner: str | None = None) -> str:
    """How a call of a designer's definition reads: `is_cap(x)` → `x is a cap`; with
    the `owner` of its one argument (a seat), `trios(seat)` → `their trios`."""
    words = name.split("_")
    head, rest = words[0], humanize(" ".join(words[1:]))
    first = args[0] if args else "it"
    more = f" (for {join_words(args[1:])})" if len(args) > 1 else ""
    if head in ("where", "what", "which", "how", "who") and rest:
        return f"{head} {first} {rest}{more}"
    if head in ("is", "has", "can") and rest:
        if head == "is":
            single = " " not in rest
            rest = rest if not single or _is_adjective(rest) else article(rest)
        return f"{first} {head} {rest}{more}"
    phrase = humanize(name)
    if not args:
        return f"the {phrase}"
    if words[-1] in _PREPOSITIONS:
        return f"the {phrase} {join_words(args)}"
    if owner is not None and len(args) == 1:
        return f"{owner} {phrase}"
    return f"the {phrase} of {join_words(args)}"


class ExpressionEnglish:
    """English for one expression tree; names are looked up in a glossary first.

    - ``glossary``: name → phrase (zones, options, variables of a ruleset);
    - ``value_names``: display names of text values (`red`) — numbers are never renamed
      except where compared with an attribute that names them (``attribute_names``);
    - ``definitions``: the ruleset's definitions with their parameters;
    - ``seat_indexed``: names that are indexed by seat (per-seat zones and variables);
    - ``emphasis``: write local names in italics (Markdown).
    """

    def __init__(self, glossary: Mapping[str, str] | None = None,
                 value_names: Mapping[Any, str] | None = None, *,
                 attribute_names: Mapping[str, Mapping[Any, str]] | None = None,
                 definitions: Mapping[str, list[str]] | None = None,
                 seat_indexed: set[str] | None = None,
                 emphasis: bool = False) -> None:
        self.glossary = dict(glossary or {})
        self.value_names = dict(value_names or {})
        self.attribute_names = {k: dict(v) for k, v in (attribute_names or {}).items()}
        self.definitions = dict(definitions or {})
        self.seat_indexed = set(seat_indexed or ())
        self.emphasis = emphasis
        self.bound: set[str] = set()
        """Names bound by the comprehensions being said (a loop's `n` is not north)."""
        self.subject: str | None = None
        """The name the sentence is about (`seat` in "the player with the most trios"):
        what it owns reads "their trios"."""
        self.mentions: dict[str, str] | None = None
        """While a paragraph is said (``paragraph``): what was said already, by its
        expression, and the words that refer back to it ("that element")."""

    def text(self, source: str) -> str:
        try:
            return self.node(parse(source))
        except ExpressionError:
            return humanize(source)

    def node(self, n: ast.AST) -> str:
        method = getattr(self, "n_" + type(n).__name__, None)
        if method is None:
            return "a value"
        if self.mentions is None or not isinstance(n, ast.Call | ast.Subscript):
            return method(n)
        key = ast.dump(n)
        if key in self.mentions:
            return self.mentions[key]
        said = method(n)
        back = _referring(said)
        if back and self.subject is not None and any(
                isinstance(x, ast.Name) and x.id == self.subject for x in ast.walk(n)):
            self.mentions[key] = back
        return said

    @contextmanager
    def about(self, subject: str) -> Iterator[None]:
        """Say expressions whose subject is `subject` (a seat): what it owns is "theirs"."""
        saved = self.subject
        self.subject = subject
        try:
            yield
        finally:
            self.subject = saved

    @contextmanager
    def paragraph(self) -> Iterator[None]:
        """Say several expressions as one paragraph: a thing said once is then referred
        to ("that element") instead of being said in full again."""
        saved = self.mentions
        self.mentions = {}
        try:
            yield
        finally:
            self.mentions = saved

    def owner(self, n: ast.AST) -> str | None:
        """The possessive of a seat named by `n` ("their", "the current player’s"), or
        None when `n` is not a seat said by a fixed phrase."""
        if not isinstance(n, ast.Name) or n.id in self.bound:
            return None
        if n.id == self.subject:
            return "their"
        if n.id in _OWNERS and n.id not in self.glossary:
            return _NAMES[n.id] + "’s"
        return None

    def local(self, name: str) -> str:
        word = humanize(name)
        return f"*{word}*" if self.emphasis else word

    def value(self, v: Any, attribute: str | None = None) -> str:
        if v is None:
            return "nothing"
        if isinstance(v, bool):
            return "yes" if v else "no"
        if attribute is not None and v in self.attribute_names.get(attribute, {}):
            return self.attribute_names[attribute][v]
        if isinstance(v, str):
            if v in self.value_names:
                return self.value_names[v]
            if v in DIRECTION_NAMES:
                return DIRECTION_NAMES[v]
            return v if re.fullmatch(r"[A-Za-z0-9]+", v) else f"“{humanize(v)}”"
        return str(v)

    # -- leaves -------------------------------------------------------------------------
    def n_Constant(self, n: ast.Constant) -> str:
        return self.value(n.value)

    def n_Name(self, n: ast.Name) -> str:
        if n.id in self.glossary:
            return self.glossary[n.id]
        if n.id in self.definitions:
            return definition_phrase(n.id, [])
        if n.id in _NAMES:
            return _NAMES[n.id]
        if n.id in self.value_names:
            return self.value_names[n.id]
        if n.id in DIRECTION_NAMES and not self.emphasis and n.id not in self.bound:
            return DIRECTION_NAMES[n.id]
        return self.local(n.id)

    # -- operators ----------------------------------------------------------------------
    def n_BoolOp(self, n: ast.BoolOp) -> str:
        word = "and" if isinstance(n.op, ast.And) else "or"
        parts = []
        for v in n.values:
            said = self.node(v)
            if isinstance(v, ast.BoolOp):
                said = f"({said})"
            parts.append(said)
        return join_words(parts, word)

    def n_UnaryOp(self, n: ast.UnaryOp) -> str:
        if isinstance(n.op, ast.Not):
            return self.negate(n.operand)
        inner = self.node(n.operand)
        if isinstance(n.op, ast.USub):
            return f"minus {inner}"
        return inner

    def negate(self, n: ast.AST) -> str:
        """`not x` said positively where English allows it."""
        if isinstance(n, ast.Compare) and len(n.ops) == 1:
            flipped = ast.Compare(n.left, [_NEGATED[type(n.ops[0])]()], n.comparators)
            return self.node(flipped)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            return self.node(n.operand)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            name = n.func.id
            if name in self.definitions:
                said = self.n_Call(n)
                for verb, neg in ((" is ", " is not "), (" has ", " does not have "),
                                  (" can ", " cannot ")):
                    if name.startswith(verb.strip() + "_") and verb in said:
                        return said.replace(verb, neg, 1)
            if name == "any" and n.args:
                return "none of " + self.node(n.args[0]).removeprefix("any of ")
            if name == "empty" and n.args:
                return f"{self.node(n.args[0])} is not empty"
        if isinstance(n, ast.Name) and n.id in self.glossary and self.glossary[n.id].endswith(
                " is on"):
            return self.glossary[n.id][:-3] + " off"
        inner = self.node(n)
        if " " not in inner or isinstance(n, ast.Name):
            return f"not {inner}"
        return f"it is not the case that {inner}"

    def _is_text(self, n: ast.AST) -> bool:
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            return n.value not in self.value_names and n.value not in DIRECTION_NAMES
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            return n.func.id in _TEXT_FUNCTIONS
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            return self._is_text(n.left) or self._is_text(n.right)
        return False

    def _is_list(self, n: ast.AST) -> bool:
        if isinstance(n, ast.List | ast.ListComp | ast.Tuple):
            return True
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            return n.func.id in _LIST_FUNCTIONS
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            return self._is_list(n.left) or self._is_list(n.right)
        return False

    def _flatten_add(self, n: ast.AST) -> list[ast.AST]:
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            return self._flatten_add(n.left) + self._flatten_add(n.right)
        return [n]

    def n_BinOp(self, n: ast.BinOp) -> str:
        if isinstance(n.op, ast.Add) and self._is_text(n):
            return " followed by ".join(self.node(p) for p in self._flatten_add(n))
        if isinstance(n.op, ast.Add) and self._is_list(n):
            parts = [self.node(p) for p in self._flatten_add(n)]
            # "(the caps except a) and b", never "the caps except a and b".
            return join_words([f"({p})" if " except " in p else p for p in parts])
        word = _ARITH.get(type(n.op), "combined with")
        said = f"{self._operand(n.left, n.op)} {word} {self._operand(n.right, n.op, True)}"
        return f"{said}, rounded down" if isinstance(n.op, ast.FloorDiv) else said

    def _operand(self, n: ast.AST, op: ast.operator | None = None, right: bool = False) -> str:
        """An operand in words, bracketed unless the reading is plain: a sum's terms are
        a chain ("a plus b minus c"), as is the left side of the same operation."""
        said = self.node(n)
        if isinstance(n, ast.IfExp):
            return f"({said})"
        if not isinstance(n, ast.BinOp) or self._is_text(n) or self._is_list(n):
            return said
        additive = (ast.Add, ast.Sub)
        if op is not None and not right and isinstance(n.op, additive) and isinstance(
                op, additive):
            return said  # (a plus b) minus c: a plus b minus c
        product = isinstance(n.op, ast.Mult)
        if op is not None and not right and product and isinstance(op, (ast.Mult, *additive)):
            return said  # a times b plus c: read from the left, it needs no brackets
        if op is not None and right and isinstance(op, ast.Add) and isinstance(n.op, ast.Add):
            return said
        return f"({said})"

    def n_Compare(self, n: ast.Compare) -> str:
        empty = self._emptiness(n)
        if empty is not None:
            return empty
        parts = [self.node(n.left)]
        attribute = n.left.attr if isinstance(n.left, ast.Attribute) else None
        for op, right in zip(n.ops, n.comparators, strict=True):
            if (isinstance(right, ast.Constant) and right.value is None) or (
                    isinstance(right, ast.Name) and right.id in ("null", "none", "None")):
                if len(n.ops) == 1 and isinstance(n.left, ast.Attribute):
                    # `p.pips != null`: p has a pips value.
                    has = "has no" if isinstance(op, ast.Eq) else "has a"
                    return f"{self.node(n.left.value)} {has} {attribute_noun(n.left.attr)}"
                parts.append("does not exist" if isinstance(op, ast.Eq) else "exists")
                continue
            named = isinstance(op, ast.Eq | ast.NotEq) and isinstance(right, ast.Constant)
            said = self.value(right.value, attribute) if named else self.node(right)
            verb = _COMPARE.get(type(op), "compares to")
            if len(parts) == 1 and not isinstance(op, ast.In | ast.NotIn):
                head = head_noun(parts[0])
                if head is not None and is_plural(head):
                    verb = "are" + verb.removeprefix("is")  # their trios are at least 3
            parts.append(f"{verb} {said}")
        return ", which ".join([" ".join(parts[:2]), *parts[2:]])

    def _emptiness(self, n: ast.Compare) -> str | None:
        """`count(pieces(X)) == 0` → "X is empty"; `> 0` → "X is not empty"; the same
        for `height(X)` and for a list compared with `[]`."""
        if len(n.ops) != 1:
            return None
        op, right, left = n.ops[0], n.comparators[0], n.left
        if isinstance(right, ast.List) and not right.elts and isinstance(op, ast.Eq | ast.NotEq):
            return f"{self.node(left)} is {'not ' if isinstance(op, ast.NotEq) else ''}empty"
        number = _number_written(right)
        place = _counted_place(left)
        if place is None or number not in (0, 1):
            return None
        none = (number == 0 and isinstance(op, ast.Eq | ast.LtE)) or (
            number == 1 and isinstance(op, ast.Lt))
        some = (number == 0 and isinstance(op, ast.NotEq | ast.Gt)) or (
            number == 1 and isinstance(op, ast.GtE))
        if not (none or some):
            return None
        return f"{self.node(place)} is {'empty' if none else 'not empty'}"

    def n_IfExp(self, n: ast.IfExp) -> str:
        return f"{self.node(n.body)} if {self.node(n.test)}, otherwise {self.node(n.orelse)}"

    # -- structure ----------------------------------------------------------------------
    def n_List(self, n: ast.List | ast.Tuple) -> str:
        if not n.elts:
            return "an empty list"
        return join_words([self.node(e) for e in n.elts])

    n_Tuple = n_List

    def n_Attribute(self, n: ast.Attribute) -> str:
        return f"the {humanize(n.attr)} of {self.node(n.value)}"

    def n_Subscript(self, n: ast.Subscript) -> str:
        base, index = n.value, n.slice
        if isinstance(base, ast.Name) and base.id in self.seat_indexed:
            whose = self.owner(index)
            seat = _number_written(index)
            if whose is None and seat is not None and seat > 0 and not isinstance(
                    self.glossary.get(base.id), Phrase):
                whose = f"Player {seat}’s"  # beads[2]: Player 2’s beads
            if whose is not None:
                return f"{whose} {self.node(base).removeprefix('the ')}"
            return f"{self.node(base)} of {self.node(index)}"
        if (isinstance(index, ast.UnaryOp) and isinstance(index.op, ast.USub)
                and isinstance(index.operand, ast.Constant)
                and type(index.operand.value) is int):
            index = ast.Constant(-index.operand.value)
        if isinstance(index, ast.Constant) and isinstance(index.value, int) and not isinstance(
                index.value, bool):
            k = index.value
            which = (_ORDINALS[k] if 0 <= k < len(_ORDINALS)
                     else f"last but {-k - 1}" if k < 0 else f"number {k + 1}")
            which = "last" if k == -1 else which
            return f"the {which} item of {self.node(base)}"
        if isinstance(base, ast.Name) and "{}" in self.glossary.get(base.id, ""):
            return fill(self.glossary[base.id], [self.node(index)])
        if isinstance(base, ast.List | ast.Tuple) and 1 < len(base.elts) <= len(_ORDINALS):
            # A table of values: "0, 1, 3 or 6 as the plant types of s is 0, 1, 2 or 3".
            values = join_words([self.node(v) for v in base.elts], "or")
            keys = join_words([str(k) for k in range(len(base.elts))], "or")
            return f"{values} as {self.node(index)} is {keys}"
        if isinstance(index, ast.Name) and not self._is_list(base) and not isinstance(
                base, ast.Call):
            said = self.node(base)
            if isinstance(base, ast.Name) and not said.startswith("the "):
                return f"the {said} of {self.node(index)}"
            return f"{said} at {self.node(index)}"
        said = self.node(base)
        if not isinstance(index, ast.Name | ast.BinOp | ast.UnaryOp):
            # A position worked out by a phrase of its own reads better after the list.
            return f"the item of {said} at position {self.node(index)}, counting from 0"
        item = " of " if said.startswith("the ") else " item of "
        return f"the {self._position(index)}-th{item}{said}"

    def _position(self, index: ast.expr) -> str:
        """Where item number `index` (counted from 0) stands, counted from 1, the
        arithmetic done where it can be: `s - 1` → s, `i + 1` → (i plus 2)."""
        if isinstance(index, ast.BinOp) and isinstance(index.op, ast.Add | ast.Sub):
            c = _number_written(index.right)
            if c is not None:
                c = c + 1 if isinstance(index.op, ast.Add) else 1 - c
                if c == 0:
                    said = self._operand(index.left, ast.Sub())
                    return said if " " not in said else f"({said})"
                word = "plus" if c > 0 else "minus"
                return f"({self._operand(index.left, ast.Sub())} {word} {abs(c)})"
            c = _number_written(index.left)
            if c is not None and isinstance(index.op, ast.Sub):
                return f"({c + 1} minus {self._operand(index.right, ast.Sub(), True)})"
        said = self.node(index)
        return f"({said} plus 1)"

    def n_Call(self, n: ast.Call) -> str:
        name = n.func.id if isinstance(n.func, ast.Name) else "?"
        phrase = self.glossary.get(name)
        # In a designer's words (a Phrase) an argument's sum keeps its brackets too.
        args = [self._operand(a) if len(n.args) > 1 or isinstance(phrase, Phrase)
                else self.node(a) for a in n.args]
        owners = {i: w for i, a in enumerate(n.args) if (w := self.owner(a)) is not None}
        if isinstance(phrase, Phrase):
            return phrase.fill(args, owners)
        if name in self.definitions:
            return definition_phrase(name, args, owners.get(0))
        fn = FUNCTIONS.get(name)
        if fn is None:
            return definition_phrase(name, args)
        if name == "place" and n.args and isinstance(n.args[0], ast.Constant):
            return str(n.args[0].value)
        if name in ("any", "all") and len(n.args) == 1 and isinstance(
                n.args[0], ast.GeneratorExp | ast.ListComp):
            comp = n.args[0]
            return self._binding(comp, lambda: self.quantified(comp, every=name == "all"))
        if name == "distinct" and len(n.args) == 1 and self._attribute_map(n.args[0]):
            comp = n.args[0]
            attr = humanize(comp.elt.attr)
            plural = attr if attr.endswith("s") else attr + "s"
            return f"the different {plural} among {self.node(comp.generators[0].iter)}"
        if name == "place_name" and args:
            return args[0]
        if name == "offset" and len(args) == 3 and not _a_direction(n.args[1]):
            return _vector_words(n.args[1], n.args[2], args)
        if name == "offset" and len(args) >= 2:
            direction = args[1]
            if len(args) == 2 or args[2] == "1":
                return f"the square next to {args[0]} towards {direction}"
            return f"the square {args[2]} steps from {args[0]} towards {direction}"
        if name == "repeat" and len(args) == 2:
            return (f"{args[1]} {args[0]}" if isinstance(n.args[0], ast.Constant | ast.Name)
                    else f"{args[1]} copies of {args[0]}")
        if name == "range" and len(n.args) in (1, 2):
            return self._range(n.args)
        if name in ("count", "len") and len(args) == 1:
            counted = args[0]
            head = head_noun(counted) if counted.startswith("the ") else None
            if (head is not None and is_plural(head)) or (
                    counted.startswith("the ") and self._is_filter_of(n.args[0])):
                counted = counted.removeprefix("the ")  # the number of pieces in X
            return f"the number of {counted}"
        if name == "reversed" and len(n.args) == 1 and isinstance(n.args[0], ast.Call) and (
                isinstance(n.args[0].func, ast.Name) and n.args[0].func.id == "sorted"
                and len(n.args[0].args) == 1):
            return f"{self.node(n.args[0].args[0])} from largest to smallest"
        if name == "sorted" and len(args) == 1:
            return f"{args[0]} from smallest to largest"
        if name in ("min", "max") and len(args) > 1:
            return f"the {'least' if name == 'min' else 'greatest'} of {join_words(args)}"
        if name in ("join",):
            return args[0]
        padded = args + [""] * (3 - len(args))
        return fill(fn.english, padded).replace("  ", " ").strip()

    def _range(self, bounds: list[ast.expr]) -> str:
        """`range(n)`: "the numbers from 0 to n minus 1", with the arithmetic done where
        it can be: `range(3)` → "0, 1 and 2", `range(n + 1)` → "from 0 to n"."""
        lo = bounds[0] if len(bounds) == 2 else ast.Constant(0)
        hi = bounds[-1]
        a, b = _number_written(lo), _number_written(hi)
        if a is not None and b is not None:
            numbers = [str(k) for k in range(a, b)]
            if not numbers:
                return "no numbers"
            if len(numbers) <= 4:
                return f"the {'number' if len(numbers) == 1 else 'numbers'} " + join_words(
                    numbers)
            return f"the numbers from {a} to {b - 1}"
        return f"the numbers from {self.node(lo)} to {self._less_one(hi)}"

    def _less_one(self, n: ast.expr) -> str:
        """`n - 1` in words, the arithmetic done where it can be (`x + 1` → x)."""
        k = _number_written(n)
        if k is not None:
            return str(k - 1)
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add | ast.Sub):
            c = _number_written(n.right)
            if c is not None:
                c = c - 1 if isinstance(n.op, ast.Add) else -c - 1
                if c == 0:
                    return self._operand(n.left, ast.Sub())
                word = "plus" if c > 0 else "minus"
                return f"{self._operand(n.left, ast.Sub())} {word} {abs(c)}"
        return f"{self._operand(n, ast.Sub())} minus 1"

    def _loop(self, g: ast.comprehension, with_article: bool = True) -> str:
        """`x in list if cond` as words: `the pieces *p* in the stash such that …`."""
        target, source = self.node(g.target), self.node(g.iter)
        m = re.match(r"^the (\w+) (of|in|on) (.*)$", source)
        if m:
            clause = f"the {m.group(1)} {target} {m.group(2)} {m.group(3)}"
            if not with_article:
                clause = clause.removeprefix("the ")
        else:
            clause = f"{target} in {source}"
        if g.ifs:
            clause += " such that " + join_words([self.node(c) for c in g.ifs])
        return clause

    def _is_filter_of(self, n: ast.AST) -> bool:
        """Whether `n` is `[x for x in X if …]` (said "the pieces *x* in X such that …")."""
        return isinstance(n, ast.GeneratorExp | ast.ListComp) and self._is_filter(n)

    def _is_filter(self, n: ast.GeneratorExp | ast.ListComp) -> bool:
        return (len(n.generators) == 1 and isinstance(n.elt, ast.Name)
                and isinstance(n.generators[0].target, ast.Name)
                and n.elt.id == n.generators[0].target.id)

    def _first_items(self, n: ast.GeneratorExp | ast.ListComp) -> str | None:
        """`[L[k] for k in range(n)]`: "the first n of L"."""
        if len(n.generators) != 1 or n.generators[0].ifs:
            return None
        g, elt = n.generators[0], n.elt
        if not (isinstance(g.target, ast.Name) and isinstance(elt, ast.Subscript)
                and isinstance(elt.slice, ast.Name) and elt.slice.id == g.target.id
                and isinstance(g.iter, ast.Call) and isinstance(g.iter.func, ast.Name)
                and g.iter.func.id == "range" and (len(g.iter.args) == 1 or (
                    len(g.iter.args) == 2 and _number_written(g.iter.args[0]) == 0))):
            return None
        if any(isinstance(x, ast.Name) and x.id == g.target.id for x in ast.walk(elt.value)):
            return None
        count = self._operand(g.iter.args[-1])
        listed = self.node(elt.value)
        if count.startswith(_DETERMINERS):  # a count said as a phrase of its own
            return f"as many of {listed}, from the first, as {count}"
        return (f"the first {count} of {listed}" if listed.startswith("the ")
                else f"the first {count} items of {listed}")

    def _comprehension(self, n: ast.GeneratorExp | ast.ListComp) -> str:
        first = self._first_items(n)
        if first is not None:
            return first
        loops = [self._loop(g) for g in n.generators]
        if self._is_filter(n):
            return loops[0]
        if self._attribute_map(n):
            # `[p.colour for p in X]`: the colour of each of X.
            return f"the {humanize(n.elt.attr)} of each of {self.node(n.generators[0].iter)}"
        element = self.node(n.elt)
        each = ", and ".join(("for each of " if loop.startswith("the ") else "for each ") + loop
                             for loop in loops)
        if any(isinstance(sub, ast.GeneratorExp | ast.ListComp) for sub in ast.walk(n.elt)):
            # A loop around a loop: brackets keep each "for each" with what it repeats.
            return f"{element} ({each})"
        return f"{element} {each}"

    @staticmethod
    def _attribute_map(n: ast.AST) -> bool:
        """Whether `n` is `[p.attribute for p in X]`, with no condition."""
        if not isinstance(n, ast.GeneratorExp | ast.ListComp) or len(n.generators) != 1:
            return False
        g = n.generators[0]
        return (not g.ifs and isinstance(n.elt, ast.Attribute)
                and isinstance(n.elt.value, ast.Name) and isinstance(g.target, ast.Name)
                and n.elt.value.id == g.target.id)

    def quantified(self, n: ast.GeneratorExp | ast.ListComp, every: bool) -> str:
        """`all(x for …)` / `any(x for …)` as `for all …, x` / `for at least one of …, x`."""
        loops = [self._loop(g) for g in n.generators]
        lead = "for all " if every else (
            "for at least one of " if loops[0].startswith("the ") else "for at least one ")
        joiner = ", and all " if every else ", and one of "
        return f"{lead}{joiner.join(loops)}, {self.node(n.elt)}"

    def _binding(self, n: ast.GeneratorExp | ast.ListComp, say: Callable[[], str]) -> str:
        names = {t.id for g in n.generators for t in ast.walk(g.target)
                 if isinstance(t, ast.Name)} - self.bound
        self.bound |= names
        try:
            return say()
        finally:
            self.bound -= names

    def n_GeneratorExp(self, n: ast.GeneratorExp) -> str:
        return self._binding(n, lambda: self._comprehension(n))

    def n_ListComp(self, n: ast.ListComp) -> str:
        return self._binding(n, lambda: self._comprehension(n))


class Describer:
    """Plain-text rendering; the rulebook generator may subclass it for richer output.

    Each line a primitive returns is one sentence; nested blocks are indented by
    ``indent`` per level. Any `snake_case` identifier a primitive writes is humanized.
    """

    indent = "  "

    def __init__(self, glossary: Mapping[str, str] | None = None,
                 value_names: Mapping[Any, str] | None = None, **options: Any) -> None:
        self.english = ExpressionEnglish(glossary, value_names, **options)

    def expr(self, e: Expr | None) -> str:
        return "nothing" if e is None else self.english.text(e.text)

    def cond(self, e: Expr, negate: bool = False) -> str:
        if not negate:
            return self.english.text(e.text)
        try:
            return self.english.negate(parse(e.text))
        except ExpressionError:
            return f"not {humanize(e.text)}"

    def text(self, t: Template | str, placeholders: bool = False) -> str:
        """A template in words; with `placeholders`, each computed part is marked
        (“Red shrinks the ‹*target*› to ‹the size of *now*›”), so a message quoted in the
        rules shows which words change from game to game."""
        source = t.text if isinstance(t, Template) else t
        out = []
        try:
            for is_expr, part, _ in split_template(source):
                if not is_expr:
                    out.append(part)
                    continue
                said = self.english.text(part)
                out.append(f"‹{said}›" if placeholders else said)
        except ExpressionError:
            return humanize_text(source)
        said = re.sub(r"\b([Tt]he) the\b", r"\1", " ".join("".join(out).split()))
        return re.sub(r"\b([Tt]he) ‹the\b", r"‹\1", said)

    @contextmanager
    def naming(self, phrases: Mapping[str, str]) -> Iterator[None]:
        """Words for names a primitive binds itself (`value`, `place` …) while it is said;
        a phrase with `{}` says a subscript (`assigned[n]`)."""
        saved = dict(self.english.glossary)
        self.english.glossary.update(phrases)
        try:
            yield
        finally:
            self.english.glossary = saved

    def appended(self, name: str, value: Expr) -> str | None:
        """What `name + [a, b]` adds to the list `name`, in words (None for other values)."""
        try:
            tree = parse(value.text)
        except ExpressionError:
            return None
        if (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Add)
                and isinstance(tree.left, ast.Name) and tree.left.id == name
                and isinstance(tree.right, ast.List) and tree.right.elts):
            return self.english.node(tree.right)
        return None

    def name(self, identifier: str) -> str:
        """A designer's name (local, parameter, attribute) as words."""
        return self.english.local(identifier)

    def var(self, n: Name) -> str:
        return self.english.glossary.get(n.text, humanize(n.text))

    def proc(self, n: Name) -> str:
        return humanize(n.text)

    def block(self, effects: list[Primitive]) -> list[str]:
        out: list[str] = []
        for e in effects:
            lines = [humanize_text(line) for line in e.english(self)]
            if e.text:
                # The designer's words first; the exact rule stays right under them.
                lines = [" ".join(e.text.split()),
                         *(self.indent + line for line in self.exactly(lines))]
            out.extend(self.indent + line for line in lines)
        return out

    @staticmethod
    def exactly(lines: list[str]) -> list[str]:
        """A generated rule shown under a designer's words: "Exactly: …" on its first line."""
        if not lines:
            return lines
        first = lines[0]
        bullet = "- " if first.startswith("- ") else ""
        first = first.removeprefix("- ")
        return [f"{bullet}Exactly: {first[:1].lower()}{first[1:]}", *lines[1:]]

    def sentences(self, effects: list[Primitive]) -> list[str]:
        """A whole block at the top level (no indent for its own effects)."""
        return [line[len(self.indent):] for line in self.block(effects)]

    def ranking(self, keys: list[Expr], subject: str = "seat") -> str:
        """The ranking as one sentence: the first key says who wins, each next one breaks
        the ties the keys before it leave ("…; if tied, the player with the fewest beads
        wins; if still tied, …"). The keys are said about the player being ranked, as one
        paragraph (their trios; that element)."""
        e = self.english
        clauses = []
        with e.about(subject), e.paragraph():
            for i, k in enumerate(keys):
                who = f"the player with {self.superlative(k)} wins"
                clauses.append(who if i == 0 else ("if tied, " if i == 1
                                                   else "if still tied, ") + who)
        return ("When the game ends without named winners, " + "; ".join(clauses)
                + ". Players still equal share the win (a draw).")

    def superlative(self, key: Expr, subject: str = "seat") -> str:
        """The best value of a ranking key: `trios(seat)` → "the most trios", `-beads[seat]`
        → "the fewest beads", `altitude(…)` → "the highest altitude of …"."""
        with self.english.about(subject):
            return self._superlative(key)

    def _superlative(self, key: Expr) -> str:
        try:
            tree = parse(key.text)
        except ExpressionError:
            return f"the highest {humanize(key.text)}"
        least = False
        while isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.USub | ast.UAdd):
            least ^= isinstance(tree.op, ast.USub)
            tree = tree.operand
        said = self.english.node(tree)
        return superlative_of(said, least)

    def scoring(self, score: Expr, subject: str = "seat") -> str:
        """What a player's score is, said about the player ("their stars")."""
        with self.english.about(subject):
            said = self.english.text(score.text)
        if said == "their score":
            return "Each player has a score."
        return f"A player's score is {said}."

    def option_head(self, o: OptionDef) -> str:
        head = humanize(o.id).capitalize()
        if o.for_:
            head += ", for each " + ", ".join(
                f"{self.name(k)} in {self.expr(v)}" for k, v in o.for_.items())
        if o.let:
            head += ", with " + ", ".join(
                f"{self.name(k)} being {self.expr(v)}" for k, v in o.let.items())
        if o.where is not None:
            head += f", where {self.cond(o.where)}"
        return head

    def option(self, o: OptionDef) -> list[str]:
        if o.text:
            return [f"{self.indent}- {' '.join(o.text.split())}"]
        return [f"{self.indent}- {self.option_head(o)}:",
                *(self.indent + line for line in self.block(o.do))]


_SLOT = re.compile(r"(\bthe )?\{(\d*)\}")

_ARTICLES = ("the ", "a ", "an ")


def fill(phrase: str, args: list[str]) -> str:
    """Put words into a phrase's `{}` / `{0}` slots. Never str.format: a phrase may hold a
    designer's text, and format would read `{x.__class__}` as Python. A slot after "the"
    filled with words that bring their own article keeps only theirs ("along the {1}
    side" with "the opposite of d" reads "along the opposite of d side")."""
    order = iter(range(len(args)))

    def slot(m: re.Match[str]) -> str:
        i = int(m.group(2)) if m.group(2) else next(order, None)
        if i is None or i >= len(args):
            return m.group(0)
        article = m.group(1) or ""
        return args[i] if article and args[i].startswith(_ARTICLES) else article + args[i]
    return _SLOT.sub(slot, phrase)


class Phrase(str):
    """A definition's own words (`says`), with its parameters' places: the words are a
    template of the language whose parts are the parameters, filled with the English of
    the arguments (and nothing of a designer's text is ever read as code)."""

    parts: tuple[str | int, ...]

    def fill(self, args: list[str], owners: Mapping[int, str] | None = None) -> str:
        """The words with the arguments' words in their places. An argument that owns
        what the words before it name (`owners`: "their") says so ("the goal element of
        {s}" → "their goal element"); a long argument said a second time is "it"."""
        out: list[str] = []
        said: set[int] = set()
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
                continue
            arg = args[p] if p < len(args) else ""
            whose = (owners or {}).get(p)
            m = _OWNED.search(out[-1]) if whose and out else None
            if m:
                out[-1] = out[-1][:m.start()] + f"{whose} {m.group(1)}"
                said.add(p)
                continue
            if p in said and _refers_as_it(arg):
                arg = "it"
            elif whose == "their":
                arg = "they"  # the subject of the sentence, acting: "they have won"
            said.add(p)
            out.append(arg)
        return _agree("".join(out))


_WORD = (r"(?!(?:the|of|a|an|and|or|in|on|at|to|from|by|for|with|where|which|that)\b)"
         r"[A-Za-z][\w-]*")
_OWNED = re.compile(rf"\bthe ({_WORD}(?: {_WORD})*) of $")
"""The end of a phrase's words that an argument after them owns: `the goal element of `."""


_THEY = re.compile(r"\bthey (has|is|was|does)\b")
_PLURAL_VERBS = {"has": "have", "is": "are", "was": "were", "does": "do"}


def _agree(words: str) -> str:
    """A verb after "they" in the plural ("they has won" → "they have won")."""
    return _THEY.sub(lambda m: f"they {_PLURAL_VERBS[m.group(1)]}", words)


def _refers_as_it(words: str) -> bool:
    """Whether a thing said again in the same phrase reads better as "it" (a long noun
    phrase about one thing, not a name or a number)."""
    head = head_noun(words)
    return head is not None and not is_plural(head) and len(words.split()) > 2


def numbered_phrase(says: str, params: list[str]) -> Phrase:
    """'{c} is in the stash' with params [c] → a Phrase that puts the first argument's
    words where {c} was."""
    parts: list[str | int] = []
    try:
        split = split_template(says)
    except ExpressionError:
        split = [(False, says, 0)]
    for is_expr, part, _ in split:
        name = part.strip()
        if is_expr and name in params:
            parts.append(params.index(name))
        else:
            parts.append(part if not is_expr else "{" + part + "}")
    phrase = Phrase("".join(p if isinstance(p, str) else "{" + params[p] + "}" for p in parts))
    phrase.parts = tuple(parts)
    return phrase


_PARTICIPLES = {"set", "put", "laid", "kept", "shown", "taken", "won", "done", "held", "left",
                "cast", "dealt", "drawn", "thrown", "aside", "away", "out", "off", "up",
                "down", "over", "apart", "spent", "lost", "used"}


def zone_phrase(label: str, kind: str) -> str:
    """A place's label inside a sentence: `The pet shop` → the pet shop, `Breeding tank`
    → the breeding tank, `A pile being made` → the pile being made; a pile whose label is
    only an adjective gets the noun (`Captured` → the captured pile). A label that names
    something (`Feeding Time! cards`) keeps its capitals."""
    words = label.split()
    articled = bool(words) and words[0].lower() in ("the", "a", "an")
    if articled:
        words = words[1:]  # after an article, the label's words keep their capitals
    if not words:
        return "the " + label
    if not articled and words[0][1:].islower() and (len(words) == 1 or words[1][:1].islower()):
        words[0] = words[0][:1].lower() + words[0][1:]
    if kind == "pile" and all(_is_adjective(w.lower()) or w.lower() in _PARTICIPLES
                              for w in words):
        words.append("pile")
    elif kind == "pile" and len(words) > 1 and words[0].lower() in _PARTICIPLES and (
            words[1] in _PREPOSITIONS):
        words.insert(0, "pile")  # Shown at the showdown: the pile shown at the showdown
    return "the " + " ".join(words)


def _counted_place(node: ast.AST) -> ast.AST | None:
    """X when `node` counts the pieces of X (`count(pieces(X))`, `height(X)`)."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or len(
            node.args) != 1:
        return None
    arg = node.args[0]
    if node.func.id == "height":
        return arg
    if (node.func.id in ("count", "len") and isinstance(arg, ast.Call)
            and isinstance(arg.func, ast.Name) and arg.func.id == "pieces"
            and len(arg.args) == 1):
        return arg.args[0]
    return None


def _number_written(node: ast.expr) -> int | None:
    """A whole number written out (3, -2), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number_written(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _a_direction(node: ast.expr) -> bool:
    """Whether offset()'s second argument is a direction (a text or a name), not the
    columns of a vector: a number written out, or arithmetic, is a vector."""
    return _number_written(node) is None and not isinstance(node, ast.BinOp | ast.UnaryOp)


def _vector_words(dx_node: ast.expr, dy_node: ast.expr, args: list[str]) -> str:
    """offset(p, dx, dy) in words: "the place 2 columns east and 1 row south of p"."""
    parts = []
    for node, text, plus, minus, unit in ((dx_node, args[1], "east", "west", "column"),
                                          (dy_node, args[2], "north", "south", "row")):
        value = _number_written(node)
        if value is None:
            parts.append(f"{text} {unit}s {plus}")
        elif value:
            way = plus if value > 0 else minus
            parts.append(f"{abs(value)} {unit}{'s' if abs(value) != 1 else ''} {way}")
    if not parts:
        return args[0]
    return f"the place {' and '.join(parts)} of {args[0]} (if there is one)"

