"""The committed JSON editor bundle is built from the committed sources and loads nothing."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from ui.editor.json_editor import BUILD_DIR

SOURCE_DIR = BUILD_DIR.parent
REBUILD = "cd frontend/json_editor && npm ci && npm run build, then commit build/"
# XML namespace names are identifiers, never fetched; any other URL could be a load.
NAMESPACES = ["http://www.w3.org/2000/svg"]
# Ways a page could fetch code, styles or data at run time.
LOADERS = re.compile(
    r"importScripts|new Worker|SharedWorker|serviceWorker|<link|<iframe|@import|\bsrc=|"
    r"fetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|import\("
)


def sources_sha256(root: Path) -> str:
    """The hash build.mjs records: each input's relative path and bytes, in path order."""
    paths = ["build.mjs", "package.json", "package-lock.json"]
    paths += [f"src/{path.name}" for path in (root / "src").iterdir() if path.is_file()]
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(f"{path}\0".encode())
        digest.update((root / path).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def test_committed_bundle_was_built_from_the_committed_sources_and_lockfile() -> None:
    manifest = json.loads((BUILD_DIR / "manifest.json").read_text())
    bundle = (BUILD_DIR / "index.html").read_bytes()
    assert manifest == {
        "sources_sha256": sources_sha256(SOURCE_DIR),
        "bundle_sha256": hashlib.sha256(bundle).hexdigest(),
        "command": "npm ci && npm run build",
    }, f"frontend/json_editor changed since its bundle was built: {REBUILD}"


def test_bundle_names_no_url_and_has_no_way_to_load_one() -> None:
    bundle = (BUILD_DIR / "index.html").read_text()
    assert sorted(set(re.findall(r"https?://[^\s\"'`<>)]*", bundle))) == NAMESPACES
    assert LOADERS.findall(bundle) == []
    # CSS images are inline SVG only.
    assert set(re.findall(r"url\(['\"]?([a-z]+:)", bundle)) == {"data:"}
    assert len(re.findall(r"url\(", bundle)) == len(re.findall(r"url\(['\"]?data:", bundle))
