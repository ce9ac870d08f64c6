"""Hostile and broken variant files: a ruleset that `extends` another and changes it.

Every probe writes the catalogue's base ruleset as `probe.yaml` beside a variant
`v.yaml` (and sometimes more files), then validates, runs, tests or documents the
variant. What counts as correct is the catalogue's default: exit code 0 or 1, no
internal error, the variant's `v.yaml:LINE:COL` where it is at fault, within 2 s and
500 MB. Circles, chains too deep, paths that lead out of the folder or to files that are
no rulesets, edits of parts the base does not have, and merges whose result breaks the
base's own rules are each one clear message.
"""

from __future__ import annotations

from typing import Any

from tests.probes.catalogue import RULESET, Probe, Symlink, q, ruleset

VARIANT = "v.yaml"

HEAD = "tabletop: 1\nextends: probe.yaml\ngame: {name: v, title: V}\n"
"""A variant's first lines: its base and its own name."""


def variant(body: str = "", head: str = HEAD) -> str:
    return head + body


def _probe(name: str, files: dict[str, Any], args: tuple[str, ...] | None = None,
           located: str | None = VARIANT, must_fail: bool = True, note: str = "",
           budget: tuple[str, ...] = (), decision: bool = False) -> Probe:
    every = {RULESET: ruleset(), **files}
    return Probe(f"variants/{name}", "variants", args or ("validate", VARIANT), every,
                 located=located, must_fail=must_fail, note=note, budget=budget,
                 decision=decision)


def _chain(length: int) -> dict[str, str]:
    """v.yaml extends v1.yaml extends ... extends probe.yaml: `length` variants."""
    files = {}
    names = ["v.yaml", *[f"v{i}.yaml" for i in range(1, length)]]
    for i, name in enumerate(names):
        base = names[i + 1] if i + 1 < len(names) else RULESET
        files[name] = f"tabletop: 1\nextends: {base}\ngame: {{name: v{i}, title: V{i}}}\n"
    return files


def variant_probes() -> list[Probe]:
    P = _probe
    many_edits = "effects:\n" + "".join(
        f"  - {{after: e{i}, insert: [{{say: x}}]}}\n" for i in range(2000))
    many_adds = "add:\n  define:\n" + "".join(f"    d{i}: {i}\n" for i in range(2000))
    return [
        # what it extends
        P("extends-itself", {VARIANT: variant(head="tabletop: 1\nextends: v.yaml\n"
                                                   "game: {name: v, title: V}\n")}),
        P("extends-a-circle-of-two", {
            VARIANT: "tabletop: 1\nextends: w.yaml\ngame: {name: v, title: V}\n",
            "w.yaml": "tabletop: 1\nextends: v.yaml\ngame: {name: w, title: W}\n"}),
        P("chain-of-8", _chain(8), must_fail=False, note="as deep as allowed: it plays"),
        P("chain-of-9", _chain(9), located=None, note="one deeper than allowed"),
        P("extends-missing-file", {VARIANT: variant(head="tabletop: 1\nextends: nope.yaml\n"
                                                        "game: {name: v, title: V}\n")}),
        P("extends-a-folder", {"sub": None, VARIANT: variant(
            head="tabletop: 1\nextends: sub\ngame: {name: v, title: V}\n")}),
        P("extends-etc-passwd", {VARIANT: variant(
            head="tabletop: 1\nextends: /etc/passwd\ngame: {name: v, title: V}\n")}),
        P("extends-dot-dot", {VARIANT: variant(
            head="tabletop: 1\nextends: ../../../../../../etc/passwd\n"
                 "game: {name: v, title: V}\n")}),
        P("extends-dev-zero", {VARIANT: variant(
            head="tabletop: 1\nextends: /dev/zero\ngame: {name: v, title: V}\n")}),
        P("extends-a-symlink-loop", {"loop.yaml": Symlink("loop.yaml"), VARIANT: variant(
            head="tabletop: 1\nextends: loop.yaml\ngame: {name: v, title: V}\n")}),
        P("extends-a-list-file", {"list.yaml": "- 1\n- 2\n", VARIANT: variant(
            head="tabletop: 1\nextends: list.yaml\ngame: {name: v, title: V}\n")},
          located=None),
        P("extends-binary", {"bin.yaml": bytes(range(256)) * 4, VARIANT: variant(
            head="tabletop: 1\nextends: bin.yaml\ngame: {name: v, title: V}\n")},
          located=None),
        P("extends-billion-laughs", {"laughs.yaml": _laughs(), VARIANT: variant(
            head="tabletop: 1\nextends: laughs.yaml\ngame: {name: v, title: V}\n")},
          located=None),
        P("extends-a-number", {VARIANT: "tabletop: 1\nextends: 5\ngame: {name: v, title: V}\n"}),
        P("extends-a-list", {VARIANT: "tabletop: 1\nextends: [a, b]\n"
                                      "game: {name: v, title: V}\n"}),
        P("extends-null", {VARIANT: "tabletop: 1\nextends: null\ngame: {name: v, title: V}\n"}),
        P("extends-empty", {VARIANT: "tabletop: 1\nextends: ''\ngame: {name: v, title: V}\n"}),
        P("extends-a-broken-base", {"b.yaml": ruleset(END=q("turn >=")), VARIANT: variant(
            head="tabletop: 1\nextends: b.yaml\ngame: {name: v, title: V}\n")},
          located="b.yaml", note="the base's own mistake is reported in the base"),
        P("extends-a-bundled-game", {VARIANT: variant(
            "change:\n  options: {power_play: {default: 7}}\n",
            head="tabletop: 1\nextends: caldera\ngame: {name: v, title: V}\n")}),
        # its own fields
        P("no-game-name", {VARIANT: "tabletop: 1\nextends: probe.yaml\ngame: {title: V}\n"}),
        P("no-game", {VARIANT: "tabletop: 1\nextends: probe.yaml\n"}),
        P("game-a-list", {VARIANT: "tabletop: 1\nextends: probe.yaml\ngame: [1]\n"}),
        P("unknown-key", {VARIANT: variant("turns: []\n")}),
        P("tabletop-99", {VARIANT: variant(head="tabletop: 99\nextends: probe.yaml\n"
                                                "game: {name: v, title: V}\n")}),
        # parts it edits
        P("remove-unknown-zone", {VARIANT: variant("remove:\n  zones: [boad]\n")}),
        P("remove-unknown-part", {VARIANT: variant("remove:\n  zonez: [board]\n")}),
        P("remove-a-mapping", {VARIANT: variant("remove:\n  zones: {board: 1}\n")}),
        P("replace-a-number", {VARIANT: variant("replace:\n  zones: 5\n")}),
        P("replace-with-no-id", {VARIANT: variant("replace:\n  zones: [{kind: pile}]\n")}),
        P("add-an-existing-id", {VARIANT: variant("add:\n  zones: [{id: board, kind: pile}]\n")}),
        P("change-unknown-option", {VARIANT: variant(
            "change:\n  options: {sise: {default: 3}}\n")}),
        P("change-a-wrong-type", {VARIANT: variant("change:\n  options: {size: {default: x}}\n")}),
        P("change-unknown-field", {VARIANT: variant("change:\n  zones: {board: {colour: 3}}\n")}),
        P("remove-a-used-definition", {VARIANT: variant("remove:\n  define: [double]\n")},
          must_fail=False, note="the base's turn does not use it: fine"),
        P("remove-a-used-zone", {VARIANT: variant("remove:\n  zones: [pile]\n")}),
        P("remove-a-used-procedure", {VARIANT: variant("remove:\n  procedures: [take]\n")}),
        P("effects-unknown-id", {VARIANT: variant("effects:\n  - {replace: nope, with: []}\n")}),
        P("effects-not-a-list", {VARIANT: variant("effects: {replace: x}\n")}),
        P("effects-edit-with-two-verbs", {VARIANT: variant(
            "effects:\n  - {replace: a, remove: a}\n")}),
        P("effects-2000-edits-that-miss", {VARIANT: variant(many_edits)}),
        P("add-2000-definitions", {VARIANT: variant(many_adds)}, must_fail=False,
          note="large but legal"),
        P("budgets-negative", {VARIANT: variant("budgets: {steps_per_decision: -1}\n")}),
        P("budgets-unknown", {VARIANT: variant("budgets: {steps_per_turn: 5}\n")}),
        P("budgets-huge-number", {VARIANT: variant(
            "budgets: {steps_per_decision: 99999999999999999999999999}\n")}),
        P("budgets-small-stops-the-game", {VARIANT: variant(
            "budgets: {steps_per_decision: 10}\n")}, args=("run", VARIANT, "--seed", "1"),
          budget=("steps_per_decision", "steps_for_setup"), decision=True,
          note="a variant that lowers a budget: the game stops, naming it"),
        # parts named by address
        P("replace-unknown-address", {VARIANT: variant("replace:\n  turn.9: {say: x}\n")}),
        P("remove-addresses-not-text", {VARIANT: variant("remove: [[1], {a: 1}]\n")}),
        P("insert-without-items", {VARIANT: variant("insert: [{after: turn.1}]\n")}),
        P("insert-into-a-step", {VARIANT: variant(
            "insert: [{into: turn.1, items: [{say: x}]}]\n")}),
        P("replace-the-turn-with-a-number", {VARIANT: variant("replace:\n  turn: 5\n")}),
        P("change-a-step-to-a-bad-decision", {VARIANT: variant(
            "change:\n  turn.1: {choose: 5}\n")}),
        P("replace-a-block-with-some-of-its-items", {VARIANT: variant(
            "replace:\n  zones: [{id: board, kind: pile}]\n")}),
        # after merging: the result's own mistakes, reported at the change that made them
        P("change-end-to-bad-expression", {VARIANT: variant(
            "change:\n  end: {e: {when: \"turn >=\"}}\n")}),
        P("change-end-to-runtime-error", {VARIANT: variant(
            "change:\n  end: {e: {when: \"turn >= 3 and abs('x') > 0\"}}\n")},
          args=("run", VARIANT, "--seed", "1"), decision=True),
        # every command takes a variant
        P("run-a-bad-variant", {VARIANT: variant("remove:\n  zones: [boad]\n")},
          args=("run", VARIANT, "--seed", "1")),
        P("test-base-of-a-bad-variant", {VARIANT: variant("remove:\n  zones: [boad]\n")},
          args=("test", VARIANT, "--base")),
        P("docs-of-a-bad-variant", {VARIANT: variant("remove:\n  zones: [boad]\n")},
          args=("docs", VARIANT, "--out", "out")),
        P("play-a-bad-variant", {VARIANT: variant("remove:\n  zones: [boad]\n")},
          args=("play", VARIANT, "--seed", "1")),
        P("simulate-a-bad-variant", {VARIANT: variant("remove:\n  zones: [boad]\n")},
          args=("simulate", VARIANT, "-n", "2")),
        P("analyze-a-bad-variant-against-its-base", {
            VARIANT: variant("remove:\n  zones: [boad]\n")},
          args=("analyze", RULESET, VARIANT, "-n", "2")),
        P("test-base-of-a-good-variant", {VARIANT: variant(
            "change:\n  end: {e: {when: \"turn >= 4\"}}\n"),
            "probe.tests.yaml": "cases:\n  - name: ends\n    seed: 1\n"
                                "    moves: [go1, go1, go1, go1, go1, go1]\n"
                                "    expect: [over]\n"},
          args=("test", VARIANT, "--base"), must_fail=False, located=None,
          note="a report: exit 0"),
    ]


def _laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"
