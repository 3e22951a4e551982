"""No text of the app's own depends on an emoji: Debian's Chromium without an emoji
font draws 📦, 🔗 or ➕ as an empty box, and the "add a query" tab was only "➕". Icons come
from Streamlit's Material set (``:material/...:``) or are drawn (SVG); user text (labels,
presets' labels) may hold emoji, and CI installs fonts-noto-color-emoji for it (.ci/run).

Every string literal of app.py, app_pages/ and ranklab_ui/ that is not a docstring, and every text of
the translation catalogs, is checked."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")), *sorted((ROOT / "ranklab_ui").rglob("*.py"))]
CATALOGS = sorted((ROOT / "ranklab_ui" / "locales").glob("*/LC_MESSAGES/messages.po"))
# emoji drawn as pictures: the supplementary planes' symbols, the emoji variation selector, and
# the few in the basic plane that have emoji presentation by default
BASIC_PLANE_EMOJI = set("⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕")


def emoji_in(text: str) -> list[str]:
    """The emoji in ``text``.

    >>> emoji_in("🔗 Copy link"), emoji_in("✓ right · ⤒ top"), emoji_in("ℹ️")
    (['🔗'], [], ['️'])
    """
    return [c for c in text if ord(c) >= 0x1F000 or c == "\ufe0f" or c in BASIC_PLANE_EMOJI]


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_emoji_in_the_apps_own_strings(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    found = [(node.lineno, node.value[:60]) for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
             and emoji_in(node.value)]
    assert found == []


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_no_emoji_in_the_translations(path):
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f)
    found = [m.id for m in catalog if m.id and emoji_in(f"{m.id} {m.string}")]
    assert found == []
