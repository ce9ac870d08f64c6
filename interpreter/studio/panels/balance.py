"""The balance panel: `tabletop analyze` on the editor's draft (the same plan, games,
report and charts), in a background thread with its progress, and a stop that does what
Ctrl-C does in the terminal: the games played so far are reported, marked stopped.

Jobs run one at a time (the machine's cores are shared with the editor's checks, and
the batch runner keeps one compiled game per ruleset path): starting a job stops the
one running. The last few jobs are kept in memory for their reports.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from interpreter.analyze.charts import group_charts
from interpreter.analyze.plan import Plan, make_plan
from interpreter.analyze.runner import analyze
from interpreter.analyze.summary import headlines
from interpreter.errors import TabletopError
from interpreter.studio.app import JSON, body
from interpreter.studio.panels import answer, drafts_in_force
from interpreter.studio.workspace import StudioError, Workspace

MAX_GAMES = 5000
"""Games per configuration at most from the studio (the terminal has no limit)."""
KEPT_JOBS = 8


@dataclass
class Job:
    """One balance run: its progress while it plays, then its report."""

    id: str
    path: str
    total: int
    played: int = 0
    status: str = "running"
    report: dict[str, Any] | None = None
    error: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"job": self.id, "path": self.path, "status": self.status,
                               "played": self.played, "total": self.total}
        if self.report is not None:
            out["report"] = self.report
        if self.error is not None:
            out["error"] = self.error
        return out


class Stopped(KeyboardInterrupt):
    """Raised from the progress callback when the designer stops the run: the batch
    runner takes it as Ctrl-C (it keeps what was played and reports it, stopped)."""


def _options(value: Any) -> list[str]:
    """The request's {option: value} → the CLI's KEY=VALUE pairs."""
    if value is None:
        return []
    if not isinstance(value, dict):
        raise StudioError("'options' must be an object: {option: value}")
    pairs = []
    for key, v in value.items():
        if isinstance(v, bool):
            v = "true" if v else "false"
        if not isinstance(v, str | int | float):
            raise StudioError(f"option '{key}': give one value (a word, number or "
                              "true/false)")
        pairs.append(f"{key}={v}")
    return pairs


def _whole(value: Any, key: str, default: int | None, low: int, high: int) -> int | None:
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise StudioError(f"'{key}' must be a whole number from {low} to {high}")
    return value


def plan_for(ws: Workspace, data: dict[str, Any]) -> tuple[Plan, list[str]]:
    """The analysis the request asks for, checked before any game is played (as
    `tabletop analyze` checks its arguments); drafts must be in force. Returns the plan
    and the rulesets it compares (the base first, when compared with it)."""
    name = data.get("path")
    path = ws.resolve(name)
    games = _whole(data.get("games"), "games", 50, 1, MAX_GAMES)
    players = _whole(data.get("players"), "players", None, 1, 64)
    seed = _whole(data.get("seed"), "seed", 0, -(2 ** 62), 2 ** 62)
    agents = data.get("agents", "random")
    if not isinstance(agents, str) or not agents.strip():
        raise StudioError("'agents' must name the computer players, e.g. 'random' or "
                          "'random,mcts'")
    rulesets = [str(path)]
    if data.get("compare_base"):
        variant = ws.loaded(name).variant
        if variant is None:
            raise StudioError(f"{name} is not a variant (it extends no other game): there "
                              "is no base to compare it with")
        rulesets.insert(0, variant.base_path)
    assert games is not None and seed is not None
    try:
        plan = make_plan(rulesets, _options(data.get("options")),
                         [players] if players is not None else [], [agents], games, seed)
    except TabletopError as exc:
        raise StudioError(str(exc).splitlines()[0]) from None
    return plan, rulesets


def report_json(report: dict[str, Any], plan: Plan, compared: bool) -> dict[str, Any]:
    """The panel's report from `analyze`'s: the headlines; `seats`, each seat's win rate
    with its 95% Wilson interval (`count` wins of `total` finished games, `fair_share`
    an even share), one row per seat and seat count; `groups`, each seat count's
    games, draws, end reasons and lengths as analyze reports them; and the charts
    `analyze --html` draws (compared with its base, the two side by side in each
    chart). Compared with its base (variant A), the base's rows go under `base`."""
    several = len(report["groups"]) > 1

    def side(key: str) -> dict[str, Any]:
        game = next(v.game for v in plan.variants if v.key == key)
        seats, groups = [], []
        for group in report["groups"]:
            for i in group["configurations"]:
                run = report["configurations"][i]
                if run["variant"] != key:
                    continue
                finished = run["games"] - run["errors"]
                for s, rate in run["wins_by_seat"].items():
                    name = game.seat_name(int(s))
                    seats.append({"seat": int(s), "players": run["players"],
                                  "label": f"{group['label']}: {name}" if several else name,
                                  **rate, "total": finished,
                                  "fair_share": run["fair_share"]})
                groups.append({
                    "label": group["label"], "players": run["players"],
                    "games": run["games"], "errors": run["errors"],
                    "error_examples": run["error_examples"], "draws": run["draws"],
                    "seat_balance_p": run["seat_balance_p"],
                    "end_reasons": run["end_reasons"], "turns": run["turns"],
                    "decisions": run["decisions"]})
        variant = next(v for v in report["variants"] if v["key"] == key)
        return {"key": key, "label": variant["label"], "title": variant["title"],
                "seats": seats, "groups": groups}

    keys = [v["key"] for v in report["variants"]]
    charts = [{"title": f"{title} ({group['label']})" if several else title, "svg": svg}
              for n, group in enumerate(report["groups"])
              for title, svg in group_charts(report, group, n)]
    out = {**side(keys[-1]), "headlines": headlines(report), "charts": charts,
           "games": report["games"], "requested": report["requested"],
           "errors": report["errors"], "seconds": report["seconds"],
           "interrupted": report["interrupted"]}
    if compared:
        out["base"] = {**side(keys[0]), "headlines": [], "charts": []}
    return out


class Balance:
    """The workspace's balance jobs."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.numbers = itertools.count(1)
        self.lock = threading.Lock()
        self.running: Job | None = None

    def start(self, data: dict[str, Any]) -> dict[str, Any]:
        """Check the request and the draft, then play in the background."""
        name = data.get("path")
        self.ws.resolve(name)
        previous = self.running
        if previous is not None:
            previous.stop.set()
            previous.done.wait(timeout=30)
        with drafts_in_force(self.ws, ruleset=name):
            plan, rulesets = plan_for(self.ws, data)
        job = Job(f"b{next(self.numbers)}", self.ws.shown(self.ws.resolve(name)),
                  plan.total_games)
        with self.lock:
            self.jobs[job.id] = job
            while len(self.jobs) > KEPT_JOBS:
                oldest = next(iter(self.jobs))
                if self.jobs[oldest].status == "running":
                    break
                del self.jobs[oldest]
            self.running = job
        thread = threading.Thread(target=self._run, args=(job, name, plan, len(rulesets) > 1),
                                  name=f"studio-balance-{job.id}", daemon=True)
        thread.start()
        return {"job": job.id}

    def _run(self, job: Job, name: str, plan: Plan, compared: bool) -> None:
        """Play the plan (the drafts in force again in this thread: the same texts the
        plan was checked on, unless the designer typed since) and report."""
        def progress(games: int) -> None:
            job.played += games
            if job.stop.is_set():
                raise Stopped

        try:
            with drafts_in_force(self.ws, ruleset=name):
                report = analyze(plan, 1, progress=progress)
            job.played = report["games"]
            job.report = report_json(report, plan, compared)
            job.status = "stopped" if report["interrupted"] else "done"
        except StudioError as exc:  # the draft stopped loading since the run was asked for
            job.status, job.error = "failed", exc.message
        except TabletopError as exc:
            job.status, job.error = "failed", str(exc)
        except Exception as exc:  # a bug must end the job, not hang the panel
            job.status, job.error = "failed", f"the analysis failed: {exc!r}"
        finally:
            with self.lock:
                if self.running is job:
                    self.running = None
            job.done.set()

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise StudioError(f"there is no balance run '{job_id[:40]}' (the studio keeps "
                              f"the last {KEPT_JOBS})", 404)
        return job

    def stop(self, job_id: str, wait: float = 10.0) -> dict[str, Any]:
        """Stop a job as Ctrl-C would, and answer once it has reported."""
        job = self.get(job_id)
        job.stop.set()
        job.done.wait(timeout=wait)
        return job.json()


def wait_for(job: Job, timeout: float) -> None:
    """Until the job ends (tests and scripts)."""
    end = time.monotonic() + timeout
    while not job.done.is_set() and time.monotonic() < end:
        job.done.wait(0.05)


def routes(ws: Workspace) -> list[BaseRoute]:
    balance = Balance(ws)

    async def start(request: Request) -> Response:
        data = await body(request)
        return await answer(balance.start, data)

    async def status(request: Request) -> Response:
        return JSON(balance.get(request.path_params["job"]).json())

    async def stop(request: Request) -> Response:
        return await answer(balance.stop, request.path_params["job"])

    return [Route("/api/balance", start, methods=["POST"]),
            Route("/api/balance/{job}", status, methods=["GET"]),
            Route("/api/balance/{job}/stop", stop, methods=["POST"])]


__all__ = ["Balance", "Job", "plan_for", "report_json", "routes"]
