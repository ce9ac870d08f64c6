"""The deal of `arrange` as one generated function, with its condition written inline.

A constrained random set-up deals values to places one at a time and checks the
condition at each place, starting again at the first failure: tens of thousands of
checks for one board of a few dozen places. Calling a compiled condition for each costs more than
the check itself, so the whole deal is generated here, the condition's code (from
``codegen``'s writer, its names `value`, `place`, `assigned` Python locals) in the
loop's body. As everywhere in generated code, a check the fast path cannot decide is
handed to the condition's careful closures, with the steps it charged given back. Without
a condition, or with code generation off, the condition is called instead.

The deal draws exactly as ``rng.below`` would, so every seed deals the same layout
whichever way the deal runs. With outcomes given from outside (``rng.Scripted``: the
OpenSpiel adapter's chance nodes), `drawn_deal` deals instead: a deal without a
condition draws each place's value as one outcome; a deal under a condition, which may
deal again thousands of times, draws one 64-bit generator state (a few outcomes) and
deals from it as above.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from interpreter.compile import expressions as ex
from interpreter.compile.codegen import (
    _BUILTINS,
    FAST_FAILURES,
    OUTSIDE_LOOP,
    GeneratedCode,
    _Writer,
    compile_source,
    forget,
)
from interpreter.run import rng as rngmod
from interpreter.run.budget import overspent

Deal = Callable[..., tuple[int, bool]]
"""deal(env, steps, deck, assigned, places, r, tries, per_place) → (rng state, dealt):
`steps` gives (index, place, values left, the bound a draw must be under) for each
place; `tries` is a one-item list [tries so far, the most allowed], counted as it goes
(so that a budget error can say how many were made)."""

_LOOP_HEAD = """\
    while tries[0] < tries[1]:
        tries[0] += 1
        for i, a1, left, bound in steps:
            env.steps += per_place
            if env.steps > step_limit: overspent(env)
            r = (r + {golden}) & {mask}
            z = ((r ^ (r >> 30)) * 0xBF58476D1CE4E5B9) & {mask}
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & {mask}
            z ^= z >> 31
            if z >= bound:
                r, j = below(r, left)
                j += i
            else:
                j = i + z % left
            a0 = deck[j]
            deck[j] = deck[i]
            deck[i] = a0"""

_LOOP_TAIL = """\
            if not ok:
                for dealt in places[:i]:
                    a2[dealt] = None
                break
            a2[a1] = a0
        else:
            return r, True
    return r, False
"""


def generate_deal(where: ast.expr | None, scope: ex.Scope | None,
                  careful: Callable[..., Any] | None,
                  sink: list[GeneratedCode] | None) -> Deal:
    """The deal; `where` (the checked condition's tree, with `scope` to generate it in)
    inline when given, else `careful(env, value, place, assigned)` is called (None: no
    condition)."""
    namespace: dict[str, Any] = {"overspent": overspent, "below": rngmod.below,
                                 "slow": careful, "forget": forget,
                                 "FAST_FAILURES": FAST_FAILURES}
    head = ["def deal(env, steps, deck, a2, places, r, tries, per_place):",
            "    step_limit = env.step_limit"]
    body: list[str] = []
    legend: dict[str, str] = {}
    if where is not None and scope is not None and scope.code is not None:
        w = _Writer(scope, scope.code)
        w.names = {"value": "a0", "place": "a1", "assigned": "a2"}
        w.loop_vars = dict.fromkeys(("a0", "a1", "a2"), OUTSIDE_LOOP)  # (change each step)
        w.lists.add("a2")  # what has been dealt where: a list, one item per place
        w.places.add("a1")  # (arrange checks every place before the deal)
        w.indent = 4
        result = w.value(where)
        if not w.random:  # a condition cannot draw (compiled without chance)
            head += [f"    {var} = {code}" for var, code in w.prologue.items()]
            namespace.update(w.namespace)
            legend = w.legend
            body = ["            s1 = env.steps"]
            restore = ["                env.steps = s1"]
            if w.caches:
                body.append("            n1 = len(env.cache)")
                restore.append("                forget(env.cache, n1)")
            body += ["            try:", *w.lines, f"                ok = {result}",
                     "            except FAST_FAILURES:", *restore,
                     "                ok = slow(env, a0, a1, a2)"]
    if not body:
        body = ["            ok = True" if careful is None else
                "            ok = slow(env, a0, a1, a2)"]
    loop = _LOOP_HEAD.format(golden=rngmod.GOLDEN, mask=rngmod.MASK)
    source = "\n".join([*head, loop, *body, _LOOP_TAIL])
    namespace["__builtins__"] = _BUILTINS
    exec(compile_source(source, "deal"), namespace)  # generated: names and numbers only
    if sink is not None:
        sink.append(GeneratedCode("deal", "the deal of arrange, its condition inline",
                                  source, legend))
    return namespace["deal"]



def drawn_deal(deal: Deal, conditional: bool, env: Any, steps: list, deck: list,
               assigned: list, places: list, r: Any, tries: list[int],
               per_place: int) -> tuple[Any, bool]:
    """The deal when the state's generator is not an integer (``rng.Scripted``): each
    value drawn as one outcome, or, under a condition (`conditional`), the whole deal
    from one drawn 64-bit generator state; (the generator after the draws, dealt)."""
    if conditional:
        r, state = rngmod.below(r, 1 << 64)
        return r, deal(env, steps, deck, assigned, places, state, tries, per_place)[1]
    tries[0] += 1  # (without a condition the first try deals every place)
    step_limit = env.step_limit
    for i, place, left, _ in steps:
        env.steps += per_place
        if env.steps > step_limit:
            overspent(env)
        r, j = rngmod.below(r, left)
        j += i
        deck[i], deck[j] = deck[j], deck[i]
        assigned[place] = deck[i]
    return r, True
