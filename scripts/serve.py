"""Serve Ranklab to a class: N Streamlit workers behind Debian's nginx, sticky per browser.

    python scripts/serve.py --workers 2 --port 8080      # or: make serve WORKERS=2 PORT=8080

Each worker is a ``streamlit run app.py`` on 127.0.0.1 (ports from ``--first-port``). nginx
listens on ``--port`` and gives every browser a cookie (``rlw``, a random id nginx makes on the
first request) that it hashes to pick a worker, so a session's page, its websocket and its
uploads always reach the same worker (Streamlit keeps a session in one process). Class polls
are shared between the workers through one SQLite file (``RANKLAB_POLL_DB``, WAL mode).

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
    upstream ranklab {{
        hash $rlw consistent;
{servers}
    }}
    server {{
        listen {host}:{port};
        location / {{
            proxy_pass http://ranklab;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $host;
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
    >>> "server 127.0.0.1:8602;" in text, "hash $rlw consistent;" in text
    (True, True)
    """
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in worker_ports)
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
    """The workers and the proxy, started together and stopped together."""

    def __init__(self, workers: int, port: int, first_port: int, host: str = "127.0.0.1",
                 streamlit_flags: list[str] | None = None, *, proxy: bool = True) -> None:
        """``proxy=False``: the workers alone (one, for a baseline), without nginx."""
        if not 1 <= workers <= 16:
            raise SystemExit("--workers must be between 1 and 16")
        if proxy and not Path(NGINX).exists():
            raise SystemExit("nginx is missing: apt-get install nginx")
        self.proxy = proxy
        self.ports = [first_port + i for i in range(workers)]
        self.port, self.host = port, host
        self.flags = streamlit_flags or []
        self.run_dir = tempfile.mkdtemp(prefix="ranklab-serve-")
        self.procs: list[subprocess.Popen] = []

    def start(self) -> str:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.setdefault("RANKLAB_POLL_DB", str(Path(self.run_dir) / "polls.sqlite3"))
        for p in self.ports:
            self.procs.append(subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                 "--server.port", str(p), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
                 "--browser.gatherUsageStats", "false", *self.flags],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        for p, proc in zip(self.ports, self.procs, strict=True):
            wait_healthy(f"http://127.0.0.1:{p}", proc=proc)
        if not self.proxy:
            return f"http://127.0.0.1:{self.ports[0]}"
        conf = Path(self.run_dir) / "nginx.conf"
        conf.write_text(nginx_config(self.run_dir, self.ports, port=self.port, host=self.host))
        self.procs.append(subprocess.Popen([NGINX, "-c", str(conf), "-p", self.run_dir],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        url = f"http://{self.host}:{self.port}"
        wait_healthy(url)
        return url

    def worker_pids(self) -> list[int]:
        return [p.pid for p in self.procs[:len(self.ports)]]

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="Streamlit processes (default 2)")
    parser.add_argument("--port", type=int, default=8080, help="the port nginx listens on (default 8080)")
    parser.add_argument("--host", default="0.0.0.0", help="the address nginx listens on (default all)")
    parser.add_argument("--first-port", type=int, default=8601, help="the first worker's port (default 8601)")
    parser.add_argument("--print-config", action="store_true", help="print nginx's configuration and exit")
    args = parser.parse_args()
    if args.print_config:
        print(nginx_config("RUN_DIR", [args.first_port + i for i in range(args.workers)], port=args.port,
                           host=args.host))
        return
    served = Class(args.workers, args.port, args.first_port, host=args.host)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        url = served.start()
        print(f"Ranklab: {len(served.ports)} workers behind nginx at {url} (Ctrl+C stops)", flush=True)
        while all(p.poll() is None for p in served.procs):
            time.sleep(1)
        print("a worker or nginx stopped; stopping the rest", file=sys.stderr)
    except KeyboardInterrupt:
        pass
    finally:
        served.stop()


if __name__ == "__main__":
    main()
