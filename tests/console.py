"""Where the `tabletop` console script is: beside the running Python first (a virtual
environment's bin/, used without activating it, as the README's commands do), then on
PATH."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def console_script(name: str = "tabletop") -> str | None:
    here = Path(sys.executable).parent
    return shutil.which(name, path=os.pathsep.join([str(here), os.environ.get("PATH", "")]))
