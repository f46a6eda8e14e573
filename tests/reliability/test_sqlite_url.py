"""SQLite chosen through DATABASE_URL gets the same options as the default SQLite file."""

from __future__ import annotations

import json

from tests.test_settings import DUMP, run_python

LOAD = """
import threading, time
from django.db import connection, connections, transaction
with connection.cursor() as c:
    c.execute("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY, n INTEGER)")
    c.execute("INSERT OR REPLACE INTO counter VALUES (1, 0)")
errors = []

def writer():
    try:
        for _ in range(10):
            # Read, think, write back: two such transactions in DEFERRED mode both
            # hold a read lock, and the second to write fails at once ("locked").
            with transaction.atomic(), connection.cursor() as c:
                c.execute("SELECT n FROM counter WHERE id = 1")
                n = c.fetchone()[0]
                time.sleep(0.002)
                c.execute("UPDATE counter SET n = %s WHERE id = 1", [n + 1])
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connections.close_all()

threads = [threading.Thread(target=writer) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
with connection.cursor() as c:
    c.execute("SELECT n FROM counter WHERE id = 1")
    print(json.dumps({"errors": errors[:3], "count": c.fetchone()[0]}))
"""


def test_a_sqlite_database_url_keeps_wal_immediate_and_the_timeout(tmp_path):
    default = run_python(DUMP, SQLITE_PATH=str(tmp_path / "a.sqlite3"))
    by_url = run_python(DUMP, DATABASE_URL=f"sqlite:///{tmp_path / 'b.sqlite3'}")
    assert by_url.returncode == 0, by_url.stderr
    options = json.loads(by_url.stdout)["OPTIONS"]
    assert options == json.loads(default.stdout)["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE" and options["timeout"] == 20
    assert "journal_mode=WAL" in options["init_command"]


def test_eight_writers_on_a_sqlite_database_url_all_succeed(tmp_path):
    url = f"sqlite:///{tmp_path / 'load.sqlite3'}"
    result = run_python("import json\n" + LOAD, DATABASE_URL=url)
    assert result.returncode == 0, result.stderr[-2000:]
    outcome = json.loads(result.stdout.strip().splitlines()[-1])
    assert outcome == {"errors": [], "count": 80}
