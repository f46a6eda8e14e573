"""The engine's process pools: long analysis never holds up a waiting player."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

# Run in a fresh interpreter with one worker per lane, so the test owns its pools.
SCRIPT = textwrap.dedent(
    """
    import time
    from dotsboxes.jobs import pool

    if __name__ == "__main__":
        review = pool.submit_background(time.sleep, 12)  # the only background worker, busy
        print(pool.submit(pow, 2, 10).result(timeout=10))  # the play lane answers anyway
        print(review.done())
        pool.shutdown()
    """
)


def test_a_long_background_job_does_not_delay_the_computers_move():
    env = {**os.environ, "ENGINE_WORKERS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1024", "False"]


def test_a_crashed_worker_is_replaced():
    script = textwrap.dedent(
        """
        import os
        from concurrent.futures.process import BrokenProcessPool
        from dotsboxes.jobs import pool

        if __name__ == "__main__":
            try:
                pool.submit(os._exit, 1).result(timeout=30)
            except BrokenProcessPool:
                print("broken")
            print(pool.submit(pow, 3, 3).result(timeout=30))
            pool.shutdown()
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=90
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["broken", "27"]


def _running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # gone between the open and the read
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_the_server_is_killed():
    script = textwrap.dedent(
        """
        import os, time
        from dotsboxes.jobs import pool

        if __name__ == "__main__":
            print(pool.submit(os.getpid).result(timeout=30), flush=True)  # idle afterwards
            print(pool.submit_background(os.getpid).result(timeout=30), flush=True)
            pool.submit_background(time.sleep, 120)  # that worker is now busy
            time.sleep(120)
        """
    )
    env = {**os.environ, "ENGINE_WORKERS": "1"}
    server = subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True
    )
    workers = [int(server.stdout.readline()), int(server.stdout.readline())]
    try:
        time.sleep(0.5)  # let the busy job start
        assert all(_running(pid) for pid in workers)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 20
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if _running(pid)]
    finally:
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_a_background_job_reports_its_progress_to_the_server():
    script = textwrap.dedent(
        """
        from dotsboxes.engine import annotate
        from dotsboxes.jobs import pool

        if __name__ == "__main__":
            seen = []
            pool.listen("game-1", lambda done, total: seen.append((done, total)))
            edges = ["a1-b1", "a2-b2", "a1-a2", "b1-b2"]
            job = pool.submit_background(
                annotate.annotate, 1, 1, edges, progress=pool.Progress("game-1")
            )
            print(job.result(timeout=60)["players"]["red"]["edges"])
            import time
            for _ in range(100):
                if len(seen) == 4:
                    break
                time.sleep(0.05)
            print(seen)
            pool.shutdown()
        """
    )
    env = {**os.environ, "ENGINE_WORKERS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "2"  # the turn passes after each of the first three edges
    assert lines[1] == "[(1, 4), (2, 4), (3, 4), (4, 4)]"
