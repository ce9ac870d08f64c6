"""The studio's vendored CodeMirror bundle: it is committed, is one ES module, and was
built from the committed package-lock.json (its banner names the lock's sha256 and the
versions the lock pins), so the page never depends on a fetch at run time."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

STUDIO = Path(__file__).resolve().parent.parent / "interpreter" / "studio"
BUNDLE = STUDIO / "static" / "vendor" / "codemirror.js"
LOCK = STUDIO / "vendor" / "package-lock.json"
WANTED = ("@codemirror/state", "@codemirror/view", "@codemirror/commands",
          "@codemirror/language", "@codemirror/autocomplete", "@codemirror/lint",
          "@codemirror/search", "@codemirror/lang-yaml", "@lezer/yaml")


@pytest.fixture(scope="module")
def bundle() -> str:
    assert BUNDLE.is_file(), f"{BUNDLE} is missing: run `npm ci && npm run build` in vendor/"
    return BUNDLE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def lock() -> dict:
    return json.loads(LOCK.read_text(encoding="utf-8"))


def banner_packages(text: str) -> dict[str, str]:
    """name → version, as the bundle's banner lists them."""
    head = text[: text.index("*/")]
    return dict(re.findall(r"^ \*   (@?[\w./-]+)@(\d[\w.+-]*) \(", head, re.M))


def test_bundle_is_an_es_module_exporting_what_the_editor_imports(bundle: str) -> None:
    tail = bundle[-4000:]
    match = re.search(r"export\s*\{([^}]*)\}\s*;?\s*$", tail)
    assert match, "the bundle does not end with an ES module export list"
    exported = {part.split(" as ")[-1].strip() for part in match.group(1).split(",")}
    editor = (STUDIO / "static" / "editor.js").read_text(encoding="utf-8")
    imports = re.search(r"import\s*\{([^}]*)\}\s*from\s*[\"']\./vendor/codemirror\.js[\"']",
                        editor)
    assert imports, "editor.js does not import from ./vendor/codemirror.js"
    needed = {name.split(" as ")[0].strip() for name in imports.group(1).split(",")} - {""}
    assert needed <= exported, f"the bundle lacks {sorted(needed - exported)}"
    assert "require(" not in bundle, "a CommonJS require is left in the bundle"


def test_bundle_names_the_hash_of_the_committed_lock(bundle: str) -> None:
    digest = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    found = re.search(r"package-lock\.json sha256: ([0-9a-f]{64})", bundle[:3000])
    assert found, "the bundle's banner names no package-lock.json hash"
    assert found.group(1) == digest, "the bundle was built from another package-lock.json"


def test_bundle_pins_the_versions_in_the_lock(bundle: str, lock: dict) -> None:
    listed = banner_packages(bundle)
    for name in WANTED:
        assert name in listed, f"{name} is not in the bundle's banner"
    for name, version in listed.items():
        entry = lock["packages"].get(f"node_modules/{name}")
        assert entry, f"{name} is bundled but not in package-lock.json"
        assert entry["version"] == version, f"{name}: bundle {version}, lock {entry['version']}"
        assert entry.get("integrity", "").startswith("sha512-"), f"{name} has no integrity pin"


def test_every_bundled_package_has_its_licence_beside_the_bundle(bundle: str) -> None:
    licences = (BUNDLE.parent / "LICENSES.txt").read_text(encoding="utf-8")
    for name, version in banner_packages(bundle).items():
        assert f"{name}@{version}" in licences, f"no licence text for {name}"
    assert "Permission is hereby granted" in licences


NODE_SCRIPT = """
const m = await import(process.argv[2]);
const cm = await import(process.argv[3]);
const doc = cm.EditorState.create({doc: "tabletop: 1x\\ngame:\\n  name: demo\\n"}).doc;
const fix = {label: "change to '1'", line: 1, col: 11, end_line: 1, end_col: 13, insert: "1"};
const diags = m.toDiagnostics(doc, [
  {line: 1, col: 11, end_line: null, end_col: null, severity: "error", message: "m",
   rendered: "f.yaml:1:11: error: m", fixes: [fix]},
  {line: 3, col: 3, end_line: 3, end_col: 7, severity: "warning", message: "w", fixes: []}]);
console.log(JSON.stringify({
  diags: diags.map((d) => ({...d, actions: d.actions.map((a) => a.name)})),
  clamp: m.offsetOf(doc, 99, 99), back: m.lineColOf(doc, 21),
  tests: m.testsPathFor("games/x.yaml"),
  kinds: [m.kindOf("a.tests.yaml"), m.kindOf("a.yml"), m.kindOf("notes.md")]}));
"""


def test_the_bundle_loads_and_editor_maps_the_servers_positions(tmp_path: Path) -> None:
    """The bundle is a working ES module (Node imports it, and editor.js over it), and the
    server's 1-based FILE:LINE:COL become the editor's offsets, with the fixes as actions."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = tmp_path / "check.mjs"
    script.write_text(NODE_SCRIPT, encoding="utf-8")
    done = subprocess.run(
        [node, str(script), (STUDIO / "static" / "editor.js").as_uri(), BUNDLE.as_uri()],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    first, second = got["diags"]
    assert (first["from"], first["to"], first["severity"]) == (10, 12, "error")
    assert first["message"] == "f.yaml:1:11: error: m"  # the CLI's rendered text
    assert first["actions"] == ["change to '1'"]
    assert (second["from"], second["to"], second["severity"]) == (21, 25, "warning")
    assert got["clamp"] == 32 and got["back"] == {"line": 3, "col": 3}
    assert got["tests"] == "games/x.tests.yaml"
    assert got["kinds"] == ["tests", "ruleset", "other"]
