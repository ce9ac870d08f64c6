"""The report of an analysis as one JSON object, and its comparisons of variants.

Everything shown (the terminal's tables, the HTML report) is read from this object, so
the three cannot disagree. Each configuration (variant, seat count, matchup) gets its
rates with Wilson intervals and its distributions; each group of configurations that
differ only in the variant gets a comparison of every variant with the first (A): a
two-proportion test per rate, a Mann-Whitney test per distribution, Holm-corrected
over the comparison's tests.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from interpreter.agents import ruleset_settings
from interpreter.analyze.collect import Totals
from interpreter.analyze.plan import Config, Plan, shown_path
from interpreter.analyze.stats import (
    ALPHA,
    LEVEL,
    even_spread,
    holm,
    mann_whitney,
    two_proportions,
    wilson,
)


def build_report(plan: Plan, totals: Sequence[Totals], elapsed: float,
                 interrupted: bool) -> dict[str, Any]:
    """The contract of `analyze --json`."""
    first = plan.variants[0].game
    configurations = [_configuration(c, totals[c.index]) for c in plan.configs]
    played = sum(t.tally.games for t in totals)
    used = [text for m in plan.matchups for text in (m.field, m.focal) if text]
    return {
        "game": first.name,
        "title": first.title,
        "seed": plan.seed,
        "games_per_configuration": plan.games,
        "requested": plan.total_games,
        "games": played,
        "errors": sum(t.tally.errors for t in totals),
        "interrupted": interrupted,
        "seconds": round(elapsed, 3),
        "games_per_second": round(played / elapsed, 2) if elapsed > 0 else 0,
        "confidence": LEVEL,
        "alpha": ALPHA,
        "variants": [{"key": v.key, "label": v.label, "ruleset": v.game.name,
                      "title": v.game.title, "path": shown_path(v.ref[0]),
                      "options": v.game.options,
                      "computer_players": ruleset_settings(v.game, used)}
                     for v in plan.variants],
        "seat_counts": plan.seat_counts,
        "agents": [m.field for m in plan.matchups if m.focal is None],
        "configurations": configurations,
        "groups": _groups(plan, configurations, totals),
    }


def _rate(count: int, total: int) -> dict[str, Any]:
    return wilson(count, total).to_json()


def _configuration(config: Config, totals: Totals) -> dict[str, Any]:
    tally = totals.tally
    finished = tally.games - tally.errors
    p = config.players
    game = config.variant.game
    rule_of = {rule.text: rule.id for rule in game.end_rules}
    wins = [tally.wins.get(s, 0) for s in range(1, p + 1)]
    decisions = totals.decisions.total or 0
    out: dict[str, Any] = {
        "index": config.index,
        "variant": config.variant.key,
        "players": p,
        "matchup": config.matchup.key(),
        "matchup_label": config.matchup.label(p),
        "games": tally.games,
        "errors": tally.errors,
        "error_examples": [{"seed": s, "error": e} for s, e in tally.error_examples],
        "wins_by_seat": {str(s): _rate(w, finished) for s, w in enumerate(wins, start=1)},
        "draws": _rate(tally.draws, finished),
        "fair_share": round(1 / p, 4),
        "seat_balance_p": _significant(even_spread(wins)),
        "end_reasons": [{"reason": reason, "end_rule": rule_of.get(reason), **_rate(n, finished)}
                        for reason, n in tally.reasons.most_common()],
        "turns": totals.turns.to_json(),
        "decisions": totals.decisions.to_json(),
        "branching": totals.branching.to_json(),
        "option_kinds": [{"kind": k, "count": n,
                          "share": round(n / decisions, 4) if decisions else 0}
                         for k, n in sorted(totals.kinds.items(), key=lambda kv: -kv[1])],
        "score_margin": totals.margins.to_json(),
        "mean_scores": ({str(s): round(totals.score_sums[s] / totals.scored_games, 3)
                         for s in range(1, p + 1)} if totals.scored_games else None),
        "agents": None,
        "focal_agent": config.matchup.focal,
    }
    matchup = config.matchup
    if matchup.focal is not None:
        out["agents"] = {
            name: {"seats": seats, "fair_share": round(seats / p, 4),
                   **_rate(totals.agent_wins.get(name, 0), finished)}
            for name, seats in ((matchup.focal, 1), (matchup.field, p - 1))}
    return out


# -- comparisons ------------------------------------------------------------------------

@dataclass
class _Test:
    measure: str
    label: str
    a: float | None
    b: float | None
    p: float


def _rate_tests(a: dict[str, Any], b: dict[str, Any]) -> list[_Test]:
    fa, fb = a["games"] - a["errors"], b["games"] - b["errors"]
    pairs: list[tuple[str, str, dict | None, dict | None]] = []
    for seat in a["wins_by_seat"]:
        pairs.append((f"win:{seat}", f"Player {seat} wins", a["wins_by_seat"][seat],
                      b["wins_by_seat"].get(seat)))
    pairs.append(("draws", "Draws", a["draws"], b["draws"]))
    reasons_a = {r["reason"]: r for r in a["end_reasons"]}
    reasons_b = {r["reason"]: r for r in b["end_reasons"]}
    for reason in [*reasons_a, *(r for r in reasons_b if r not in reasons_a)]:
        pairs.append((f"reason:{reason}", f"Ended: {reason}", reasons_a.get(reason),
                      reasons_b.get(reason)))
    for name in a["agents"] or {}:
        pairs.append((f"agent:{name}", f"{name} wins", a["agents"][name],
                      (b["agents"] or {}).get(name)))
    tests = []
    for measure, label, ra, rb in pairs:
        ka, kb = (ra or {}).get("count", 0), (rb or {}).get("count", 0)
        tests.append(_Test(measure, label, ka / fa if fa else None, kb / fb if fb else None,
                           two_proportions(ka, fa, kb, fb)))
    return tests


def _distribution_tests(a: dict[str, Any], b: dict[str, Any]) -> list[_Test]:
    tests = []
    for measure, label in (("turns", "Turns per game"), ("decisions", "Decisions per game"),
                           ("score_margin", "Score margin")):
        ha, hb = a[measure], b[measure]
        if ha is None or hb is None:
            continue
        counts_a = {v: n for v, n in ha["histogram"]}
        counts_b = {v: n for v, n in hb["histogram"]}
        tests.append(_Test(measure, label, ha["median"], hb["median"],
                           mann_whitney(counts_a, counts_b)))
    return tests


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Every test of configuration b against a, Holm-corrected together."""
    tests = _rate_tests(a, b) + _distribution_tests(a, b)
    adjusted = holm(t.p for t in tests)
    return [{"measure": t.measure, "label": t.label, "a": _round(t.a), "b": _round(t.b),
             "p": _significant(t.p), "p_adjusted": _significant(q), "significant": q < ALPHA}
            for t, q in zip(tests, adjusted, strict=True)]


def _round(x: float | None, digits: int = 4) -> float | None:
    return None if x is None else round(x, digits)


def _significant(p: float) -> float:
    """A p-value to 4 significant digits (1e-30 stays 1e-30, not 0)."""
    return float(f"{p:.4g}")


def _groups(plan: Plan, configurations: list[dict[str, Any]], totals: Sequence[Totals]
            ) -> list[dict[str, Any]]:
    groups: dict[tuple[int, str], list[int]] = {}
    for c in plan.configs:
        groups.setdefault((c.players, c.matchup.key()), []).append(c.index)
    out = []
    for (players, matchup), indices in groups.items():
        base = configurations[indices[0]]
        out.append({
            "players": players,
            "matchup": matchup,
            "label": f"{players} players · {base['matchup_label']}",
            "configurations": indices,
            "comparisons": [{"baseline": base["variant"],
                             "variant": configurations[i]["variant"],
                             "tests": compare(base, configurations[i])}
                            for i in indices[1:]],
        })
    return out


# -- rows to show -----------------------------------------------------------------------

@dataclass
class Row:
    """One line of a group's table: a measure, its value for each variant, and whether
    it differs significantly from variant A's."""

    section: str
    label: str
    cells: list[str]
    marks: list[bool] = field(default_factory=list)


def percent(rate: dict[str, Any] | None, total: int = 0) -> str:
    """`48.0% (41.2–54.9)`: a rate with its 95% interval (None: 0 of `total`)."""
    if not rate:
        rate = _rate(0, total)
    return f"{100 * rate['rate']:.1f}% ({100 * rate['low']:.1f}–{100 * rate['high']:.1f})"


def spread(hist: dict[str, Any] | None) -> str:
    """`82 (60–110), mean 82.1`: median, 10th–90th percentile and mean."""
    if not hist:
        return "–"
    return (f"{_num(hist['median'])} ({_num(hist['p10'])}–{_num(hist['p90'])}), "
            f"mean {hist['mean']:.1f}")


def _num(x: float | None) -> str:
    if x is None:
        return "–"
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}"


def group_rows(report: dict[str, Any], group: dict[str, Any]) -> list[Row]:
    """The rows of a group's table, one cell per variant."""
    runs = [report["configurations"][i] for i in group["configurations"]]
    marks: dict[tuple[str, str], bool] = {}
    for comparison in group["comparisons"]:
        for test in comparison["tests"]:
            marks[(comparison["variant"], test["measure"])] = test["significant"]

    def row(section: str, label: str, measure: str | None, cells: list[str]) -> Row:
        return Row(section, label, cells,
                   [bool(measure) and marks.get((r["variant"], measure), False)
                    for r in runs])

    rows = [row("Games", "Games played", None, [str(r["games"]) for r in runs])]
    if any(r["errors"] for r in runs):
        rows.append(row("Games", "Stopped with an error", None,
                        [str(r["errors"]) for r in runs]))
    seats = list(runs[0]["wins_by_seat"])
    for seat in seats:
        rows.append(row("Wins (95% interval)", f"Player {seat}", f"win:{seat}",
                        [percent(r["wins_by_seat"].get(seat)) for r in runs]))
    rows.append(row("Wins (95% interval)", "Draws", "draws",
                    [percent(r["draws"]) for r in runs]))
    rows.append(row("Wins (95% interval)", "Seats even? (χ² p)", None,
                    [_balance(r) for r in runs]))
    for name in runs[0]["agents"] or {}:
        a = runs[0]["agents"][name]
        rows.append(row("Wins by agent", f"{name} ({a['seats']} of {group['players']} "
                        f"seats, fair {100 * a['fair_share']:.0f}%)", f"agent:{name}",
                        [percent((r["agents"] or {}).get(name)) for r in runs]))
    reasons: list[str] = []
    for r in runs:
        reasons += [e["reason"] for e in r["end_reasons"] if e["reason"] not in reasons]
    for reason in reasons:
        rule = next((e["end_rule"] for r in runs for e in r["end_reasons"]
                     if e["reason"] == reason), None)
        rows.append(row("How games ended", f"{_rule(rule)} {reason}",
                        f"reason:{reason}",
                        [percent(next((e for e in r["end_reasons"] if e["reason"] == reason),
                                      None), r["games"] - r["errors"]) for r in runs]))
    rows.append(row("Length", "Turns per game", "turns", [spread(r["turns"]) for r in runs]))
    rows.append(row("Length", "Decisions per game", "decisions",
                    [spread(r["decisions"]) for r in runs]))
    rows.append(row("Length", "Options per decision", None,
                    [spread(r["branching"]) + (f", max {_num(r['branching']['max'])}"
                                               if r["branching"] else "") for r in runs]))
    if any(r["score_margin"] for r in runs):
        rows.append(row("Scores", "Score margin (1st − 2nd)", "score_margin",
                        [spread(r["score_margin"]) for r in runs]))
    kinds: list[str] = []
    for r in runs:
        kinds += [k["kind"] for k in r["option_kinds"] if k["kind"] not in kinds]
    for kind in kinds:
        rows.append(row("Options taken (share of decisions)", kind, None,
                        [_share(r, kind) for r in runs]))
    return rows


def _balance(run: dict[str, Any]) -> str:
    p = run["seat_balance_p"]
    verdict = "uneven" if p < ALPHA else "even"
    return f"{verdict} (p={p:.3g})"


def _share(run: dict[str, Any], kind: str) -> str:
    found = next((k for k in run["option_kinds"] if k["kind"] == kind), None)
    return f"{100 * found['share']:.1f}%" if found else "–"


# -- headlines --------------------------------------------------------------------------

DOMINANT = 0.5
"""An end reason of at least this share of games is told in the headlines."""
MANY_DRAWS = 0.2


def headlines(report: dict[str, Any]) -> list[str]:
    """What a designer should see first: uneven seats, how most games end, many draws,
    and every significant difference between variants."""
    out: list[str] = []
    several = len(report["variants"]) > 1
    ends = {(e["reason"], e["end_rule"]) for run in report["configurations"]
            for e in run["end_reasons"]}
    if len(ends) == 1:  # one way of ending in every configuration: say it once
        [(reason, rule)] = ends
        out.append(f"Every game ended by {_rule(rule)} “{reason}”.")
    for group in report["groups"]:
        for i in group["configurations"]:
            run = report["configurations"][i]
            where = (f"{run['variant']}, " if several else "") + group["label"]
            finished = run["games"] - run["errors"]
            if not finished:
                continue
            if run["seat_balance_p"] < ALPHA:
                seat, best = max(run["wins_by_seat"].items(), key=lambda kv: kv[1]["rate"])
                out.append(f"{where}: the seats are uneven (χ² p={run['seat_balance_p']:.3g}); "
                           f"Player {seat} wins most, {percent(best)}.")
            if run["draws"]["rate"] >= MANY_DRAWS:
                out.append(f"{where}: {percent(run['draws'])} of games are draws.")
            top = run["end_reasons"][0] if run["end_reasons"] else None
            if top and top["rate"] >= DOMINANT and len(ends) > 1:
                out.append(f"{where}: {100 * top['rate']:.0f}% of games ended by "
                           f"{_rule(top['end_rule'])} “{top['reason']}”")
            for name, agent in (run["agents"] or {}).items():
                if name == run["focal_agent"]:  # the one moved from seat to seat
                    out.append(f"{where}: {name} wins {percent(agent)} of games, "
                               f"{_against(agent)} its even share of "
                               f"{100 * agent['fair_share']:.0f}%.")
            if run["errors"]:
                out.append(f"{where}: {run['errors']} games stopped with an error.")
        for comparison in group["comparisons"]:
            changed = [t for t in comparison["tests"] if t["significant"]]
            head = (f"{comparison['variant']} vs {comparison['baseline']}, "
                    f"{group['label']}: ")
            if not changed:
                out.append(head + "no significant difference.")
                continue
            out.append(head + "; ".join(_change(t) for t in changed) + ".")
    return out


def _rule(rule: str | None) -> str:
    """How an ending is named: its end rule's id, or end_game for an effect's."""
    return f"[{rule}]" if rule else "[end_game]"


def _against(rate: dict[str, Any]) -> str:
    """Where an agent's win rate stands against its even share, given its interval."""
    if rate["low"] > rate["fair_share"]:
        return "above"
    if rate["high"] < rate["fair_share"]:
        return "below"
    return "not clearly apart from"


def _change(test: dict[str, Any]) -> str:
    label = test["label"]
    if label.startswith("Ended: "):
        label = "Ended: " + textwrap.shorten(label[7:], 60, placeholder="…")
    if test["measure"] in ("turns", "decisions", "score_margin"):
        return f"{label} median {_num(test['a'])} → {_num(test['b'])}"
    return f"{label} {100 * (test['a'] or 0):.1f}% → {100 * (test['b'] or 0):.1f}%"
