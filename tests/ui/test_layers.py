"""The shape of ``ranklab_ui/``: five layers, each importing only the ones below it, every module
in one of them, and no import cycle, counting the imports made inside functions (an import
moved into a function hides a cycle; it does not remove it). Bottom up:

- ``ranklab_ui/core/``: no Streamlit (ruff bans it there), and nothing from the layers above;
- ``ranklab_ui/session/``: the session's keys, on top of the core;
- ``ranklab_ui/render/``: what the pages draw that is not a widget (charts, tables, texts);
- ``ranklab_ui/widgets/``: widgets bound to the example;
- ``ranklab_ui/parts/``: parts of pages (a lesson's frame, the presenter view, the poll).

Beside it, the package ``ranklab`` holds only the front-end components' files (JavaScript, CSS
and the manifest through which Streamlit finds them): no Python runs from it."""

import ast
import re
import tomllib
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ranklab_ui"
ASSETS = UI.parent / "ranklab"


def _imports(path: Path) -> set[str]:
    """The ranklab_ui modules that ``path`` imports anywhere in it, as dotted names."""
    package = path.relative_to(UI.parent).with_suffix("").parts[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = base + (node.module.split(".") if node.module else [])
            if not module or module[0] != "ranklab_ui":
                continue
            for alias in node.names:   # "from . import state" names a module; "from .x import f" does not
                sub = ".".join([*module, alias.name])
                out.add(sub if _module_path(sub) else ".".join(module))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "ranklab_ui")
    return {m for m in out if _module_path(m)}


def _module_path(dotted: str) -> Path | None:
    base = UI.parent.joinpath(*dotted.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _graph() -> dict[str, set[str]]:
    graph = {}
    for path in UI.rglob("*.py"):
        name = ".".join(path.relative_to(UI.parent).with_suffix("").parts).removesuffix(".__init__")
        graph[name] = _imports(path) - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, else None."""
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_graph_is_read_from_the_files():
    # a few edges known by reading the modules: state reads the codec, widgets the state
    graph = _graph()
    assert "ranklab_ui.core.codec" in graph["ranklab_ui.session.state"] and "ranklab_ui.session.state" in graph["ranklab_ui.widgets.controls"]


def test_the_cycle_finder_finds_a_cycle_and_none_where_there_is_none():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


LAYERS = ("core", "session", "render", "widgets", "parts")   # bottom up


def _layer(module: str) -> str | None:
    """The layer of a ranklab_ui module (its folder), None for a module outside every layer."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in LAYERS else None


BELOW = {layer: set(LAYERS[: i + 1]) for i, layer in enumerate(LAYERS)}


def test_every_module_is_in_a_layer():
    # the package's own __init__ aside, nothing sits loose at the top of ranklab_ui/
    loose = sorted(name for name in _graph() if name != "ranklab_ui" and _layer(name) is None
                   and name.removeprefix("ranklab_ui.") not in LAYERS)
    assert not loose, loose
    assert _layer("ranklab_ui.render.charts") == "render" and _layer("ranklab_ui.parts.lessons") == "parts"


def test_each_layer_imports_only_the_layers_below_it():
    def layer(module: str) -> str:   # a layer's __init__ is in its layer
        return _layer(module) or module.removeprefix("ranklab_ui.")

    wrong = sorted(f"{name} ({layer(name)}) imports {other} ({layer(other)})"
                   for name, imports in _graph().items() if name != "ranklab_ui" for other in imports
                   if layer(other) not in BELOW[layer(name)])
    assert not wrong, "\n".join(wrong)


def test_the_core_imports_no_streamlit_even_inside_a_function():
    # ruff bans it too (ranklab_ui/core/ruff.toml); this also catches importlib and __import__
    loads = re.compile(r"^\s*(import|from) streamlit\b|(import_module|__import__)\(\s*['\"]streamlit", re.M)
    found = [str(path.relative_to(UI.parent)) for path in (UI / "core").rglob("*.py")
             if loads.search(path.read_text(encoding="utf-8"))]
    assert not found, found


def test_ui_imports_without_a_cycle():
    cycle = _cycle(_graph())
    assert cycle is None, "an import cycle in ranklab_ui/: " + " -> ".join(cycle)


def test_the_ranking_editor_sits_in_its_layers():
    # the rule without Streamlit in the core, the session's history on it, the widget on both
    graph = _graph()
    assert _layer("ranklab_ui.core.snapshots") == _layer("ranklab_ui.core.history") == "core"
    assert _layer("ranklab_ui.widgets.ranking_editor") == "widgets"
    assert {"ranklab_ui.core.history", "ranklab_ui.core.validation"} <= graph["ranklab_ui.core.snapshots"]
    assert "ranklab_ui.core.history" in graph["ranklab_ui.session.history"]
    assert {"ranklab_ui.core.snapshots", "ranklab_ui.session.history",
            "ranklab_ui.session.state"} <= graph["ranklab_ui.widgets.ranking_editor"]


def _files(folder: Path) -> list[Path]:
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def test_the_package_ranklab_holds_only_the_components_files():
    files = _files(ASSETS)
    assert [p for p in files if p.suffix == ".py"] == [Path("__init__.py")]
    init = ast.parse((ASSETS / "__init__.py").read_text(encoding="utf-8"))
    assert len(init.body) == 1 and isinstance(init.body[0], ast.Expr)     # its docstring, nothing that runs
    assert {p.suffix for p in files} <= {".py", ".toml", ".js", ".css"}
    manifest = tomllib.loads((ASSETS / "pyproject.toml").read_text(encoding="utf-8"))
    folders = {c["asset_dir"] for c in manifest["tool"]["streamlit"]["component"]["components"]}
    assert folders == {p.parts[0] for p in files if len(p.parts) > 1}    # one asset folder per component


def test_each_component_is_declared_with_files_of_its_folder():
    # st.components.v2.component("ranklab.<name>", js=..., css=...): the names are files of ranklab/<name>
    declared = []
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "component"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                name = node.args[0].value
                assert name.startswith("ranklab."), (path, name)
                folder = ASSETS / name.removeprefix("ranklab.")
                for keyword in node.keywords:
                    if keyword.arg in ("js", "css", "html"):
                        assert (folder / keyword.value.value).is_file(), (path, name, keyword.value.value)
                declared.append(name)
    assert "ranklab.ranking_editor" in declared


def test_no_module_imports_the_components_package():
    # Streamlit finds the files through the manifest; importing ranklab would only hide a missing one
    found = []
    for path in [*UI.rglob("*.py"), *(UI.parent / "app_pages").glob("*.py"), UI.parent / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            found += [f"{path.name}: {n}" for n in names if n.split(".")[0] == "ranklab"]
    assert not found, found
