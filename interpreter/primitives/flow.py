"""Control flow and variables: let, set, add, if, while, repeat, for_each, call, retry."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field

from interpreter.errors import RuleError
from interpreter.located import Expr, Name
from interpreter.primitives.base import Primitive

if TYPE_CHECKING:
    from interpreter.compile.english import Describer
    from interpreter.compile.program import ProgramBuilder
    from interpreter.primitives import Block
    from interpreter.run.machine import Machine

SWITCH = -2  # the instruction changed frames itself


class Let(Primitive):
    """Give local names to values for the rest of the turn (or procedure)."""

    keyword: ClassVar[str] = "let"
    summary: ClassVar[str] = "Name values for later steps of the same turn or procedure."
    let: dict[str, Expr] = Field(description="name: expression, evaluated in order")

    def local_names(self) -> set[str]:
        return set(self.let)

    def compile(self, b: ProgramBuilder) -> None:
        from interpreter.run.budget import NOT_PLAIN, kept, overspent

        pairs = [(name, b.expr(e, allow_random=True)) for name, e in self.let.items()]
        nxt = b.after_this()
        limit = b.base_scope.limits.value_size

        def run(m: Machine) -> int:
            env = m.env
            for name, value in pairs:
                v = value(env)
                if type(v) is list:  # a local is saved with a paused game: not too large
                    if len(v) < limit and NOT_PLAIN.isdisjoint(map(type, v)):
                        env.steps += len(v)  # (numbers, pieces, places: as `kept` charges)
                        if env.steps > env.step_limit:
                            overspent(env)
                    else:
                        kept(env, v, limit, f"let {name}")
                env.locals[name] = v
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        if len(self.let) == 1:
            (k, v), = self.let.items()
            added = d.appended(k, v)
            if added is not None:
                return [f"Add {added} to the end of {d.name(k)}."]
        return ["Let " + ", ".join(f"*{k}* be {d.expr(v)}" for k, v in self.let.items()) + "."]


class Set(Primitive):
    """Set a game variable, a seat's variable (with `seat`) or a piece's (with `piece`)."""

    keyword: ClassVar[str] = "set"
    summary: ClassVar[str] = ("Set a declared variable (a seat's own with `seat`, a piece's "
                              "own with `piece`).")
    set: Name = Field(description="the variable's id")
    value: Expr
    seat: Expr | None = None
    piece: Expr | None = Field(default=None, description="whose value, for a per-piece "
                               "variable (which way up a card lies)")

    def compile(self, b: ProgramBuilder) -> None:
        var = b.variable(self.set, _whose(b, self.seat, self.piece))
        value = b.expr(self.value, allow_random=True)
        seat = b.expr(self.seat) if self.seat is not None else None
        piece = b.expr(self.piece) if self.piece is not None else None
        nxt = b.after_this()
        keep = _keeper(var, b.base_scope.limits.value_size)
        if piece is not None:
            def run(m: Machine) -> int:
                values = m.state.piece_vars[var]
                values[_piece_index(piece(m.env), values, var)] = keep(m.env, value(m.env))
                m.env.forget("vars")
                return nxt
        elif seat is None:
            def run(m: Machine) -> int:
                m.state.vars[var] = keep(m.env, value(m.env))
                m.env.forget("vars")
                return nxt
        else:
            def run(m: Machine) -> int:
                m.state.seat_vars[var][m.seat_index(seat(m.env))] = keep(m.env, value(m.env))
                m.env.forget("vars")
                return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        whose = self.seat if self.seat is not None else self.piece
        who = f" of {d.expr(whose)}" if whose is not None else ""
        added = d.appended(self.set.text, self.value) if whose is None else None
        if added is not None:
            return [f"Add {added} to the end of {d.var(self.set)}."]
        return [f"Set {d.var(self.set)}{who} to {d.expr(self.value)}."]


def _whose(b: ProgramBuilder, seat: Expr | None, piece: Expr | None) -> str:
    if seat is not None and piece is not None:
        b.error("give 'seat' or 'piece', not both", piece.loc)
    return "seat" if seat is not None else "piece" if piece is not None else "game"


def _piece_index(piece: Any, values: list, var: str) -> int:
    if type(piece) is not int or not 0 <= piece < len(values):
        from interpreter.run.budget import describe as kind_of
        raise RuleError(f"{kind_of(piece)} is not a piece (variable '{var}')")
    return piece


MAX_VALUE_NESTING = 32
"""Deepest list-in-list a variable may hold: variables are shown in views and saved as
JSON, and a value nested hundreds of levels down breaks every reader of it."""


def _keeper(var: str, limit: int) -> Callable[[Any, Any], Any]:
    """What `set` keeps: the value, unless it nests lists deeper than MAX_VALUE_NESTING
    or is larger than budgets.value_size (`limit`); the lists of each level are gone
    through once each, however often the value holds them."""
    from interpreter.run.budget import NOT_PLAIN, SEQUENCE_KINDS, kept, overspent

    def keep(env: Any, value: Any) -> Any:
        if type(value) is not list:
            return value
        if len(value) < limit and NOT_PLAIN.isdisjoint(map(type, value)):
            env.steps += len(value)  # (numbers, pieces, places: what `kept` charges)
            if env.steps > env.step_limit:
                overspent(env)
            return value
        kept(env, value, limit, f"set {var}")
        if SEQUENCE_KINDS.isdisjoint(map(type, value)):
            return value
        level = [value]
        for _ in range(MAX_VALUE_NESTING):
            inner = {id(x): x for items in level for x in items if type(x) is list}
            if not inner:
                return value
            level = list(inner.values())
        raise RuleError(f"set {var}: the value nests lists more than {MAX_VALUE_NESTING} "
                        "levels deep (tabletop's limit)")
    return keep


class Add(Primitive):
    """Add to a numeric variable (negative amounts take away)."""

    keyword: ClassVar[str] = "add"
    summary: ClassVar[str] = "Add an amount to a numeric variable (a seat's own with `seat`)."
    add: Name
    amount: Expr
    seat: Expr | None = None
    piece: Expr | None = Field(default=None, description="whose value, for a per-piece "
                               "variable")
    from_: Name | None = Field(
        default=None, alias="from", description="a game variable the amount is taken from "
        "(a bank, a pot): it loses what the other gains, so nothing is created or lost")

    def compile(self, b: ProgramBuilder) -> None:
        from interpreter.run.budget import describe as kind_of
        from interpreter.run.budget import too_large

        var = b.variable(self.add, _whose(b, self.seat, self.piece))
        source = None
        if self.from_ is not None:
            whose = b.variables.get(self.from_.text, "game")
            if whose != "game":
                b.error(f"'from' takes a game variable (a bank, a pot), and "
                        f"'{self.from_.text}' is per {whose}", self.from_.loc)
            else:
                source = b.variable(self.from_, "game")
        amount = b.expr(self.amount, allow_random=True)
        seat = b.expr(self.seat) if self.seat is not None else None
        piece = b.expr(self.piece) if self.piece is not None else None
        nxt = b.after_this()

        def changed(m: Machine, values: dict | list, key: Any, name: str, n: int) -> None:
            old = values[key]
            if not isinstance(old, int) or isinstance(old, bool):
                raise RuleError(f"add {var}: '{name}' holds {kind_of(old)}, not a number")
            total = old + n
            big = m.game.budgets.largest_number
            if not -big <= total <= big:
                too_large(total, big)
            values[key] = total

        def run(m: Machine) -> int:
            n = amount(m.env)
            if not isinstance(n, int) or isinstance(n, bool):
                raise RuleError(f"add {var}: the amount must be a whole number, "
                                f"got {kind_of(n)}")
            if piece is not None:
                values = m.state.piece_vars[var]
                key: Any = _piece_index(piece(m.env), values, var)
            elif seat is None:
                values, key = m.state.vars, var
            else:
                values, key = m.state.seat_vars[var], m.seat_index(seat(m.env))
            changed(m, values, key, var, n)
            if source is not None:
                changed(m, m.state.vars, source, source, -n)
            m.env.forget("vars")
            return nxt
        b.emit(run, falls=True)

    def english(self, d: Describer) -> list[str]:
        whose = self.seat if self.seat is not None else self.piece
        who = f" of {d.expr(whose)}" if whose is not None else ""
        taken = f", taking it from {d.var(self.from_)}" if self.from_ is not None else ""
        return [f"Add {d.expr(self.amount)} to {d.var(self.add)}{who}{taken}."]


class If(Primitive):
    """Do one block or another depending on a condition."""

    keyword: ClassVar[str] = "if"
    summary: ClassVar[str] = "Do `then` when the condition holds, else `else`."
    if_: Expr = Field(alias="if")
    then: Block
    else_: Block = Field(default_factory=list, alias="else")

    def children(self) -> list[list[Primitive]]:
        return [self.then, self.else_]

    def compile(self, b: ProgramBuilder) -> None:
        cond = b.expr(self.if_)
        otherwise, end = b.label(), b.label()
        b.emit_jump_unless(cond, otherwise)
        b.block(self.then)
        if self.else_:
            b.emit_jump(end)
        b.mark(otherwise)
        b.block(self.else_)
        b.mark(end)

    def english(self, d: Describer) -> list[str]:
        out = [f"If {d.cond(self.if_)}:", *d.block(self.then)]
        if self.else_:
            out += ["Otherwise:", *d.block(self.else_)]
        return out


class While(Primitive):
    """Repeat a block as long as a condition holds (checked before each round)."""

    keyword: ClassVar[str] = "while"
    summary: ClassVar[str] = "Repeat `do` while the condition holds."
    while_: Expr = Field(alias="while")
    do: Block

    def children(self) -> list[list[Primitive]]:
        return [self.do]

    def compile(self, b: ProgramBuilder) -> None:
        top, end = b.label(), b.label()
        b.mark(top)
        b.emit_jump_unless(b.expr(self.while_), end)
        b.block(self.do)
        b.emit_jump(top)
        b.mark(end)

    def english(self, d: Describer) -> list[str]:
        return [f"As long as {d.cond(self.while_)}:", *d.block(self.do)]


class Repeat(Primitive):
    """Do a block, then again until a condition holds (checked after each round)."""

    keyword: ClassVar[str] = "repeat"
    summary: ClassVar[str] = "Do the block, and again until the condition holds."
    repeat: Block
    until: Expr

    def children(self) -> list[list[Primitive]]:
        return [self.repeat]

    def compile(self, b: ProgramBuilder) -> None:
        top = b.label()
        b.mark(top)
        b.block(self.repeat)
        b.emit_jump_unless(b.expr(self.until), top)

    def english(self, d: Describer) -> list[str]:
        return ["Repeat:", *d.block(self.repeat), f"until {d.cond(self.until)}."]


class ForEach(Primitive):
    """Do a block once for each item of a list, naming the item."""

    keyword: ClassVar[str] = "for_each"
    summary: ClassVar[str] = "Do `do` once for each item of `in`, naming it."
    for_each: str = Field(description="the name each item gets")
    in_: Expr = Field(alias="in")
    do: Block

    def local_names(self) -> set[str]:
        return {self.for_each}

    def children(self) -> list[list[Primitive]]:
        return [self.do]

    def compile(self, b: ProgramBuilder) -> None:
        from interpreter.run.budget import describe as kind_of
        from interpreter.run.budget import kept

        items = b.expr(self.in_, allow_random=True)
        list_slot, index_slot = b.hidden_local("items"), b.hidden_local("index")
        name = self.for_each
        top, end = b.label(), b.label()
        start_next = b.after_this()
        limit = b.base_scope.limits.value_size

        def start(m: Machine) -> int:
            value = items(m.env)
            if value is None:
                value = []
            if not isinstance(value, list | tuple | range):
                raise RuleError(f"for_each {name}: 'in' must give a list, "
                                f"got {kind_of(value)}")
            m.env.locals[list_slot] = kept(m.env, list(value), limit, f"for_each {name}")
            m.env.locals[index_slot] = 0
            return start_next
        b.emit(start, falls=True)
        b.mark(top)
        body = b.after_this()

        def step(m: Machine) -> int:
            loc = m.env.locals
            i = loc[index_slot]
            seq = loc[list_slot]
            if i >= len(seq):
                return end.pc
            loc[name] = seq[i]
            loc[index_slot] = i + 1
            return body
        b.emit(step, usually=body)
        b.block(self.do)
        b.emit_jump(top)
        b.mark(end)

    def english(self, d: Describer) -> list[str]:
        return [f"For each *{self.for_each}* in {d.expr(self.in_)}:", *d.block(self.do)]


class Call(Primitive):
    """Run a named procedure, giving values to its parameters."""

    keyword: ClassVar[str] = "call"
    summary: ClassVar[str] = "Run a procedure declared under `procedures`."
    call: Name
    with_: dict[str, Expr] = Field(default_factory=dict, alias="with")

    def compile(self, b: ProgramBuilder) -> None:
        entry, params = b.procedure(self.call)
        known = self.call.text in b.procedures
        args: list[tuple[str, Any]] = []
        for key, e in self.with_.items():
            if key not in params:
                if not known:
                    continue  # the unknown procedure is already reported
                b.error(f"procedure '{self.call}' has no parameter '{key}'", e.loc,
                        hint=b.hint(key, params))
                continue
            args.append((key, b.expr(e, allow_random=True)))
        missing = [p for p in params if p not in self.with_]
        if missing:
            b.error(f"call {self.call}: missing value for {', '.join(missing)}", self.call.loc)
        ret = b.after_this()

        def run(m: Machine) -> int:
            env = m.env
            new_locals = {k: v(env) for k, v in args}
            m.push_frame(entry.pc, new_locals, return_pc=ret)
            return SWITCH
        b.emit(run)

    def english(self, d: Describer) -> list[str]:
        from interpreter.compile.english import join_words

        args = join_words([d.name(k) if v.text.strip() == k else f"{d.name(k)} being {d.expr(v)}"
                           for k, v in self.with_.items()])
        return [f"Do *{d.proc(self.call)}*" + (f", with {args}" if args else "") + "."]


class Retry(Primitive):
    """Do a block again from the same position until a condition holds.

    Used for random set-ups under a constraint: the block's changes are undone before
    each new try, but the random numbers drawn are not, so each try differs.
    """

    keyword: ClassVar[str] = "retry"
    summary: ClassVar[str] = "Redo the block from the same position until the condition holds."
    retry: Block
    until: Expr
    max_tries: int = Field(default=100_000, ge=1)

    def children(self) -> list[list[Primitive]]:
        return [self.retry]

    def compile(self, b: ProgramBuilder) -> None:
        b.forbid_decisions(self.retry, "retry")
        cond = b.expr(self.until)
        body = b.label()
        begin_pc = b.next_pc()
        limit = self.max_tries
        until_text = self.until.text

        def begin(m: Machine) -> int:
            m.retry_snapshots[begin_pc] = (m.snapshot(), 1)
            return body.pc
        b.emit(begin, usually=body)
        b.mark(body)
        b.block(self.retry)
        after = b.after_this()

        def check(m: Machine) -> int:
            if cond(m.env):
                m.retry_snapshots.pop(begin_pc, None)
                return after
            snap, tries = m.retry_snapshots[begin_pc]
            if tries >= limit:
                raise RuleError(f"retry: '{until_text}' still did not hold after {limit} tries")
            m.restore(snap)
            m.retry_snapshots[begin_pc] = (snap, tries + 1)
            return body.pc
        b.emit(check, usually=after)

    def english(self, d: Describer) -> list[str]:
        return [*d.block(self.retry), f"Start again if {d.cond(self.until, negate=True)}."]

