"""The presets: named examples read from ``assets/presets/*.json``, one file each.

A teacher adds a preset by adding a file; no code changes. The file name gives the preset's
name and place in the picker: files are listed in name order, and a leading number and dash
only orders them (``60-my-example.json`` is the preset ``my-example``). A file holds::

    {"title": "Cat in the box", "source": "where it comes from",
     "version": 1, "k": 2, "mode": "binary",
     "queries": [{"name": "cat in the box",
                  "ranking": [["1", "🐱 cat", 0], ["2", "🐱📦 cat in a box", 1]],
                  "not_retrieved": [["7", "a judged document never retrieved", 1]]}]}

Each ranking row is ``[id, label, grade]`` (grade ``null`` or ``"?"``: unjudged); a query
may also hold ``"groups"`` (the AutoRAG study notes' lists of ids). Every file is read with the permalink's
checks (:func:`ranklab_ui.core.codec.from_data` in its long-named :data:`ranklab_ui.core.codec.FILE` form). A file
that fails is left out, and :data:`PROBLEMS` says which file and why; the app shows that
once per session (:func:`ranklab_ui.session.state.get_example`) and never stops because of it.

>>> list(PRESETS)
['cat', 'white-cat', 'three-queries', 'dcg', 'grouped']
>>> ex = build_preset("cat")
>>> [item.label for item in ex.query.ranking][:3], ex.k, ex.mode
(['🐱 cat', '🐱📦 cat in a box', '📦 box'], 2, 'binary')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .codec import FILE, from_data
from .i18n import N_
from .model import Example, Query
from .validation import LIMITS, ExampleError, check_text

__all__ = ["Preset", "PRESETS", "PROBLEMS", "DEFAULT_PRESET", "FOLDER", "read_preset", "load_presets",
           "build_preset", "default_example"]

FOLDER = Path(__file__).resolve().parents[2] / "assets" / "presets"
DEFAULT_PRESET = "cat"
_ORDER = re.compile(r"^[0-9]+-")   # a leading "10-" orders the files and is not part of the name
_ABOUT = ("title", "source")       # the fields that describe the preset, beside the example's


@dataclass(frozen=True)
class Preset:
    """A named example: ``title`` for the picker, ``source`` says where it comes from."""

    title: str
    source: str
    queries: tuple[Query, ...]
    k: int
    mode: str


def preset_name(path: Path) -> str:
    """The preset's name: the file's stem without the leading ordering number.

    >>> preset_name(Path("10-white-cat.json")), preset_name(Path("mine.json"))
    ('white-cat', 'mine')
    """
    return _ORDER.sub("", path.stem) or path.stem


def read_preset(path: Path) -> Preset:
    """One preset file, checked like a permalink; :class:`~ranklab_ui.core.validation.ExampleError` naming
    the file (and the line, for broken JSON) when it cannot be used."""
    where = f"preset file {path.name}"
    try:
        if path.stat().st_size > LIMITS.json_bytes:
            raise ExampleError(f"{where}: larger than {LIMITS.json_bytes:,} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise ExampleError(f"{where}: not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except (OSError, UnicodeError, RecursionError) as err:
        raise ExampleError(f"{where}: cannot be read ({type(err).__name__})") from None
    if not isinstance(data, dict):
        raise ExampleError(f"{where}: expected an object with title, source, k, mode and queries")
    data = dict(data)
    about = {field: data.pop(field, None) for field in _ABOUT}
    try:
        title = check_text(about["title"], "title", LIMITS.name_chars)
        source = check_text(about["source"], "source", LIMITS.label_chars, allow_empty=True)
        example = from_data(data, FILE, what=N_("the preset"))
    except ExampleError as err:
        raise ExampleError(f"{where}: {err}") from None
    except (TypeError, ValueError, OverflowError, RecursionError) as err:   # a gap in the checks
        raise ExampleError(f"{where}: invalid ({type(err).__name__})") from None
    return Preset(title, source, example.queries, example.k, example.mode)


def load_presets(folder: Path = FOLDER) -> tuple[dict[str, Preset], list[str]]:
    """Every ``*.json`` preset of ``folder`` in file-name order, and the problems of the files
    left out (a broken file, or a second file with a name already taken)."""
    presets: dict[str, Preset] = {}
    problems: list[str] = []
    try:
        paths = sorted(Path(folder).glob("*.json"))
    except OSError as err:
        return presets, [f"the presets folder cannot be read ({type(err).__name__})"]
    for path in paths:
        name = preset_name(path)
        if name in presets:
            problems.append(f"preset file {path.name}: the name {name!r} is taken by an earlier file; left out")
            continue
        try:
            presets[name] = read_preset(path)
        except ExampleError as err:
            problems.append(f"{err}; this preset is left out")
    if not presets:
        problems.append(f"no preset could be read from {Path(folder).name}/: the app starts with an empty query")
    return presets, problems


PRESETS, PROBLEMS = load_presets()


def build_preset(name: str) -> Example:
    """The example of preset ``name`` (a key of :data:`PRESETS`)."""
    if name not in PRESETS:
        raise ExampleError(f"unknown preset {str(name)[:40]!r}; choose one of {', '.join(PRESETS)}")
    p = PRESETS[name]
    return Example(p.queries, p.k, p.mode, 0)


def default_example() -> tuple[str | None, Example]:
    """The preset a new session starts from and its name: :data:`DEFAULT_PRESET`, else the
    first preset, else one empty query (name None) when no preset file could be read."""
    name = DEFAULT_PRESET if DEFAULT_PRESET in PRESETS else next(iter(PRESETS), None)
    if name is None:
        return None, Example((Query("query 1"),))
    return name, build_preset(name)


def babel_extract(fileobj, keywords, comment_tags, options):
    """Babel's extractor for preset files (babel.cfg): each file's ``title`` and ``source``,
    which the picker shows, as ``(line, function, message, comments)``.

    >>> import io
    >>> list(babel_extract(io.BytesIO(b'{"title": "Cat",\\n "source": "Pinecone notebook"}'), [], [], {}))
    [(1, None, 'Cat', []), (2, None, 'Pinecone notebook', [])]
    """
    text = fileobj.read().decode("utf-8")
    data = json.loads(text)
    lines = text.splitlines()
    for field in _ABOUT:
        value = data.get(field) if isinstance(data, dict) else None
        if isinstance(value, str) and value:
            line = next((n for n, row in enumerate(lines, start=1) if f'"{field}"' in row), 1)
            yield line, None, value, []
