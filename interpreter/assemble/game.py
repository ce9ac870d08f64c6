"""Game: a compiled ruleset with its options applied, immutable, shared by all states.

``compile_game`` resolves every name, compiles every expression and builds the program;
all problems are collected and reported together with their locations. A Game then
creates states, lists the legal options of a decision and applies choices.
"""

from __future__ import annotations

import ast
import functools
import itertools
import re
import string
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from interpreter.compile import inlines, memo
from interpreter.compile.codegen import CodeHooks
from interpreter.compile.expressions import (
    MAX_INLINED,
    MAX_WRITTEN_OUT,
    RESERVED_HINT,
    RESERVED_WORDS,
    BrokenRuleset,
    Compiled,
    Constant,
    ExpressionError,
    Scope,
    StateRead,
    compile_expression,
    compile_template,
    inlined_size,
    located,
    parameter_uses,
    split_template,
    weigh_text,
    written_in_place,
)
from interpreter.compile.expressions import broken as _broken
from interpreter.compile.expressions import parse as parse_expression
from interpreter.compile.functions import (
    ALL_DIRECTIONS,
    DIAGONAL,
    DIRECTION_NAMES,
    DIRECTIONS,
    FUNCTIONS,
    HEX_ORDER,
    ORTHOGONAL,
    board_directions,
)
from interpreter.compile.program import (
    PAUSE,
    SWITCH,
    Label,
    ProgramBuilder,
    Section,
    collect_locals,
)
from interpreter.compile.stretches import fuse
from interpreter.errors import (
    BudgetError,
    Diagnostic,
    RuleError,
    RulesetError,
    UsageError,
    did_you_mean,
)
from interpreter.load.catalog import shorten
from interpreter.load.data_values import data_text, frozen_value, plain_data
from interpreter.load.loader import LoadedRuleset, explain_variant
from interpreter.load.schema import Definition, OptionDecl, PieceSet, ZoneDecl
from interpreter.located import Expr
from interpreter.play.game import CardShown, Game, normalize_notation, show_value
from interpreter.run.budget import kept
from interpreter.run.machine import Env, Machine
from interpreter.run.panels import PanelsInfo
from interpreter.run.state import sites_of
from interpreter.run.tables import (
    Decision,
    EndRuleInfo,
    Option,
    PieceVariable,
    SeatVariable,
    TriggerInfo,
    VariableInfo,
    ZoneInfo,
)

if TYPE_CHECKING:
    pass

_BOARDS = ("grid", "hex")
"""Zone kinds laid out as boards: places with a row and a column, named a1, b1 …"""

BUILTIN_NAMES = ("current", "players", "seats", "turn", "directions", "orthogonal", "diagonal",
                 "hex_directions", "eliminated")


# ---------------------------------------------------------------------------------------
# compiling
# ---------------------------------------------------------------------------------------

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_DEF_KEY = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(([^)]*)\))?\s*$")
_MISSING = object()


class _Compiler:
    """Builds a Game from a validated ruleset, collecting every problem found."""

    def compile_outside(self, text: str, temps: Iterable[str] = (),
                        local_names: Iterable[str] = ()) -> Compiled:
        """An expression written outside the ruleset, with the ruleset's names."""
        before = len(self.diagnostics)
        try:
            return compile_expression(text, self.scope(temps, local_names))
        finally:
            del self.diagnostics[before:]

    def __init__(self, loaded: LoadedRuleset, options: dict[str, Any]) -> None:
        self.loaded = loaded
        self.rs = loaded.model
        self.source = loaded.source
        self.diagnostics: list[Diagnostic] = []
        self.game = Game(loaded, options)
        self.game._compiler = self
        self.globals: dict[str, Compiled] = {}
        self.definitions: dict[str, Callable[[list[Compiled], list[Any], bool], Compiled]] = {}
        self.def_bodies: dict[str, tuple[list[str], Expr]] = {}
        self.value_of_attribute: dict[str, str] = {}
        """Attribute values usable as names (red, large), each with its attribute."""
        self.def_compiled: dict[str, Compiled] = {}
        self.compiling: list[str] = []
        self.weights: dict[str, int] = {}
        self.weighing: set[str] = set()
        self.inlined_sizes: dict[str, int | None] = {}
        self.def_uses: dict[str, dict[str, tuple[int, bool]]] = {}
        self.inline_decisions: dict[str, bool] = {}
        self.written_out = 0
        """Parts the definitions written out in place have added so far."""
        self.sizing: set[str] = set()
        self.def_functions: dict[str, Callable[..., Any]] = {}
        self.def_reads: dict[str, set[str]] = {}
        self.constant_stores: dict[str, dict[int, Any]] = {}
        """For each definition that reads nothing the rules change: its value by number
        of players, computed once per Game (filled in when the Game is complete)."""
        self.hooks = CodeHooks(self.definition_body, self.definition_function, self.scope,
                               offsets=self.offset_tables, neighbours=self.neighbour_table,
                               vectors=self.vector_table,
                               small=self.small, places=self.places)
        self.board_ready = False
        self.tables: dict[Any, Any] = {}
        self.generate = True
        self.stretches = True

    def error(self, message: str, loc: Any, hint: str | None = None,
              expected: str | None = None) -> None:
        line = self.source.line_at(loc)
        self.diagnostics.append(Diagnostic(message, loc, expected, hint, line))

    # -- scope --------------------------------------------------------------------------
    def resolve_global(self, name: str) -> Compiled | None:
        found = self.globals.get(name)
        if found is not None:
            return found
        if name in self.def_bodies and not self.def_bodies[name][0]:
            return self.definition_value(name)
        return None

    def known_globals(self) -> Iterable[str]:
        return list(self.globals) + list(self.def_bodies)

    def scope(self, temps: Iterable[str] = (), local_names: Iterable[str] = ()) -> Scope:
        g = self.game
        return Scope(self.resolve_global, self.known_globals, FUNCTIONS, g.attributes,
                     lambda name: g.site_by_name.get(name), frozenset(local_names),
                     frozenset(temps), False, self.definitions, limits=g.limits,
                     definition_weight=self.definition_weight,
                     code=self.hooks if self.generate else None, inlining=self.may_inline,
                     site_names=lambda: g.site_by_name)

    def definition_body(self, name: str) -> tuple[list[str], str] | None:
        entry = self.def_bodies.get(name)
        return None if entry is None else (entry[0], entry[1].text)

    def places(self) -> int | None:
        """How many places the game has; None while the board is not laid out yet."""
        return len(self.game.site_name) if self.board_ready else None

    def offset_tables(self, distance: int) -> dict[str, dict[int, int | None]] | None:
        """Direction → grid square → the square `distance` away (generated code looks
        offsets up instead of computing them)."""
        if not self.board_ready:
            return None
        key = ("offsets", distance)
        found = self.tables.get(key)
        if found is None:
            g = self.game
            grid = self.board_places()
            found = self.tables[key] = memo.TABLES.get(
                (*key, self.board_shape()),
                lambda: {d: {s: g.offset(s, d, distance) for s in grid
                             if d in board_directions(g.site_zone[s])}
                         for d in ALL_DIRECTIONS})
        return found

    def board_shape(self) -> Hashable:
        """All that the board tables depend on, exactly: each board place's number, row
        and column and which board it is on, and each board's kind and layout (the same
        shape in a recompile finds its tables remembered)."""
        found = self.tables.get("shape")
        if found is None:
            g = self.game
            boards: dict[int, int] = {}
            layouts: list[tuple[Any, ...]] = []
            places = []
            for s in self.board_places():
                zone = g.site_zone[s]
                index = boards.get(id(zone))
                if index is None:
                    index = boards[id(zone)] = len(layouts)
                    layouts.append((zone.kind, zone.rows, zone.cols,
                                    tuple(sorted(zone.cells.items()))))
                places.append((s, g.site_rc[s], index))
            found = self.tables["shape"] = (tuple(layouts), tuple(places))
        return found

    def board_places(self) -> list[int]:
        return [s for s, rc in enumerate(self.game.site_rc) if rc is not None]

    def vector_table(self, dx: int, dy: int) -> dict[int, int | None] | None:
        """Board place → the place dx columns east and dy rows north (offset(p, dx, dy))."""
        if not self.board_ready:
            return None
        key = ("vector", dx, dy)
        found = self.tables.get(key)
        if found is None:
            g = self.game
            found = self.tables[key] = memo.TABLES.get(
                (*key, self.board_shape()),
                lambda: {s: g.shift(s, dx, dy) for s in self.board_places()})
        return found

    def neighbour_table(self, dirs: tuple[str, ...] | None) -> dict[int, list[int]] | None:
        """Board place → its neighbours in `dirs` (all its board's directions when None:
        eight on a grid, six on hexes); a place without all of `dirs` is left out (the
        built-in tells what is wrong)."""
        if not self.board_ready or any(d not in DIRECTIONS for d in dirs or ()):
            return None
        key = ("neighbours", dirs)
        found = self.tables.get(key)
        if found is None:
            g = self.game
            found = self.tables[key] = memo.TABLES.get((*key, self.board_shape()), lambda: {
                s: [t for d in (dirs or ways) if (t := g.offset(s, d, 1)) is not None]
                for s in self.board_places()
                if set(dirs or ()) <= set(ways := board_directions(g.site_zone[s]))})
        return found

    def definition_function(self, name: str) -> Callable[..., Any]:
        """A definition with parameters as a generated function f(env, *args)."""
        done = self.def_functions.get(name)
        if done is None:
            params, body = self.def_bodies[name]
            if self.definition_value(name) is _broken:  # (its mistake is told at it)
                done = _broken_function
            else:
                done = compile_expression(body.text, self.scope(params), params,
                                          f"{name}({', '.join(params)}) means {body.text}")
            self.def_functions[name] = done
        return done

    def definition_weight(self, name: str) -> int:
        """Steps one use of a definition with parameters costs: its body's weight (a
        definition without parameters is computed once per position, and charged then)."""
        found = self.weights.get(name)
        if found is not None:
            return found
        entry = self.def_bodies.get(name)
        if entry is None or not entry[0] or name in self.weighing:
            return 0
        self.weighing.add(name)
        try:
            weight = self.weights[name] = weigh_text(entry[1].text, self.scope(entry[0]))
        finally:
            self.weighing.discard(name)
        return weight

    def expr(self, e: Expr, temps: Iterable[str] = ()) -> Compiled:
        try:
            return compile_expression(e.text, self.scope(temps))
        except ExpressionError as exc:
            self.diagnostics.append(located(exc, e.loc, self.source))
            return _broken

    def constant(self, e: Expr | None, what: str, default: int = 0, limit: int = 0,
                 budget: str = "places") -> int:
        """An expression that must give a whole number before the game starts (options
        only), at most `limit` (budgets.`budget`; default: the places budget)."""
        limit = limit or self.game.budgets.places
        if e is None:
            return default
        compiled = self.expr(e)
        if compiled is _broken:
            return default
        try:
            value = compiled(Env(self.game, _NO_STATE))
        except BrokenRuleset:
            return default  # the mistake it stands for is already reported
        except (RuleError, AttributeError, TypeError, KeyError, RecursionError):
            self.error(f"{what} must be computable from the options alone", e.loc)
            return default
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            shown = value if isinstance(value, int | float | str | None) else "a list"
            self.error(f"{what} must be a whole number of at least 1, got {shown!r}", e.loc)
            return default
        if value > limit:
            self.error(f"{what} is {value:,}, more than the {limit:,} of budgets.{budget}",
                       e.loc, hint=f"raise budgets.{budget} if the game really needs it")
            return default
        return value

    def decision_bound(self) -> None:
        """`most_decisions`: a whole number from the options alone, within the budget."""
        e = self.rs.most_decisions
        if e is None:
            return
        g = self.game
        most = self.constant(e, "most_decisions", default=0,
                             limit=g.budgets.decisions_per_game, budget="decisions_per_game")
        if most:
            g.most_decisions = most
            g.decision_limit = min(most, g.budgets.decisions_per_game)

    # -- definitions --------------------------------------------------------------------
    def collect_definitions(self) -> None:
        for key, written in self.rs.define.items():
            body = written.value if isinstance(written, Definition) else written
            m = _DEF_KEY.match(key)
            loc = body.loc
            if not m:
                self.error(f"'{key}' is not a definition name: write name or name(a, b)", loc)
                continue
            name, params = m.group(1), m.group(2)
            plist = [p.strip() for p in params.split(",")] if params and params.strip() else []
            if any(not _IDENT.match(p) for p in plist):
                self.error(f"bad parameter list in '{key}'", loc)
                continue
            if taken := [w for w in [name, *plist] if w in RESERVED_WORDS]:
                what = (f"definition '{name}'" if taken[0] == name
                        else f"parameter '{taken[0]}' of '{key}'")
                self.error(f"{what}: {_RESERVED}", loc, hint=RESERVED_HINT)
                continue
            if name in FUNCTIONS or name in self.globals or name in self.def_bodies:
                self.error(f"'{name}' is already the name of something else", loc)
                continue
            if isinstance(written, Definition):
                self.check_says(name, plist, written, loc)
            self.def_bodies[name] = (plist, body)
            if plist:
                self.definitions[name] = self._make_call(name)

    def check_says(self, name: str, params: list[str], written: Definition, loc: Any) -> None:
        """A definition's words are a template whose only parts are its parameters."""
        where = written.loc or loc
        try:
            parts = split_template(written.says)
        except ExpressionError as exc:
            self.error(f"the words for '{name}': {exc.message}", where)
            return
        wanted = {part.strip() for is_expr, part, _ in parts if is_expr}
        if wanted != set(params):
            self.error(f"the words for '{name}' must name each parameter in "
                       f"braces ({', '.join('{' + p + '}' for p in params) or 'none'}), "
                       f"not {', '.join('{' + w + '}' for w in sorted(wanted)) or 'none'}",
                       where)

    def reads(self, name: str, seen: frozenset[str] = frozenset()) -> set[str]:
        """What a definition's value depends on, of what the rules change: the pieces'
        places ("board"), variables ("vars"), whose turn and which ("turn"). Its cached
        value is forgotten only when one of those changes."""
        done = self.def_reads.get(name)
        if done is not None:
            return done
        params, body = self.def_bodies[name]
        if name in seen:
            return set(CHANGES)
        try:
            tree = parse_expression(body.text)
        except ExpressionError:
            return set(CHANGES)
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id not in params:
                found |= self.name_reads(node.id, seen | {name})
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                fn = node.func.id
                if fn in self.def_bodies:
                    found |= self.reads(fn, seen | {name})
                elif fn == "next_seat":
                    found.add("turn")  # passes over the seats knocked out
                elif fn not in PURE_FUNCTIONS:
                    found.add("board")
                    if fn in PIECE_VARIABLE_READERS:
                        found.add("vars")
        self.def_reads[name] = found
        return found

    def name_reads(self, name: str, seen: frozenset[str]) -> set[str]:
        if name in self.def_bodies:
            return self.reads(name, seen)
        found = self.globals.get(name)
        if found is None or (isinstance(found, Constant) and not isinstance(
                found.value, SeatVariable | PieceVariable)):
            return set()  # a comprehension's own name, an option, a zone, a value
        if isinstance(found, Constant) or name in self.game.variables:
            return {"vars"}
        if name in ("current", "turn", "eliminated"):
            return {"turn"}
        if name in ("players", "seats", "directions", "orthogonal", "diagonal",
                    "hex_directions"):
            return set()
        return set(CHANGES)

    def cache_readers(self) -> dict[str, tuple[str, ...]]:
        """For each kind of change, the definitions whose cached values it voids."""
        out: dict[str, list[str]] = {change: [] for change in CHANGES}
        for name, (params, _) in self.def_bodies.items():
            if not params:
                reads = self.reads(name)
                for change in reads:
                    out[change].append(name)
                if not reads:  # the same all game long, for a number of players
                    self.constant_stores[name] = {}
        return {change: tuple(names) for change, names in out.items()}

    def definition_value(self, name: str) -> Compiled:
        done = self.def_compiled.get(name)
        if done is not None:
            return done
        params, body = self.def_bodies[name]
        if name in self.compiling:
            raise _Circle(name, self.compiling)
        self.compiling.append(name)
        try:
            compiled = compile_expression(body.text, self.scope(params))
        except ExpressionError as exc:
            if isinstance(exc, _Circle) and exc.name != name:
                raise  # (a circle of definitions is told at the one it starts from)
            self.diagnostics.append(located(exc, body.loc, self.source))
            compiled = _broken
        finally:
            self.compiling.pop()
        if not params:
            compiled = _cached(name, compiled, weigh_text(body.text, self.scope()),
                               self.constant_stores)
        self.def_compiled[name] = compiled
        return compiled

    def inline_definition(self, name: str, bound: dict[str, Compiled]) -> Compiled:
        """The body of a definition with its parameters replaced by the caller's values."""
        _, body = self.def_bodies[name]
        if name in self.compiling:
            raise _Circle(name, self.compiling)
        self.compiling.append(name)
        try:
            scope = self.scope()
            scope.bound = bound
            return compile_expression(body.text, scope)
        except ExpressionError as exc:
            if isinstance(exc, _Circle) and exc.name != name:
                raise  # (a circle of definitions is told at the one it starts from)
            self.diagnostics.append(located(exc, body.loc, self.source))
            return _broken
        finally:
            self.compiling.pop()

    def may_inline(self, text: str) -> bool:
        """Whether the expression `text` may have the small definitions it calls
        written out in place: decided the first time it is compiled, from what is left
        of the game's allowance (expressions.MAX_WRITTEN_OUT), and the same every time
        after (its careful closures and its generated code must agree)."""
        found = self.inline_decisions.get(text)
        if found is None:
            _, added = inlined_size(text, self.call_size)
            found = self.written_out + added <= MAX_WRITTEN_OUT
            if found:
                self.written_out += added
            self.inline_decisions[text] = found
        return found

    def small(self, name: str) -> bool:
        """Whether a definition with parameters is small enough to be written out in
        place where it is called (expressions.MAX_INLINED); never one whose mistake is
        reported (one that refers to itself would be written out without end)."""
        return self.def_compiled.get(name) is not _broken and self.inlined_size(name) is not None

    def inlined_size(self, name: str) -> int | None:
        """A small definition's size written out in place (with the calls in it that
        are written out in place in turn); None for one that is not small, or has no
        parameters (its value is kept, not written out). Each is measured once, so the
        measure is linear in the definitions however they call each other."""
        if name in self.inlined_sizes:
            return self.inlined_sizes[name]
        entry = self.def_bodies.get(name)
        if entry is None or not entry[0] or name in self.sizing:
            return None  # (a definition that refers to itself is reported elsewhere)
        self.sizing.add(name)
        try:
            own, added = inlined_size(entry[1].text, self.call_size)
        finally:
            self.sizing.discard(name)
        size = own + added
        found = self.inlined_sizes[name] = size if size <= MAX_INLINED else None
        return found

    def call_size(self, name: str, arg_nodes: list[Any]) -> int | None:
        """What a call adds where it is written out in place; None where it stays a call
        (see expressions.written_in_place)."""
        entry = self.def_bodies.get(name)
        if entry is None or len(entry[0]) != len(arg_nodes):
            return None
        size = self.inlined_size(name)
        if size is None or not written_in_place(self.uses_of(name), entry[0], arg_nodes,
                                                True):
            return None
        return size

    def uses_of(self, name: str) -> dict[str, tuple[int, bool]]:
        """How often a definition's body uses each parameter (see parameter_uses)."""
        found = self.def_uses.get(name)
        if found is None:
            params, body = self.def_bodies[name]
            found = self.def_uses[name] = parameter_uses(body.text, params)
        return found

    def _make_call(self, name: str) -> Callable[[list[Compiled], list[Any], bool], Compiled]:
        params, _ = self.def_bodies[name]
        uses = self.uses_of(name)

        def factory(args: list[Compiled], arg_nodes: list[Any], allowed: bool) -> Compiled:
            if len(args) != len(params):
                raise ExpressionError(f"{name}() takes {len(params)} argument(s), got {len(args)}")
            if written_in_place(uses, params, arg_nodes, allowed and self.small(name)):
                return self.inline_definition(name, dict(zip(params, args, strict=True)))
            body = self.definition_value(name)
            n = len(params)
            if n == 1:
                p0, a0 = params[0], args[0]

                def call1(env: Any) -> Any:
                    temps = env.temps
                    value = a0(env)
                    saved = temps.get(p0, _MISSING)
                    temps[p0] = value
                    try:
                        return body(env)
                    finally:
                        if saved is _MISSING:
                            del temps[p0]
                        else:
                            temps[p0] = saved
                return call1

            def call(env: Any) -> Any:
                temps = env.temps
                values = [a(env) for a in args]
                saved = [temps.get(p, _MISSING) for p in params]
                for p, v in zip(params, values, strict=True):
                    temps[p] = v
                try:
                    return body(env)
                finally:
                    for p, v in zip(params, saved, strict=True):
                        if v is _MISSING:
                            temps.pop(p, None)
                        else:
                            temps[p] = v
            return call
        return factory

    # -- the parts ----------------------------------------------------------------------
    def add_global(self, name: str, value: Compiled, what: str, loc: Any) -> None:
        if name in RESERVED_WORDS:
            self.error(f"{what} '{name}': {_RESERVED}", loc, hint=RESERVED_HINT)
            return
        if name in self.globals or name in FUNCTIONS or name in self.def_bodies:
            self.error(f"{what} '{name}' has the same name as something else in the ruleset "
                       "or a built-in", loc)
            return
        self.globals[name] = value

    def options(self, given: dict[str, Any]) -> None:
        decls = {o.id: o for o in self.rs.options}
        for key in given:
            if key not in decls:
                hint = did_you_mean(key, decls)
                raise UsageError(f"{self.rs.game.title} has no option '{key}'"
                                 + (f"; {hint}" if hint else "")
                                 + (f" (options: {', '.join(decls)})" if decls else
                                    " (it has no options)"))
        values: dict[str, Any] = {}
        for o in self.rs.options:
            value = coerce_option(o, given[o.id]) if o.id in given else o.default
            values[o.id] = value
            self.add_global(o.id, Constant(value), "option", o.loc)
        self.game.options = values

    def builtins(self) -> None:
        self.globals.update({
            "current": StateRead("env.state.current", lambda env: env.state.current),
            "players": StateRead("env.state.players", lambda env: env.state.players),
            "seats": StateRead("list(range(1, env.state.players + 1))",
                               lambda env: list(range(1, env.state.players + 1))),
            "turn": StateRead("env.state.turn", lambda env: env.state.turn),
            "eliminated": StateRead("list(env.state.out)", lambda env: list(env.state.out)),
            "directions": StateRead(repr(ALL_DIRECTIONS), lambda env: list(ALL_DIRECTIONS)),
            "orthogonal": StateRead(repr(ORTHOGONAL), lambda env: list(ORTHOGONAL)),
            "diagonal": StateRead(repr(DIAGONAL), lambda env: list(DIAGONAL)),
            "hex_directions": StateRead(repr(HEX_ORDER), lambda env: list(HEX_ORDER)),
        })

    def pieces(self) -> list[tuple[str, int | None, Any]]:
        g = self.game
        decl = self.rs.pieces
        g.attribute_order = list(decl.attributes)
        for attr, a in decl.attributes.items():
            if not _IDENT.match(attr):
                self.error(f"attribute name '{attr}' must be a plain name", a.loc)
            g.attributes[attr] = []
            g.value_styles[attr] = {v: s for v, s in a.styles.items()}
            for v in a.values:
                if v in a.names:
                    g.value_names.setdefault(v, a.names[v])  # first attribute wins
                if (isinstance(v, str) and _IDENT.match(v) and v not in self.globals
                        and v not in self.def_bodies):
                    self.globals[v] = Constant(v)
                    self.value_of_attribute[v] = attr
            for mapping, what in ((a.names, "names"), (a.short, "short"), (a.styles, "styles")):
                for v in mapping:
                    if v not in a.values:
                        self.error(f"{what} gives '{v}', which is not a value of '{attr}'",
                                   a.loc, did_you_mean(str(v), [str(x) for x in a.values]))
        for attr in decl.face:
            if attr not in decl.attributes:
                self.error(f"face names '{attr}', which is not an attribute", decl.key_loc(
                    "face"), did_you_mean(attr, decl.attributes))
        namer = g.piece_namer = self.piece_namer()
        starts: list[tuple[str, int | None, Any]] = []
        kind_ids: dict[tuple, int] = {}
        self.piece_sets: list[PieceSet] = []
        """Each piece's set (for its card face)."""
        for ps in decl.sets:
            combos_axes = []
            for attr in g.attribute_order:
                values = ps.each.get(attr)
                if values is None:
                    values = [None]
                for v in values:
                    if (v is not None and not decl.attributes[attr].data
                            and v not in decl.attributes[attr].values):
                        self.error(f"set '{ps.id}': '{v}' is not a value of '{attr}'", ps.loc,
                                   did_you_mean(str(v), [str(x) for x in
                                                         decl.attributes[attr].values]))
                combos_axes.append(values)
            for attr in ps.each:
                if attr not in decl.attributes:
                    self.error(f"set '{ps.id}' names an unknown attribute '{attr}'", ps.loc,
                               did_you_mean(attr, decl.attributes))
            rows = self.table_rows(ps)
            copies = self.constant(ps.count, f"set '{ps.id}' count", 1,
                                   limit=g.budgets.pieces, budget="pieces")
            per_copy = len(rows)
            for axis in combos_axes:
                per_copy *= len(axis)
            if len(g.piece_kind) + copies * per_copy > g.budgets.pieces:
                self.error(f"set '{ps.id}' would bring the pieces to "
                           f"{len(g.piece_kind) + copies * per_copy:,}, more than the "
                           f"{g.budgets.pieces:,} of budgets.pieces", ps.loc,
                           hint="raise budgets.pieces if the game really needs them")
                continue
            pieces = [tuple(plain_data(row.get(attr, v))
                            for attr, v in zip(g.attribute_order, combo, strict=True))
                      for combo in itertools.product(*combos_axes) for row in rows]
            for _ in range(copies):
                for combo in pieces:
                    for attr, v in zip(g.attribute_order, combo, strict=True):
                        g.attributes[attr].append(v)  # a list as the language has lists
                    kind = frozen_value(combo)  # (data lists as tuples: a key)
                    g.piece_kind.append(kind)
                    g.piece_kind_id.append(kind_ids.setdefault(kind, len(kind_ids)))
                    names = {a: data_text(v) if isinstance(v, list)
                             else decl.attributes[a].names.get(v, str(v))
                             for a, v in zip(g.attribute_order, combo, strict=True)
                             if v is not None}
                    g.piece_names.append(namer(names))
                    g.piece_codes.append(self.piece_code(combo))
                    g.piece_shapes.append(ps.shape or decl.shape or (
                        "card" if ps.card or decl.card else None))
                    self.piece_sets.append(ps)
                    g.piece_backs.append(ps.back)
                    g.has_backs = g.has_backs or ps.back is not None
                    starts.append((ps.start.text, ps.seat, ps.start.loc))
        return starts

    def table_rows(self, ps: PieceSet) -> list[dict[str, Any]]:
        """The rows of a set's table, each checked (its attributes known, not also given
        by `each`, their values declared); a set without a table is one empty row."""
        if not ps.table:
            return [{}]
        attributes = self.rs.pieces.attributes
        rows = []
        for i, row in enumerate(ps.table):
            where = f"set '{ps.id}', row {i + 1} of its table"
            checked = {}
            for attr, v in row.items():
                loc = ps.row_loc(i, attr)
                if attr not in attributes:
                    self.error(f"{where}: unknown attribute '{attr}'", loc,
                               did_you_mean(attr, attributes))
                elif attr in ps.each:
                    self.error(f"{where}: '{attr}' is given by 'each' already (a row gives "
                               "the attributes 'each' does not)", loc)
                elif attributes[attr].data:
                    checked[attr] = v  # any number, text or list, card by card
                elif isinstance(v, list):
                    self.error(f"{where}: '{attr}' is given a list, {data_text(v)}; an "
                               "attribute whose values are given card by card, lists too, "
                               f"is declared with `data: true` (e.g. {attr}: {{data: true}})",
                               loc)
                elif v not in attributes[attr].values:
                    self.error(f"{where}: '{v}' is not a value of '{attr}'", loc,
                               did_you_mean(str(v), [str(x) for x in
                                                     attributes[attr].values]))
                else:
                    checked[attr] = v
            rows.append(checked)
        return rows

    def piece_namer(self) -> Callable[[dict[str, str]], str]:
        """How a piece is named from its values' names: the designer's `name` template,
        whose parts are expressions over the attributes (each the name of the piece's
        value, or empty), or else the values' names in order."""
        decl = self.rs.pieces
        order = list(self.game.attribute_order)

        def plain(names: dict[str, str]) -> str:
            return " ".join(names[a] for a in order if a in names)
        if decl.name is None:
            return plain
        try:
            template = compile_template(decl.name.text, self.scope(order),
                                        lambda v: show_value(self.game, v))
        except ExpressionError as exc:
            self.diagnostics.append(located(exc, decl.name.loc, self.source))
            return plain
        game = self.game
        failed: list[RuleError] = []

        def named(names: dict[str, str]) -> str:
            if failed:
                return plain(names)
            env = Env(game, _NO_STATE)
            env.temps.update({a: names.get(a, "") for a in order})
            try:
                return " ".join(str(template(env)).split())
            except RuleError as exc:
                failed.append(exc)
                if isinstance(exc, BudgetError):  # the template is fine; the budget is small
                    self.error(f"working out the pieces' names: {exc.message}", decl.name.loc)
                else:
                    self.error(f"a piece's name can only use its attributes "
                               f"({', '.join(order)}): {exc.message}", decl.name.loc)
                return plain(names)
        return named

    def piece_code(self, combo: tuple) -> str:
        """A short code: the `short` names of the attributes that have them (e.g. rL),
        else all values joined by dashes."""
        attrs = self.rs.pieces.attributes
        order = self.game.attribute_order
        with_shorts = [(a, v) for a, v in zip(order, combo, strict=True)
                       if v is not None and attrs[a].short]
        if with_shorts:
            return "".join(str(attrs[a].short.get(v, v)) for a, v in with_shorts)
        return "-".join(data_text(v).replace(", ", ",") for v in combo if v is not None)

    def zones(self) -> None:
        g = self.game
        max_seats = self.rs.game.seats.max
        names_seen = set()
        for z in self.rs.zones:
            if z.id in names_seen:
                self.error(f"two zones are called '{z.id}'", z.loc)
                continue
            names_seen.add(z.id)
            info = self.zone_layout(z, len(g.site_name), max_seats)
            total = len(g.site_name) + info.owners * info.per_owner
            if total > g.budgets.places:
                self.error(f"zone '{z.id}' would bring the places to {total:,}, more than "
                           f"the {g.budgets.places:,} of budgets.places", z.loc,
                           hint="raise budgets.places if the game really needs them")
                info.per_owner = 1
            g.zones[z.id] = info
            boards = any(zz.kind in _BOARDS for zz in list(g.zones.values())[:-1])
            hexes = list(info.cells) if info.kind == "hex" else []
            for owner in range(info.owners):
                for i in range(info.per_owner):
                    site = len(g.site_name)
                    g.site_zone.append(info)
                    g.site_owner.append(owner + 1 if z.per_seat else None)
                    if info.kind in _BOARDS:
                        r, c = hexes[i] if hexes else divmod(i, info.cols)
                        g.site_rc.append((r, c))
                        name = (f"{c - info.reach},{r - info.reach}" if info.reach is not None
                                else f"{string.ascii_lowercase[c]}{r + 1}")
                        if boards:
                            name = f"{z.id}:{name}"
                    else:
                        g.site_rc.append(None)
                        name = f"{z.id}:{i + 1}" if info.kind == "slots" else z.id
                    if z.per_seat:
                        name = f"{name}[{owner + 1}]"
                    g.site_name.append(name)
                    g.site_by_name[name] = site
            if z.per_seat or info.kind != "pile":
                value: Any = info
            else:
                value = info.first
            self.add_global(z.id, Constant(value), "zone", z.loc)

    def zone_layout(self, z: ZoneDecl, first: int, max_seats: int) -> ZoneInfo:
        label = z.label or z.id.replace("_", " ").capitalize()
        info = ZoneInfo(z.id, label, z.kind, z.per_seat, first, 1,
                        max_seats if z.per_seat else 1, contents=z.contents, count=z.count,
                        reveal_at_end=z.reveal_at_end, description=z.description,
                        on_table=z.on_table)
        if z.kind == "grid" and z.reach is not None:
            for key, value in (("rows", z.rows), ("cols", z.cols), ("size", z.size)):
                if value is not None:
                    self.error(f"an open grid (with 'reach') has no {key}", value.loc)
            if z.count != "everyone":
                self.error(f"an open grid is on the table for all to count: zone '{z.id}' "
                           "cannot hide how many pieces lie on it", z.key_loc("count") or z.loc)
            info.reach = self.constant(z.reach, f"zone '{z.id}' reach", 0)
            info.rows = info.cols = 2 * info.reach + 1
            info.per_owner = info.rows * info.cols
        elif z.kind == "grid":
            info.rows = self.constant(z.rows, f"zone '{z.id}' rows", 1)
            info.cols = self.constant(z.cols, f"zone '{z.id}' cols", 1)
            if z.rows is None or z.cols is None:
                self.error(f"grid zone '{z.id}' needs rows and cols (or 'reach', for an open "
                           "grid)", z.loc)
            if info.cols > 26:
                self.error(f"grid zone '{z.id}' has more than 26 columns", z.loc)
                info.cols = 26
            info.per_owner = info.rows * info.cols
        elif z.kind == "hex":
            self.hex_layout(z, info)
        elif z.kind == "slots":
            if z.size is None:
                self.error(f"slots zone '{z.id}' needs a size", z.loc)
            info.per_owner = self.constant(z.size, f"zone '{z.id}' size", 1)
        else:
            for key, value in (("rows", z.rows), ("cols", z.cols), ("size", z.size),
                               ("reach", z.reach), ("side", z.side)):
                if value is not None:
                    self.error(f"a pile has no {key}", value.loc)
        if z.side is not None and z.kind in ("grid", "slots"):
            self.error(f"a {z.kind} zone has no side (side gives a hexagon-shaped board of "
                       "kind: hex)", z.side.loc)
        return info

    def hex_layout(self, z: ZoneDecl, info: ZoneInfo) -> None:
        """A hex board: a rhombus of rows × cols hexes, or a hexagon of `side` hexes a side
        (a rhombus of 2 × side − 1 a side without two opposite corners)."""
        if z.reach is not None or z.size is not None:
            key = "reach" if z.reach is not None else "size"
            self.error(f"a hex board has no {key}: give rows and cols, or side",
                       z.key_loc(key) or z.loc)
        if z.side is not None:
            if z.rows is not None or z.cols is not None:
                self.error(f"hex zone '{z.id}' has a side, so no rows or cols: a hexagon's "
                           "rows and columns follow from its side", z.key_loc("side") or z.loc)
            info.side = self.constant(z.side, f"zone '{z.id}' side", 1)
            if info.side > 13:
                self.error(f"hex zone '{z.id}' has a side of {info.side}: at most 13 (25 "
                           "columns, a to y)", z.key_loc("side") or z.loc)
                info.side = 13
            info.rows = info.cols = 2 * info.side - 1
        else:
            if z.rows is None or z.cols is None:
                self.error(f"hex zone '{z.id}' needs rows and cols (a rhombus, as Hex's "
                           "board) or side (a hexagon)", z.loc)
            info.rows = self.constant(z.rows, f"zone '{z.id}' rows", 1)
            info.cols = self.constant(z.cols, f"zone '{z.id}' cols", 1)
            if info.cols > 26:
                self.error(f"hex zone '{z.id}' has more than 26 columns", z.loc)
                info.cols = 26
        info.cells = {(r, c): 0 for r in range(info.rows) for c in range(info.cols)
                      if info.holds(r, c)}
        for i, rc in enumerate(info.cells):
            info.cells[rc] = i
        info.per_owner = len(info.cells)

    def place_pieces(self, starts: list[tuple[str, int | None, Any]]) -> None:
        g = self.game
        for zone_id, seat, loc in starts:
            zone = g.zones.get(zone_id)
            if zone is None:
                self.error(f"unknown zone '{zone_id}'", loc, did_you_mean(zone_id, g.zones),
                           "a zone declared under 'zones'")
                g.piece_start.append(0)
                continue
            if zone.kind != "pile":
                self.error(f"pieces must start in a pile, and '{zone_id}' is a {zone.kind}", loc)
                g.piece_start.append(zone.first)
                continue
            if zone.per_seat and seat is None:
                self.error(f"zone '{zone_id}' is per seat: give the set a 'seat'", loc)
                seat = 1
            if not zone.per_seat and seat is not None:
                self.error(f"zone '{zone_id}' is not per seat: drop 'seat'", loc)
            if zone.per_seat and seat is not None and seat > zone.owners:
                self.error(f"seat {seat} is more than the game's {zone.owners} seats", loc)
                seat = 1
            g.piece_start.append(zone.site_for(seat) if zone.per_seat and seat else zone.first)
        stacks: list[list[int]] = [[] for _ in g.site_name]
        for piece, site in enumerate(g.piece_start):
            stacks[site].append(piece)
        g.start_sites = sites_of(stacks, len(stacks))  # (states copy a list on change)

    def variables(self) -> None:
        g = self.game
        for v in self.rs.variables:
            temps = ["seat"] if v.per_seat else ["piece"] if v.per_piece else []
            if v.per_seat and v.per_piece:
                self.error(f"variable '{v.id}' is per seat or per piece, not both",
                           v.key_loc("per_piece") or v.loc)
            if v.per_piece and "visible_to" in v.model_fields_set:
                self.error(f"variable '{v.id}' is per piece: a seat sees a piece's values "
                           "while it sees the piece, so drop 'visible_to'",
                           v.key_loc("visible_to"))
            info = VariableInfo(v.id, v.per_seat,
                                _kept_initial(self.expr(v.initial, temps), v.id, g.limits),
                                v.visible_to,
                                v.reveal_at_end, v.initial.loc or v.loc, v.on_table,
                                v.per_piece and not v.per_seat, v.holds,
                                v.key_loc("holds") or v.loc,
                                v.label or v.id.replace("_", " ").capitalize())
            g.variables[v.id] = info
            value: Compiled
            if info.per_piece:
                value = Constant(PieceVariable(v.id))
            elif v.per_seat:
                value = Constant(SeatVariable(v.id))
            else:
                value = StateRead(f"env.state.vars[{v.id!r}]",
                                  (lambda name: lambda env: env.state.vars[name])(v.id))
            self.add_global(v.id, value, "variable", v.loc)

    def check_shadowing(self, sections: list[tuple[str, list[Any]]]) -> None:
        """A local name (let, for_each, an option's `for`) spelt like an attribute value
        would hide that value for the rest of its section: `p.kind == pyramid` would
        then compare with the local. Refuse it where it is bound."""
        values = self.value_of_attribute
        for section, effects in sections:
            stack = list(effects)
            while stack:
                e = stack.pop()
                for name in sorted(e.local_names() & RESERVED_WORDS):
                    self.error(f"local name '{name}': {_RESERVED}", e.loc, hint=RESERVED_HINT)
                for name in sorted(e.local_names() & values.keys()):
                    self.error(f"'{name}' is a value of the attribute '{values[name]}': as a "
                               f"local name it would hide that value in all of {section}; "
                               "choose another name", e.loc)
                for child in e.children():
                    stack.extend(child)

    def panels_and_heights(self) -> None:
        """pieces.panels (regions on a face, turning) and pieces.height (altitude)."""
        g, decl = self.game, self.rs.pieces
        panels = decl.panels
        if panels is not None:
            where = decl.key_loc("panels") or decl.loc
            widths = {len(row) for row in panels.layout}
            ok = len(widths) == 1 and 0 not in widths
            if not ok:
                self.error("panels: every row of the layout needs the same number of "
                           "positions (at least one)", where)
            for row in panels.layout:
                for attr in row:
                    if attr is not None and attr not in decl.attributes:
                        ok = False
                        self.error(f"panels: the layout names '{attr}', which is not an "
                                   "attribute", where, did_you_mean(attr, decl.attributes))
            named = [a for row in panels.layout for a in row if a is not None]
            if len(set(named)) != len(named):
                ok = False
                self.error("panels: an attribute appears twice in the layout", where)
            if panels.turn == 90 and ok and len(panels.layout) != len(panels.layout[0]):
                ok = False
                self.error("panels: only a square layout can turn by 90°", where)
            for key in ("facing", "standing_on"):
                name = getattr(panels, key)
                if name is None:
                    continue
                var = g.variables.get(name.text)
                if var is None or not var.per_piece:
                    ok = False
                    self.error(f"panels: {key} names '{name.text}', which is not a per-piece "
                               "variable (declare it under variables with per_piece: true)",
                               name.loc or where, did_you_mean(name.text, [
                                   v.id for v in g.variables.values() if v.per_piece]))
            if panels.turn != 360 and panels.facing is None:
                ok = False
                self.error("panels: pieces that turn need 'facing', the per-piece variable "
                           "that holds their turn", where)
            if ok:
                g.panels = PanelsInfo(
                    [list(row) for row in panels.layout], panels.turn,
                    panels.facing.text if panels.facing else None,
                    panels.standing_on.text if panels.standing_on else None)
                g.panels.mark_pieces(g)
        if decl.height is not None:
            height = self.expr(decl.height, ["piece"])
            if height is _broken:
                return
            env = Env(g, _NO_STATE)
            values = []
            for piece in range(g.n_pieces):
                env.temps["piece"] = piece
                try:
                    value = height(env)
                except (RuleError, BrokenRuleset, AttributeError, TypeError, KeyError):
                    self.error("pieces.height must be computable from a piece's attributes "
                               "(and the options)", decl.height.loc)
                    return
                if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                    self.error(f"pieces.height gives {g.piece_names[piece]} a height of "
                               f"{value!r}: heights are numbers of at least 0",
                               decl.height.loc)
                    return
                values.append(value)
            g.piece_heights = values

    def card_faces(self) -> None:
        """Each card's face (pieces.card, or its set's `card`), its templates and icon
        count compiled once and worked out per kind of card now: a bad one is an error
        where it is written, not a surprise while drawing."""
        g = self.game
        decl = self.rs.pieces
        compiled: dict[int, Callable[[int, dict[str, str]], CardShown] | None] = {}
        shown: dict[tuple[int, int], CardShown] = {}
        for piece, ps in enumerate(self.piece_sets):
            if g.piece_shapes[piece] != "card":
                g.piece_cards.append(None)
                continue
            face = ps.card or decl.card
            if id(face) not in compiled:
                compiled[id(face)] = self.card_face(face)
            make = compiled[id(face)]
            key = (id(face), g.piece_kind_id[piece])
            if make is None:
                g.piece_cards.append(CardShown(g.piece_names[piece]))
                continue
            if key not in shown:
                names = {a: data_text(v) if isinstance(v, list)
                         else decl.attributes[a].names.get(v, str(v))
                         for a in g.attribute_order
                         if (v := g.attributes[a][piece]) is not None}
                shown[key] = make(piece, names)
            g.piece_cards.append(shown[key])

    def card_face(self, face: Any) -> Callable[[int, dict[str, str]], CardShown] | None:
        """How one `card:` makes a card's face from a piece and its values' names (None
        when a part of it is broken: the error is reported, the card shows its name)."""
        g = self.game
        order = list(g.attribute_order)
        attrs = self.rs.pieces.attributes
        if face is not None and face.band is not None and face.band not in attrs:
            self.error(f"card: band names '{face.band}', which is not an attribute",
                       face.key_loc("band"), did_you_mean(face.band, attrs))
        scope = self.scope([*order, "piece"])
        parts: dict[str, Callable[[Env], Any] | None] = {"title": None, "corner": None}
        for key in parts:
            text = getattr(face, key) if face is not None else None
            if text is None:
                continue
            try:
                parts[key] = compile_template(text.text, scope, lambda v: show_value(g, v))
            except ExpressionError as exc:
                self.diagnostics.append(located(exc, text.loc, self.source))
                return None
        icons = None
        if face is not None and face.icons is not None:
            icons = self.expr(face.icons, ["piece"])
            if icons is _broken:
                return None
        failed: list[bool] = []

        def run(what: str, part: Callable[[Env], Any], env: Env) -> Any:
            try:
                return part(env)
            except (RuleError, BrokenRuleset, AttributeError, TypeError, KeyError) as exc:
                loc = getattr(face, what).loc
                if not failed:
                    failed.append(True)
                    self.error(f"card {what}: a card's face can only use its attributes "
                               f"({', '.join(order)}) and piece: "
                               f"{getattr(exc, 'message', exc)}", loc)
                return None

        def make(piece: int, names: dict[str, str]) -> CardShown:
            env = Env(g, _NO_STATE)
            env.temps.update({a: names.get(a, "") for a in order})
            env.temps["piece"] = piece
            title = g.piece_names[piece]
            if parts["title"] is not None:
                title = " ".join(str(run("title", parts["title"], env) or "").split())
            corner = (self.default_corner(piece) if parts["corner"] is None else
                      " ".join(str(run("corner", parts["corner"], env) or "").split()))
            drawn = ""
            if icons is not None and face.icon:
                count = run("icons", icons, env)
                if isinstance(count, bool) or not isinstance(count, int) or not (
                        0 <= count <= 12):
                    if count is not None and not failed:
                        failed.append(True)
                        self.error(f"card icons gives {g.piece_names[piece]} {count!r} "
                                   "icons: a whole number from 0 to 12", face.icons.loc)
                    count = 0
                drawn = face.icon * count
            return CardShown(title, corner, drawn, face.band if face is not None else None)
        return make

    def default_corner(self, piece: int) -> str:
        """A card's corner when its face does not say: its `face` attributes (`$3 2★`),
        else the short form (else the value) of its first number-valued attribute."""
        g = self.game
        attrs = self.rs.pieces.attributes
        if self.rs.pieces.face:
            return g.piece_face({a: v for a in g.attribute_order
                                 if (v := g.attributes[a][piece]) is not None})
        for a in g.attribute_order:
            v = g.attributes[a][piece]
            if isinstance(v, int) and not isinstance(v, bool) and not attrs[a].data:
                return str(attrs[a].short.get(v) or v)
        return ""

    def program(self) -> None:
        g = self.game
        rs = self.rs
        procedures = {p.id: (Label(), list(p.params)) for p in rs.procedures}
        b = ProgramBuilder(
            base_scope=self.scope(), source=self.source,
            show=lambda v: show_value(g, v),
            variables={v.id: "seat" if v.per_seat else "piece" if v.per_piece else "game"
                       for v in rs.variables},
            procedures=procedures)
        for proc in rs.procedures:
            for name in sorted(set(proc.params) & RESERVED_WORDS):
                self.error(f"parameter '{name}' of procedure '{proc.id}': {_RESERVED}",
                           proc.key_loc("params") or proc.loc, hint=RESERVED_HINT)
        self.check_shadowing([("setup", rs.setup), ("the turn", rs.turn)]
                             + [(f"procedure {p.id}", p.do) for p in rs.procedures]
                             + [(f"trigger {t.id}", t.do) for t in rs.triggers])
        b.section = Section("setup", frozenset(collect_locals(rs.setup)))
        b.block(rs.setup)
        first = self.expr(rs.first_seat)
        turn = Label()
        b.where = (rs.first_seat.loc, "first_seat")

        def start(m: Machine) -> int:
            seat = first(m.env)
            m.seat_index(seat)
            m.state.current = seat
            m.env.forget("turn")
            m.env.locals.clear()
            if m.state.out and seat in m.state.out:  # knocked out while setting up
                return m.next_seat_in(turn.pc)
            return turn.pc
        b.emit(start, usually=turn)
        b.where = (rs.key_loc("end") if rs.end else rs.key_loc("turn"),
                   "the end rules (none has held yet)" if rs.end else "the turn (no end rule)")
        b.mark(turn)
        body = b.next_pc() + 1
        turns = g.budgets.turns_per_game
        b.emit(lambda m: m.begin_turn(body), falls=True,
               inline=lambda pc: inlines.begin_turn(pc, turns))
        b.section = Section("the turn", frozenset(collect_locals(rs.turn)))
        b.block(rs.turn)
        b.where = (rs.key_loc("end"), "the end rules")
        b.emit(lambda m: m.end_turn(turn.pc), usually=turn,
               inline=lambda pc: inlines.end_turn(pc, g.end_rules, turn.pc))
        for p in rs.procedures:
            label, params = procedures[p.id]
            b.section = Section(f"procedure {p.id}",
                                frozenset(collect_locals(p.do) | set(params)))
            b.mark(label)
            b.block(p.do)
            b.emit(lambda m: m.pop_frame())
        for t in rs.triggers:
            zone = g.zones.get(t.enters.text)
            if zone is None:
                self.error(f"unknown zone '{t.enters.text}'", t.enters.loc,
                           did_you_mean(t.enters.text, g.zones))
                continue
            b.section = Section(f"trigger {t.id}",
                                frozenset(collect_locals(t.do) | {"piece", "place"}))
            entry = Label()
            where = b.expr(t.where, ["piece", "place"]) if t.where is not None else None
            zone.triggers.append(len(g.triggers))
            g.triggers.append(TriggerInfo(t.id, zone.id, where, entry, t.text,
                                          t.where.loc if t.where is not None else t.loc))
            b.mark(entry)
            b.block(t.do)
            b.emit(lambda m: m.pop_frame())
        self.diagnostics.extend(b.diagnostics)
        g.program = b.program
        if self.stretches and not b.diagnostics:
            g.program = fuse(b.program, b.program_weights, b.program_flow, b.marked,
                             lambda pc: b.program_where[pc][1], self.hooks.sink,
                             b.made_inlines())
        g.program_where = b.program_where
        g.program_weights = b.program_weights
        g.choices = b.choices
        g.first_seat = first
        g.turn_pc = turn.pc

    def concealment(self) -> None:
        for z in self.rs.zones:
            if z.conceal is not None and z.id in self.game.zones:
                zone = self.game.zones[z.id]
                zone.conceal = self.expr(z.conceal, ["piece", "place", "viewer"])
                zone.conceal_loc = z.conceal.loc

    def endings(self) -> None:
        g = self.game
        for rule in self.rs.end:
            g.end_rules.append(EndRuleInfo(
                rule.id, self.expr(rule.when),
                self.expr(rule.winners) if rule.winners is not None else None,
                rule.text or rule.id.replace("-", " ").replace("_", " "), rule.loc,
                1 + weigh_text(rule.when.text, self.scope())))
        g.rank_keys = [self.expr(k, ["seat"]) for k in self.rs.rank]
        g.rank_locs = [k.loc for k in self.rs.rank]
        g.score = self.expr(self.rs.scores, ["seat"]) if self.rs.scores is not None else None
        g.score_loc = self.rs.scores.loc if self.rs.scores is not None else None
        self.compile_computer_players(g)

    def compile_computer_players(self, g: Game) -> None:
        """Check the settings the ruleset gives its searching players, as `--agent` would."""
        from interpreter.agents import check_agent

        given = self.rs.computer_players
        for name in type(given).model_fields:
            text = getattr(given, name)
            if text is None:
                continue
            try:
                g.computer_players[name] = check_agent(f"{name}:{text}").settings
            except UsageError as exc:
                self.error(f"computer_players.{name}: {exc}", given.key_loc(name))

    def effect_ids(self) -> None:
        """An effect's id names it for variants, so it must be unique in the ruleset."""
        from interpreter.compile.program import collect_effects

        rs = self.rs
        blocks = [rs.setup, rs.turn, *(p.do for p in rs.procedures),
                  *(t.do for t in rs.triggers)]
        seen: dict[str, Any] = {}
        for effect in collect_effects(block for block in blocks):
            if effect.id is None:
                continue
            if effect.id in seen:
                first = seen[effect.id]
                self.error(f"two effects have the id '{effect.id}' (the first at {first})",
                           effect.loc)
            else:
                seen[effect.id] = effect.loc

    def run(self, given: dict[str, Any]) -> Game:
        self.builtins()
        self.effect_ids()
        self.options(given)
        self.collect_definitions()
        starts = self.pieces()
        self.zones()
        self.board_ready = True
        self.place_pieces(starts)
        self.variables()
        self.panels_and_heights()
        self.card_faces()
        for name, (params, body) in self.def_bodies.items():
            if not params:
                try:
                    self.definition_value(name)
                except ExpressionError as exc:
                    self.diagnostics.append(located(exc, body.loc, self.source))
        for name, (params, body) in self.def_bodies.items():
            if params:
                try:
                    self.definition_value(name)
                except ExpressionError as exc:
                    self.diagnostics.append(located(exc, body.loc, self.source))
        self.decision_bound()
        self.endings()  # before the program: a turn's end runs the end rules inline
        self.program()
        self.concealment()
        if self.diagnostics:
            raise RulesetError(explain_variant(_sorted_unique(self.diagnostics),
                                               self.loaded.source, self.loaded.variant))
        self.game.generated_code = self.hooks.sink
        self.game.cache_readers = self.cache_readers()
        return self.game


_RESERVED = "a reserved word, which no expression can name"


class _Circle(ExpressionError):
    """A definition that refers to itself, told once, at that definition (not at the
    definitions or uses that lead to it)."""

    def __init__(self, name: str, compiling: list[str]) -> None:
        path = [*compiling[compiling.index(name):], name]
        super().__init__(f"definition '{name}' refers to itself ({' → '.join(path)})")
        self.name = name


def _broken_function(env: Any, *args: Any) -> Any:
    """A definition with parameters whose mistake is already reported (never run)."""
    return _broken(env)


def _sorted_unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[str] = set()
    out = []
    for d in diags:
        key = d.render()
        if key not in seen:
            seen.add(key)
            out.append(d)

    def order(d: Diagnostic) -> tuple:
        loc = d.location
        return (0, loc.line, loc.col) if loc else (1, 0, 0)
    return sorted(out, key=order)


CHANGES = ("board", "vars", "turn")
"""What the rules change that a definition may read (see _Compiler.reads)."""

PIECE_VARIABLE_READERS = frozenset({"panel", "panels", "edge", "altitude"})
"""Built-ins that read per-piece variables (a piece's facing, what it stands on)."""

PURE_FUNCTIONS = frozenset({
    "cells", "neighbours", "offset", "row", "col", "place", "place_name", "piece_name",
    "piece_code", "value_name", "dir_name", "seat_name", "next_seat", "sum", "min", "max",
    "any", "all", "sorted", "reversed", "first", "last", "distinct", "one_of_each_kind",
    "without", "join", "str", "abs", "range", "repeat", "owner", "zone_of", "groups",
    "reachable", "border"})
"""Built-ins whose value depends only on their arguments and the board's layout (count
and len are not: count(zone) counts the pieces in it)."""


def _cached(name: str, body: Compiled, weight: int,
            constant_stores: dict[str, dict[int, Any]]) -> Compiled:
    """A definition without parameters depends only on the state: compute it once per
    state change (the machine forgets ``env.cache`` entries as it changes the state). One
    that reads nothing the rules change is computed once per Game and number of players,
    and charged its weight at its first use in each environment, as any other: its steps
    never depend on which games came before in the process."""
    def cached(env: Any) -> Any:
        cache = env.cache
        value = cache.get(name, _MISSING)
        if value is _MISSING:
            env.steps += weight
            store = constant_stores.get(name)
            if store is None:
                value = body(env)
            else:
                players = env.state.players
                value = store.get(players, _MISSING)
                if value is _MISSING:
                    # computed once for the Game, so charged as its weight alone, here
                    # as in every later game; the definitions it uses are kept aside,
                    # so their own first uses here are charged as anywhere else
                    before, kept_here = env.steps, env.cache
                    env.cache = {}
                    try:
                        value = store[players] = body(env)
                    finally:
                        env.cache = kept_here
                        env.steps = before
            cache[name] = value
        return value
    cached.cache_key = name  # type: ignore[attr-defined]  # generated code reads the cache
    return cached


def _kept_initial(initial: Compiled, var: str, limits: Any) -> Compiled:
    """A variable's initial value, refused when larger than budgets.value_size."""
    if initial is _broken:
        return initial
    limit = limits.value_size

    def checked(env: Any) -> Any:
        value = initial(env)
        if type(value) is list:
            kept(env, value, limit, f"the initial value of '{var}'")
        return value
    return checked


class _NoState:
    """Stands for the state while zone sizes are computed: only options may be used."""

    def __getattr__(self, name: str) -> Any:
        raise RuleError("no state yet")


_NO_STATE: Any = _NoState()




def coerce_option(decl: OptionDecl, value: Any) -> Any:
    """An option value from the command line or a file, checked against its declaration."""
    text = str(value).strip()
    shown = shorten(text)
    if decl.type == "bool":
        if isinstance(value, bool):
            return value
        low = text.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise UsageError(f"option '{decl.id}' is on/off: use true or false, not '{shown}'")
    if decl.type == "int":
        try:
            number = int(text) if len(text) <= 30 else None
        except ValueError:
            number = None
        if number is None or isinstance(value, bool):
            raise UsageError(f"option '{decl.id}' takes a whole number, not '{shown}'")
        low = decl.min if decl.min is not None else -(2 ** 53 - 1)
        high = decl.max if decl.max is not None else 2 ** 53 - 1
        if not low <= number <= high:
            raise UsageError(f"option '{decl.id}' must be between {low} and {high}")
        return number
    choices = decl.choices or []
    if text not in choices:
        hint = did_you_mean(text, choices)
        raise UsageError(f"option '{decl.id}' must be one of {', '.join(choices)}, not "
                         f"'{shown}'" + (f"; {hint}" if hint else ""))
    return text


def compile_game(loaded: LoadedRuleset, options: dict[str, Any] | None = None,
                 generate: bool = True, stretches: bool = True) -> Game:
    """Compile a validated ruleset with the given option values into a Game; without
    `generate`, its expressions run as checked closures only (the careful path, which
    the tests hold the generated code to); without `stretches`, its instructions run
    one by one (what the tests hold the stretches to)."""
    compiler = _Compiler(loaded, options or {})
    compiler.generate = generate
    compiler.stretches = generate and stretches
    game = compiler.run(options or {})
    game.recipe = functools.partial(compile_game, loaded, options or {}, generate, stretches)
    return game


_COMPILED: OrderedDict[tuple, Game] = OrderedDict()
_COMPILED_KEPT = 8


def compile_game_once(loaded: LoadedRuleset, options: dict[str, Any] | None = None) -> Game:
    """compile_game, remembering the last few games by their file's path and content and
    the options: a Game is never changed once compiled, and the rulebooks, their worked
    examples and a scenario file compile the same ruleset with the same options many
    times over (the bundled rulebooks compiled 45 games for 11 rulesets)."""
    key = (loaded.path, loaded.content_hash,
           tuple(sorted((k, repr(v)) for k, v in (options or {}).items())))
    hit = _COMPILED.get(key)
    # the same text gives the same model, unless a tool changed the model it loaded
    if hit is not None and (hit.loaded.model is loaded.model
                            or hit.loaded.model == loaded.model):
        _COMPILED.move_to_end(key)
        return hit
    game = compile_game(loaded, options)
    _COMPILED[key] = game
    while len(_COMPILED) > _COMPILED_KEPT:
        _COMPILED.popitem(last=False)
    return game


__all__ = ["Decision", "Game", "Option", "ZoneInfo", "compile_game", "compile_game_once",
           "compile_template", "normalize_notation"]
_ = (PAUSE, SWITCH, DIRECTION_NAMES, BUILTIN_NAMES)
