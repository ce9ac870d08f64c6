"""The layers import one way: load → compile (with primitives) → run.

compile/ only produces a Game (tables and generated functions); every operation on a
state lives in run/, which never reaches back into compile/ or primitives/ (not even for
type hints), and load/ knows nothing of compile/ or run/.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "interpreter"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (functions, TYPE_CHECKING blocks)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("layer, forbidden", [
    ("run", ("interpreter.compile", "interpreter.primitives")),
    # a primitive's schema lives with it (load/ reads effects through it)
    ("load", ("interpreter.compile", "interpreter.run")),
])
def test_a_layer_imports_nothing_from_the_layers_after_it(layer: str,
                                                          forbidden: tuple[str, ...]) -> None:
    files = sorted((PACKAGE / layer).glob("*.py"))
    assert files
    for path in files:
        bad = sorted(m for m in imported_modules(path) if m.startswith(forbidden))
        assert not bad, f"{path.relative_to(PACKAGE.parent)} imports {bad}"


@pytest.mark.parametrize("layer, forbidden", [
    ("run", ("interpreter.compile", "interpreter.primitives")),
    ("load", ("interpreter.compile", "interpreter.run")),
])
def test_importing_a_layer_loads_nothing_of_the_layers_after_it(layer: str,
                                                                forbidden: tuple[str, ...]
                                                                ) -> None:
    """Also through other packages: load/ reads effects through the primitives, whose
    execution and English import compile/ and run/ only when a ruleset is compiled."""
    modules = [f"interpreter.{layer}.{path.stem}"
               for path in sorted((PACKAGE / layer).glob("*.py"))]
    script = (f"import sys\nimport {', '.join(modules)}\n"
              "print('\\n'.join(sorted(sys.modules)))")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=PACKAGE.parent).stdout.split()
    bad = [m for m in loaded if m.startswith(forbidden)]
    assert not bad, f"importing interpreter.{layer} loads {bad}"


def test_the_check_sees_an_import_hidden_in_a_function(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def f():\n    from interpreter.compile.game import Game\n")
    assert "interpreter.compile.game" in imported_modules(sneaky)
