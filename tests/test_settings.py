"""The one env-driven settings module: what each variable switches, and its defaults.

Each case loads ``dotsboxes.settings`` in a fresh interpreter with exactly the
environment under test (the suite's own process has its settings fixed already).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Variables the settings read; each case starts with none of them set.
SETTINGS_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "SQLITE_PATH",
    "CHANNEL_LAYER",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}

DUMP = """
import json
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({
    "DEBUG": settings.DEBUG,
    "SECRET_KEY": settings.SECRET_KEY,
    "ALLOWED_HOSTS": settings.ALLOWED_HOSTS,
    "ENGINE": db["ENGINE"],
    "NAME": str(db["NAME"]),
    "HOST": db.get("HOST", ""),
    "OPTIONS": {k: v for k, v in db.get("OPTIONS", {}).items() if k != "pool"},
    "LAYER": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "LAYER_HOSTS": settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts"),
    "CACHE": settings.CACHES["default"]["BACKEND"],
}, default=str))
"""


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES}
    clean["DJANGO_SETTINGS_MODULE"] = "dotsboxes.settings"
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_with(**env: str) -> dict:
    result = run_python(DUMP, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_with_no_environment_it_is_a_development_site_on_sqlite_and_the_in_memory_layer():
    s = settings_with()
    assert s["DEBUG"] is True
    assert s["SECRET_KEY"]
    assert s["ALLOWED_HOSTS"] == ["localhost", "127.0.0.1", "[::1]"]
    assert s["ENGINE"] == "django.db.backends.sqlite3"
    assert s["NAME"] == str(ROOT / "db.sqlite3")
    assert "journal_mode=WAL" in s["OPTIONS"]["init_command"]
    assert s["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert s["OPTIONS"]["timeout"] >= 5
    assert s["LAYER"] == "channels.layers.InMemoryChannelLayer"
    assert s["CACHE"].endswith("LocMemCache")


def test_the_sqlite_database_really_is_wal_with_a_busy_timeout_and_immediate_transactions(
    tmp_path,
):
    # A second plain connection asks for the write lock while Django is inside
    # atomic() but has written nothing yet: only BEGIN IMMEDIATE holds it already.
    path = tmp_path / "site.sqlite3"
    code = f"""
import json, sqlite3
from django.db import connection, transaction
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    mode = cursor.fetchone()[0]
    cursor.execute("PRAGMA busy_timeout")
    busy_ms = cursor.fetchone()[0]
with transaction.atomic():
    connection.cursor().execute("SELECT 1")
    other = sqlite3.connect({str(path)!r}, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        locked = False
    except sqlite3.OperationalError as exc:
        locked = "locked" in str(exc)
print(json.dumps({{"mode": mode, "busy_ms": busy_ms, "locked": locked}}))
"""
    result = run_python(code, SQLITE_PATH=str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"mode": "wal", "busy_ms": 20000, "locked": True}


def test_database_url_selects_postgresql():
    s = settings_with(DATABASE_URL="postgres://player@db.example:5432/dotsboxes")
    assert s["ENGINE"] == "django.db.backends.postgresql"
    assert (s["NAME"], s["HOST"]) == ("dotsboxes", "db.example")


def test_redis_url_selects_channels_redis_and_the_redis_cache():
    url = "redis://cache.example:6379/3"
    s = settings_with(REDIS_URL=url)
    assert s["LAYER"].startswith("channels_redis.")
    assert [host["address"] for host in s["LAYER_HOSTS"]] == [url]
    assert s["CACHE"] == "dotsboxes.rediscache.SharedRedisCache"
    assert s["ENGINE"] == "django.db.backends.sqlite3"  # each variable switches one thing


def test_secret_key_debug_and_allowed_hosts_come_from_the_environment():
    s = settings_with(
        DEBUG="0", SECRET_KEY="from-the-environment", ALLOWED_HOSTS="a.example, b.example"
    )
    assert s["DEBUG"] is False
    assert s["SECRET_KEY"] == "from-the-environment"
    assert s["ALLOWED_HOSTS"] == ["a.example", "b.example"]


def test_production_without_allowed_hosts_serves_no_host():
    s = settings_with(DEBUG="0", SECRET_KEY="from-the-environment")
    assert s["ALLOWED_HOSTS"] == []


# -- one default per setting, one table ----------------------------------------------

PACKAGE = ROOT / "dotsboxes"


def _defined() -> set[str]:
    """Every upper-case name dotsboxes/settings.py assigns."""
    import ast

    names = set()
    for node in ast.walk(ast.parse((PACKAGE / "settings.py").read_text())):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):  # RATE_LIMITS: dict[...] = {}
            targets = [node.target]
        else:
            continue
        names |= {t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper()}
    return names


def _own_settings() -> set[str]:
    """The settings of settings.py beyond those of Django, django-axes and WhiteNoise."""
    from django.conf import global_settings

    # Helpers of the module, and the wiring Django and Channels read (not knobs).
    internal = {"BASE_DIR", "SQLITE_OPTIONS", "ROOT_URLCONF", "ASGI_APPLICATION", "CHANNEL_LAYERS"}
    return {
        n
        for n in _defined() - internal
        if not hasattr(global_settings, n) and not n.startswith(("AXES_", "WHITENOISE_", "_"))
    }


def _environment_variables() -> set[str]:
    """Every environment variable the package reads (settings.py, the engine, the bridge)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r'env_(?:bool|list|int)\("([A-Z0-9_]+)"', text))
        found |= set(re.findall(r'os\.environ\.get\("([A-Z0-9_]+)"', text))
    return found - {"DJANGO_SETTINGS_MODULE"}


def test_code_reads_settings_directly_and_each_default_lives_in_settings_py():
    from django.conf import global_settings, settings

    offenders = [
        f"{path.relative_to(ROOT)}"
        for path in PACKAGE.rglob("*.py")
        if re.search(r"getattr\(\s*settings\s*,", path.read_text())
    ]
    assert offenders == []
    read = set()
    for path in PACKAGE.rglob("*.py"):
        read |= set(re.findall(r"\bsettings\.([A-Z][A-Z0-9_]+)\b", path.read_text()))
    assert "ROOMS_LAYER_PROBE_SECONDS" in read and "ROOMS_PRESENCE_PUSH_DELAY" in read
    defined = _defined()
    undefined = sorted(n for n in read if not hasattr(global_settings, n) and n not in defined)
    assert undefined == []
    assert all(hasattr(settings, n) for n in read)


def test_every_setting_and_environment_variable_is_in_the_one_table():
    table = (ROOT / "docs" / "SETTINGS.md").read_text()
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    variables = _environment_variables()
    assert {"DOTSBOXES_ENGINE_TABLE_MB", "ENGINE_WORKERS", "ROOMS_LAYER_PROBE_SECONDS"} <= variables
    assert sorted(variables - documented) == []
    assert sorted(_own_settings() - documented) == []


def test_the_new_room_knobs_are_settings_a_deployment_can_set():
    code = (
        "from django.conf import settings\n"
        "print(settings.ROOMS_LAYER_PROBE_SECONDS, settings.ROOMS_PRESENCE_PUSH_DELAY)"
    )
    assert run_python(code).stdout.split() == ["1.0", "0.5"]
    result = run_python(code, ROOMS_LAYER_PROBE_SECONDS="0.25", ROOMS_PRESENCE_PUSH_DELAY="2")
    assert result.stdout.split() == ["0.25", "2.0"]


LANGUAGE_COOKIE = """
from django.test import Client
response = Client().post(
    "/language/", {"language": "zh-hans", "next": "/"}, secure=True, HTTP_HOST="a.example"
)
print(response.cookies["django_language"].output())
print(response.cookies["sessionid"].output() if "sessionid" in response.cookies else "")
"""


def test_the_language_cookie_is_secure_httponly_and_lax_in_production():
    # Issue 23.11: with DEBUG=0 the language cookie went over plain HTTP too.
    result = run_python(
        LANGUAGE_COOKIE, DEBUG="0", SECRET_KEY="from-the-environment", ALLOWED_HOSTS="a.example"
    )
    assert result.returncode == 0, result.stderr
    cookie = result.stdout.splitlines()[0]
    assert "django_language=zh-hans" in cookie
    assert "; Secure" in cookie and "; HttpOnly" in cookie and "SameSite=Lax" in cookie
    # On a development site (DEBUG=1, plain HTTP) it is not Secure, or it would not come back.
    plain = LANGUAGE_COOKIE.replace("secure=True", "secure=False").replace("a.example", "localhost")
    result = run_python(plain, DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert "Secure" not in result.stdout.splitlines()[0]
