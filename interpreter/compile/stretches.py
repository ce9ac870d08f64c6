"""Straight-line stretches of the program, each generated as one Python function.

The machine runs a program one instruction at a time: for each, it checks for queued
triggers and the end of the game, charges the instruction's steps, calls it and reads
where it goes next. Most instructions always go on to a position known when the
program is built (the next one, a jump's target), so a stretch of them can run as one
generated function that does the same checks and charges between its parts, calls each
effect in turn, follows jumps without calling anything, and tests conditions of `if`,
`while` and `repeat` in place. A stretch hands back to the machine, returning the
position to go on from, whenever something else must happen (a trigger queued, the game
over, a decision, a procedure call, a branch not taken): only `choose` needs the
program counter that a saved game keeps.

Every original instruction stays in the program: a stretch replaces only the one at its
first position, so a jump into the middle of a stretch runs the instructions one by one
as before. As in ``codegen``, only generated names and numbers reach the generated
source; the instructions and conditions are objects in its namespace.

An instruction may also bring its own source (an `Inline`): the machine's everyday work
(beginning and ending a turn, asking for a decision, moving a piece) is then written
into the stretch rather than called, with the same checks, charges and errors; it
hands anything unusual to the instruction itself or to the machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.compile.codegen import GeneratedCode, compile_source
from interpreter.run.budget import overspent
from interpreter.run.tables import Label

Instruction = Callable[[Any], int]

MAX_PARTS = 64
"""Instructions at most in one stretch (a long turn is split into several)."""


@dataclass(frozen=True)
class Flow:
    """Where an instruction goes when it is done, as far as the builder knows.

    `how`: "falls" (always to the next position), "usually" (to `target`, unless it
    returns something else), "goto" (a jump: nothing but `target`), "unless" (to the
    next position when `cond` holds, else to `target`)."""

    how: str
    target: Label | int | None = None
    cond: Callable[[Any], Any] | None = None

    def successor(self, pc: int) -> int:
        if self.how in ("falls", "unless"):
            return pc + 1
        target = self.target
        return target.pc if isinstance(target, Label) else target  # type: ignore[return-value]


FALLS = Flow("falls")


@dataclass(frozen=True)
class Inline:
    """An instruction's own source for a stretch.

    `lines` run where the instruction would be called, with `m` (the machine), `env`
    and `st` (its state) in scope, and end by going on to the instruction's usual
    successor; they may instead `return` a position (having left the frame at their
    own position when they pause). An instruction with no known successor (`Flow`
    None) must always return. `names`: the objects the lines use, by generated names
    unique to the instruction (see `unique`)."""

    lines: tuple[str, ...]
    names: dict[str, Any]


def unique(pc: int, name: str) -> str:
    """A name of an Inline of the instruction at `pc`: unique in any stretch."""
    return f"{name}_{pc}"


def heads(program: list[Instruction], flows: list[Flow | None], marked: set[int]) -> list[int]:
    """Where stretches start: the program's start, every position something jumps to or
    returns to (labels, option entries, the position after a call or a decision)."""
    found = {0, *marked}
    for pc, flow in enumerate(flows):
        if flow is None or flow.how == "usually":
            found.add(pc + 1)
        if flow is not None and flow.target is not None:
            found.add(flow.successor(pc))
    return sorted(pc for pc in found if 0 <= pc < len(program))


def fuse(program: list[Instruction], weights: list[int], flows: list[Flow | None],
         marked: set[int], describe: Callable[[int], str],
         sink: list[GeneratedCode] | None = None,
         inlines: dict[int, Inline] | None = None) -> list[Instruction]:
    """The program with a generated stretch at each head that runs more than one
    instruction (or one that brings its source); `describe(pc)` says what an instruction
    carries out (for the source)."""
    fused = list(program)
    inlines = inlines or {}
    for head in heads(program, flows, marked):
        parts = _trace(head, flows, len(program))
        if len(parts) > 1 or head in inlines:
            fused[head] = _generate(head, parts, program, weights, flows, describe, sink,
                                    inlines)
    return fused


def _trace(head: int, flows: list[Flow | None], size: int) -> list[int]:
    parts, seen = [], set()
    pc = head
    while 0 <= pc < size and pc not in seen and len(parts) < MAX_PARTS:
        parts.append(pc)
        seen.add(pc)
        flow = flows[pc]
        if flow is None:
            break
        pc = flow.successor(pc)
    return parts


def _generate(head: int, parts: list[int], program: list[Instruction], weights: list[int],
              flows: list[Flow | None], describe: Callable[[int], str],
              sink: list[GeneratedCode] | None, inlines: dict[int, Inline]) -> Instruction:
    namespace: dict[str, Any] = {"overspent": overspent}
    legend: dict[str, str] = {}
    name = f"stretch{head}"
    lines = [f"def {name}(m):", "    env = m.env", "    st = m.state", f"    at = {head}",
             "    try:"]
    emit = lines.append
    last = parts[-1]
    for i, pc in enumerate(parts):
        emit(f"        # {pc}: {' '.join(describe(pc).splitlines())}")
        if i:  # the machine's own work between two instructions
            emit(f"        at = {pc}")
            emit(f"        if st.triggers or st.over: return {pc}")
            emit(f"        env.steps += {weights[pc]}")
            emit("        if env.steps > env.step_limit: overspent(env)")
        flow = flows[pc]
        inline = inlines.get(pc)
        if inline is not None:
            namespace.update(inline.names)
            legend.update({name: f"used by the instruction at {pc}" for name in inline.names})
            lines += [f"        {line}" for line in inline.lines]
            if flow is None:
                break
            if pc == last:
                emit(f"        return {flow.successor(pc)}")
            continue
        call = f"i{pc}"
        if flow is None or flow.how in ("falls", "usually"):
            namespace[call] = program[pc]
            legend[call] = f"the instruction at {pc}"
        if flow is None:  # a pause must leave the frame at the instruction that paused
            emit(f"        r = {call}(m)")
            emit(f"        if r == -1: st.frames[-1][0] = {pc}")
            emit("        return r")
            break
        nxt = flow.successor(pc)
        if flow.how == "falls":
            emit(f"        {call}(m)")
        elif flow.how == "usually":
            emit(f"        r = {call}(m)")
            emit(f"        if r != {nxt}:")
            emit(f"            if r == -1: st.frames[-1][0] = {pc}")
            emit("            return r")
        elif flow.how == "unless":
            cond = f"c{pc}"
            namespace[cond] = flow.cond
            legend[cond] = f"the condition at {pc}"
            target = flow.target.pc if isinstance(flow.target, Label) else flow.target
            emit(f"        if not {cond}(env): return {target}")
        if pc == last:
            emit(f"        return {nxt}")
    lines += ["    except BaseException:", "        m.fault = at", "        raise", ""]
    source = "\n".join(lines)
    namespace["__builtins__"] = {"BaseException": BaseException, "type": type, "int": int,
                                 "len": len}
    exec(compile_source(source, name), namespace)  # generated above: names and numbers only
    if sink is not None:
        sink.append(GeneratedCode(name, f"the stretch of the program from {head} to {last}",
                                  source, legend))
    return namespace[name]
