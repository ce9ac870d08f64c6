"""The report's charts: static SVG drawn by matplotlib, read from the JSON report.

Why matplotlib's SVG and not Vega-Lite (Altair): the report must be one self-contained
file that opens anywhere, offline, years from now, is printed, and attached to an issue.
Vega-Lite charts are drawn in the browser by vega.js (about 800 kB, fetched from a CDN
or pasted into every report) or converted to SVG by a bundled JavaScript engine
(vl-convert); matplotlib writes plain SVG that any browser shows without scripts, needs
no network, and its text stays text (`svg.fonttype: none`: searchable, sharp at any
zoom). It is also the best known plotting library in Python, so a designer who wants
another chart can add one. No pyplot: each chart is a Figure of its own, so nothing
global is kept between charts (or threads).

Each chart's element ids are salted with the chart's name (`svg.hashsalt`), so many
charts inlined in one page never share an id, and the same report gives the same file.
"""

from __future__ import annotations

import io
import math
import re
import textwrap
from collections.abc import Sequence
from typing import Any

VARIANT_COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860",
                   "#da8bc3", "#8c8c8c"]
REASON_COLOURS = ["#59a14f", "#e15759", "#4e79a7", "#f28e2b", "#76b7b2", "#edc948",
                  "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
STYLE = {
    "svg.fonttype": "none",
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans", "Helvetica", "Arial"],
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 10,
    "axes.titleweight": "bold",
    "axes.titlelocation": "left",
    "legend.frameon": False,
    "legend.fontsize": 9,
}
ID_REFERENCE = re.compile(r'(\bid="|url\(#|href="#)')
WIDTH = 5.6
"""Inches at 72 per inch in the SVG: about 400 CSS pixels, two charts side by side."""


def group_charts(report: dict[str, Any], group: dict[str, Any], number: int
                 ) -> list[tuple[str, str]]:
    """(title, SVG markup) of each chart of a group of configurations."""
    runs = [report["configurations"][i] for i in group["configurations"]]
    labels = [_variant_label(report, r["variant"]) for r in runs]
    charts = [
        ("Win rate per seat", _wins(runs, labels)),
        ("Wins by agent", _agent_wins(runs, labels)),
        ("How games ended", _reasons(runs, labels)),
        ("Game length (turns)", _distribution(runs, labels, "turns", "turns per game",
                                              "share of games")),
        ("Options per decision", _distribution(runs, labels, "branching",
                                               "legal options at a decision",
                                               "share of decisions")),
        ("Options taken", _kinds(runs, labels)),
    ]
    if any(r["score_margin"] for r in runs):
        charts.append(("Score margin", _distribution(
            runs, labels, "score_margin", "highest score − second highest",
            "share of games")))
    return [(title, _svg(figure, f"g{number}c{i}"))
            for i, (title, figure) in enumerate(charts) if figure is not None]


def _variant_label(report: dict[str, Any], key: str) -> str:
    label = next(v["label"] for v in report["variants"] if v["key"] == key)
    return label if len(report["variants"]) == 1 else f"{key}: {label}"


def _figure(height: float) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(WIDTH, height))


def _svg(figure: Any, salt: str) -> str:
    """The figure as SVG markup to inline in HTML (no XML prologue)."""
    import matplotlib

    out = io.StringIO()
    with matplotlib.rc_context({**STYLE, "svg.hashsalt": salt}):
        figure.savefig(out, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = out.getvalue()
    text = text[text.index("<svg"):]
    # matplotlib numbers its groups per figure (figure_1, axes_1): in one page, ids must
    # differ, so each chart's ids and the references to them get its own prefix
    return ID_REFERENCE.sub(lambda m: f"{m.group(1)}{salt}-", text)


def _styled(make: Any) -> Any:
    """Run a chart's drawing with the report's style (fonts are measured as it draws)."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        return make()


def _wins(runs: Sequence[dict[str, Any]], labels: Sequence[str]) -> Any:
    seats = list(runs[0]["wins_by_seat"])
    names = [f"Player {s}" for s in seats] + ["Draws"]
    rates = [[run["wins_by_seat"][s] for s in seats] + [run["draws"]] for run in runs]
    fair = [runs[0]["fair_share"]] * len(seats) + [None]
    return _rate_bars(names, rates, fair, labels, "a seat's even share")


def _agent_wins(runs: Sequence[dict[str, Any]], labels: Sequence[str]) -> Any:
    """In a mixed matchup: how often each agent won, against its even share."""
    agents = runs[0]["agents"]
    if not agents:
        return None
    names = list(agents)
    rates = [[(run["agents"] or {}).get(name) or {"rate": 0, "low": 0, "high": 0}
              for name in names] for run in runs]
    fair = [agents[name]["fair_share"] for name in names]
    return _rate_bars([textwrap.shorten(n, 30, placeholder="…") for n in names], rates,
                      fair, labels, "its even share")


def _rate_bars(names: Sequence[str], rates: Sequence[Sequence[dict[str, Any]]],
               fair: Sequence[float | None], labels: Sequence[str], fair_label: str
               ) -> Any:
    """Rates as bars with their 95% intervals, a bar per variant in each category, and
    the even share of each category (if it has one) as a dashed line across it."""

    def make() -> Any:
        fig = _figure(2.5)
        ax = fig.add_subplot()
        width = 0.8 / len(rates)
        for v, (row, label) in enumerate(zip(rates, labels, strict=True)):
            xs = [i - 0.4 + width * (v + 0.5) for i in range(len(names))]
            ys = [100 * r["rate"] for r in row]
            errors = [[100 * (r["rate"] - r["low"]) for r in row],
                      [100 * (r["high"] - r["rate"]) for r in row]]
            ax.bar(xs, ys, width * 0.92, color=VARIANT_COLOURS[v % 8],
                   label=label if len(rates) > 1 else None, yerr=errors, capsize=3,
                   error_kw={"elinewidth": 1, "ecolor": "#333"})
        shown = False
        for i, share in enumerate(fair):
            if share is not None:
                ax.hlines(100 * share, i - 0.46, i + 0.46, colors="#555",
                          linestyles="--", linewidth=1,
                          label=None if shown else f"{fair_label}")
                shown = True
        ax.set_xticks(range(len(names)), names)
        ax.set_ylabel("% of games (95% interval)")
        ax.set_ylim(0, 100)
        ax.legend(loc="upper right")
        return fig

    return _styled(make)


def _reasons(runs: Sequence[dict[str, Any]], labels: Sequence[str]) -> Any:
    reasons: list[tuple[str, str | None]] = []
    for run in runs:
        for e in run["end_reasons"]:
            if all(e["reason"] != r for r, _ in reasons):
                reasons.append((e["reason"], e["end_rule"]))
    if not reasons:
        return None

    def make() -> Any:
        fig = _figure(0.9 + 0.35 * len(runs) + 0.28 * len(reasons))
        ax = fig.add_subplot()
        ys = list(range(len(runs)))[::-1]
        left = [0.0] * len(runs)
        for i, (reason, rule) in enumerate(reasons):
            shares = [100 * next((e["rate"] for e in run["end_reasons"]
                                  if e["reason"] == reason), 0.0) for run in runs]
            name = textwrap.shorten(f"{rule or 'end_game'}: {reason}", 52, placeholder="…")
            bars = ax.barh(ys, shares, 0.6, left=left, color=REASON_COLOURS[i % 10],
                           label=name)
            ax.bar_label(bars, [f"{s:.0f}%" if s >= 8 else "" for s in shares],
                         label_type="center", fontsize=9, color="white")
            left = [a + b for a, b in zip(left, shares, strict=True)]
        ax.set_yticks(ys, [textwrap.shorten(label, 28, placeholder="…") for label in labels])
        ax.set_xlim(0, 100)
        ax.set_xlabel("% of games")
        ax.legend(loc="upper left", bbox_to_anchor=(0, -0.35 if len(runs) < 3 else -0.2),
                  ncols=1)
        return fig

    return _styled(make)


def _distribution(runs: Sequence[dict[str, Any]], labels: Sequence[str], measure: str,
                  xlabel: str, ylabel: str) -> Any:
    """Each variant's distribution as bars (few values) or an outline, on the same bins
    for every variant so their heights compare."""
    hists = [(run[measure], label, v) for v, (run, label) in enumerate(
        zip(runs, labels, strict=True)) if run[measure]]
    if not hists:
        return None
    values = sorted({x for hist, _, _ in hists for x, _ in hist["histogram"]})
    step = max(hist["bin_width"] or 1 for hist, _, _ in hists)
    fewest = min(hist["count"] for hist, _, _ in hists)
    edges = _edges(values[0], values[-1] + step, step,
                   max(8, min(40, round(2 * math.sqrt(fewest)))))
    bars = len(values) <= 12

    def make() -> Any:
        from matplotlib.ticker import MaxNLocator

        fig = _figure(2.4)
        ax = fig.add_subplot()
        for hist, label, v in hists:
            colour = VARIANT_COLOURS[v % 8]
            shares = [100 * n / hist["count"] for _, n in hist["histogram"]]
            if bars:
                width = 0.8 * step / len(hists)
                offset = (v - (len(hists) - 1) / 2) * width
                ax.bar([x + offset for x, _ in hist["histogram"]], shares, width,
                       color=colour, label=label, alpha=0.9)
            else:
                heights = _heights(hist["histogram"], shares, edges)
                ax.stairs(heights, edges, color=colour, fill=True, alpha=0.25)
                ax.stairs(heights, edges, color=colour, label=label, linewidth=1.5)
            ax.axvline(hist["median"], color=colour, linestyle=":", linewidth=1)
        if bars:  # a few whole values: a tick on each, room beside the outer bars
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlim(values[0] - step, values[-1] + step)
        ax.set_xlabel(xlabel + " (dotted: median)")
        ax.set_ylabel(f"% ({ylabel})")
        if len(hists) > 1:
            ax.legend(loc="upper right")
        return fig

    return _styled(make)


def _edges(low: float, high: float, step: float, most: int) -> list[float]:
    """Bin edges from `low` to past `high`: widths of `step` doubled until there are at
    most `most` bins, for a readable outline."""
    width = step
    while (high - low) / width > most:
        width *= 2
    return [low + i * width for i in range(math.ceil((high - low) / width) + 1)]


def _heights(histogram: Sequence[Sequence[float]], shares: Sequence[float],
             edges: Sequence[float]) -> list[float]:
    width = edges[1] - edges[0] if len(edges) > 1 else 1
    heights = [0.0] * max(1, len(edges) - 1)
    for (x, _), share in zip(histogram, shares, strict=True):
        heights[min(int((x - edges[0]) // width), len(heights) - 1)] += share
    return heights


def _kinds(runs: Sequence[dict[str, Any]], labels: Sequence[str]) -> Any:
    kinds: list[str] = []
    for run in runs:
        kinds += [k["kind"] for k in run["option_kinds"] if k["kind"] not in kinds]
    if len(kinds) < 2:  # one kind of option: the table's 100% says it all
        return None
    shown = kinds[:15]

    def make() -> Any:
        fig = _figure(0.8 + 0.22 * len(shown) * max(1, len(runs) * 0.7))
        ax = fig.add_subplot()
        height = 0.8 / len(runs)
        for v, (run, label) in enumerate(zip(runs, labels, strict=True)):
            share = {k["kind"]: 100 * k["share"] for k in run["option_kinds"]}
            ys = [len(shown) - 1 - i + 0.4 - height * (v + 0.5) for i in range(len(shown))]
            ax.barh(ys, [share.get(k, 0.0) for k in shown], height * 0.92,
                    color=VARIANT_COLOURS[v % 8], label=label)
        ax.set_yticks(range(len(shown))[::-1], shown)
        ax.set_xlabel("% of decisions")
        if len(runs) > 1:
            ax.legend(loc="lower right")
        return fig

    return _styled(make)
