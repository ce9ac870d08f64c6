"""`tabletop test VARIANT --base`: the base's scenario cases, run on a variant.

A case that still passes is a ruling the variant keeps; one that fails, or no longer
applies (it names an option, a piece or a variable the variant removed), is a ruling the
variant moved. The designer sees at once which is which; neither is an error, unless the
variant's own tests file names the cases it changes (`base_changes:`): then a case that
changes without being named, or a named one that still holds, is one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from interpreter.api import load as load_ruleset_file
from interpreter.errors import Location, RulesetError, UsageError, did_you_mean
from interpreter.load.catalog import tests_file_for
from interpreter.load.yaml_source import read_yaml
from interpreter.scenarios.runner import load_scenario_file, run_case


@dataclass
class BaseCase:
    """One of the base's cases, as it came out on the variant."""

    name: str
    holds: bool
    why: str = ""
    """Why it does not hold: what failed, or why it no longer applies."""
    applies: bool = True
    location: Location | None = None
    expected: bool = False
    """The variant's tests file names it among the cases it changes."""


@dataclass
class BaseComparison:
    variant: Path
    base_title: str
    base_tests: Path
    cases: list[BaseCase] = field(default_factory=list)
    declared: bool = False
    """The variant's tests file says which base cases it changes (`base_changes`)."""

    @property
    def surprises(self) -> list[BaseCase]:
        """Cases that came out otherwise than the variant says (none when it says nothing)."""
        if not self.declared:
            return []
        return [c for c in self.cases if c.holds == c.expected]

    @property
    def held(self) -> int:
        return sum(c.holds for c in self.cases)

    @property
    def changed(self) -> int:
        return len(self.cases) - self.held


def compare_with_base(variant: Path) -> BaseComparison:
    """Run the base's tests file against `variant` (a UsageError when it is no variant, or
    its base has no tests; a RulesetError when either file is malformed)."""
    loaded = load_ruleset_file(str(variant))
    info = loaded.variant
    if info is None:
        raise UsageError(f"{variant} is not a variant (it has no `extends:`), so it has no "
                         "base to compare with; drop --base")
    base_tests = tests_file_for(Path(info.base_path))
    if not base_tests.is_file():
        raise UsageError(f"the base {info.base_title} has no scenario tests "
                         f"(expected {base_tests})")
    suite = load_scenario_file(base_tests, ruleset=variant)
    out = BaseComparison(variant, info.base_title, base_tests)
    expected = _declared_changes(variant, [c.name for c in suite.model.cases])
    out.declared = expected is not None
    prepared = {p.case.name: p for p in suite.cases}
    for case in suite.model.cases:
        if case.name in suite.unprepared:
            out.cases.append(BaseCase(case.name, False, "does not apply to the variant: "
                                      + suite.unprepared[case.name], applies=False,
                                      expected=case.name in (expected or ())))
            continue
        p = prepared[case.name]
        result = run_case(base_tests, p)
        out.cases.append(BaseCase(case.name, result.passed, result.message,
                                  location=p.location,
                                  expected=case.name in (expected or ())))
    return out


def _declared_changes(variant: Path, names: list[str]) -> set[str] | None:
    """The base cases the variant's own tests file says it changes (None when it does not
    say); a name that is no base case is a located error."""
    own = tests_file_for(Path(variant))
    if not own.is_file():
        return None
    tree, source = read_yaml(own)
    given = tree.get("base_changes") if isinstance(tree, dict) else None
    if given is None:
        return None
    if not isinstance(given, list):
        raise RulesetError([source.diagnostic("base_changes is a list of the base's case "
                                              "names", tree.key_locs.get("base_changes"))])
    problems = []
    for i, name in enumerate(given):
        if str(name) not in names:
            where = getattr(name, "loc", None) or given.item_locs[i]
            problems.append(source.diagnostic(f"the base has no case named '{name}'", where,
                                              hint=did_you_mean(str(name), names)))
    if problems:
        raise RulesetError(problems)
    return {str(n) for n in given}


__all__ = ["BaseCase", "BaseComparison", "compare_with_base"]
