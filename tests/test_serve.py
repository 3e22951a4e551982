"""`make serve`: Streamlit workers behind Debian's nginx. Without nginx these tests
are skipped with the reason, unless RANKLAB_REQUIRE_NGINX=1 (CI sets it): then they fail."""

import asyncio
import os
import shutil
import signal
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

from serve import NGINX, Class, free_port, nginx_config, students_url, wait_healthy  # noqa: E402


def need_nginx() -> None:
    if not (shutil.which("nginx") or Path(NGINX).exists()):
        reason = "nginx is missing (apt-get install nginx) — the serving tests need it"
        if os.environ.get("RANKLAB_REQUIRE_NGINX") == "1":
            pytest.fail(reason + "; RANKLAB_REQUIRE_NGINX=1 forbids skipping")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    need_nginx()
    first = free_port()
    polls = tmp_path_factory.mktemp("polls") / "polls.sqlite3"
    group = Class(2, free_port(), first if first < 65000 else 20000, env={"RANKLAB_POLL_DB": str(polls)})
    url = group.start()
    yield url, group
    group.stop()


def worker(url: str, cookie: str | None = None) -> str:
    request = urllib.request.Request(f"{url}/_stcore/health", headers={"Cookie": f"rlw={cookie}"} if cookie else {})
    with urllib.request.urlopen(request, timeout=30) as r:
        assert r.status == 200
        return r.headers["X-Ranklab-Worker"].split(", ")[-1]  # nginx lists each worker it tried


def in_thread(function, *args):
    """``function(*args)`` on a thread of its own: the browser tests' Playwright (its sync API)
    keeps an event loop running on the main thread for the whole session, and asyncio.run
    refuses to start beside it."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function, *args).result()


def test_the_config_names_every_worker_and_hashes_the_cookie():
    text = nginx_config("/run", [9001, 9002, 9003], port=8080)
    assert [line.strip() for line in text.splitlines() if line.strip().startswith("server 127")] == [
        f"server 127.0.0.1:{p} max_fails=1 fail_timeout=3s;" for p in (9001, 9002, 9003)]
    assert "hash $rlw consistent;" in text and "proxy_set_header Upgrade $http_upgrade;" in text


def test_a_browser_sticks_to_one_worker_and_browsers_spread(served):
    url, group = served
    ports = {f"127.0.0.1:{p}" for p in group.ports}
    for cookie in ("alice", "bob", "carol"):
        seen = {worker(url, cookie) for _ in range(5)}
        assert len(seen) == 1 and seen <= ports
    assert {worker(url, f"student-{i}") for i in range(20)} == ports


def test_a_first_visit_gets_its_worker_cookie(served):
    url, _ = served
    with urllib.request.urlopen(f"{url}/", timeout=30) as r:
        cookies = [v for k, v in r.headers.items() if k.lower() == "set-cookie" and v.startswith("rlw=")]
        assert cookies and "HttpOnly" in cookies[0]


def test_the_app_runs_over_the_proxied_websocket(served):
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from websockets.asyncio.client import connect

    url, _ = served

    async def one_run() -> tuple[bool, list[str]]:
        async with connect(url.replace("http", "ws", 1) + "/_stcore/stream", max_size=2**26,
                           additional_headers={"Cookie": "rlw=alice"}) as ws:
            msg = BackMsg()
            msg.rerun_script.query_string = ""
            await ws.send(msg.SerializeToString())
            texts = []
            while True:
                fwd = ForwardMsg()
                fwd.ParseFromString(await asyncio.wait_for(ws.recv(), timeout=60))
                if fwd.WhichOneof("type") == "delta" and fwd.delta.new_element.WhichOneof("type") == "heading":
                    texts.append(fwd.delta.new_element.heading.body)
                if fwd.WhichOneof("type") == "script_finished":
                    return fwd.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY, texts

    ok, headings = in_thread(asyncio.run, one_run())
    assert ok and "Playground" in headings


def test_the_students_link_is_the_served_address(monkeypatch):
    import serve

    monkeypatch.setattr(serve, "network_address", lambda: "192.168.1.20")
    assert students_url("0.0.0.0", 8080) == "http://192.168.1.20:8080"
    assert students_url("10.0.0.5", 8080) == "http://10.0.0.5:8080"
    assert students_url("127.0.0.1", 8080) is None           # this computer only: the page says so
    assert students_url("127.0.0.1", 8080, "https://ranklab.example.org/class/") == \
        "https://ranklab.example.org/class"
    monkeypatch.setattr(serve, "network_address", lambda: None)
    assert students_url("0.0.0.0", 8080) is None


def test_a_class_answering_a_poll_through_a_killed_worker_loses_no_vote():
    """benchmarks/class_load.py's poll mode, small: 12 students answer a poll again and again
    through two workers; one worker is killed after 5 s; the supervisor starts it again."""
    from argparse import Namespace

    need_nginx()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import class_load

    args = Namespace(students=12, edits=5, limit=120, settle=0, seed=3, poll=True, kill_after=5, warm_up=False)
    stats = in_thread(class_load.run_class, 2, args)
    assert len(stats["restarted"]) == 1 and stats["restarted"][0].startswith("worker ")
    assert stats["confirmed"] == 12 and stats["lost"] == 0
    # the killed worker's students came back, each within a few seconds
    assert stats["recoveries"] and max(stats["recoveries"]) < 10
    # the only errors: the answers (or first pages) in flight at the kill
    assert stats["errors"] == len(stats["recoveries"])


# last in this file: it kills one of the module's workers
def test_a_killed_worker_is_started_again_while_the_other_keeps_serving(served):
    from ranklab_ui.core.poll_store import SQLitePolls

    url, group = served
    store = SQLitePolls(group.env["RANKLAB_POLL_DB"])
    poll, _owner = store.create("AP?", low=0.0, high=1.0)
    assert store.vote(poll.code, "student-before", 0.25)
    first, second = (f"127.0.0.1:{p}" for p in group.ports)
    cookie = next(c for c in (f"student-{i}" for i in range(50)) if worker(url, c) == first)
    dead = group.workers[group.ports[0]].pid
    kept = group.workers[group.ports[1]].pid
    os.kill(dead, signal.SIGKILL)
    group.workers[group.ports[0]].wait(10)
    # nginx routes the dead worker's browsers to the other one at once
    assert worker(url, cookie) == second
    assert group.check() == [f"worker {group.ports[0]}"]
    wait_healthy(f"http://127.0.0.1:{group.ports[0]}", 60, group.workers[group.ports[0]])
    assert group.workers[group.ports[0]].pid != dead and group.workers[group.ports[1]].pid == kept
    assert group.nginx.poll() is None and group.check() == []
    deadline = time.monotonic() + 10   # back on the hash ring once nginx's fail_timeout is over
    while worker(url, cookie) != first:
        assert time.monotonic() < deadline, "the restarted worker never got its browsers back"
        time.sleep(0.5)
    assert store.votes(poll.code) == [0.25] and Path(group.run_dir).exists()

