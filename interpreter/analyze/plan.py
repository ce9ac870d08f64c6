"""What an analysis plays: variants × seat counts × agent matchups, N games each.

- Variants: every ruleset given (a game and its variant files), each with every
  combination of the option values given (`-o power_play=true -o power_play=false` is
  two variants; a key given once applies to all). They must be versions of one game:
  comparing two different games says nothing.
- Seat counts: those given with `-p`, else every count all the variants allow.
- Matchups: each agent at every seat; for each pair of agents, one of them in one seat
  against the other in the rest, moved a seat on each game (with two seats, `a vs b` and
  `b vs a` are the same games, so only one is played).

Every configuration plays the same seeds (game i has seed S + i), so variants are
compared on the same deals and dice where the rules allow. The work is handed out in
rounds, a batch of each configuration per round, so a run stopped early has played
some games of every configuration.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from interpreter.agents import check_agent
from interpreter.analyze.collect import Batch, GameRef, Matchup
from interpreter.api import load, load_game
from interpreter.errors import UsageError
from interpreter.load.catalog import find_ruleset, shorten
from interpreter.play.game import Game
from interpreter.simulate.playout import seed_batches

MAX_VARIANTS = 8
MAX_CONFIGURATIONS = 64
LETTERS = "ABCDEFGH"


@dataclass
class Variant:
    """One ruleset with one set of option values."""

    key: str
    """A, B, …: how tables and charts name it."""
    label: str
    ref: GameRef
    game: Game


@dataclass
class Config:
    """One cell of the grid: a variant at a seat count with a matchup."""

    index: int
    variant: Variant
    players: int
    matchup: Matchup


@dataclass
class Plan:
    variants: list[Variant]
    seat_counts: list[int]
    matchups: list[Matchup]
    configs: list[Config]
    games: int
    seed: int

    @property
    def total_games(self) -> int:
        return self.games * len(self.configs)

    def work(self, largest: int) -> Iterator[Batch]:
        """The batches, a round at a time over every configuration (made lazily)."""
        rounds = seed_batches(self.games, largest)
        for first, count in rounds:
            for config in self.configs:
                yield Batch(config.index, config.variant.ref, config.players,
                            config.matchup, self.seed, first, count)


def option_sets(pairs: Sequence[str]) -> list[dict[str, str]]:
    """`-o` pairs → every combination of the values given for each key (in the order
    given); a key given twice with the same value counts once."""
    values: dict[str, list[str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise UsageError(f"--option takes KEY=VALUE (e.g. -o power_play=false), not "
                             f"'{shorten(pair)}'")
        seen = values.setdefault(key, [])
        if value not in seen:
            seen.append(value)
    keys = list(values)
    return [dict(zip(keys, combo, strict=True))
            for combo in itertools.product(*(values[k] for k in keys))]


def split_agents(texts: Sequence[str]) -> list[str]:
    """`random,mcts:playouts=5,depth=5` → `["random", "mcts:playouts=5,depth=5"]`: a
    comma separates agents, unless what follows it is another KEY=VALUE setting."""
    out: list[str] = []
    for text in texts:
        for part in text.split(","):
            part = part.strip()
            if "=" in part and ":" not in part and out and ":" in out[-1]:
                out[-1] += "," + part
            elif part:
                out.append(part)
    return out


def matchups(agent_texts: Sequence[str]) -> list[Matchup]:
    """Each agent against itself, then each one against each other (see the module's
    docstring); checks every agent's name and settings."""
    agents: list[str] = []
    specs = []
    for text in split_agents(agent_texts) or ["random"]:
        spec = check_agent(text)
        if spec not in specs:
            specs.append(spec)
            agents.append(text)
    out = [Matchup(a) for a in agents]
    pairs = list(itertools.combinations(agents, 2))
    out += [Matchup(field, focal) for field, focal in pairs]  # the later one in one seat
    out += [Matchup(field, focal) for focal, field in pairs]  # then the other way round
    return out


def family(game: Game) -> str:
    """The game a ruleset is a version of: the name at the root of its `extends`."""
    loaded = game.loaded
    name = loaded.model.game.name
    for _ in range(16):  # variants stand on each other at most that deep (the loader's)
        if loaded.variant is None:
            break
        loaded = load(loaded.variant.base_path)
        name = loaded.model.game.name
    return name


def make_variants(rulesets: Sequence[str], pairs: Sequence[str]) -> list[Variant]:
    sets = option_sets(pairs)
    count = len(rulesets) * len(sets)
    if count > MAX_VARIANTS:
        raise UsageError(f"{count} variants to compare ({len(rulesets)} rulesets × "
                         f"{len(sets)} option sets); at most {MAX_VARIANTS}")
    varying = {k for k in (sets[0] if sets else {})
               if len({s[k] for s in sets}) > 1}
    variants: list[Variant] = []
    seen: dict[tuple, str] = {}
    for ruleset in rulesets:
        path = str(find_ruleset(ruleset).resolve())
        for options in sets:
            game = load_game(path, options)
            identity = (path, tuple(sorted(game.options.items())))
            key = LETTERS[len(variants)]
            if identity in seen:
                raise UsageError(f"variants {seen[identity]} and {key} are the same "
                                 f"ruleset with the same options")
            seen[identity] = key
            parts = [game.name] if len(rulesets) > 1 else []
            parts += [f"{k}={options[k]}" for k in options if k in varying]
            variants.append(Variant(key, " ".join(parts) or game.name, (path, options),
                                    game))
    families = {family(v.game) for v in variants}
    if len(families) > 1:
        names = " and ".join(sorted(families))
        raise UsageError(f"{names} are different games: analyze compares variants of one "
                         "game (a ruleset and the variant files that extend it)")
    return variants


def seat_counts(variants: Sequence[Variant], given: Sequence[int]) -> list[int]:
    """The seat counts asked for (each checked against every variant), else every
    count that all the variants allow."""
    if given:
        counts = sorted(set(given))
        for v in variants:
            for p in counts:
                v.game.check_players(p)
        return counts
    low = max(v.game.min_seats for v in variants)
    high = min(v.game.max_seats for v in variants)
    if low > high:
        raise UsageError("the variants allow no seat count in common")
    return list(range(low, high + 1))


def make_plan(rulesets: Sequence[str], pairs: Sequence[str], players: Sequence[int],
              agents: Sequence[str], games: int, seed: int) -> Plan:
    """Check everything the user gave before a single game is played."""
    if games < 1:
        raise UsageError(f"-n must be at least 1, not {games}")
    variants = make_variants(rulesets, pairs)
    counts = seat_counts(variants, players)
    all_matchups = matchups(agents)
    configs: list[Config] = []
    for p in counts:
        for matchup in all_matchups:
            if matchup.focal is not None and p == 2 and any(
                    c.players == 2 and c.matchup == Matchup(matchup.focal, matchup.field)
                    for c in configs):
                continue  # with two seats, a vs b and b vs a are the same games
            for variant in variants:
                configs.append(Config(len(configs), variant, p, matchup))
    if len(configs) > MAX_CONFIGURATIONS:
        raise UsageError(f"{len(configs)} configurations (variants × seat counts × "
                         f"matchups); at most {MAX_CONFIGURATIONS}: give fewer -p, -o "
                         "or --agents")
    return Plan(variants, counts, all_matchups, configs, games, seed)


def shown_path(path: str) -> str:
    """A ruleset's path as the report names it: relative to here when inside."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path
