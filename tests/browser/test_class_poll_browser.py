"""A class poll in the room: a teacher and two students in three browser contexts.

- no student's websocket carries the answer before the teacher reveals it (the frames are read,
  not only the page: a hidden element would still reach the phone);
- the students' screens show the answer on the reveal without anyone pressing anything;
- the QR code encodes exactly the link shown on the teacher's screen;
- on the projector (1024x768) the reveal button is on the first screen and the students' join
  box is not there;
- a value outside 0..1 typed on a phone is refused with a message, not sent as 0.
"""

import io
import os
import sys
import time
import urllib.request

import pytest

from . import helpers
from .helpers import ROOT, ST, TIMEOUT, shot, wait_ready
from .pages import Poll

pytestmark = pytest.mark.browser
ANSWER = b"0.125"  # the cat in the box at k = 2: AP@2 = (1/2) / 4 relevant documents


def app_server(poll_file):
    """The app with its own poll file (the class's polls are not the developer's), and no
    public address configured; a context manager yielding its URL."""
    return helpers.app_server({"RANKLAB_POLL_DB": str(poll_file)}, drop=("RANKLAB_PUBLIC_URL",))


@pytest.fixture(scope="module")
def poll_server(tmp_path_factory):
    with app_server(tmp_path_factory.mktemp("polls") / "polls.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def chromium(browser):
    """The session's Chromium: a teacher and students are separate contexts of it."""
    return browser


class Listener:
    """Every websocket frame a page receives, as bytes."""

    def __init__(self, page) -> None:
        self.frames: list[bytes] = []
        page.on("websocket", self._socket)

    def _socket(self, ws) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(
            payload if isinstance(payload, bytes) else payload.encode("utf-8")))

    def holds(self, needle: bytes) -> bool:
        return any(needle in frame for frame in self.frames)


def qr_matches(png: bytes, link: str) -> bool:
    """Whether the image ``png`` shows the QR code of ``link``, module for module: segno encodes
    the link again, and the colour at the centre of each of the image's modules (border of 2)
    is compared with segno's matrix."""
    import segno
    from PIL import Image

    matrix = segno.make(link, error="m").matrix
    image = Image.open(io.BytesIO(png)).convert("L")
    size = len(matrix) + 4
    if image.width != image.height or image.width % size:
        return False
    scale = image.width // size
    dark = [[image.getpixel(((c + 2) * scale + scale // 2, (r + 2) * scale + scale // 2)) < 128
             for c in range(len(matrix))] for r in range(len(matrix))]
    return dark == [[bool(m) for m in row] for row in matrix]


def test_a_class_polls_without_seeing_the_answer_until_the_reveal(poll_server, chromium):
    url = poll_server
    teacher_ctx = chromium.new_context(viewport={"width": 1024, "height": 768})
    phone_ctx = chromium.new_context(viewport={"width": 390, "height": 844})
    laptop_ctx = chromium.new_context(viewport={"width": 1280, "height": 800})
    try:
        teacher, phone, laptop = teacher_ctx.new_page(), phone_ctx.new_page(), laptop_ctx.new_page()
        phone_frames, laptop_frames = Listener(phone), Listener(laptop)

        # a student who opens the poll page before the teacher has opened a poll
        phone.goto(f"{url}/class_poll", timeout=TIMEOUT)
        wait_ready(phone)
        phone.get_by_text("What is AP@2 of this ranking?").wait_for(timeout=TIMEOUT)
        assert "0.125" not in phone.inner_text("body")

        teacher.goto(f"{url}/class_poll", timeout=TIMEOUT)
        wait_ready(teacher)
        assert "0.125" not in teacher.inner_text("body")      # the projected screen before the poll
        hall = Poll(teacher)
        hall.open_poll()
        hall.reveal_button().wait_for(timeout=TIMEOUT)
        wait_ready(teacher)
        code, link = hall.code(), hall.link_shown()
        assert len(code) == 6 and link.endswith(f"/class_poll?poll={code}")

        # the projector: the reveal on the first screen, no join box; the loopback link is flagged
        reveal = hall.reveal_button().bounding_box()
        assert reveal["y"] + reveal["height"] <= 768
        assert hall.join_box().count() == 0
        assert "This link opens only on this computer" in teacher.inner_text("body")

        # the QR code is the link, as shown
        src = hall.qr_source()
        png = teacher_ctx.request.get(src if src.startswith("http") else url + src).body()
        assert qr_matches(png, link)
        assert not qr_matches(png, link + "x")   # the comparison can tell links apart

        # one student types the code, the other opens the link
        student, other = Poll(phone), Poll(laptop)
        student.join(code.lower())
        student.answer_box().wait_for(timeout=TIMEOUT)
        laptop.goto(link.replace(link.split("/class_poll")[0], url), timeout=TIMEOUT)
        wait_ready(laptop)

        # a value outside 0..1 is refused, not sent as 0
        student.answer("-5")
        phone.get_by_text("Your answer must be a number from 0 to 1: nothing was sent.").wait_for(timeout=TIMEOUT)
        assert phone.get_by_text("Sent:").count() == 0
        for typed in ("1e11", "2"):  # (a number box takes no "NaN": the browser refuses it)
            student.answer(typed)
            phone.get_by_text("from 0 to 1: nothing was sent", exact=False).or_(
                phone.get_by_text("Type your answer first", exact=False)).first.wait_for(timeout=TIMEOUT)
            assert phone.get_by_text("Sent:").count() == 0
        student.answer("0.3")
        phone.get_by_text("Sent: 0.3.", exact=False).wait_for(timeout=TIMEOUT)
        other.answer("0.5")
        laptop.get_by_text("Sent: 0.5.", exact=False).wait_for(timeout=TIMEOUT)
        teacher.get_by_text("2 answers so far").wait_for(timeout=TIMEOUT)
        shot(teacher, "poll_teacher_1024x768")
        shot(phone, "poll_student_390x844")

        # before the reveal: the answer in no message to either student
        assert not phone_frames.holds(ANSWER) and not laptop_frames.holds(ANSWER)
        assert phone_frames.frames and laptop_frames.frames

        hall.reveal()
        teacher.get_by_text("The answer: 0.125", exact=False).wait_for(timeout=TIMEOUT)
        # the students press nothing: their screens show the answer by themselves
        phone.get_by_text("The answer is 0.125.").wait_for(timeout=15_000)
        laptop.get_by_text("The answer is 0.125.").wait_for(timeout=15_000)
        assert phone_frames.holds(ANSWER)
        shot(teacher, "poll_teacher_revealed_1024x768")
        shot(phone, "poll_student_revealed_390x844")
        shot(laptop, "poll_student_revealed_1280x800")
    finally:
        for ctx in (teacher_ctx, phone_ctx, laptop_ctx):
            ctx.close()


def test_a_students_page_comes_back_by_itself_when_its_worker_dies(chromium, tmp_path):
    """Under `make serve`: the worker holding a student's session is killed; the page reconnects
    by itself (to the other worker), the student answers again, and the poll counts one voter."""
    import shutil
    import signal
    import threading

    sys.path.insert(0, str(ROOT / "scripts"))
    from serve import NGINX, Class, free_port

    from ranklab_ui.core.addresses import network_address
    from ranklab_ui.core.poll_store import SQLitePolls

    if not (shutil.which("nginx") or os.path.exists(NGINX)):
        reason = "nginx is missing (apt-get install nginx) — this test serves the app behind it"
        if os.environ.get("RANKLAB_REQUIRE_NGINX") == "1":
            pytest.fail(reason + "; RANKLAB_REQUIRE_NGINX=1 forbids skipping")
        pytest.skip(reason)
    polls = tmp_path / "polls.sqlite3"
    first = free_port()
    group = Class(2, free_port(), first if first < 65000 else 20000, host="0.0.0.0",
                  env={"RANKLAB_POLL_DB": str(polls)})
    url = group.start()
    stop = threading.Event()

    def supervise() -> None:  # scripts/serve.py's main loop
        while not stop.wait(0.5):
            group.check()

    supervisor = threading.Thread(target=supervise, daemon=True)
    supervisor.start()
    context = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        store = SQLitePolls(polls)
        code = store.create("What is AP@2 of this ranking?", answer=0.125, low=0.0, high=1.0)[0].code
        page = context.new_page()
        # as a phone does: at this computer's network address, when it has one (nginx then
        # passes that address on, and the poll's per-client limits see it)
        address = network_address()
        student_url = url.replace("127.0.0.1", address) if address else url
        page.goto(f"{student_url}/class_poll?poll={code}", timeout=TIMEOUT)
        wait_ready(page)
        Poll(page).answer("0.3")
        page.get_by_text("Sent: 0.3.", exact=False).wait_for(timeout=TIMEOUT)
        cookie = next(c["value"] for c in context.cookies() if c["name"] == "rlw")
        request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": f"rlw={cookie}"})
        with urllib.request.urlopen(request, timeout=30) as r:
            port = int(r.headers["X-Ranklab-Worker"].split(", ")[-1].rsplit(":", 1)[1])
        killed = time.monotonic()
        os.kill(group.workers[port].pid, signal.SIGKILL)
        # the page notices, reconnects and draws the poll again, with no input from the student
        # (a new session's first run draws the page afresh: the last run's "Sent" notice goes)
        page.get_by_text("Sent: 0.3.", exact=False).wait_for(state="detached", timeout=TIMEOUT)
        wait_ready(page)
        Poll(page).answer_box().wait_for(timeout=TIMEOUT)
        back = time.monotonic() - killed
        Poll(page).answer("0.6")
        page.get_by_text("Sent: 0.6.", exact=False).wait_for(timeout=TIMEOUT)
        assert back < 15, f"the student's page took {back:.1f} s to come back"
        assert store.votes(code) == [0.6]      # one browser, one voter: the new answer replaced the old
        if address:
            import sqlite3

            with sqlite3.connect(polls) as db:
                (client,) = db.execute("SELECT client FROM votes WHERE code = ?", (code,)).fetchone()
            assert client and address not in client   # the address is seen, and kept only as a hash
    finally:
        context.close()
        stop.set()
        supervisor.join()
        group.stop()


def test_a_damaged_poll_file_is_named_to_the_teacher_and_no_trace_reaches_anyone(chromium, tmp_path):
    damaged = tmp_path / "polls.sqlite3"
    damaged.write_bytes(b"not a database at all " * 100)
    with app_server(damaged) as url:
        teacher_ctx = chromium.new_context(viewport={"width": 1024, "height": 768})
        phone_ctx = chromium.new_context(viewport={"width": 390, "height": 844})
        try:
            teacher, phone = teacher_ctx.new_page(), phone_ctx.new_page()
            teacher.goto(f"{url}/class_poll", timeout=TIMEOUT)
            wait_ready(teacher)
            Poll(teacher).open_poll()
            teacher.get_by_text("is damaged or is not a poll file", exact=False).wait_for(timeout=TIMEOUT)
            body = teacher.inner_text("body")
            assert str(damaged) in body and "RANKLAB_POLL_DB" in body
            phone.goto(f"{url}/class_poll?poll=K7QX2M", timeout=TIMEOUT)
            wait_ready(phone)
            phone.get_by_text("The poll cannot be reached right now", exact=False).wait_for(timeout=TIMEOUT)
            for pg in (teacher, phone):
                text = pg.inner_text("body")
                assert "Traceback" not in text and "DatabaseError" not in text and "File \"" not in text
                assert pg.locator(ST.EXCEPTION).count() == 0
            assert str(damaged) not in phone.inner_text("body")
        finally:
            teacher_ctx.close()
            phone_ctx.close()
