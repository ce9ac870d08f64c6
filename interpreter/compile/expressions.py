"""The expression language: safe by construction, compiled once at load.

Python's ``ast`` module is used only as a *parser*; the tree is checked against a
whitelist and turned into plain closures. Nothing is ever passed to ``eval`` or
``exec``, there is no attribute access on Python objects (``p.colour`` reads a
declared piece attribute from a table), and every name is resolved against the
ruleset at load time, so a typo is a located error before any game starts.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import keyword
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from interpreter.compile import memo
from interpreter.errors import BudgetError, Diagnostic, Location, RuleError, did_you_mean
from interpreter.run.budget import (
    DEFAULT_LIMITS,
    Limits,
    describe,
    loop_items,
    overspent,
    shown_size,
    too_large,
    too_long,
    walk_steps,
)

Compiled = Callable[[Any], Any]
"""A compiled expression: call it with an evaluation environment."""

MAX_EXPRESSION_LENGTH = 20_000
"""Longest expression text (characters): Python's parser, which reads it, recurses."""

LOOP_STEPS = 3
"""Steps each element of a loop costs before its own expressions: going round a loop in
Python costs about as much as evaluating a few parts of an expression."""

MAX_INLINED = 200
"""Largest definition written out in place where it is called (inlined): parts of its
body, with the definitions it writes out in place in turn. A larger one is called as a
function of its own, so that what one call stands for never grows with the depth of the
definitions it uses (sixteen definitions each using the next twice would otherwise
write out 65,536 copies of the last)."""

MAX_WRITTEN_OUT = 20_000
"""Parts all the definitions written out in place may add to a game's expressions
together. Each expression that calls small definitions spends what writing them out
adds, in the order the game compiles; once the allowance is spent, the calls of the
expressions still to come stay calls. So compiling takes time in proportion to the
file, whatever calls what. The bundled games spend at most about 600."""

MAX_NESTING = 100
"""Deepest nesting of an expression (operators, calls, brackets): the compiled closures
call each other once per level, and Python's stack is not unlimited."""


class BrokenRuleset(RuleError):
    """A part of a ruleset that did not compile was evaluated while compiling the rest
    (e.g. a board size that uses a misspelt option); its mistake is already reported."""


def broken(env: Any) -> Any:
    """Stands for an expression that did not compile, so compiling can go on and report
    every mistake at once."""
    raise BrokenRuleset("a part of the ruleset with a mistake was used")


class ExpressionError(Exception):
    """A problem in one expression, located relative to the start of its text."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None,
                 expected: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint
        self.expected = expected


@dataclass
class Function:
    """A built-in function of the language, with its English for the rulebook."""

    name: str
    impl: Callable[..., Any]
    min_args: int
    max_args: int
    english: str
    doc: str
    random: bool = False
    site_args: tuple[int, ...] = ()
    """Argument positions where a text constant names a site (``"c3"``)."""
    describes_piece: bool = False
    """Its text tells which piece its first argument is (a log line using it may have
    to be hidden from a seat that may not know that piece)."""


@dataclass
class Scope:
    """What names mean where an expression is written."""

    resolve_global: Callable[[str], Compiled | None]
    """Looks up a ruleset-level name (option, variable, zone, constant, definition)."""
    known_globals: Callable[[], Iterable[str]]
    functions: dict[str, Function]
    attributes: dict[str, list[Any]]
    """Piece attribute tables: ``attributes['size'][piece] -> value``."""
    resolve_site: Callable[[str], int | None]
    locals: frozenset[str] = frozenset()
    temps: frozenset[str] = frozenset()
    allow_random: bool = False
    definitions: dict[str, Callable[[list[Compiled], list[ast.expr], bool], Compiled]] = field(
        default_factory=dict)
    bound: dict[str, Compiled] = field(default_factory=dict)
    """Names standing for an expression of the caller (inlined definition parameters)."""
    limits: Limits = DEFAULT_LIMITS
    track_pieces: bool = False
    """Record every piece the expression describes (by attribute, name or code) in
    ``env.mentioned``: log lines compiled so can be hidden from a seat that may not
    know those pieces."""
    definition_weight: Callable[[str], int] = lambda name: 0
    """Steps one call of a definition with parameters costs (its body's weight)."""
    code: Any = None
    """The game compiler's CodeHooks (codegen.py): with them, expressions are also
    compiled to generated Python functions; without, closures only."""
    inlining: Callable[[str], bool] = lambda text: True
    """Whether the small definitions an expression calls may be written out in place in
    it (the game compiler's allowance, decided once for each expression text)."""
    inline: bool = True
    """That decision for the expression being compiled."""
    site_names: Callable[[], Iterable[str]] = lambda: ()
    """Every place's name (for a did-you-mean when a quoted name names none)."""

    def no_place(self, name: str) -> str | None:
        """The did-you-mean for a quoted place name that names no place."""
        return did_you_mean(name, list(self.site_names()))

    def with_temps(self, names: Iterable[str]) -> Scope:
        names = frozenset(names)
        bound = {k: v for k, v in self.bound.items() if k not in names}
        return dataclasses.replace(self, temps=self.temps | names, bound=bound)


class Constant:
    """A ruleset-level name whose value is fixed when the game compiles (an option, a
    zone): generated code writes it in as a literal."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __call__(self, env: Any) -> Any:
        return self.value


class StateRead:
    """A ruleset-level name that reads the state directly (the current seat, a
    variable): generated code reads it in place. `code` is made by tabletop from
    generated names and repr'd literals only, over `env.state`."""

    __slots__ = ("code", "read")

    def __init__(self, code: str, read: Callable[[Any], Any]) -> None:
        self.code = code
        self.read = read

    def __call__(self, env: Any) -> Any:
        return self.read(env)


_BINOP_SYMBOLS: dict[type, str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.Div: "/",
}

_ORDER_SYMBOLS: dict[type, str] = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}

_LANGUAGE_WORDS = {"and", "or", "not", "in", "if", "else", "for", "True", "False", "None"}

RESERVED_WORDS = frozenset(keyword.kwlist) - _LANGUAGE_WORDS
"""Words an expression can never use as a name (`from`, `class`, `is`, `lambda`, …): the
parser keeps them, though the language gives them no meaning. A ruleset may not give
them to anything it names (a variable, a definition, a local name)."""


RESERVED_HINT = f"choose another name (reserved: {', '.join(sorted(RESERVED_WORDS))})"


_CONSTANT_NAMES = {"true": True, "false": False, "null": None, "none": None,
                   "True": True, "False": False, "None": None}

_SEQUENCES = (list, tuple, str)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float)


def _checked_number(value: Any, big: int) -> Any:
    """`value` when it is within the ruleset's largest_number (and finite)."""
    if type(value) is int:
        if -big <= value <= big:
            return value
    elif isinstance(value, float):
        if value == value and -big <= value <= big:
            return value
    elif isinstance(value, int):  # true/false
        return value
    too_large(value, big)


def _checked_size(env: Any, value: Any, limits: Limits) -> Any:
    """Charge a built list or text by its length, and keep it within the limits."""
    n = len(value)
    if isinstance(value, str):
        if n > limits.text_length:
            too_long("text_length", "a text", n, limits.text_length)
    elif n > limits.list_length:
        too_long("list_length", "a list", n, limits.list_length)
    env.steps += n
    if env.steps > env.step_limit:
        overspent(env)
    return value


def _arithmetic(symbol: str, limits: Limits) -> Callable[[Any, Any, Any], Any]:
    """The slow, careful path of an operator: every kind of operand, every limit."""
    big = limits.largest_number

    def apply(env: Any, a: Any, b: Any) -> Any:
        if _is_number(a) and _is_number(b):
            try:
                if symbol == "+":
                    r = a + b
                elif symbol == "-":
                    r = a - b
                elif symbol == "*":
                    r = a * b
                elif symbol == "//":
                    r = a // b
                elif symbol == "%":
                    r = a % b
                else:
                    r = a / b
            except ZeroDivisionError:
                raise RuleError(f"division by zero in '{symbol}'") from None
            except OverflowError:
                too_large(a, big)
            return _checked_number(r, big)
        if symbol == "+" and type(a) is type(b) and isinstance(a, _SEQUENCES):
            size = len(a) + len(b)
            if isinstance(a, str) and size > limits.text_length:
                too_long("text_length", "a text", size, limits.text_length)
            if not isinstance(a, str) and size > limits.list_length:
                too_long("list_length", "a list", size, limits.list_length)
            return _checked_size(env, a + b, limits)
        if symbol == "*":
            seq, n = (a, b) if isinstance(a, _SEQUENCES) else (b, a)
            if isinstance(seq, _SEQUENCES) and type(n) is int:
                size = len(seq) * max(n, 0)
                if isinstance(seq, str) and size > limits.text_length:
                    too_long("text_length", "a text", size, limits.text_length)
                if not isinstance(seq, str) and size > limits.list_length:
                    too_long("list_length", "a list", size, limits.list_length)
                return _checked_size(env, seq * n, limits)
        raise RuleError(f"cannot apply '{symbol}' to {_kind(a)} and {_kind(b)}")
    return apply


def _contains(env: Any, item: Any, container: Any) -> bool:
    """`item in container`: lists and texts are searched (and charged by length; a list
    looked for in a list, by its length times what comparing the list with each element
    may go through: see run.budget.walk_steps)."""
    if isinstance(container, _SEQUENCES):
        if type(item) in _LISTS and type(container) in _LISTS:
            env.steps += len(container) * max(walk_steps(env, item), 1)
        else:
            env.steps += len(container)
        if env.steps > env.step_limit:
            overspent(env)
        if isinstance(container, str) and not isinstance(item, str):
            raise RuleError(f"cannot look for {_kind(item)} in a text")
        try:
            return item in container
        except TypeError:
            raise RuleError(f"cannot look for {_kind(item)} in {_kind(container)}") from None
    raise RuleError(f"'in' needs a list or a text on its right, got {_kind(container)}")


_LISTS = (list, tuple)


def _equal(env: Any, a: Any, b: Any) -> bool:
    """`a == b`, a list charged by its length (two lists as long as each other, by all
    that comparing them goes through: see run.budget.walk_steps)."""
    if type(a) is list:
        if type(b) in _LISTS and len(b) == len(a):
            env.steps += walk_steps(env, a)
        else:
            env.steps += len(a)
        if env.steps > env.step_limit:
            overspent(env)
    return a == b


def _ordered(order: Callable[[Any, Any], bool]) -> Callable[[Any, Any, Any], bool]:
    """An ordering comparison (<, <=, >, >=) in the language's words: two lists are
    charged by all that comparing them may go through."""
    def compare(env: Any, x: Any, y: Any) -> bool:
        if type(x) in _LISTS and type(y) in _LISTS:
            env.steps += walk_steps(env, x)
            if env.steps > env.step_limit:
                overspent(env)
        try:
            return order(x, y)
        except TypeError:
            raise RuleError(f"cannot compare {_kind(x)} with {_kind(y)}") from None
    return compare


ORDERED: dict[str, Callable[[Any, Any, Any], bool]] = {
    "<": _ordered(operator.lt), "<=": _ordered(operator.le),
    ">": _ordered(operator.gt), ">=": _ordered(operator.ge)}
"""The ordering comparisons, by symbol (the generated code hands two lists to them)."""


_kind = describe
kind_of = describe
"""What a value is, in the designer's words (see run.budget.describe)."""


class _Compiler:
    def __init__(self, scope: Scope) -> None:
        self.scope = scope

    def fail(self, node: ast.AST, message: str, hint: str | None = None,
             expected: str | None = None) -> ExpressionError:
        return ExpressionError(message, getattr(node, "col_offset", 0), hint, expected)

    def compile(self, node: ast.AST) -> Compiled:
        method = getattr(self, "c_" + type(node).__name__, None)
        if method is None:
            raise self.fail(node,
                            f"'{_describe_node(node)}' is not part of the expression language",
                            expected="names, numbers, text, comparisons, and/or/not, + - * // %, "
                                     "function calls, piece.attribute, list[index], "
                                     "[x for x in list if condition]")
        return method(node)

    # -- leaves -------------------------------------------------------------------------
    def c_Constant(self, node: ast.Constant) -> Compiled:
        value = node.value
        if not (value is None or isinstance(value, bool | int | float | str)):
            raise self.fail(node, "this kind of constant is not part of the language",
                            expected="a number, a text in quotes, true, false or null")
        self._check_constant(node, value)
        return lambda env: value

    def _check_constant(self, node: ast.AST, value: Any) -> None:
        limits = self.scope.limits
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, int | float) and not (
                value == value and -limits.largest_number <= value <= limits.largest_number):
            raise self.fail(node, "this number is too large",
                            expected=f"numbers from -{limits.largest_number:,} to "
                                     f"{limits.largest_number:,} (budgets.largest_number)")
        if isinstance(value, str) and len(value) > limits.text_length:
            raise self.fail(node, f"this text is longer than {limits.text_length:,} characters "
                            "(budgets.text_length)")

    def c_Name(self, node: ast.Name) -> Compiled:
        name = node.id
        scope = self.scope
        if name in scope.bound:
            return scope.bound[name]
        if name in scope.temps:
            return lambda env: env.temps[name]
        if name in scope.locals:
            def local(env: Any) -> Any:
                try:
                    return env.locals[name]
                except KeyError:
                    raise RuleError(f"'{name}' is used before it is given a value") from None
            return local
        if name in _CONSTANT_NAMES:
            value = _CONSTANT_NAMES[name]
            return lambda env: value
        found = scope.resolve_global(name)
        if found is not None:
            return found
        if name in scope.functions or name in scope.definitions:
            raise self.fail(node, f"'{name}' is a function: call it as {name}(...)")
        known = set(scope.temps) | set(scope.locals) | set(scope.known_globals())
        raise self.fail(node, f"unknown name '{name}'", did_you_mean(name, known),
                        expected="a variable, option, zone, constant or definition of this ruleset")

    # -- operators ----------------------------------------------------------------------
    def c_BoolOp(self, node: ast.BoolOp) -> Compiled:
        parts = [self.compile(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if len(parts) == 2:
                a, b = parts
                return lambda env: a(env) and b(env)

            def all_of(env: Any) -> Any:
                result: Any = True
                for p in parts:
                    result = p(env)
                    if not result:
                        return result
                return result
            return all_of
        if len(parts) == 2:
            a, b = parts
            return lambda env: a(env) or b(env)

        def any_of(env: Any) -> Any:
            result: Any = False
            for p in parts:
                result = p(env)
                if result:
                    return result
            return result
        return any_of

    def c_BinOp(self, node: ast.BinOp) -> Compiled:
        symbol = _BINOP_SYMBOLS.get(type(node.op))
        if symbol is None:
            raise self.fail(node, f"operator '{_describe_node(node.op)}' is not supported",
                            expected="+ - * / // %")
        slow = _arithmetic(symbol, self.scope.limits)
        big = self.scope.limits.largest_number
        a, b = self.compile(node.left), self.compile(node.right)
        if symbol == "+":
            def add(env: Any) -> Any:
                x, y = a(env), b(env)
                if type(x) is int and type(y) is int:
                    r = x + y
                    if -big <= r <= big:
                        return r
                return slow(env, x, y)
            return add
        if symbol == "-":
            def sub(env: Any) -> Any:
                x, y = a(env), b(env)
                if type(x) is int and type(y) is int:
                    r = x - y
                    if -big <= r <= big:
                        return r
                return slow(env, x, y)
            return sub
        return lambda env: slow(env, a(env), b(env))

    def c_UnaryOp(self, node: ast.UnaryOp) -> Compiled:
        if isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant):
            value = node.operand.value
            if _is_number(value) and not isinstance(value, bool):
                self._check_constant(node, -value)
                return lambda env: -value
        inner = self.compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda env: not inner(env)
        if isinstance(node.op, ast.USub):
            def neg(env: Any) -> Any:
                v = inner(env)
                if not isinstance(v, int | float) or isinstance(v, bool):
                    raise RuleError(f"cannot negate {_kind(v)}")
                return -v
            return neg
        if isinstance(node.op, ast.UAdd):
            return inner
        raise self.fail(node, "operator '~' is not supported")

    def c_Compare(self, node: ast.Compare) -> Compiled:
        tests: list[Callable[[Any, Any, Any], bool]] = []
        for op in node.ops:
            tests.append(self._comparison(node, op))
        left = self.compile(node.left)
        rights = [self.compile(c) for c in node.comparators]
        if len(tests) == 1:
            test, r0 = tests[0], rights[0]
            if isinstance(node.ops[0], ast.Eq):
                def eq(env: Any) -> bool:
                    x = left(env)
                    if type(x) is list:
                        return _equal(env, x, r0(env))
                    return x == r0(env)
                return eq
            if isinstance(node.ops[0], ast.NotEq):
                def ne(env: Any) -> bool:
                    x = left(env)
                    if type(x) is list:
                        return not _equal(env, x, r0(env))
                    return x != r0(env)
                return ne
            return lambda env: test(env, left(env), r0(env))

        def chain(env: Any) -> bool:
            x = left(env)
            for test, r in zip(tests, rights, strict=True):
                y = r(env)
                if not test(env, x, y):
                    return False
                x = y
            return True
        return chain

    def _comparison(self, node: ast.Compare, op: ast.cmpop) -> Callable[[Any, Any, Any], bool]:
        if isinstance(op, ast.Eq):
            return _equal
        if isinstance(op, ast.NotEq):
            return lambda env, x, y: not _equal(env, x, y)
        if isinstance(op, ast.In):
            return _contains
        if isinstance(op, ast.NotIn):
            return lambda env, x, y: not _contains(env, x, y)
        symbol = _ORDER_SYMBOLS.get(type(op))
        if symbol is None:
            raise self.fail(node, f"comparison '{_describe_node(op)}' is not supported",
                            expected="== != < <= > >= in, not in")
        return ORDERED[symbol]

    def c_IfExp(self, node: ast.IfExp) -> Compiled:
        test, body, orelse = (self.compile(node.test), self.compile(node.body),
                              self.compile(node.orelse))
        return lambda env: body(env) if test(env) else orelse(env)

    # -- structure ----------------------------------------------------------------------
    def c_List(self, node: ast.List) -> Compiled:
        items = [self.compile(e) for e in node.elts]
        return lambda env: [i(env) for i in items]

    c_Tuple = c_List

    def c_Attribute(self, node: ast.Attribute) -> Compiled:
        attr = node.attr
        table = self.scope.attributes.get(attr)
        if table is None:
            raise self.fail(node, f"pieces have no attribute '{attr}'",
                            did_you_mean(attr, self.scope.attributes),
                            expected="one of: " + ", ".join(sorted(self.scope.attributes)))
        literal = node.value
        if isinstance(literal, ast.List | ast.Tuple | ast.ListComp | ast.GeneratorExp
                      | ast.Compare | ast.BoolOp) or (
                isinstance(literal, ast.Constant) and literal.value is not None):
            raise self.fail(node, f"'.{attr}' reads an attribute of a piece, and "
                            f"'{ast.unparse(literal)}' is not a piece")
        inner = self.compile(node.value)
        track = self.scope.track_pieces

        def get(env: Any) -> Any:
            piece = inner(env)
            if piece is None:
                return None
            if type(piece) is not int or piece < 0:  # not bool, text, or a negative index
                raise RuleError(f"'.{attr}' needs a piece, got {_kind(piece)}")
            try:
                value = table[piece]
            except IndexError:
                raise RuleError(f"'.{attr}' needs a piece, got {_kind(piece)}") from None
            if track and env.mentioned is not None:
                env.mentioned.append(piece)
            return value
        return get

    def c_Subscript(self, node: ast.Subscript) -> Compiled:
        if isinstance(node.slice, ast.Slice):
            raise self.fail(node, "slices (a[1:3]) are not supported; use a function")
        base = self.compile(node.value)
        index = self.compile(node.slice)

        def get(env: Any) -> Any:
            container = base(env)
            key = index(env)
            try:
                getter = getattr(container, "lookup", None)
                if getter is not None:
                    return getter(env, key)
                return container[key]
            except (IndexError, KeyError, TypeError):
                raise RuleError(f"cannot take item {_kind(key)} of {_kind(container)}"
                                ) from None
        return get

    def c_Call(self, node: ast.Call) -> Compiled:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, "only named functions can be called, e.g. top(c)")
        if node.keywords:
            raise self.fail(node, "functions take positional arguments only")
        name = node.func.id
        if name in self.scope.definitions:
            args = [self.compile(a) for a in node.args]
            return self.scope.definitions[name](args, node.args, self.scope.inline)
        if name in ("any", "all") and len(node.args) == 1 and isinstance(
                node.args[0], ast.GeneratorExp | ast.ListComp) and name in self.scope.functions:
            return self._quantifier(node.args[0], name == "all")
        fn = self.scope.functions.get(name)
        if fn is None:
            known = list(self.scope.functions) + list(self.scope.definitions)
            raise self.fail(node.func, f"unknown function '{name}'", did_you_mean(name, known))
        n = len(node.args)
        if not fn.min_args <= n <= fn.max_args:
            want = (str(fn.min_args) if fn.min_args == fn.max_args
                    else f"{fn.min_args} to {fn.max_args}")
            raise self.fail(node, f"{name}() takes {want} argument(s), got {n}",
                            expected=fn.doc)
        if fn.random and not self.scope.allow_random:
            raise self.fail(node, f"{name}() draws at random, which is only allowed in "
                            "effects (let, set, setup), not in conditions, options or views")
        args = []
        for i, a in enumerate(node.args):
            if i in fn.site_args and isinstance(a, ast.Constant) and isinstance(a.value, str):
                site = self.scope.resolve_site(a.value)
                if site is None:
                    raise self.fail(a, f"no square or place is called '{a.value}'",
                                    self.scope.no_place(a.value))
                args.append(lambda env, s=site: s)
            else:
                args.append(self.compile(a))
        impl = fn.impl
        if self.scope.track_pieces and fn.describes_piece:
            impl = _tracking(impl)

        def failed(exc: Exception, values: tuple) -> RuleError:
            """A built-in given values it cannot use: say which, in the language's words."""
            if isinstance(exc, RecursionError):
                return RuleError(f"{name}() was given a value nested too deeply")
            got = ", ".join(_kind(v) for v in values) or "nothing"
            return RuleError(f"{name}() cannot use {got} (it is {fn.doc})")

        if n == 0:
            return lambda env: impl(env)
        if n == 1:
            a0 = args[0]

            def call1(env: Any) -> Any:
                x = a0(env)
                try:
                    return impl(env, x)
                except _BUILTIN_FAILURES as exc:
                    raise failed(exc, (x,)) from None
            return call1
        if n == 2:
            a0, a1 = args

            def call2(env: Any) -> Any:
                x, y = a0(env), a1(env)
                try:
                    return impl(env, x, y)
                except _BUILTIN_FAILURES as exc:
                    raise failed(exc, (x, y)) from None
            return call2

        def call(env: Any) -> Any:
            values = [a(env) for a in args]
            try:
                return impl(env, *values)
            except _BUILTIN_FAILURES as exc:
                raise failed(exc, tuple(values)) from None
        return call

    def _single_loop(self, node: ast.GeneratorExp | ast.ListComp
                     ) -> tuple[str, Compiled, list[Compiled], Compiled, int] | None:
        """The parts of a one-loop comprehension over one name (the fast, common case),
        with the steps each element costs."""
        if len(node.generators) != 1:
            return None
        gen = node.generators[0]
        if gen.is_async or not isinstance(gen.target, ast.Name):
            return None
        name = gen.target.id
        source = self.compile(gen.iter)
        inner = _Compiler(self.scope.with_temps([name]))
        conds = [inner.compile(c) for c in gen.ifs]
        per = LOOP_STEPS + sum(weigh(c, self.scope) for c in gen.ifs) + weigh(node.elt,
                                                                              self.scope)
        return name, source, conds, inner.compile(node.elt), per

    def _quantifier(self, node: ast.GeneratorExp | ast.ListComp, every: bool) -> Compiled:
        parts = self._single_loop(node)
        if parts is None:
            gen = self._comprehension(node)
            return (lambda env: all(gen(env))) if every else (lambda env: any(gen(env)))
        name, source, conds, element, per = parts

        def quantify(env: Any) -> bool:
            items = _items(env, source(env), per)
            temps = env.temps
            saved = temps.get(name, _MISSING)
            try:
                for item in items:
                    temps[name] = item
                    for c in conds:
                        if not c(env):
                            break
                    else:
                        if every:
                            if not element(env):
                                return False
                        elif element(env):
                            return True
                return every
            finally:
                if saved is _MISSING:
                    temps.pop(name, None)
                else:
                    temps[name] = saved
        return quantify

    def _comprehension(self, node: ast.GeneratorExp | ast.ListComp) -> Callable[[Any], Iterable]:
        names: list[str] = []
        loops: list[tuple[list[str], Compiled, list[Compiled]]] = []
        scope = self.scope
        for gen in node.generators:
            if gen.is_async:
                raise self.fail(node, "async comprehensions are not supported")
            targets = _target_names(gen.target)
            if targets is None:
                raise self.fail(gen.target, "a comprehension variable must be a name or a, b")
            source = _Compiler(scope).compile(gen.iter)
            scope = scope.with_temps(targets)
            conds = [_Compiler(scope).compile(c) for c in gen.ifs]
            loops.append((targets, source, conds,
                          LOOP_STEPS + sum(weigh(c, scope) for c in gen.ifs)))
            names.extend(targets)
        element = _Compiler(scope).compile(node.elt)
        # what each element of a level costs: its conditions, then the next level's
        # source, or the element itself at the innermost level
        for i, level in enumerate(loops):
            nxt = (weigh(node.generators[i + 1].iter, self.scope) if i + 1 < len(loops)
                   else weigh(node.elt, self.scope))
            loops[i] = (*level[:3], level[3] + nxt)

        def run(env: Any) -> Iterable:
            temps = env.temps
            saved = {n: temps.get(n, _MISSING) for n in names}
            try:
                yield from _loop(env, temps, loops, 0, element)
            finally:
                for n, v in saved.items():
                    if v is _MISSING:
                        temps.pop(n, None)
                    else:
                        temps[n] = v
        return run

    def c_GeneratorExp(self, node: ast.GeneratorExp | ast.ListComp) -> Compiled:
        parts = self._single_loop(node)
        if parts is None:
            gen = self._comprehension(node)
            limit = self.scope.limits.list_length

            def build_nested(env: Any) -> list:
                items = gen(env)
                try:  # stop at the size limit instead of building a huge list first
                    out = list(itertools.islice(items, limit + 1))
                finally:
                    items.close()  # type: ignore[attr-defined]
                if len(out) > limit:
                    too_long("list_length", "a list", len(out), limit)
                return out
            return build_nested
        name, source, conds, element, per = parts

        def build(env: Any) -> list:
            items = _items(env, source(env), per)
            temps = env.temps
            saved = temps.get(name, _MISSING)
            out = []
            try:
                if conds:
                    for item in items:
                        temps[name] = item
                        for c in conds:
                            if not c(env):
                                break
                        else:
                            out.append(element(env))
                else:
                    for item in items:
                        temps[name] = item
                        out.append(element(env))
            finally:
                if saved is _MISSING:
                    temps.pop(name, None)
                else:
                    temps[name] = saved
            return out
        return build

    c_ListComp = c_GeneratorExp


_MISSING = object()

_BUILTIN_FAILURES = (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError,
                     ZeroDivisionError, RecursionError)
"""What Python raises when a built-in gets a value of the wrong kind; each becomes a
RuleError naming the function and what it was given."""


def _tracking(impl: Callable[..., Any]) -> Callable[..., Any]:
    """A built-in that describes a piece (its name, its code), recording the piece."""
    def describe(env: Any, piece: Any, *rest: Any) -> Any:
        if env.mentioned is not None and type(piece) is int:
            env.mentioned.append(piece)
        return impl(env, piece, *rest)
    return describe


_items = loop_items


def _loop(env: Any, temps: dict, loops: list, depth: int, element: Compiled) -> Iterable:
    targets, source, conds, per = loops[depth]
    items = _items(env, source(env), per)
    last = depth == len(loops) - 1
    for item in items:
        if len(targets) == 1:
            temps[targets[0]] = item
        else:
            try:
                for t, v in zip(targets, item, strict=True):
                    temps[t] = v
            except (TypeError, ValueError):
                raise RuleError(f"cannot unpack {_kind(item)} into {', '.join(targets)}"
                                ) from None
        for c in conds:
            if not c(env):
                break
        else:
            if last:
                yield element(env)
            else:
                yield from _loop(env, temps, loops, depth + 1, element)


def weigh(node: ast.AST, scope: Scope) -> int:
    """The steps one evaluation of `node` costs, loops aside: one per node of the
    expression, plus the body of every definition with parameters it calls. A
    comprehension counts its first source here; its elements are charged as it goes
    through them (so a step stays close to a fixed amount of real work)."""
    total = 0
    stack = [node]
    while stack:
        n = stack.pop()
        total += 1
        if isinstance(n, ast.GeneratorExp | ast.ListComp):
            stack.append(n.generators[0].iter)
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            total += scope.definition_weight(n.func.id)
        stack.extend(ast.iter_child_nodes(n))
    return total


def weigh_text(text: str, scope: Scope) -> int:
    """`weigh` for expression text (0 for text that does not parse: it never runs)."""
    try:
        return weigh(parse_to_read(text), scope)
    except ExpressionError:
        return 0


def _target_names(target: ast.AST) -> list[str] | None:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
        return [e.id for e in target.elts]  # type: ignore[attr-defined]
    return None


def _describe_node(node: ast.AST) -> str:
    names = {"Lambda": "lambda", "NamedExpr": ":=", "Await": "await", "Yield": "yield",
             "Dict": "{...} dictionaries", "Set": "{...} sets", "DictComp": "dict comprehension",
             "SetComp": "set comprehension", "JoinedStr": "f-strings", "Starred": "*",
             "Pow": "**", "BitAnd": "&", "BitOr": "|", "BitXor": "^", "LShift": "<<",
             "RShift": ">>", "MatMult": "@", "Is": "is", "IsNot": "is not"}
    return names.get(type(node).__name__, type(node).__name__)


def parse(text: str) -> ast.expr:
    """Parse expression text; a syntax error becomes an ExpressionError with its column."""
    stripped = text.strip()
    if not stripped:
        raise ExpressionError("empty expression")
    if len(stripped) > MAX_EXPRESSION_LENGTH:
        raise ExpressionError(f"this expression is longer than {MAX_EXPRESSION_LENGTH:,} "
                              "characters (tabletop's limit): split it into definitions")
    if "\n" in stripped:
        stripped = " ".join(stripped.split())
    try:
        tree = ast.parse(stripped, mode="eval")
    except (RecursionError, MemoryError):
        raise ExpressionError(_too_deep()) from None
    except SyntaxError as exc:
        if "too many nested" in str(exc.msg) or "too complex" in str(exc.msg):
            raise ExpressionError(_too_deep()) from None
        offset = (exc.offset or 1) - 1
        for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", stripped):
            word = match.group(0)
            if word in RESERVED_WORDS:
                raise ExpressionError(f"'{word}' is a reserved word and cannot be a name here",
                                      match.start(), hint=RESERVED_HINT) from None
        raise ExpressionError(f"syntax error in expression: {exc.msg}", offset) from None
    memo.SHALLOW.get(stripped, lambda: _check_nesting(tree.body))
    return tree.body


def parse_to_read(text: str) -> ast.expr:
    """`parse`, remembered, for analyses that only read the tree and keep no node: the
    same tree object is handed to every caller (memo.TREES), so none may change it."""
    return memo.TREES.get(text, lambda: parse(text))


def _too_deep() -> str:
    return (f"this expression nests more than {MAX_NESTING} levels deep (tabletop's limit): "
            "split it into definitions")


def _check_nesting(root: ast.AST) -> bool:
    """Refuse trees deeper than MAX_NESTING before anything recursive walks them (True
    when within it: parse remembers the texts that are)."""
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            raise ExpressionError(_too_deep(), getattr(node, "col_offset", 0))
        for child in ast.iter_child_nodes(node):
            stack.append((child, depth + 1))
    return True


def compile_expression(text: str, scope: Scope, params: list[str] | None = None,
                       what: str | None = None) -> Compiled:
    """Compile expression text; raises ExpressionError when it is not valid.

    The closures check it and are its careful path; with the game's code hooks, the
    result is a generated Python function that hands over to them when it must
    (codegen.py). With `params` (a definition's body, its parameters among the scope's
    temps), the result is called as f(env, *params)."""
    tree = parse(text)
    if not scope.bound:  # (a definition written out in place is part of its caller)
        allowed = scope.inlining(text)
        if allowed != scope.inline:
            scope = dataclasses.replace(scope, inline=allowed)
    slow = _Compiler(scope).compile(tree)
    if scope.code is None or scope.bound or slow is broken:
        if params:
            from interpreter.compile.codegen import _with_temps
            return _with_temps(params, slow)
        return slow
    from interpreter.compile.codegen import generate
    return generate(tree, scope, slow, what or text, params)


def parameter_uses(text: str, params: list[str]) -> dict[str, tuple[int, bool]]:
    """For each parameter: how often the body names it, and whether inside a comprehension.

    A parameter used once, outside comprehensions, can be replaced by the caller's
    expression (inlining), which saves the cost of a call on hot paths.
    """
    uses = {p: [0, False] for p in params}
    try:
        tree = parse_to_read(text)
    except ExpressionError:
        return {p: (0, True) for p in params}

    def walk(node: ast.AST, in_comp: bool) -> None:
        if isinstance(node, ast.Name) and node.id in uses:
            uses[node.id][0] += 1
            uses[node.id][1] = uses[node.id][1] or in_comp
        inside = in_comp or isinstance(node, ast.GeneratorExp | ast.ListComp)
        for child in ast.iter_child_nodes(node):
            walk(child, inside)
    walk(tree, False)
    return {p: (n, c) for p, (n, c) in uses.items()}


def written_in_place(uses: dict[str, tuple[int, bool]], params: list[str],
                     arg_nodes: list[ast.expr], small: bool) -> bool:
    """Whether a call of a definition is written out in place (inlined): the definition
    is small (MAX_INLINED) and each argument is used at most once outside
    comprehensions, or is a name or a constant (cheap to read again). The closures and
    the generated code decide alike, so both evaluate the same arguments."""
    return small and all(
        not uses[p][1] and (uses[p][0] <= 1 or isinstance(node, ast.Name | ast.Constant))
        for p, node in zip(params, arg_nodes, strict=True))


def inlined_size(text: str, size_of: Callable[[str, list[ast.expr]], int | None]
                 ) -> tuple[int, int]:
    """Parts of an expression, and the parts the definitions it calls add where they
    are written out in place: `size_of(name, arguments)` is what a call adds, or None
    where the call stays a call. Text that does not parse counts as too large: it
    never runs."""
    try:
        tree = parse_to_read(text)
    except ExpressionError:
        return MAX_INLINED + 1, 0
    own = added = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr):
            continue  # (operators, contexts: not parts of their own)
        own += 1
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            inner = size_of(node.func.id, node.args)
            if inner is not None:
                added += inner
    return own, added


def names_used(text: str) -> set[str]:
    """Every bare name an expression mentions (for dependency checks)."""
    try:
        tree = parse_to_read(text)
    except ExpressionError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}


def split_template(text: str) -> list[tuple[bool, str, int]]:
    """Split ``"{a}-{b}"`` into literal and expression parts with their offsets.

    ``{{`` and ``}}`` stand for literal braces.
    """
    parts: list[tuple[bool, str, int]] = []
    i, n = 0, len(text)
    literal: list[str] = []
    while i < n:
        ch = text[i]
        if ch == "{" and i + 1 < n and text[i + 1] == "{":
            literal.append("{")
            i += 2
        elif ch == "}" and i + 1 < n and text[i + 1] == "}":
            literal.append("}")
            i += 2
        elif ch == "{":
            depth, j = 1, i + 1
            while j < n and depth:
                if text[j] == "{":
                    depth += 1
                elif text[j] == "}":
                    depth -= 1
                j += 1
            if depth:
                raise ExpressionError("unclosed '{' in text template", i)
            if literal:
                parts.append((False, "".join(literal), i))
                literal = []
            parts.append((True, text[i + 1:j - 1], i + 1))
            i = j
        elif ch == "}":
            raise ExpressionError("single '}' in text template (write '}}' for a brace)", i)
        else:
            literal.append(ch)
            i += 1
    if literal:
        parts.append((False, "".join(literal), n))
    return parts


def compile_template(text: str, scope: Scope, show: Callable[[Any], str]) -> Compiled:
    """Compile a text template into a closure producing a string."""
    pieces: list[Compiled | str] = []
    trees: list[ast.expr | str] = []
    inline: list[bool] = []
    weight = 0
    done: dict[str, tuple[ast.expr, Compiled, bool, int]] = {}  # (a part said again)
    for is_expr, part, offset in split_template(text):
        if is_expr:
            found = done.get(part)
            if found is None:
                try:
                    tree = parse(part)
                    allowed = scope.inlining(part) if not scope.bound else scope.inline
                    part_scope = (scope if allowed == scope.inline
                                  else dataclasses.replace(scope, inline=allowed))
                    # the closures only: the template is generated whole (codegen)
                    found = done[part] = (tree, _Compiler(part_scope).compile(tree),
                                          allowed, weigh(tree, scope))
                except ExpressionError as exc:
                    exc.offset += offset
                    raise
            tree, compiled, allowed, part_weight = found
            pieces.append(compiled)
            trees.append(tree)
            inline.append(allowed)
            weight += part_weight
        else:
            pieces.append(part)
            trees.append(part)
    limit = scope.limits.text_length
    show = _bounded(show, limit)
    if all(isinstance(p, str) for p in pieces):
        const = "".join(pieces)  # type: ignore[arg-type]
        if len(const) > limit:
            raise ExpressionError(f"this text is longer than {limit:,} characters "
                                  "(budgets.text_length)")
        size = len(const)

        def constant(env: Any) -> str:
            env.steps += size  # writing it out costs as much as building it
            if env.steps > env.step_limit:
                overspent(env)
            return const
        return constant

    def render(env: Any) -> str:
        text = "".join(p if isinstance(p, str) else show(p(env)) for p in pieces)
        if len(text) > limit:
            too_long("text_length", "a text", len(text), limit)
        env.steps += len(text) + weight
        if env.steps > env.step_limit:
            overspent(env)
        return text
    if scope.code is None or scope.bound or any(p is broken for p in pieces):
        return render
    from interpreter.compile.codegen import generate_template
    return generate_template(trees, scope, render, show, weight, text, inline)


def _bounded(show: Callable[[Any], str], limit: int) -> Callable[[Any], str]:
    """`show`, refusing a list whose text would be longer than budgets.text_length
    before writing it (a list holding one long list twice is written out twice)."""
    def write(value: Any) -> str:
        if (type(value) is list or type(value) is tuple) and shown_size(value, limit) > limit:
            raise BudgetError("text_length", f"writing {describe(value)} would make a "
                              f"text longer than {limit:,} characters")
        return show(value)
    write.__name__ = "show"
    return write


def located(exc: ExpressionError, loc: Location | None, source: Any) -> Diagnostic:
    """Turn an ExpressionError into a diagnostic at the right column of the file."""
    where = None
    line = source.line_at(loc) if source is not None else None
    if loc is not None:
        where = Location(loc.path, loc.line, loc.col + exc.offset)
        if line is not None and _spans_lines(line, loc.col, exc.offset):
            where = _walk_to(source, loc, exc.offset) or where
            line = source.line_at(where)
    return Diagnostic(exc.message, where, exc.expected, exc.hint, line)


def _spans_lines(line: str, col: int, offset: int) -> bool:
    """Whether an expression starting at `col` of `line` goes on below it: a block
    (`>-`, `|`) or a plain text folded onto more lines than its first."""
    return line[col - 1:col].strip() in (">", "|") or col + offset > len(line)


def _walk_to(source: Any, loc: Location, offset: int) -> Location | None:
    """Where in the file the `offset`-th character of an expression written over several
    lines is: parse() joins its lines with single spaces, so walk the file's text the
    same way from the expression's first character."""
    line_no, col = loc.line, loc.col
    text = source.line_at(loc) or ""
    if text[col - 1:col].strip() in (">", "|"):  # a block starts on the next line
        line_no += 1
        text = source.line_at(Location(loc.path, line_no, 1)) or ""
        col = len(text) - len(text.lstrip()) + 1
    seen, space = -1, False  # characters of the joined text gone past
    while text is not None:
        for i in range(col - 1, len(text)):
            if text[i].isspace():
                space = seen >= 0
                continue
            seen += 1 + space
            space = False
            if seen >= offset:
                return Location(loc.path, line_no, i + 1)
        line_no += 1
        space = seen >= 0
        text = source.line_at(Location(loc.path, line_no, 1))
        col = 1
    return None
