"""The probe catalogue: hostile, broken and runaway inputs for the `tabletop` command.

Each probe writes some files into an empty folder, runs one `tabletop ...` command
there, and says what counts as correct. By default: exit code 0 or 1, no "internal
error" and no traceback; when the error concerns a file given to tabletop, the message
carries that file's `NAME:LINE:COL`; the run ends within 2 s and 500 MB (the runner
measures both). Budget probes must also fail and name the budget; run-time rule errors
must say when they happened (the decision number, or the set-up).

Categories:

- ``yaml``: malformed and hostile YAML (aliases, depth, directives, bytes, tags ...)
- ``schema``: the bundled rulesets mutated with a fixed seed (deleted keys, wrong types,
  renamed references, junk, truncation, bad bytes, ...), validated or run
- ``expressions``: hostile and wrong-typed expressions placed into a small valid
  ruleset: at set-up, in a let, a where, a say, an end rule, a label, an option's list,
  a definition, an if
- ``budgets``: runaway work, memory, text, numbers, sizes and nesting
- ``templates``: format-string tricks in piece names, notations, labels, says,
  prompts, end texts, definitions' words, value names, styles and titles
- ``saves``: hostile save files for ``play --load``
- ``cli``: odd arguments, closed stdin, /dev/full, unwritable paths, odd input
- ``rules``: run-time rule errors, each located and naming the decision
- ``variants``: hostile variant files (circles, chains, paths out of the folder, edits of
  parts the base lacks, merges that break the base), in `variant_probes.py`
- ``serve``: hostile requests to a running ``tabletop serve`` (``serve_probes.py``)
- ``html``: markup in a ruleset's texts, through ``tabletop docs``: no page it writes
  runs anything, and the texts are still there to read

Everything is generated deterministically (fixed seeds), so a probe's name always
means the same input. Probes named in issue 9 carry ``issue=True``.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ROOT / "rulesets"
SEED = 9

CLOSED = "<closed stdin>"
"""A probe's `stdin` for a process started with file descriptor 0 closed."""

CATEGORIES = ("yaml", "schema", "expressions", "budgets", "templates", "saves", "cli",
              "rules", "variants", "serve", "html")

PYTHON_LEAKS = ("<class '", "<module ", "<built-in", "<function ", "<bound method",
                "object at 0x", "PWNED", "mappingproxy(")
"""Texts that only Python internals (or a command someone smuggled in) would print."""


@dataclass
class Symlink:
    """A symbolic link to write instead of a file."""

    target: str


@dataclass
class Probe:
    """One input, one command, and what counts as correct."""

    name: str
    category: str
    args: tuple[str, ...]
    """The command line after `tabletop`, run in the probe's folder."""
    files: dict[str, Any] = field(default_factory=dict)
    """Relative path → text, bytes, None (a folder) or a Symlink."""
    stdin: str | bytes | None = None
    """Text fed on stdin; None: /dev/null; CLOSED: no stdin at all."""
    stdout_full: bool = False
    """Send stdout to /dev/full (every write fails with ENOSPC)."""
    env: dict[str, str] = field(default_factory=dict)
    located: str | None = None
    """The file whose NAME:LINE:COL an error message must carry."""
    mentions: tuple[str, ...] = ()
    """Texts an error message must carry (e.g. a save file's name)."""
    budget: tuple[str, ...] = ()
    """The run must stop with an error naming one of these budgets."""
    must_fail: bool = False
    decision: bool = False
    """A run-time error must say when: `decision N` or the set-up."""
    forbid: tuple[str, ...] = ()
    """Texts that must appear nowhere in the output."""
    codes: tuple[int, ...] = (0, 1)
    note: str = ""
    issue: bool = False
    """Named in the issue text."""
    process: bool = False
    """Needs a real process of its own (memory that only an address-space cap stops,
    worker processes, real file descriptors); in-process checks run it as one."""
    seconds: float | None = None
    """Time allowed when the command's honest work takes longer than the default (the
    rulebooks of every bundled game, say); None: the runner's limit."""
    interrupt_after: float | None = None
    """Press Ctrl-C (SIGINT) after this many seconds: for work that is honestly endless
    (a hundred million games), which must keep its memory flat and stop cleanly."""
    check: Callable[[Path], list[str]] | None = None
    """Looks at the files the command left in the probe's folder; each text it returns
    is a way the probe failed."""

    def __post_init__(self) -> None:
        if self.stdin == CLOSED or self.stdout_full or self.args[:1] == ("simulate",):
            self.process = True

    def command(self) -> str:
        """The command as a shell line (for reports; a long argument made of one
        repeated character is written as the printf that makes it)."""
        import shlex

        def shown(arg: str) -> str:
            if len(arg) > 60:
                m = re.fullmatch(r"(.)\1+(\S{0,20})", arg)
                if m and m.group(1) not in "'%\\":
                    n = len(arg) - len(m.group(2))
                    return (f"\"$(printf '{m.group(1)}%.0s' $(seq {n})){m.group(2)}\"")
                return shlex.quote(arg[:40] + "…")
            return shlex.quote(arg)

        env = "".join(f"{k}={shlex.quote(v)} " for k, v in self.env.items())
        line = env + "tabletop " + " ".join(shown(a) for a in self.args)
        if self.stdin == CLOSED:
            line += " <&-"
        elif self.stdin is not None:
            line += " < stdin"
        if self.stdout_full:
            line += " > /dev/full"
        return line


def q(text: str) -> str:
    """A YAML double-quoted scalar holding `text` exactly (JSON strings are YAML)."""
    return json.dumps(text)


# -- a small valid ruleset with slots to fill ---------------------------------------------

BASE = """\
tabletop: 1
game: {name: probe, title: @TITLE@, designer: Test, seats: {min: 2, max: 3}, summary: A probe.}
options:
  - {id: size, label: Size, type: int, default: 3, min: 1, max: 9, description: Board size.}
pieces:
  attributes:
    colour: {values: [red, blue], short: {red: r, blue: b}, styles: @STYLES@}
    size: {values: [1, 2], names: @NAMES@}
  name: @NAME@
  sets:
    - {id: a, count: @COUNT@, each: {colour: [red, blue], size: [1, 2]}, start: pile}
zones:
  - {id: pile, kind: pile}
  - {id: board, kind: grid, rows: @ROWS@, cols: size}
  - {id: field, kind: slots, size: @SLOTS@}
  - {id: hand, kind: pile, per_seat: true}
variables:
  - {id: v, initial: @INITIAL@}
  - {id: xs, initial: "[1]"}
  - {id: score, initial: "0", per_seat: true}
define:
  double(x): x + x
  big(p):
    value: p.size == 2
    says: @SAYS@
@DEFINE@
procedures:
  - id: take
    params: [who]
    do:
      - move: top(pile)
        to: hand[who]
@PROCEDURES@
triggers:
  - id: t
    enters: hand
    do:
      - add: score
        seat: current
        amount: 1
@TRIGGERS@
setup:
  - let: {x: "1"}
@SETUP@
turn:
@TURN@
  - choose: @PROMPT@
    options:
      - id: go
        for: {n: @FOR@}
        where: @WHERE@
        notation: @NOTATION@
        label: @LABEL@
        do:
          - if: "not empty(pile)"
            then:
              - call: take
                with: {who: current}
          - say: "{seat_name(current)} goes {n}"
@DO@
end:
  - {id: e, when: @END@}
scores: score[seat]
@BUDGETS@
"""

SLOTS = {
    "TITLE": "Probe", "STYLES": "{red: bold red, blue: bold blue}",
    "NAMES": "{1: small, 2: big}", "NAME": q("{colour} {size}"), "COUNT": "2",
    "ROWS": "size", "SLOTS": "4", "INITIAL": q("1"), "SAYS": q("{p} is big"),
    "DEFINE": "", "PROCEDURES": "", "TRIGGERS": "", "SETUP": "", "TURN": "",
    "PROMPT": q("{seat_name(current)}: go"), "FOR": q("[1, 2]"), "WHERE": q("n <= 2"),
    "NOTATION": q("go{n}"), "LABEL": q("Go {n}"), "DO": "", "END": q("turn >= 6"),
    "BUDGETS": "",
}


def ruleset(**slots: str) -> str:
    """The base ruleset with some slots filled (see SLOTS for the defaults)."""
    text = BASE
    for key, default in SLOTS.items():
        text = text.replace(f"@{key}@", slots.pop(key, default))
    assert not slots, f"unknown slots {sorted(slots)}"
    return text


RULESET = "probe.yaml"


def at_decision(effect: str, turn: int = 3) -> str:
    """An effect (YAML lines at 0 indentation) run in the option's `do` from turn `turn`
    on, so a failure happens while carrying out a decision."""
    body = "\n".join("              " + line for line in effect.splitlines())
    return f'          - if: "turn >= {turn}"\n            then:\n{body}'


def with_turn(text: str, turn: str) -> str:
    """A ruleset whose whole `turn` is `turn` (YAML lines at 2 indentation)."""
    start, end = text.index("\nturn:\n"), text.index("\nend:\n")
    return text[:start] + "\nturn:\n" + turn + text[end:]


def in_setup(effect: str) -> str:
    return "\n".join("  " + line for line in effect.splitlines())


def in_do(effect: str) -> str:
    return "\n".join("          " + line for line in effect.splitlines())


def run_args(path: str = RULESET, seed: int = 1) -> tuple[str, ...]:
    return ("run", path, "--seed", str(seed))


# -- the catalogue -------------------------------------------------------------------------

def catalogue() -> list[Probe]:
    """Every probe, in category order; names are unique."""
    from tests.probes.variant_probes import variant_probes

    probes = [*yaml_probes(), *schema_probes(), *expression_probes(), *budget_probes(),
              *template_probes(), *save_probes(), *cli_probes(), *rules_probes(),
              *variant_probes(), *html_probes()]
    names = [p.name for p in probes]
    duplicates = {n for n in names if names.count(n) > 1}
    assert not duplicates, f"duplicate probe names: {sorted(duplicates)}"
    return probes


def select(probes: list[Probe], categories: list[str] | None = None,
           names: list[str] | None = None, issue_only: bool = False) -> list[Probe]:
    """The probes of these categories whose names match any of these regexes."""
    out = []
    for p in probes:
        if categories and p.category not in categories:
            continue
        if names and not any(re.search(n, p.name) for n in names):
            continue
        if issue_only and not p.issue:
            continue
        out.append(p)
    return out


# -- yaml -----------------------------------------------------------------------------------

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def _valid() -> str:
    return ruleset()


def yaml_inputs() -> list[tuple[str, Any, bool, str]]:
    """(name, file content, named in the issue, note) for malformed or hostile YAML."""
    valid = _valid()
    lines = valid.splitlines(keepends=True)
    out: list[tuple[str, Any, bool, str]] = [
        ("billion-laughs", BILLION_LAUGHS, True, "339 bytes, 9^9 values once expanded"),
        ("billion-laughs-mappings", "".join(
            f"k{i}: &k{i} {{" + ", ".join(f"x{j}: *k{i - 1}" if i else f"x{j}: lol"
                                           for j in range(10)) + "}\n"
            for i in range(9)), False, "aliases of mappings"),
        ("laughs-in-ruleset", valid.replace(
            "variables:\n", "variables:\n" + "".join(
                f"  - &v{i} [" + ", ".join([f"*v{i - 1}" if i else "'x'"] * 10) + "]\n"
                for i in range(8)), 1), False, "aliases inside a list of the ruleset"),
        ("merge-key-bomb", "a: &a {x: 1, y: 2}\n" + "".join(
            f"m{i}: &m{i} {{<<: [*m{i - 1}, *m{i - 1}, *m{i - 1}] }}\n" if i else
            "m0: &m0 {<<: [*a, *a]}\n" for i in range(30)), False, "merge keys"),
        ("alias-as-key", "a: &a [1, 2]\n*a : 3\n", False, ""),
        ("undefined-alias", valid + "x: *nope\n", False, ""),
        ("self-alias", "a: &a [*a]\n", False, ""),
        ("many-anchors", "".join(f"a{i}: &a{i} {i}\n" for i in range(20000)), False, ""),
        ("nested-500-lists", "[" * 500 + "]" * 500 + "\n", True, "YAML nested 500 deep"),
        ("nested-500-block", "".join(" " * i + "a:\n" for i in range(500)) + " " * 500
         + "b\n", True, "block mappings 500 deep"),
        ("nested-100000-flow", "[" * 100000 + "\n", False, "unclosed and very deep"),
        ("nested-5000-maps", "{a: " * 5000 + "1" + "}" * 5000 + "\n", False, ""),
        ("nested-in-ruleset", valid.replace("scores: score[seat]\n",
                                            "scores: score[seat]\nrulings: " + "[" * 300
                                            + "]" * 300 + "\n"), False, ""),
        ("directive-after-value", "a: 1\n%YAML 9.9\n", True, "KeyError today"),
        ("directive-after-end", valid + "...\n%YAML 1.1\n---\nb: 2\n", True,
         "AssertionError today"),
        ("directive-9.9", "%YAML 9.9\n---\n" + valid, False, ""),
        ("directive-2.0", "%YAML 2.0\n---\n" + valid, False, ""),
        ("directive-twice", "%YAML 1.2\n%YAML 1.2\n---\n" + valid, False, ""),
        ("directive-tag", "%TAG ! tag:evil.example,2000:\n---\n" + valid, False, ""),
        ("directive-unknown", "%FOO bar baz\n---\n" + valid, False, ""),
        ("directive-bare", "%\n" + valid, False, ""),
        ("directive-only", "%YAML 1.2\n", False, ""),
        ("directive-after-dots-only", "...\n%YAML 1.2\n", False, ""),
        ("documents-two", valid + "---\n" + valid, False, ""),
        ("documents-1000", "---\na: 1\n" * 1000, False, ""),
        ("document-end-only", "...\n", False, ""),
        ("document-start-only", "---\n", False, ""),
        ("empty", "", False, ""),
        ("only-comment", "# nothing here\n", False, ""),
        ("only-blank-lines", "\n\n\n   \n", False, ""),
        ("scalar-top", "42\n", False, ""),
        ("string-top", "hello\n", False, ""),
        ("list-top", "- a\n- b\n", False, ""),
        ("null-top", "~\n", False, ""),
        ("bytes-ff-line-5", "".join(lines[:4]).encode() + b"\xff" + "".join(
            lines[4:]).encode(), True, "non-UTF-8 byte in line 5"),
        ("bytes-latin1", valid.replace("A probe.", "Un café").encode("latin-1"), True, ""),
        ("bytes-utf16le", "\ufeff".encode("utf-16-le") + valid.encode("utf-16-le"), False,
         ""),
        ("bytes-utf16be", valid.encode("utf-16"), False, ""),
        ("bytes-utf32", valid.encode("utf-32"), False, ""),
        ("bytes-nul", valid.replace("A probe.", "A\x00probe.").encode(), False, ""),
        ("bytes-nul-start", b"\x00" + valid.encode(), False, ""),
        ("bytes-overlong", valid.encode().replace(b"A probe.", b"A \xc0\xaf probe."),
         False, ""),
        ("bytes-surrogate", valid.encode().replace(b"A probe.", b"A \xed\xa0\x80 probe."),
         False, ""),
        ("bytes-truncated-utf8", valid.encode() + b"# caf\xc3", False, ""),
        ("bytes-bom-middle", valid.replace("turn:\n", "turn:\n\ufeff").encode(), False, ""),
        ("bytes-bom-start", ("\ufeff" + valid).encode(), False, "valid with a BOM"),
        ("bytes-random-2k", random.Random(SEED).randbytes(2048), False, ""),
        ("control-esc", valid.replace("A probe.", "A \x1b[2J\x1b]0;pwn\x07 probe."), False,
         ""),
        ("control-bell-key", valid + "\x07: 1\n", False, ""),
        ("control-vt-ff", valid.replace("turn:\n", "turn:\n\x0b\x0c"), False, ""),
        ("line-nel", valid.replace("\n", "\x85", 3), False, ""),
        ("line-ls-ps", valid.replace("\n", "\u2028", 3).replace("\n", "\u2029", 3), False,
         ""),
        ("line-cr-only", valid.replace("\n", "\r"), False, "old Mac line ends"),
        ("line-crlf", valid.replace("\n", "\r\n"), False, "valid with CRLF"),
        ("line-mixed", valid.replace("\n", "\r\n", 20).replace("\n", "\r", 10), False, ""),
        ("tabs-indent", valid.replace("    options:", "\toptions:"), False, ""),
        ("tabs-everywhere", valid.replace("  ", "\t"), False, ""),
        ("bidi-override", valid.replace("A probe.", "A \u202eebrop\u202c."), False, ""),
        ("zero-width-key", valid.replace("turn:\n", "tu\u200brn:\n"), False, ""),
        ("homoglyph-key", valid.replace("turn:\n", "turп:\n"), False, "Cyrillic п"),
        ("duplicate-top-key", valid + "game: {name: other}\n", False, ""),
        ("duplicate-nested-key", valid.replace("summary: A probe.}",
                                               "summary: A probe., title: Again}"), False,
         ""),
        ("tag-python-apply", valid.replace(
            "title: Probe", "title: !!python/object/apply:os.system ['echo PWN''ED']"),
         False, ""),
        ("tag-python-name", "game: !!python/name:os.system\n", False, ""),
        ("tag-binary", valid.replace("title: Probe", "title: !!binary aGVsbG8="), False,
         ""),
        ("tag-timestamp", valid.replace("title: Probe", "title: !!timestamp 2001-12-14"),
         False, ""),
        ("tag-set", valid.replace("title: Probe", "title: !!set {a, b}"), False, ""),
        ("tag-omap", valid.replace("title: Probe", "title: !!omap [{a: 1}]"), False, ""),
        ("tag-custom", valid.replace("title: Probe", "title: !evil x"), False, ""),
        ("tag-verbatim", valid.replace("title: Probe", "title: !<tag:x.y,2000:z> x"),
         False, ""),
        ("float-nan-inf", valid.replace("default: 3,", "default: .nan,").replace(
            "min: 1,", "min: -.inf,"), False, ""),
        ("int-hex-octal", valid.replace("default: 3,", "default: 0x3,").replace(
            "max: 9,", "max: 0o11,"), False, ""),
        ("int-200k-digits", valid.replace("tabletop: 1", "tabletop: " + "9" * 200000),
         False, "a 200,000-digit number"),
        ("int-5000-digits", valid.replace("default: 3,", "default: " + "7" * 5000 + ","),
         False, ""),
        ("float-1e999", valid.replace("default: 3,", "default: 1e999,"), False, ""),
        ("key-complex", "? [a, b]\n: 1\n" + valid, False, ""),
        ("key-flow-list", "[a, b]: 1\n" + valid, False, ""),
        ("key-null", "~: 1\n" + valid, False, ""),
        ("key-bool-int", valid + "true: 1\n3: x\n", False, ""),
        ("key-100k", "k" * 100000 + ": 1\n", False, ""),
        ("line-1mb", "a: " + "x" * 1_000_000 + "\n", False, ""),
        ("file-3mb", "# " + "x" * 3_000_000 + "\n" + valid, False, "over the file limit"),
        ("values-300k", "a: [" + "1," * 300000 + "1]\n", False,
         "more values than the limit, in less than a megabyte"),
        ("keys-60k", "".join(f"k{i}: {i}\n" for i in range(60000)), False, ""),
        ("unclosed-flow", valid.replace("{n: ", "{n: [", 1), False, ""),
        ("unclosed-quote", valid.replace('"[1]"', '"[1]'), False, ""),
        ("unclosed-single", "a: 'abc\nb: 1\n", False, ""),
        ("bad-escape", valid.replace('"[1]"', '"\\q[1]"'), False, ""),
        ("escaped-surrogate", valid.replace('"[1]"', '"\\ud800"'), False, ""),
        ("escaped-nul", valid.replace('"[1]"', '"[1]\\0"'), False, ""),
        ("block-bad-indicator", "a: |9\n  x\n", False, ""),
        ("block-bad-chomp", "a: >-+\n  x\n", False, ""),
        ("block-empty-big-indent", "a: |\n" + " " * 5000 + "x\n", False, ""),
        ("colon-soup", ": : :\n- - -\n? ? ?\n", False, ""),
        ("anchor-only", "&a\n", False, ""),
        ("reserved-chars", valid.replace("title: Probe", "title: @Probe `x`"), False, ""),
        ("indent-off-by-one", valid.replace("\n  - {id: board", "\n   - {id: board"), False,
         ""),
        ("list-in-map", valid.replace("turn:\n", "turn:\n- a\nb: 1\n"), False, ""),
        ("wrong-shape-game-list", valid.replace("game: {", "game: [").replace(
            "summary: A probe.}", "summary: A probe.]"), False, ""),
        ("wrong-shape-everything-null", "".join(
            re.sub(r"^(\w+):.*$", r"\1: null", line) for line in lines), False, ""),
    ]
    return out


def yaml_probes() -> list[Probe]:
    probes = []
    for name, content, issue, note in yaml_inputs():
        probes.append(Probe(f"yaml/{name}", "yaml", ("validate", "r.yaml"), {"r.yaml": content},
                            located="r.yaml", issue=issue, note=note))
        if name in ("line-1mb", "file-3mb"):  # too large to read: the file is the place
            probes[-1].located, probes[-1].mentions = None, ("r.yaml",)
    # the same inputs through other doors: run, list, test, docs
    chosen = ["billion-laughs", "nested-500-lists", "directive-after-value",
              "directive-after-end", "bytes-ff-line-5", "tag-python-apply", "bytes-utf16le",
              "empty", "values-300k", "line-cr-only"]
    inputs = {name: content for name, content, _, _ in yaml_inputs()}
    for name in chosen:
        content = inputs[name]
        probes.append(Probe(f"yaml/run/{name}", "yaml", ("run", "r.yaml"), {"r.yaml": content},
                            located="r.yaml", forbid=("PWNED",)))
    for name in chosen[:6]:
        content = inputs[name]
        probes.append(Probe(f"yaml/list/{name}", "yaml", ("list",),
                            {"games/r.yaml": content}, env={"TABLETOP_RULESETS": "games"},
                            forbid=("PWNED",), note="a bundled folder holding a bad file"))
        probes.append(Probe(f"yaml/tests-file/{name}", "yaml", ("test", "r.tests.yaml"),
                            {"r.tests.yaml": content, "r.yaml": _valid()},
                            located="r.tests.yaml"))
    probes.append(Probe("yaml/tests-file-ruleset-passwd", "yaml", ("validate", "r.tests.yaml"),
                        {"r.tests.yaml": "ruleset: /etc/passwd\ncases: []\n"},
                        forbid=("root:x:",), located="r.tests.yaml"))
    probes.append(Probe("yaml/tests-file-ruleset-dotdot", "yaml", ("test", "r.tests.yaml"),
                        {"r.tests.yaml": "ruleset: ../../../../../../etc/passwd\n"
                         "cases: [{name: a, seed: 1}]\n"}, located="r.tests.yaml",
                        note="the error should point at the tests file's `ruleset:`"))
    probes.append(Probe("yaml/tests-file-ruleset-dev-zero", "yaml", ("test", "r.tests.yaml"),
                        {"r.tests.yaml": "ruleset: z.yaml\ncases: [{name: a, seed: 1}]\n",
                         "z.yaml": Symlink("/dev/zero")}, located="r.tests.yaml"))
    probes.append(Probe("yaml/symlink-dev-zero", "yaml", ("validate", "z.yaml"),
                        {"z.yaml": Symlink("/dev/zero")}))
    probes.append(Probe("yaml/symlink-dev-urandom", "yaml", ("run", "z.yaml"),
                        {"z.yaml": Symlink("/dev/urandom")}))
    probes.append(Probe("yaml/directory-named-yaml", "yaml", ("validate", "d.yaml"),
                        {"d.yaml": None}))
    probes.append(Probe("yaml/docs-bad-file", "yaml", ("docs", "--out", "out"),
                        {"games/r.yaml": BILLION_LAUGHS}, env={"TABLETOP_RULESETS": "games"}))
    return probes


# -- schema: mutated bundled rulesets -----------------------------------------------------

KEY_LINE = re.compile(r"^(\s*)(- )?([A-Za-z_][\w-]*|\"[^\"\n]*\"|'[^'\n]*')\s*:(?=\s|$)")
VALUE_LINE = re.compile(r"^(\s*(?:- )?[A-Za-z_][\w-]*\s*:[ \t]+)(\S.*)$")
WORD = re.compile(r"(?<![\w-])[a-z_][a-z0-9_]{2,}(?![\w-])")
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")

WRONG_VALUES = [
    "[1, 2]", "{a: 1}", "'text'", "true", "-5", "null", "3.5", "99999999999999999999",
    "''", "[]", "{}", "0", "1e999", "!!binary aGVsbG8=", "[[[[[]]]]]", "'{0.__class__}'",
    "\"{x:>999999999}\"", "&anchor 1", "*nope", "-1e308", ".nan", "'%s%s%s%s'",
    "\"\\u0000\"", "[null, null]", "{? [a] : b}", "'  '", "'" + "x" * 5000 + "'",
    "\"abs('x')\"", "\"[a for a in range(100000) for b in range(100000)]\"",
    "\"roll(100000000000000000000)\"", "\"'x' * 1000000000\"", "\"not \" ",
]
JUNK_LINES = [
    "}{", ": : :", "- - -", "\t", "key with spaces: [unclosed", "'unterminated",
    "&anchor", "*undefined_alias", "!!python/object/apply:os.system ['echo PWN''ED']",
    "%YAML 1.2", "---", "...", "? complex", "<<: *x", "@at", "`back", "|", "\x00", "\u202e",
    "x" * 10000, "[" * 200, "{" * 200, "a: &a [*a]", "- " * 100 + "x", "#" * 5000,
    "   \t   - : [", "\"\\", "!!str", "!", "&a *a", "~: ~", "[]: []", "? ? ?", "= = =",
]
BAD_BYTES = [b"\xff", b"\x00", b"\xc3\x28", b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\x80",
             b"\xfe\xff", b"\x1b[31m", b"\r", b"\xc2\x85", b"\xe2\x80\xa8", b"\xf4\x90\x80\x80",
             b"\xc0\x80", b"\x7f", b"\xf0\x9f"]
MUTATIONS = ["delete_key", "wrong_type", "rename_ref", "junk_line", "junk_inline", "truncate",
             "bad_bytes", "duplicate_line", "indent", "swap_lines", "number", "expression"]


def _typo(word: str, rng: random.Random) -> str:
    how = rng.randrange(7)
    i = rng.randrange(len(word))
    if how == 0:
        return word[:i] + word[i + 1:] or word + "x"
    if how == 1 and len(word) > 1:
        i = min(i, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if how == 2:
        return word[:i] + word[i] + word[i:]
    if how == 3:
        return word + "s"
    if how == 4:
        return word.capitalize()
    if how == 5:
        return word.replace("o", "\u043e", 1) if "o" in word else word + "\u0301"
    return word[:i] + "_" + word[i:]


def _block_end(lines: list[str], i: int) -> int:
    """The index after line i's block (the lines indented more than it)."""
    indent = len(lines[i]) - len(lines[i].lstrip(" "))
    if lines[i].lstrip().startswith("- "):
        indent += 1
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or
                              len(lines[j]) - len(lines[j].lstrip(" ")) > indent):
        j += 1
    return j


def mutate(text: str, kind: str, rng: random.Random) -> str | bytes:
    """One mutation of a ruleset's text; the result is text, or bytes for bad bytes."""
    lines = text.splitlines(keepends=True)
    keyed = [i for i, line in enumerate(lines) if KEY_LINE.match(line)]
    valued = [i for i, line in enumerate(lines) if VALUE_LINE.match(line.rstrip("\n"))
              and not line.lstrip().startswith("#")]
    if kind == "delete_key":
        i = rng.choice(keyed)
        m = KEY_LINE.match(lines[i])
        assert m is not None
        j = _block_end(lines, i)
        if m.group(2):  # a list item's first key: keep the dash and the item's other keys
            rest = lines[i + 1:j]
            dash = m.group(1) + ("-\n" if rest else "- {}\n")
            return "".join(lines[:i]) + dash + "".join(rest) + "".join(lines[j:])
        return "".join(lines[:i] + lines[j:])
    if kind == "wrong_type":
        i = rng.choice(valued)
        m = VALUE_LINE.match(lines[i].rstrip("\n"))
        assert m is not None
        lines[i] = m.group(1) + rng.choice(WRONG_VALUES) + "\n"
        return "".join(lines)
    if kind == "rename_ref":
        words = [m for m in WORD.finditer(text)]
        counts: dict[str, int] = {}
        for m in words:
            counts[m.group()] = counts.get(m.group(), 0) + 1
        repeated = [m for m in words if counts[m.group()] > 1]
        m = rng.choice(repeated)
        return text[:m.start()] + _typo(m.group(), rng) + text[m.end():]
    if kind == "junk_line":
        i = rng.randrange(len(lines) + 1)
        indent = " " * rng.choice([0, 2, 4, 6, 8])
        return "".join(lines[:i]) + indent + rng.choice(JUNK_LINES) + "\n" + "".join(lines[i:])
    if kind == "junk_inline":
        i = rng.randrange(len(text))
        junk = rng.choice(["{", "}", "[", "]", ":", ",", "'", '"', "&", "*", "!", "|", ">",
                           "%", "@", "`", "#", "\t", "\\", "{{", "}}", "- ", "? "])
        return text[:i] + junk + text[i:]
    if kind == "truncate":
        data = text.encode()
        return data[:rng.randrange(len(data))]
    if kind == "bad_bytes":
        data = text.encode()
        i = rng.randrange(len(data) + 1)
        return data[:i] + rng.choice(BAD_BYTES) + data[i:]
    if kind == "duplicate_line":
        i = rng.choice(keyed)
        j = _block_end(lines, i)
        return "".join(lines[:j] + lines[i:j] + lines[j:])
    if kind == "indent":
        i = rng.choice(keyed)
        change = rng.choice([" ", "  ", "\t", "-1", "-2"])
        if change.startswith("-"):
            lines[i] = lines[i][int(change[1:]):] if lines[i].startswith(" ") else " " + lines[i]
        else:
            lines[i] = change + lines[i]
        return "".join(lines)
    if kind == "swap_lines":
        i = rng.randrange(max(len(lines) - 1, 1))
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
        return "".join(lines)
    if kind == "number":
        numbers = list(NUMBER.finditer(text))
        m = rng.choice(numbers)
        new = rng.choice(["0", "-1", "100000000", "99999999999999999999", "2.5", "1e400",
                          "-9007199254740993", "10000000", "0x10", "1_000", "3000"])
        return text[:m.start()] + new + text[m.end():]
    if kind == "expression":
        # break an operator or a call inside an expression-bearing line
        candidates = [i for i in valued if re.search(r"[()+\-<>=\[\]]", lines[i])]
        i = rng.choice(candidates or valued)
        line = lines[i]
        spots = [m.start() for m in re.finditer(r"[()+\-<>=\[\],]", line)] or [len(line) - 1]
        k = rng.choice(spots)
        junk = rng.choice(["(", ")", "((", " + ", " not ", " if ", ".", "[", "**", "lambda ",
                           "__class__", "1/0", " for ", ":=", "...", "'", "~", "@"])
        lines[i] = line[:k] + junk + line[k:]
        return "".join(lines)
    raise ValueError(kind)


@dataclass
class Mutant:
    name: str
    source: str
    kind: str
    file: str
    content: str | bytes


@cache
def mutants(seed: int = SEED, per_ruleset: int = 50, per_tests_file: int = 15) -> list[Mutant]:
    """Mutated bundled rulesets (and scenario-test files), the same every time."""
    out = []
    for path in sorted(RULESETS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        is_tests = path.name.endswith(".tests.yaml")
        stem = path.name[: -len(".tests.yaml")] if is_tests else path.stem
        n = per_tests_file if is_tests else per_ruleset
        for i in range(n):
            kind = MUTATIONS[i % len(MUTATIONS)]
            rng = random.Random(f"{seed}:{path.name}:{i}")
            content = mutate(text, kind, rng)
            tag = "tests" if is_tests else "rules"
            file = f"m-{stem}.tests.yaml" if is_tests else f"m-{stem}.yaml"
            out.append(Mutant(f"{stem}-{tag}-{i:03d}-{kind}", path.name, kind, file, content))
    return out


def mutant_probe(m: Mutant, i: int) -> Probe:
    if m.file.endswith(".tests.yaml"):
        args: tuple[str, ...] = ("validate", m.file) if i % 4 else ("test", m.file)
    else:
        args = ("validate", m.file) if i % 3 != 2 else ("run", m.file, "--seed", str(i))
    return Probe(f"schema/{m.name}", "schema", args, {m.file: m.content}, located=m.file,
                 forbid=("PWNED",), note=f"{m.kind} in {m.source}")


def schema_probes() -> list[Probe]:
    probes = [mutant_probe(m, i) for i, m in enumerate(mutants())]
    high_rise = (RULESETS / "high-rise.yaml").read_text(encoding="utf-8")
    typo = re.sub(r"^  - id: cols$", "  - id: columns", high_rise, flags=re.M)
    probes.append(Probe("schema/high-rise-option-typo-cols", "schema", ("validate", "x.yaml"),
                        {"x.yaml": typo}, located="x.yaml", issue=True,
                        note="a typo'd option used in a board size or piece count"))
    rows_typo = re.sub(r"^  - id: rows$", "  - id: row", high_rise, flags=re.M)
    probes.append(Probe("schema/high-rise-option-typo-rows-run", "schema", ("run", "x.yaml"),
                        {"x.yaml": rows_typo}, located="x.yaml"))
    return probes


# -- expressions ----------------------------------------------------------------------------

DIGITS_400 = "9" * 400
DIGITS_5000 = "9" * 5000

HOSTILE_EXPRESSIONS = [
    # wrong types for the built-ins
    "abs('x')", "range('a')", "range(2.5)", "range(-5)", "sum(['a'])", "sum([[1]])",
    "value_name([1])", "one_of_each_kind([999999])", "one_of_each_kind(['a'])",
    "next_seat('a')", "next_seat(0)", "distinct([[1, [2]]])", f"{DIGITS_400} / 3",
    f"str({DIGITS_5000})", "piece_name(-1)", "place_of(-1)", "top(-1)", "top(99999)",
    "top('nowhere')", "place('zz99')", "offset(place('a1'), 'q')",
    "offset(place('a1'), 'n', 9007199254740991)", "neighbours(place('a1'), 5)", "count(5)",
    "len(true)", "min([])", "max([1, 'a'])", "sorted([1, 'a'])", "sorted([[1], 2])",
    "first(5)", "without(5, 1)", "without([1], [[1, [2]]])", "join([1, [2]], 5)",
    "seat_name(99)", "dir_name(3)", "row(pile)", "col(5)", "zone_of(-1)", "owner('q')",
    "place_name([1])", "piece_code('x')", "random_int(5, 1)", "roll(0)", "roll('x')",
    "shuffled(5)", "cells(5)", "pieces(5.5)", "pieces([99999])", "stack(null)", "above(-5)",
    "below('x')", "repeat(1, -5)", "repeat(1, 'a')", "any(5)", "all([1, [2]])",
    "zone_of_piece('x')", "height([1])", "empty(2.5)", "min(1, [2])", "max(null, 1)",
    # operators
    "'%y' % 1", "'%c' % 99999999", "'%s' % [1]", "'%(a)s' % 1", "'%*d' % 5",
    "'%.999999999f' % 1.5", "'%999999999d' % 1", "'x' * -1", "'x' * 2.5", "[1] * 3",
    "1 / 0", "1 // 0", "1 % 0", "1.0 / 0.0", "1e308 * 10", "1e400", "-1e308 * 1e308",
    "0.1 + 'a'", "[] + 1", "'a' < 1", "[1] < ['a']", "null < 1", "null + 1", "- 'x'",
    "not xs", "'a' in 5", "5 in 'a'", "[1] in 'abc'", "[[1]] + [[[1]]]", "-(-9007199254740991)",
    "9007199254740991 + 1", "0.1 + 0.2 == 0.3", "1e-400", "2 % -0.0", "-0.0 // 1",
    # attributes and indexing
    "null.colour", "top(pile).nosuch", "(1).colour", "xs[99]", "xs[-99]", "xs['a']",
    "xs[0.5]", "'abc'[5]", "hand[0]", "hand[99]", "hand['x']", "board[1]", "v.colour",
    "xs.colour", "xs[9007199254740991]", "hand[-1]", "current.colour", "xs[true]",
    # not the language at all
    "__import__('os')", "().__class__", "lambda: 1", "{1: 2}", "{1}", "(y := 1)",
    "f'{1}'", "b'x'", "1j", "...", "[*xs]", "xs[1:2]", "xs[::-1]", "'a' if 1 else",
    "yield 1", "await xs", "print(1)", "open('/etc/passwd')", "xs.append(1)",
    "''.join(['a'])", "(1, 2)", "1 if 2", "x for x in xs", "[x for x in xs for y in 5]",
    "sum(x for x in 5)", "a.b.c.d", "1 < 2 < 'a'", "not", "", "   ", "#", "'", "\\",
    "\x00", "\u202e1", "１ + １", "True", "None", "import os", "@", "xs @ xs", "1 << 70",
    "~1", "1 ** 2", "1 & 2", "1 is 1", "1 is not null", "xs[0] = 1", "del xs",
]

PLACEMENTS = ["setup", "let", "where", "say", "end", "label", "for", "define", "if", "initial"]


def placed(expr: str, where: str) -> str:
    """The base ruleset with `expr` placed at `where`."""
    if where == "setup":
        return ruleset(SETUP=in_setup(f"- let: {{y: {q(expr)}}}"))
    if where == "let":
        return ruleset(DO=in_do(f"- let: {{y: {q(expr)}}}"))
    if where == "where":
        return ruleset(WHERE=q(expr))
    if where == "say":
        return ruleset(DO=in_do(f"- say: {q('{' + expr + '}')}"))
    if where == "end":
        return ruleset(END=q(expr))
    if where == "label":
        return ruleset(LABEL=q("Go {n} {" + expr + "}"))
    if where == "for":
        return ruleset(FOR=q(expr))
    if where == "define":
        return ruleset(DEFINE=f"  probe_value: {q(expr)}",
                       SETUP=in_setup("- let: {y: probe_value}"))
    if where == "if":
        return ruleset(SETUP=in_setup(f"- if: {q(expr)}\n  then: [{{let: {{y: '1'}}}}]"))
    if where == "initial":
        return ruleset(INITIAL=q(expr))
    raise ValueError(where)


def expression_probes() -> list[Probe]:
    probes = []
    for i, expr in enumerate(HOSTILE_EXPRESSIONS):
        wheres = [PLACEMENTS[i % len(PLACEMENTS)]]
        if i % 2 == 0:
            wheres.append(PLACEMENTS[(i + 3) % len(PLACEMENTS)])
        short = re.sub(r"[^A-Za-z0-9]+", "_", expr)[:40].strip("_") or "blank"
        for where in wheres:
            probes.append(Probe(f"expressions/{i:03d}-{short}@{where}", "expressions",
                                run_args(), {RULESET: placed(expr, where)}, located=RULESET,
                                decision=True,
                                forbid=(*PYTHON_LEAKS, "root:x:"), note=expr[:80]))
    return probes


# -- budgets --------------------------------------------------------------------------------

def budget_probe(name: str, text: str, budgets: tuple[str, ...], issue: bool = False,
                 args: tuple[str, ...] | None = None, note: str = "",
                 file: str = RULESET) -> Probe:
    return Probe(f"budgets/{name}", "budgets", args or run_args(file), {file: text},
                 located=file, budget=budgets, must_fail=True, decision=True, issue=issue,
                 note=note)


STEPS = ("steps_for_setup", "steps_per_decision", "steps_per_game")
NESTING = " ".join(["not"] * 3000) + " true"


def budget_probes() -> list[Probe]:
    P = budget_probe
    setup = lambda e: ruleset(SETUP=in_setup(e))  # noqa: E731
    let = lambda expr: setup(f"- let: {{y: {q(expr)}}}")  # noqa: E731
    loop = lambda body: setup("- while: 'true'\n  do:\n" + "\n".join(  # noqa: E731
        "    " + line for line in body.splitlines()))
    turn_do = lambda e: ruleset(DO=in_do(e), END=q("turn >= 100000"))  # noqa: E731
    big_caldera = (RULESETS / "caldera.yaml").read_text(encoding="utf-8").replace(
        "height(origin) > 0 and can_land", "height(origin) > 3000 and can_land")
    places_1000 = ruleset(SLOTS="1000", SETUP=in_setup(
        "- arrange: repeat(1, 1000)\n  into: cells(field)\n  where: 'false'\n  as: q"))
    places_1000b = ruleset(SLOTS="1000", SETUP=in_setup(
        "- arrange: range(1000)\n  into: cells(field)\n"
        "  where: all(assigned[n] != value for n in cells(field))\n  as: q"))
    probes = [
        P("roll-1e20", let("roll(100000000000000000000)"), ("largest_number",), True),
        P("random-int-over-2-64", let("random_int(0, 18446744073709551617)"),
          ("largest_number",), True),
        P("random-int-2-64-computed", setup(
            "- let: {a: '4294967296'}\n- let: {y: 'random_int(0, a * a)'}"),
          ("largest_number",), True),
        P("roll-computed-huge", setup(
            "- let: {a: '9007199254740991'}\n- let: {y: 'roll(a + a)'}"),
          ("largest_number",)),
        P("comprehension-1e10-if-false",
          let("[a for a in range(100000) for b in range(100000) if false]"), STEPS, True),
        P("any-1e10", let("any(false for a in range(100000) for b in range(100000))"), STEPS,
          True),
        P("all-1e10", let("all(true for a in range(100000) for b in range(100000))"), STEPS),
        P("sum-1e10", let("sum(1 for a in range(100000) for b in range(100000) if false)"),
          STEPS),
        P("in-range-1e10", let("len([x for x in range(100000) if x in range(100000)])"),
          STEPS),
        P("count-1e10", let("count([1 for a in range(100000) for b in range(100000)])"),
          (*STEPS, "list_length")),
        replace(P("option-for-1e10-where-false", ruleset(
            FOR=q("range(100000)"), WHERE=q("false"),
            DO="", NOTATION=q("go{n}")).replace(
            "for: {n: \"range(100000)\"}", "for: {n: \"range(100000)\", m: \"range(100000)\"}"),
          STEPS, True), must_fail=False,
          note="a where of neither name is tested before the loops: no option, at once"),
        P("option-for-1e10-where-both", ruleset(
            FOR=q("range(100000)"), WHERE=q("n + m < 0"),
            DO="", NOTATION=q("go{n}")).replace(
            "for: {n: \"range(100000)\"}", "for: {n: \"range(100000)\", m: \"range(100000)\"}"),
          STEPS),
        P("option-for-3-lists", ruleset(FOR=q("range(1000)"), WHERE=q("n + m + k < 0")).replace(
            "for: {n: \"range(1000)\"}",
            "for: {n: \"range(1000)\", m: \"range(1000)\", k: \"range(1000)\"}"), STEPS),
        P("arrange-1000-places-where-false", places_1000, (*STEPS, "arrange"), True),
        replace(P("arrange-1000-places-all-different", places_1000b, (*STEPS, "arrange")),
                must_fail=False, note="heavy but within the budgets: it may succeed"),
        P("join-repeat-99999", let("join(repeat('x' * 99999, 99999), '')"),
          ("text_length", *STEPS), True),
        P("join-repeat-x-times", let("join(repeat(join(repeat('x', 99999), ''), 99999), '')"),
          ("text_length", *STEPS)),
        P("str-repeat", let("str(repeat('x' * 99999, 99999))"), ("text_length", *STEPS),
          True),
        P("str-repeat-joined", let("str(repeat(join(repeat('x', 99999), ''), 99999))"),
          ("text_length", *STEPS)),
        P("text-times-1e9", let("'x' * 1000000000"), ("text_length",)),
        P("text-times-squared", setup(
            "- let: {t: \"'x' * 99999\"}\n- let: {y: 't * 99999'}"), ("text_length",)),
        P("str-range", let("str(range(100000))"), ("text_length", *STEPS)),
        P("join-range", let("join([str(x) for x in range(100000)], '')"),
          ("text_length", *STEPS)),
        P("text-plus-loop", loop("- let: {x: 'x + x'}").replace(
            "  - let: {x: \"1\"}", "  - let: {x: \"'ab'\"}"), ("text_length", *STEPS)),
        P("set-doubles-list-each-turn", turn_do("- set: xs\n  value: xs + xs"),
          ("list_length",), True),
        P("set-doubles-list-in-loop", loop("- set: xs\n  value: xs + xs"), ("list_length",)),
        P("let-doubles-list-in-loop", setup(
            "- let: {l: '[1]'}\n- while: 'true'\n  do:\n    - let: {l: 'l + l'}"),
          ("list_length", *STEPS)),
        P("set-nests-list-each-turn", turn_do("- set: xs\n  value: '[xs]'"),
          ("list", "nest", "deep")),
        P("number-squared-in-loop", loop("- set: v\n  value: v * v + 1"),
          ("largest_number",), True),
        P("number-squared-each-turn", turn_do("- set: v\n  value: v * v + 2"),
          ("largest_number",), True),
        P("number-doubled-add", loop("- add: v\n  amount: v"), ("largest_number",)),
        P("float-squared-in-loop", loop("- set: v\n  value: v * v + 1.5"),
          ("largest_number",)),
        P("float-literal-too-large", let("1e300 * 1e300"), ("largest_number",)),
        P("say-100kb-in-loop", loop("- say: " + q("{join(repeat('x', 100000), '')}")),
          ("text_length", *STEPS), True),
        P("say-99999-literal-in-loop", loop("- say: " + q("x" * 99999)), STEPS, True),
        P("say-long-each-turn", turn_do(
            "- say: " + q("{join(repeat('x', 99999), '')}")), STEPS),
        P("piece-count-1e8", ruleset(COUNT="100000000"), ("pieces",), True),
        P("piece-count-expression", ruleset(COUNT=q("size * 99999999")), ("pieces",)),
        P("piece-count-huge", ruleset(COUNT="99999999999999999999999"), ("pieces",
                                                                          "largest_number")),
        P("piece-each-1e6", ruleset().replace(
            "    size: {values: [1, 2], names: {1: small, 2: big}}",
            "    size: {values: [" + ", ".join(str(i) for i in range(1, 1001)) + "]}\n"
            "    shade: {values: [" + ", ".join(str(i) for i in range(1, 1001)) + "]}").replace(
            "each: {colour: [red, blue], size: [1, 2]}",
            "each: {colour: [red, blue], size: [" + ", ".join(str(i) for i in range(1, 1001))
            + "], shade: [" + ", ".join(str(i) for i in range(1, 1001)) + "]}"),
          ("pieces",)),
        P("slots-size-1e8", ruleset(SLOTS="100000000"), ("places",), True),
        P("grid-rows-1e7", ruleset(ROWS="10000000"), ("places",), True),
        P("grid-rows-cols-1e5", ruleset(ROWS="100000").replace("cols: size", "cols: 100000"),
          ("places",)),
        P("per-seat-grid-huge", ruleset().replace(
            "{id: hand, kind: pile, per_seat: true}",
            "{id: hand, kind: pile, per_seat: true}\n"
            "  - {id: mats, kind: grid, rows: 3000, cols: 3000, per_seat: true}"),
          ("places",)),
        P("while-true-setup", loop("- add: v\n  amount: 0"), STEPS),
        P("while-true-turn", turn_do("- while: 'true'\n  do: [{let: {z: '1'}}]"), STEPS),
        P("repeat-until-false", setup("- repeat: [{let: {z: '1'}}]\n  until: 'false'"),
          STEPS),
        P("procedure-recursion", ruleset(PROCEDURES="  - id: again\n    do:\n"
                                         "      - call: again",
                                         SETUP=in_setup("- call: again")),
          (*STEPS, "deep", "recurs", "nest")),
        P("procedure-mutual-recursion", ruleset(
            PROCEDURES="  - id: ping\n    do: [{call: pong}]\n"
                       "  - id: pong\n    do: [{call: ping}]",
            SETUP=in_setup("- call: ping")), (*STEPS, "deep", "recurs", "nest")),
        P("trigger-ping-pong", ruleset(
            TRIGGERS="  - id: back\n    enters: pile\n    do:\n"
                     "      - move: piece\n        to: field_first\n"
                     "  - id: forth\n    enters: field\n    do:\n"
                     "      - move: piece\n        to: pile",
            DEFINE="  field_first: first(cells(field))",
            SETUP=in_setup("- move: top(pile)\n  to: field_first")),
          (*STEPS, "trigger", "deep")),
        P("retry-until-false-heavy", setup(
            "- retry: [{let: {z: 'len(range(100000))'}}]\n  until: 'false'\n"
            "  max_tries: 100000"), (*STEPS, "retry", "tries")),
        P("for-each-nested-1e10", setup(
            "- for_each: a\n  in: range(100000)\n  do:\n    - for_each: b\n"
            "      in: range(100000)\n      do: []"), STEPS),
        P("turns-never-end", with_turn(ruleset(END=q("false")),
                                       in_setup("- add: v\n  amount: 1")),
          ("turns_per_game",)),
        P("turns-never-end-no-effects", with_turn(ruleset(END=q("false")),
                                                  in_setup("- let: {z: '1'}")),
          ("turns_per_game",)),
        P("decisions-never-end", ruleset(END=q("false"), TURN=in_setup(
            "- repeat:\n    - choose: pick\n      options:\n"
            "        - {id: a, notation: a}\n  until: 'false'")),
          ("decisions_per_game", "steps_per_game", "turns_per_game"), True,
          note="counted budgets must bound time: 200,000 cheap decisions"),
        P("caldera-height-3000", big_caldera, ("steps_per_game", "decisions_per_game"), True,
          file="mutant.yaml", note="each decision slower until the budget, after hours"),
        P("tiny-steps-budget", ruleset(BUDGETS="budgets: {steps_per_decision: 1}"), STEPS),
        P("tiny-list-budget", ruleset(BUDGETS="budgets: {list_length: 1}",
                                      SETUP=in_setup("- let: {y: 'pieces(pile)'}")),
          ("list_length",)),
        P("tiny-text-budget", ruleset(BUDGETS="budgets: {text_length: 3}"), ("text_length",)),
        P("tiny-pieces-budget", ruleset(BUDGETS="budgets: {pieces: 1}"), ("pieces",)),
        P("tiny-places-budget", ruleset(BUDGETS="budgets: {places: 1}"), ("places",)),
        P("tiny-number-budget", ruleset(BUDGETS="budgets: {largest_number: 1}",
                                        SETUP=in_setup("- let: {y: '1 + 1'}")),
          ("largest_number",)),
        P("tiny-decisions-budget", ruleset(BUDGETS="budgets: {decisions_per_game: 2}"),
          ("decisions_per_game",)),
        P("tiny-turns-budget", ruleset(BUDGETS="budgets: {turns_per_game: 2}"),
          ("turns_per_game",)),
        P("not-3000", let(NESTING), ("nest", "deep", "level"), True),
        P("plus-2000", let("+".join(["1"] * 2000)), ("nest", "deep", "level", "long"), True),
        P("minus-20000", let("-" * 20000 + "1"), ("nest", "deep", "level", "long"), True),
        P("parens-1000", let("(" * 1000 + "1" + ")" * 1000), ("nest", "deep", "level")),
        P("lists-1000", let("[" * 1000 + "]" * 1000), ("nest", "deep", "level")),
        P("ifexp-1000", let("1 if true else " * 1000 + "1"), ("nest", "deep", "level")),
        P("attributes-5000", let("xs" + ".a" * 5000), ("nest", "deep", "level", "long")),
        P("calls-500", let("abs(" * 500 + "1" + ")" * 500), ("nest", "deep", "level")),
        P("compare-chain-6000", let(" < ".join(["1"] * 6000)), ("nest", "deep", "level",
                                                                "long")),
        P("and-chain-6000", let(" and ".join(["true"] * 3000)), ("nest", "deep", "level",
                                                                 "long")),
        P("expression-21000-chars", let("[" + "1, " * 7000 + "1]"), ("long",)),
        P("text-literal-100k", let("'" + "x" * 100000 + "'"), ("long", "text_length")),
        P("template-20-huge-parts", ruleset(DO=in_do(
            "- say: " + q("{join(repeat('x', 99999), '')}" * 20))), ("text_length", *STEPS)),
        P("not-3000-in-template", ruleset(LABEL=q("{" + NESTING + "}")),
          ("nest", "deep", "level"), True),
        P("not-3000-in-define", ruleset(DEFINE=f"  deep_one: {q(NESTING)}",
                                        SETUP=in_setup("- let: {y: deep_one}")),
          ("nest", "deep", "level"), True),
        *shared_value_probes(setup, turn_do),
        *inlining_probes(),
    ]
    return probes


SHARED_ROWS = "repeat(range(100000), 100000)"
"""100,000 references to one row of 100,000: each list within list_length, 10^10
values as if unshared."""

NESTED_TEXT = "repeat(repeat('x' * 99999, 99999), 2)"
"""Two references to one list of 99,999 references to one text of 99,999 characters:
written out, 20 billion characters."""


DOUBLE = "  d(x): '[x, x]'\n  e(x): '[x, x]'"
"""Two definitions that double a value by sharing it: sixty calls, 2^60 values."""
D60, E60 = "d(" * 60 + "1" + ")" * 60, "e(" * 60 + "1" + ")" * 60

SHARED_COMPARISONS = {
    "equal": f"{D60} == {E60}", "in": f"{D60} in [{E60}]", "less": f"{D60} < {E60}",
    "distinct": f"distinct([{D60}])", "sorted": f"sorted([{D60}, {E60}])",
    "without": f"without([{D60}], [{E60}])", "max": f"max({D60}, {E60})",
}
"""Comparing two equal values of 2^60 values each went through all of them (a hang);
distinct() and without() built a key of each (out of memory)."""


def shared_value_probes(setup: Any, turn_do: Any) -> list[Probe]:
    """Values that share their parts (issue 38): sizes are counted as if unshared, and
    counting them costs their distinct parts, so each stops at a budget at once."""
    P = budget_probe
    doubling = "- repeat:\n    - set: xs\n      value: '[xs, xs]'\n  until: 'false'"
    let_doubling = ("- let: {l: '[1]'}\n- repeat:\n    - let: {l: '[l, l]'}\n"
                    "  until: 'false'")
    return [
        P("set-shared-rows", setup(f"- set: xs\n  value: {SHARED_ROWS}"), ("value_size",),
          note="the nesting check walked all 10^10 values (50 s and 2 GB for 10,000 "
                     "rows)"),
        P("set-shared-rows-10k", setup("- set: xs\n  value: repeat(range(100000), 10000)"),
          ("value_size",)),
        P("set-seat-shared-rows", setup(f"- set: score\n  seat: 1\n  value: {SHARED_ROWS}"),
          ("value_size",)),
        P("let-shared-rows", setup(f"- let: {{y: {q(SHARED_ROWS)}}}"), ("value_size",),
          note="a local is saved with a paused game"),
        P("for-each-shared-rows", setup(f"- for_each: row\n  in: {q(SHARED_ROWS)}\n"
                                        "  do: []"), ("value_size",)),
        P("initial-shared-rows", ruleset(INITIAL=q(SHARED_ROWS)), ("value_size",)),
        P("set-doubles-by-sharing", setup(doubling), ("value_size",),
          note="set xs = [xs, xs]: sharing doubles the size each time"),
        P("set-doubles-by-sharing-each-turn", turn_do("- set: xs\n  value: '[xs, xs]'"),
          ("value_size",)),
        P("let-doubles-by-sharing", setup(let_doubling), ("value_size",)),
        P("say-nested-list", ruleset(DO=in_do("- say: " + q("{" + NESTED_TEXT + "}"))),
          ("text_length",), note="built gigabytes before text_length was checked"),
        replace(P("label-nested-list", ruleset(LABEL=q("Go {n} {" + NESTED_TEXT + "}")),
                  ("text_length",), args=("play", RULESET, "--seed", "1")),
                stdin=PLAY_INPUT),
        P("notation-nested-list", ruleset(NOTATION=q("go{n}{" + NESTED_TEXT + "}")),
          ("text_length",)),
        P("end-game-nested-list", ruleset(TURN=in_setup(
            "- end_game: " + q("{" + NESTED_TEXT + "}"))), ("text_length",)),
        P("str-nested-list", setup(f"- let: {{y: {q(f'str({NESTED_TEXT})')}}}"),
          ("text_length", *STEPS)),
        P("join-nested-list", setup(f"- let: {{y: {q(f'join({NESTED_TEXT}, {chr(39) * 2})')}}}"),
          ("text_length", *STEPS)),
        *[P(f"compare-shared-{name}", ruleset(DEFINE=DOUBLE, SETUP=in_setup(
            f"- let: {{y: {q(expr)}}}")), STEPS, note="2^60 values each, two copies")
          for name, expr in SHARED_COMPARISONS.items()],
        P("compare-shared-in-where", ruleset(DEFINE=DOUBLE, WHERE=q(f"n > 0 and {D60} in [{E60}]")),
          STEPS, note="in an option's condition (its generated listing)"),
        P("option-for-shared", ruleset(DEFINE=DOUBLE, FOR=q(f"[{D60}]"), WHERE=q("true"),
                                       NOTATION=q("go"), LABEL=q("Go")), ("value_size",),
          note="an option's value is kept as a local name: unique_options hashed it all"),
        replace(P("option-let-shared", ruleset(DEFINE=DOUBLE, WHERE=q("true")).replace(
            "        where:", f"        let: {{big: {q('[' + D60 + ']')}}}\n        where:", 1),
            ("value_size",)), note="measured where the option is bound"),
        P("say-shared-doubling", setup(
            "- let: {l: '[1]', i: '0'}\n- repeat:\n    - let: {l: '[l, l]', i: 'i + 1'}\n"
            "  until: 'i >= 18'\n- say: '{[l, l, l, l]}'"), ("text_length",),
          note="2^18 values, kept; written out four times, a million characters"),
    ]


def _chain(levels: int) -> str:
    """Definitions f0 ... f{levels}, each calling the next twice: written out in place,
    2^levels copies of the last."""
    lines = [f"  f{i}(k): f{i + 1}(k) + f{i + 1}(k)" for i in range(levels)]
    return "\n".join([*lines, f"  f{levels}(k): k + 1"])


def inlining_probes() -> list[Probe]:
    """Definitions that call each other: compiling them takes time in proportion to
    the file, not to what they would be written out in full (issue 38)."""
    chain16 = ruleset(DEFINE=_chain(16), SETUP=in_setup("- let: {y: f0(1)}"))
    chain40 = ruleset(DEFINE=_chain(40), SETUP=in_setup("- let: {y: f0(1)}"))
    body = "[" + ", ".join(["k + 1", "k * 2", "k - 1", "k // 2"] * 4) + "]"
    calls = ruleset(DEFINE=f"  g(k): {q(body)}", SETUP=in_setup(
        f"- let: {{y: {q('[' + ', '.join(['g(x)'] * 3300) + ']')}}}"))

    def compiles(name: str, text: str, args: tuple[str, ...], note: str) -> Probe:
        return replace(budget_probe(name, text, STEPS, args=args), must_fail=False,
                       budget=(), decision=False, note=note)
    return [
        compiles("definitions-16-doubling-validate", chain16, ("validate", RULESET),
                 "1 KB: validate was killed at 30 s and 1.6 GB"),
        compiles("definitions-16-doubling-run", chain16, run_args(),
                 "runs f0(1): 65,536 additions, within the budgets"),
        compiles("definitions-16-doubling-compile", chain16, ("compile", RULESET),
                 "the generated code of every definition"),
        budget_probe("definitions-40-doubling-run", chain40, STEPS,
                     note="2^40 additions: the steps budget stops it"),
        compiles("definitions-small-called-3300-times", calls, ("validate", RULESET),
                 "a small definition called 3,300 times in one expression: written out "
                 "until the game's allowance is spent"),
    ]


# -- templates ------------------------------------------------------------------------------

TRICKS = [
    "{@V@.__class__.__mro__}", "{@V@.__class__}", "{@V@:>2000000000}", "{@V@!r}", "{@V@[0]}",
    "{@V@.__init__.__globals__}", "{0}", "{}", "{@V@:{@V@}}", "{@V@:%Y}",
    "{__import__('os').system('echo PWN''ED')}", "{@V@", "@V@}", "{{@V@}}", "%s %d %(x)s",
    "{'x' * 1000000}", "{" * 3000 + "@V@" + "}" * 3000, "{@V@}" * 20000, "{@V@:0>99999999}",
    "[bold]{@V@}[/bold] [link=file:///etc/passwd]x[/link] [/]", "\x1b[2J\x1b]0;t\x07{@V@}",
]

TEMPLATE_PLACES = {
    # place: (slot, variable in scope, command)
    "name": ("NAME", "colour", "play"),
    "notation": ("NOTATION", "n", "play"),
    "label": ("LABEL", "n", "play"),
    "say": ("DO", "current", "run"),
    "prompt": ("PROMPT", "current", "play"),
    "end_game": ("TURN", "current", "run"),
    "says": ("SAYS", "p", "docs"),
}


def template_ruleset(place: str, template: str) -> str:
    slot = TEMPLATE_PLACES[place][0]
    if place == "name":
        return ruleset(NAME=q(template), DO=in_do(
            "- say: " + q("{piece_name(top(hand[current]))} taken")))
    if place == "say":
        return ruleset(DO=in_do("- say: " + q(template)))
    if place == "end_game":
        return ruleset(TURN=in_setup("- if: 'turn >= 3'\n  then:\n    - end_game: "
                                     + q(template)))
    return ruleset(**{slot: q(template)})


PLAY_INPUT = "help\n" + "1\n" * 12
"""Enough picks for seat 1 to finish a game of the base ruleset (then `play` exits 0)."""


def template_args(command: str) -> tuple[tuple[str, ...], dict[str, str], Any]:
    if command == "play":
        return ("play", RULESET, "--seed", "1"), {}, PLAY_INPUT
    if command == "docs":
        return ("docs", "--out", "out"), {"TABLETOP_RULESETS": "."}, None
    return run_args(), {}, None


def template_probes() -> list[Probe]:
    probes = []
    for place, (_, var, command) in TEMPLATE_PLACES.items():
        for i, trick in enumerate(TRICKS):
            if i >= 12 and place not in ("name", "says", "say"):
                continue
            template = trick.replace("@V@", var)
            args, env, stdin = template_args(command)
            probes.append(Probe(f"templates/{place}-{i:02d}", "templates", args,
                                {RULESET: template_ruleset(place, template)}, env=env,
                                stdin=stdin, located=RULESET, forbid=PYTHON_LEAKS,
                                issue=i < 3 and place in ("name", "says"),
                                process="2000000000" in template or "99999999" in template,
                                note=f"{place}: {template[:60]!r}"))
    # values' names, short codes and styles are shown on boards and in names
    for i, trick in enumerate(TRICKS[:12]):
        text = trick.replace("@V@", "size")
        probes.append(Probe(f"templates/value-name-{i:02d}", "templates",
                            ("play", RULESET, "--seed", "1"),
                            {RULESET: ruleset(NAMES="{1: " + q(text) + ", 2: big}")},
                            stdin=PLAY_INPUT, located=RULESET, forbid=PYTHON_LEAKS,
                            note=f"value name {text[:40]!r}"))
    for i, style in enumerate(["nonsense", "[/]", "bold on", "link file:///etc/passwd",
                               "x" * 100000, "", "bold red on", "#zzzzzz", "color(999)",
                               "{0.__class__}"]):
        probes.append(Probe(f"templates/style-{i:02d}", "templates",
                            ("play", RULESET, "--seed", "1"),
                            {RULESET: ruleset(STYLES="{red: " + q(style) + ", blue: bold}")},
                            stdin=PLAY_INPUT, located=RULESET, forbid=PYTHON_LEAKS,
                            note=f"style {style[:30]!r}"))
    for i, short in enumerate(["{0}", "[/]", "", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "\x1b[2J",
                               "r"]):
        probes.append(Probe(f"templates/short-{i:02d}", "templates",
                            ("play", RULESET, "--seed", "1"),
                            {RULESET: ruleset().replace("short: {red: r, blue: b}",
                                                        "short: {red: " + q(short)
                                                        + ", blue: b}")},
                            stdin=PLAY_INPUT, located=RULESET, forbid=PYTHON_LEAKS,
                            note=f"short code {short!r}"))
    for i, title in enumerate(["{{ ''.__class__.__mro__ }}", "{% for x in range(10**9) %}x"
                               "{% endfor %}", "{{ 7*7 }}", "<script>alert(1)</script>",
                               "{0.__class__}", "{% include '/etc/passwd' %}"]):
        probes.append(Probe(f"templates/title-docs-{i:02d}", "templates",
                            ("docs", "--out", "out"),
                            {RULESET: ruleset(TITLE=q(title))}, env={"TABLETOP_RULESETS": "."},
                            located=RULESET, forbid=(*PYTHON_LEAKS, "root:x:"),
                            note=f"title {title[:40]!r}"))
    return probes


# -- save files -----------------------------------------------------------------------------

@cache
def caldera_hash() -> str:
    try:
        from interpreter.api import load

        return load("caldera").content_hash
    except Exception:  # the tree is being edited: the probes still run
        return "0" * 64


@cache
def other_hash() -> str:
    try:
        from interpreter.api import load

        return load("high-rise").content_hash
    except Exception:
        return "1" * 64


def save(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "tabletop-save", "version": 1, "game": "caldera",
        "ruleset_hash": caldera_hash(), "options": {"power_play": True}, "players": 2,
        "seed": 1, "seats": {"1": "human", "2": "random"}, "decisions": []}
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key, None)
        else:
            data[key] = value
    return data


_DROP = object()


def save_probe(name: str, content: Any, issue: bool = False, args: tuple[str, ...] = (),
               note: str = "", **kw: Any) -> Probe:
    if isinstance(content, dict):
        content = json.dumps(content, indent=1)
    return Probe(f"saves/{name}", "saves", args or ("play", "--load", "s.json"),
                 {"s.json": content}, mentions=("s.json",), stdin=kw.pop("stdin", ""),
                 forbid=("root:x:", "Traceback", *kw.pop("forbid", ())), issue=issue,
                 note=note, **kw)


def save_probes() -> list[Probe]:
    S = save_probe
    deep = "[" * 100000 + "]" * 100000
    probes = [
        S("valid", save(), note="the baseline: must work"),
        S("valid-with-decisions-wrong", save(decisions=[[1, "zz-zz"]])),
        S("decision-wrong-seat", save(decisions=[[2, "a5-se"]])),
        S("nested-100000", deep, True),
        S("nested-in-options", json.dumps(save())[:-1] + ', "x": ' + deep + "}", True),
        S("nested-options-deep", json.dumps(save(options={"power_play": True})).replace(
            '"power_play": true', '"power_play": ' + "[" * 5000 + "]" * 5000)),
        S("seed-5001-digits", json.dumps(save())[:-1].replace('"seed": 1',
                                                              '"seed": ' + "7" * 5001) + "}",
          True),
        S("seed-4301-digits", json.dumps(save()).replace('"seed": 1', '"seed": ' + "7" * 4301)),
        S("seed-101-digits", json.dumps(save()).replace('"seed": 1', '"seed": ' + "7" * 101)),
        S("seed-negative", save(seed=-1)),
        S("seed-float", save(seed=1.5)),
        S("seed-text", save(seed="1")),
        S("seed-true", save(seed=True)),
        S("seed-1e400", json.dumps(save()).replace('"seed": 1', '"seed": 1e400')),
        S("seed-nan", json.dumps(save()).replace('"seed": 1', '"seed": NaN')),
        S("seed-infinity", json.dumps(save()).replace('"seed": 1', '"seed": -Infinity')),
        S("version-true", save(version=True), True),
        S("version-text", save(version="1")),
        S("version-float", save(version=1.0)),
        S("version-2", save(version=2)),
        S("version-missing", save(version=_DROP)),
        S("game-etc-passwd", save(game="/etc/passwd"), True, forbid=("root:",)),
        S("game-dotdot-passwd", save(game="../../../../../../etc/passwd"), forbid=("root:",)),
        S("game-passwd-no-ext", save(game="caldera/../../../../etc/passwd")),
        S("game-other-bundled", save(game="high-rise"), True, forbid=("ruleset changed",),
          note="a caldera save that says high-rise"),
        S("game-other-bundled-own-hash", save(game="high-rise", ruleset_hash=other_hash(),
                                              options={}),
          note="a high-rise save with caldera's options"),
        S("game-unknown", save(game="nosuch-game")),
        S("game-empty", save(game="")),
        S("game-upper", save(game="CALDERA")),
        S("game-long", save(game="x" * 10000)),
        S("game-number", save(game=5)),
        S("game-null", save(game=None)),
        S("game-newline", save(game="caldera\n")),
        S("game-nul", save(game="caldera\u0000")),
        S("game-given-mismatch", save(), args=("play", "high-rise", "--load", "s.json")),
        S("game-given-path", save(), args=("play", "/etc/passwd", "--load", "s.json")),
        S("hash-empty", save(ruleset_hash="")),
        S("hash-short", save(ruleset_hash="abc")),
        S("hash-upper", save(ruleset_hash=caldera_hash().upper())),
        S("hash-number", save(ruleset_hash=0)),
        S("options-list", save(options=[])),
        S("options-text", save(options="x")),
        S("options-bad-value", save(options={"power_play": "maybe"})),
        S("options-number", save(options={"power_play": 5})),
        S("options-unknown", save(options={"nosuch": 1})),
        S("options-nested", save(options={"power_play": {"a": [1]}})),
        S("options-long-key", save(options={"x" * 300: 1})),
        S("options-2000", save(options={f"o{i}": i for i in range(2000)})),
        S("options-huge-int", save(options={"power_play": 10 ** 200})),
        S("players-0", save(players=0)),
        S("players-1", save(players=1)),
        S("players-3-seats-2", save(players=3)),
        S("players-99", save(players=99)),
        S("players-10001", save(players=10001)),
        S("players-negative", save(players=-1)),
        S("players-text", save(players="2")),
        S("players-true", save(players=True)),
        S("players-float", save(players=2.0)),
        S("players-huge", save(players=10 ** 30)),
        S("seats-list", save(seats=[])),
        S("seats-zero", save(seats={"0": "human"})),
        S("seats-3", save(seats={"3": "human"})),
        S("seats-alien", save(seats={"1": "alien"})),
        S("seats-word", save(seats={"one": "human"})),
        S("seats-number-kind", save(seats={"1": 5})),
        S("seats-leading-zeros", save(seats={"00001": "human"})),
        S("seats-fullwidth", save(seats={"\uff11": "human"})),
        S("seats-huge-key", save(seats={"9" * 5000: "human"})),
        S("decisions-object", save(decisions={})),
        S("decisions-text", save(decisions="x")),
        S("decisions-short-item", save(decisions=[[1]])),
        S("decisions-empty-notation", save(decisions=[[1, ""]])),
        S("decisions-long-notation", save(decisions=[[1, "x" * 20000]])),
        S("decisions-seat-0", save(decisions=[[0, "a5-se"]])),
        S("decisions-seat-true", save(decisions=[[True, "a5-se"]])),
        S("decisions-seat-float", save(decisions=[[1.0, "a5-se"]])),
        S("decisions-notation-number", save(decisions=[[1, 5]])),
        S("decisions-100000", save(decisions=[[1, "a5-se"]] * 100000)),
        S("decisions-seat-text", save(decisions=[["1", "a5-se"]])),
        S("format-missing", save(format=_DROP)),
        S("format-other", save(format="tabletop-save ")),
        S("file-empty", ""),
        S("file-null", "null"),
        S("file-list", "[]"),
        S("file-string", '"x"'),
        S("file-open-brace", "{"),
        S("file-bom", "\ufeff" + json.dumps(save())),
        S("file-utf16", json.dumps(save()).encode("utf-16")),
        S("file-bytes-ff", b"\xff\xfe\x00garbage"),
        S("file-duplicate-key", json.dumps(save())[:-1] + ', "game": "/etc/passwd"}',
          forbid=("root:",)),
        S("file-comments", "// a comment\n" + json.dumps(save())),
        S("file-trailing-comma", json.dumps(save())[:-1] + ",}"),
        S("file-33mb", json.dumps(save()) + " " * (33 * 1024 * 1024)),
        S("file-yaml", "format: tabletop-save\nversion: 1\n"),
        S("load-directory", None, args=("play", "--load", "sdir")),
        S("load-dev-null", "", args=("play", "--load", "/dev/null")),
        S("load-dev-zero", "", args=("play", "--load", "/dev/zero")),
        S("load-missing", "", args=("play", "--load", "nosuch.json")),
        S("load-with-players", save(), args=("play", "--load", "s.json", "--players", "2")),
        S("save-to-proc", save(), args=("play", "caldera", "--seed", "1", "--save",
                                        "/proc/nosuch/s.json")),
        S("save-to-directory", save(), args=("play", "caldera", "--seed", "1", "--save",
                                             "sdir")),
    ]
    for p in probes:
        if p.name in ("saves/load-directory", "saves/save-to-directory"):
            p.files = {"sdir": None}
        if p.args[-1] in ("/dev/null", "/dev/zero", "nosuch.json"):
            p.mentions = (p.args[-1],)
        if p.name.startswith("saves/save-to-"):
            p.mentions = ()
        if p.name == "saves/game-given-path":  # a ruleset named on the command line
            p.forbid = ("Traceback",)
            p.mentions = ()
        if p.name == "saves/load-directory":
            p.mentions = ("sdir",)
        if p.name == "saves/load-with-players":  # a usage error: no file to name
            p.mentions = ()
    return probes


# -- cli ------------------------------------------------------------------------------------

def cli_probe(name: str, args: tuple[str, ...], issue: bool = False, **kw: Any) -> Probe:
    return Probe(f"cli/{name}", "cli", args, issue=issue, **kw)


DOCS_ALL_SECONDS = 15.0
"""CPU time allowed to build every bundled rulebook (8 games, 36 option sets compiled and
every worked example played and drawn): about 9-11 s on the project's 2-core machine."""


def cli_probes() -> list[Probe]:
    C = cli_probe
    valid = _valid()
    seed5001 = "7" * 5001
    probes = [
        C("docs-out-a-file", ("docs", "--out", "afile"), True, files={"afile": "x"}),
        C("docs-out-unwritable", ("docs", "--out", "/proc/nosuch/out"), True),
        C("docs-out-dev-full", ("docs", "--out", "/dev/full")),
        C("docs-check-empty-dir", ("docs", "--check", "--out", "empty"), files={"empty": None},
          seconds=DOCS_ALL_SECONDS, note="checks every bundled rulebook: honest work"),
        C("docs-templates-missing", ("docs", "--out", "o", "--templates", "nosuch")),
        C("docs-templates-broken", ("docs", "--out", "o", "--templates", "tpl"),
          files={"tpl/game.md.j2": "{% for x in %}\n{{ broken"}, mentions=("game.md.j2",)),
        C("docs-templates-undefined", ("docs", "--out", "o", "--templates", "tpl"),
          files={"tpl/game.md.j2": "{{ nosuch.attribute.deeper }}\n"}),
        C("docs-templates-binary", ("docs", "--out", "o", "--templates", "tpl"),
          files={"tpl/game.md.j2": b"\xff\xfe\x00\x00"}),
        C("docs-pdf-unwritable", ("docs", "--out", "o", "--pdf", "/proc/nosuch/pdf")),
        C("list-dev-full", ("list",), True, stdout_full=True),
        C("list-json-dev-full", ("list", "--json"), stdout_full=True),
        C("schema-dev-full", ("schema",), stdout_full=True),
        C("schema-out-unwritable", ("schema", "--out", "/proc/nosuch/s.json")),
        C("schema-out-dir", ("schema", "--out", "d"), files={"d": None}),
        C("schema-out-dev-full", ("schema", "--out", "/dev/full")),
        C("validate-dev-full", ("validate", "caldera"), stdout_full=True),
        C("run-json-dev-full", ("run", "caldera", "--json"), stdout_full=True),
        C("simulate-dev-full", ("simulate", "caldera", "-n", "2"), stdout_full=True),
        C("test-dev-full", ("test", "caldera"), stdout_full=True),
        C("help-dev-full", ("--help",), stdout_full=True),
        C("version-dev-full", ("--version",), stdout_full=True),
        C("docs-check-dev-full", ("docs", "--check"), stdout_full=True,
          seconds=DOCS_ALL_SECONDS, note="checks every bundled rulebook: honest work"),
        C("play-dev-full", ("play", "caldera", "--seed", "1"), stdout_full=True, stdin="1\n"),
        C("play-stdin-closed", ("play", "caldera", "--seed", "1"), True, stdin=CLOSED),
        C("play-all-random-stdin-closed", ("play", "caldera", "--seed", "1", "--seat",
                                           "1=random"), stdin=CLOSED),
        C("run-moves-stdin-closed", ("run", "caldera", "--moves", "-"), True, stdin=CLOSED),
        C("run-moves-stdin-binary", ("run", "caldera", "--moves", "-"),
          stdin=b"\xff\xfe\x00\x01garbage\n"),
        C("run-moves-stdin-huge-line", ("run", "caldera", "--moves", "-"),
          stdin="x" * 2_000_000 + "\n"),
        C("run-moves-missing", ("run", "caldera", "--moves", "nosuch.txt")),
        C("run-moves-directory", ("run", "caldera", "--moves", "d"), files={"d": None}),
        C("run-moves-dev-zero", ("run", "caldera", "--moves", "/dev/zero")),
        C("run-moves-binary", ("run", "caldera", "--moves", "m.txt"),
          files={"m.txt": b"\x00\xff\xfe"}),
        C("run-moves-illegal", ("run", "caldera", "--moves", "m.txt"),
          files={"m.txt": "a5-se\nnot-a-move\n"}),
        C("run-moves-bad-seat", ("run", "caldera", "--moves", "m.txt"),
          files={"m.txt": "99999999999999999999: a5-se\n"}),
        C("run-moves-seat-only", ("run", "caldera", "--moves", "m.txt"),
          files={"m.txt": "1:\n"}),
        C("run-moves-1m-lines", ("run", "caldera", "--moves", "m.txt"),
          files={"m.txt": "a5-se\n" * 1_000_000}),
        C("play-stdin-garbage", ("play", "caldera", "--seed", "1"),
          stdin=b"\xff\xfe\x00\x01\n\x1b[2J\n"),
        C("play-stdin-format-tricks", ("play", "caldera", "--seed", "1"),
          stdin="{0.__class__}\n[red]x[/red]\n%s%s%n\n{}\n", forbid=PYTHON_LEAKS),
        C("play-stdin-huge-line", ("play", "caldera", "--seed", "1"),
          stdin="x" * 2_000_000 + "\n"),
        C("play-stdin-many-lines", ("play", "caldera", "--seed", "1"),
          stdin="nonsense\n" * 2000),
        C("play-stdin-5mb-line", ("play", "caldera", "--seed", "1"),
          stdin="x" * 5_000_000 + "\n1\nquit\n", forbid=("not a legal option",),
          note="issue 38: took 13 s and 544 MB; refused unread, then the game goes on"),
        C("play-stdin-50mb-no-newline", ("play", "caldera", "--seed", "1"),
          stdin="x" * 50_000_000, mentions=("too long",), forbid=("not a legal option",)),
        C("play-stdin-many-long-lines", ("play", "caldera", "--seed", "1"),
          stdin=("y" * 20_000 + "\n") * 500, mentions=("too long",),
          forbid=("not a legal option",)),
        C("play-stdin-lines-at-the-limit", ("play", "caldera", "--seed", "1"),
          stdin=("a5-se " * 1666 + "\n") * 200),
        C("play-hot-seat-5mb-line", ("play", "bottoms-up", "--seed", "1", "--seat",
                                     "2=human"),
          stdin="x" * 5_000_000 + "\n\n1\n" + "z" * 5_000_000 + "\nquit\n",
          forbid=("not a legal option",), note="at the pass-the-keyboard prompt too"),
        C("play-save-5mb-line", ("play", "caldera", "--seed", "1", "--save", "g.json"),
          stdin="x" * 5_000_000 + "\nquit\n", forbid=("not a legal option", "seed")),
        C("play-stdin-help-quit", ("play", "caldera", "--seed", "1"), stdin="help\n?\nquit\n"),
        C("play-stdin-numbers", ("play", "caldera", "--seed", "1"),
          stdin="0\n-1\n99999999999999999999\n1e5\n" + "9" * 5000 + "\n"),
        C("simulate-n-1e8", ("simulate", "caldera", "-n", "100000000", "--json"), True,
          interrupt_after=3.0, codes=(130,)),
        C("simulate-n-0", ("simulate", "caldera", "-n", "0")),
        C("simulate-n-negative", ("simulate", "caldera", "-n", "-1")),
        C("simulate-n-huge", ("simulate", "caldera", "-n", "9" * 30), interrupt_after=3.0,
          codes=(1, 130)),
        C("simulate-jobs-64", ("simulate", "caldera", "-n", "3", "--jobs", "64"), True,
          seconds=6.0, note="three worker processes each start Python and load the game"),
        C("simulate-jobs-0", ("simulate", "caldera", "-n", "3", "--jobs", "0")),
        C("simulate-jobs-1e5", ("simulate", "caldera", "-n", "1", "--jobs", "100000")),
        C("simulate-seed-5001", ("simulate", "caldera", "-n", "1", "--seed", seed5001)),
        C("run-seed-5001", ("run", "caldera", "--seed", seed5001), True),
        C("run-seed-negative", ("run", "caldera", "--seed", "-1")),
        C("run-seed-text", ("run", "caldera", "--seed", "abc")),
        C("run-seed-float", ("run", "caldera", "--seed", "1e5")),
        C("play-seed-5001", ("play", "caldera", "--seed", seed5001)),
        C("run-players-0", ("run", "caldera", "--players", "0")),
        C("run-players-99", ("run", "caldera", "--players", "99")),
        C("run-players-huge", ("run", "caldera", "--players", "9" * 30)),
        C("run-players-text", ("run", "caldera", "--players", "two")),
        C("run-option-bad-int", ("run", "high-rise", "--option", "rows=abc")),
        C("run-option-unknown", ("run", "high-rise", "--option", "nosuch=1")),
        C("run-option-no-key", ("run", "high-rise", "--option", "=1")),
        C("run-option-no-value", ("run", "high-rise", "--option", "rows")),
        C("run-option-huge", ("run", "high-rise", "--option", "rows=99999999")),
        C("run-option-huge-digits", ("run", "high-rise", "--option", "rows=" + "9" * 5000)),
        C("run-option-negative", ("run", "high-rise", "--option", "rows=-1")),
        C("run-option-twice", ("run", "high-rise", "--option", "rows=3", "--option",
                               "rows=4")),
        C("run-option-bool-maybe", ("run", "caldera", "--option", "power_play=maybe")),
        C("run-option-equals-twice", ("run", "caldera", "--option", "power_play=x=y")),
        C("run-agent-unknown", ("run", "caldera", "--agent", "nosuch")),
        C("play-seat-3-of-2", ("play", "caldera", "--seat", "3=human")),
        C("play-seat-alien", ("play", "caldera", "--seat", "1=alien")),
        C("play-seat-garbage", ("play", "caldera", "--seat", "x")),
        C("play-seat-huge", ("play", "caldera", "--seat", "9" * 5000 + "=human")),
        C("validate-nothing", ("validate",)),
        C("validate-missing", ("validate", "nosuch.yaml")),
        C("validate-directory", ("validate", "d"), files={"d": None}),
        C("validate-dev-null", ("validate", "/dev/null")),
        C("validate-dev-zero", ("validate", "/dev/zero")),
        C("validate-long-name", ("validate", "x" * 5000 + ".yaml")),
        C("validate-control-char-name", ("validate", "a\x01b.yaml")),
        C("validate-dash-name", ("validate", "--", "-x.yaml"), files={"-x.yaml": valid},
          located="-x.yaml"),
        C("validate-50-files", ("validate", *[f"f{i}.yaml" for i in range(50)]),
          files={f"f{i}.yaml": valid for i in range(50)}),
        C("validate-game-dotdot", ("validate", "../../../../etc/passwd")),
        C("validate-etc-passwd-name", ("run", "passwd")),
        C("test-missing", ("test", "nosuch")),
        C("test-directory", ("test", "d"), files={"d": None}),
        C("test-ruleset-file", ("test", "r.yaml"), files={"r.yaml": valid}),
        C("unknown-command", ("nosuch",)),
        C("no-arguments", ()),
        C("unknown-option", ("list", "--nosuch")),
        C("list-rulesets-env-missing", ("list",), env={"TABLETOP_RULESETS": "nosuch"}),
        C("list-rulesets-env-file", ("list",), env={"TABLETOP_RULESETS": "/dev/null"}),
        C("list-rulesets-env-hostile", ("list", "--json"), env={"TABLETOP_RULESETS": "g"},
          files={"g/a.yaml": "[" * 100000, "g/b.yaml": b"\xff", "g/c.yaml": BILLION_LAUGHS,
                 "g/d.yaml": ruleset(COUNT="100000000")}),
        C("ascii-terminal-list", ("list",), env={"PYTHONIOENCODING": "ascii"}),
        C("ascii-terminal-play", ("play", "caldera", "--seed", "1"),
          env={"PYTHONIOENCODING": "ascii"}, stdin="1\n"),
        C("columns-zero", ("list",), env={"COLUMNS": "0"}),
        C("columns-huge", ("play", "caldera", "--seed", "1"), env={"COLUMNS": "100000"},
          stdin="1\n"),
        C("help-every-command", ("simulate", "--help")),
    ]
    for p in probes:
        if p.args[:1] == ("docs",) and "TABLETOP_RULESETS" not in p.env:
            # the rulebooks of every bundled game take some seconds
            p.seconds = max(p.seconds or 0.0, 6.0)
    return probes


# -- rules: run-time errors, located, with the decision ----------------------------------

RUNTIME_BAD = [
    "abs('x')", "range('a')", "range(2.5)", "sum(['a'])", "'%y' % 1", "'%c' % 99999999",
    "value_name([1])", "one_of_each_kind([999999])", "next_seat('a')", "distinct([[1, [2]]])",
    f"{DIGITS_400} / 3", f"str({DIGITS_5000})", "piece_name(-1)", "place_of(-1)", "top(-1)",
    "place('zz99')", "max([1, 'a'])", "sorted([1, 'a'])", "1 // 0", "xs[99]", "hand[99]",
    "seat_name(99)", "random_int(5, 1)", "roll(0)", "shuffled(5)", "pieces([99999])",
    "null.colour", "piece_code(99999)", "count(5)", "without(5, 1)",
]

RUNTIME_EFFECTS = [
    ("move-text", "- move: \"'x'\"\n  to: hand[current]"),
    ("move-to-nowhere", "- move: top(pile)\n  to: \"'nowhere'\""),
    ("move-number", "- move: '99999'\n  to: pile"),
    ("move-mixed-list", "- move: \"[1, 'a']\"\n  to: pile"),
    ("move-to-number", "- move: top(pile)\n  to: '5'"),
    ("move-to-per-seat-zone", "- move: top(pile)\n  to: hand"),
    ("move-to-grid-zone", "- move: top(pile)\n  to: board"),
    ("move-null", "- move: top(field_one)\n  to: pile"),
    ("swap-text", "- swap: \"'a'\"\n  with: '1'"),
    ("shuffle-text", "- shuffle: \"'x'\""),
    ("shuffle-number", "- shuffle: '5'"),
    ("shrink-text", "- shrink: \"'x'\"\n  supply: pile"),
    ("grow-number", "- grow: '99999'\n  supply: pile"),
    ("recolor-purple", "- recolor: top(hand[current])\n  to: \"'purple'\"\n  supply: pile"),
    ("create-purple", "- create: {colour: \"'purple'\"}\n  from: pile\n  to: pile"),
    ("destroy-text", "- destroy: \"'x'\"\n  to: pile"),
    ("set-deep-list", "- set: xs\n  value: \"" + "[" * 40 + "]" * 40 + "\""),
    ("set-seat-99", "- set: score\n  value: '1'\n  seat: '99'"),
    ("add-text", "- add: v\n  amount: \"'x'\""),
    ("add-to-list", "- add: xs\n  amount: '1'"),
    ("add-seat-text", "- add: score\n  amount: '1'\n  seat: \"'x'\""),
    ("end-game-winners-99", "- end_game: bye\n  winners: '[99]'"),
    ("end-game-winners-text", "- end_game: bye\n  winners: \"'x'\""),
    ("end-game-winners-nested", "- end_game: bye\n  winners: '[[1]]'"),
    ("say-to-99", "- say: hello\n  to: '[99]'"),
    ("say-to-text", "- say: hello\n  to: \"'all'\""),
    ("call-seat-99", "- call: take\n  with: {who: '99'}"),
    ("call-text", "- call: take\n  with: {who: \"'x'\"}"),
    ("for-each-number", "- for_each: i\n  in: '5'\n  do: []"),
    ("for-each-text", "- for_each: i\n  in: \"'abc'\"\n  do: [{say: '{i}'}]"),
    ("match-list", "- match: '[1]'\n  cases: {1: []}"),
    ("match-nested", "- match: '[[1], 2]'\n  cases: {1: []}"),
    ("arrange-into-number", "- arrange: '[1, 2]'\n  into: '5'\n  as: q"),
    ("arrange-into-texts", "- arrange: '[1]'\n  into: \"['a']\"\n  as: q"),
    ("arrange-into-non-place", "- arrange: '[1, 2]'\n  into: '[-1, 99999]'\n  as: q"),
    ("arrange-into-nulls", "- arrange: '[1, 2]'\n  into: '[null, null]'\n  as: q"),
    ("arrange-count-mismatch", "- arrange: '[1, 2, 3]'\n  into: cells(field)\n  as: q"),
    ("arrange-values-number", "- arrange: '5'\n  into: cells(field)\n  as: q"),
    ("choose-seat-99", "- choose: pick\n  seat: '99'\n  options: [{id: a, notation: a}]"),
    ("choose-seats-99", "- choose: pick\n  seats: '[99]'\n  options: [{id: a, notation: a}]"),
    ("choose-seats-number", "- choose: pick\n  seats: '5'\n  options: [{id: a, notation: a}]"),
    ("choose-for-non-list", "- choose: pick\n  options: [{id: a, for: {m: '5'}, "
                            "notation: 'a{m}'}]"),
    ("choose-for-text", "- choose: pick\n  options: [{id: a, for: {m: \"'abc'\"}, "
                        "notation: 'a{m}'}]"),
    ("choose-for-null", "- choose: pick\n  options: [{id: a, for: {m: 'null'}, "
                        "notation: 'a{m}'}]"),
    ("choose-same-notation", "- choose: pick\n  options: [{id: a, for: {m: '[1, 2]'}, "
                             "notation: 'same'}]"),
    ("choose-empty-notation", "- choose: pick\n  options: [{id: a, notation: ''}]"),
    ("retry-never", "- retry: [{let: {z: '1'}}]\n  until: 'false'\n  max_tries: 5"),
    ("if-text", "- if: \"'x'\"\n  then: [{let: {z: '1'}}]"),
    ("while-list", "- while: '[1]'\n  do: [{let: {z: '1'}}]"),
]


LENIENT = {"move-null", "if-text", "match-list", "match-nested", "for-each-text",
           "choose-same-notation", "rank-list-values", "while-list", "recolor-purple",
           "create-purple", "choose-for-text", "choose-for-null", "choose-empty-notation",
           "shuffle-number",
           # built-ins that have a meaning: null propagates, a number is a place
           "builtin-09-distinct_1_2", "builtin-26-null_colour", "builtin-28-count_5"}
"""Effects that a ruleset language may reasonably accept: they need not fail, but a
failure must still be located and say when it happened."""


def rules_probe(name: str, text: str, note: str = "", decision: bool = True,
                issue: bool = False, args: tuple[str, ...] | None = None,
                stdin: Any = None) -> Probe:
    return Probe(f"rules/{name}", "rules", args or run_args(), {RULESET: text},
                 located=RULESET, decision=decision,
                 must_fail=decision and name.removeprefix("effect-") not in LENIENT
                 and name not in LENIENT,
                 forbid=PYTHON_LEAKS, note=note, issue=issue, stdin=stdin)


def rules_probes() -> list[Probe]:
    R = rules_probe
    probes = []
    for i, expr in enumerate(RUNTIME_BAD):
        short = re.sub(r"[^A-Za-z0-9]+", "_", expr)[:30].strip("_")
        probes.append(R(f"builtin-{i:02d}-{short}", ruleset(
            DO=at_decision(f"- let: {{y: {q(expr)}}}")), note=expr[:60], issue=i < 14))
    for name, effect in RUNTIME_EFFECTS:
        probes.append(R(f"effect-{name}", ruleset(
            DO=at_decision(effect), DEFINE="  field_one: first(cells(field))"), note=effect,
            issue=name in ("arrange-into-non-place", "choose-for-non-list")))
    # the other places rules run: end rules, rank, scores, triggers, procedures, views
    probes += [
        R("end-when-error", ruleset(END=q("turn >= 3 and abs('x') > 0"))),
        R("end-winners-error", ruleset().replace(
            "- {id: e, when: \"turn >= 6\"}", "- {id: e, when: \"turn >= 3\", winners: \"'x'\"}")),
        R("end-winners-99", ruleset().replace(
            "- {id: e, when: \"turn >= 6\"}", "- {id: e, when: \"turn >= 3\", winners: '[99]'}")),
        R("scores-error", ruleset().replace("scores: score[seat]", "scores: abs('x')")),
        R("rank-error", ruleset().replace("scores: score[seat]", "rank: [\"abs('x')\"]")),
        R("rank-list-values", ruleset().replace("scores: score[seat]", "rank: ['[seat, [1]]']")),
        R("trigger-where-error", ruleset(TRIGGERS="  - id: bad\n    enters: hand\n"
                                                  "    where: \"abs('x') > 0 and turn >= 3\"\n"
                                                  "    do: []")),
        R("trigger-do-error", ruleset(TRIGGERS="  - id: bad\n    enters: hand\n"
                                               "    do:\n      - if: 'turn >= 3'\n"
                                               "        then: [{let: {z: \"abs('x')\"}}]")),
        R("procedure-error", ruleset(PROCEDURES="  - id: bad\n    do:\n"
                                                "      - let: {z: \"range('a')\"}",
                                     DO=at_decision("- call: bad"))),
        R("where-error-at-decision", ruleset(WHERE=q("n <= 2 and (turn < 3 or abs('x') > 0)"))),
        R("label-error-at-decision", ruleset(LABEL=q("{n} {'x' if turn < 3 else abs('x')}")),
          args=("play", RULESET, "--seed", "1"), stdin=PLAY_INPUT),
        R("notation-error-at-decision", ruleset(
            NOTATION=q("go{n}{'' if turn < 3 else range('a')}"))),
        R("notation-error-matching-a-typed-move", ruleset(
            NOTATION=q("go{n}{'' if turn < 3 or n == 1 else range('a')}")),
          args=(*run_args(), "--moves", "-"), stdin="go1\n" * 12),
        R("notation-error-in-play", ruleset(
            NOTATION=q("go{n}{'' if turn < 3 else range('a')}")),
          args=("play", RULESET, "--seed", "1"), stdin=PLAY_INPUT),
        R("for-non-list-at-decision", ruleset(FOR=q("[1, 2] if turn < 3 else 5")), issue=True),
        R("prompt-error-at-decision", ruleset(PROMPT=q("{seat_name(current if turn < 3 else "
                                                       "99)}")),
          args=("play", RULESET, "--seed", "1"), stdin=PLAY_INPUT),
        R("setup-error", ruleset(SETUP=in_setup("- let: {z: \"abs('x')\"}"))),
        R("first-seat-99", ruleset().replace("setup:\n", "first_seat: '99'\nsetup:\n", 1)),
        R("first-seat-text", ruleset().replace("setup:\n", "first_seat: \"'x'\"\nsetup:\n", 1)),
        R("initial-error", ruleset(INITIAL=q("abs('x')"))),
        R("conceal-error", ruleset().replace(
            "{id: pile, kind: pile}", "{id: pile, kind: pile, conceal: \"abs('x') > 0\"}"),
          args=("play", RULESET, "--seed", "1"), stdin=PLAY_INPUT),
        R("count-error", ruleset(COUNT=q("abs('x')")), decision=False),
        R("rows-text", ruleset(ROWS=q("'x'")), decision=False),
        R("rows-float", ruleset(ROWS="2.5"), decision=False),
        R("rows-negative", ruleset(ROWS="-1"), decision=False),
        R("rows-zero", ruleset(ROWS="0"), decision=False),
        R("slots-negative", ruleset(SLOTS="-5"), decision=False),
        R("count-negative", ruleset(COUNT="-3"), decision=False),
        R("option-typo-in-rows", ruleset(ROWS="sise"), decision=False),
        R("option-typo-in-count", ruleset(COUNT="size * sise"), decision=False),
    ]
    return probes


# -- html -------------------------------------------------------------------------------

MARKUP = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
          "[x](javascript:alert(1))", "![i](javascript:alert(1)) <javascript:alert(1)>",
          "\" onmouseover=\"alert(1) ' `|` {{7*7}} {: onclick=alert(1) }",
          "</title></style><script>alert(1)</script>", "# alert(1) [bold]x[/bold]"]
"""Markup a ruleset's text may carry: HTML, Markdown links and images, autolinks, quotes,
code spans and table cells, attribute lists, a page's own closing tags, a heading."""
HTML_PLACES = {
    "title": lambda m: ruleset(TITLE=q(m)),
    "value-name": lambda m: ruleset(NAMES="{1: " + q(m) + ", 2: big}"),
    "says": lambda m: ruleset(SAYS=q(m + " {p}")),
    "prompt": lambda m: ruleset(PROMPT=q(m.replace("{", "{{").replace("}", "}}"))),
    "end-text": lambda m: ruleset().replace("- {id: e, when:", "- {id: e, text: " + q(m)
                                            + ", when:"),
    "zone-label": lambda m: ruleset().replace("{id: pile, kind: pile}",
                                              "{id: pile, kind: pile, label: " + q(m) + "}"),
    "ruling": lambda m: ruleset() + "rulings:\n  - {id: " + q(m) + ", text: " + q(m) + "}\n",
}
"""Where each piece of markup goes: ruleset(...) texts the rulebook shows."""


DOCS_SECONDS = 3.0
"""`tabletop docs` honestly writes a whole rulebook (pictures, Markdown, the print page):
about 1 to 1.5 s of CPU time for these small rulesets."""


class _Runs(HTMLParser):
    """What in a page would run: a script with `alert`, an event handler, a
    `javascript:` URL, an image or frame other than the rulebook's own pictures."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        src = dict(attrs).get("src") or ""
        for name, value in attrs:
            if name.startswith("on") or re.sub(r"\s", "", value or "").lower().startswith(
                    "javascript:"):
                self.found.append(f"<{tag} {name}=…>")
        if tag in ("iframe", "object", "embed") or (
                tag == "img" and not re.fullmatch(r"[\w./-]+\.svg", src)):
            self.found.append(f"<{tag} src={src[:30]!r}>")
        self.script = tag == "script"

    def handle_data(self, data: str) -> None:
        if self.script and "alert" in data:
            self.found.append("a <script> from the ruleset")


def pages_run(folder: Path) -> list[str]:
    """The ways the rulebook `tabletop docs` wrote into folder/out could run something,
    or lost the ruleset's words (the `check` of the html probes): its Markdown rendered
    as mkdocs renders it, its print HTML and its pictures."""
    import markdown

    out = folder / "out"
    files = sorted(p for p in out.rglob("*") if p.suffix in (".md", ".html", ".svg"))
    if not files:
        return []  # the ruleset was refused: the runner judges its message
    problems = []
    shown = False
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".md":
            text = markdown.markdown(re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S),
                                     extensions=["tables", "attr_list", "sane_lists"])
        scan = _Runs()
        scan.feed(text)
        problems += [f"{path.relative_to(out)}: {found}" for found in scan.found]
        shown = shown or "alert(1)" in html.unescape(re.sub(r"<[^>]+>", " ", text))
    if not shown:
        problems.append("the ruleset's text is nowhere to be read")
    return problems


def html_probes() -> list[Probe]:
    probes = []
    for place, make in HTML_PLACES.items():
        for i, markup in enumerate(MARKUP):
            probes.append(Probe(f"html/{place}-{i}", "html",
                                ("docs", RULESET, "--out", "out"), {RULESET: make(markup)},
                                located=RULESET, forbid=PYTHON_LEAKS, check=pages_run,
                                seconds=DOCS_SECONDS,
                                note=f"{place}: {markup[:40]!r}"))
    for name in ("hostile_texts", "hostile_ids"):
        files = {f"{name}.yaml": (ROOT / "tests" / "rulesets" / f"{name}.yaml").read_text()}
        tests = ROOT / "tests" / "rulesets" / f"{name}.tests.yaml"
        if tests.is_file():
            files[f"{name}.tests.yaml"] = tests.read_text()
        probes.append(Probe(f"html/{name}", "html", ("docs", f"{name}.yaml", "--out", "out"),
                            files, located=f"{name}.yaml", forbid=PYTHON_LEAKS,
                            check=pages_run, seconds=DOCS_SECONDS,
                            note=f"tests/rulesets/{name}.yaml"))
    return probes
