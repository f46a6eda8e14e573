"""Settings for dotsboxes: one module, driven by the environment.

With no environment at all this is a development site on SQLite with the
in-memory channel layer, so ``manage.py runserver`` needs no other service.
Production sets ``DEBUG=0``, ``SECRET_KEY``, ``ALLOWED_HOSTS``,
``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channels-redis and the cache).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def site_dir() -> Path:
    """Where the site's ``templates/``, ``static/`` and ``docs/API.md`` are.

    A checkout (or an editable install of one), marked by ``manage.py``, has them beside
    the package; an installed wheel carries copies in ``dotsboxes/_site/`` (setup.py).
    """
    if (BASE_DIR / "manage.py").is_file():
        return BASE_DIR
    return Path(__file__).resolve().parent / "_site"


#: The site files' folder (docs/SETTINGS.md); derived, not read from the environment.
SITE_DIR = site_dir()


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name) or default)


DEBUG = env_bool("DEBUG", True)
_DEV_SECRET = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or _DEV_SECRET
if not DEBUG and SECRET_KEY == _DEV_SECRET:
    raise ImproperlyConfigured("Set SECRET_KEY in the environment when DEBUG is off.")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",  # first, so runserver serves ASGI (HTTP and WebSocket)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "channels",
    "dotsboxes.games",
    "dotsboxes.rooms",
    "dotsboxes.moderation",  # blocks, chat mutes, fair-play marks
    "dotsboxes.guide",
    "dotsboxes.accounts",
    "dotsboxes.reports",
    "dotsboxes.notifications",
    "dotsboxes.leases",
    "axes",  # sign-in lock-outs after repeated failures
    "dotsboxes.analysis",
    "dotsboxes.puzzles",
    "dotsboxes.api",
    "dotsboxes.profiles",  # the profile sections that need several apps
    "dotsboxes.tournaments",
    "dotsboxes.studies",
    "dotsboxes.jobs",  # engine work: job functions, their transport, `engine_worker`
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "dotsboxes.middleware.RejectUnreadableRequests",  # before anything reads the body
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: a signed-in player's saved choice, else the language cookie
    # (the switcher), else the browser's Accept-Language, else English.
    "django.middleware.locale.LocaleMiddleware",
    "dotsboxes.accounts.middleware.SavedLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy on every answer
]

ROOT_URLCONF = "dotsboxes.urls"
WSGI_APPLICATION = "dotsboxes.wsgi.application"
ASGI_APPLICATION = "dotsboxes.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "dotsboxes.notifications.context.header_counts",
            ],
        },
    },
]

# -- database -----------------------------------------------------------------
# SQLite, however it is chosen (no DATABASE_URL, or DATABASE_URL=sqlite:///...):
# WAL lets readers and one writer work at once; IMMEDIATE takes the write lock at
# BEGIN so two writers queue (for up to the timeout) instead of one failing at once
# with "database is locked" when both try to upgrade a read lock.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # No persistent connections: under ASGI every request runs in a thread of its
    # own, so a kept-open connection is never reused and piles up until PostgreSQL
    # refuses new clients (Django's documented advice for ASGI).  Instead each
    # process keeps a small psycopg pool: a request borrows a connection and gives
    # it back when it ends, so no request pays for a new PostgreSQL backend (a
    # fork and an authentication: most of a live room's database time).
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0)
        )
    }
    if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DATABASE_POOL", True):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env_int("DATABASE_POOL_MIN_SIZE", 2),
            "max_size": env_int("DATABASE_POOL_MAX_SIZE", 10),
            "timeout": 20,
        }
    elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        DATABASES["default"]["OPTIONS"] = {
            **SQLITE_OPTIONS,
            **DATABASES["default"].get("OPTIONS", {}),
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH") or BASE_DIR / "db.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- channels and cache -----------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")


def redis_channel_host(url: str) -> dict:
    """A channel layer's Redis host (the tests' layers use it too).

    redis-py 8 refuses a command (MaxConnectionsError) once 100 are in flight,
    which a crowd leaving at once exceeds (their group_discard calls failed and
    left dead channels in the groups): allow many more.  Its default 5 s socket
    timeout equals channels-redis's 5 s BZPOPMIN: on a busy host the read timed
    out and killed the consumer, hence 30 s."""
    return {"address": url, "socket_timeout": 30, "max_connections": 5000}


if REDIS_URL:
    _redis_host = redis_channel_host(REDIS_URL)
    if os.environ.get("CHANNEL_LAYER", "pubsub") == "pubsub":
        # Redis pub/sub (the default): a push is one PUBLISH, and each process gets
        # it once on the connection it is subscribed with and hands it to its own
        # sockets.  Messages are not stored: a process that misses one (restarting,
        # too slow for Redis's output buffer) loses it, and its pages resync by
        # version, as after any lost push.
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {
                    "hosts": [_redis_host],
                    "prefix": os.environ.get("CHANNEL_PREFIX", "asgi"),
                },
            }
        }
    else:  # CHANNEL_LAYER=lists: channels-redis's stored queues (BZPOPMIN per message)
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    "hosts": [_redis_host],
                    "prefix": os.environ.get("CHANNEL_PREFIX", "asgi"),
                    # A slow process must not stall the group: drop (clients resync).
                    "capacity": 500,
                    "expiry": 30,
                },
            }
        }
    # The cache holds rate-limit counts, leases and claims keyed by user id and address:
    # two sites on one Redis database (or the test suite's servers, each on a database
    # of its own) would share them without a prefix of their own.
    CACHES = {
        "default": {
            "BACKEND": "dotsboxes.rediscache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", ""),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# -- engine jobs -----------------------------------------------------------------
# Off (the default): computer moves, hints and analyses run in this process's engine
# pools, as on a single machine.  On (needs REDIS_URL): they go on dramatiq queues in
# Redis and `manage.py engine_worker` processes, on any machine, run them; web
# processes then start no engine pool (docs/JOBS.md, docs/DEPLOY.md).
ENGINE_QUEUE = env_bool("ENGINE_QUEUE", False)
if ENGINE_QUEUE and not REDIS_URL:
    raise ImproperlyConfigured("ENGINE_QUEUE=1 needs REDIS_URL (the queues live in Redis)")
# A server (Daphne or uvicorn) starts its engine pools' workers as it starts, each with
# the engine loaded, so the first visitor's analysis board or computer move does not
# wait seconds for processes to start.  Off: the workers start on first use (the test
# suite's many short-lived servers turn it off; tests/jobs/test_warm.py turns it on).
# Nothing to warm with ENGINE_QUEUE: the engine workers are separate processes.
ENGINE_WARM_AT_START = env_bool("ENGINE_WARM_AT_START", True)
# Redis key prefix of the queues: sites (or test runs) sharing one Redis keep apart.
ENGINE_QUEUE_NAMESPACE = os.environ.get("ENGINE_QUEUE_NAMESPACE") or "dotsboxes"

# -- online rooms ------------------------------------------------------------------
# The room clock (turn timers, stand-ins): "embedded" in every server process,
# "worker" when `manage.py rooms_ticker` runs it separately, "off" in tests.
ROOMS_TICKER = os.environ.get("ROOMS_TICKER", "embedded")
ROOMS_TICK_SECONDS = float(os.environ.get("ROOMS_TICK_SECONDS") or 0.5)
# How long a player's seat may stay without a connection before the computer plays for them.
ROOMS_AWAY_SECONDS = float(os.environ.get("ROOMS_AWAY_SECONDS") or 60)
# The bot API's streams read the database when woken by a change, and at least
# this often; they send an empty line after this long without news (docs/API.md).
API_POLL_SECONDS = float(os.environ.get("API_POLL_SECONDS") or 2)
API_KEEPALIVE_SECONDS = float(os.environ.get("API_KEEPALIVE_SECONDS") or 10)
# An unanswered challenge to a bot expires after this long.
API_CHALLENGE_SECONDS = float(os.environ.get("API_CHALLENGE_SECONDS") or 600)
ROOMS_COMPUTER_LEVEL = "casual"  # a modest level for timed-out turns and stand-ins
ROOMS_CHAT_BURST = 5  # chat lines per player per window
ROOMS_CHAT_WINDOW_SECONDS = 10
# Seconds between a room socket's probes of the channel layer (rooms/watchdog.py): a
# page that missed pushes while Redis was away is told to resync within about this long.
ROOMS_LAYER_PROBE_SECONDS = float(os.environ.get("ROOMS_LAYER_PROBE_SECONDS") or 1.0)
# Seconds a room waits before pushing who is present, so a crowd arriving at once
# costs one push, not one per arrival (rooms/consumers.py).
ROOMS_PRESENCE_PUSH_DELAY = float(os.environ.get("ROOMS_PRESENCE_PUSH_DELAY") or 0.5)
# Seconds between the ASGI server's hand-backs of frozen garbage (dotsboxes/gcpolicy.py); 0: off.
SERVER_GC_REFREEZE_SECONDS = float(os.environ.get("SERVER_GC_REFREEZE_SECONDS") or 600)

# -- notifications (correspondence games) -----------------------------------------
# Django's email framework: the console backend unless an SMTP host is configured.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "dotsboxes <noreply@localhost>")
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")
NOTIFY_MAIL_EVERY = 3600  # seconds: at most one notification mail per player per hour
# Seconds between an open page's asks for the header's counts (your turn, unread notices).
HEADER_POLL_SECONDS = env_int("HEADER_POLL_SECONDS", 20)
# How often the room clock's pass looks for deadlines to warn about and mail to send.
NOTIFY_EVERY_SECONDS = float(os.environ.get("NOTIFY_EVERY_SECONDS") or 30)
# Vacation days a correspondence player has per calendar year (rooms/vacation.py); 0: none.
VACATION_DAYS_PER_YEAR = env_int("VACATION_DAYS_PER_YEAR", 14)
# Tests only: a file holding seconds added to dotsboxes.clock.now().
CLOCK_OFFSET_FILE = os.environ.get("CLOCK_OFFSET_FILE", "")
# -- analysis ----------------------------------------------------------------------
# Finished games with a signed-in player are analysed without being asked ("0": off).
ANALYSIS_AUTO = os.environ.get("ANALYSIS_AUTO", "1") != "0"
# Analyses of one player in the background lane at once; the rest wait their turn
# (dotsboxes/analysis/scheduling.py, docs/ANALYSIS.md).
ANALYSIS_PER_PLAYER = env_int("ANALYSIS_PER_PLAYER", 2)
# Seconds the solver may spend proving one position a study makes a claim about.
STUDY_CHECK_SECONDS = float(os.environ.get("STUDY_CHECK_SECONDS") or 20)

# -- sessions, auth ---------------------------------------------------------------
# Database sessions (pooled connections).  Not cached_db on Redis: Django's cache
# objects live per request context under ASGI, so each request opened a new Redis
# connection, which cost more than the session query it saved.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # anonymous players keep their games for a year
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses sign-ins while locked out
    "django.contrib.auth.backends.ModelBackend",
]
# django-axes: after AXES_FAILURE_LIMIT failed sign-ins for one name from one address,
# or from one address whatever the names, further tries from that address are refused
# for the cool-off (counted from the last try).  A name is never locked from every
# address: a stranger guessing someone's password locks out only themselves (issue
# 23.13).  Names that belong to no account are counted the same way, so a lock-out
# never tells which names exist.  Staff lift lock-outs in the admin (Access attempts).
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # name at an address; address
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "dotsboxes.accounts.lockout.locked_out"
AXES_VERBOSE = False

# Rate limits (dotsboxes/throttle.py): scope -> (per person, per address), each
# "<count>/<period>" with s, m, h or d.  Unset scopes take throttle.DEFAULT_RATES.
RATE_LIMITS_ENABLED = env_bool("RATE_LIMITS_ENABLED", True)
RATE_LIMITS: dict[str, tuple[str, str]] = {}

LOGIN_URL = "accounts:login"
# A password-reset link works once, for a day (Django's token); an email
# confirmation link (accounts/addresses.py) once, for three days.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 24 * 3600)
EMAIL_CONFIRM_SECONDS = env_int("EMAIL_CONFIRM_SECONDS", 3 * 24 * 3600)
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# -- security (strict whenever DEBUG is off) -----------------------------------------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    # Off only for a plain-HTTP test site on 127.0.0.1 (the chaos suite).
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    # The language cookie goes with the session's: HTTPS only (issue 23.11).
    LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Content-Security-Policy (django-csp; docs/SECURITY.md): scripts only from this site's
# files, never inline or eval (an injected <script> does not run); styles may be
# inline (the SVG boards and htmx's indicator style use them); sockets to this site.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# -- i18n, static ---------------------------------------------------------------
# English is the source language; each other language is a .po/.mo pair under
# dotsboxes/locale/ (docs/I18N.md).  Names are written in their own language,
# as a switcher shows them.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "dotsboxes" / "locale"]
# Our English date formats ("2 Dec 2026"); other languages use Django's own.
FORMAT_MODULE_PATH = ["dotsboxes.formats"]
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"  # as the session cookie (Django's default for it)
LANGUAGE_COOKIE_HTTPONLY = True  # no script reads it: the server renders each page's language
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic writes (env: two test servers collecting at once each need their own).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [SITE_DIR / "static"]
# Files served at the site root by WhiteNoise: /favicon.ico, which every browser asks for.
WHITENOISE_ROOT = SITE_DIR / "static" / "root"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "filters": {"expected": {"()": "dotsboxes.logfilters.ExpectedWithoutTraceback"}},
    "loggers": {
        # django-axes logs every sign-in at INFO; lock-outs are warnings.
        "axes": {"level": "WARNING"},
        # A sign-out in another tab mid-request: a 400, one line (dotsboxes/logfilters.py).
        "django.request": {"filters": ["expected"]},
    },
}
