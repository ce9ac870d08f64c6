"""Loading rulesets: a valid one loads; every mistake is a located, explained diagnostic.

The bad rulesets live in tests/rulesets/bad/; in each, the offending line carries the
comment ``<-- error`` so the expected line number is read from the file itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.api import load_game
from interpreter.assemble.game import compile_game
from interpreter.errors import Diagnostic, RulesetError, UsageError
from interpreter.load.loader import load_ruleset, load_ruleset_text

HERE = Path(__file__).resolve().parent
RULESETS = HERE / "rulesets"
BAD = RULESETS / "bad"
MARK = "<-- error"


def load_and_compile(path: Path | str):
    return compile_game(load_ruleset(path))


def error_of(path: Path) -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load_and_compile(path)
    return info.value


def marked_lines(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [i for i, line in enumerate(lines, start=1)
             if MARK in line and not line.lstrip().startswith("#")]
    assert found, f"{path.name} has no '{MARK}' marker"
    return found


def check_rendering(d: Diagnostic, path: Path, token: str | None = None) -> None:
    """`path:LINE:COL: error: message`, then the source line, then a caret under COL."""
    assert d.location is not None
    loc = d.location
    text = d.render()
    lines = text.splitlines()
    assert lines[0].startswith(f"{path}:{loc.line}:{loc.col}: error: "), text
    assert re.match(r"^.+:\d+:\d+: error: .+", lines[0])
    source_line = path.read_text(encoding="utf-8").splitlines()[loc.line - 1]
    assert d.source_line == source_line
    assert lines[1] == "    " + source_line.rstrip("\n")
    assert lines[2] == "    " + " " * (loc.col - 1) + "^"
    if token is not None:
        assert source_line[loc.col - 1:].startswith(token), (source_line, loc.col, token)


# -- the valid base -------------------------------------------------------------------------

def test_valid_ruleset_loads_and_compiles() -> None:
    loaded = load_ruleset(RULESETS / "minimal.yaml")
    model = loaded.model
    assert model.game.name == "minimal"
    assert [z.id for z in model.zones] == ["pile", "taken"]
    assert model.zones[1].per_seat is True
    assert loaded.path == str(RULESETS / "minimal.yaml")
    assert len(loaded.content_hash) == 64
    game = compile_game(loaded)
    assert game.n_pieces == 6                       # 2 colours × 3 sizes
    assert (game.min_seats, game.max_seats) == (2, 3)
    state = game.new_state(2, seed=1)
    assert [o.notation for o in game.legal_options(state, 1)] == ["take1", "take2"]


def test_loading_from_text_equals_loading_the_file() -> None:
    path = RULESETS / "minimal.yaml"
    a = load_ruleset(path)
    b = load_ruleset_text(path.read_text(encoding="utf-8"), str(path))
    assert a.model == b.model
    assert a.content_hash == b.content_hash


@pytest.mark.parametrize("name", ["minimal", "cards", "triggers", "flow", "budgets",
                                  "expressions"])
def test_engine_test_rulesets_are_valid(name: str) -> None:
    game = load_and_compile(RULESETS / f"{name}.yaml")
    assert game.name == name


def test_load_game_accepts_a_path() -> None:
    game = load_game(RULESETS / "minimal.yaml")
    assert game.name == "minimal"


# -- located mistakes -----------------------------------------------------------------------

CASES = [
    # file, message, hint (did-you-mean), token the column must point at
    ("unknown_key", "unknown key 'tunr'", "did you mean 'turn'", "tunr"),
    ("unknown_effect_key", "unknown key 'too'", "did you mean 'to'", "too"),
    ("wrong_type", "valid integer", None, "two"),
    ("unknown_effect", "unknown effect 'mvoe'", "did you mean 'move'", "mvoe"),
    ("unknown_name", "unknown name 'lefft'", "did you mean 'left'", "lefft"),
    ("unknown_function", "unknown function 'cuont'", "did you mean 'count'", "cuont"),
    ("unknown_attribute", "no attribute 'color'", "did you mean 'colour'", "p.color"),
    ("yaml_syntax", "YAML syntax error", None, "}"),
    ("missing_zone_start", "unknown zone 'pyle'", "did you mean 'pile'", "pyle"),
    ("missing_zone_trigger", "unknown zone 'takn'", "did you mean 'taken'", "takn"),
    ("unknown_variable", "unknown variable 'last_takr'", "did you mean 'last_taker'",
     "last_takr"),
    ("unknown_procedure", "unknown procedure 'tkae'", "did you mean 'take'", "tkae"),
    ("not_a_mapping", "must be a YAML mapping", None, "- game"),
]


@pytest.mark.parametrize(("name", "message", "hint", "token"), CASES,
                         ids=[c[0] for c in CASES])
def test_mistake_is_located(name: str, message: str, hint: str | None,
                            token: str | None) -> None:
    path = BAD / f"{name}.yaml"
    err = error_of(path)
    matching = [d for d in err.diagnostics if message in d.message]
    assert matching, f"no diagnostic says {message!r}:\n{err}"
    d = matching[0]
    (line,) = marked_lines(path)
    assert d.location is not None and d.location.line == line, str(err)
    assert d.location.path == str(path)
    check_rendering(d, path, token)
    if hint is not None:
        assert d.hint is not None and hint in d.hint
        assert hint in d.render()
    # The whole error prints every diagnostic, each with its position.
    assert f"{path}:{line}:{d.location.col}: error: " in str(err)


def test_unknown_key_lists_what_is_allowed() -> None:
    err = error_of(BAD / "unknown_key.yaml")
    (d,) = [d for d in err.diagnostics if "tunr" in d.message]
    assert d.expected is not None and "turn" in d.expected and "zones" in d.expected
    # The misspelt key also leaves the required 'turn' missing: reported too.
    assert any("missing required key 'turn'" in x.message for x in err.diagnostics)


def test_unknown_procedure_reports_no_cascade() -> None:
    """The call's parameters are not blamed for the procedure's misspelt name."""
    err = error_of(BAD / "unknown_procedure.yaml")
    assert len(err.diagnostics) == 1, str(err)


def test_unknown_effect_lists_the_effects() -> None:
    err = error_of(BAD / "unknown_effect.yaml")
    (d,) = err.diagnostics
    assert d.expected is not None
    for keyword in ("move", "choose", "for_each", "shuffle"):
        assert keyword in d.expected


def test_several_errors_are_reported_in_one_run() -> None:
    path = BAD / "several_errors.yaml"
    err = error_of(path)
    lines = marked_lines(path)
    assert len(lines) == 3
    assert [d.location.line for d in err.diagnostics if d.location] == lines
    messages = [d.message for d in err.diagnostics]
    assert "pieces have no attribute 'colur'" in messages[0]
    assert "unknown name 'undefined_thing'" in messages[1]
    assert "unknown variable 'nothing_declared'" in messages[2]
    for d, token in zip(err.diagnostics, ["p.colur", "undefined_thing", "nothing_declared"],
                        strict=True):
        check_rendering(d, path, token)
    assert str(err).count(": error: ") == 3


def test_missing_file() -> None:
    missing = RULESETS / "no-such-ruleset.yaml"
    with pytest.raises(RulesetError) as info:
        load_ruleset(missing)
    (d,) = info.value.diagnostics
    assert "no such file" in d.message and str(missing) in d.message
    assert str(info.value).startswith("error: no such file")
    with pytest.raises(UsageError, match="no such ruleset file"):
        load_game(missing)


def test_yaml_error_in_text_is_located() -> None:
    text = "game:\n  name: x\n  title: [unclosed\nturn: []\n"
    with pytest.raises(RulesetError) as info:
        load_ruleset_text(text, "inline.yaml")
    (d,) = info.value.diagnostics
    assert d.location is not None and d.location.path == "inline.yaml"
    assert d.location.line in (3, 4)
    assert d.render().startswith(f"inline.yaml:{d.location.line}:{d.location.col}: error: YAML")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("  - id: pile\n    kind: pile\n", "  - id: pile\n    kind: heap\n", "'heap' is not allowed"),
    ("seats: {min: 2, max: 3}", "seats: {min: 2, max: 30}", "less than or equal to 16"),
    ("      start: pile", "      start: pile\n      seat: 1", "not per seat: drop 'seat'"),
    ("        where: n <= left\n", "        where: n <= left and roll(6) > 1\n",
     "draws at random"),
    ("      - add: takes\n        seat: who\n", "      - add: takes\n", "is per seat: give 'seat'"),
    ("  big(p): p.size == 3\n",
     "  big(p):\n    value: p.size == 3\n    says: \"{q} is big\"\n",
     "must name each parameter in braces ({p}), not {q}"),
])
def test_more_mistakes_in_the_base(old: str, new: str, message: str) -> None:
    base = (RULESETS / "minimal.yaml").read_text(encoding="utf-8")
    assert old in base
    text = base.replace(old, new, 1)
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(text, "variant.yaml"))
    diags = [d for d in info.value.diagnostics if message in d.message]
    assert diags, str(info.value)
    d = diags[0]
    assert d.location is not None and d.location.path == "variant.yaml"
    changed = text.splitlines()[d.location.line - 1]
    # The located line is one of the lines the change touched.
    assert changed.strip() and changed.strip() in new, (changed, new)


def test_a_definition_may_carry_the_words_the_rulebook_uses() -> None:
    from interpreter.assemble.describer import describer_for

    base = (RULESETS / "minimal.yaml").read_text(encoding="utf-8")
    text = base.replace("  big(p): p.size == 3\n",
                        "  big(p):\n    value: p.size == 3\n    says: \"{p} is a giant\"\n")
    game = compile_game(load_ruleset_text(text, "variant.yaml"))
    plain = compile_game(load_ruleset_text(base, "base.yaml"))
    d = describer_for(game)
    assert d.english.text("big(top(c))") == "the top piece of c is a giant"
    assert d.english.text("not big(x)") != ""
    assert describer_for(plain).english.text("big(top(c))") == "the big of the top piece of c"


OPTIONS_HEAD = "tabletop: 1\ngame: {name: o, title: O}\nseats: {min: 2, max: 2}\noptions:\n"
OPTIONS_TAIL = """zones:
  - {id: pile, kind: pile}
turn:
  - choose: go
    options:
      - {id: go, notation: go}
end:
  - {id: e, when: turn >= 2}
"""


@pytest.mark.parametrize(("option", "message"), [
    ("{id: x, label: X, description: d, type: bool, default: 7}",
     "an on/off option's default is true or false, not 7"),
    ("{id: x, label: X, description: d, type: int, default: 9, min: 1, max: 5}",
     "the default 9 is outside 1 to 5"),
    ("{id: x, label: X, description: d, type: int, default: 3, min: 5, max: 1}",
     "min 5 is more than max 1"),
    ("{id: x, label: X, description: d, type: int, default: yes}",
     "a whole-number option's default is a whole number"),
    ("{id: x, label: X, description: d, type: choice, default: nromal, choices: [normal, hard]}",
     "not one of the choices (normal, hard); did you mean 'normal'?"),
    ("{id: x, label: X, description: d, type: choice, default: a}",
     "a choice option needs `choices`"),
])
def test_an_option_default_it_could_not_take_is_located(option: str, message: str) -> None:
    """A default outside what the option takes used to be accepted and used silently."""
    text = OPTIONS_HEAD + f"  - {option}\n" + OPTIONS_TAIL
    with pytest.raises(RulesetError) as info:
        compile_game(load_ruleset_text(text, "o.yaml"))
    diags = [d for d in info.value.diagnostics if message in d.message]
    assert diags, str(info.value)
    assert diags[0].location is not None and diags[0].location.line == 5


def test_a_variant_that_changes_a_default_to_a_wrong_value_is_told_where(
        tmp_path: Path) -> None:
    variant = tmp_path / "v.yaml"
    variant.write_text("tabletop: 1\nextends: caldera\ngame: {name: v, title: V}\n"
                       "change:\n  options: {power_play: {default: 7}}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_and_compile(variant)
    text = str(info.value)
    assert "an on/off option's default is true or false, not 7" in text
    assert f"{variant}:5:" in text


# -- mistakes inside definitions ------------------------------------------------------------

def test_a_mistake_in_a_definition_is_told_once_at_the_definition() -> None:
    """Each faulty definition gets one diagnostic, inside its own text, however often it
    is used (the uses once repeated it, with the definition's column on the use's line)."""
    path = BAD / "definition_errors.yaml"
    err = error_of(path)
    assert [d.location.line for d in err.diagnostics if d.location] == marked_lines(path)
    assert len(err.diagnostics) == 2, str(err)
    keyword, unknown = err.diagnostics
    assert keyword.message == "functions take positional arguments only"
    assert unknown.message == "unknown name 'missing_name'"
    check_rendering(keyword, path, "min(")
    check_rendering(unknown, path, "missing_name")
    assert str(err).count(": error: ") == 2


def test_a_definition_that_refers_to_itself_is_told_once_at_it(tmp_path: Path) -> None:
    """Not again at the option that uses it, nor at a definition that merely calls it."""
    text = (BAD.parent / "minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("  left: count(pieces(pile))\n",
                        "  left: count(pieces(pile))\n"
                        "  loopy(n): loopy(n) + 1\n"
                        "  calls_it(n): loopy(n) > 0\n")
    text = text.replace("where: n <= left", "where: n <= left and calls_it(n) and loopy(n) > 0")
    path = tmp_path / "loopy.yaml"
    path.write_text(text, encoding="utf-8")
    err = error_of(path)
    assert len(err.diagnostics) == 1, str(err)
    (d,) = err.diagnostics
    assert d.message == "definition 'loopy' refers to itself (loopy → loopy)"
    check_rendering(d, path, "loopy(n) + 1")


def test_a_mistake_in_a_definition_over_several_lines_points_into_its_text(
        tmp_path: Path) -> None:
    """parse() joins the lines of a folded expression: the column is found again in the
    file, not counted past the end of the first line."""
    text = (BAD.parent / "minimal.yaml").read_text(encoding="utf-8")
    text = text.replace("  left: count(pieces(pile))\n",
                        "  left: >-\n    count(pieces(pile))\n      + count([p for p in\n"
                        "        pieces(pile) if p.size > 1]) + missing_name\n")
    path = tmp_path / "folded.yaml"
    path.write_text(text, encoding="utf-8")
    (d,) = error_of(path).diagnostics
    assert d.message == "unknown name 'missing_name'"
    check_rendering(d, path, "missing_name")


# -- reserved words -------------------------------------------------------------------------

def _minimal_with(old: str, new: str, tmp_path: Path) -> Path:
    text = (BAD.parent / "minimal.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "reserved.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "message"), [
    ('        for:\n          n: "[1, 2]"\n',
     '        for:\n          from: "[1, 2]"\n          n: "[1, 2]"\n',
     "local name 'from': a reserved word"),
    ("          - set: last_taker\n",
     "          - let:\n              import: 3\n          - set: last_taker\n",
     "local name 'import': a reserved word"),
    ("  left: count(pieces(pile))\n", "  left: count(pieces(pile))\n  class: 3\n",
     "definition 'class': a reserved word"),
    ("  left: count(pieces(pile))\n", "  left: count(pieces(pile))\n  near(from): 1\n",
     "parameter 'from' of 'near(from)': a reserved word"),
    ("  - id: big_taken\n", "  - id: lambda\n    initial: 0\n  - id: big_taken\n",
     "variable 'lambda': a reserved word"),
    ("    params: [who]\n", "    params: [who, with]\n",
     "parameter 'with' of procedure 'take': a reserved word"),
], ids=["for", "let", "definition", "parameter", "variable", "procedure"])
def test_a_reserved_word_is_refused_where_it_is_given_as_a_name(
        old: str, new: str, message: str, tmp_path: Path) -> None:
    """Even when nothing uses the name yet: no expression could ever name it."""
    err = error_of(_minimal_with(old, new, tmp_path))
    (d,) = [d for d in err.diagnostics if "reserved word" in d.message]
    assert d.message.startswith(message), str(err)
    assert d.hint is not None and "reserved: as, assert" in d.hint and "from" in d.hint


def test_a_reserved_word_in_an_expression_says_it_is_reserved(tmp_path: Path) -> None:
    err = error_of(_minimal_with("where: n <= left", "where: n <= left and from > 0",
                                 tmp_path))
    (d,) = err.diagnostics
    assert d.message == "'from' is a reserved word and cannot be a name here"
    assert d.hint is not None and "yield" in d.hint
