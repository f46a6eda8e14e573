"""The analysis board on a fresh server: seconds until a position's values are exact.

A script, not a test.  Run from the repository root, under ``nice -n 10``::

    python tests/bench/analysis_server.py [--runs 5] [--positions 3x3.0.0.b,4x3.0.0.b]
    DOTSBOXES_ENGINE_BACKEND=python python tests/bench/analysis_server.py --runs 3

What a new user sees, through the real path: for every run and position a fresh
``manage.py runserver --noreload`` (the README's command: Daphne, SQLite, the
in-process engine pools, cold solver tables, an empty cache) on a copy of a
migrated database.  Once ``/healthz`` answers, it opens
``/analysis/?position=KEY`` and polls it as the page does (``HX-Request``, the
same browser cookie) until every free edge's value is exact, and prints the
seconds from the first GET to that poll, the board's value and what the page
said.  The page asks once after 150 ms, then every 250 ms until the first values
come, then every second (templates/analysis/board.html); this polls every
``--poll`` seconds (0.05) to time the server, and also prints when the page's own
polls would have shown the values.
``--after-warm``: the visitor comes once the server's engine workers are up (the
server starts them as it starts: ``ENGINE_WARM_AT_START``, on by default); without
it, as soon as ``/healthz`` answers (``ENGINE_WARM_AT_START=0``: the old cold start).
Medians over ``--runs``, the load average, and the server's CPU seconds (its process
and its descendants: the engine pools' fork server and workers).
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import math
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r'<tr><th scope="row">([a-z]\d+-[a-z]\d+)</th><td>([+-]\d+)</td><td>([^<]*)</td>')
STATE = re.compile(r'data-state="(\w+)"')
# templates/analysis/board.html: once after 150 ms, then every 250 ms until the first
# values, then every second.
FIRST_ASK, FIRST_POLL, LATER_POLL = 0.15, 0.25, 1.0


def on_the_page(first: float, exact: float) -> float:
    """When the page's own polls would have shown exact values (server times ``first``
    values and ``exact`` ones)."""
    shown = FIRST_ASK + max(0, math.ceil((first - FIRST_ASK) / FIRST_POLL)) * FIRST_POLL
    return shown if exact <= shown else shown + math.ceil((exact - shown) / LATER_POLL)


def server_cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and its descendants (the engine pools' fork server and workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    own = sum(int(x) for x in fields[11:15]) / ticks  # utime stime cutime cstime
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return own + sum(server_cpu(int(c)) for c in children.stdout.split())


def fresh_server(template: Path, tmp: Path, port: int) -> subprocess.Popen:
    with socket.socket() as probe:  # a server left over on the port would answer instead
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            sys.exit(f"port {port} is taken: choose another --port")
    db = tmp / f"run-{port}.sqlite3"
    shutil.copy(template, db)
    env = {**os.environ, "SQLITE_PATH": str(db), "LOG_LEVEL": "WARNING"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    return subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_up(base: str) -> None:
    for _ in range(600):
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{base} did not start")


def wait_warm(base: str) -> float:
    """Seconds until ``/healthz/workers`` says the engine workers the server started as it
    started are ready (``ENGINE_WARM_AT_START``)."""
    start = time.perf_counter()
    for _ in range(1200):
        with urllib.request.urlopen(base + "/healthz/workers", timeout=5) as r:
            warm = json.loads(r.read())["warm"]
        if warm is None:
            raise RuntimeError("this server warms nothing: ENGINE_WARM_AT_START is off")
        if warm:
            return time.perf_counter() - start
        time.sleep(0.05)
    raise RuntimeError(f"{base} never warmed")


def time_to_exact(base: str, position: str, poll: float, limit: float) -> dict:
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    url = f"{base}/analysis/?position={position}"
    start = time.perf_counter()
    headers: dict[str, str] = {}  # the first GET is the full page, then htmx polls
    first_values = None
    while True:
        with opener.open(urllib.request.Request(url, headers=headers), timeout=60) as r:
            html = r.read().decode()
        now = time.perf_counter() - start
        headers = {"HX-Request": "true"}
        rows = ROW.findall(html)
        if rows and first_values is None:
            first_values = now
        exact = bool(rows) and not any("estimate" in text for _, _, text in rows)
        final = 'data-state="final"' in html  # no more passes: estimates stay estimates
        if exact or final or now > limit:
            return {
                "seconds": now,
                "first": first_values,
                "exact": exact,
                "value": max(int(v) for _, v, _ in rows) if rows else None,
                "state": STATE.search(html)[1],
                "edges": len(rows),
            }
        time.sleep(poll)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", default="3x3.0.0.b,4x3.0.0.b")
    parser.add_argument("--poll", type=float, default=0.05)
    parser.add_argument("--limit", type=float, default=60.0, help="give up after, s")
    parser.add_argument(
        "--after-warm",
        action="store_true",
        help="the visitor comes once the server's engine workers are up (ENGINE_WARM_AT_START);"
        " without it, as soon as /healthz answers",
    )
    parser.add_argument("--port", type=int, default=int(os.environ.get("TEST_PORT_BASE", 9400)))
    args = parser.parse_args()
    backend = os.environ.get("DOTSBOXES_ENGINE_BACKEND", "auto")
    tmp = Path(tempfile.mkdtemp(prefix="analysis-server-"))
    template = tmp / "template.sqlite3"
    env = {**os.environ, "SQLITE_PATH": str(template)}
    env.pop("DATABASE_URL", None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    print(f"backend {backend}; load average {os.getloadavg()[0]:.2f} at start", flush=True)
    for position in args.positions.split(","):
        seconds, cpus, page = [], [], []
        for run in range(args.runs):
            port = args.port + run % 10
            server = fresh_server(template, tmp, port)
            try:
                base = f"http://127.0.0.1:{port}"
                wait_up(base)
                warmed = wait_warm(base) if args.after_warm else None
                cpu = server_cpu(server.pid)
                got = time_to_exact(base, position, args.poll, args.limit)
                cpu = server_cpu(server.pid) - cpu
            finally:
                server.terminate()
                server.wait(timeout=30)
            seconds.append(got["seconds"] if got["exact"] else math.inf)
            cpus.append(cpu)
            page.append(on_the_page(got["first"] or got["seconds"], got["seconds"]))
            print(
                f"{position} run {run + 1}: {'exact' if got['exact'] else 'NOT exact'} "
                f"after {got['seconds']:.2f} s (first values {got['first'] or 0:.2f} s), "
                f"value {got['value'] if got['value'] is None else format(got['value'], '+d')}, "
                f"{got['edges']} edges, state {got['state']}, "
                f"server CPU {cpu:.2f} s, load {os.getloadavg()[0]:.2f}"
                + ("" if warmed is None else f"; warm {warmed:.2f} s after /healthz"),
                flush=True,
            )
        print(
            f"{position}: exact after median {statistics.median(seconds):.2f} s "
            f"(min {min(seconds):.2f}, max {max(seconds):.2f}); on the page's own polls "
            f"median {statistics.median(page):.2f} s; server CPU median "
            f"{statistics.median(cpus):.2f} s; load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
