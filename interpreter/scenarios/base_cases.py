"""`tabletop test VARIANT --base`: the base's scenario cases, run on a variant.

A case that still passes is a ruling the variant keeps; one that fails, or no longer
applies (it names an option, a piece or a variable the variant removed), is a ruling the
variant moved. The designer sees at once which is which; neither is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from interpreter.api import load as load_ruleset_file
from interpreter.errors import Location, UsageError
from interpreter.load.catalog import tests_file_for
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


@dataclass
class BaseComparison:
    variant: Path
    base_title: str
    base_tests: Path
    cases: list[BaseCase] = field(default_factory=list)

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
    prepared = {p.case.name: p for p in suite.cases}
    for case in suite.model.cases:
        if case.name in suite.unprepared:
            out.cases.append(BaseCase(case.name, False, "does not apply to the variant: "
                                      + suite.unprepared[case.name], applies=False))
            continue
        p = prepared[case.name]
        result = run_case(base_tests, p)
        out.cases.append(BaseCase(case.name, result.passed, result.message,
                                  location=p.location))
    return out


__all__ = ["BaseCase", "BaseComparison", "compare_with_base"]
