"""The compile memories (interpreter/compile/memo.py): a recompile finds what it compiled
before, yet an edited ruleset behaves as edited, and the memories stay bounded."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from interpreter.assemble.game import compile_game
from interpreter.compile import memo
from interpreter.compile.expressions import MAX_NESTING, ExpressionError, parse
from interpreter.load.loader import load_ruleset_text
from interpreter.play.game import Game

BUNDLED = Path(__file__).resolve().parents[1] / "rulesets"
NIM = BUNDLED / "nim.yaml"
CALDERA = BUNDLED / "caldera.yaml"


@pytest.fixture(autouse=True)
def empty_memories() -> Iterator[None]:
    """Each test starts from nothing remembered (another test's compiles would count)."""
    memo.forget_all()
    yield
    memo.forget_all()


def compiled(text: str, path: Path = NIM) -> Game:
    return compile_game(load_ruleset_text(text, str(path)))


def sources(game: Game) -> list[tuple[str, str]]:
    return [(c.name, c.source) for c in game.generated_code]


def options_at_start(game: Game) -> int:
    return len(game.legal_options(game.new_state(), 1))


def test_a_recompile_after_an_edit_finds_everything_remembered() -> None:
    text = CALDERA.read_text(encoding="utf-8")
    first = compiled(text, CALDERA)
    made = {m: m.misses for m in memo.MEMORIES}
    assert all(made.values()), "caldera uses every memory"
    for m in memo.MEMORIES:
        m.hits = m.misses = 0
    edited = text.replace("summary: >-\n", "summary: >-\n    Edited.\n", 1)
    assert edited != text
    again = compiled(edited, CALDERA)
    assert {m: m.misses for m in memo.MEMORIES} == dict.fromkeys(memo.MEMORIES, 0)
    assert memo.CODE.hits == made[memo.CODE]  # (every generated function found)
    assert memo.TABLES.hits >= made[memo.TABLES]
    assert sources(again) == sources(first)  # the same names, so the same source


def test_generated_names_are_numbered_game_by_game() -> None:
    """The names do not depend on what the process compiled before (they did: one count
    for the whole process), so the source of a recompile is found remembered."""
    text = NIM.read_text(encoding="utf-8")
    one = sources(compiled(text))
    compiled(CALDERA.read_text(encoding="utf-8"), CALDERA)
    assert sources(compiled(text)) == one
    assert one[0][0] == "e0"


def test_a_changed_definition_behaves_as_changed() -> None:
    text = NIM.read_text(encoding="utf-8")
    assert options_at_start(compiled(text)) == 1 + 3 + 5 + 7
    smaller = text.replace('value: "[1, 3, 5, 7]"', 'value: "[1, 3, 5, 6]"')
    assert smaller != text
    assert options_at_start(compiled(smaller)) == 1 + 3 + 5 + 6
    assert options_at_start(compiled(text)) == 1 + 3 + 5 + 7  # and back again


def test_the_same_text_meaning_different_things_in_two_games() -> None:
    """`taken` is a zone (empty at the start) in one game and a definition naming the
    heaps (all 16 matches) in the other: the same condition text, compiled in each."""
    text = NIM.read_text(encoding="utf-8")
    zone = text.replace("where: n <= height(heap)",
                        "where: n <= height(heap) + count(pieces(taken))")
    definition = (zone.replace("  - id: taken\n", "  - id: taken_pile\n")
                  .replace("to: taken\n", "to: taken_pile\n")
                  .replace("define:\n", "define:\n  taken: heaps\n"))
    assert "taken_pile" in definition and "taken: heaps" in definition
    assert options_at_start(compiled(zone)) == 16
    assert options_at_start(compiled(definition)) == 4 * 7  # n up to 7 on every heap
    assert options_at_start(compiled(zone)) == 16
    cold = sources(compiled(definition))
    memo.forget_all()
    assert sources(compiled(definition)) == cold


def test_shared_trees_are_never_changed() -> None:
    """The trees handed to every reader (memo.TREES) read as a fresh parse of their
    text after compiling games that use them many times over."""
    for path in (CALDERA, BUNDLED / "aquarium.yaml", BUNDLED / "oware.yaml"):
        compiled(path.read_text(encoding="utf-8"), path)
    assert len(memo.TREES) > 100
    for text, (tree, _) in memo.TREES.items.items():
        assert ast.dump(tree, include_attributes=True) == ast.dump(
            parse(str(text)), include_attributes=True), text


def test_a_memory_forgets_the_least_recently_used() -> None:
    memory = memo.Memory[int](3)
    for n in range(3):
        memory.get(n, lambda n=n: n * 10)
    assert memory.get(0, lambda: -1) == 0  # (0 used again: 1 is now the oldest)
    memory.get(3, lambda: 30)
    assert len(memory) == 3
    assert 1 not in memory.items and 0 in memory.items
    assert (memory.hits, memory.misses) == (1, 4)


def test_a_memory_weighs_its_values() -> None:
    memory = memo.Memory[list[int]](10, len)
    memory.get("a", lambda: [0] * 6)
    memory.get("b", lambda: [0] * 4)
    assert memory.weight == 10 and len(memory) == 2
    memory.get("c", lambda: [0] * 5)
    assert list(memory.items) == ["b", "c"] and memory.weight == 9  # (the oldest went)
    assert memory.get("huge", lambda: [0] * 11) == [0] * 11  # given, but not kept
    assert list(memory.items) == ["b", "c"] and memory.weight == 9


def test_the_memories_stay_within_their_sizes() -> None:
    sizes = {m: m.size for m in memo.MEMORIES}
    try:
        for m in memo.MEMORIES:
            m.size = 20 if m is not memo.TABLES else 5000
        compiled(CALDERA.read_text(encoding="utf-8"), CALDERA)
        for m in memo.MEMORIES:
            assert 0 < m.weight <= m.size, m
            assert m.weight == sum(w for _, w in m.items.values())
    finally:
        for m, size in sizes.items():
            m.size = size


def test_an_expression_that_fails_is_not_remembered() -> None:
    deep = "-" * (MAX_NESTING + 1) + "1"  # (deep for tabletop, not for Python's parser)
    for _ in range(2):
        with pytest.raises(ExpressionError, match="nests more than"):
            parse(deep)
    assert memo.SHALLOW.hits == 0 and len(memo.SHALLOW) == 0
    parse("1 + 2")
    parse("1 + 2")
    assert memo.SHALLOW.hits == 1


def test_board_tables_follow_the_board_exactly() -> None:
    """A pile laid out before the same 5×5 board numbers its squares one later: the
    remembered tables of the first board must not serve the second."""
    text = CALDERA.read_text(encoding="utf-8")
    shifted = text.replace("zones:\n", "zones:\n  - id: spare\n    label: Spare\n"
                           "    kind: pile\n    on_table: false\n", 1)
    assert shifted != text
    warm_first = compiled(text, CALDERA)._compiler.tables  # type: ignore[attr-defined]
    warm = compiled(shifted, CALDERA)._compiler.tables  # type: ignore[attr-defined]
    memo.forget_all()
    cold = compiled(shifted, CALDERA)._compiler.tables  # type: ignore[attr-defined]
    assert len(warm) > 1 and warm == cold
    assert warm_first["shape"] != warm["shape"]
    assert any(warm_first[k] != warm[k] for k in warm if k != "shape")


def test_threads_compiling_at_once_get_the_same_game() -> None:
    """A server compiles in several threads: the memories stay whole and agree."""
    text = CALDERA.read_text(encoding="utf-8")
    alone = sources(compiled(text, CALDERA))
    memo.forget_all()
    with ThreadPoolExecutor(4) as pool:
        games = list(pool.map(lambda _: compiled(text, CALDERA), range(4)))
    assert all(sources(g) == alone for g in games)
    for m in memo.MEMORIES:
        assert m.weight == sum(w for _, w in m.items.values()) <= m.size
