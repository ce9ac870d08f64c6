"""The layers import one way (pyproject.toml [tool.importlinter], README "How the code is
laid out"): lint-imports checks every package; the tests below also hold the lowest
layers to more than the contract asks.

run/ is the runtime library that generated code calls: it never reaches into compile/,
primitives/, load/ or assemble/ (not even for type hints), and load/ knows nothing of
compile/, run/, play/ or assemble/.
"""

from __future__ import annotations

import ast
import os
import shutil
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


_RUN_FORBIDS = ("interpreter.compile", "interpreter.primitives", "interpreter.load",
                "interpreter.assemble")
# a primitive's schema lives with it (load/ reads effects through it)
_LOAD_FORBIDS = ("interpreter.compile", "interpreter.run", "interpreter.play",
                 "interpreter.assemble")


@pytest.mark.parametrize("layer, forbidden", [("run", _RUN_FORBIDS), ("load", _LOAD_FORBIDS)])
def test_a_layer_imports_nothing_from_the_layers_after_it(layer: str,
                                                          forbidden: tuple[str, ...]) -> None:
    files = sorted((PACKAGE / layer).glob("*.py"))
    assert files
    for path in files:
        bad = sorted(m for m in imported_modules(path) if m.startswith(forbidden))
        assert not bad, f"{path.relative_to(PACKAGE.parent)} imports {bad}"


@pytest.mark.parametrize("layer, forbidden", [("run", _RUN_FORBIDS), ("load", _LOAD_FORBIDS)])
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
    sneaky.write_text("def f():\n    from interpreter.assemble.game import Game\n")
    assert "interpreter.assemble.game" in imported_modules(sneaky)


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's check of the contract in pyproject.toml, over the package in root."""
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(lint), "--no-cache",
                           str(PACKAGE.parent / "pyproject.toml")],
                          capture_output=True, text=True, cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root)})


def test_every_package_imports_only_from_the_layers_below_it() -> None:
    result = _lint_imports(PACKAGE.parent)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 2 kept, 0 broken." in result.stdout


def test_the_contract_catches_an_import_of_a_higher_layer(tmp_path: Path) -> None:
    """The contract can fail: the runtime library importing the simulations (inside a
    function, as the old run/playout.py did) breaks both the layers and the no-circle
    rule; so does a package the contract does not place."""
    copy = tmp_path / "interpreter"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    rng = copy / "run" / "rng.py"
    rng.write_text(rng.read_text() + "\n\ndef _planted():\n"
                   "    from interpreter.simulate import playout\n    return playout\n")
    result = _lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout
    assert "interpreter.run is not allowed to import interpreter.simulate" in result.stdout
    assert "interpreter.run.rng -> interpreter.simulate.playout" in result.stdout
    assert "Contracts: 0 kept, 2 broken." in result.stdout

    rng.write_text(rng.read_text().split("\n\ndef _planted")[0])
    (copy / "extra").mkdir()
    (copy / "extra" / "__init__.py").write_text("")
    result = _lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout
    assert "interpreter.extra" in result.stdout
