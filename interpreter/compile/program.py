"""The program builder: primitives emit instructions for the machine through it.

A ruleset's flow (setup, turn, procedures, triggers) becomes one flat list of
instructions. An instruction is a closure taking the machine and returning the next
program counter, so the machine's position is a plain integer plus local variables:
a game can pause at any decision, even deep inside a chain of effects, and still be
saved as JSON.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.compile import inlines
from interpreter.compile.codegen import OptionParts, flat_list, generate_listing
from interpreter.compile.codegen import _distinct as is_distinct
from interpreter.compile.deal import generate_deal
from interpreter.compile.expressions import (
    LOOP_STEPS,
    Compiled,
    Constant,
    ExpressionError,
    Scope,
    compile_expression,
    compile_template,
    located,
    parse,
    split_template,
    weigh_text,
)
from interpreter.compile.expressions import broken as _broken
from interpreter.compile.stretches import FALLS, Flow, Inline
from interpreter.errors import Diagnostic, Location, did_you_mean
from interpreter.located import Expr, Name, Template
from interpreter.run.budget import option_values
from interpreter.run.tables import ChoiceSpec, Label, OptionKind, careful_values

if TYPE_CHECKING:
    from interpreter.primitives.base import Primitive
    from interpreter.primitives.decisions import Choose
    from interpreter.run.machine import Machine

Instruction = Callable[["Machine"], int]

INSTRUCTION_STEPS = 8
"""Steps an instruction costs before its expressions: the machine's dispatch of one
instruction costs about as much as evaluating eight parts of an expression."""
PAUSE = -1
SWITCH = -2


@dataclass
class Section:
    """A stretch of flow with its own local names (setup, turn, a procedure, a trigger)."""

    name: str
    locals: frozenset[str]
    decisions_allowed: bool = True


@dataclass
class ProgramBuilder:
    """Collects instructions and diagnostics while primitives compile themselves."""

    base_scope: Scope
    source: Any
    show: Callable[[Any], str]
    variables: dict[str, str]
    """Declared variables: id → "game", "seat" or "piece" (whose each value is)."""
    procedures: dict[str, tuple[Label, list[str]]]
    program: list[Instruction] = field(default_factory=list)
    program_where: list[tuple[Location | None, str]] = field(default_factory=list)
    """For each instruction: (where, what) of the effect it carries out, for errors."""
    program_weights: list[int] = field(default_factory=list)
    """For each instruction: the steps it costs (one, plus its expressions' weights)."""
    program_flow: list[Flow | None] = field(default_factory=list)
    """For each instruction: where it goes next, when known (see compile.stretches)."""
    marked: set[int] = field(default_factory=set)
    """Positions labels point at (jumped to, entered, returned to)."""
    inlines: dict[int, Callable[[], Inline | None]] = field(default_factory=dict)
    """Instructions that bring their own source for stretches, made once the program is
    complete (labels placed, listings generated): see compile.stretches.Inline."""
    pending_weight: int = 0
    """Weight of the expressions compiled since the last instruction was emitted."""
    where: tuple[Location | None, str] = (None, "the rules")
    """The effect being compiled now."""
    choices: dict[int, ChoiceSpec] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    section: Section = field(default_factory=lambda: Section("flow", frozenset()))
    _hidden: int = 0

    # -- positions ------------------------------------------------------------------------
    def next_pc(self) -> int:
        return len(self.program)

    def after_this(self) -> int:
        """The position after the instruction about to be emitted (its usual successor)."""
        return len(self.program) + 1

    def emit(self, instruction: Instruction, falls: bool = False,
             usually: Label | int | None = None, flow: Flow | None = None,
             inline: Callable[[int], Inline | None] | None = None) -> int:
        """Add an instruction. Say where it goes when that is known, so that it can
        run inside a generated stretch: `falls` (always to the next position) or
        `usually` (a position it goes to unless it returns another); `inline(pc)`, its
        source for a stretch, is asked for when the program is complete."""
        if falls:
            flow = FALLS
        elif usually is not None:
            flow = Flow("usually", usually)
        self.program.append(instruction)
        self.program_where.append(self.where)
        self.program_weights.append(INSTRUCTION_STEPS + self.pending_weight)
        self.program_flow.append(flow)
        self.pending_weight = 0
        pc = len(self.program) - 1
        if inline is not None:
            self.inlines[pc] = lambda: inline(pc)
        return pc

    def made_inlines(self) -> dict[int, Inline]:
        """The instructions' own sources, now that the program is complete."""
        made = {pc: make() for pc, make in self.inlines.items()}
        return {pc: inline for pc, inline in made.items() if inline is not None}

    def label(self) -> Label:
        return Label()

    def mark(self, label: Label) -> None:
        label.pc = len(self.program)
        self.marked.add(label.pc)

    def emit_jump(self, label: Label) -> None:
        self.emit(lambda m: label.pc, flow=Flow("goto", label))

    def emit_jump_unless(self, cond: Compiled, label: Label) -> None:
        nxt = self.next_pc() + 1

        def run(m: Machine) -> int:
            return nxt if cond(m.env) else label.pc
        self.emit(run, flow=Flow("unless", label, cond))

    def hidden_local(self, what: str) -> str:
        self._hidden += 1
        return f"_{what}{self._hidden}"

    # -- compiling parts ------------------------------------------------------------------
    def scope(self, temps: Iterable[str] = (), allow_random: bool = False,
              track_pieces: bool = False) -> Scope:
        return dataclasses.replace(self.base_scope, locals=self.section.locals,
                                   temps=frozenset(temps), allow_random=allow_random,
                                   track_pieces=track_pieces)

    def expr(self, e: Expr, temps: Iterable[str] = (), allow_random: bool = False) -> Compiled:
        """An expression of the effect being compiled; its weight is charged whenever
        the effect's next instruction runs."""
        scope = self.scope(temps, allow_random)
        try:
            compiled = compile_expression(e.text, scope)
            self.pending_weight += weigh_text(e.text, scope)
            return compiled
        except ExpressionError as exc:
            self.diagnostics.append(located(exc, e.loc, self.source))
            return _broken

    def place(self, e: Expr, allow_random: bool = False) -> Compiled:
        """An expression where a place is expected: a quoted name (`'c3'`) is that place,
        found now, and a name no place has is a located mistake with a did-you-mean (a
        text computed as the game goes is looked up when the effect runs: Machine.place)."""
        compiled = self.expr(e, allow_random=allow_random)
        try:
            tree = parse(e.text)
        except ExpressionError:
            return compiled
        if not (isinstance(tree, ast.Constant) and isinstance(tree.value, str)):
            return compiled
        site = self.base_scope.resolve_site(tree.value)
        if site is None:
            loc = e.loc
            self.diagnostics.append(located(ExpressionError(
                f"no square or place is called '{tree.value}'", tree.col_offset,
                self.base_scope.no_place(tree.value)), loc, self.source))
            return _broken
        return Constant(site)

    def function(self, e: Expr, params: list[str]) -> Callable[..., Any]:
        """An expression of the effect being compiled, called as f(env, *params) with
        its parameters as Python locals (for an effect that evaluates it many times over
        values of its own); its weight is charged like `expr`'s."""
        scope = self.scope(params)
        try:
            compiled = compile_expression(e.text, scope, params)
            self.pending_weight += weigh_text(e.text, scope)
            return compiled
        except ExpressionError as exc:
            self.diagnostics.append(located(exc, e.loc, self.source))
            return lambda env, *args: _broken(env)

    def deal(self, where: Expr | None) -> Callable[..., Any]:
        """The deal of an `arrange` (compile.deal), its condition on `value`, `place`
        and `assigned` written inline; the condition's weight is charged like `expr`'s."""
        if where is None:
            return generate_deal(None, None, None, None)
        params = ["value", "place", "assigned"]
        careful = self.function(where, params)
        scope = self.scope(params)
        if scope.code is None or self.diagnostics:
            return generate_deal(None, None, careful, None)
        scope = dataclasses.replace(scope, inline=scope.inlining(where.text))
        return generate_deal(parse(where.text), scope, careful, scope.code.sink)

    def template(self, t: Template, temps: Iterable[str] = (),
                 track_pieces: bool = False) -> Compiled:
        """A text template; with `track_pieces` it records the pieces its text describes
        (for log lines, which must not name a piece hidden from the reader)."""
        try:
            return compile_template(t.text, self.scope(temps, track_pieces=track_pieces),
                                    self.show)
        except ExpressionError as exc:
            self.diagnostics.append(located(exc, t.loc, self.source))
            return _broken

    def option_group(self, o: Any, temps: list[str]) -> Compiled | None:
        """What the option reads as when only its first `for` value is chosen: the
        parts of its notation that name that value and no other option value (so
        `"{piece_code(piece)}-{place_name(onto)}"` groups by `piece_code(piece)`).
        None when the option has fewer than two `for` values or no such part: a search
        then has nothing to group it by."""
        names = list(o.for_)
        if len(names) < 2:
            return None
        own = set(names) | set(o.let)
        try:
            parts = split_template(o.notation.text)
            kept = []
            for is_expr, part, _ in parts:
                if is_expr:
                    used = {n.id for n in ast.walk(parse(part)) if isinstance(n, ast.Name)}
                    if used & own == {names[0]}:
                        kept.append("{" + part + "}")
        except ExpressionError:
            return None
        if not kept:
            return None
        return self.template(Template(" ".join(kept), o.notation.loc), temps)

    def option_value(self, compiled: Compiled, what: str, e: Expr, temps: list[str]
                     ) -> Compiled:
        """An option's `for` list or `let` value, refused when it holds lists and is
        too large to keep (run.budget.option_values): a `for` list wherever it is gone
        through (the generated listing checks the same), a `let` value where the
        option is bound (its careful closure). A list that can hold no list
        (cells(board)) is not looked at."""
        if compiled is _broken:
            return compiled
        try:
            scope = self.scope(temps)
            if flat_list(parse(e.text), scope, scope.code):
                return compiled
        except ExpressionError:
            return compiled
        limit = self.base_scope.limits.value_size

        def checked(env: Any) -> Any:
            value = compiled(env)
            if type(value) is list:
                option_values(env, value, limit, what)
            return value
        return checked

    def generate_listing(self, kind: OptionKind, o: Any) -> None:
        """Generated code for listing an option kind (with its careful closures to hand
        over to), when code generation is on and the kind compiled cleanly."""
        scope = self.scope(["chooser", *o.for_, *o.let])
        compiled = (*kind.sources, kind.where, *(v for _, v in kind.lets))
        if scope.code is None or any(c is _broken for c in compiled):
            return
        try:
            parts = OptionParts(
                names=list(o.for_), sources=[parse(e.text) for e in o.for_.values()],
                lets=[(name, parse(e.text)) for name, e in o.let.items()],
                where=parse(o.where.text) if o.where is not None else None,
                weight=kind.weight, source_weights=kind.source_weights)
        except ExpressionError:
            return
        texts = [*o.for_.values(), *o.let.values(), *([o.where] if o.where else [])]
        trees = [*parts.sources, *(tree for _, tree in parts.lets),
                 *([parts.where] if parts.where is not None else [])]
        parts.inline = {id(tree): scope.inlining(e.text)
                        for tree, e in zip(trees, texts, strict=True)}
        kind.values, kind.exists = generate_listing(
            parts, scope, lambda env: careful_values(kind, env),
            lambda env: bool(careful_values(kind, env)), f"the options '{kind.id}'")
        earlier: set[str] = set()
        direct = parts.where is None and bool(parts.names)
        for name, source in zip(parts.names, parts.sources, strict=True):
            used = {n.id for n in ast.walk(source) if isinstance(n, ast.Name)}
            direct = direct and not used & earlier and is_distinct(source, scope)
            earlier.add(name)
        kind.direct = direct

    def error(self, message: str, loc: Location | None, hint: str | None = None,
              expected: str | None = None) -> None:
        line = self.source.line_at(loc)
        self.diagnostics.append(Diagnostic(message, loc, expected, hint, line))

    def hint(self, word: str, candidates: Iterable[str]) -> str | None:
        return did_you_mean(word, candidates)

    def variable(self, name: Name, whose: str) -> str:
        """A declared variable's id; `whose` says how the effect indexes it ("game": not
        at all, "seat": with `seat`, "piece": with `piece`)."""
        declared = self.variables.get(name.text)
        if declared is None:
            self.error(f"unknown variable '{name.text}'", name.loc,
                       self.hint(name.text, self.variables),
                       "a variable declared under 'variables'")
        elif declared != whose:
            need = {"seat": "per seat: give 'seat'", "piece": "per piece: give 'piece'",
                    "game": "a game variable: drop 'seat' and 'piece'"}[declared]
            self.error(f"variable '{name.text}' is {need}", name.loc)
        return name.text

    def procedure(self, name: Name) -> tuple[Label, list[str]]:
        found = self.procedures.get(name.text)
        if found is None:
            self.error(f"unknown procedure '{name.text}'", name.loc,
                       self.hint(name.text, self.procedures))
            return Label(), []
        return found

    def block(self, effects: list[Primitive]) -> None:
        outer = self.where
        try:
            for effect in effects:
                self.where = (effect.loc, f"effect '{effect.keyword}'")
                effect.compile(self)
        finally:
            self.where = outer

    def forbid_decisions(self, effects: list[Primitive], where: str) -> None:
        stack = list(effects)
        while stack:
            e = stack.pop()
            if e.keyword == "choose":  # primitives.decisions.Choose, a layer above
                self.error(f"a decision (choose) cannot be made inside {where}", e.loc)
            for child in e.children():
                stack.extend(child)

    # -- decisions ------------------------------------------------------------------------
    def choice(self, c: Choose) -> None:
        if not self.section.decisions_allowed:
            self.error(f"a decision (choose) cannot be made in {self.section.name}", c.loc)
        if c.seat is not None and c.seats is not None:
            self.error("give either 'seat' or 'seats', not both", c.loc)
        if c.on_record and c.seats is None:
            self.error("'on_record' keeps the lines that reveal secret choices: it needs "
                       "'seats' (one seat's choice is in the log already)",
                       c.key_loc("on_record") or c.loc)
        after = Label()
        spec = ChoiceSpec(
            pc=self.next_pc(), prompt=self.template(c.choose, ["chooser"]),
            seat=self.expr(c.seat) if c.seat is not None else None,
            seats=self.expr(c.seats) if c.seats is not None else None,
            kinds=[], after=after, none=Label() if c.if_none else None,
            secret=c.secret or c.seats is not None, loc=c.loc, on_record=c.on_record)
        ids = set()
        for o in c.options:
            if o.id in ids:
                self.error(f"two options are called '{o.id}'", o.loc)
            ids.add(o.id)
            temps = ["chooser"]
            sources = []
            source_weights = []
            outer = self.pending_weight  # the decision's own (prompt, seats): per ask
            for name, e in o.for_.items():
                self.pending_weight = 0
                sources.append(self.option_value(self.expr(e, temps), f"for: {name}", e,
                                                 temps))
                source_weights.append(self.pending_weight)
                temps.append(name)
            self.pending_weight = 0
            lets = []
            for name, e in o.let.items():
                lets.append((name, self.option_value(self.expr(e, temps), f"let {name}", e,
                                                     temps)))
                temps.append(name)
            where = self.expr(o.where, temps) if o.where is not None else None
            kind = OptionKind(
                id=o.id, names=list(o.for_), sources=sources, lets=lets, where=where,
                notation=self.template(o.notation, temps, track_pieces=True),
                label=self.template(o.label or o.notation, temps, track_pieces=True), entry=Label(),
                said=self.template(o.said, temps, track_pieces=True) if o.said else None,
                loc=o.loc, weight=LOOP_STEPS + self.pending_weight,
                source_weights=source_weights, group=self.option_group(o, temps))
            self.pending_weight = outer
            self.generate_listing(kind, o)
            spec.kinds.append(kind)
        self.choices[spec.pc] = spec
        if spec.simultaneous:
            spec.slot = self.hidden_local("picked")
        self.emit(lambda m: m.ask(spec), inline=lambda pc: inlines.ask(
            pc, spec, spec.none.pc if spec.none is not None else spec.after.pc))
        back = after
        if spec.simultaneous:
            spec.resolve_pc = self.emit(lambda m: m.resolve_simultaneous(spec))
            back = Label()
            back.pc = spec.resolve_pc
        for kind, o in zip(spec.kinds, c.options, strict=True):
            self.mark(kind.entry)
            self.block(o.do)
            self.emit_jump(back)
        if spec.none is not None:
            self.mark(spec.none)
            self.block(c.if_none)
        self.mark(after)




def collect_effects(blocks: Iterable[Iterable[Primitive]]) -> list[Primitive]:
    """Every effect of some blocks and of the blocks nested in them, in order."""
    out: list[Primitive] = []

    def walk(block: Iterable[Primitive]) -> None:
        for effect in block:
            out.append(effect)
            for child in effect.children():
                walk(child)
    for block in blocks:
        walk(block)
    return out


def collect_locals(effects: Iterable[Primitive]) -> set[str]:
    """Every local name a stretch of flow binds (let, for_each, option names)."""
    names: set[str] = set()
    stack = list(effects)
    while stack:
        e = stack.pop()
        names |= e.local_names()
        for child in e.children():
            stack.extend(child)
    return names
