"""A probe of how much a search could gain: a greedy one-move player against random.

For each of its options the greedy player carries the option out on a copy, goes on
through its own follow-up decisions (a colour to choose, a place to move to) taking the
best of each, and judges the position by its score minus the best other seat's score
(`Game.scores`: games with scores only). It looks no further: nothing of what the
others will do. It is not a computer player of the platform (it reads the true state,
and a score is no ranking in general); it measures the room above the searching
players: where it wins more often than `mcts` does, the search's judging of positions,
not its budget, is what holds it back.

    python benchmarks/greedy.py bottoms-up --players 6 --games 40

Each game is appended to `--out` (JSON lines) and a run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import make_agent  # noqa: E402
from interpreter.analyze.stats import wilson  # noqa: E402
from interpreter.api import load_game  # noqa: E402
from interpreter.errors import TabletopError  # noqa: E402
from interpreter.play.game import Game  # noqa: E402
from interpreter.run.state import State  # noqa: E402
from interpreter.simulate.playout import agent_seed, play_game  # noqa: E402

FOLLOW_UPS = 2
"""How many of its own decisions in a row the greedy player looks through."""


def margin(game: Game, state: State, seat: int) -> float:
    scores = game.scores(state) or {}
    return scores.get(seat, 0) - max(v for s, v in scores.items() if s != seat)


class Greedy:
    """Takes the option whose position scores best for it, one move deep."""

    def search(self, game: Game, state: State, seat: int) -> tuple[int, tuple]:
        best, best_value = None, 0.0
        for raw in game.raw_options(state, seat):
            value = self._value(game, self._after(game, state, seat, raw), seat, FOLLOW_UPS)
            if best is None or value > best_value:
                best, best_value = raw, value
        assert best is not None
        return best

    @staticmethod
    def _after(game: Game, state: State, seat: int, raw: tuple[int, tuple]) -> State:
        copy = state.copy()
        game.apply_trusted(copy, seat, raw)
        return copy

    def _value(self, game: Game, state: State, seat: int, follow: int) -> float:
        if not state.over and follow and game.deciding_seats(state) == [seat]:
            values = [self._value(game, self._after(game, state, seat, raw), seat, follow - 1)
                      for raw in game.raw_options(state, seat)]
            if values:
                return max(values)
        return margin(game, state, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "greedy.jsonl"))
    args = parser.parse_args()
    try:
        game = load_game(args.game)
        game.check_players(args.players)
    except TabletopError as exc:
        parser.error(str(exc))
    if game.score is None:
        parser.error(f"{args.game} has no scores for the greedy player to judge by")
    if args.players < 2:
        parser.error("--players: the greedy player needs at least one other seat")
    out = Path(args.out)
    records: list[dict[str, Any]] = (
        [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else [])
    done = {(r["game"], r["players"], r["index"]) for r in records}
    n = args.players
    with out.open("a") as stream:
        for index in range(args.games):
            if (args.game, n, index) in done:
                continue
            seat = index % n + 1
            agents: dict[int, Any] = {s: Greedy() if s == seat else
                                      make_agent("random", agent_seed(index, s))
                                      for s in range(1, n + 1)}
            result = play_game(game, n, index, agents, keep_state=False)
            record = {"game": args.game, "players": n, "index": index, "seat": seat,
                      "winners": result.winners}
            stream.write(json.dumps(record) + "\n")
            stream.flush()
            records.append(record)
            print(f"\r{index + 1}/{args.games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    rows = [r for r in records if r["game"] == args.game and r["players"] == n]
    wins = sum(1 for r in rows if r["winners"] == [r["seat"]])
    interval = wilson(wins, len(rows))
    print(f"{args.game}, {n} players: the greedy player won {wins} of {len(rows)} "
          f"({100 * interval.low:.1f}–{100 * interval.high:.1f}% at 95%)")


if __name__ == "__main__":
    main()
