"""Benchmark of the bot API: a real uvicorn server, bots playing through HTTP (a script).

    python tests/bench/api.py                      # 10 games of 3 x 3 between two bots
    python tests/bench/api.py --games 4 --poll 0.1
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/db_api_bench python tests/bench/api.py

Starts one server on a fresh database (a SQLite file unless ``DATABASE_URL`` is set), makes
two bots and plays ``--games`` games between them, each bot drawing the first legal edge
(no engine: this measures the site).  For every move it times the POST (request to answer)
and the wait until the opponent's game stream (``/api/game/<id>/stream``) delivers the new
version: with polling streams that wait is about half of ``API_POLL_SECONDS`` on average.
Prints medians, p95s and maxima, and the server's CPU time per move (from ``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from dotsboxes.rules import Board  # noqa: E402
from tests.rooms.live import server_command, stop, wait_for_port  # noqa: E402

MAKE_BOTS = """
from django.contrib.auth import get_user_model
from dotsboxes.api import services, tokens
for name in ("benchblue", "benchred"):
    user = get_user_model().objects.create_user(name, password="a long passphrase 42")
    services.bot_account_create(user=user)
    print("TOKEN", name, tokens.token_create(user=user)[1])
"""


def call(url: str, token: str, path: str, data: dict | None = None) -> tuple[float, dict]:
    body = None if data is None else json.dumps(data).encode()
    request = urllib.request.Request(url + path, data=body)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=30) as response:
        answer = json.loads(response.read())
    return time.perf_counter() - start, answer


def watch(url: str, token: str, public_id: str, seen: dict, done: threading.Event) -> None:
    """Record when each version of the game reaches this bot's stream."""
    request = urllib.request.Request(url + f"/api/game/{public_id}/stream")
    request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        for raw in response:
            if raw.strip():
                state = json.loads(raw)["game"]
                seen[state["version"]] = time.perf_counter()
                if state["status"] != "active":
                    break
    done.set()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--size", type=int, default=3)
    parser.add_argument(
        "--poll", type=float, default=2.0, help="API_POLL_SECONDS (the fallback poll)"
    )
    parser.add_argument("--port", type=int, default=int(os.environ.get("TEST_PORT_BASE", 8590)))
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="api-bench-"))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(DJANGO_SETTINGS_MODULE="dotsboxes.settings", API_POLL_SECONDS=str(args.poll))
    env.update(RATE_LIMITS_ENABLED="0", ROOMS_TICKER="off")
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(tmp / "bench.sqlite3")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [sys.executable, "manage.py", "flush", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_BOTS],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    tokens = {w[1]: w[2] for w in (line.split() for line in out.splitlines()) if w[:1] == ["TOKEN"]}
    url = f"http://127.0.0.1:{args.port}"
    log = open(tmp / "server.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        server_command("uvicorn", args.port, quiet=True),
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    posts: list[float] = []
    arrivals: list[float] = []
    moves = 0
    try:
        wait_for_port(args.port, server)
        cpu_before = cpu_seconds(server.pid)
        for _game in range(args.games):
            _t, made = call(
                url,
                tokens["benchblue"],
                "/api/challenge/benchred",
                {"width": args.size, "height": args.size, "side": "blue"},
            )
            _t, accepted = call(
                url, tokens["benchred"], f"/api/challenge/{made['challenge']['id']}/accept", {}
            )
            state = accepted["game"]
            seen: dict[str, dict[int, float]] = {"blue": {}, "red": {}}
            done = [threading.Event(), threading.Event()]
            for (side, name), event in zip(
                (("blue", "benchblue"), ("red", "benchred")), done, strict=True
            ):
                threading.Thread(
                    target=watch,
                    args=(url, tokens[name], state["id"], seen[side], event),
                    daemon=True,
                ).start()
            while state["status"] == "active":
                side = state["to_move"]
                board = Board(state["width"], state["height"])
                for edge in state["moves"]:
                    board.play(board.parse_edge(edge))
                edge = str(board.legal_moves[0])
                elapsed, answer = call(
                    url,
                    tokens[f"bench{side}"],
                    f"/api/game/{state['id']}/move",
                    {"edge": edge, "version": state["version"]},
                )
                sent_done = time.perf_counter()
                posts.append(elapsed)
                moves += 1
                state = answer["game"]
                other = "red" if side == "blue" else "blue"
                deadline = time.monotonic() + 10
                while state["version"] not in seen[other] and time.monotonic() < deadline:
                    time.sleep(0.002)
                if state["version"] in seen[other]:
                    arrivals.append(max(0.0, seen[other][state["version"]] - sent_done))
            for event in done:
                event.wait(10)
        cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        stop([server])
        log.close()
    db = "PostgreSQL" if env.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    print(
        f"{args.games} games of {args.size} x {args.size}, {moves} moves, {db}, poll {args.poll} s"
    )
    for name, values in (("POST move", posts), ("move -> opponent's stream", arrivals)):
        print(
            f"{name:28s} median {statistics.median(values) * 1000:6.1f} ms"
            f"  p95 {pct(values, 0.95) * 1000:6.1f} ms  max {max(values) * 1000:6.1f} ms"
            f"  (n={len(values)})"
        )
    print(f"server CPU per move (streams polling included): {cpu / moves * 1000:.1f} ms")


if __name__ == "__main__":
    main()
