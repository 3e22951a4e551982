"""Our JavaScript and CSS are linted, as the Python is by ruff: ESLint (eslint.config.mjs) and
stylelint (stylelint.config.mjs), the versions pinned in package-lock.json (``make test``
installs them with ``npm ci``). Without npm the tests are skipped, unless
RANKLAB_REQUIRE_BROWSER=1 (CI), which installs nodejs and npm: then they fail."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / "node_modules" / ".bin"
# every folder that holds our JavaScript or CSS (the components, the app's own files, the
# scripts the browser tests inject); .venv and node_modules hold other people's
FOLDERS = ("ranklab", "ranklab_ui", "tests")


def _ours(suffix: str) -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob(f"*{suffix}"))


def _tool(name: str) -> Path:
    tool = BIN / name
    if not tool.exists():
        reason = f"{tool.relative_to(ROOT)} is missing: run `npm ci` (make test does)"
        if os.environ.get("RANKLAB_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; RANKLAB_REQUIRE_BROWSER=1 forbids skipping")
        pytest.skip(reason)
    return tool


def _run(tool: Path, files: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run([str(tool), *(str(f.relative_to(ROOT)) for f in files)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_every_javascript_file_passes_eslint():
    files = _ours(".js")
    assert ROOT / "ranklab" / "ranking_editor" / "editor.js" in files
    done = _run(_tool("eslint"), files)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_css_file_passes_stylelint():
    files = _ours(".css")
    assert ROOT / "ranklab" / "ranking_editor" / "editor.css" in files
    done = _run(_tool("stylelint"), files)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_linters_find_a_mistake():
    # the linters do read what they are given (on standard input, as a file of the components):
    # an undefined name, an unknown property
    def lint(tool: str, name: str, text: str) -> str:
        done = subprocess.run([str(_tool(tool)), "--stdin-filename", name, *(["--stdin"] if tool == "eslint" else [])],
                              cwd=ROOT, input=text, capture_output=True, text=True, timeout=300)
        assert done.returncode != 0
        return done.stdout + done.stderr

    assert "no-undef" in lint("eslint", "ranklab/ranking_editor/probe.js", "export const x = undefinedName + 1;\n")
    assert "property-no-unknown" in lint("stylelint", "ranklab/ranking_editor/probe.css", ".a { colr: red; }\n")
