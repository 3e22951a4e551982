"""Files a page reads (uploaded, pasted or bundled), and the one cache around the readers.

A page never writes a temporary file: :func:`read` gives a :class:`Source`'s bytes to
:mod:`metrics.io` with the name the user knows, which picks the format by its suffix and is
named in every ``file:line`` message. Every ``st.cache_data`` around a file reader lives
here: :func:`read_dict` (the Compare page's qrels and runs, an upload through
:func:`read_upload` and its checks), :func:`squad` and
:func:`predictions` (the Reader (QA) page's sample). The Evaluate files page reads with
:func:`read` uncached and keeps only its results: a cached copy of its tables (up to
:data:`metrics.io.APP_MAX_BYTES` each) would stay in memory for every session.

>>> source = text_source("pasted qrels", "q1 0 d1 2\\nq1 0 d2 0\\n")
>>> source.size, read("qrels", source, max_bytes=None).to_dict()
(20, {'q1': {'d1': 2, 'd2': 0}})
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

import metrics.io
from metrics.io import Qrels, Run, read_qrels, read_run
from metrics.qa import ReaderGold, ReaderPredictions, read_predictions, read_squad
from ranklab_ui.core.i18n import _

__all__ = ["Source", "text_source", "file_source", "upload_source", "read", "read_dict", "read_upload",
           "squad", "predictions"]

KINDS = ("qrels", "run")


@dataclass(frozen=True)
class Source:
    """One input file: its name as the user knows it, a key naming its content (without
    hashing the content on every rerun), its size, and how to get its bytes."""

    name: str
    key: str
    size: int
    data: Callable[[], bytes]


# an upload read whole into nested dicts (and cached: read_dict) is refused beyond this size
MAX_UPLOAD_MB = 20
# the Evaluate files page reads a run at least this large (as stored) in blocks of whole
# queries under a progress bar (read at every call, so a test can lower it)
STREAM_BYTES = 16 * 2**20

def text_source(name: str, text: str) -> Source:
    """Pasted text, keyed by its hash.

    >>> a, b = text_source("pasted run", "q1 d1"), text_source("pasted run", "q1 d2")
    >>> a.data(), a.size, a.key == b.key
    (b'q1 d1', 5, False)
    """
    raw = text.encode("utf-8", "surrogatepass")
    return Source(name, "text:" + hashlib.sha256(raw).hexdigest(), len(raw), lambda: raw)


def file_source(path: Path) -> Source:
    """A bundled file, keyed by its path, time and size (a changed file is read again).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "qrels.txt"
    ...     _ = path.write_bytes(b"q1 0 d1 1\\n")
    ...     source = file_source(path)
    ...     source.name, source.size, source.data()
    ('qrels.txt', 10, b'q1 0 d1 1\\n')
    """
    info = path.stat()
    return Source(path.name, f"file:{path}:{info.st_mtime_ns}:{info.st_size}", info.st_size,
                  path.read_bytes)


def upload_source(upload) -> Source:
    """A ``st.file_uploader`` file: the uploader's file id changes with every upload, so the
    bytes need no hashing.

    >>> from types import SimpleNamespace
    >>> up = SimpleNamespace(name="run.txt.gz", file_id="f1", size=3, getvalue=lambda: b"abc")
    >>> source = upload_source(up)
    >>> source.name, source.key, source.data()
    ('run.txt.gz', 'upload:f1:3', b'abc')
    """
    return Source(upload.name, f"upload:{upload.file_id}:{upload.size}", upload.size, upload.getvalue)


def read(kind: str, source: Source, *, dedup: str = "error", max_bytes: int | None) -> Qrels | Run:
    """Read qrels or a run from the source's bytes under its name (see the module's example);
    errors are ValueError naming ``source.name``."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if kind == "qrels":
        return read_qrels(source.data(), name=source.name, max_bytes=max_bytes)
    return read_run(source.data(), name=source.name, dedup=dedup, max_bytes=max_bytes)


# the files of the latest comparisons (the sample collection's three among them), for a
# quarter of an hour at most; the key names the content, so the bytes are not hashed on every
# rerun, nor kept
@st.cache_data(show_spinner=False, max_entries=6, ttl=900)
def _read_dict(kind: str, name: str, key: str, max_bytes: int | None, _data) -> dict:
    return read(kind, Source(name, key, 0, _data), max_bytes=max_bytes).to_dict()


def read_dict(kind: str, source: Source, *, max_bytes: int | None) -> dict:
    """:func:`read` as nested dicts (``{qid: {doc: grade or score}}``), once per content.

    >>> read_dict("qrels", text_source("qrels.csv", "qid,docid,grade\\nq1,a,1\\n"), max_bytes=None)
    {'q1': {'a': 1}}
    """
    return _read_dict(kind, source.name, source.key, max_bytes, source.data)


def read_upload(kind: str, upload, *, label: str | None = None) -> dict:
    """An uploaded qrels or run file as :func:`read_dict` gives it, after the size check; any
    problem is a ``ValueError`` whose message names the file once: ``label`` (what the page
    calls it: "run A") and the file's name, unless the reader's own message names it already.

    >>> from types import SimpleNamespace
    >>> up = SimpleNamespace(name="a.txt", file_id="f2", size=16, getvalue=lambda: b"q1 Q0 d1 1 x A\\n")
    >>> try:
    ...     read_upload("run", up, label="run A")
    ... except ValueError as err:
    ...     print(err)
    run A: a.txt:1: score 'x' is not a number
    """
    name = upload.name[:60]
    who = f"{label} ({name})" if label else name
    if upload.size > MAX_UPLOAD_MB * 2**20:
        raise ValueError(_("{name}: {size} MB is too large (at most {most} MB).").format(
            name=who, size=f"{upload.size / 2**20:.1f}", most=MAX_UPLOAD_MB))
    try:
        # the app's limit read at every call, so that a test can lower it
        return read_dict(kind, upload_source(upload), max_bytes=metrics.io.APP_MAX_BYTES)
    except (ValueError, OSError) as err:
        text = str(err)[:500]
        prefix = label if upload.name in text else who
        raise ValueError(f"{prefix}: {text}" if prefix else text) from None


@st.cache_data(show_spinner=False)
def squad(path: Path) -> ReaderGold:
    """A bundled SQuAD dataset, read once (:func:`metrics.qa.read_squad`).

    >>> len(squad(Path(__file__).parents[2] / "assets" / "reader" / "dev.json").answers)
    14
    """
    return read_squad(path)


@st.cache_data(show_spinner=False)
def predictions(path: Path) -> ReaderPredictions:
    """A bundled predictions file, read once (:func:`metrics.qa.read_predictions`).

    >>> p = predictions(Path(__file__).parents[2] / "assets" / "reader" / "predictions_topk.jsonl")
    >>> p.format, len(p.answers)
    ('jsonl', 14)
    """
    return read_predictions(path)
