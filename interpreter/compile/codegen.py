"""Fast paths for expressions: Python source generated from the checked tree.

As Jinja2 compiles a template, an expression that the closure compiler of
``expressions.py`` has checked is written out as the source of one Python function
and compiled once. Only names this module makes up (``t3``, ``k7``) and ``repr``'d
literals ever reach that source; the ruleset's text is never evaluated. Tables and
built-ins are handed to the function in its namespace under generated names;
comprehension variables and definition parameters become Python locals; loops become
``for`` statements.

The checked closures stay as the careful slow path. The generated code handles the
values rules usually meet; when it meets anything else (a null piece, a place given by
name, two values that cannot be compared) it gives up with a ``TypeError``, the steps
it charged are handed back, and the closures evaluate the expression again, giving the
exact located message, or the value of the rare case. So argument checks are off the
fast path and every error reads as before.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from interpreter.compile import expressions as ex
from interpreter.compile import memo
from interpreter.compile.functions import first_of_each_kind
from interpreter.errors import BudgetError, RuleError
from interpreter.run.budget import option_values, overspent, too_long
from interpreter.run.machine import CALLS
from interpreter.run.state import EMPTY, dense
from interpreter.run.tables import (
    ALL_DIRECTIONS,
    DIAGONAL,
    HEX_ORDER,
    ORTHOGONAL,
    PieceVariable,
    SeatVariable,
    unique_options,
)


class Slow(TypeError):
    """The fast path met a value it leaves to the careful path."""


class Unwritable(Exception):
    """A node the writer has no code for: only a tree the closures refused can hold one
    (a definition inlined before its own error is reported), so the closures stand."""


FAST_FAILURES = (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError,
                 ZeroDivisionError)
"""What makes a generated function hand over to the closures (a RecursionError is not
retried: the closures would only recurse deeper)."""


def give_up(*_: Any) -> Any:
    """Called by generated code where the careful path must take over."""
    raise Slow


def none_or_give_up(value: Any) -> None:
    """`null.attr` is null; anything else that is not a piece is the careful path's."""
    if value is None:
        return None
    raise Slow


_LENGTH_TIMES = re.compile(r"len\((\w+)\)(?: \* (\S+))?")
_SETTLED = re.compile(r"t\d+ = (True|False|0)")
_USES_ENV = re.compile(r"\benv\b")
"""A charge by the length of a list (times a number)."""


def overspent_part(env: Any, rests: tuple[int, ...]) -> None:
    """Several constant charges made at once went past the budget: stop where the first
    of them that went past would have stopped (`rests`: what was added after each
    check the merged charges had), so the steps read as step-by-step charging leaves them."""
    for rest in rests:
        if env.steps - rest > env.step_limit:
            env.steps -= rest
            break
    overspent(env)


def forget(cache: dict[str, Any], kept: int) -> None:
    """Hand back the definitions the fast path computed (in insertion order, after the
    first `kept`), so the careful path computes and charges them as it would have (the
    remembered calls go too: their steps left out what is handed back)."""
    for key in list(cache)[kept:]:
        del cache[key]
    cache.pop(CALLS, None)


def remembered(env: Any, function: Callable[..., Any], *args: Any) -> Any:
    """`function(env, *args)`: a definition with parameters that draws nothing and loops
    (`Writer.worth_remembering`). Its value and the steps it charged are remembered for
    the state as it is, and a call with the same arguments (numbers, texts, null) charges
    those steps again at once instead of computing it. The steps are remembered only
    from a call that put no definition into the cache (a later call would charge less),
    charged at once only when the budget allows them all (else the call runs, to stop at
    the very step the careful path stops at); any change to the state, or a definition
    forgotten, forgets them all (run.machine.CALLS)."""
    for a in args:
        if type(a) is not int and type(a) is not str and a is not None:
            return function(env, *args)  # (1 == True == 1.0: only plain keys)
    cache = env.cache
    calls = cache.get(CALLS)
    if calls is None:
        calls = cache[CALLS] = {}
    key = (function, *args)
    found = calls.get(key)
    if found is not None and env.steps + found[1] <= env.step_limit:
        env.steps += found[1]
        return found[0]
    before, cached = env.steps, len(cache)
    value = function(env, *args)
    if len(cache) == cached:
        calls[key] = (value, env.steps - before)
    return value


def remembered1(env: Any, function: Callable[..., Any], a: Any) -> Any:
    """`remembered` for one argument, written out (the hottest calls take one)."""
    if type(a) is not int and type(a) is not str and a is not None:
        return function(env, a)
    cache = env.cache
    calls = cache.get(CALLS)
    if calls is None:
        calls = cache[CALLS] = {}
    found = calls.get((function, a))
    if found is not None and env.steps + found[1] <= env.step_limit:
        env.steps += found[1]
        return found[0]
    before, cached = env.steps, len(cache)
    value = function(env, a)
    if len(cache) == cached:
        calls[(function, a)] = (value, env.steps - before)
    return value


def subscript(env: Any, container: Any, key: Any) -> Any:
    """`a[k]` for what is not a plain list: a zone or a per-seat variable looks up."""
    getter = getattr(container, "lookup", None)
    if getter is not None:
        return getter(env, key)
    return container[key]


_LIST_KINDS = frozenset((list, tuple))
"""What makes going through a list more than its length (see run.budget.walk_steps)."""


def unpack(item: Any, n: int, names: str) -> Any:
    """A comprehension over pairs: the same message as the closures when it cannot."""
    if isinstance(item, list | tuple) and len(item) == n:
        return item
    raise RuleError(f"cannot unpack {ex.kind_of(item)} into {names}")


_BUILTINS: dict[str, Any] = {"type": type, "int": int, "float": float, "list": list,
                             "range": range, "str": str, "len": len, "sum": sum, "abs": abs,
                             "map": map, "sorted": sorted, "tuple": tuple}
"""The only Python built-ins generated code names."""

_KEPT_KINDS = (ast.IfExp, ast.BinOp, ast.Compare, ast.BoolOp, ast.Call, ast.Attribute,
               ast.Subscript, ast.UnaryOp)
"""Parts that, the same in every turn of a loop, are computed once (see kept_value)."""

MAX_UNROLLED = 8
"""The most constants a comprehension's innermost loop may go through to be unrolled."""
MAX_UNROLLED_TURNS = 32
"""The most times unrolled loops, one inside another, may write out the same code."""

_INITS = "#kept-at-depth-"
"""The marker line where a loop's turn starts (see _Writer.set_kept_afresh)."""

OUTSIDE_LOOP = 1 << 30
"""The depth given to a variable of a loop the writer's `loops` does not write (an
option's `for`, the deal's place): no part that uses it is ever kept."""

_UNSET = object()
"""What a kept definition's arguments are before its first call (see kept_call)."""

_WRITTEN_OUT = 64
"""The longest range() of constants written out as a list in the generated source."""

_LARGEST_TABLE = 100_000
"""The most entries the offsets at every distance may take (distances × directions ×
squares): larger boards look distances up by the built-in."""


@dataclass
class KeptBlock:
    """The lines kept_call wrote for a call whose value is a list of places, the test
    that it is kept (`same`), the name keeping its value and the one keeping its steps
    with the list's length."""
    lines: list[str]
    same: str
    kept: str
    and_length: str


@dataclass
class Deferred:
    """An argument of an inlined definition: generated where the body uses it, with the
    caller's names (so it is evaluated as lazily as the closures evaluate it)."""

    node: ast.expr
    scope: ex.Scope
    names: dict[str, Any]


@dataclass
class GeneratedCode:
    """One generated function, kept for `tabletop compile`."""

    name: str
    what: str
    source: str
    legend: dict[str, str] = field(default_factory=dict)
    """What each generated name of an object stands for (k3: built-in top)."""


@dataclass
class CodeHooks:
    """What the game compiler lends code generation: its definitions, and a place to
    keep the generated source."""

    definition: Callable[[str], tuple[list[str], str] | None]
    """A definition's parameters and body text."""
    function: Callable[[str], Callable[..., Any]]
    """The generated function of a definition with parameters: f(env, *args)."""
    ruleset_scope: Callable[[], ex.Scope]
    """The scope a definition's body is written in."""
    offsets: Callable[[int], dict[str, dict[int, int | None]] | None] = lambda d: None
    """For a distance: direction → grid square → the square that far that way (null off
    the board); None while the board is not laid out yet."""
    neighbours: Callable[[tuple[str, ...] | None], dict[int, list[int]] | None] = (
        lambda dirs: None)
    """For some directions (all eight when None): grid square → its neighbours."""
    vectors: Callable[[int, int], dict[int, int | None] | None] = lambda dx, dy: None
    """For a vector: board place → the place dx columns east and dy rows north (null off
    the board); None while the board is not laid out yet."""
    places: Callable[[], int | None] = lambda: None
    """How many places the game has; None while the board is not laid out yet."""
    small: Callable[[str], bool] = lambda name: True
    """Whether a definition is small enough to be written out in place (the closures
    ask the same: see expressions.written_in_place)."""
    sink: list[GeneratedCode] = field(default_factory=list)
    numbers: Iterator[int] = field(default_factory=itertools.count)
    """Numbers the generated functions' names (e0, list1) game by game: a recompile
    writes the same source, whose code is remembered (memo.py)."""
    distances: dict[str, Any] = field(default_factory=dict)
    """The offsets at every distance that stays on the boards, once made (see
    _Writer.distance_tables)."""
    uses: dict[str, dict[str, tuple[int, bool]]] = field(default_factory=dict)
    plain: dict[str, bool] = field(default_factory=dict)
    """For each definition: whether its value is never a list."""
    flat: dict[str, bool] = field(default_factory=dict)
    """For each definition: whether its value, a list, can never hold a list."""
    loops: dict[str, bool] = field(default_factory=dict)
    """For each definition: whether it loops (see _Writer.worth_remembering)."""
    draws: dict[str, bool] = field(default_factory=dict)
    """For each definition: whether it may draw at random (see _Writer.draws)."""


class _Writer:
    """Writes the body of one function; every value becomes a Python expression over
    generated names, with statements emitted before it where needed."""

    def __init__(self, scope: ex.Scope, hooks: CodeHooks) -> None:
        self.scope = scope
        self.hooks = hooks
        self.names: dict[str, Any] = {}
        self.lines: list[str] = []
        self.spent: dict[str, str] = {}
        """For a kept part that charges steps (by its name): the name of its steps."""
        self.kept_calls: dict[tuple[str, ...], tuple[list[str], str, str, str | None]] = {}
        self.kept_results: set[str] = set()
        self.kept_blocks: dict[str, KeptBlock] = {}
        """For what kept_call gives (by its name): the lines that gave it (see contains)."""
        self.sourcing = False
        """Whether what a loop goes through is being written (a definition's value there
        is kept: the loop's turns often call it again)."""
        self.chained = False
        """Whether the turns of the unrolled loop being written are chained (see loops)."""
        self.assumed: dict[str, str] = {}
        """Kept names of true-or-false parts with the value (`True`, `False`) the code being
        written may take them to hold (see unswitched)."""
        self.kept_tests: list[tuple[str, int]] = []
        """Each kept true-or-false part as it is read (its kept name and level), in order."""
        self.decided = False
        """Whether a turn of the chained quantifier being written decided it at compile time
        (its element a constant): the turns after it are never written."""
        """The names holding what kept_call gives (kept there already)."""
        """What kept_call keeps of each call (by function and arguments' codes)."""
        self.unrolled = 1
        """How many times the code being written is written out (the product of the
        turns of the unrolled loops around it)."""
        self.barriers: set[tuple[int, int]] = set()
        """Where a charge must not be added to the one before it (by list and length of
        the lines): between two values, as `values` may put a line there."""
        self.indent = 2
        self.counter = itertools.count()
        self.objects: dict[int, str] = {}
        self.namespace: dict[str, Any] = dict(_BUILTINS)
        self.prologue: dict[str, str] = {}
        self.legend: dict[str, str] = {}
        self.random = False
        self.caches = False
        self.lists: set[str] = set()
        """Codes known to be lists (literals, comprehensions built here)."""
        self.precomputed: dict[int, str] = {}
        """Parts of an option's condition already computed in an outer loop (by node)."""
        self.loop_sources: set[int] = set()
        """Calls (by node) whose list a loop only reads: a table's list needs no copy."""
        self.only_read = False
        self.loop_depth = 0
        self.loop_vars: dict[str, int] = {}
        """The generated names of loop variables (what changes from turn to turn), each
        with the depth of its loop (from 1)."""
        self.loop_inits: list[list[str]] = []
        """For each loop being written, outermost first: what is kept for one turn of it
        (set afresh at the start of each turn)."""
        self.kept: dict[tuple[Any, int], str] = {}
        """The name keeping each invariant code, by code and depth."""
        self.keeping: int | None = None
        """While an invariant part is being written, the level it is kept at: its own parts
        are kept only at a lower one (a scan's own mark, kept for every direction, compares
        with mark_of(s), kept for the whole expression)."""
        """How many loops deep the code being written runs."""
        self.texts: set[str] = set()
        """Codes known to be texts (a loop's variable over a list of text constants)."""
        self.ints: set[str] = set()
        """Codes known to be whole numbers (a loop's variable over whole-number constants)."""
        self.int_items: dict[str, frozenset[int]] = {}
        """For a loop's variable over whole-number constants: those numbers."""
        self.piece_lists: set[str] = set()
        """Codes known to be lists of pieces (what pieces() gave)."""
        self.scalars: set[str] = set()
        """Codes known not to be lists (a piece attribute, a number or text literal)."""
        self.places: set[str] = set()
        """Codes known to be places (whole numbers from 0): what a loop over a list of
        places gives, so reading a place needs no check of what it is."""
        self.place_lists: set[str] = set()
        """Codes known to be lists of places (a zone's cells, a square's neighbours)."""
        self.places_or_null: set[str] = set()
        """Codes known to be a place or null (a board's offset table read at a place):
        reading one needs only a test for null."""
        self.pieces_or_null: set[str] = set()
        """Codes known to be a piece or null (the top of a place): reading an attribute
        of one needs only a test for null."""
        self.flat: set[str] = set()
        """Codes known to be lists that hold no list: going through one costs its
        length, whatever compares it (see run.budget.walk_steps)."""
        self.inline = scope.inline
        """Whether the expression being written may have small definitions written out
        in place (as its closures decided: see expressions.Scope.inline)."""
        self.inline_of: dict[int, bool] = {}
        """That decision for the nodes of each expression, where one function writes
        several (a template's parts, an option's lists and condition)."""

    # -- output ---------------------------------------------------------------------------
    def emit(self, line: str) -> None:
        self.lines.append("    " * self.indent + line)

    def charge(self, amount: str, indent: str = "") -> None:
        """Charge `amount` (code) to the steps, stopping when the budget is spent, as the
        careful path charges. A constant charge right after another is added to it: one
        addition and one test, which stop where the first of them would have stopped."""
        if self.merge_charge(amount, indent):
            return
        self.emit(f"{indent}env.steps += {amount}")
        self.emit(f"{indent}if env.steps > env.step_limit: {self.obj(overspent)}(env)")

    def merge_charge(self, amount: str, indent: str) -> bool:
        """Add `amount` to the charge just written at the same place when nothing comes
        between them and computing it cannot fail (a number, or a multiple of the length
        of a known list): one addition and one test, the budget's stop as before."""
        if not self.certain_amount(amount) or len(self.lines) < 2 or (
                (id(self.lines), len(self.lines)) in self.barriers):
            return False
        pad = "    " * self.indent + indent
        settled = 0  # (a name given a constant after the charge, as a quantifier's
        # first value, or where a loop's kept names are set: set before it instead,
        # which neither fails nor charges)
        while len(self.lines) > settled + 2 and self._settled(self.lines[-1 - settled], pad) \
                and (id(self.lines), len(self.lines) - settled - 1) not in self.barriers:
            settled += 1
        if settled:
            moved = self.lines[-settled:]
            del self.lines[-settled:]
            if not self.merge_charge(amount, indent):
                self.lines += moved
                return False
            self.lines[-2:-2] = moved
            return True
        added, check = self.lines[-2:]
        start, stop = f"{pad}env.steps += ", f"{pad}if env.steps > env.step_limit: "
        if not (added.startswith(start) and check.startswith(stop)):
            return False
        amounts = added[len(start):].split(" + ")
        if not all(self.certain_amount(a) for a in amounts):
            return False
        rests = [" + ".join(amounts[i:]) for i in range(1, len(amounts))]
        if check != f"{stop}{self.obj(overspent)}(env)" and check != (
                f"{stop}{self.obj(overspent_part)}(env, ({', '.join(rests)},))"):
            return False
        amounts.append(amount)
        rests = [" + ".join(amounts[i:]) for i in range(1, len(amounts))]
        self.lines[-2:] = [f"{start}{' + '.join(amounts)}",
                           f"{stop}{self.obj(overspent_part)}(env, ({', '.join(rests)},))"]
        return True

    @staticmethod
    def _settled(line: str, pad: str) -> bool:
        """Whether `line` gives a name a constant (see merge_charge)."""
        stripped = line.lstrip()
        return line.startswith(pad) and (_SETTLED.fullmatch(line.removeprefix(pad)) is not None
                                         or stripped.startswith(_INITS))

    def certain_amount(self, amount: str) -> bool:
        """Whether `amount` (code) is a whole number computed without fail or effect."""
        if amount.isdigit():
            return True
        match = _LENGTH_TIMES.fullmatch(amount)
        return match is not None and match[1] in self.lists and (
            match[2] is None or match[2].isdigit())

    def tmp(self, prefix: str = "t") -> str:
        return f"{prefix}{next(self.counter)}"

    def obj(self, value: Any, label: str | None = None) -> str:
        """A generated name for an object the code uses (a table, a function)."""
        key = id(value)
        name = self.objects.get(key)
        if name is None:
            name = self.objects[key] = f"k{len(self.objects)}"
            self.namespace[name] = value
            self.legend[name] = label or getattr(value, "__name__", type(value).__name__)
        return name

    def uses(self, var: str, code: str) -> str:
        self.prologue[var] = code
        return var

    def capture(self, node: ast.expr) -> tuple[list[str], str]:
        """Generate `node` one level deeper, returning its statements apart (for a part
        that must only run when a condition holds)."""
        saved = self.lines
        self.lines = []
        self.indent += 1
        try:
            code = self.value(node)
            return self.lines, code
        finally:
            self.indent -= 1
            self.lines = saved

    @staticmethod
    def is_atom(code: str) -> bool:
        return code.isidentifier() or _is_literal(code)

    def atom(self, code: str) -> str:
        """`code` as a name or literal, so it can be read twice."""
        if self.is_atom(code):
            return code
        t = self.tmp()
        self.emit(f"{t} = {code}")
        self.same_kind(t, code)
        return t

    def same_kind(self, t: str, code: str) -> None:
        """`t` holds what `code` gives: what is known of one is known of the other."""
        for known in (self.lists, self.scalars, self.places, self.place_lists, self.flat,
                      self.texts, self.ints, self.piece_lists, self.places_or_null,
                      self.pieces_or_null):
            if code in known:
                known.add(t)

    def is_flat(self, code: str) -> bool:
        return code in self.flat or code in self.place_lists or code in self.piece_lists

    def is_list(self, code: str) -> bool:
        return code in self.lists or (code.startswith("[") and code.endswith("]")
                                       and _is_list_display(code))

    def unknown_lists(self, *codes: str) -> str:
        """The tests that `codes` are lists, for those not known to be (each followed by
        `and`): a list built or kept here needs none."""
        return "".join(f"type({c}) is list and " for c in codes if not self.is_list(c))

    def is_scalar(self, code: str) -> bool:
        return code in self.scalars or code in self.places or _is_literal(code)

    def values(self, nodes: list[ast.expr]) -> list[str]:
        """Several values in order: one whose statements come after an earlier value's
        expression makes that earlier value computed first."""
        out: list[tuple[int, int, str]] = []
        for node in nodes:
            start = len(self.lines)
            if out:  # (where a line may be put: the end of the value before)
                self.barriers.add((id(self.lines), start))
            code = self.value(node)
            out.append((start, len(self.lines), code))
        codes = [c for _, _, c in out]
        later_lines = False  # (whether any value after the i-th wrote statements)
        for i in range(len(out) - 2, -1, -1):
            later_lines = later_lines or out[i + 1][0] != out[i + 1][1]
            if later_lines and not self.is_atom(codes[i]):
                t = self.tmp()
                self.lines.insert(out[i][1], "    " * self.indent + f"{t} = {codes[i]}")
                self.same_kind(t, codes[i])
                codes[i] = t
        return codes

    # -- nodes ----------------------------------------------------------------------------
    def expression(self, tree: ast.expr, inline: bool) -> None:
        """Note that `tree` is an expression of its own, whose small definitions are
        written out in place or not as `inline` says."""
        for node in ast.walk(tree):
            self.inline_of[id(node)] = inline

    def value(self, node: ast.expr) -> str:
        found = self.precomputed.get(id(node))
        if found is not None:
            return found
        method = getattr(self, "g_" + type(node).__name__, None)
        if method is None:
            raise Unwritable(type(node).__name__)
        if self.loop_depth and isinstance(node, _KEPT_KINDS) and not self.scope.track_pieces:
            level = self.invariant(node)
            if level is not None and level < (
                    self.loop_depth if self.keeping is None else self.keeping):
                if self.assumed and (known := self.assumed.get(
                        self.kept.get((self.meaning(node), level), ""))) is not None:
                    return known
                saved, self.lines = self.lines, []
                caches, self.caches = self.caches, False
                self.indent += 1
                keeping, self.keeping = self.keeping, level
                try:
                    code = self.written(node, method)
                    lines = self.lines
                finally:
                    self.keeping = keeping
                    self.indent -= 1
                    self.lines = saved
                    cached, self.caches = self.caches, caches or self.caches
                if any("env.steps +=" in line for line in lines):
                    if _is_literal(code) or _constant_items(code) is not None or (
                            code in self.kept_results):
                        # (a constant such as range(3)'s list: charged where it is; a
                        # definition's value, kept by kept_call)
                        block = self.kept_blocks.get(code)
                        if block is not None:  # (its lines as written here)
                            block.lines = [line[4:] for line in block.lines]
                        if len(lines) == 2 and all(_charging(line) for line in lines):
                            self.recharge(lines, "")  # (added to a charge just before)
                        else:
                            self.lines += [line[4:] for line in lines]
                        return code
                    # it charges steps: kept, they are charged again at once
                    return self.kept_charged(code, level, lines, self.meaning(node), cached)
                if lines or (not self.is_atom(code) and "(" in code):
                    meaning = self.meaning(node)
                    r = self.kept_value(code, level, lines, meaning, cached)
                    if isinstance(node, ast.Compare):  # (its value: True or False)
                        self.kept_tests.append((self.kept[(meaning, level)], level))
                    return r
                return code
        return self.written(node, method)

    def invariant(self, node: ast.expr) -> int | None:
        """How many of the loops around `node` it depends on (the innermost whose
        variable it uses, also through the arguments of a definition written out in
        place; 0 for none): in every turn of the loops inside that one it gives the same
        value. None when it may draw at random."""
        level = 0
        for sub in self.parts(node):
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                name = sub.func.id
                if name in self.scope.definitions:
                    if self.draws(name, frozenset()):
                        return None
                elif name not in self.scope.functions or self.scope.functions[name].random:
                    return None
            elif isinstance(sub, ast.Name):
                entry = self.names.get(sub.id)
                if isinstance(entry, str):
                    level = max(level, self.loop_vars.get(entry, 0))
                elif isinstance(entry, Deferred):
                    saved = self.names
                    self.names = entry.names
                    try:
                        inner = self.invariant(entry.node)
                    finally:
                        self.names = saved
                    if inner is None:
                        return None
                    level = max(level, inner)
        return level

    def parts(self, node: ast.expr) -> Iterator[ast.AST]:
        """The parts of `node` its value depends on: all of them (as ast.walk), but of
        an offset at distance 0 from a place only the place (the square itself, in
        whichever direction: the same in every turn of a loop over directions)."""
        stack: list[ast.AST] = [node]
        while stack:
            sub = stack.pop()
            yield sub
            if isinstance(sub, ast.Call) and self.offset_itself(sub):
                stack.append(sub.args[0])
            else:
                stack.extend(ast.iter_child_nodes(sub))

    def offset_itself(self, node: ast.Call) -> bool:
        """Whether `node` is offset(place, d, 0) with d a direction of the board whose
        table at distance 0 gives each square itself (a place not on the board is not in
        it: the careful path, whatever the direction)."""
        if not (isinstance(node.func, ast.Name) and node.func.id == "offset"
                and "offset" not in self.scope.definitions and len(node.args) == 3
                and not node.keywords):
            return False
        place, direction, distance = node.args
        code = self.names.get(place.id) if isinstance(place, ast.Name) else None
        if not (isinstance(code, str) and code in self.places):
            return False
        k, d = self.constant_code(distance), self.constant_code(direction)
        if k is None or d is None or _int_value(k) != 0 or _text_value(d) is None:
            return False
        tables = self.hooks.offsets(0)
        d = _text_value(d)
        table = tables.get(d) if tables is not None else None
        return table is not None and all(k == v for k, v in table.items())

    def constant_code(self, node: ast.expr) -> str | None:
        """The code of a constant written out, or of a name an unrolled loop's turn
        binds to one."""
        if isinstance(node, ast.Constant):
            return _literal(node.value) if type(node.value) in (int, str) else None
        code = self.names.get(node.id) if isinstance(node, ast.Name) else None
        return code if isinstance(code, str) else None

    def meaning(self, node: ast.expr) -> tuple[Any, ...]:
        """What `node` means where it is written: the node with what each of its names
        stands for (the same node written again in an unrolled loop's next turn means
        the same, unless it reads the loop's variable)."""
        names = sorted({sub.id for sub in self.parts(node) if isinstance(sub, ast.Name)})
        return (id(node), *((n, e if isinstance(e := self.names.get(n), str) else id(e))
                            for n in names))

    def kept_value(self, code: str, level: int, lines: list[str],
                   meaning: tuple[Any, ...] | None = None, cached: bool = True) -> str:
        """`code`, the same in every turn of the loops inside the `level`-th around it,
        computed at its first use in a turn of that loop (of the function, for 0) and
        kept for the others, when computing it charged no steps and put no definition
        into the cache (then computing it again would charge nothing either: the state
        does not change while an expression is computed). The same code at the same
        level shares what is kept. Unless `cached` (it may compute a definition), only
        the steps are compared; what hands nothing the environment can charge nothing
        and is kept as it is."""
        unset = self.obj(_UNSET, "not computed yet")
        kept = self.kept.get((code, level)) or self.kept.get((meaning, level))
        if kept is None:
            kept = self.kept[(code, level)] = self.tmp("c")
            if meaning is not None:
                self.kept[(meaning, level)] = kept
            if level == 0:
                self.uses(kept, unset)
            else:
                self.loop_inits[level - 1].append(kept)
        elif meaning is not None:  # (the same code written for another node)
            self.kept.setdefault((meaning, level), kept)
        before, r = self.tmp("c"), self.tmp()
        now = "(env.steps, len(env.cache))" if cached else "env.steps"
        guarded = cached or any(_USES_ENV.search(line) for line in [*lines, code])
        self.emit(f"if {kept} is {unset}:")
        if guarded:
            self.emit(f"    {before} = {now}")
        self.lines += lines
        self.emit(f"    {r} = {code}")
        self.emit(f"    if {before} == {now}: {kept} = {r}" if guarded else f"    {kept} = {r}")
        self.emit("else:")
        self.emit(f"    {r} = {kept}")
        self.same_kind(r, code)
        return r

    def kept_charged(self, code: str, level: int, lines: list[str],
                     meaning: tuple[Any, ...], cached: bool = True) -> str:
        """`code`, the same in every turn of the loops inside the `level`-th around it,
        computing which charges steps: as kept_call keeps a definition's value, its value
        and the steps it charged are kept from a computation that put no definition into
        the cache, and the steps are charged again at once when the budget allows them
        all (else it is computed again, to stop at the very step the closures stop at).
        Unless `cached` (it may compute a definition), the cache is not looked at."""
        unset = self.obj(_UNSET, "not computed yet")
        kept = self.kept.get((("charged", meaning), level))
        if kept is None:
            kept = self.kept[(("charged", meaning), level)] = self.tmp("c")
            self.spent[kept] = self.uses(self.tmp("c"), "0")
            if level == 0:
                self.uses(kept, unset)
            else:
                self.loop_inits[level - 1].append(kept)
        spent = self.spent[kept]
        before, count, r = self.tmp("c"), self.tmp("c"), self.tmp()
        self.emit(f"if {kept} is not {unset} and env.steps + {spent} <= env.step_limit:")
        self.emit(f"    env.steps += {spent}")
        self.emit(f"    {r} = {kept}")
        self.emit("else:")
        if cached:
            self.emit(f"    {before}, {count} = env.steps, len(env.cache)")
        else:
            self.emit(f"    {before} = env.steps")
        self.lines += lines
        self.emit(f"    {r} = {code}")
        self.emit(f"    if len(env.cache) == {count}: {kept}, {spent} = {r}, env.steps - {before}"
                  if cached else f"    {kept}, {spent} = {r}, env.steps - {before}")
        self.same_kind(r, code)
        return r

    def written(self, node: ast.expr, method: Callable[[ast.expr], str]) -> str:
        inline = self.inline_of.get(id(node))
        if inline is None or inline == self.inline:
            return method(node)
        saved, self.inline = self.inline, inline
        try:
            return method(node)
        finally:
            self.inline = saved

    def g_Constant(self, node: ast.Constant) -> str:
        return _literal(node.value)

    def g_Name(self, node: ast.Name) -> str:
        name = node.id
        entry = self.names.get(name)
        if isinstance(entry, str):
            return entry
        if isinstance(entry, Deferred):
            return self.deferred(entry)
        scope = self.scope
        if name in scope.temps:
            return f"{self.uses('tp', 'env.temps')}[{name!r}]"
        if name in scope.locals:
            return f"{self.uses('lc', 'env.locals')}[{name!r}]"
        if name in ex._CONSTANT_NAMES:
            return _literal(ex._CONSTANT_NAMES[name])
        found = scope.resolve_global(name)
        if isinstance(found, ex.Constant) and _plain(found.value):
            return _literal(found.value)
        if isinstance(found, ex.Constant):
            return self.obj(found.value, name)
        if isinstance(found, ex.StateRead):
            if "env.state" not in found.code:
                return found.code
            return found.code.replace("env.state", self.uses("st", "env.state"))
        self.caches = True  # a definition may be computed and kept in env.cache
        key = getattr(found, "cache_key", None)
        if key is not None:  # a definition without parameters: its value while it lasts
            cache = self.uses("ch", "env.cache")
            code = f"({cache}[{key!r}] if {key!r} in {cache} else {self.obj(found, name)}(env))"
            if never_a_list(node, scope, self.hooks):
                self.scalars.add(code)
            elif flat_list(node, scope, self.hooks):
                self.flat.add(code)
            return code
        return f"{self.obj(found, name)}(env)"

    def deferred(self, d: Deferred) -> str:
        saved = self.scope, self.names
        self.scope, self.names = d.scope, d.names
        try:
            return self.value(d.node)
        finally:
            self.scope, self.names = saved

    def g_BoolOp(self, node: ast.BoolOp) -> str:
        word = "and" if isinstance(node.op, ast.And) else "or"
        code = self.value(node.values[0])
        for part in node.values[1:]:
            if code in ("True", "False"):  # a part known here (see unswitched)
                if (code == "False") == (word == "and"):
                    return code  # it decides: the parts after it are never computed
                code = self.value(part)
                continue
            lines, right = self.capture(part)
            if not lines:
                code = f"({code} {word} {right})"
                continue
            t = self.tmp()
            self.emit(f"{t} = {code}")
            self.emit(f"if {t}:" if word == "and" else f"if not {t}:")
            self.lines.extend(lines)
            self.emit(f"    {t} = {right}")
            code = t
        return code

    def g_BinOp(self, node: ast.BinOp) -> str:
        symbol = ex._BINOP_SYMBOLS[type(node.op)]
        slow = self.obj(ex._arithmetic(symbol, self.scope.limits))
        a, b = self.values([node.left, node.right])
        if symbol not in "+-":
            return f"{slow}(env, {a}, {b})"
        a, b = self.atom(a), self.atom(b)
        if symbol == "+" and (self.is_list(a) or self.is_list(b)):
            return self.concatenation(a, b, slow)
        big = self.scope.limits.largest_number
        x, y = _int_value(a), _int_value(b)
        if x is not None and y is not None and -big <= (z := x + y if symbol == "+" else x - y
                                                        ) <= big:
            return _literal(z)  # two constants (an unrolled loop's turn): worked out here
        checks = [f"type({x}) is int" for x in (a, b) if not _is_int_literal(x)]
        r = self.tmp()
        self.emit(f"{r} = {r} if {' and '.join([*checks, ''])}-{big} <= ({r} := {a} {symbol} {b})"
                  f" <= {big} else {slow}(env, {a}, {b})")
        return r

    def concatenation(self, a: str, b: str, slow: str) -> str:
        """`list + list`, charged by its length like the careful path."""
        r = self.tmp()
        limit = self.scope.limits.list_length
        if not self.unknown_lists(a, b):  # two lists: in one line (a charge after it, as
            # sorted's, is then added to its charge)
            self.emit(f"if len({a}) + len({b}) > {limit}: {slow}(env, {a}, {b})  # (too long)")
            self.emit(f"{r} = {a} + {b}")
            self.lists.add(r)
            self.charge(f"len({r})")
            if self.is_flat(a) and self.is_flat(b):
                self.flat.add(r)
            return r
        self.emit(f"if {self.unknown_lists(a, b)}len({a}) + len({b}) <= {limit}:")
        self.emit(f"    {r} = {a} + {b}")
        self.charge(f"len({r})", "    ")
        self.emit("else:")
        self.emit(f"    {r} = {slow}(env, {a}, {b})")
        self.lists.add(r)
        if self.is_flat(a) and self.is_flat(b):
            self.flat.add(r)
        return r

    def g_UnaryOp(self, node: ast.UnaryOp) -> str:
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            value = node.operand.value
            if isinstance(value, int | float) and not isinstance(value, bool):
                return _literal(-value)
        inner = self.value(node.operand)
        if isinstance(node.op, ast.Not):
            if inner in ("True", "False"):
                return str(inner == "False")
            return f"(not {inner})"
        if isinstance(node.op, ast.UAdd):
            return inner
        x = self.atom(inner)
        return (f"(-{x} if type({x}) is int or type({x}) is float else "
                f"{self.obj(give_up)}())")

    def test(self, op: ast.cmpop, x: str, y: str) -> str:
        """One comparison of two atoms or expressions (x read twice must be an atom)."""
        if isinstance(op, ast.Eq | ast.NotEq) and self.is_scalar(x):
            return f"({x} {'==' if isinstance(op, ast.Eq) else '!='} {y})"
        if isinstance(op, ast.Eq | ast.NotEq):
            equal = self.obj(ex._equal)
            if isinstance(op, ast.Eq):
                return f"({equal}(env, {x}, {y}) if type({x}) is list else {x} == {y})"
            return f"(not {equal}(env, {x}, {y}) if type({x}) is list else {x} != {y})"
        if isinstance(op, ast.In | ast.NotIn):
            x, y = self.atom(x), self.atom(y)
            r = self.tmp()
            contains = self.obj(ex._contains)
            if self.is_scalar(x) and y in self.lists:  # (as ex._contains charges it)
                if self.contains_kept(x, y, r):
                    return f"(not {r})" if isinstance(op, ast.NotIn) else r
                self.charge(f"len({y})")
                self.emit(f"{r} = {x} in {y}")
                return f"(not {r})" if isinstance(op, ast.NotIn) else r
            if self.is_scalar(x):
                self.emit(f"if type({y}) is list:")
                self.charge(f"len({y})", "    ")
                self.emit(f"    {r} = {x} in {y}")
            elif self.is_flat(x):  # (as ex._contains charges it)
                self.emit(f"if {self.unknown_lists(y, x)}True:")
                self.charge(f"len({y}) * (len({x}) or 1)", "    ")
                self.emit(f"    {r} = {x} in {y}")
            else:  # a list looked for is charged by what comparing it may go through
                self.emit(f"if type({y}) is list and type({x}) is not list "
                          f"and type({x}) is not tuple:")
                self.charge(f"len({y})", "    ")
                self.emit(f"    {r} = {x} in {y}")
                self.emit(f"elif type({y}) is list and type({x}) is list and "
                          f"{self.plain_kinds()}.isdisjoint(map(type, {x})):")
                self.charge(f"len({y}) * (len({x}) or 1)", "    ")  # (as ex._contains)
                self.emit(f"    {r} = {x} in {y}")
            self.emit("else:")
            self.emit(f"    {r} = {contains}(env, {x}, {y})")
            return f"(not {r})" if isinstance(op, ast.NotIn) else r
        symbol = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
        if self.is_scalar(x) or self.is_scalar(y):
            return f"({x} {symbol} {y})"
        x, y = self.atom(x), self.atom(y)  # two lists: charged by what comparing them
        # goes through (ex.ORDERED)
        return (f"({x} {symbol} {y} if type({x}) is not list or type({y}) is not list "
                f"else {self.obj(ex.ORDERED[symbol], 'lists compared')}(env, {x}, {y}))")

    def contains_kept(self, x: str, y: str, r: str) -> bool:
        """`r = x in y` for `y` a kept definition's list of places just written (see
        kept_call): while it is kept, one test of the budget for the steps of the call and
        of looking into the list, both charged at once, and the kept list looked into (as
        counting the squares a player marked looks each line's squares up in them); else
        the call and the charge as written. Whether it was written so."""
        block = self.kept_blocks.get(y)
        n = len(block.lines) if block is not None else 0
        if block is None or self.lines[-n:] != block.lines:
            return False
        written = self.lines[-n:]
        del self.lines[-n:]
        self.emit(f"if {block.same} and env.steps + {block.and_length} <= env.step_limit:")
        self.emit(f"    env.steps += {block.and_length}")
        self.emit(f"    {y} = {block.kept}")
        self.emit(f"    {r} = {x} in {y}")
        self.emit("else:")
        self.lines += ["    " + line for line in written]
        self.indent += 1
        self.charge(f"len({y})")
        self.emit(f"{r} = {x} in {y}")
        self.indent -= 1
        return True

    def g_Compare(self, node: ast.Compare) -> str:
        if len(node.ops) == 1:
            a, b = self.values([node.left, node.comparators[0]])
            if isinstance(node.ops[0], ast.Eq | ast.NotEq):
                a = self.atom(a)
            return self.test(node.ops[0], a, b)
        r = self.tmp()
        self.emit(f"{r} = False")
        x = self.atom(self.value(node.left))
        depth = 0
        for i, (op, right) in enumerate(zip(node.ops, node.comparators, strict=True)):
            y = self.atom(self.value(right))
            if i == len(node.ops) - 1:
                self.emit(f"{r} = {self.test(op, x, y)}")
            else:
                self.emit(f"if {self.test(op, x, y)}:")
                self.indent += 1
                depth += 1
            x = y
        self.indent -= depth
        return r

    def g_IfExp(self, node: ast.IfExp) -> str:
        test = self.value(node.test)
        body_lines, body = self.capture(node.body)
        else_lines, orelse = self.capture(node.orelse)
        if not body_lines and not else_lines:
            return f"({body} if {test} else {orelse})"
        r = self.tmp()
        self.emit(f"if {test}:")
        self.lines.extend(body_lines)
        self.emit(f"    {r} = {body}")
        self.emit("else:")
        self.lines.extend(else_lines)
        self.emit(f"    {r} = {orelse}")
        return r

    def g_List(self, node: ast.List | ast.Tuple) -> str:
        codes = self.values(list(node.elts))
        code = "[" + ", ".join(codes) + "]"
        self.lists.add(code)
        if all(self.is_scalar(c) for c in codes):
            self.flat.add(code)
        return code

    g_Tuple = g_List

    def g_Attribute(self, node: ast.Attribute) -> str:
        table = self.obj(self.scope.attributes[node.attr], f"the {node.attr} of each piece")
        p = self.atom(self.value(node.value))
        if p in self.pieces_or_null and not self.scope.track_pieces:
            code = f"({table}[{p}] if {p} is not None else None)"
        else:
            code = (f"({table}[{p}] if type({p}) is int and {p} >= 0 else "
                    f"None if {p} is None else {self.obj(none_or_give_up)}({p}))")
        if self.scope.track_pieces:  # a log line: note the piece it describes
            r = self.tmp()
            self.emit(f"{r} = {code}")
            self.emit(f"if type({p}) is int and env.mentioned is not None: "
                      f"env.mentioned.append({p})")
            code = r
        self.scalars.add(code)  # attribute values are numbers, texts or null
        return code

    def g_Subscript(self, node: ast.Subscript) -> str:
        c, k = self.values([node.value, node.slice])
        zone = self.zone_named(node.value)
        if getattr(zone, "per_seat", False) and getattr(zone, "per_owner", 0) == 1:
            k = self.atom(k)  # a seat's own place of a per-seat pile
            first = zone.first - 1  # type: ignore[union-attr]
            return (f"({first} + {k} if type({k}) is int and 1 <= {k} <= "
                    f"{self.uses('st', 'env.state')}.players "
                    f"else {self.obj(subscript)}(env, {c}, {k}))")
        variable = self.constant_named(node.value)
        if isinstance(variable, SeatVariable):  # `score[seat]`: read in place
            k = self.atom(k)
            values = f"{self.uses('vs', 'env.state.seat_vars')}[{variable.id!r}]"
            return (f"({values}[{k} - 1] if type({k}) is int and 1 <= {k} <= "
                    f"{self.uses('st', 'env.state')}.players "
                    f"else {self.obj(subscript)}(env, {c}, {k}))")
        if isinstance(variable, PieceVariable):  # `facing[card]`: read in place
            k, t = self.atom(k), self.tmp()
            values = f"{self.uses('vp', 'env.state.piece_vars')}[{variable.id!r}]"
            return (f"({t}[{k}] if type({k}) is int and 0 <= {k} < len({t} := {values}) "
                    f"else {self.obj(subscript)}(env, {c}, {k}))")
        c = self.atom(c)
        if c in self.lists:  # known to be a list (an index out of range: the careful path)
            return f"{c}[{k}]"
        return f"({c}[{k}] if type({c}) is list else {self.obj(subscript)}(env, {c}, {k}))"

    def g_Call(self, node: ast.Call) -> str:
        code = self.call(node)
        scope = self.known_scope()
        if never_a_list(node, scope, self.hooks):  # (compared as it is: see test)
            self.scalars.add(code)
        elif flat_list(node, scope, self.hooks):
            self.flat.add(code)
        return code

    def known_scope(self) -> ex.Scope:
        """The scope, with the names this function binds itself (loop variables,
        arguments written out in place) among its temporaries: what they hold is not
        the ruleset's (never_a_list, flat_list)."""
        return self.scope.with_temps(self.names) if self.names else self.scope

    def call(self, node: ast.Call) -> str:
        name = node.func.id  # type: ignore[attr-defined]
        scope = self.scope
        if name in scope.definitions:
            return self.definition_call(name, node.args)
        if name in ("any", "all") and len(node.args) == 1 and isinstance(
                node.args[0], ast.GeneratorExp | ast.ListComp) and name in scope.functions:
            return self.quantifier(node.args[0], name == "all")
        if name == "len" and len(node.args) == 1 and isinstance(node.args[0], ast.ListComp) and (
                name in scope.functions):
            return self.counted(node.args[0])
        fn = scope.functions[name]
        if fn.random:
            self.random = True
        args: list[ast.expr] = []
        for i, a in enumerate(node.args):
            if i in fn.site_args and isinstance(a, ast.Constant) and isinstance(a.value, str):
                args.append(ast.Constant(scope.resolve_site(a.value)))
            else:
                args.append(a)
        if name in _ONLY_READING and len(args) == 1:
            self.loop_sources.add(id(args[0]))  # (its list only read: a place's, uncopied)
        codes = self.values(args)
        if scope.track_pieces and fn.describes_piece:
            return f"{self.obj(ex._tracking(fn.impl), 'built-in ' + name)}(env, {', '.join(codes)})"
        special = getattr(self, "f_" + name, None)
        if special is not None:
            self.only_read = id(node) in self.loop_sources
            found = special(codes, args, fn.impl)
            if found is not None:
                return found
        return f"{self.obj(fn.impl, 'built-in ' + name)}({', '.join(['env', *codes])})"

    # -- built-ins read in place: the common case here, anything else by the built-in ----
    def sites(self) -> str:
        return self.uses("sites", "env.state.sites")

    def dense(self) -> bool:
        """Whether every place is in `State.sites` (see run/state.py: a game known to be
        small enough); otherwise a read says `.get(place, EMPTY)`."""
        places = self.hooks.places()
        return places is not None and dense(places)

    def place_read(self, x: str) -> str:
        """The pieces of place `x` (known to be one)."""
        if self.dense():
            return f"{self.sites()}[{x}]"
        return f"{self.sites()}.get({x}, {self.obj(EMPTY, 'no pieces')})"

    def place_guard(self, x: str) -> str:
        """Whether `x`, a whole number, is a place: a dense game's look-up fails past the
        last place (the careful path then speaks), the other's bounds are checked."""
        if self.dense():
            return f"{x} >= 0"
        return f"0 <= {x} < {self.uses('nplaces', 'env.state.places')}"

    def at_place(self, x: str, fast: str, impl: Any, of_null: str = "") -> str:
        """`fast` when `x` is a place (known to be one, or checked here); `of_null` when
        given and `x` is null (off the board); anything else by the built-in."""
        if x in self.places:
            return f"({fast})"
        if of_null and x in self.places_or_null:
            return f"({fast} if {x} is not None else {of_null})"
        null = f"{of_null} if {x} is None else " if of_null else ""
        return (f"({fast} if type({x}) is int and {self.place_guard(x)} else "
                f"{null}{self.obj(impl)}(env, {x}))")

    def f_top(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        x = self.atom(codes[0])
        s = self.tmp()
        return self.piece_or_null(x, self.at_place(
            x, f"({s}[-1] if ({s} := {self.place_read(x)}) else None)", impl, "None"))

    def piece_or_null(self, x: str, code: str) -> str:
        """`code`, the top or bottom of `x`, noted as a piece or null when `x` is known
        to be a place or null (the built-in is then never called)."""
        if x in self.places or x in self.places_or_null:
            self.pieces_or_null.add(code)
        return code

    def f_bottom(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        x = self.atom(codes[0])
        s = self.tmp()
        return self.piece_or_null(x, self.at_place(
            x, f"({s}[0] if ({s} := {self.place_read(x)}) else None)", impl, "None"))

    def f_height(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        x = self.atom(codes[0])
        return self.at_place(x, f"len({self.place_read(x)})", impl)

    def built_list(self, r: str) -> None:
        """Emit what the built-ins do with a list they made (functions._built): stop
        when it is longer than budgets.list_length, else charge its length."""
        limit = self.scope.limits.list_length
        self.emit(f"    if len({r}) > {limit}: "
                  f"{self.obj(too_long)}('list_length', 'a list', len({r}), {limit})")
        self.charge(f"len({r})", "    ")

    def f_stack(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        """The pieces on a place, read in place (copied unless a loop only reads them);
        anything else by the built-in."""
        x, r = self.atom(codes[0]), self.tmp()
        copy = "" if self.only_read else "[:]"
        self.emit(f"if type({x}) is int and {self.place_guard(x)}:")
        self.emit(f"    {r} = {self.place_read(x)}{copy}")
        self.built_list(r)
        self.emit("else:")
        self.emit(f"    {r} = {self.obj(impl)}(env, {x})")
        self.lists.add(r)
        return r

    def f_above(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        """The pieces on top of a piece, read in place; anything else by the built-in."""
        x, r, s = self.atom(codes[0]), self.tmp(), self.tmp()
        pieces = self.uses("np", "len(env.game.piece_kind)")
        self.emit(f"if type({x}) is int and 0 <= {x} < {pieces}:")
        self.emit(f"    {s} = {self.place_read(self.uses('st', 'env.state') + f'.loc[{x}]')}")
        self.emit(f"    {r} = {s}[{s}.index({x}) + 1:]")
        self.built_list(r)
        self.emit("else:")
        self.emit(f"    {r} = {self.obj(impl)}(env, {x})")
        self.lists.add(r)
        return r

    def f_empty(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        x = self.atom(codes[0])
        return self.at_place(x, f"not {self.place_read(x)}", impl)

    def f_count(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        if self.is_list(codes[0]):
            return f"len({codes[0]})"
        x = self.atom(codes[0])
        return f"(len({x}) if type({x}) is list else {self.obj(impl)}(env, {x}))"

    f_len = f_count

    def f_sum(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        """A list of whole numbers whose sizes add up to no more than the largest number
        (no partial sum can then be too large); anything else by the built-in (floats
        too: Python's own sum may add them more exactly than one at a time)."""
        x = self.atom(codes[0])
        total, big = self.tmp(), self.scope.limits.largest_number
        return self.charged_list(x, impl, [x], f"sum({x})", is_list=False, also=(
            f" and type({total} := sum(map(abs, {x}))) is int and {total} <= {big}"))

    def charged_list(self, x: str, impl: Any, codes: list[str], make: str,
                     also: str = "", is_list: bool = True) -> str:
        """`make` (an expression of `x`, a list unless `is_list` is false) when `x` is a
        list (and `also` holds), charged by its length as the built-in charges it;
        anything else by the built-in."""
        r = self.tmp()
        if not also and self.is_list(x):  # (a list built or kept here: no other case)
            self.charge(f"len({x})")
            self.emit(f"{r} = {make}")
        else:
            self.emit(f"if type({x}) is list{also}:")
            self.charge(f"len({x})", "    ")
            self.emit(f"    {r} = {make}")
            self.emit("else:")
            self.emit(f"    {r} = {self.obj(impl)}(env, {', '.join(codes)})")
        if is_list:
            self.lists.add(r)
        return r

    def f_sorted(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        x = self.atom(codes[0])  # values that cannot be ordered: the built-in says so
        if self.is_flat(x):
            return self.keeps_flat(x, self.charged_list(x, impl, [x], f"sorted({x})"))
        # Lists of lists are the built-in's (what comparing them goes through is charged).
        # Under 64 values Python sorts by inserting each into those before it, so when
        # the first is not a list, a list is first compared with a value that is not,
        # and fails: no need to look at every value.
        kinds = self.plain_kinds()
        return self.charged_list(x, impl, [x], f"sorted({x})", (
            f" and (len({x}) < 64 and (not {x} or type({x}[0]) not in {kinds}) "
            f"or {kinds}.isdisjoint(map(type, {x})))"))

    def keeps_flat(self, x: str, r: str) -> str:
        """`r`, a list of values of `x` (sorted, without): flat when `x` is."""
        if self.is_flat(x):
            self.flat.add(r)
        return r

    def plain_kinds(self) -> str:
        """The kinds of value that make going through a list more than its length."""
        return self.obj(_LIST_KINDS, "list kinds")

    def f_without(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        x, item = self.atom(codes[0]), self.atom(codes[1])
        v = self.tmp("v")  # a list of values to drop: the built-in
        return self.keeps_flat(x, self.charged_list(
            x, impl, [x, item], f"[{v} for {v} in {x} if {v} != {item}]",
            f" and type({item}) is not list and type({item}) is not tuple"))

    def list_end(self, codes: list[str], impl: Any, index: int) -> str:
        """`first`/`last` of a list (null when empty); anything else by the built-in."""
        x = self.atom(codes[0])
        if self.is_list(x):  # (as pieces() gives)
            return f"({x}[{index}] if {x} else None)"
        return (f"(({x}[{index}] if {x} else None) if type({x}) is list "
                f"else {self.obj(impl)}(env, {x}))")

    def f_first(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        return self.list_end(codes, impl, 0)

    def f_last(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        return self.list_end(codes, impl, -1)

    def f_pieces(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        """`pieces(place)`: a copy of its stack, charged by its length (a zone or a list
        of places by the built-in)."""
        x = self.atom(codes[0])
        r = self.tmp()
        copy = "" if self.only_read else "[:]"  # (first(pieces(...)) reads its list only)
        self.emit(f"if type({x}) is int and {self.place_guard(x)}:")
        self.emit(f"    {r} = {self.place_read(x)}{copy}")
        self.emit(f"    if len({r}) > {self.scope.limits.list_length}: "
                  f"{self.obj(give_up)}()")
        self.charge(f"len({r})", "    ")
        self.emit("else:")
        self.emit(f"    {r} = {self.obj(impl)}(env, {x})")
        self.lists.add(r)
        self.piece_lists.add(r)
        return r

    def f_one_of_each_kind(self, codes: list[str], args: list[ast.expr], impl: Any
                           ) -> str | None:
        """Over what pieces() gave (pieces, nothing else): charged by its length."""
        x = codes[0]
        if x not in self.piece_lists:
            return None
        r = self.tmp()
        self.charge(f"len({x})")
        self.emit(f"{r} = {self.obj(first_of_each_kind)}({x}, env.game.piece_kind_id)")
        self.lists.add(r)
        return r

    def constant_named(self, node: ast.expr) -> Any:
        """The constant of the ruleset a name stands for (a zone, a per-seat or
        per-piece variable), else None."""
        if not isinstance(node, ast.Name) or node.id in self.names or node.id in (
                self.scope.temps | self.scope.locals):
            return None
        found = self.scope.resolve_global(node.id)
        return found.value if isinstance(found, ex.Constant) else None

    def zone_named(self, node: ast.expr) -> Any:
        """The zone a name stands for (a constant of the ruleset), else None."""
        value = self.constant_named(node)
        return value if hasattr(value, "sites_in_play") else None

    def f_cells(self, codes: list[str], args: list[ast.expr], impl: Any) -> str | None:
        """`cells(board)`: a zone that is not per seat has the same places all game."""
        node = args[0]
        zone = self.zone_named(node)
        if zone is None:
            return None
        if getattr(zone, "per_seat", True) or not hasattr(zone, "sites_in_play"):
            return None
        places = zone.sites_in_play(1)
        if len(places) > self.scope.limits.list_length:
            return None  # the built-in reports it
        r = self.tmp()
        copy = "" if self.only_read else "[:]"
        self.emit(f"{r} = {self.obj(places, 'the places of ' + node.id)}{copy}")
        self.charge(f"{len(places)}")
        self.lists.add(r)
        self.place_lists.add(r)
        return r

    def f_offset(self, codes: list[str], args: list[ast.expr], impl: Any) -> str | None:
        if isinstance(args[1], ast.Constant) and type(args[1].value) is int:
            return self.offset_by(codes, args, impl)
        distance = 1
        if len(args) == 3:
            if not (isinstance(args[2], ast.Constant) and type(args[2].value) is int):
                return self.offset_at_any_distance(codes, impl)
            distance = args[2].value
        tables = self.hooks.offsets(distance)
        if tables is None:
            return None
        direction = _text_value(codes[1])  # (a constant, or an unrolled loop's turn)
        table = tables.get(direction) if direction is not None else None
        if direction is not None and table is None:
            return None
        x = self.atom(codes[0])
        if table is not None:
            return self.offset_table(table, f"{distance} step(s) {direction}", x,
                                     f"{self.obj(impl)}(env, {x}, {', '.join(codes[1:])})")
        d = self.atom(codes[1])
        rest = ", ".join([d, *codes[2:]])
        label = f"the square {distance} step(s) in each direction of each"
        checks = [f"type({x}) is int" if x not in self.places else "",
                  f"type({d}) is str" if d not in self.texts else ""]
        return self.place_or_null(_guarded(f"{self.obj(tables, label)}[{d}][{x}]", checks,
                                           f"{self.obj(impl)}(env, {x}, {rest})"))

    def place_or_null(self, code: str) -> str:
        """`code`, an offset (by a table, else by the built-in, which gives a place or
        null whatever it is given, or fails): reading the place needs a test for null only."""
        self.places_or_null.add(code)
        return code

    def offset_table(self, table: dict[int, int | None], how: str, x: str, slow: str) -> str:
        """The square `how` far from place `x` by its table (anything but a whole number
        by `slow`; a place not on the board is not in the table: the careful path)."""
        code = f"{self.obj(table, f'the square {how} of each')}[{x}]"
        if x not in self.places:
            return self.place_or_null(f"({code} if type({x}) is int else {slow})")
        # (a place not on the board is not in the table: the careful path)
        (self.places if None not in table.values() else self.places_or_null).add(code)
        return code

    def distance_tables(self) -> dict[int, dict[str, dict[int, int | None]]] | None:
        """Distance → direction → board square → the square that far that way, for every
        distance at which some square still has one (at any other distance every square's
        is off the board: the careful path says null); None while the boards are not laid
        out, or when they are too large to tabulate."""
        cache = self.hooks.distances
        if "tables" in cache:
            return cache["tables"]
        one = self.hooks.offsets(1)
        if one is None:
            return None
        squares = len({s for table in one.values() for s in table})
        found: dict[int, dict[str, dict[int, int | None]]] | None = {0: self.hooks.offsets(0)}
        for sign in (1, -1):
            k = sign
            while found is not None:
                tables = self.hooks.offsets(k)
                if tables is None or all(t is None for d in tables.values() for t in d.values()):
                    break
                found[k] = tables
                if len(found) * len(one) * squares > _LARGEST_TABLE:
                    found = None
                k += sign
        cache["tables"] = found
        return found

    def offset_at_any_distance(self, codes: list[str], impl: Any) -> str | None:
        """offset(place, d, k) with k computed as the game goes (a loop's `k`, `start +
        k`): three lookups; a distance off every board or anything unusual by the
        built-in."""
        tables = self.distance_tables()
        if tables is None:
            return None
        x, d, k = (self.atom(c) for c in codes)
        distance, direction = _int_value(k), _text_value(d)
        if distance in tables and direction in tables[distance]:  # (an unrolled loop's turn)
            return self.offset_table(tables[distance][direction],
                                     f"{distance} step(s) {direction}", x,
                                     f"{self.obj(impl)}(env, {x}, {d}, {k})")
        if distance in tables and direction is None:
            table = self.obj(tables[distance],
                             f"the square {distance} step(s) in each direction of each")
            checks = [f"type({x}) is int" if x not in self.places else "",
                      f"type({d}) is str" if d not in self.texts else ""]
            return self.place_or_null(_guarded(f"{table}[{d}][{x}]", checks,
                                               f"{self.obj(impl)}(env, {x}, {d}, {k})"))
        table = self.obj(tables, "the square at each distance in each direction of each")
        checks = [f"type({x}) is int" if x not in self.places else "",
                  f"type({d}) is str" if d not in self.texts else "",
                  f"type({k}) is int" if k not in self.ints and not _is_int_literal(k) else "",
                  "" if self.int_items.get(k, {None}) <= tables.keys() or (
                      _is_int_literal(k) and int(k.strip("()")) in tables) else f"{k} in {table}"]
        return self.place_or_null(_guarded(f"{table}[{k}][{d}][{x}]", checks,
                                           f"{self.obj(impl)}(env, {x}, {d}, {k})"))

    def f_range(self, codes: list[str], args: list[ast.expr], impl: Any) -> str:
        """range(a) or range(a, b) of whole numbers, charged by its length as the
        built-in charges it; anything else (and a range too long) by the built-in."""
        lo, hi = ("0", self.atom(codes[0])) if len(codes) == 1 else (
            self.atom(codes[0]), self.atom(codes[1]))
        r = self.tmp()
        whole = " and ".join(f"type({v}) is int" for v in (lo, hi) if not _is_int_literal(v))
        if _is_int_literal(lo) and _is_int_literal(hi):
            a, b = int(lo.strip("()")), int(hi.strip("()"))
            if b - a > self.scope.limits.list_length:
                return f"{self.obj(impl)}({', '.join(['env', *codes])})"
            self.charge(str(max(0, b - a)))
            # a short one written out (a loop over it knows its length and numbers)
            written = repr(list(range(a, b))) if b - a <= _WRITTEN_OUT else (
                f"list(range({a}, {b}))")
            self.lists.add(written)
            self.flat.add(written)
            return written
        else:
            self.emit(f"if {whole} and {hi} - {lo} <= {self.scope.limits.list_length}:")
            self.emit(f"    {r} = list(range({lo}, {hi}))")
            self.charge(f"len({r})", "    ")
            self.emit("else:")
            self.emit(f"    {r} = {self.obj(impl)}({', '.join(['env', *codes])})")
        self.lists.add(r)
        self.flat.add(r)
        self.scalars.discard(r)
        return r

    def offset_by(self, codes: list[str], args: list[ast.expr], impl: Any) -> str | None:
        """offset(place, dx, dy) with dx and dy written out: a table's lookup."""
        if len(args) != 3 or not (isinstance(args[2], ast.Constant)
                                  and type(args[2].value) is int):
            return None
        dx, dy = args[1].value, args[2].value  # type: ignore[attr-defined]
        table = self.hooks.vectors(dx, dy)
        if table is None:
            return None
        x = self.atom(codes[0])
        read = f"{self.obj(table, f'the place {dx} columns east, {dy} rows north of each')}[{x}]"
        if x in self.places:  # (not a place of a board: the careful path)
            return self.place_or_null(read)
        return self.place_or_null(
            f"({read} if type({x}) is int else {self.obj(impl)}(env, {x}, {dx!r}, {dy!r}))")

    def f_neighbours(self, codes: list[str], args: list[ast.expr], impl: Any) -> str | None:
        dirs = _constant_directions(args[1]) if len(args) == 2 else None
        if len(args) == 2 and dirs is None:
            return None
        table = self.hooks.neighbours(dirs)
        if table is None:
            return None
        x = self.atom(codes[0])
        r = self.tmp()
        what = "all eight" if dirs is None else ", ".join(dirs)
        copy = "" if self.only_read else "[:]"
        read = (f"{r} = {self.obj(table, f'the neighbours ({what}) of each square')}"
                f"[{x}]{copy}")
        if x in self.places:  # (not a square of the board: the careful path)
            self.emit(read)
            if dirs is not None:
                self.charge(f"{len(dirs)}")
        else:
            self.emit(f"if type({x}) is int:")
            self.emit(f"    {read}")
            if dirs is not None:  # the built-in charges the directions it is given
                self.charge(f"{len(dirs)}", "    ")
            self.emit("else:")
            self.emit(f"    {r} = {self.obj(impl)}({', '.join(['env', x, *codes[1:]])})")
        self.lists.add(r)
        self.place_lists.add(r)
        return r

    def definition_call(self, name: str, args: list[ast.expr]) -> str:
        found = self.hooks.definition(name)
        assert found is not None
        params, text = found
        uses = self.hooks.uses.get(name)
        if uses is None:
            uses = self.hooks.uses[name] = ex.parameter_uses(text, params)
        if not ex.written_in_place(uses, params, args, self.inline and self.hooks.small(name)):
            codes = self.values(args)
            function = self.obj(self.hooks.function(name), f"definition {name}")
            self.caches = True
            if codes and (self.loop_depth or self.sourcing
                          or self.worth_remembering(name, frozenset())) \
                    and not self.draws(name, frozenset()):
                if self.loop_depth or self.sourcing:
                    return self.places_given(name, self.kept_call(
                        function, [self.atom(c) for c in codes], name))
                if not any(self.is_list(c) or _listed(a)
                           for c, a in zip(codes, args, strict=True)):
                    return self.places_given(name, f"{self.remembering(codes)}("
                                             f"{', '.join(['env', function, *codes])})")
            return self.places_given(name, f"{function}({', '.join(['env', *codes])})")
        names = {p: Deferred(a, self.scope, self.names)
                 for p, a in zip(params, args, strict=True)}
        saved = self.scope, self.names
        self.scope, self.names = self.hooks.ruleset_scope(), names
        try:
            return self.value(ex.parse(text))
        finally:
            self.scope, self.names = saved

    def places_given(self, name: str, code: str) -> str:
        """`code`, the value of definition `name`, noted as a list of places when the
        definition always gives one (a loop over it then reads them unchecked)."""
        if self.gives_places(name):
            for known in (self.lists, self.place_lists, self.flat):
                known.add(code)
        return code

    def gives_places(self, name: str) -> bool:
        """Whether a definition's value is always a list of places: a comprehension whose
        element is its loop's variable, over the cells of a zone that is not per seat
        (`[c for c in cells(board) if ...]`)."""
        params, text = self.hooks.definition(name) or ([], "")
        try:
            tree = ex.parse_to_read(text)
        except ex.ExpressionError:
            return False
        if not (isinstance(tree, ast.ListComp) and len(tree.generators) == 1):
            return False
        gen = tree.generators[0]
        source = gen.iter
        if not (isinstance(gen.target, ast.Name) and isinstance(tree.elt, ast.Name)
                and tree.elt.id == gen.target.id and isinstance(source, ast.Call)
                and isinstance(source.func, ast.Name) and source.func.id == "cells"
                and len(source.args) == 1 and isinstance(source.args[0], ast.Name)):
            return False
        scope = self.hooks.ruleset_scope()
        zone_name = source.args[0].id
        if "cells" in scope.definitions or zone_name in params or zone_name == gen.target.id:
            return False
        found = scope.resolve_global(zone_name)
        zone = found.value if isinstance(found, ex.Constant) else None
        return hasattr(zone, "sites_in_play") and not getattr(zone, "per_seat", True)

    def draws(self, name: str, seen: frozenset[str]) -> bool:
        """Whether a definition may draw at random (itself, or a definition it uses);
        known once for each definition (definitions never call each other in a circle)."""
        known = self.hooks.draws.get(name)
        if known is not None:
            return known
        found = self.hooks.definition(name)
        if found is None or name in seen:
            return found is None
        functions, definitions = self.scope.functions, self.scope.definitions
        called = {node.func.id for node in ast.walk(ex.parse_to_read(found[1]))
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
        draws = False
        for each in sorted(called):  # (each once: a definition calling another twice
            # is not looked into twice, nor twice again in that one)
            if each in definitions:
                if self.draws(each, seen | {name}):
                    draws = True
                    break
            elif each not in functions or functions[each].random:
                draws = True
                break
        self.hooks.draws[name] = draws
        return draws

    def worth_remembering(self, name: str, seen: frozenset[str]) -> bool:
        """Whether a definition loops (itself, or a definition it uses): remembering its
        calls (`remembered`) costs less than computing it again; a few comparisons cost
        less than remembering them."""
        known = self.hooks.loops.get(name)
        if known is not None:
            return known
        found = self.hooks.definition(name)
        if found is None or name in seen:
            return False
        definitions = self.scope.definitions
        loops = False
        for node in ast.walk(ex.parse_to_read(found[1])):
            if isinstance(node, ast.comprehension) or (
                    isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in definitions
                    and self.worth_remembering(node.func.id, seen | {name})):
                loops = True
                break
        self.hooks.loops[name] = loops
        return loops

    def remembering(self, codes: list[str]) -> str:
        """The helper that remembers a call with these arguments."""
        return self.obj(remembered1) if len(codes) == 1 else self.obj(remembered)

    def kept_call(self, function: str, codes: list[str], name: str) -> str:
        """A definition called inside a loop: its value and the steps it charged are kept,
        and while it is called with the same arguments (the very same values) it is not
        computed again but charged again, the same steps at once. The state does not
        change while an expression is computed, so neither does the value; the steps are
        kept only from a call that put no definition into the cache (a later call would
        charge less), and are charged at once only when the budget allows all of them (or
        the call runs, to stop at the very step the closures stop at)."""
        unset = self.obj(_UNSET, "not computed yet")
        slots = self.kept_calls.get((function, *codes))
        if slots is None:  # (the same call written again, as in an unrolled loop, shares them)
            slots = self.kept_calls[(function, *codes)] = (
                [self.uses(self.tmp("c"), unset) for _ in codes],
                self.uses(self.tmp("c"), "None"), self.uses(self.tmp("c"), "0"),
                self.uses(self.tmp("c"), "0") if self.gives_places(name) else None)
        keys, kept, spent, and_length = slots
        before, cached, r = self.tmp("c"), self.tmp("c"), self.tmp()
        same = " and ".join(f"{k} is {c}" for k, c in zip(keys, codes, strict=True))
        start = len(self.lines)
        self.emit(f"if {same} and env.steps + {spent} <= env.step_limit:")
        self.emit(f"    env.steps += {spent}")
        self.emit(f"    {r} = {kept}")
        self.emit("else:")
        self.emit(f"    {before}, {cached} = env.steps, len(env.cache)")
        # (within a loop, a call with several arguments is seldom made again with the
        # same ones once the loop has moved on: remembering it would cost more)
        call = (f"{self.obj(remembered1)}(env, {function}, {codes[0]})"
                if len(codes) == 1 and self.worth_remembering(name, frozenset())
                else f"{function}({', '.join(['env', *codes])})")
        self.emit(f"    {r} = {call}")
        self.emit(f"    if len(env.cache) == {cached}:")
        self.emit(f"        {', '.join([*keys, kept, spent])} = "
                  f"{', '.join([*codes, r, f'env.steps - {before}'])}")
        if and_length is not None:  # (a list of places: what looking into it charges too)
            self.emit(f"        {and_length} = {spent} + len({r})")
            self.kept_blocks[r] = KeptBlock(self.lines[start:], same, kept, and_length)
        self.kept_results.add(r)
        return r

    # -- loops ----------------------------------------------------------------------------
    def loops(self, node: ast.GeneratorExp | ast.ListComp, innermost: Callable[[], None],
              after_inner: str | None = None, chain: bool = False,
              every: bool | None = None) -> None:
        """The nested `for` statements of a comprehension, each charged as the closures
        charge it; `innermost` writes the body at the deepest level. With `chain`, the
        turns of an unrolled innermost loop without conditions are not put in a loop
        run once: `innermost` opens a block for the turns after its own (self.chained
        tells it so), each closed after the last turn."""
        saved = self.names
        self.names = dict(saved)
        scope = self.scope
        weighing = scope
        items = self.obj(ex.loop_items)
        depth = 0
        gens = node.generators
        unrolled: list[Any] | None = None
        chained = False
        # (a comprehension inside a chained turn is not chained itself, unless it says so)
        outer_chained, self.chained = self.chained, False
        try:
            for i, gen in enumerate(gens):
                self.loop_sources.add(id(gen.iter))
                sourcing, self.sourcing = self.sourcing, True
                try:
                    source = self.value(gen.iter)
                finally:
                    self.sourcing = sourcing
                of_places = source in self.place_lists
                targets = ex._target_names(gen.target) or []
                inner = weighing.with_temps(targets)
                nxt = (ex.weigh(gens[i + 1].iter, scope) if i + 1 < len(gens)
                       else ex.weigh(node.elt, scope))
                per = ex.LOOP_STEPS + sum(ex.weigh(c, inner) for c in gen.ifs) + nxt
                weighing = inner
                constants = _constant_items(source)
                if constants is not None:  # written out: its length is known here
                    self.charge(str(len(constants) * per))
                else:
                    source = self.loop_source(source, per, items)
                if i == len(gens) - 1 and self.unrollable(gen, constants):
                    assert constants is not None
                    unrolled = constants
                    self.unrolled *= len(constants)
                    chained = chain and not gen.ifs
                    if not chained:
                        self.emit(f"for {self.tmp('v')} in (0,):  # once: `break` leaves the turns")
                    self.indent += 1
                elif isinstance(gen.target, ast.Name):
                    var = self.tmp("v")
                    self.emit(f"for {var} in {source}:")
                    self.names[gen.target.id] = var
                    self.loop_vars[var] = self.loop_depth + 1
                    if of_places:
                        self.places.add(var)
                    if constants and all(type(c) is str for c in constants):
                        self.texts.add(var)
                    if constants and all(type(c) is int for c in constants):
                        self.ints.add(var)
                        self.int_items[var] = frozenset(constants)
                    self.indent += 1
                else:
                    item = self.tmp("v")
                    self.emit(f"for {item} in {source}:")
                    self.indent += 1
                    vars_ = [self.tmp("v") for _ in targets]
                    self.emit(f"{', '.join(vars_)}, = {self.obj(unpack)}({item}, "
                              f"{len(targets)}, {', '.join(targets)!r})")
                    for t, v in zip(targets, vars_, strict=True):
                        self.names[t] = v
                    self.loop_vars.update(dict.fromkeys([*vars_, item], self.loop_depth + 1))
                depth += 1
                self.loop_depth += 1
                self.loop_inits.append([])
                self.emit(f"{_INITS}{self.loop_depth}")  # (what is kept: set in `finally`)
                for cond in gen.ifs if unrolled is None else ():
                    self.emit(f"if not {self.value(cond)}:")
                    self.emit("    continue")
            if unrolled is None:
                innermost()
            elif chained:
                self.indent -= 1  # (no loop run once: the turns where it would be)
                saved_chained, self.chained, start = self.chained, True, self.indent
                try:
                    self.turns(gens[-1], unrolled, innermost, every)
                    if self.lines[-1].strip() == "else:":  # (the last turn's: no more)
                        del self.lines[-1]
                finally:
                    self.chained, self.indent = saved_chained, start + 1
            else:
                self.turns(gens[-1], unrolled, innermost)
        finally:
            self.chained = outer_chained
            if unrolled is not None:
                self.unrolled //= len(unrolled)
            for _ in range(depth):
                self.set_kept_afresh()
            self.loop_depth -= depth
            for level in range(depth, 0, -1):
                self.indent -= 1
                if after_inner is not None and level > 1:
                    self.emit(after_inner)
            self.names = saved

    def unrollable(self, gen: ast.comprehension, constants: list[Any] | None) -> bool:
        """Whether the innermost loop of a comprehension goes through a few constants
        (whole numbers or texts), each turn then written out on its own."""
        return (constants is not None and 0 < len(constants) <= MAX_UNROLLED
                and self.unrolled * len(constants) <= MAX_UNROLLED_TURNS
                and isinstance(gen.target, ast.Name)
                and all(type(c) in (int, str) for c in constants))

    def turns(self, gen: ast.comprehension, constants: list[Any],
              innermost: Callable[[], None], every: bool | None = None) -> None:
        """The turns of an unrolled loop one after another, its variable each constant
        in turn; a turn whose condition fails skips its body, as `continue` would. The
        chained turns of any() stop at one known here to decide it, and are unswitched
        after the first (see unswitched)."""
        decided, self.decided = self.decided, False
        try:
            for i, constant in enumerate(constants):
                tests = len(self.kept_tests)
                self.turn(gen, constant, innermost)
                if self.decided:
                    break
                if i == 0 and every is False and self.chained and self.unswitched(
                        gen, constants[1:], innermost, self.kept_tests[tests:]):
                    break
        finally:
            self.decided = decided

    def recharge(self, charges: list[str], empty: str = "pass") -> None:
        """The charges of `charges` (lines that only charge) again, one after another, so
        that those written apart are added up (see merge_charge); `empty` for none."""
        start, merged = len(self.lines), f"{self.obj(overspent_part)}(env, "
        for added, check in zip(charges[::2], charges[1::2], strict=True):
            amount = added.strip().removeprefix("env.steps += ")
            for part in amount.split(" + ") if merged in check else [amount]:
                self.charge(part)
        if len(self.lines) == start and empty:
            self.emit(empty)

    def turn(self, gen: ast.comprehension, constant: Any, innermost: Callable[[], None]
             ) -> None:
        """One turn of an unrolled loop: its variable the constant."""
        assert isinstance(gen.target, ast.Name)
        code = self.names[gen.target.id] = _literal(constant)
        outer = self.loop_vars.get(code)
        self.loop_vars[code] = self.loop_depth  # (what uses it changes from turn to turn)
        try:
            opened = 0
            for cond in gen.ifs:
                self.emit(f"if {self.value(cond)}:")
                self.indent += 1
                opened += 1
            innermost()
            self.indent -= opened
        finally:
            if outer is None:
                del self.loop_vars[code]
            else:
                self.loop_vars[code] = outer

    def unswitched(self, gen: ast.comprehension, rest: list[Any],
                   innermost: Callable[[], None], tests: list[tuple[str, int]]) -> bool:
        """The chained turns of any() after the first, unswitched on a test the first
        turn kept that is the same in every turn (a scan's square of its own mark, read
        once for every direction): when each turn after only charges its steps if the test
        is false (its element false whatever its loop's variable), those charges are made
        at once; when it is true, the turns after are written knowing it; when it was not
        kept, they run as written. Whether one such test is found."""
        for kept in dict.fromkeys(k for k, level in tests if level < self.loop_depth):
            saved = self.lines
            self.lines = []
            try:
                self.rest_of_turns(gen, rest, innermost, {kept: "False"})
                charges = [line for line in self.lines if line.strip() != "pass"]
            finally:
                self.lines = saved
            if not all(_charging(line) for line in charges):
                continue
            unset = self.obj(_UNSET, "not computed yet")
            self.emit(f"if {kept} is {unset}:")
            self.rest_of_turns(gen, rest, innermost, {})
            self.emit(f"elif not {kept}:  # false in every turn: each only charges its steps")
            self.indent += 1
            self.recharge(charges)
            self.indent -= 1
            self.emit("else:  # true in every turn")
            self.rest_of_turns(gen, rest, innermost, {kept: "True"})
            return True
        return False

    def rest_of_turns(self, gen: ast.comprehension, rest: list[Any],
                      innermost: Callable[[], None], assumed: dict[str, str]) -> None:
        """The chained turns `rest`, one level in, knowing the tests `assumed` hold those
        values (with the block they leave open closed)."""
        indent, before = self.indent, self.assumed
        self.indent += 1
        self.assumed = {**before, **assumed}
        start = len(self.lines)
        try:
            for constant in rest:
                self.turn(gen, constant, innermost)
                if self.decided:
                    break
            if len(self.lines) > start and self.lines[-1].strip() == "else:":
                del self.lines[-1]
            if len(self.lines) == start:
                self.emit("pass")
        finally:
            self.indent, self.assumed, self.decided = indent, before, False

    def set_kept_afresh(self) -> None:
        """At the start of each turn of the innermost loop being closed, what is kept for
        one turn of it is forgotten (the marker line written at its start says where)."""
        inits = self.loop_inits.pop()
        marker = f"{_INITS}{len(self.loop_inits) + 1}"
        for i in range(len(self.lines) - 1, -1, -1):
            stripped = self.lines[i].lstrip()
            if stripped == marker:
                pad = self.lines[i][:len(self.lines[i]) - len(stripped)]
                if inits:
                    unset = self.obj(_UNSET, "not computed yet")
                    self.lines[i] = f"{pad}{' = '.join(inits)} = {unset}"
                else:
                    del self.lines[i]
                for key in [k for k in self.kept if k[1] == len(self.loop_inits) + 1]:
                    del self.kept[key]
                return
        raise AssertionError(f"no {marker}")  # pragma: no cover

    def loop_source(self, source: str, per: int, items: str) -> str:
        """What a loop goes through, charged by its length times `per` (a list in place;
        anything else by loop_items, which also refuses what is not a list)."""
        if self.is_list(source) and source.isidentifier():  # read as it is: no copy
            self.charge(f"len({source}) * {per}")
            return source
        src = self.tmp()
        self.emit(f"{src} = {source}")
        if self.is_list(source):
            self.lists.add(src)
            self.charge(f"len({src}) * {per}")
            return src
        self.emit(f"if type({src}) is list:")
        self.charge(f"len({src}) * {per}", "    ")
        self.emit("else:")
        self.emit(f"    {src} = {items}(env, {src}, {per})")
        return src

    def g_ListComp(self, node: ast.GeneratorExp | ast.ListComp) -> str:
        out = self.tmp()
        self.emit(f"{out} = []")
        nested = len(node.generators) > 1
        limit = self.scope.limits.list_length

        scalar = []

        def body() -> None:
            element = self.value(node.elt)
            scalar.append(self.is_scalar(element))
            self.emit(f"{out}.append({element})")
            if nested:
                self.emit(f"if len({out}) > {limit}:")
                self.emit(f"    {self.obj(too_long)}('list_length', 'a list', len({out}), "
                          f"{limit})")
        self.loops(node, body)
        self.lists.add(out)
        if all(scalar):
            self.flat.add(out)
        return out

    g_GeneratorExp = g_ListComp

    def counted(self, node: ast.ListComp) -> str:
        """len([... for ...]): its elements counted as the list would be built (each
        computed, charged as it is), not kept in a list nobody reads."""
        out = self.tmp()
        self.emit(f"{out} = 0")
        nested = len(node.generators) > 1
        limit = self.scope.limits.list_length

        def body() -> None:
            element = self.value(node.elt)
            if not self.is_atom(element):  # (computed for what computing it may stop)
                self.emit(f"{self.tmp()} = {element}")
            self.emit(f"{out} += 1")
            if nested:
                self.emit(f"if {out} > {limit}:")
                self.emit(f"    {self.obj(too_long)}('list_length', 'a list', {out}, {limit})")
        self.loops(node, body)
        self.scalars.add(out)
        self.ints.add(out)
        return out

    def quantifier(self, node: ast.GeneratorExp | ast.ListComp, every: bool) -> str:
        r = self.tmp()
        lines, start = self.lines, len(self.lines)
        self.emit(f"{r} = {every}")
        known = [True, False]  # (whether every turn so far had an element known here;
        # whether there was one)

        def body() -> None:
            element = self.value(node.elt)
            known[1] = True
            if self.chained and element in ("True", "False"):  # (see unswitched)
                if (element == "True") != every:  # this turn decides: no turn after it
                    self.emit(f"{r} = {not every}")
                    self.decided = True
                return
            known[0] = False
            self.emit(f"if not {element}:" if every else f"if {element}:")
            self.emit(f"    {r} = {not every}")
            if self.chained:  # the next turns run only when this one does not decide
                self.emit("else:")
                self.indent += 1
            else:
                self.emit("    break")
        self.loops(node, body, f"if {'not ' if every else ''}{r}: break", chain=True,
                   every=every)
        if all(known) and len(node.generators) == 1 and self.lines is lines:
            return self.known_quantifier(r, lines, start)
        return r

    def known_quantifier(self, r: str, lines: list[str], start: int) -> str:
        """The value of a quantifier whose every turn was known here (written out, none
        computed as the code runs): what set its name is dropped."""
        value = None  # (its first value may be set before the charge just before it)
        for i in range(len(lines) - 1, max(start - 3, -1), -1):
            head, _, tail = lines[i].strip().partition(" = ")
            if head == r:
                value = tail if value is None else value
                del lines[i]
        assert value in ("True", "False")
        return value


_ONLY_READING = frozenset({"first", "last"})
"""Built-ins that only read the list they are given (it needs no copy of its own)."""

_LISTING = frozenset({"panels", "edge", "stack", "pieces", "above", "below", "neighbours",
                      "cells", "distinct", "sorted", "reversed", "range", "without"})
"""Built-ins whose value is a list."""


def _charging(line: str) -> bool:
    """Whether a generated line only charges steps (and stops when they are spent)."""
    stripped = line.strip()
    return stripped.startswith(("env.steps += ", "if env.steps > env.step_limit: "))


def _listed(node: ast.expr) -> bool:
    """Whether an expression surely gives a list (a call with it is not remembered:
    only calls with numbers, texts and null are)."""
    if isinstance(node, ast.List | ast.Tuple | ast.ListComp | ast.GeneratorExp):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _LISTING)


def _literal(value: Any) -> str:
    if isinstance(value, float) and value != value:
        raise ValueError("not a number")  # never: the checker refuses it
    return f"({value!r})" if isinstance(value, int | float) and value < 0 else repr(value)


def _constant_directions(node: ast.expr) -> tuple[str, ...] | None:
    """Directions written out (['n', 'e']) or named (orthogonal): known when compiling."""
    if isinstance(node, ast.Name):
        named = {"orthogonal": ORTHOGONAL, "diagonal": DIAGONAL, "directions": ALL_DIRECTIONS,
                 "hex_directions": HEX_ORDER}
        found = named.get(node.id)
        return tuple(found) if found is not None else None
    if isinstance(node, ast.List | ast.Tuple) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def _is_literal(code: str) -> bool:
    if not code or code[0] not in _LITERAL_STARTS:  # (a name, a call: no need to parse)
        return code in ("True", "False", "None")
    return memo.LITERAL.get(code, lambda: _parses_to_literal(code))


def _parses_to_literal(code: str) -> bool:
    try:
        node = ast.parse(code, mode="eval").body
    except SyntaxError:
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant)


_LITERAL_STARTS = frozenset("0123456789-.(\"'")
"""How the code of a literal other than True, False and None may begin (_literal writes
a negative number in brackets)."""


def _is_list_display(code: str) -> bool:
    try:
        return isinstance(ast.parse(code, mode="eval").body, ast.List)
    except SyntaxError:
        return False


def _guarded(fast: str, checks: list[str], slow: str) -> str:
    """`fast` where every check holds (the empty ones are known), else `slow`."""
    tests = " and ".join(c for c in checks if c)
    return f"({fast} if {tests} else {slow})" if tests else fast


def _constant_items(code: str) -> list[Any] | None:
    """The items of a list written out of constants (`['n', 'e']`, `[0, 1, 2]`), else
    None."""
    if not (code.startswith("[") and code.endswith("]")):
        return None
    try:
        items = ast.literal_eval(code)
    except (ValueError, SyntaxError):
        return None
    return items if type(items) is list else None


def _text_value(code: str) -> str | None:
    """The text a code is the literal of, else None."""
    if len(code) < 2 or code[0] not in "'\"" or code[-1] != code[0]:
        return None
    try:
        value = ast.literal_eval(code)
    except (ValueError, SyntaxError):
        return None
    return value if type(value) is str else None


def _int_value(code: str) -> int | None:
    """The whole number a code is the literal of (`3`, `(-2)`), else None."""
    return int(code.strip("()")) if _is_int_literal(code) else None


def _is_int_literal(code: str) -> bool:
    stripped = code.strip("()")
    if stripped.startswith("-"):
        stripped = stripped[1:]
    return stripped.isdigit()


def generate(tree: ast.expr, scope: ex.Scope, slow: Callable[..., Any], what: str,
             params: list[str] | None = None) -> Callable[..., Any]:
    """The fast function of a checked expression; `slow` (its closures) takes over
    whenever the generated code gives up. With `params`, a definition's body as
    f(env, *params), its parameters Python locals."""
    hooks = scope.code
    assert hooks is not None
    w = _Writer(scope, hooks)
    args = [w.tmp("a") for _ in params or ()]
    w.names = dict(zip(params or (), args, strict=True))
    try:
        result = w.value(tree)
    except Unwritable:
        return _with_temps(params, slow) if params else slow
    return _function(w, args, result, _with_temps(params, slow) if params else slow, what)


MAX_TEMPLATE_PARTS = 200
"""Most expressions a generated template writes: Python compiles one long expression
slowly (a template of 20,000 parts took a second and 250 MB), and a text that long is
written by the closures as quickly."""


def generate_template(parts: list[str | ast.expr], scope: ex.Scope, slow: Callable[..., Any],
                      show: Callable[[Any], str], weight: int, what: str,
                      inline: list[bool]) -> Callable[..., Any]:
    """The fast function of a text template (its literal texts and checked expressions,
    with whether each may have its small definitions written out in place): each value
    written out as `show` writes it, the text charged by its length plus the weight of
    its expressions, as the closures do."""
    hooks = scope.code
    assert hooks is not None
    trees = [p for p in parts if not isinstance(p, str)]
    if len(trees) > MAX_TEMPLATE_PARTS:
        return slow
    w = _Writer(scope, hooks)
    for tree, allowed in zip(trees, inline, strict=True):
        w.expression(tree, allowed)
    try:
        values = w.values(trees)
    except Unwritable:
        return slow
    shown = w.obj(show, "how a value reads in a text")
    pieces, i = [], 0
    for part in parts:
        if isinstance(part, str):
            pieces.append(repr(part))
            continue
        code = w.atom(values[i])
        i += 1
        pieces.append(f"({code} if type({code}) is str else {shown}({code}))")
    limit = scope.limits.text_length
    after = [f"    if len(text) > {limit}: "
             f"{w.obj(too_long)}('text_length', 'a text', len(text), {limit})",
             f"    env.steps += len(text) + {weight}",
             f"    if env.steps > env.step_limit: {w.obj(overspent)}(env)"]
    return _function(w, [], "''.join([" + ", ".join(pieces) + "])", slow, what, after)


def _function(w: _Writer, args: list[str], result: str, slow: Callable[..., Any], what: str,
              after: list[str] | None = None) -> Callable[..., Any]:
    """Wrap what `w` wrote into a function that hands over to `slow` when the fast
    path gives up (its steps, draws, cached definitions and noted pieces undone); with
    `after`, lines run on the result (`text`) once it is computed."""
    name = f"e{next(w.hooks.numbers)}"
    head = [f"def {name}({', '.join(['env', *args])}):"]
    head += [f"    {var} = {code}" for var, code in w.prologue.items()]
    head.append("    s0 = env.steps")
    restore = ["        env.steps = s0"]
    if w.random:
        head.append("    r0 = env.state.rng")
        restore.append("        env.state.rng = r0")
    if w.caches:
        head.append("    n0 = len(env.cache)")
        restore.append("        forget(env.cache, n0)")
    if w.scope.track_pieces:
        head.append("    m0 = len(env.mentioned) if env.mentioned is not None else 0")
        restore.append("        if env.mentioned is not None: del env.mentioned[m0:]")
    done = [f"        return {result}"] if after is None else [f"        text = {result}"]
    lines = [*head, "    try:", *w.lines, *done, "    except FAST_FAILURES:", *restore,
             f"        return slow({', '.join(['env', *args])})"]
    if after is not None:
        lines += [*after, "    return text"]
    source = "\n".join([*lines, ""])
    namespace = w.namespace
    namespace["__builtins__"] = _BUILTINS
    namespace["FAST_FAILURES"] = FAST_FAILURES
    namespace["forget"] = forget
    namespace["slow"] = slow
    code = compile_source(source, name)
    exec(code, namespace)  # the generated source above, never the ruleset's text
    w.hooks.sink.append(GeneratedCode(name, what, source, w.legend))
    return namespace[name]


def compile_source(source: str, name: str) -> Any:
    """Python's compiler on generated source (remembered: a recompile writes the same)."""
    return memo.code_of(source, name)


def _with_temps(params: list[str], body: Callable[[Any], Any]) -> Callable[..., Any]:
    """The closures of a definition's body read its parameters from `env.temps`."""
    def call(env: Any, *values: Any) -> Any:
        temps = env.temps
        saved = [temps.get(p, _MISSING) for p in params]
        temps.update(zip(params, values, strict=True))
        try:
            return body(env)
        finally:
            for p, v in zip(params, saved, strict=True):
                if v is _MISSING:
                    temps.pop(p, None)
                else:
                    temps[p] = v
    return call


_MISSING = object()


# -- option listings ---------------------------------------------------------------------

_DISTINCT_CALLS = {"cells", "stack", "above", "below", "range", "distinct", "one_of_each_kind",
                   "border"}
_DISTINCT_NAMES = {"seats", "directions", "orthogonal", "diagonal", "hex_directions"}


def _distinct(node: ast.expr, scope: ex.Scope) -> bool:
    """Whether a `for` source can never hold a value twice (its options then need no
    duplicate removal)."""
    if isinstance(node, ast.Name):
        return node.id in _DISTINCT_NAMES
    if isinstance(node, ast.ListComp | ast.GeneratorExp):
        gens = node.generators
        return (len(gens) == 1 and isinstance(gens[0].target, ast.Name)
                and isinstance(node.elt, ast.Name) and node.elt.id == gens[0].target.id
                and _distinct(gens[0].iter, scope))
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    name, args = node.func.id, node.args
    if name in scope.definitions:
        return False
    if name in _DISTINCT_CALLS:
        return True
    if name == "neighbours":
        dirs = _constant_directions(args[1]) if len(args) == 2 else ()
        return dirs is not None and len(set(dirs)) == len(dirs)
    if name == "pieces" and len(args) == 1 and isinstance(args[0], ast.Name):
        found = scope.resolve_global(args[0].id)
        return isinstance(found, ex.Constant) and not isinstance(found.value, list)
    if name in ("sorted", "without") and args:
        return _distinct(args[0], scope)
    return False


_NEVER_LISTS = {"sum", "count", "len", "height", "abs", "top", "bottom", "place_of", "row",
                "col", "owner", "offset", "empty", "seat_name", "place_name", "piece_name",
                "piece_code", "value_name", "dir_name", "next_seat", "zone_of",
                "zone_of_piece", "str", "join", "altitude", "random_int", "roll", "place",
                "any", "all", "panel"}
"""Built-ins whose value is never a list (a number, a text, a place, a piece, null)."""


def never_a_list(node: ast.expr, scope: ex.Scope, hooks: CodeHooks | None,
                 seen: frozenset[str] = frozenset()) -> bool:
    """Whether an expression's value can never be a list, whatever the values it reads
    (so comparing it needs no care for lists: see _Writer.test). A definition with
    parameters is looked into (once: CodeHooks.plain)."""
    if isinstance(node, ast.Constant | ast.Attribute | ast.Compare):
        return True
    if isinstance(node, ast.UnaryOp):  # (not: true or false; -: a number or an error;
        return not isinstance(node.op, ast.UAdd)  # +: the value itself)
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Sub | ast.FloorDiv | ast.Mod | ast.Div):
            return True
        sides = (never_a_list(node.left, scope, hooks, seen),
                 never_a_list(node.right, scope, hooks, seen))
        # a list + a number fails, but a list * a number is a list
        return any(sides) if isinstance(node.op, ast.Add) else all(sides)
    if isinstance(node, ast.IfExp):
        return (never_a_list(node.body, scope, hooks, seen)
                and never_a_list(node.orelse, scope, hooks, seen))
    if isinstance(node, ast.BoolOp):
        return all(never_a_list(v, scope, hooks, seen) for v in node.values)
    if isinstance(node, ast.Name):  # a value's name, a number of the game, a definition
        if node.id in scope.temps | scope.locals:
            return False
        if node.id in ex._CONSTANT_NAMES or node.id in ("current", "players", "turn"):
            return True
        found = scope.resolve_global(node.id)
        if isinstance(found, ex.Constant):
            return _plain(found.value)
        return _definition_plain(node.id, hooks, seen)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    name = node.func.id
    if name not in scope.definitions:
        return name in _NEVER_LISTS and name in scope.functions
    return _definition_plain(name, hooks, seen)


def _definition_plain(name: str, hooks: CodeHooks | None, seen: frozenset[str]) -> bool:
    """Whether a definition's value is never a list (see never_a_list), decided once."""
    if hooks is None:
        return False
    found = hooks.plain.get(name)
    if found is None:
        body = hooks.definition(name)
        if body is None or name in seen:
            return False
        try:
            tree = ex.parse(body[1])
        except ex.ExpressionError:
            return False
        found = hooks.plain[name] = never_a_list(
            tree, hooks.ruleset_scope().with_temps(body[0]), hooks, seen | {name})
    return found


def flat_list(node: ast.expr, scope: ex.Scope, hooks: CodeHooks | None,
              seen: frozenset[str] = frozenset()) -> bool:
    """Whether an expression's value, when it is a list, can never hold a list (so
    comparing or sorting it costs its length: see run.budget.walk_steps), whatever the
    values it reads. Definitions are looked into (once: CodeHooks.flat)."""
    if isinstance(node, ast.List | ast.Tuple):
        return all(never_a_list(e, scope, hooks, seen) for e in node.elts)
    if isinstance(node, ast.ListComp | ast.GeneratorExp):
        scope = scope.with_temps(  # (its own names hide the ruleset's)
            n for gen in node.generators for n in _names_in(gen.target))
        if never_a_list(node.elt, scope, hooks, seen):
            return True
        if not isinstance(node.elt, ast.Name):
            return False
        source = None  # the loop naming the element (the innermost, if several do)
        for gen in node.generators:
            if isinstance(gen.target, ast.Name) and gen.target.id == node.elt.id:
                source = gen.iter
            elif node.elt.id in _names_in(gen.target):
                source = None
        return source is not None and flat_list(source, scope, hooks, seen)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (flat_list(node.left, scope, hooks, seen)
                and flat_list(node.right, scope, hooks, seen))
    if isinstance(node, ast.IfExp):
        return (flat_list(node.body, scope, hooks, seen)
                and flat_list(node.orelse, scope, hooks, seen))
    if isinstance(node, ast.Name):
        if node.id in scope.temps | scope.locals:
            return False
        if node.id in _DISTINCT_NAMES:
            return True
        return _definition_flat(node.id, hooks, seen, parameters=False)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return False
    name, args = node.func.id, node.args
    if name in scope.definitions:
        return _definition_flat(name, hooks, seen, parameters=True)
    if name not in scope.functions:
        return False
    if name in _PLAIN_CALLS:
        return True
    return name in _KEEPING_CALLS and bool(args) and flat_list(args[0], scope, hooks, seen)


def _definition_flat(name: str, hooks: CodeHooks | None, seen: frozenset[str],
                     parameters: bool) -> bool:
    """Whether a definition's value is a flat list (see flat_list), decided once."""
    if hooks is None:
        return False
    found = hooks.flat.get(name)
    if found is not None:
        return found
    body = hooks.definition(name)
    if body is None or bool(body[0]) != parameters or name in seen:
        return False
    try:
        tree = ex.parse(body[1])
    except ex.ExpressionError:
        return False
    found = hooks.flat[name] = flat_list(tree, hooks.ruleset_scope().with_temps(body[0]),
                                         hooks, seen | {name})
    return found


_PLAIN_CALLS = {"cells", "stack", "above", "below", "range", "one_of_each_kind", "pieces",
                "neighbours", "panels", "edge", "border"}
"""Built-ins whose lists hold plain values (places, pieces, numbers, texts), never lists."""
_KEEPING_CALLS = {"sorted", "without", "distinct", "reversed", "shuffled"}
"""Built-ins whose list holds values of the list they are given."""


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


@dataclass
class OptionParts:
    """An option kind as written: its `for` names and sources, `let`s and `where`, with
    the steps the closures charge for it (kept exactly)."""

    names: list[str]
    sources: list[ast.expr]
    lets: list[tuple[str, ast.expr]]
    where: ast.expr | None
    weight: int
    source_weights: list[int]
    inline: dict[int, bool] = field(default_factory=dict)
    """For each expression (by its tree): whether its small definitions may be written
    out in place (as its closures decided)."""


def generate_listing(parts: OptionParts, scope: ex.Scope, slow_values: Callable[..., Any],
                     slow_exists: Callable[..., Any], what: str
                     ) -> tuple[Callable[[Any], list[tuple]], Callable[[Any], bool]]:
    """Two generated functions for an option kind: its options (the tuples of its `for`
    values) and whether it has any. Each part of `where` is tested in the outermost loop
    whose names it uses, each `let` and source computed there too, and duplicates are
    only looked for when a source could repeat a value. Whatever the generated code
    cannot decide, or a part tested early that fails, goes to the careful listing."""
    try:
        return (_listing(parts, scope, slow_values, what, exists=False),
                _listing(parts, scope, slow_exists, what, exists=True))
    except Unwritable:
        return slow_values, slow_exists


def open_loop(w: _Writer, var: str) -> None:
    """An option's `for` as a loop of the writer's own: a part of the condition (or of a
    definition written out in it) that only uses the names of the loops around this one
    is kept for a turn of theirs, as in a comprehension (an option's cap arrangement
    without its origin, computed once per origin, not once per direction)."""
    w.loop_depth += 1
    w.loop_vars[var] = w.loop_depth
    w.loop_inits.append([])
    w.emit(f"{_INITS}{w.loop_depth}")  # (what is kept: set when the listing is written)


def _listing(parts: OptionParts, scope: ex.Scope, slow: Callable[..., Any], what: str,
             exists: bool) -> Callable[[Any], Any]:
    hooks = scope.code
    assert hooks is not None
    w = _Writer(scope, hooks)
    for tree in [*parts.sources, *(node for _, node in parts.lets), parts.where]:
        if tree is not None:
            w.expression(tree, parts.inline.get(id(tree), True))
    n = len(parts.names)
    level = {"chooser": 0}
    for i, name in enumerate(parts.names):
        level[name] = i + 1

    def depth(node: ast.AST) -> int:
        return max((level.get(x, 0) for x in _names_in(node)), default=0)

    lets_at: dict[int, list[tuple[str, ast.expr]]] = {}
    for name, node in parts.lets:
        d = depth(node)
        lets_at.setdefault(d, []).append((name, node))
        level[name] = d
    def invariant_parts(node: ast.expr, d: int) -> list[tuple[int, ast.expr]]:
        """The largest parts of `node` (tested at depth d) that use only the names of an
        outer loop: computed there once, not for every value of the inner ones. Not
        inside a comprehension (its own names) or a branch of `and`, `or`, `if`."""
        found: list[tuple[int, ast.expr]] = []

        def walk(part: ast.AST) -> None:
            if isinstance(part, ast.ListComp | ast.GeneratorExp | ast.BoolOp | ast.IfExp):
                return
            if isinstance(part, ast.Call | ast.Attribute | ast.Subscript | ast.BinOp):
                level_of = depth(part)
                if level_of < d and not _names_in(part) & comprehension_names:
                    found.append((level_of, part))
                    return
            for child in ast.iter_child_nodes(part):
                walk(child)
        walk(node)
        return found

    comprehension_names = {
        t.id for n in ast.walk(parts.where) if isinstance(n, ast.comprehension)
        for t in ast.walk(n.target) if isinstance(t, ast.Name)} if parts.where else set()
    conds_at: dict[int, list[ast.expr]] = {}
    hoisted_at: dict[int, list[ast.expr]] = {}
    conjuncts = ([] if parts.where is None else
                 parts.where.values if isinstance(parts.where, ast.BoolOp)
                 and isinstance(parts.where.op, ast.And) else [parts.where])
    for c in conjuncts:
        d = depth(c)
        conds_at.setdefault(d, []).append(c)
        for level_of, part in invariant_parts(c, d):
            hoisted_at.setdefault(level_of, []).append(part)
    sources_at: dict[int, list[int]] = {}
    for i, node in enumerate(parts.sources):
        sources_at.setdefault(depth(node), []).append(i)

    checked = w.obj(option_values)  # (values kept as local names: see the closures)
    plain = w.plain_kinds()
    limit = scope.limits.value_size
    chooser = w.tmp("c")
    w.names = {"chooser": chooser}
    w.emit(f"{chooser} = {w.uses('tp', 'env.temps')}['chooser']")
    first = parts.source_weights[0] if parts.source_weights else parts.weight
    w.emit(f"env.steps += {first}")
    out = w.tmp("out")
    if not exists:
        w.emit(f"{out} = []")
    fail = "return False" if exists else f"return {out}"
    computed: dict[int, str] = {}
    constants: dict[int, list[Any] | None] = {}
    loop_vars: list[str] = []
    for d in range(n + 1):
        for name, node in lets_at.get(d, []):
            var = w.tmp("l")
            code = w.value(node)
            w.emit(f"{var} = {code}")
            for known in (w.scalars, w.flat, w.lists, w.places):
                if code in known:
                    known.add(var)
            # (not measured here: what an option's `let` keeps is bound, and measured,
            # by its careful closure when the option is chosen)
            w.names[name] = var
            w.loop_vars[var] = d  # (the same in every turn of the loops inside)
        for c in conds_at.get(d, []):
            w.emit(f"if not {w.value(c)}:")
            w.emit("    continue" if d else f"    {fail}")
        for part in hoisted_at.get(d, []):  # for the conditions of the loops inside
            w.precomputed[id(part)] = w.atom(w.value(part))
        for i in sources_at.get(d, []):
            w.loop_sources.add(id(parts.sources[i]))  # only gone through
            raw = w.value(parts.sources[i])
            constants[i] = _constant_items(raw)
            code = computed[i] = w.atom(raw)
            if w.is_list(raw):  # (a written-out list kept in a name)
                w.lists.add(code)
            if not flat_list(parts.sources[i], scope, hooks):
                w.emit(f"if type({code}) is list and not {plain}.isdisjoint(map(type, {code})):"
                       f" {checked}(env, {code}, {limit}, {'for: ' + parts.names[i]!r})")
        if d == n:
            break
        per = parts.source_weights[d + 1] if d + 1 < n else parts.weight
        source = computed.get(d)
        if source is None:  # never: a source only uses names bound before it
            source = w.atom(w.value(parts.sources[d]))
        items = w.tmp()
        what_for = f"'for: {parts.names[d]}'"
        w.emit(f"{items} = {source}")
        if w.is_list(source):  # (a list built here, or written out)
            w.lists.add(items)
            w.charge(f"len({items}) * {per}")
        else:
            w.emit(f"if type({items}) is list:")
            w.charge(f"len({items}) * {per}", "    ")
            w.emit("else:")
            w.emit(f"    {items} = {w.obj(ex.loop_items)}(env, {items}, {per}, "
                   f"{what_for!r})")
        var = w.tmp("v")
        w.emit(f"for {var} in {items}:")
        w.indent += 1
        w.names[parts.names[d]] = var
        open_loop(w, var)
        known = constants.get(d)
        if known and all(type(c) is str for c in known):  # (as a comprehension knows)
            w.texts.add(var)
        if known and all(type(c) is int for c in known):
            w.ints.add(var)
            w.int_items[var] = frozenset(known)
        if source in w.place_lists:
            w.places.add(var)
        loop_vars.append(var)
    values = "(" + "".join(f"{v}, " for v in loop_vars) + ")"
    if exists:
        w.emit("return True")
    else:
        w.emit(f"{out}.append({values})")
    for _ in loop_vars:
        w.set_kept_afresh()
    w.indent = 2
    if not exists and not all(_distinct(s, scope) for s in parts.sources):
        w.emit(f"{out} = unique_options({out})")
    result = "False" if exists else out
    name = f"{'any' if exists else 'list'}{next(hooks.numbers)}"
    head = [f"def {name}(env):"]
    head += [f"    {var} = {code}" for var, code in w.prologue.items()]
    head += ["    s0 = env.steps", "    n0 = len(env.cache)"]
    source_text = "\n".join([
        *head, "    try:", *w.lines, f"        return {result}",
        "    except FAST_FAILURES:",
        "        env.steps = s0",
        "        forget(env.cache, n0)",
        "        return slow(env)",
        "    except BudgetError:",
        "        raise",
        "    except RuleError:  # a part tested early: the careful order may not reach it",
        "        env.steps = s0",
        "        forget(env.cache, n0)",
        "        return slow(env)", ""])
    namespace = w.namespace
    namespace.update({"__builtins__": {**_BUILTINS, "set": set, "dict": dict},
                      "FAST_FAILURES": FAST_FAILURES, "BudgetError": BudgetError,
                      "RuleError": RuleError, "slow": slow, "forget": forget,
                      "unique_options": unique_options})
    code = compile_source(source_text, name)
    exec(code, namespace)  # the generated source above, never the ruleset's text
    hooks.sink.append(GeneratedCode(name, what, source_text, w.legend))
    return namespace[name]
