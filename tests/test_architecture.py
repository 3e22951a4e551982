"""The command line is a front door, like the app: nothing imports ``metrics.cli`` but its entry
points. What the command line and the app both need (how a line of measures is read, what
``ranklab evaluate`` prints) lives in ``metrics`` (``metrics.trec_args``, ``metrics.report``).

Tests are not scanned: the command line's own tests drive it through ``metrics.cli.main``.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".git", ".venv", "node_modules", "tests", "build", "dist"}
CLI = "metrics.cli"
# calls whose first argument names a module to import
IMPORTERS = {"import_module", "__import__", "find_spec", "run_module"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def absolute(module: str | None, level: int, name: str, is_package: bool) -> str:
    """The absolute name of ``from <level dots><module> import ...`` written in module ``name``."""
    if level == 0:
        return module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, module] if module else base)


def is_cli(module: str) -> bool:
    return module == CLI or module.startswith(CLI + ".")


def cli_imports(source: str, name: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every route by which the module ``name`` (its source given) reaches ``metrics.cli``:
    (line, what it imports)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if is_cli(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = absolute(node.module, node.level, name, is_package)
            # the names imported (metrics.cli.console), or the module imported as a name (from metrics import cli)
            found += [(node.lineno, f"{module}.{a.name}") for a in node.names
                      if is_cli(module) or is_cli(f"{module}.{a.name}")]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if func not in IMPORTERS:
                continue
            target = node.args[0].value
            if target.startswith("."):  # import_module(".cli", "metrics")
                package = node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                    else name
                level = len(target) - len(target.lstrip("."))
                target = absolute(target.lstrip(".") or None, level, f"{package}.x", False)
            if is_cli(target):
                found.append((node.lineno, target))
    return found


def entry_points() -> set[str]:
    """The console scripts that pyproject.toml declares: 'module:function'."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return set(project.get("scripts", {}).values())


def test_pyproject_declares_the_command_line_as_its_console_entry_point():
    assert entry_points() == {"metrics.cli:console"}


def test_nothing_but_its_entry_points_imports_the_command_line():
    """Outside metrics/cli, only a ``__main__`` module (``python -m metrics``, ``python -m
    metrics.spark``: the command line run another way) may import it, and only the function that
    pyproject.toml declares as the ``ranklab`` script."""
    allowed = {f"{CLI}.{target.split(':')[1]}" for target in entry_points()}
    wrong = []
    files = [p for p in ROOT.rglob("*.py") if not SKIP & set(p.relative_to(ROOT).parts)]
    assert any(p.name == "evaluate_files.py" for p in files)  # the scan reaches the pages
    for path in files:
        name = module_name(path)
        if is_cli(name):
            continue
        for line, target in cli_imports(path.read_text(encoding="utf-8"), name, path.name == "__init__.py"):
            if path.name == "__main__.py" and target in allowed:
                continue
            wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("source", "name", "expected"), [
    ("import metrics.cli", "app_pages.x", ["metrics.cli"]),
    ("import metrics.cli.evaluate as e", "app_pages.x", ["metrics.cli.evaluate"]),
    ("from metrics.cli.evaluate import asked_from", "app_pages.x", ["metrics.cli.evaluate.asked_from"]),
    ("from metrics import cli", "app_pages.x", ["metrics.cli"]),
    ("from metrics import core, cli as c", "ranklab_ui.x", ["metrics.cli"]),
    ("from .cli import console", "metrics.report", ["metrics.cli.console"]),
    ("from ..cli.errors import UsageError", "metrics.io.writers", ["metrics.cli.errors.UsageError"]),
    ("from .. import cli", "metrics.io.writers", ["metrics.cli"]),
    ("from . import cli", "metrics", ["metrics.cli"]),  # metrics/__init__.py, a package
    ("import importlib\nimportlib.import_module('metrics.cli.evaluate')", "scripts.x", ["metrics.cli.evaluate"]),
    ("from importlib import import_module\nimport_module('.cli', 'metrics')", "scripts.x", ["metrics.cli"]),
    ("__import__('metrics.cli')", "scripts.x", ["metrics.cli"]),
    ("import metrics.client\nfrom metrics import clip\nfrom metrics.report import write", "app_pages.x", []),
    ("from . import report", "metrics", []),
])
def test_every_route_to_the_command_line_is_seen(source, name, expected):
    """The scan itself, on each way of writing an import (a name that merely starts like it is none)."""
    assert [target for _, target in cli_imports(source, name, is_package=name == "metrics")] == expected
