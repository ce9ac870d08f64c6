"""No YAML input crashes, hangs or eats memory in the loader; every problem is located.

Whatever the bytes of a ruleset file, loading ends in a model or in a RulesetError whose
diagnostics carry ``path:line:col`` (file-level problems, such as a missing file, name
the path instead); never another exception, which the CLI would call a bug.
"""

from __future__ import annotations

import os
import re
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from interpreter.cli.app import app
from interpreter.errors import RulesetError
from interpreter.load import loader, yaml_source
from interpreter.load.loader import load_ruleset, load_ruleset_text
from interpreter.load.yaml_source import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    parse_yaml,
    read_yaml,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MINIMAL = (HERE / "rulesets" / "minimal.yaml").read_text(encoding="utf-8")
LAUGHS = HERE / "rulesets" / "bad" / "billion_laughs.yaml"


def error_of(text: str, path: str = "t.yaml") -> RulesetError:
    with pytest.raises(RulesetError) as info:
        load_ruleset_text(text, path)
    return info.value


def located(err: RulesetError, fragment: str) -> tuple[int, int]:
    """The (line, col) of the diagnostic that says `fragment`; it must have one."""
    matching = [d for d in err.diagnostics if fragment in d.message]
    assert matching, f"no diagnostic says {fragment!r}:\n{err}"
    d = matching[0]
    assert d.location is not None, str(err)
    assert str(err).startswith(f"{d.location.path}:") or len(err.diagnostics) > 1
    return d.location.line, d.location.col


# -- the limits are far above what the bundled rulesets need ---------------------------------

def _measure(text: str) -> tuple[int, int]:
    """(values, deepest nesting) of a YAML text, aliases expanded."""
    tree, _ = parse_yaml(text, "m")
    nodes = depth = 0
    stack = [(tree, 0)]
    while stack:
        node, level = stack.pop()
        nodes += 1
        if isinstance(node, dict | list):
            depth = max(depth, level + 1)
            stack.extend((child, level + 1) for child in
                         (node.values() if isinstance(node, dict) else node))
    return nodes, depth


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.yaml")), ids=lambda p: p.name)
def test_bundled_files_are_far_within_the_limits(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    nodes, depth = _measure(text)
    # a scenario file grows with every ruling pinned (Aquarius Rising's holds 60 KB):
    # a fifth of the limit for those, a tenth for the rulesets themselves
    margin = 5 if path.name.endswith(".tests.yaml") else 10
    assert len(text.encode("utf-8")) * margin <= MAX_FILE_BYTES
    assert nodes * 25 <= MAX_NODES
    assert depth * 4 <= MAX_DEPTH


# -- aliases ---------------------------------------------------------------------------------

def test_billion_laughs_stops_at_the_alias_quickly_and_in_little_memory() -> None:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(RulesetError) as info:
            load_ruleset(LAUGHS)
        elapsed = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert elapsed < 1.0
    assert peak < 20_000_000
    (d,) = info.value.diagnostics
    assert f"more than {MAX_NODES:,} values" in d.message and "tabletop's limit" in d.message
    alias = re.search(r"the alias (\*\w+)", d.message)
    assert alias is not None
    marked = next(i for i, line in enumerate(LAUGHS.read_text().splitlines(), 1)
                  if "<-- error" in line)
    assert d.location is not None and d.location.line <= marked  # at the first alias over
    assert d.source_line is not None
    assert d.source_line[d.location.col - 1:].startswith(alias.group(1))


def test_aliases_within_the_limit_still_work_and_are_located() -> None:
    text = "a: &x {p: 1, q: [2, 3]}\nb: *x\nc: {<<: *x, q: 4}\n"
    tree, _ = parse_yaml(text, "t")
    assert tree == {"a": {"p": 1, "q": [2, 3]}, "b": {"p": 1, "q": [2, 3]},
                    "c": {"q": 4, "p": 1}}
    assert tree["b"].loc.line == 2           # the alias's own place
    assert tree["c"].key_locs["p"].line == 1  # a merged key: where it was written


def test_a_recursive_alias_is_refused() -> None:
    line, col = located(error_of("a: &x [1, *x]\n"), "recursive")
    assert (line, col) == (1, 11)


def test_an_unknown_alias_is_located_with_a_hint() -> None:
    err = error_of("a: &setup 1\nb: *stup\n")
    assert located(err, "unknown alias *stup") == (2, 4)
    assert "did you mean 'setup'" in (err.diagnostics[0].hint or "")


# -- nesting ---------------------------------------------------------------------------------

def _deep_block_mapping(n: int) -> str:
    return "".join("  " * i + "a:\n" for i in range(n)) + "  " * n + "x\n"


@pytest.mark.parametrize(("text", "line", "col"), [
    ("[" * 500 + "]" * 500, 1, MAX_DEPTH + 1),
    ("{a: " * 500 + "x" + "}" * 500, 1, 4 * MAX_DEPTH + 1),
    (_deep_block_mapping(500), MAX_DEPTH + 1, 2 * MAX_DEPTH + 1),
    ("".join("  " * i + "-\n" for i in range(500)) + "  " * 500 + "x\n",
     MAX_DEPTH + 1, 2 * MAX_DEPTH + 1),
], ids=["flow-lists", "flow-mappings", "block-mappings", "block-lists"])
def test_deep_nesting_is_a_located_error(text: str, line: int, col: int) -> None:
    err = error_of(text)
    assert located(err, f"nested deeper than {MAX_DEPTH} levels (tabletop's limit)") == (
        line, col)


def test_nesting_built_from_aliases_counts_too() -> None:
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 80)]
    err = error_of("\n".join(lines) + "\n")
    # a{i} (on line i + 1) reaches i + 2 levels with the root mapping: a{MAX_DEPTH - 1}
    # is the first over, at its alias.
    over = lines[MAX_DEPTH - 1]
    assert located(err, "nested deeper") == (MAX_DEPTH, over.index("*") + 1)


def test_the_depth_limit_itself_is_allowed() -> None:
    tree, _ = parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "t")
    assert isinstance(tree, list)


def test_no_recursion_error_even_with_a_low_recursion_limit() -> None:
    """Building the tree is iterative: it does not use the stack for nesting."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(150)
    try:
        tree, _ = parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH, "t")
    finally:
        sys.setrecursionlimit(old)
    assert isinstance(tree, list)


def test_recursion_and_memory_errors_become_located_diagnostics(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def too_deep(self: object, event: object) -> None:
        raise RecursionError

    monkeypatch.setattr(yaml_source._Builder, "feed", too_deep)
    located(error_of("a: 1\n"), "too complex")

    monkeypatch.undo()

    def no_memory(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr(loader.Ruleset, "model_validate", no_memory)
    err = error_of(MINIMAL)
    assert located(err, "ran out of memory") == (2, 1)


# -- malformed YAML: every problem a located RulesetError ------------------------------------

CASES = [
    # id, text, what the message says, (line, col)
    ("yaml-9.9-after-content", "a: 1\n%YAML 9.9\n", "incompatible YAML document", (2, 1)),
    ("yaml-1.3", "%YAML 1.3\n---\na: 1\n", "version", (1, 1)),
    ("directive-after-end", "a: 1\n...\n%YAML 1.3\n---\nb: 2\n", "version", (3, 1)),
    ("directive-no-document", "a: 1\n...\n%YAML 1.2\n", "document start", (4, 1)),
    ("duplicate-directive", "%YAML 1.2\n%YAML 1.2\n---\na: 1\n", "duplicate", (2, 1)),
    ("bad-tag-directive", "%TAG !e!\n---\na: 1\n", "YAML syntax error", (1, 9)),
    ("tag-from-directive", "%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
     "tag tag:example.com,2000:x is not supported", (3, 4)),
    ("undefined-handle", "a: !e!x 1\n", "undefined tag handle", (1, 4)),
    ("python-object", "a: !!python/object/apply:os.system ['echo hi']\n",
     "!!python/object/apply:os.system is not supported", (1, 4)),
    ("python-name", "a: !!python/name:os.system\n", "is not supported", (1, 4)),
    ("local-tag", "a: !foo 1\n", "!foo is not supported", (1, 4)),
    ("binary", "a: !!binary aGVsbG8=\n", "!!binary is not supported", (1, 4)),
    ("timestamp", "a: !!timestamp 2024-99-99\n", "!!timestamp is not supported", (1, 4)),
    ("set", "a: !!set {x, y}\n", "!!set is not supported", (1, 4)),
    ("omap", "a: !!omap [x: 1]\n", "!!omap is not supported", (1, 4)),
    ("str-on-mapping", "a: !!str {x: 1}\n", "!!str does not fit a mapping", (1, 4)),
    ("seq-on-mapping", "a: !!seq {x: 1}\n", "!!seq does not fit a mapping", (1, 4)),
    ("bad-int", "a: !!int foo\n", "not a valid int", (1, 4)),
    ("bad-float", "a: !!float foo\n", "not a valid float", (1, 4)),
    ("bad-bool", "a: !!bool foo\n", "not a valid bool", (1, 4)),
    ("huge-int", "a: " + "9" * 5000 + "\n", "5,000 digits", (1, 4)),
    ("complex-key", "? [a, b]\n: x\n", "a list cannot be a mapping key", (1, 3)),
    ("flow-key", "[1, 2]: x\n", "a list cannot be a mapping key", (1, 1)),
    ("mapping-key", "? {a: 1}\n: x\n", "a mapping cannot be a mapping key", (1, 3)),
    ("duplicate-key", "a: 1\nb: 2\na: 3\n", "duplicate key 'a' (first at line 1)", (3, 1)),
    ("tab", "a:\n\t- 1\n", "'\\t'", (2, 1)),
    ("nul", "a: b\x00c\n", "U+0000 is not allowed", (1, 5)),
    ("control", "a:\n  b: \x07\n", "U+0007 is not allowed", (2, 6)),
    ("escape-surrogate", 'a: "\\ud800"\n', "half of a UTF-16 pair", (1, 4)),
    ("bad-escape", 'a: "\\x"\n', "escape", (1, 7)),
    ("second-document", "a: 1\n---\nb: 2\n", "a second YAML document", (2, 1)),
    ("merge-scalar", "a: {<<: 3}\n", "merge key", (1, 9)),
    ("lone-document-start", "---\n", "the file is empty", (1, 1)),
    ("empty", "", "the file is empty", (1, 1)),
    ("comment-only", "# nothing\n", "the file is empty", (1, 1)),
    ("scalar", "hello\n", "must be a YAML mapping", (1, 1)),
    ("number", "42\n", "must be a YAML mapping", (1, 1)),
    ("list", "- game\n- turn\n", "must be a YAML mapping", (1, 1)),
    ("unclosed", "a: [1, 2\n", "YAML syntax error", (2, 1)),
]


@pytest.mark.parametrize(("text", "message", "where"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_malformed_yaml_is_a_located_error(text: str, message: str,
                                           where: tuple[int, int]) -> None:
    err = error_of(text)
    assert located(err, message) == where
    assert all(d.location is not None for d in err.diagnostics), str(err)


def test_tags_never_construct_objects(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []
    monkeypatch.setattr(os, "system", lambda cmd: called.append(cmd) or 0)
    for text in ("a: !!python/object/apply:os.system ['true']\n",
                 "a: !!python/object/new:os.system ['true']\n"):
        error_of(text)
    assert called == []


@pytest.mark.parametrize(("key", "col"), [("1", 1), ("null", 1), ("true", 1), ("1.5", 1)])
def test_keys_that_are_not_text_are_located_at_the_key(key: str, col: int) -> None:
    err = error_of(MINIMAL + f"{key}: x\n")
    line = MINIMAL.count("\n") + 1
    assert located(err, "a key here must be text") == (line, col)
    err = error_of(MINIMAL.replace("define:\n", f"define:\n  {key}: x\n"))
    assert located(err, "a key here must be text")[1] == 3


def test_plain_scalars_follow_the_yaml_1_2_core_schema() -> None:
    tree, _ = parse_yaml(
        "a: 0o17\nb: 0x1F\nc: -12\nd: 1_000\ne: .5\nf: -.inf\ng: 1e3\nh: true\ni: yes\n"
        "j: ~\nk: null\nl: 2024-01-01\nm: '3'\nn: _\no: 0b\np: 1.\nq: !!str 7\nr: ! 8\n"
        "s: !!float 2\n", "t")
    assert tree == {"a": 15, "b": 31, "c": -12, "d": 1000, "e": 0.5, "f": float("-inf"),
                    "g": 1000.0, "h": True, "i": "yes", "j": None, "k": None,
                    "l": "2024-01-01", "m": "3", "n": "_", "o": "0b", "p": 1.0, "q": "7",
                    "r": "8", "s": 2.0}
    assert [type(tree[k]) for k in "abeh"] == [int, int, float, bool]


def test_yaml_1_1_is_read_as_yaml_1_1() -> None:
    tree, _ = parse_yaml("%YAML 1.1\n---\na: yes\nb: 010\nc: 1:30\n", "t")
    assert tree == {"a": True, "b": 8, "c": 90}


def test_a_bom_and_crlf_lines_keep_columns_right() -> None:
    text = "\ufeff" + MINIMAL.replace("tabletop: 1", "tabletop: one").replace("\n", "\r\n")
    err = error_of(text)
    (d,) = err.diagnostics
    assert d.location is not None and (d.location.line, d.location.col) == (2, 11)
    assert d.source_line == "tabletop: one"


def test_too_many_schema_errors_are_cut_short() -> None:
    err = error_of(MINIMAL + "rulings: [" + ", ".join(["1"] * 500) + "]\n")
    assert len(err.diagnostics) == loader.MAX_DIAGNOSTICS + 1
    last = err.diagnostics[-1]
    assert "more problems" in last.message and last.location is not None


# -- files -----------------------------------------------------------------------------------

def test_non_utf8_bytes_are_located(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("tabletop: 1\ngame:\n  title: Caf\u00e9 \u00e9\n".encode("latin-1"))
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    (d,) = info.value.diagnostics
    assert d.message == "not UTF-8 text: byte 0xe9 at 3:13"
    assert d.location is not None and (d.location.line, d.location.col) == (3, 13)
    assert d.source_line is not None and d.source_line.startswith("  title: Caf")


def test_utf16_gets_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "utf16.yaml"
    path.write_bytes(MINIMAL.encode("utf-16"))
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    (d,) = info.value.diagnostics
    assert "byte 0xff at 1:1" in d.message and "UTF-16" in (d.hint or "")


def test_a_directory_is_not_a_ruleset(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="is a directory"):
        read_yaml(tmp_path)


def test_an_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text(MINIMAL, encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "open", refuse)  # chmod 0 does not stop root
    with pytest.raises(RulesetError, match=r"cannot read .*secret\.yaml: Permission denied"):
        read_yaml(path)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as f:  # sparse: nothing is written
        f.truncate(MAX_FILE_BYTES * 50)
    start = time.perf_counter()
    with pytest.raises(RulesetError, match=f"larger than {MAX_FILE_BYTES:,} bytes"):
        read_yaml(path)
    assert time.perf_counter() - start < 0.5


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_an_endless_file_is_cut_at_the_limit() -> None:
    with pytest.raises(RulesetError, match="larger than"):
        read_yaml("/dev/zero")


def test_huge_text_is_refused_too() -> None:
    err = error_of("a: " + "x" * MAX_FILE_BYTES + "\n")
    assert located(err, f"more than tabletop's limit of {MAX_FILE_BYTES:,}") == (
        1, MAX_FILE_BYTES + 1)


# -- the command line never reports an internal error ----------------------------------------

@pytest.mark.parametrize("content", [
    LAUGHS.read_bytes(),
    b"[" * 5000 + b"]" * 5000,
    b"a: 1\n%YAML 9.9\n",
    b"a: 1\n...\n%YAML 1.3\n---\n",
    b"a: \xff\xfe\n",
    b"a: \x00\n",
    b"a: !!python/object/apply:os.system ['true']\n",
    b"a: &x [*x]\n",
], ids=["laughs", "deep", "yaml-9.9", "directive", "not-utf8", "nul", "python", "recursive"])
def test_cli_validate_reports_a_located_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "nasty.yaml"
    path.write_bytes(content)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert result.output.startswith(f"{path}:"), result.output
