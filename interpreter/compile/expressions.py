"""The expression language: safe by construction, compiled once at load.

Python's ``ast`` module is used only as a *parser*; the tree is checked against a
whitelist and turned into plain closures. Nothing is ever passed to ``eval`` or
``exec``, there is no attribute access on Python objects (``p.colour`` reads a
declared piece attribute from a table), and every name is resolved against the
ruleset at load time, so a typo is a located error before any game starts.
"""

from __future__ import annotations

import ast
import itertools
import keyword
import operator
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import Diagnostic, Location, RuleError, did_you_mean

Compiled = Callable[[Any], Any]
"""A compiled expression: call it with an evaluation environment."""

MAX_SEQUENCE = 100_000
"""Largest list or text an expression may build (guards ``[x] * 10**9``)."""


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
    definitions: dict[str, Callable[[list[Compiled], list[ast.expr]], Compiled]] = field(
        default_factory=dict)
    bound: dict[str, Compiled] = field(default_factory=dict)
    """Names standing for an expression of the caller (inlined definition parameters)."""

    def with_temps(self, names: Iterable[str]) -> Scope:
        names = frozenset(names)
        bound = {k: v for k, v in self.bound.items() if k not in names}
        return Scope(self.resolve_global, self.known_globals, self.functions, self.attributes,
                     self.resolve_site, self.locals, self.temps | names,
                     self.allow_random, self.definitions, bound)


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Div: operator.truediv,
}

_CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}

_LANGUAGE_WORDS = {"and", "or", "not", "in", "if", "else", "for", "True", "False", "None"}

_CONSTANT_NAMES = {"true": True, "false": False, "null": None, "none": None,
                   "True": True, "False": False, "None": None}


def _guard_size(value: Any) -> Any:
    if isinstance(value, list | str | tuple) and len(value) > MAX_SEQUENCE:
        raise RuleError(f"an expression built a sequence of {len(value)} items "
                        f"(the limit is {MAX_SEQUENCE})")
    return value


def _safe_binop(fn: Callable[[Any, Any], Any], symbol: str) -> Callable[[Any, Any], Any]:
    def apply(a: Any, b: Any) -> Any:
        sequences = list | str | tuple
        if symbol == "*" and (isinstance(a, sequences) or isinstance(b, sequences)):
            n = b if isinstance(b, int) else a
            seq = a if isinstance(b, int) else b
            if isinstance(n, int) and n * len(seq) > MAX_SEQUENCE:
                raise RuleError(f"an expression built a sequence longer than {MAX_SEQUENCE}")
        try:
            return fn(a, b)
        except ZeroDivisionError:
            raise RuleError(f"division by zero in '{symbol}'") from None
        except TypeError:
            raise RuleError(f"cannot apply '{symbol}' to {_kind(a)} and {_kind(b)}") from None
    return apply


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


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
            raise self.fail(node, f"unsupported constant {value!r}")
        return lambda env: value

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
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise self.fail(node, f"operator '{_describe_node(node.op)}' is not supported",
                            expected="+ - * / // %")
        symbol = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//",
                  ast.Mod: "%", ast.Div: "/"}[type(node.op)]
        fn = _safe_binop(op, symbol)
        a, b = self.compile(node.left), self.compile(node.right)
        if symbol in ("+", "-"):
            raw = op

            def fast(env: Any) -> Any:
                x, y = a(env), b(env)
                if type(x) is int and type(y) is int:
                    return raw(x, y)
                return _guard_size(fn(x, y))
            return fast
        return lambda env: _guard_size(fn(a(env), b(env)))

    def c_UnaryOp(self, node: ast.UnaryOp) -> Compiled:
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
        ops = []
        for op in node.ops:
            fn = _CMPOPS.get(type(op))
            if fn is None:
                raise self.fail(node, f"comparison '{_describe_node(op)}' is not supported",
                                expected="== != < <= > >= in, not in")
            ops.append(fn)
        left = self.compile(node.left)
        rights = [self.compile(c) for c in node.comparators]
        if len(ops) == 1:
            fn0, r0 = ops[0], rights[0]
            if fn0 in (operator.eq, operator.ne):
                return lambda env: fn0(left(env), r0(env))

            def one(env: Any) -> bool:
                x, y = left(env), r0(env)
                try:
                    return fn0(x, y)
                except TypeError:
                    raise RuleError(f"cannot compare {_kind(x)} with {_kind(y)}") from None
            return one

        def chain(env: Any) -> bool:
            x = left(env)
            for fn, r in zip(ops, rights, strict=True):
                y = r(env)
                try:
                    if not fn(x, y):
                        return False
                except TypeError:
                    raise RuleError(f"cannot compare {_kind(x)} with {_kind(y)}") from None
                x = y
            return True
        return chain

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

        def get(env: Any) -> Any:
            piece = inner(env)
            if piece is None:
                return None
            if type(piece) is not int or piece < 0:  # not bool, text, or a negative index
                raise RuleError(f"'.{attr}' needs a piece, got {_kind(piece)}")
            try:
                return table[piece]
            except IndexError:
                raise RuleError(f"'.{attr}' needs a piece, got {_kind(piece)}") from None
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
                raise RuleError(f"cannot take item {key!r} of {_kind(container)}") from None
        return get

    def c_Call(self, node: ast.Call) -> Compiled:
        if not isinstance(node.func, ast.Name):
            raise self.fail(node, "only named functions can be called, e.g. top(c)")
        if node.keywords:
            raise self.fail(node, "functions take positional arguments only")
        name = node.func.id
        if name in self.scope.definitions:
            args = [self.compile(a) for a in node.args]
            return self.scope.definitions[name](args, node.args)
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
                    raise self.fail(a, f"no square or place is called '{a.value}'")
                args.append(lambda env, s=site: s)
            else:
                args.append(self.compile(a))
        impl = fn.impl
        if n == 0:
            return lambda env: impl(env)
        if n == 1:
            a0 = args[0]
            return lambda env: impl(env, a0(env))
        if n == 2:
            a0, a1 = args
            return lambda env: impl(env, a0(env), a1(env))
        return lambda env: impl(env, *[a(env) for a in args])

    def _single_loop(self, node: ast.GeneratorExp | ast.ListComp
                     ) -> tuple[str, Compiled, list[Compiled], Compiled] | None:
        """The parts of a one-loop comprehension over one name (the fast, common case)."""
        if len(node.generators) != 1:
            return None
        gen = node.generators[0]
        if gen.is_async or not isinstance(gen.target, ast.Name):
            return None
        name = gen.target.id
        source = self.compile(gen.iter)
        inner = _Compiler(self.scope.with_temps([name]))
        conds = [inner.compile(c) for c in gen.ifs]
        return name, source, conds, inner.compile(node.elt)

    def _quantifier(self, node: ast.GeneratorExp | ast.ListComp, every: bool) -> Compiled:
        parts = self._single_loop(node)
        if parts is None:
            gen = self._comprehension(node)
            return (lambda env: all(gen(env))) if every else (lambda env: any(gen(env)))
        name, source, conds, element = parts

        def quantify(env: Any) -> bool:
            items = _items(source(env))
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
            loops.append((targets, source, conds))
            names.extend(targets)
        element = _Compiler(scope).compile(node.elt)

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

            def build_nested(env: Any) -> list:
                items = gen(env)
                try:  # stop at the size limit instead of building a huge list first
                    return _guard_size(list(itertools.islice(items, MAX_SEQUENCE + 1)))
                finally:
                    items.close()  # type: ignore[attr-defined]
            return build_nested
        name, source, conds, element = parts

        def build(env: Any) -> list:
            items = _items(source(env))
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


def _items(items: Any) -> Any:
    if items is None:
        return ()
    if isinstance(items, list | tuple | range | str):
        return items
    raise RuleError(f"a comprehension needs a list to go through, got {_kind(items)}")


def _loop(env: Any, temps: dict, loops: list, depth: int, element: Compiled) -> Iterable:
    targets, source, conds = loops[depth]
    items = source(env)
    if items is None:
        return
    if not isinstance(items, list | tuple | range | str):
        items = getattr(items, "items_for", lambda e: None)(env)
        if items is None:
            raise RuleError("a comprehension needs a list to go through")
    last = depth == len(loops) - 1
    for item in items:
        if len(targets) == 1:
            temps[targets[0]] = item
        else:
            try:
                for t, v in zip(targets, item, strict=True):
                    temps[t] = v
            except (TypeError, ValueError):
                raise RuleError(f"cannot unpack {item!r} into {', '.join(targets)}") from None
        if all(c(env) for c in conds):
            if last:
                yield element(env)
            else:
                yield from _loop(env, temps, loops, depth + 1, element)


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
    if "\n" in stripped:
        stripped = " ".join(stripped.split())
    try:
        tree = ast.parse(stripped, mode="eval")
    except SyntaxError as exc:
        offset = (exc.offset or 1) - 1
        for match in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", stripped):
            word = match.group(0)
            if keyword.iskeyword(word) and word not in _LANGUAGE_WORDS:
                raise ExpressionError(f"'{word}' is a reserved word and cannot be a name here",
                                      match.start(), hint="choose another name") from None
        raise ExpressionError(f"syntax error in expression: {exc.msg}", offset) from None
    return tree.body


def compile_expression(text: str, scope: Scope) -> Compiled:
    """Compile expression text into a closure; raises ExpressionError when it is not valid."""
    return _Compiler(scope).compile(parse(text))


def parameter_uses(text: str, params: list[str]) -> dict[str, tuple[int, bool]]:
    """For each parameter: how often the body names it, and whether inside a comprehension.

    A parameter used once, outside comprehensions, can be replaced by the caller's
    expression (inlining), which saves the cost of a call on hot paths.
    """
    uses = {p: [0, False] for p in params}
    try:
        tree = parse(text)
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


def names_used(text: str) -> set[str]:
    """Every bare name an expression mentions (for dependency checks)."""
    try:
        tree = parse(text)
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
    for is_expr, part, offset in split_template(text):
        if is_expr:
            try:
                pieces.append(compile_expression(part, scope))
            except ExpressionError as exc:
                exc.offset += offset
                raise
        else:
            pieces.append(part)
    if all(isinstance(p, str) for p in pieces):
        const = "".join(pieces)  # type: ignore[arg-type]
        return lambda env: const

    def render(env: Any) -> str:
        return "".join(p if isinstance(p, str) else show(p(env)) for p in pieces)
    return render


def located(exc: ExpressionError, loc: Location | None, source: Any) -> Diagnostic:
    """Turn an ExpressionError into a diagnostic at the right column of the file."""
    where = None
    if loc is not None:
        where = Location(loc.path, loc.line, loc.col + exc.offset)
    line = source.line(loc.line) if (source is not None and loc is not None) else None
    return Diagnostic(exc.message, where, exc.expected, exc.hint, line)
