"""The engine's process pools: long analysis never holds up a waiting player."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

# Run in a fresh interpreter with one worker per lane, so the test owns its pools.
SCRIPT = textwrap.dedent(
    """
    import time
    from dotsboxes.engine import pool

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
        from dotsboxes.engine import pool

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
