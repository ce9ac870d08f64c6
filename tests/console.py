"""Running `tabletop` in tests: where its console script is (beside the running Python
first: a virtual environment's bin/, used without activating it, as the README's commands
do; then on PATH), and the command run in-process."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from click.testing import Result
from typer.testing import CliRunner

from interpreter.cli.app import app

_runner = CliRunner()


def console_script(name: str = "tabletop") -> str | None:
    here = Path(sys.executable).parent
    return shutil.which(name, path=os.pathsep.join([str(here), os.environ.get("PATH", "")]))


def invoke(*args: str, input: str | None = None) -> Result:
    """`tabletop ARGS` run in-process (input typed on stdin): its exit code and output.
    Whatever the arguments, the command ends with a message, never a traceback."""
    result = _runner.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    said = result.output + result.stderr
    assert "Traceback" not in said and "internal error" not in said, said
    return result
