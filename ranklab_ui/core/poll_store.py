"""Class polls, shared between sessions and server processes: a small store interface and
its SQLite implementation (the standard library's ``sqlite3``, WAL mode, one file).

A teacher opens a poll on a question ("move item 7 to rank 1: what is AP now?") and gets a
short code; students vote with that code from their phones; the teacher reveals the answer.
No accounts and no personal data: a voter is a random token of the browser session, kept so
that a second vote replaces the first. A poll expires after :data:`TTL` seconds.

Several Streamlit processes behind a proxy share one file: SQLite's WAL mode lets readers
read while one writer writes, and every write is one short transaction that waits up to
:data:`BUSY_MS` for the lock, so concurrent votes queue instead of failing.

>>> import tempfile, os
>>> store = SQLitePolls(os.path.join(tempfile.mkdtemp(), "polls.sqlite3"))
>>> poll, owner = store.create("AP after the move?", kind="number", answer=0.5, now=1000.0)
>>> len(poll.code), store.vote(poll.code, "student-a", 0.4, now=1001.0), store.vote(poll.code, "student-b", 0.5, now=1002.0)
(6, True, True)
>>> store.vote(poll.code, "student-a", 0.5, now=1003.0)       # a second vote replaces the first
True
>>> sorted(store.votes(poll.code, now=1004.0))
[0.5, 0.5]
>>> store.reveal(poll.code, "not the owner", now=1005.0), store.reveal(poll.code, owner, now=1005.0)
(False, True)
>>> store.vote(poll.code, "student-c", 0.9, now=1006.0)       # closed once revealed
False
>>> store.get(poll.code, now=1000.0 + TTL + 1) is None      # expired
True
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
import sqlite3
import time
from collections.abc import Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .i18n import _

__all__ = ["Poll", "PollStore", "SQLitePolls", "PollError", "PollLimited", "PollUnavailable", "TTL", "BUSY_MS",
           "CODE_ALPHABET", "PER_CLIENT", "MAX_VOTERS", "default_path", "normalize_code"]

TTL = 4 * 3600          # seconds a poll lives
BUSY_MS = 10_000        # how long a write waits for the lock before it fails
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector
CODE_LENGTH = 6
KINDS = ("number", "choice")
MAX_QUESTION = 500      # characters
MAX_CHOICES = 8
MAX_CHOICE = 80         # characters of one choice
MAX_VOTERS = 2_000      # votes per poll: a class, not the internet
# one client (a network address) brings at most PER_CLIENT counted voters into a poll; the answers
# of its further voters are kept aside (held), shown to the teacher as a number, and counted only
# when the teacher says so (count_held), which raises that poll's limit. Phones on a class's
# Wi-Fi have one address each; a lecture hall reaching a public address comes through one
# (the campus NAT), and so does a script opening sessions in a loop: only the teacher can tell
# them apart, and nothing either sends is lost or counted unasked
PER_CLIENT = 60
ENV = "RANKLAB_POLL_DB"
# columns added since the first poll files: name -> definition for ALTER TABLE
_ADDED_COLUMNS = {"polls": {"expires": "REAL NOT NULL DEFAULT 0", "revealed": "INTEGER NOT NULL DEFAULT 0",
                            "low": "REAL", "high": "REAL", "refused": "INTEGER NOT NULL DEFAULT 0",
                            "per_client": "INTEGER"},
                  "votes": {"client": "TEXT", "held": "INTEGER NOT NULL DEFAULT 0"}}


class PollError(ValueError):
    """A poll that cannot be created or a value that cannot be stored, said plainly."""


class PollLimited(PollError):
    """A vote kept aside, not counted, because its client (a network address) already brought
    the poll's limit of voters; said plainly. The teacher sees how many and may count them
    (:meth:`SQLitePolls.count_held`). Other clients still vote."""


class PollUnavailable(PollError):
    """The poll file cannot be used (damaged, read-only, a folder, locked too long...): the
    message names the file and what to do. Nothing was written by the call that raised it."""


@dataclass(frozen=True)
class Poll:
    """One poll. ``answer`` is hidden from voters until ``revealed``."""

    code: str
    question: str
    kind: str                   # "number" (an estimate) or "choice" (one of ``choices``)
    choices: tuple[str, ...]
    answer: float | str | None
    example: str                # the example's link code the poll is about ('' for none)
    created: float
    expires: float
    revealed: bool
    low: float | None = None    # a number poll's answers lie in [low, high] when both are set
    high: float | None = None


class PollStore(Protocol):
    """What the app needs of a poll store; a server database can implement it later."""

    def create(self, question: str, *, kind: str = "number", choices: Sequence[str] = (),
               answer: float | str | None = None, example: str = "", low: float | None = None,
               high: float | None = None, now: float | None = None) -> tuple[Poll, str]: ...

    def get(self, code: str, *, now: float | None = None) -> Poll | None: ...

    def vote(self, code: str, voter: str, value: float | str, *, client: str | None = None,
             now: float | None = None) -> bool: ...

    def votes(self, code: str, *, now: float | None = None) -> list[float | str]: ...

    def refused(self, code: str, *, now: float | None = None) -> int: ...

    def count_held(self, code: str, owner: str, *, now: float | None = None) -> int: ...

    def reset(self, code: str, owner: str, *, now: float | None = None) -> bool: ...

    def reveal(self, code: str, owner: str, *, now: float | None = None) -> bool: ...


def default_path(secrets_value: str | None = None) -> Path:
    """Where the poll file lives: ``$RANKLAB_POLL_DB``, else ``poll_db`` from
    ``.streamlit/secrets.toml`` (passed in by the page), else the user's data folder
    (``$XDG_DATA_HOME/ranklab/polls.sqlite3``, ``~/.local/share`` by default)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    if secrets_value:
        return Path(secrets_value)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "ranklab" / "polls.sqlite3"


def normalize_code(text: object) -> str | None:
    """A code as typed (any case, spaces or dashes) in its stored form, or None when it
    cannot be one.

    >>> normalize_code(" ab-c 234 "), normalize_code("ABC0I1"), normalize_code(None)
    ('ABC234', None, None)
    """
    if not isinstance(text, str) or len(text) > 40:
        return None
    code = "".join(ch for ch in text.upper() if ch not in " -\t")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def _describe(path: Path, err: BaseException) -> str:
    """What went wrong with the poll file at ``path``, in words a teacher can act on."""
    text = str(err).lower()
    if "locked" in text or "busy" in text:
        return _("The poll file {path} is locked by another program: nothing was saved. Try again "
                 "in a moment; if it stays locked, close the program that holds it.").format(path=path)
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return _("The poll file {path} is damaged or is not a poll file: move it away (Ranklab "
                 "then starts a new one) or set RANKLAB_POLL_DB to another file.").format(path=path)
    if "readonly" in text or "read-only" in text or isinstance(err, PermissionError):
        return _("The poll file {path} cannot be written (read-only or no permission): make it "
                 "writable or set RANKLAB_POLL_DB to another file.").format(path=path)
    if "no such column" in text or "no such table" in text:
        return _("The poll file {path} was made by another version of Ranklab: move it away (Ranklab "
                 "then starts a new one) or set RANKLAB_POLL_DB to another file.").format(path=path)
    return _("The poll file {path} cannot be opened ({reason}): check that its folder exists and is "
             "writable, or set RANKLAB_POLL_DB to another file.").format(path=path, reason=err)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _number(value: object, what: str, low: float | None = None, high: float | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PollError(_('{what} must be a number, not {name}').format(what=what, name=type(value).__name__))
    try:
        value = float(value)
    except OverflowError:  # an int beyond float's range
        value = math.inf
    if low is not None and high is not None:
        if not (math.isfinite(value) and low <= value <= high):
            raise PollError(_('{what} must be a number from {low} to {high}').format(
                what=what, low=f"{low:g}", high=f"{high:g}"))
    elif not math.isfinite(value) or abs(value) > 1e12:
        raise PollError(_('{what} must be a finite number of reasonable size').format(what=what))
    return value


def _text(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise PollError(_('{what} must be some text').format(what=what))
    if len(value) > limit:
        raise PollError(_('{what} is longer than {limit} characters').format(what=what, limit=limit))
    if any(ord(ch) < 32 and ch not in "\n\t" for ch in value) or any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise PollError(_('{what} holds control characters').format(what=what))
    return value.strip()


class SQLitePolls:
    """:class:`PollStore` in one SQLite file (created with its folder on first use).

    Every call opens its own short-lived connection, so the store is safe to share between
    threads and between processes.
    """

    def __init__(self, path: str | os.PathLike, *, busy_ms: int = BUSY_MS) -> None:
        self.path = Path(path)
        self.busy_ms = busy_ms
        with self._guard():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript("""
                    CREATE TABLE IF NOT EXISTS polls (
                        code TEXT PRIMARY KEY, question TEXT NOT NULL, kind TEXT NOT NULL,
                        choices TEXT NOT NULL, answer TEXT, example TEXT NOT NULL,
                        owner TEXT NOT NULL, created REAL NOT NULL, expires REAL NOT NULL,
                        revealed INTEGER NOT NULL DEFAULT 0, low REAL, high REAL,
                        refused INTEGER NOT NULL DEFAULT 0, per_client INTEGER);
                    CREATE TABLE IF NOT EXISTS votes (
                        code TEXT NOT NULL REFERENCES polls(code) ON DELETE CASCADE,
                        voter TEXT NOT NULL, value TEXT NOT NULL, at REAL NOT NULL, client TEXT,
                        held INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (code, voter));
                """)
                # a file made by an older Ranklab lacks the newer columns: add them, so that
                # its polls stay readable (a poll without ``expires`` counts as expired)
                for table, columns in _ADDED_COLUMNS.items():
                    have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                    for name, definition in columns.items():
                        if name not in have:
                            db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {definition}")
                db.execute("CREATE INDEX IF NOT EXISTS polls_expires ON polls(expires)")

    @contextmanager
    def _guard(self):
        """Turn SQLite's and the file system's errors into a :class:`PollUnavailable` that
        names the file and says what to do."""
        try:
            yield
        except (sqlite3.Error, OSError) as err:
            raise PollUnavailable(_describe(self.path, err)) from err

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.busy_ms / 1000, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout={int(self.busy_ms)}")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    # ------------------------------------------------------------------ teacher

    def create(self, question: str, *, kind: str = "number", choices: Sequence[str] = (),
               answer: float | str | None = None, example: str = "", low: float | None = None,
               high: float | None = None, now: float | None = None) -> tuple[Poll, str]:
        """Open a poll; returns it and the owner's secret token (needed to reveal it).
        A number poll with ``low`` and ``high`` takes answers in that range only.
        Expired polls are deleted on the way."""
        now = time.time() if now is None else now
        question = _text(question, "the question", MAX_QUESTION)
        if kind not in KINDS:
            raise PollError(_('a poll is of kind {kinds}, not {kind}').format(kinds=' or '.join(KINDS), kind=f"{kind!r}"))
        choices = tuple(_text(c, "a choice", MAX_CHOICE) for c in choices)
        if kind == "choice":
            if not 2 <= len(choices) <= MAX_CHOICES or len(set(choices)) != len(choices):
                raise PollError(_('a choice poll needs 2 to {most} different choices').format(most=MAX_CHOICES))
            if answer is not None and answer not in choices:
                raise PollError(_('the answer must be one of the choices'))
        elif choices:
            raise PollError(_('a number poll has no choices'))
        if (low is None) != (high is None) or (kind == "choice" and low is not None):
            raise PollError(_('a number poll has both ends of its range or neither'))
        if low is not None:
            low, high = _number(low, "the range"), _number(high, "the range")
            if not low < high:
                raise PollError(_('a number poll has both ends of its range or neither'))
        if kind == "number" and answer is not None:
            answer = _number(answer, "the answer", low, high)
        if not isinstance(example, str) or len(example) > 20_000:
            raise PollError(_("the example's link is too long for a poll"))
        owner = secrets.token_urlsafe(16)
        with self._guard(), self._connect() as db:
            db.execute("DELETE FROM polls WHERE expires <= ?", (now,))
            db.execute("DELETE FROM votes WHERE code NOT IN (SELECT code FROM polls)")
            for _attempt in range(20):
                code = "".join(secrets.choice(CODE_ALPHABET) for _position in range(CODE_LENGTH))
                try:
                    db.execute("INSERT INTO polls (code, question, kind, choices, answer, example, owner, "
                               "created, expires, revealed, low, high) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                               (code, question, kind, "\n".join(choices), None if answer is None else str(answer),
                                example, _digest(owner), now, now + TTL, low, high))
                    break
                except sqlite3.IntegrityError:  # a code in use: draw again
                    continue
            else:  # pragma: no cover - 32^6 codes
                raise PollError(_('no free poll code; try again'))
        return Poll(code, question, kind, choices, answer, example, now, now + TTL, False, low, high), owner

    def reset(self, code: str, owner: str, *, now: float | None = None) -> bool:
        """Delete every answer, held ones included (a poll filled by a script); only the poll's
        owner can, and only before the reveal."""
        now = time.time() if now is None else now
        with self._guard(), self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            cur = db.execute("UPDATE polls SET refused = 0 WHERE code = ? AND owner = ? AND expires > ? "
                             "AND revealed = 0", (code, _digest(owner) if isinstance(owner, str) else "", now))
            if cur.rowcount == 1:
                db.execute("DELETE FROM votes WHERE code = ?", (code,))
            db.execute("COMMIT")
            return cur.rowcount == 1

    def refused(self, code: str, *, now: float | None = None) -> int:
        """How many answers are held, not counted: their client (a network address) had already
        brought the poll's limit of voters."""
        poll = self.get(code, now=now)
        if poll is None:
            return 0
        with self._guard(), self._connect() as db:
            return db.execute("SELECT COUNT(*) FROM votes WHERE code = ? AND held = 1", (poll.code,)).fetchone()[0]

    def count_held(self, code: str, owner: str, *, now: float | None = None) -> int:
        """Count every held answer (a lecture hall behind one network address) and raise the
        poll's limit per address to the most voters any one address brought, so that its later
        answers count too; only the owner can, before the reveal. Returns how many were counted.

        >>> import tempfile, os
        >>> store = SQLitePolls(os.path.join(tempfile.mkdtemp(), "polls.sqlite3"))
        >>> poll, owner = store.create("AP?", now=0.0)
        >>> for i in range(PER_CLIENT + 2):   # a hall behind one address: the last two are held
        ...     try:
        ...         _counted = store.vote(poll.code, f"phone-{i:04d}", 0.5, client="198.51.100.7", now=1.0)
        ...     except PollLimited:
        ...         pass
        >>> len(store.votes(poll.code, now=2.0)), store.refused(poll.code, now=2.0)
        (60, 2)
        >>> store.count_held(poll.code, "not the owner", now=2.0), store.count_held(poll.code, owner, now=2.0)
        (0, 2)
        >>> len(store.votes(poll.code, now=2.0)), store.refused(poll.code, now=2.0)
        (62, 0)
        >>> store.vote(poll.code, "phone-late", 0.5, client="198.51.100.7", now=3.0)  # the hall's limit is 62 now
        Traceback (most recent call last):
        ...
        ranklab_ui.core.poll_store.PollLimited: Received, but not counted yet: more students than usual answered from your network address, so your teacher decides whether these answers count. Nothing more to do; you can still change your answer.
        """
        now = time.time() if now is None else now
        with self._guard(), self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            owned = db.execute("SELECT 1 FROM polls WHERE code = ? AND owner = ? AND expires > ? AND revealed = 0",
                               (code, _digest(owner) if isinstance(owner, str) else "", now)).fetchone()
            if not owned:
                db.execute("ROLLBACK")
                return 0
            counted = db.execute("UPDATE votes SET held = 0 WHERE code = ? AND held = 1", (code,)).rowcount
            most = db.execute("SELECT COALESCE(MAX(n), 0) FROM (SELECT COUNT(*) AS n FROM votes WHERE code = ? "
                              "AND client IS NOT NULL GROUP BY client)", (code,)).fetchone()[0]
            db.execute("UPDATE polls SET per_client = MAX(COALESCE(per_client, ?), ?) WHERE code = ?",
                       (PER_CLIENT, most, code))
            db.execute("COMMIT")
            return counted

    def reveal(self, code: str, owner: str, *, now: float | None = None) -> bool:
        """Close the votes and show the answer; only the poll's owner can."""
        now = time.time() if now is None else now
        with self._guard(), self._connect() as db:
            cur = db.execute("UPDATE polls SET revealed = 1 WHERE code = ? AND owner = ? AND expires > ?",
                             (code, _digest(owner) if isinstance(owner, str) else "", now))
            return cur.rowcount == 1

    # ------------------------------------------------------------------ students

    def get(self, code: str, *, now: float | None = None) -> Poll | None:
        """The poll under ``code`` (None when there is none or it expired)."""
        now = time.time() if now is None else now
        code = normalize_code(code)
        if code is None:
            return None
        with self._guard(), self._connect() as db:
            row = db.execute("SELECT code, question, kind, choices, answer, example, created, expires, revealed, "
                             "low, high FROM polls WHERE code = ? AND expires > ?", (code, now)).fetchone()
        if row is None:
            return None
        code, question, kind, choices, answer, example, created, expires, revealed, low, high = row
        choices = tuple(choices.split("\n")) if choices else ()
        value = None if answer is None else float(answer) if kind == "number" else answer
        return Poll(code, question, kind, choices, value, example, created, expires, bool(revealed), low, high)

    def vote(self, code: str, voter: str, value: float | str, *, client: str | None = None,
             now: float | None = None) -> bool:
        """Record (or replace) ``voter``'s answer; False when the poll is closed, expired,
        unknown or full. A value the poll cannot take is a :class:`PollError`.

        ``client``: where the vote comes from (a network address; only its hash is kept, and
        goes with the poll). A new voter from a client that already brought the poll's limit of
        counted voters (:data:`PER_CLIENT` until the teacher counts the held ones) is recorded
        but held: not counted, counted in :meth:`refused`, and told so by a :class:`PollLimited`;
        a held voter's new answer replaces its held one, still held. The teacher counts them with
        :meth:`count_held`."""
        now = time.time() if now is None else now
        poll = self.get(code, now=now)
        if poll is None or poll.revealed:
            return False
        if not isinstance(voter, str) or not 8 <= len(voter) <= 100 or not (voter.isascii() and voter.isprintable()):
            raise PollError(_('a voter token is 8 to 100 printable ASCII characters'))
        if poll.kind == "number":
            stored = repr(_number(value, "the answer", poll.low, poll.high))
        elif value in poll.choices:
            stored = value
        else:
            raise PollError(_('the answer must be one of the choices'))
        with self._guard(), self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                known = db.execute("SELECT held FROM votes WHERE code = ? AND voter = ?", (poll.code, voter)).fetchone()
                count = db.execute("SELECT COUNT(*) FROM votes WHERE code = ?", (poll.code,)).fetchone()[0]
                row = db.execute("SELECT revealed = 0, COALESCE(per_client, ?) FROM polls WHERE code = ?",
                                 (PER_CLIENT, poll.code)).fetchone()
                if not row or not row[0] or (not known and count >= MAX_VOTERS):
                    db.execute("ROLLBACK")
                    return False
                source = None if client is None else _digest(f"{poll.code}:{client}")
                held = bool(known[0]) if known else False
                if source is not None and not known:
                    mine = db.execute("SELECT COUNT(*) FROM votes WHERE code = ? AND client = ? AND held = 0",
                                      (poll.code, source)).fetchone()[0]
                    held = mine >= row[1]
                db.execute("INSERT INTO votes (code, voter, value, at, client, held) VALUES (?, ?, ?, ?, ?, ?) "
                           "ON CONFLICT(code, voter) DO UPDATE SET value = excluded.value, at = excluded.at",
                           (poll.code, voter, stored, now, source, int(held)))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
        if held:
            raise PollLimited(_("Received, but not counted yet: more students than usual answered from your "
                                "network address, so your teacher decides whether these answers count. Nothing "
                                "more to do; you can still change your answer."))
        return True

    def votes(self, code: str, *, now: float | None = None) -> list[float | str]:
        """Every voter's current answer (numbers for a number poll)."""
        poll = self.get(code, now=now)
        if poll is None:
            return []
        with self._guard(), self._connect() as db:
            rows = db.execute("SELECT value FROM votes WHERE code = ? AND held = 0 ORDER BY at",
                              (poll.code,)).fetchall()
        return [float(v) if poll.kind == "number" else v for (v,) in rows]
