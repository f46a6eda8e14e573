"""The bridge: the site's event stream in, our engine protocol out, moves posted back.

One thread reads the bot's event stream (``/api/stream/event``): it accepts
challenges and, for each game that starts, starts a thread with its own engine
process that reads the game's stream (``/api/game/<id>/stream``).  When the bot
is to move, the thread brings the engine up to date (``size``, ``play``), asks
it (``go``) and posts the edge with the game's ``version``.  A refusal for a
stale version needs nothing: the stream brings the state that superseded it.
Streams that break are opened again after a pause.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

from .engine import Engine, EngineError

logger = logging.getLogger("dotsboxes.bot")
STREAM_TIMEOUT = 60  # the site sends an empty line at least every 10 s


class ApiError(RuntimeError):
    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status}: {body.get('error', body)}")
        self.status = status
        self.body = body


class Api:
    """The few calls the bridge makes, with ``urllib`` and a bearer token."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url.rstrip("/")
        self.token = token

    def _request(self, path: str, data: dict | None = None) -> urllib.request.Request:
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(self.url + path, data=body)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if body is not None:
            request.add_header("Content-Type", "application/json")
        return request

    def call(self, path: str, data: dict | None = None) -> dict:
        """GET (no ``data``) or POST JSON; the answer's JSON, or :class:`ApiError`."""
        try:
            with urllib.request.urlopen(self._request(path, data), timeout=30) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            try:
                body = json.loads(exc.read() or b"{}")
            except ValueError:
                body = {}
            raise ApiError(exc.code, body) from None

    def stream(self, path: str) -> Iterator[dict]:
        """The objects of an NDJSON stream (keep-alive blank lines skipped)."""
        try:
            response = urllib.request.urlopen(self._request(path), timeout=STREAM_TIMEOUT)
        except urllib.error.HTTPError as exc:
            raise ApiError(exc.code, {}) from None
        with response:
            for raw in response:
                text = raw.strip()
                if text:
                    yield json.loads(text)


class Bridge:
    def __init__(
        self, api: Api, engine: str, *, go: str = "", games: int = 0, accept: bool = True
    ) -> None:
        self.api = api
        self.engine_command = engine
        self.go_options = go
        self.accept = accept
        self.games_left = games  # 0: play for ever
        self.playing: dict[str, threading.Thread] = {}
        self.finished = 0
        self.lock = threading.Lock()
        self.done = threading.Event()

    # -- events -------------------------------------------------------------------

    def run(self) -> None:
        """Read the event stream until the games asked for are played (or for ever)."""
        me = self.api.call("/api/account")
        logger.info("connected as %s%s", me["username"], " (BOT)" if me.get("bot") else "")
        failed: list[ApiError] = []
        # The reader blocks on the stream, so it is a daemon thread: the process
        # ends when the games are played, whatever the stream is doing.
        reader = threading.Thread(target=self.read_events, args=(failed,), daemon=True)
        reader.start()
        while not self.done.wait(0.5):
            if not reader.is_alive():
                break
        for thread in list(self.playing.values()):
            thread.join(timeout=30)
        if failed:
            raise failed[0]

    def read_events(self, failed: list[ApiError]) -> None:
        while not self.done.is_set():
            try:
                for event in self.api.stream("/api/stream/event"):
                    self.on_event(event)
            except ApiError as exc:
                if exc.status in (401, 403):
                    failed.append(exc)
                    return
                logger.warning("event stream: %s; again in 2 s", exc)
                time.sleep(2)
            except (OSError, ValueError) as exc:
                logger.warning("event stream broke (%s); again in 2 s", exc)
                time.sleep(2)

    def on_event(self, event: dict) -> None:
        kind = event.get("type")
        if kind == "challenge":
            challenge = event["challenge"]
            action = "accept" if self.accept else "decline"
            try:
                self.api.call(f"/api/challenge/{challenge['id']}/{action}", {})
                logger.info(
                    "%sed challenge %s from %s", action, challenge["id"], challenge["challenger"]
                )
            except ApiError as exc:
                logger.warning("challenge %s: %s", challenge["id"], exc)
        elif kind == "gameStart":
            public_id = event["game"]["id"]
            with self.lock:
                if public_id in self.playing:
                    return
                thread = threading.Thread(
                    target=self.play, args=(public_id,), name=f"game-{public_id}", daemon=True
                )
                self.playing[public_id] = thread
            thread.start()

    # -- one game -----------------------------------------------------------------

    def play(self, public_id: str) -> None:
        try:
            engine = Engine(self.engine_command)
        except (OSError, ValueError) as exc:  # no such program, a bad command line
            logger.error("game %s: cannot start the engine: %s", public_id, exc)
            self.game_over(public_id)
            return
        try:
            while True:
                try:
                    for message in self.api.stream(f"/api/game/{public_id}/stream"):
                        state = message["game"]
                        if state["status"] != "active":
                            logger.info("game %s over: %s", public_id, state["result"] or "-")
                            return
                        self.maybe_move(engine, state)
                    return  # the stream ended: the game is over
                except (OSError, ValueError) as exc:
                    logger.warning("game %s: stream broke (%s); again in 1 s", public_id, exc)
                    time.sleep(1)
                except ApiError as exc:
                    logger.warning("game %s: %s", public_id, exc)
                    if exc.status in (401, 403, 404):
                        return
                    time.sleep(1)
        except EngineError as exc:
            logger.error("game %s: engine failed: %s", public_id, exc)
        finally:
            engine.close()
            self.game_over(public_id)

    def maybe_move(self, engine: Engine, state: dict) -> None:
        if state["you"] is None or state["to_move"] != state["you"]:
            return
        engine.sync(state["width"], state["height"], state["moves"])
        edge = engine.go(self.go_options)
        try:
            self.api.call(
                f"/api/game/{state['id']}/move", {"edge": edge, "version": state["version"]}
            )
        except ApiError as exc:
            if exc.status == 409:
                return  # the game moved on (an offer, the clock): the stream has the news
            raise EngineError(f"the site refused {edge}: {exc}") from None

    def game_over(self, public_id: str) -> None:
        with self.lock:
            self.playing.pop(public_id, None)
            self.finished += 1
            if self.games_left and self.finished >= self.games_left:
                self.done.set()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m dotsboxes.bot",
        description="Play on a dotsboxes site with an engine that speaks the engine protocol.",
    )
    parser.add_argument(
        "--token",
        default=os.environ.get("DOTSBOXES_TOKEN", ""),
        help="the bot's API token (default: $DOTSBOXES_TOKEN)",
    )
    parser.add_argument(
        "--engine",
        required=True,
        help='the engine\'s command line, e.g. "python -m dotsboxes.engine"',
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument(
        "--go", default="", help='options for each go command, e.g. "level master movetime 2000"'
    )
    parser.add_argument(
        "--games", type=int, default=0, help="stop after this many games (default: never)"
    )
    parser.add_argument(
        "--decline", action="store_true", help="decline challenges instead of accepting them"
    )
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set DOTSBOXES_TOKEN")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(asctime)s %(threadName)s %(message)s",
    )
    bridge = Bridge(
        Api(args.url, args.token),
        args.engine,
        go=args.go,
        games=args.games,
        accept=not args.decline,
    )
    try:
        bridge.run()
    except ApiError as exc:
        logger.error("the site refused the bot: %s", exc)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0
