"""How strong the searching players are: one of them against random players.

For each bundled game and seat count (and Caldera with and without Power Play), plays
`--games` games with the searching player at one seat (seat 1 in game 0, seat 2 in
game 1, ... so it plays every seat equally) and `random` at the others, and reports its
win rate with a 95% Wilson interval. Each game is appended to `--out` (JSON lines) as it
finishes, so a run can be stopped and resumed: games already there are not played
again. `--mirror` plays the searching player against itself instead, and reports how
the games ended (Caldera: by trios or by the quiet-turns ruling).

    python benchmarks/agents.py --games 200 --jobs 2                   # everything
    python benchmarks/agents.py --only caldera --agent mcts:playouts=400
    python benchmarks/agents.py --only aquarium --agent ismcts --players 2
    python benchmarks/agents.py --only caldera --mirror --games 50
    python benchmarks/agents.py --only high-rise --options rows=8,cols=8 --players 2 \
        --agent mcts --versus mcts:groups=0 --seed 1000 --games 11     # head to head
    python benchmarks/agents.py --report                               # the table only
    python benchmarks/agents.py --missing                              # what is left, its cost

Players are measured as written: a ruleset's `computer_players` settings are not
applied (so a record's agent names all its settings); `--agent mcts:judge=score` measures
what such a ruleset's `mcts` plays.

A benchmark, not a test: the whole run takes hours on two cores.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import check_agent  # noqa: E402
from interpreter.analyze.stats import wilson  # noqa: E402
from interpreter.api import load_game  # noqa: E402
from interpreter.errors import TabletopError  # noqa: E402
from interpreter.simulate.playout import agent_seed, play_game, worker_game  # noqa: E402

HIDDEN = {"bottoms-up", "aquarium", "aquarius-rising"}
"""The bundled games with secrets between players (where ismcts is measured too)."""


def configurations(only: str | None, players: int | None, chosen: str | None = None
                   ) -> list[dict[str, Any]]:
    """Every bundled game and seat count: Caldera with Power Play on and off. With
    `chosen` options ("rows=8,cols=8"), only that option set (of any game)."""
    out = []
    for name in ["caldera", "high-rise", "bottoms-up", "aquarium", "aquarius-rising"]:
        if only and name != only:
            continue
        game = load_game(name, {})
        option_sets: list[dict[str, str]] = [{}]
        if name == "caldera":
            option_sets = [{"power_play": "true"}, {"power_play": "false"}]
        if chosen:
            option_sets = [dict(sorted(kv.split("=", 1) for kv in chosen.split(",")))]
            game = load_game(name, option_sets[0])
        for options in option_sets:
            for n in range(game.min_seats, game.max_seats + 1):
                if players is None or n == players:
                    out.append({"game": name, "options": options, "players": n})
    return out


def _key(config: dict[str, Any], agent: str, mirror: bool, index: int,
         versus: str = "random", seed: int = 1) -> str:
    """A game's name in the records (the opponents and the seed only when not the
    defaults, so the records of earlier runs keep their names)."""
    fields: list[Any] = [config["game"], config["options"], config["players"], agent,
                         mirror, index]
    if versus != "random" or seed != 1:
        fields += [versus, seed]
    return json.dumps(fields, sort_keys=True)


def play_one(job: tuple[dict[str, Any], str, bool, int, int, str]) -> dict[str, Any]:
    """One game: the searching player at seat index % players + 1, `versus` at the
    others (the agent itself when `mirror`)."""
    from interpreter.agents import make_agent

    config, agent, mirror, index, seed, versus = job
    game = worker_game((config["game"], config["options"]))
    n = config["players"]
    seat = index % n + 1
    agents = {s: make_agent(agent if mirror or s == seat else versus,
                            agent_seed(seed + index, s)) for s in range(1, n + 1)}
    started, cpu = time.perf_counter(), time.process_time()
    result = play_game(game, n, seed + index, agents, keep_state=False)
    extra = {"versus": versus, "seed": seed} if versus != "random" or seed != 1 else {}
    return {"key": _key(config, agent, mirror, index, versus, seed), **config,
            "agent": agent, **extra,
            "mirror": mirror, "index": index, "seat": seat, "winners": result.winners,
            "reason": result.reason, "turns": result.turns,
            "decisions": len(result.decisions),
            "seconds": round(time.perf_counter() - started, 2),
            "cpu_seconds": round(time.process_time() - cpu, 2)}


def _options_text(options: dict[str, Any]) -> str:
    """A configuration's options as one key, the same for a record and a configuration."""
    return ",".join(f"{k}={v}" for k, v in sorted(options.items()))


def report(records: list[dict[str, Any]]) -> str:
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        options = _options_text(r["options"])
        groups[(r["game"], options, r["players"], r["agent"], r["mirror"],
                r.get("versus", "random"))].append(r)
    lines = ["| game | options | players | agent | games | wins | draws | win rate (95% CI) "
             "| s/game | how games ended |", "|---|---|---|---|---|---|---|---|---|---|"]
    for (name, options, n, agent, mirror, versus), rs in sorted(groups.items()):
        games = len(rs)
        wins = sum(1 for r in rs if r["winners"] == [r["seat"]])
        draws = sum(1 for r in rs if len(r["winners"]) != 1)
        interval = wilson(wins, games)
        low, high = interval.low, interval.high
        ends = Counter(_short(r["reason"]) for r in rs)
        ended = "; ".join(f"{reason} {count}" for reason, count in ends.most_common())
        who = f"{agent} vs itself" if mirror else f"{agent} vs {versus}"
        rate = "–" if mirror else f"{100 * wins / games:.1f}% ({100 * low:.1f}–{100 * high:.1f})"
        seconds = sum(r["seconds"] for r in rs) / games
        lines.append(f"| {name} | {options or '–'} | {n} | {who} | {games} | "
                     f"{'–' if mirror else wins} | {draws} | {rate} | {seconds:.1f} | {ended} |")
    return "\n".join(lines)


STANDARD_AGENTS = ("mcts:playouts=400", "ismcts")
"""The figures the project keeps: `mcts` everywhere, `ismcts` where there are secrets."""


def missing(records: list[dict[str, Any]], games: int) -> str:
    """What the standard figures still lack, and its cost at the recorded speed.

    Seconds per game are the mean of the configuration's newest records (up to 20), so a
    faster engine shows up as its games come in: CPU seconds where recorded (a game
    played on a busy machine takes longer, not more of a core), else wall seconds. A
    configuration with no record says so."""
    by_config: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        if not r["mirror"] and r.get("versus", "random") == "random":
            options = _options_text(r["options"])
            by_config[(r["game"], options, r["players"], r["agent"])].append(r)
    lines = ["| game | options | players | agent | games | left | s/game | core-hours left |",
             "|---|---|---|---|---|---|---|---|"]
    total = 0.0
    unknown = 0
    for config in configurations(None, None):
        options = _options_text(config["options"])
        for agent in STANDARD_AGENTS:
            if agent == "ismcts" and config["game"] not in HIDDEN:
                continue
            rs = by_config[(config["game"], options, config["players"], agent)]
            left = max(0, games - len(rs))
            if rs:
                newest = rs[-20:]
                seconds = sum(r.get("cpu_seconds", r["seconds"]) for r in newest) / len(newest)
                hours = left * seconds / 3600
                total += hours
                cost = f"{seconds:.1f} | {hours:.1f}"
            else:
                unknown += left
                cost = "– | unknown"
            lines.append(f"| {config['game']} | {options or '–'} | {config['players']} | "
                         f"{agent} | {len(rs)} | {left} | {cost} |")
    lines.append(f"\n{total:.1f} core-hours left at the recorded speeds"
                 + (f", and {unknown} games of configurations never timed" if unknown else "")
                 + f" (for {games} games each).")
    return "\n".join(lines)


def _short(reason: str | None) -> str:
    text = reason or "(no reason)"
    return text if len(text) <= 48 else text[:45] + "..."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--agent", default="mcts:playouts=400")
    parser.add_argument("--only", help="one bundled game")
    parser.add_argument("--players", type=int)
    parser.add_argument("--options", help="only this option set, e.g. power_play=false "
                        "or rows=8,cols=8")
    parser.add_argument("--versus", default="random",
                        help="the other seats' player, e.g. mcts:groups=0 (default random)")
    parser.add_argument("--mirror", action="store_true", help="the agent against itself")
    parser.add_argument("--hidden", action="store_true",
                        help="only the games with secrets between players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "agents.jsonl"))
    parser.add_argument("--report", action="store_true", help="only print the table")
    parser.add_argument("--missing", action="store_true",
                        help="only print what the standard figures (mcts everywhere, ismcts "
                        "where there are secrets) lack of --games each, and its cost")
    args = parser.parse_args()
    check_agent(args.agent)
    check_agent(args.versus)
    if args.options and not all("=" in kv for kv in args.options.split(",")):
        parser.error(f"--options {args.options}: write KEY=VALUE[,KEY=VALUE...]")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    if args.missing:
        print(missing(records, args.games))
        return
    if not args.report:
        done = {r["key"] for r in records}
        jobs = []
        try:
            chosen = configurations(args.only, args.players, args.options)
        except TabletopError as exc:
            parser.error(str(exc))
        for config in chosen:
            if args.hidden and config["game"] not in HIDDEN:
                continue
            for index in range(args.games):
                key = _key(config, args.agent, args.mirror, index, args.versus, args.seed)
                if key not in done:
                    jobs.append((config, args.agent, args.mirror, index, args.seed,
                                 args.versus))
        print(f"{len(jobs)} games to play", file=sys.stderr)
        started = time.perf_counter()
        with out.open("a") as stream, multiprocessing.Pool(args.jobs) as pool:
            for k, record in enumerate(pool.imap_unordered(play_one, jobs), start=1):
                stream.write(json.dumps(record) + "\n")
                stream.flush()
                records.append(record)
                elapsed = time.perf_counter() - started
                print(f"\r{k}/{len(jobs)} games, {elapsed:.0f} s, ~"
                      f"{elapsed / k * (len(jobs) - k) / 60:.0f} min left ", end="",
                      file=sys.stderr, flush=True)
        print(file=sys.stderr)
    print(report(records))


if __name__ == "__main__":
    main()
