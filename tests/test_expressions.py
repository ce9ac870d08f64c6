"""The expression language: what it computes, and what it refuses to compile."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from interpreter.assemble import game as game_module
from interpreter.assemble.game import _Compiler, compile_game
from interpreter.compile.expressions import ExpressionError, compile_expression
from interpreter.errors import RuleError, RulesetError
from interpreter.load.loader import load_ruleset, load_ruleset_text

RULESETS = Path(__file__).resolve().parent / "rulesets"
PATH = RULESETS / "expressions.yaml"


@pytest.fixture(scope="module")
def world() -> tuple[Any, Any]:
    """A compiled ruleset and its compiler (whose scope resolves the ruleset's names)."""
    compiler = _Compiler(load_ruleset(PATH), {})
    game = compiler.run({})
    return game, compiler


def compile_in(world: tuple[Any, Any], text: str, allow_random: bool = False,
               temps: tuple[str, ...] = ()) -> Any:
    _, compiler = world
    scope = dataclasses.replace(compiler.scope(temps), allow_random=allow_random)
    return compile_expression(text, scope)


def ev(world: tuple[Any, Any], text: str, seed: int = 0, allow_random: bool = False) -> Any:
    game, _ = world
    fn = compile_in(world, text, allow_random)
    state = game.new_state(2, seed)
    env = game.env(state)
    value = fn(env)
    assert env.temps == {} or set(env.temps) <= {"chooser"}, env.temps  # temps restored
    return value


# -- values ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 // 2", 3),
    ("-7 // 2", -4),
    ("7 % 3", 1),
    ("7 / 2", 3.5),
    ("-(3 - 5)", 2),
    ("'ab' + 'cd'", "abcd"),
    ("[1, 2] + [3]", [1, 2, 3]),
    ("[1, 2, 3][1]", 2),
    ("[1] * 3", [1, 1, 1]),
    ("1 < 2 < 3", True),
    ("1 < 3 < 2", False),
    ("3 > 2 >= 2 == 2 != 1", True),
    ("2 in [1, 2]", True),
    ("2 not in [1, 2]", False),
    ("true and false", False),
    ("true and 3", 3),
    ("false or 0 or 'x'", "x"),
    ("not null", True),
    ("1 if 2 > 1 else 0", 1),
    ("1 if 2 < 1 else 0", 0),
    ("[x * x for x in range(5)]", [0, 1, 4, 9, 16]),
    ("[x for x in range(10) if x % 3 == 0 if x > 0]", [3, 6, 9]),
    ("[(x, y) for x in [1, 2] for y in [x, 3] if x != y]", [[1, 3], [2, 3]]),
    ("[x + y for x in [10, 20] if x > 10 for y in [1, 2]]", [21, 22]),
    ("[a + b for a, b in [[1, 2], [3, 4]]]", [3, 7]),
    ("sum([x for x in range(4)])", 6),
    ("min([3, 1, 2])", 1),
    ("max(3, 1, 2)", 3),
    ("count([1, 2, 3])", 3),
    ("sorted([3, 1, 2])", [1, 2, 3]),
    ("first([])", None),
    ("without([1, 2, 3, 2], 2)", [1, 3]),
    ("any(x > 2 for x in [1, 2, 3])", True),
    ("all(x > 0 for x in [1, 2, 3])", True),
    ("all(x > 1 for x in [1, 2, 3])", False),
    ("any(x == y for x in [1, 2] for y in [2, 3])", True),
    ("any([])", False),
    ("all([])", True),
    ("counter", 5),
    ("twice_counter", 10),
    ("count(pieces(pile))", 6),
    ("count(bigs)", 2),
    ("inc(41)", 42),
    ("double(21)", 42),
    ("evens([1, 2, 3, 4])", [2, 4]),
    ("shadow(3)", [0, 2, 4, 3]),
    ("[both(p) for p in [1, 2]]", [[10, 20, 1], [10, 20, 2]]),
    ("[x for x in [1, 2]] + [inc(x) for x in [5]]", [1, 2, 6]),
])
def test_values(world: tuple[Any, Any], text: str, expected: Any) -> None:
    assert ev(world, text) == expected


def test_attribute_access_and_null_propagation(world: tuple[Any, Any]) -> None:
    assert ev(world, "top(pile).size") in (1, 2, 3)
    assert ev(world, "[p.colour for p in pieces(pile)]").count("red") == 3
    assert ev(world, "top(empty_pile)") is None
    assert ev(world, "top(empty_pile).size") is None
    assert ev(world, "top(empty_pile).size == 3") is False
    assert ev(world, "first([]).colour") is None
    assert ev(world, "null.colour") is None


@pytest.mark.parametrize("text", [
    "1 // 0", "5 % 0", "1 / 0", "'a' + 1", "-'a'", "1 < 'a'", "[1][5]", "sum(3)",
    "[x for x in 5]", "(counter + 100).colour", "(counter - 10).size", "true.colour",
    "place_name(top(pile)).size",
])
def test_runtime_errors_are_rule_errors(world: tuple[Any, Any], text: str) -> None:
    with pytest.raises(RuleError):
        ev(world, text)


@pytest.mark.parametrize(("text", "expected"), [
    ("groups([1, 2, 3, 4, 5], [[1, 2], [4, 5]])", [[1, 2], [3], [4, 5]]),
    ("groups([1, 2, 3, 4], [[4, 1], [2, 3], [3, 4]])", [[1, 2, 3, 4]]),
    ("groups([3, 1, 2], [[2, 3]])", [[3, 2], [1]]),
    ("groups([1, 1, 2], [[1, 1]])", [[1], [2]]),
    ("groups([], [])", []),
    ("groups(['a', 'b', 'c'], [('c', 'a')])", [["a", "c"], ["b"]]),
    ("groups([[0, 0], [0, 1], [5, 5]], [[[0, 1], [0, 0]]])", [[[0, 0], [0, 1]], [[5, 5]]]),
    ("max([count(g) for g in groups(range(6), [[0, 1], [2, 3], [3, 4]])])", 3),
])
def test_groups_are_the_items_joined_by_chains_of_links(world: tuple[Any, Any], text: str,
                                                        expected: Any) -> None:
    """Each group keeps the items' order and the groups come by their first items, so a
    ruleset may rely on the order; an item no link touches is a group of its own."""
    assert ev(world, text) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("groups([1, 2], [[1, 3]])", "link to the number 3, which is not one of its items"),
    ("groups([1, 2], [[1]])", "links that are pairs"),
    ("groups([1, 2], [1, 2])", "links that are pairs"),
    ("groups(3, [])", "needs a list"),
    ("groups([1], 2)", "needs a list"),
])
def test_groups_refuses_what_is_not_items_and_pairs_of_them(world: tuple[Any, Any], text: str,
                                                            message: str) -> None:
    with pytest.raises(RuleError, match=message):
        ev(world, text)


def test_short_circuits(world: tuple[Any, Any]) -> None:
    # Nothing after the deciding operand is evaluated (1 // 0 would raise).
    assert ev(world, "false and 1 // 0 == 1") is False
    assert ev(world, "true or 1 // 0 == 1") is True
    assert ev(world, "3 < 2 < 1 // 0") is False
    assert ev(world, "1 if true else 1 // 0") == 1
    assert ev(world, "any(1 // x > 0 for x in [1, 0])") is True
    assert ev(world, "all(1 // x > 5 for x in [1, 0])") is False
    assert ev(world, "any(1 // (x - y) > 0 for x in [2] for y in [1, 2])") is True
    with pytest.raises(RuleError, match="division by zero"):
        ev(world, "any(1 // x > 5 for x in [1, 0])")


def test_comprehension_restores_temps(world: tuple[Any, Any]) -> None:
    game, _ = world
    fn = compile_in(world, "[x for x in [1, 2]] + [x]", temps=("x",))
    env = game.env(game.new_state(2, 0))
    env.temps["x"] = "outer"
    assert fn(env) == [1, 2, "outer"]
    assert env.temps == {"x": "outer"}
    nested = compile_in(world, "[x + y for x in [1] for y in [2]] + [x]", temps=("x",))
    assert nested(env) == [3, "outer"]
    assert env.temps == {"x": "outer"}
    quant = compile_in(world, "any(x == 2 for x in [1, 2]) and x == 'outer'", temps=("x",))
    assert quant(env) is True
    assert env.temps == {"x": "outer"}


# -- definitions ----------------------------------------------------------------------------

def test_definitions_inlined_and_called(world: tuple[Any, Any],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    inlined: list[str] = []
    original = game_module._Compiler.inline_definition

    def spy(self: Any, name: str, bound: dict) -> Any:
        inlined.append(name)
        return original(self, name, bound)
    monkeypatch.setattr(game_module._Compiler, "inline_definition", spy)
    compile_in(world, "inc(counter)")
    compile_in(world, "double(counter + 1)")
    compile_in(world, "evens([1, 2])")
    assert inlined == ["inc"]
    compile_in(world, "double(counter)")  # a plain name may be inlined even if used twice
    assert inlined == ["inc", "double"]


def test_a_called_definition_evaluates_its_argument_once(world: tuple[Any, Any]) -> None:
    # double(x) is x + x: with a die roll as argument, the result must be even
    # (inlining the roll twice would give odd totals).
    results = {ev(world, "double(roll(6))", seed=s, allow_random=True) for s in range(40)}
    assert results <= {2, 4, 6, 8, 10, 12}
    assert len(results) > 2
    incs = {ev(world, "inc(roll(6))", seed=s, allow_random=True) for s in range(40)}
    assert incs <= set(range(2, 8)) and len(incs) > 2


def _variant(extra_define: str) -> str:
    text = PATH.read_text(encoding="utf-8")
    return text.replace("define:\n", "define:\n" + extra_define, 1)


@pytest.mark.parametrize("define", [
    "  loop(x): loop(x) + 1\n",
    "  ping: pong + 1\n  pong: ping + 1\n",
    "  me: me\n",
    "  deep(x): inc(deep(x))\n",
])
def test_recursive_definitions_are_errors(define: str) -> None:
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(_variant(define), "recursive.yaml"))
    d = info.value.diagnostics[0]
    assert "refers to itself" in d.message
    assert d.location is not None and d.location.path == "recursive.yaml"
    assert d.source_line is not None and d.source_line.strip() in define


def test_wrong_number_of_arguments_to_a_definition(world: tuple[Any, Any]) -> None:
    with pytest.raises(ExpressionError, match=r"takes 1 argument"):
        compile_in(world, "inc(1, 2)")
    with pytest.raises(ExpressionError, match=r"takes 1 argument"):
        compile_in(world, "count(1, 2)")


def test_a_definition_named_without_call(world: tuple[Any, Any]) -> None:
    with pytest.raises(ExpressionError, match=r"is a function"):
        compile_in(world, "inc + 1")


# -- safety ---------------------------------------------------------------------------------

UNSAFE = [
    "__import__('os')",
    "__import__('os').system('touch /tmp/tabletop-pwned')",
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "counter.__class__",
    "lambda: 1",
    "(lambda: 1)()",
    "counter ** 9999999",
    "2 ** 10",
    "f'{counter}'",
    "{1: 2}",
    "{1, 2}",
    "{x for x in [1]}",
    "{x: 1 for x in [1]}",
    "[*pieces(pile)]",
    "(y := 1)",
    "counter @ counter",
    "~counter",
    "counter is null",
    "max([1], key=1)",
    "[].append(1)",
    "[1, 2][0:1]",
    "open('/etc/passwd')",
    "eval('1')",
    "getattr(counter, 'x')",
    "__builtins__",
    "globals()",
    "'text'.colour",
    "(1).size",
    "[1, 2].size",
    "(counter > 1).colour",
    "b'bytes'",
    "1j",
    "...",
    "await counter",
]


@pytest.mark.parametrize("text", UNSAFE)
def test_unsafe_or_foreign_expressions_do_not_compile(world: tuple[Any, Any], text: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_in(world, text, allow_random=True)
    assert info.value.message
    assert not Path("/tmp/tabletop-pwned").exists()


@pytest.mark.parametrize("text", ["().__class__", "__import__('os')", "counter ** 99"])
def test_unsafe_expression_in_a_ruleset_is_a_located_diagnostic(text: str) -> None:
    source = _variant(f'  evil: "{text}"\n')
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(source, "evil.yaml"))
    (d,) = info.value.diagnostics
    line = source.splitlines().index(f'  evil: "{text}"') + 1
    assert d.location is not None and d.location.line == line
    assert d.render().startswith(f"evil.yaml:{line}:")


@pytest.mark.parametrize("text", [
    "[1] * 1000000000",
    "1000000000 * [1]",
    "'ab' * 1000000000",
    "[1] * (1000 * 1000 * 1000)",
    "range(1000000000)",
    "repeat(0, 1000000000)",
    "[0] * 100000 + [0] * 100000",
    "[x for x in range(100000) for y in range(100000)]",
])
def test_huge_sequences_are_refused(world: tuple[Any, Any], text: str) -> None:
    with pytest.raises(RuleError):
        ev(world, text)


def test_the_size_limit_allows_large_but_sane_lists(world: tuple[Any, Any]) -> None:
    assert len(ev(world, "[0] * 100000")) == 100_000
    assert len(ev(world, "[x for x in range(300) for y in range(300)]")) == 90_000


def test_pow_is_not_part_of_the_language(world: tuple[Any, Any]) -> None:
    with pytest.raises(ExpressionError, match=r"'\*\*' is not supported"):
        compile_in(world, "[1] * 10**9")


@pytest.mark.parametrize(("text", "word"), [
    ("class == 1", "class"), ("import", "import"), ("yield x", "yield"),
    ("def + 1", "def"), ("return", "return"),
])
def test_reserved_words(world: tuple[Any, Any], text: str, word: str) -> None:
    with pytest.raises(ExpressionError, match=f"'{word}' is a reserved word"):
        compile_in(world, text)


def test_syntax_error_has_a_column(world: tuple[Any, Any]) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_in(world, "counter + (1")
    assert "syntax error" in info.value.message


def test_unknown_names_suggest(world: tuple[Any, Any]) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_in(world, "countr + 1")
    assert info.value.message == "unknown name 'countr'"
    assert info.value.hint is not None and "'counter'" in info.value.hint
    assert info.value.offset == 0
    with pytest.raises(ExpressionError) as info:
        compile_in(world, "1 + sizee(pile)")
    assert info.value.message == "unknown function 'sizee'"
    assert info.value.offset == 4
    with pytest.raises(ExpressionError) as info:
        compile_in(world, "top(pile).colr")
    assert info.value.hint is not None and "'colour'" in info.value.hint


# -- randomness -----------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["roll(6)", "shuffled([1, 2])", "random_int(1, 3)"])
def test_random_functions_only_where_allowed(world: tuple[Any, Any], text: str) -> None:
    with pytest.raises(ExpressionError, match="draws at random"):
        compile_in(world, text)
    compile_in(world, text, allow_random=True)


def _turn_variant(effect: str) -> str:
    text = PATH.read_text(encoding="utf-8")
    return text.replace("turn:\n", "turn:\n" + effect, 1)


@pytest.mark.parametrize(("effect", "ok"), [
    ("  - let: {r: roll(6)}\n", True),
    ("  - let: {order: 'shuffled([1, 2, 3])'}\n", True),
    ("  - set: counter\n    value: roll(6)\n", True),
    ("  - if: roll(6) > 3\n    then: []\n", False),
    ("  - while: roll(6) > 3\n    do: []\n", False),
    ("  - choose: x\n    options:\n      - id: a\n        notation: a\n"
     "        where: roll(2) == 1\n", False),
    ("  - choose: x\n    options:\n      - id: a\n        for: {n: 'shuffled([1, 2])'}\n"
     "        notation: a{n}\n", False),
])
def test_random_in_effects_but_not_in_conditions(effect: str, ok: bool) -> None:
    loaded = load_ruleset_text(_turn_variant(effect), "random.yaml")
    if ok:
        compile_game(loaded)
        return
    with pytest.raises(RulesetError) as info:
        compile_game(loaded)
    (d,) = info.value.diagnostics
    assert "draws at random" in d.message
    assert d.location is not None
    assert d.source_line is not None and d.source_line.strip() in effect


def test_random_values_come_from_the_state(world: tuple[Any, Any]) -> None:
    game, _ = world
    fn = compile_in(world, "[roll(6) for i in range(20)]", allow_random=True)
    a, b, c = game.new_state(2, 1), game.new_state(2, 1), game.new_state(2, 2)
    ra, rb, rc = fn(game.env(a)), fn(game.env(b)), fn(game.env(c))
    assert ra == rb and ra != rc
    assert a.rng == b.rng != game.new_state(2, 1).rng  # the draw advanced the generator
