"""The studio's vendored CodeMirror bundle: it is committed, is one ES module, and was
built from the committed package-lock.json (its banner names the lock's sha256 and the
versions the lock pins), so the page never depends on a fetch at run time."""

from __future__ import annotations

import hashlib
import json
import re
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
