"""The hostile inputs named in issue 38 ("Trust, round two"), kept in the suite.

Each probe is the catalogue's own (`tests/probes/`), judged as `test_reliability.py`
judges the probes of issue 9: exit code 0 or 1, no internal error, `FILE:LINE:COL`
where a file is at fault, the budget named where one ran out, the decision named for a
run-time rule error, within 2 s of CPU time (500 MB where run as a process).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.probes import catalogue as cat
from tests.test_reliability import check

NAMED = {
    # section 2: budgets that bound all work
    "budgets/set-shared-rows": "100,000 references to one 100,000-element row",
    "budgets/set-doubles-by-sharing": "set l = [l, l] sixty times",
    "budgets/say-nested-list": "say: {repeat(repeat('x' * 99999, 99999), 2)}",
    "budgets/definitions-16-doubling-validate": "sixteen definitions each calling the next "
                                                "twice, validated",
    "budgets/definitions-16-doubling-run": "the same, played",
    "cli/play-stdin-5mb-line": "a 5 MB line typed at the play prompt",
    "cli/play-stdin-50mb-no-newline": "50 MB at the play prompt with no end of line",
    "cli/play-save-5mb-line": "a 5 MB line while the game is being saved",
    # section 3: nothing from a ruleset runs in a page
    "html/hostile_texts": "markup in every text of a ruleset, through tabletop docs",
    "html/hostile_ids": "markup in ids and values, through tabletop docs",
    # the variants category of the closing note's table
    "variants/extends-itself": "a variant that extends itself",
    "variants/extends-a-circle-of-two": "two variants that extend each other",
    "variants/extends-dev-zero": "a variant whose base is /dev/zero",
    # section 5: every run-time error says where and when
    "rules/notation-error-at-decision": "an option's notation fails at decision 3",
    "rules/notation-error-matching-a-typed-move": "a notation fails while a typed move "
                                                  "is matched against the options",
    "rules/notation-error-in-play": "a notation fails at the play prompt",
}

PROBES = {p.name: p for p in cat.catalogue()}


def test_the_catalogue_keeps_every_probe_named_in_issue_38() -> None:
    assert set(NAMED) <= set(PROBES), sorted(set(NAMED) - set(PROBES))


@pytest.mark.parametrize("name", list(NAMED), ids=list(NAMED))
def test_a_probe_named_in_issue_38(name: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    check(PROBES[name], tmp_path, monkeypatch)
