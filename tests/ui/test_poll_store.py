"""The class poll store: no vote lost under 40 concurrent students, readers never blocked,
several processes sharing one file, expiry, ownership, and hostile values refused."""

from __future__ import annotations

import math
import multiprocessing
import sqlite3
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ranklab_ui.core.poll_store import (
    CODE_ALPHABET,
    TTL,
    PollError,
    PollUnavailable,
    SQLitePolls,
    default_path,
    normalize_code,
)
from tests.strength import scaled


@pytest.fixture
def store(tmp_path):
    return SQLitePolls(tmp_path / "polls.sqlite3")


def test_the_file_is_in_wal_mode(store):
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_forty_students_voting_at_once_lose_no_vote(store):
    poll, _ = store.create("AP after moving item 7 to rank 1?", kind="number", answer=0.6)
    start = threading.Barrier(40)
    errors = []

    def student(i: int) -> None:
        try:
            start.wait()
            assert store.vote(poll.code, f"student-{i:03d}", i / 40)
        except Exception as err:  # noqa: BLE001 - collected and asserted below
            errors.append(err)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert sorted(store.votes(poll.code)) == [i / 40 for i in range(40)]


def test_a_poll_read_while_it_is_written_sees_every_committed_vote(store):
    poll, _ = store.create("up or down?", kind="choice", choices=["up", "down", "same"])
    done = threading.Event()
    seen: list[int] = []

    def presenter() -> None:  # the presenter view refreshing its histogram
        while not done.is_set():
            seen.append(len(store.votes(poll.code)))

    reader = threading.Thread(target=presenter)
    reader.start()
    writers = [threading.Thread(target=store.vote, args=(poll.code, f"student-{i:03d}", ["up", "down"][i % 2]))
               for i in range(40)]
    for t in writers:
        t.start()
    for t in writers:
        t.join(60)
    done.set()
    reader.join(60)
    assert seen and seen == sorted(seen)       # counts only ever grow: no torn read
    assert len(store.votes(poll.code)) == 40
    assert sorted(store.votes(poll.code)).count("up") == 20


def _vote_from_another_process(path: str, code: str, first: int) -> None:
    other = SQLitePolls(path)
    for i in range(first, first + 20):
        assert other.vote(code, f"process-student-{i:03d}", float(i))


def test_two_server_processes_share_one_poll_file(store):
    poll, _ = store.create("DCG@3?", answer=4.5)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_vote_from_another_process, args=(str(store.path), poll.code, first))
             for first in (0, 20)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    assert sorted(store.votes(poll.code)) == [float(i) for i in range(40)]


def test_a_second_vote_replaces_the_first(store):
    poll, _ = store.create("P@5?", answer=0.6)
    store.vote(poll.code, "student-one", 0.2)
    store.vote(poll.code, "student-one", 0.6)
    assert store.votes(poll.code) == [0.6]


def test_only_the_owner_reveals_and_revealing_closes_the_votes(store):
    poll, owner = store.create("RR?", answer=0.5)
    assert store.vote(poll.code, "student-one", 0.25)
    assert not store.reveal(poll.code, "someone-else")
    assert not store.get(poll.code).revealed
    assert store.reveal(poll.code, owner)
    shown = store.get(poll.code)
    assert shown.revealed and shown.answer == 0.5
    assert not store.vote(poll.code, "student-two", 0.5)
    assert store.votes(poll.code) == [0.25]


def test_a_poll_expires_and_expired_polls_are_deleted(store):
    old, _ = store.create("old", now=0.0)
    store.vote(old.code, "student-one", 1.0, now=1.0)
    assert store.get(old.code, now=TTL - 1) is not None
    assert store.get(old.code, now=TTL + 1) is None
    assert not store.vote(old.code, "student-two", 1.0, now=TTL + 1)
    store.create("new", now=TTL + 2)  # creating a poll sweeps the expired ones
    with sqlite3.connect(store.path) as db:
        assert db.execute("SELECT COUNT(*) FROM polls WHERE code = ?", (old.code,)).fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM votes WHERE code = ?", (old.code,)).fetchone()[0] == 0


def test_codes_are_short_unambiguous_and_typed_loosely(store):
    poll, _ = store.create("nDCG@5?")
    assert len(poll.code) == 6 and set(poll.code) <= set(CODE_ALPHABET)
    assert not set("01OI") & set(CODE_ALPHABET)
    typed = f" {poll.code[:3].lower()}-{poll.code[3:].lower()} "
    assert store.get(typed).code == poll.code


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, True, "0.5", None, 1e300])
def test_a_number_poll_refuses_what_is_not_a_reasonable_number(store, value):
    poll, _ = store.create("AP?")
    with pytest.raises(PollError):
        store.vote(poll.code, "student-one", value)
    assert store.votes(poll.code) == []


def test_a_choice_poll_takes_only_its_choices(store):
    poll, _ = store.create("up or down?", kind="choice", choices=["up", "down"], answer="up")
    with pytest.raises(PollError):
        store.vote(poll.code, "student-one", "sideways")
    assert store.vote(poll.code, "student-one", "down")
    assert store.get(poll.code).answer == "up"


@pytest.mark.parametrize("kwargs", [
    {"question": ""}, {"question": "x" * 501}, {"question": "a\x00b"}, {"question": "\ud800"},
    {"question": "q", "kind": "essay"}, {"question": "q", "kind": "choice", "choices": ["one"]},
    {"question": "q", "kind": "choice", "choices": ["a", "a"]},
    {"question": "q", "kind": "choice", "choices": ["a", "b"], "answer": "c"},
    {"question": "q", "choices": ["a", "b"]}, {"question": "q", "answer": math.nan},
])
def test_a_poll_that_cannot_be_made_is_refused_plainly(store, kwargs):
    with pytest.raises(PollError):
        store.create(**kwargs)


@settings(max_examples=scaled(200), deadline=None, derandomize=True)
@given(st.text(max_size=60))
def test_any_typed_code_is_either_a_code_or_none(text):
    code = normalize_code(text)
    assert code is None or (len(code) == 6 and set(code) <= set(CODE_ALPHABET))


@settings(max_examples=scaled(50), deadline=None, derandomize=True)
@given(question=st.text(min_size=1, max_size=80), voter=st.text(min_size=8, max_size=30))
def test_hostile_text_is_stored_exactly_or_refused(tmp_path_factory, question, voter):
    store = SQLitePolls(tmp_path_factory.mktemp("p") / "polls.sqlite3")
    try:
        poll, _ = store.create(question)
    except PollError:
        return
    assert store.get(poll.code).question == question.strip()
    try:
        store.vote(poll.code, voter, 1.0)
    except PollError:
        assert not (voter.isascii() and voter.isprintable())
        return
    assert store.votes(poll.code) == [1.0]


def test_the_file_path_comes_from_the_environment_then_secrets_then_the_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("RANKLAB_POLL_DB", str(tmp_path / "env.sqlite3"))
    assert default_path("from-secrets.sqlite3") == tmp_path / "env.sqlite3"
    monkeypatch.delenv("RANKLAB_POLL_DB")
    assert str(default_path("from-secrets.sqlite3")) == "from-secrets.sqlite3"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "ranklab" / "polls.sqlite3"


# ------------------------------------------------------------------ a poll file that cannot be used


def _corrupt(path):
    path.write_bytes(b"this is no database, just some bytes " * 200)


def _folder(path):
    path.mkdir()


def _parent_is_a_file(path):
    path.parent.joinpath("blocker").write_text("a file where the folder should be")
    return path.parent / "blocker" / "polls.sqlite3"


@pytest.mark.parametrize("spoil, words", [
    (_corrupt, "is damaged or is not a poll file"),
    (_folder, "cannot be opened"),
    (_parent_is_a_file, "cannot be opened"),
])
def test_an_unusable_poll_file_is_named_with_what_to_do(tmp_path, spoil, words):
    path = tmp_path / "polls.sqlite3"
    path = spoil(path) or path
    with pytest.raises(PollUnavailable) as caught:
        SQLitePolls(path)
    assert str(path) in str(caught.value) and words in str(caught.value)
    assert "RANKLAB_POLL_DB" in str(caught.value)


def test_a_file_damaged_after_opening_is_reported_on_the_next_call(tmp_path):
    store = SQLitePolls(tmp_path / "polls.sqlite3")
    poll, _ = store.create("AP?", low=0.0, high=1.0)
    for name in ("polls.sqlite3", "polls.sqlite3-wal", "polls.sqlite3-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    _corrupt(tmp_path / "polls.sqlite3")
    with pytest.raises(PollUnavailable, match="damaged"):
        store.vote(poll.code, "student-one", 0.5)


def test_a_read_only_file_keeps_its_votes_and_refuses_new_ones_plainly(tmp_path):
    import os
    if os.geteuid() == 0:
        pytest.skip("root writes read-only files")
    store = SQLitePolls(tmp_path / "polls.sqlite3")
    poll, _ = store.create("AP?", low=0.0, high=1.0)
    assert store.vote(poll.code, "student-one", 0.25)
    with sqlite3.connect(store.path) as db:  # fold the WAL into the file, then forbid writes
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("PRAGMA journal_mode=DELETE")
    store.path.chmod(0o444)
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(PollUnavailable, match="cannot be written|cannot be opened"):
            store.vote(poll.code, "student-two", 0.5)
    finally:
        tmp_path.chmod(0o755)
        store.path.chmod(0o644)
    assert store.votes(poll.code) == [0.25]       # the accepted vote is still there


def test_an_old_files_polls_are_kept_and_it_gains_the_new_columns(tmp_path):
    path = tmp_path / "polls.sqlite3"
    with sqlite3.connect(path) as db:  # the first poll files had no expiry and no range
        db.executescript("""
            CREATE TABLE polls (code TEXT PRIMARY KEY, question TEXT NOT NULL, kind TEXT NOT NULL,
                choices TEXT NOT NULL, answer TEXT, example TEXT NOT NULL, owner TEXT NOT NULL,
                created REAL NOT NULL);
            CREATE TABLE votes (code TEXT NOT NULL, voter TEXT NOT NULL, value TEXT NOT NULL,
                at REAL NOT NULL, PRIMARY KEY (code, voter));
            INSERT INTO polls VALUES ('ABCDEF', 'old?', 'number', '', '0.5', '', 'x', 1.0);
        """)
    store = SQLitePolls(path)
    assert store.get("ABCDEF") is None              # no expiry recorded: expired
    poll, _ = store.create("new?", low=0.0, high=1.0)
    assert store.vote(poll.code, "student-one", 0.5) and store.votes(poll.code) == [0.5]


def test_a_lock_held_too_long_refuses_the_vote_plainly_and_loses_none(tmp_path):
    store = SQLitePolls(tmp_path / "polls.sqlite3", busy_ms=200)
    poll, _ = store.create("AP?", low=0.0, high=1.0)
    assert store.vote(poll.code, "student-one", 0.25)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(PollUnavailable, match="locked"):
            store.vote(poll.code, "student-two", 0.5)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert store.vote(poll.code, "student-two", 0.5)
    assert sorted(store.votes(poll.code)) == [0.25, 0.5]


@pytest.mark.parametrize("value", [1e11, -5, -0.001, 1.0001, math.nan, math.inf, 10**400, -10**400])
def test_a_zero_to_one_poll_refuses_numbers_outside_its_range(store, value):
    poll, _ = store.create("AP@2?", answer=0.125, low=0.0, high=1.0)
    with pytest.raises(PollError, match="from 0 to 1"):
        store.vote(poll.code, "student-one", value)
    assert store.votes(poll.code) == []
    assert store.vote(poll.code, "student-one", 1) and store.vote(poll.code, "student-two", 0.0)


def test_a_huge_integer_is_refused_not_an_overflow(store):
    poll, _ = store.create("DCG?")
    with pytest.raises(PollError):
        store.vote(poll.code, "student-one", 10**400)
    with pytest.raises(PollError):
        store.create("DCG?", answer=10**400)


def test_one_client_cannot_fill_a_poll_and_real_students_still_vote(store):
    from ranklab_ui.core.poll_store import PER_CLIENT, PollLimited

    poll, owner = store.create("AP@2?", answer=0.125, low=0.0, high=1.0, now=0.0)
    t = 1.0
    accepted = held = 0
    for i in range(PER_CLIENT + 20):  # a script: a new session every 0.2 s from one address
        t += 0.2
        try:
            accepted += store.vote(poll.code, f"bot-session-{i:04d}", 0.9, client="203.0.113.9", now=t)
        except PollLimited:
            held += 1
    assert (accepted, held) == (PER_CLIENT, 20)
    assert store.refused(poll.code, now=t) == 20
    assert len(store.votes(poll.code, now=t)) == PER_CLIENT        # the held answers are not counted
    # a held voter's new answer is held too; the bot's counted voters may change theirs; a real
    # student votes
    with pytest.raises(PollLimited):
        store.vote(poll.code, "bot-session-0079", 0.1, client="203.0.113.9", now=t)
    assert store.vote(poll.code, "bot-session-0000", 0.8, client="203.0.113.9", now=t)
    assert store.vote(poll.code, "a-real-student", 0.125, client="192.168.1.31", now=t)
    assert len(store.votes(poll.code, now=t)) == PER_CLIENT + 1 and store.refused(poll.code, now=t) == 20
    # the teacher sees the held answers and clears the answers; the class votes again
    assert not store.reset(poll.code, "not the owner", now=t)
    assert store.reset(poll.code, owner, now=t)
    assert store.votes(poll.code, now=t) == [] and store.refused(poll.code, now=t) == 0
    assert store.vote(poll.code, "a-real-student", 0.125, client="192.168.1.31", now=t + 1)


def test_a_lecture_hall_behind_one_address_is_counted_by_the_teacher(store):
    """200 phones behind one campus address answer within 30 s: 60 count at once, the other 140
    are held, none is lost; the teacher counts them (only the teacher can), and the hall's later
    answers count without asking again."""
    from ranklab_ui.core.poll_store import PER_CLIENT, PollLimited

    poll, owner = store.create("AP@2?", answer=0.125, low=0.0, high=1.0, now=0.0)
    held = 0
    for i in range(200):
        try:
            assert store.vote(poll.code, f"phone-{i:04d}", (i % 10) / 10, client="198.51.100.7", now=1 + i * 0.15)
        except PollLimited:
            held += 1
    assert held == 200 - PER_CLIENT and store.refused(poll.code, now=31.0) == held
    assert len(store.votes(poll.code, now=31.0)) == PER_CLIENT
    assert store.count_held(poll.code, "not the owner", now=31.0) == 0
    assert store.count_held(poll.code, owner, now=31.0) == held
    assert sorted(store.votes(poll.code, now=31.0)) == sorted((i % 10) / 10 for i in range(200))
    assert store.refused(poll.code, now=31.0) == 0
    assert store.vote(poll.code, "phone-0007", 0.125, client="198.51.100.7", now=32.0)   # a change counts
    with pytest.raises(PollLimited):   # the 201st phone: beyond the hall the teacher counted
        store.vote(poll.code, "phone-0200", 0.5, client="198.51.100.7", now=33.0)
    assert store.vote(poll.code, "no-client-given", 0.5, now=33.0)   # this computer: no limit
    assert store.reveal(poll.code, owner, now=34.0)
    assert store.count_held(poll.code, owner, now=35.0) == 0       # closed: nothing changes after the reveal
    assert len(store.votes(poll.code, now=35.0)) == 201
