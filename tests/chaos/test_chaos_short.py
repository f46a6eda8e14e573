"""Short versions of the chaos scripts, for CI: the same checks on a few hundred inputs.

Each starts real uvicorn servers on a fresh database of the run's kind (SQLite, or
PostgreSQL when DATABASE_URL names one).  The full runs are ``python -m tests.chaos.<name>``.
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.chaos import bad_posts, fuzz, kills, redis_outage, same_move, sqlite_load
from tests.reliability.redis_server import OUTAGE_PORT
from tests.rooms.live import worker_ports

DATABASE = "postgres" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
PORT = worker_ports(10)[6]  # this xdist worker's ports 6-9 are free of the live tests


@pytest.mark.parametrize("debug", [False, True], ids=["debug0", "debug1"])
def test_a_short_fuzz_gets_no_server_error_and_no_traceback(debug):
    result = fuzz.run(posts=120, sockets=60, debug=debug, database=DATABASE, port=PORT)
    assert result["errors_5xx"] == 0, result["statuses"]
    assert result["tracebacks"] == 0, result.get("log_tail")
    assert result["healthz_all"] > 0 and result["healthz_ok"] == result["healthz_all"]
    assert result["uncovered"] == []  # every POST endpoint of the URLconf gets junk


def test_the_same_move_posted_ten_ways_at_once_is_applied_exactly_once():
    result = same_move.run(trials_count=4, at_once=10, database=DATABASE, port=PORT)
    assert result["exact"] == 4
    assert not [s for s in result["statuses"] if s >= 500]
    assert result["tracebacks"] == 0


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed")
def test_a_short_redis_outage_loses_no_move_and_pages_resync_within_ten_seconds():
    result = redis_outage.run(down=6, database=DATABASE, port=PORT, redis_port=OUTAGE_PORT + 1)
    assert not [s for s in result["statuses"] if s >= 500], result["statuses"]
    assert result["lost_carol"] == []  # (how many she made depends on the computer's speed)
    assert result["room_moves"] > 0 and result["room_version"] >= result["room_moves"]
    assert all(s is not None and s <= 10 for s in result["synced"]), result["synced"]
    assert result["flowing"]


def test_two_kills_mid_game_lose_no_acknowledged_move_and_the_computer_and_clock_resume():
    # The room's deadline is moved into the past while the server is down (the full
    # run waits the real 30 s): the restarted server's clock must play that turn.
    result = kills.run(kills=2, database=DATABASE, port=PORT, clock_every=1, shortcut_clock=True)
    assert result["acked"] > 0 and result["lost"] == []
    assert result["unreplayable"] == 0
    assert result["thinking_at_kill"] >= 1 and result["resumed"], result  # killed mid-thought
    assert result["never_resumed"] == 0
    checks = result["clock_checks"]
    assert checks and all(c["late"] is not None for c in checks), checks
    assert result["errors_5xx"] == 0, result["statuses"]
    assert result["tracebacks"] == 0, result.get("log_tail")


def test_every_post_endpoint_refuses_forged_stale_duplicate_and_out_of_turn_posts_unchanged():
    # The whole script: every POST pattern of the URLconf, or the run names the ones missed.
    result = bad_posts.run(database=DATABASE, port=PORT)
    assert result["uncovered"] == [] and result["unforged"] == []
    assert result["wrong_get"] == []
    failures = [(o.name, o.case.label, o.status, o.why) for o in result["failures"]]
    assert failures == []
    # The api, bots, puzzles and tournaments too.
    assert result["endpoints"] - result["admin_endpoints"] >= 47
    assert result["errors_5xx"] == 0 and result["tracebacks"] == 0, result.get("log_tail")


@pytest.mark.skipif(DATABASE != "sqlite", reason="SQLite's own load test: run in the SQLite run")
def test_two_rooms_on_a_sqlite_database_url_under_a_cpu_burner_meet_no_error():
    # The full run: python -m tests.chaos.sqlite_load (4 rooms, 60 s, 2 burners).
    result = sqlite_load.run(rooms=2, seconds=10, burners=1, port=PORT)
    statuses = result["statuses"]
    assert result["moves"] > 0, statuses
    assert not [k for k in statuses if isinstance(k, int) and k >= 500], statuses
    assert not [k for k in statuses if str(k).startswith("ws:error")], statuses
    assert statuses["ws:open"] > 0, statuses
    assert result["locked"] == 0 and result["tracebacks"] == 0, statuses
