"""Serve Ranklab to a class: N Streamlit workers behind Debian's nginx, sticky per browser.

    python scripts/serve.py --workers 2 --port 8080      # or: make serve WORKERS=2 PORT=8080

Each worker is a ``streamlit run app.py`` on 127.0.0.1 (ports from ``--first-port``). nginx
listens on ``--host``:``--port`` (every interface by default: anyone who can reach this computer
on its network can open the app) and gives every browser a cookie (``rlw``, a random id nginx
makes on the first request) that it hashes to pick a worker, so a session's page, its websocket
and its uploads reach the same worker (Streamlit keeps a session in one process).

A worker that dies is started again on its port while the others serve; nginx sends its
browsers to another worker meanwhile (they reconnect by themselves, in a new session). Class
polls live in one SQLite file shared by the workers (``RANKLAB_POLL_DB``, else the user's data
folder), so no restart loses a poll or a vote. The students' link is ``--public-url`` (or
``$RANKLAB_PUBLIC_URL``), else this computer's network address when nginx listens on it.

Ctrl+C (or SIGTERM) stops nginx and the workers. ``--print-config`` prints the nginx
configuration and exits.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ranklab_ui.core.addresses import PUBLIC_ENV, is_loopback, network_address, public_base  # noqa: E402
from ranklab_ui.core.poll_store import default_path  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

CONFIG = """\
worker_processes 1;
daemon off;
pid {run}/nginx.pid;
error_log {run}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {run}/body;
    proxy_temp_path {run}/proxy;
    fastcgi_temp_path {run}/fastcgi;
    uwsgi_temp_path {run}/uwsgi;
    scgi_temp_path {run}/scgi;
    client_max_body_size {upload_mb}m;
    map $http_upgrade $connection_upgrade {{ default upgrade; "" close; }}
    # the browser's worker: its cookie, or a new random id on its first request
    map $cookie_rlw $rlw {{ "" $request_id; default $cookie_rlw; }}
    # a worker that refuses a connection is left out for a few seconds: its browsers go to
    # the next worker on the hash ring until it is back
    upstream ranklab {{
        hash $rlw consistent;
{servers}
    }}
    server {{
        listen {host}:{port};
        location / {{
            proxy_pass http://ranklab;
            proxy_next_upstream error timeout http_502 http_503;
            proxy_connect_timeout 2s;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
            # the browser's address, for the class poll's per-client limits
            proxy_set_header X-Real-IP $remote_addr;
            proxy_read_timeout 86400;
            proxy_buffering off;
            add_header Set-Cookie "rlw=$rlw; Path=/; HttpOnly; SameSite=Lax" always;
            add_header X-Ranklab-Worker $upstream_addr always;
        }}
    }}
}}
"""


def nginx_config(run_dir: str, worker_ports: list[int], *, port: int, host: str = "127.0.0.1",
                 upload_mb: int = 200) -> str:
    """The nginx configuration for ``worker_ports`` behind ``host:port``.

    >>> text = nginx_config("/tmp/r", [8601, 8602], port=8080)
    >>> "server 127.0.0.1:8602 max_fails=1 fail_timeout=3s;" in text, "hash $rlw consistent;" in text
    (True, True)
    """
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=3s;" for p in worker_ports)
    return CONFIG.format(run=run_dir, servers=servers, port=port, host=host, upload_mb=upload_mb)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, seconds: float = 60, proc: subprocess.Popen | None = None) -> None:
    """Wait until ``url`` answers Streamlit's health check; stop early if ``proc`` died."""
    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server for {url} stopped (exit code {proc.returncode})")
        if time.time() > deadline:
            raise SystemExit(f"{url} did not answer within {seconds:.0f} s")
        time.sleep(0.3)


class Class:
    """The workers and the proxy, started together, kept running, and stopped together."""

    RESTARTS = 5        # restarts of one process within RESTART_WINDOW seconds before giving up
    RESTART_WINDOW = 60

    def __init__(self, workers: int, port: int, first_port: int, host: str = "127.0.0.1",
                 streamlit_flags: list[str] | None = None, *, proxy: bool = True,
                 env: dict[str, str] | None = None, quiet: bool = True) -> None:
        """``proxy=False``: the workers alone (one, for a baseline), without nginx. ``env``:
        added to the workers' environment. ``quiet``: the workers' log is dropped (tests);
        otherwise it goes to this process's stderr, where the stack traces users never see are."""
        if not 1 <= workers <= 16:
            raise SystemExit("--workers must be between 1 and 16")
        if proxy and not Path(NGINX).exists():
            raise SystemExit("nginx is missing: apt-get install nginx")
        self.proxy = proxy
        self.ports = [first_port + i for i in range(workers)]
        self.port, self.host = port, host
        self.flags = streamlit_flags or []
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
        self.quiet = quiet
        self.run_dir = tempfile.mkdtemp(prefix="ranklab-serve-")
        self.workers: dict[int, subprocess.Popen] = {}
        self.nginx: subprocess.Popen | None = None
        self.restarts: dict[str, list[float]] = {}

    @property
    def procs(self) -> list[subprocess.Popen]:
        """The workers, then nginx."""
        return [*self.workers.values(), *([self.nginx] if self.nginx else [])]

    def _worker(self, port: int) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
             "--browser.gatherUsageStats", "false", *self.flags],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL if self.quiet else None)

    def _nginx(self) -> subprocess.Popen:
        return subprocess.Popen([NGINX, "-c", str(Path(self.run_dir) / "nginx.conf"), "-p", self.run_dir],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if self.quiet else None)

    def start(self) -> str:
        for p in self.ports:
            self.workers[p] = self._worker(p)
        for p, proc in self.workers.items():
            wait_healthy(f"http://127.0.0.1:{p}", proc=proc)
        if not self.proxy:
            return f"http://127.0.0.1:{self.ports[0]}"
        conf = Path(self.run_dir) / "nginx.conf"
        conf.write_text(nginx_config(self.run_dir, self.ports, port=self.port, host=self.host))
        self.nginx = self._nginx()
        url = f"http://{'127.0.0.1' if self.host in ('0.0.0.0', '::') else self.host}:{self.port}"
        wait_healthy(url, proc=self.nginx)
        return url

    def worker_pids(self) -> list[int]:
        return [p.pid for p in self.workers.values()]

    def _may_restart(self, what: str) -> bool:
        now = time.monotonic()
        recent = [t for t in self.restarts.get(what, []) if now - t < self.RESTART_WINDOW]
        self.restarts[what] = [*recent, now]
        return len(recent) < self.RESTARTS

    def check(self) -> list[str]:
        """Start again every process that stopped; returns what was restarted ("worker 8601",
        "nginx"). A process that keeps dying (:attr:`RESTARTS` times in a minute) stops the class
        with the reason, rather than restarting forever."""
        restarted = []
        for port, proc in list(self.workers.items()):
            if proc.poll() is not None:
                what = f"worker {port}"
                if not self._may_restart(what):
                    raise SystemExit(f"the {what} keeps stopping (exit code {proc.returncode}); stopping")
                self.workers[port] = self._worker(port)
                restarted.append(what)
        if self.nginx is not None and self.nginx.poll() is not None:
            if not self._may_restart("nginx"):
                raise SystemExit(f"nginx keeps stopping (exit code {self.nginx.returncode}; its log: "
                                 f"{self.run_dir}/error.log); stopping")
            self.nginx = self._nginx()
            restarted.append("nginx")
        return restarted

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(self.run_dir, ignore_errors=True)


def students_url(host: str, port: int, configured: str | None = None) -> str | None:
    """The address students open: ``configured`` (``--public-url`` or ``$RANKLAB_PUBLIC_URL``),
    else this computer's network address when nginx listens on every interface, else ``host``
    itself; None when that is this computer only.

    >>> students_url("192.168.1.20", 8080), students_url("127.0.0.1", 8080)
    ('http://192.168.1.20:8080', None)
    >>> students_url("0.0.0.0", 8080, "https://class.example.org/")
    'https://class.example.org'
    """
    base = public_base(configured)
    if base is not None:
        scheme, netloc, path = base
        return f"{scheme}://{netloc}{path}"
    if host in ("0.0.0.0", "::", ""):
        address = network_address()
        return f"http://{address}:{port}" if address else None
    return None if is_loopback(host) else f"http://{host}:{port}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="Streamlit processes (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="the port nginx listens on (default 8080)")
    parser.add_argument("--host", default="0.0.0.0",
                        help="the address nginx listens on (default 0.0.0.0: every interface, so anyone "
                             "on this computer's networks can open the app; 127.0.0.1: this computer only)")
    parser.add_argument("--first-port", type=int, default=8601,
                        help="the first worker's port on 127.0.0.1 (default 8601; the others follow)")
    parser.add_argument("--public-url", default=os.environ.get(PUBLIC_ENV),
                        help="the address students open, if not this computer's network address "
                             f"(default ${PUBLIC_ENV})")
    parser.add_argument("--print-config", action="store_true", help="print nginx's configuration and exit")
    args = parser.parse_args()
    if args.print_config:
        print(nginx_config("RUN_DIR", [args.first_port + i for i in range(args.workers)], port=args.port,
                           host=args.host))
        return
    if args.public_url and public_base(args.public_url) is None:
        raise SystemExit(f"--public-url: {args.public_url!r} is not an http(s) address")
    link = students_url(args.host, args.port, args.public_url)
    served = Class(args.workers, args.port, args.first_port, host=args.host,
                   env={PUBLIC_ENV: link} if link else {}, quiet=False)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        url = served.start()
        where = ("every interface" if args.host in ("0.0.0.0", "::") else args.host)
        print(f"Ranklab: {len(served.ports)} workers behind nginx, listening on {where}, port {args.port} "
              f"(Ctrl+C stops)", flush=True)
        print(f"  on this computer:  {url}", flush=True)
        if link:
            print(f"  students open:     {link}  (anyone who can reach it can use the app)", flush=True)
        else:
            print("  students cannot open it: it listens on this computer only (use HOST=0.0.0.0, "
                  f"or set {PUBLIC_ENV})", flush=True)
        print(f"  class polls kept in {os.environ.get('RANKLAB_POLL_DB') or default_path()}", flush=True)
        while True:
            time.sleep(0.5)
            for what in served.check():
                print(f"{time.strftime('%H:%M:%S')} the {what} had stopped: started again", file=sys.stderr,
                      flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        served.stop()


if __name__ == "__main__":
    main()
