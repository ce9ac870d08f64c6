"""The guides' examples run: every ```python block of guides/openspiel.md and
guides/pettingzoo.md, in order, in one namespace per guide (as a reader would paste
them)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

GUIDES = Path(__file__).resolve().parent.parent / "guides"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def python_blocks(path: Path) -> list[str]:
    return BLOCK.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("guide", "extra"), [("openspiel.md", "pyspiel"),
                                              ("pettingzoo.md", "pettingzoo")])
def test_the_guides_examples_run(guide: str, extra: str) -> None:
    pytest.importorskip(extra)
    blocks = python_blocks(GUIDES / guide)
    assert blocks, f"{guide} has no python example"
    namespace: dict = {"__name__": "__guide__"}
    for i, block in enumerate(blocks):
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(block, f"{guide}, example {i + 1}", "exec"), namespace)
            except Exception as exc:
                raise AssertionError(f"{guide}, example {i + 1} fails: {exc!r}\n{block}"
                                     ) from exc
