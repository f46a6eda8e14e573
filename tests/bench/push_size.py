"""Bytes of a room's move pushes over whole games (a script, not a test).

    python tests/bench/push_size.py                      # 20 random 5 x 5 games, to the end
    python tests/bench/push_size.py --size 9 --games 5   # 9 x 9 boxes
    python tests/bench/push_size.py --tree /tmp/before   # another checkout, same script

Plays ``--games`` seeded random games to their last edge through the whole Django
stack in-process (as ``room_move.py`` does), with a spectator reading English and one
reading Chinese, so every push is rendered in both languages.  It records each push
as it is handed to the channel layer (the text a socket receives) and prints, per
language, the median, 95th percentile and maximum bytes of the pushes of an edge in a
game that goes on (the lean push, ``rooms/push.py: render_move``), then the game's
last edge (the full fragments), then which parts of the push take the bytes: the
average and the largest size of each out-of-band piece over the move pushes, and the
pieces of the largest push.  ``tests/bench/rooms.py`` measures the same pushes on the
wire, but only over the first ``--moves`` edges of each game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.room_move import percentile, setup

LANGUAGES = ("en", "zh-hans")


class _Parts(HTMLParser):
    """Splits a push into its top-level pieces, named by id or out-of-band target."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.starts = [0]
        for line in html.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
        self.depth = 0
        self.open: tuple[str, int] | None = None
        self.parts: list[tuple[str, int]] = []
        self.feed(html)
        self.close()

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.depth == 0:
            a = dict(attrs)
            target = (a.get("hx-swap-oob") or "").partition(":")[2]
            name = target or a.get("id") or tag
            if name.startswith("rt-"):
                name = "targets deleted"
            elif name.startswith("room-turn-"):
                name = "log turn appended" if target else "log turn replaced"
            elif name.startswith(("room-score-", "room-clock-")):
                name = name.rpartition("-")[0]
            self.open = (name, self._offset())
        if tag not in ("br", "input", "img", "meta", "link"):
            self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        self.depth -= 1
        if self.depth == 0 and self.open is not None:
            name, start = self.open
            end = self.html.index(">", self._offset()) + 1
            self.parts.append((name, len(self.html[start:end].encode())))
            self.open = None


def parts_of(html: str) -> dict[str, int]:
    """Bytes of each named piece of a push (pieces of the same name added up)."""
    sizes: dict[str, int] = defaultdict(int)
    for name, size in _Parts(html).parts:
        sizes[name] += size
    return dict(sizes)


def play(
    games: int, size: int, seed: int, timer: int = 0, names: tuple[str, str] = ("Alice", "Bob")
) -> tuple[dict, dict]:
    """Every push of ``games`` random games: (move pushes, last-edge pushes), each a
    dict of language -> list of texts."""
    from django.test import Client
    from django.urls import reverse

    from dotsboxes.rooms import push
    from dotsboxes.rooms.models import Connection, Room

    sent: list[tuple[str, str]] = []
    original = push._send

    def record(group: str, html: str) -> None:
        sent.append((group, html))
        original(group, html)

    push._send = record
    has_language = any(f.name == "language" for f in Connection._meta.get_fields())
    rng = random.Random(seed)
    moves: dict[str, list[str]] = defaultdict(list)
    lasts: dict[str, list[str]] = defaultdict(list)
    for g in range(games):
        host, guest = Client(), Client()
        form = {"width": size, "height": size, "side": "blue", "timer": timer}
        response = host.post(
            reverse("rooms:create"), {**form, "visibility": "public", "name": names[0]}
        )
        public_id = response["Location"].rstrip("/").rsplit("/", 1)[-1]
        room = Room.objects.select_related("game").get(game__public_id=public_id)
        guest.post(reverse("rooms:join", args=[public_id]), {"name": names[1]})
        for i, language in enumerate(LANGUAGES):
            row = {"side": "", "viewer_key": f"s:{g}-{i}", "name": "", "server": "bench"}
            if has_language:
                row["language"] = language
            Connection.objects.create(room=room, channel_name=f"bench.{g}.{i}", **row)
        url = reverse("rooms:move", args=[public_id])
        while True:
            room.game.refresh_from_db()
            board = room.game.board()
            if board.is_over():
                break
            edge = str(rng.choice(board.legal_moves))
            client = host if board.turn == 0 else guest
            sent.clear()
            response = client.post(
                url, {"edge": edge, "version": room.game.version}, headers={"HX-Request": "true"}
            )
            assert response.status_code == 200, (response.status_code, response.content[:200])
            board.play(edge)
            into = lasts if board.is_over() else moves
            for group, html in sent:
                name, _, language = group.rpartition(".")
                if name == room.group and language in LANGUAGES:  # not the lobby's
                    into[language].append(html)
    push._send = original
    return moves, lasts


def line(label: str, sizes: list[int]) -> str:
    return (
        f"  {label:<24} median {statistics.median(sizes):>6.0f} B   p95 "
        f"{percentile(sizes, 0.95):>6.0f} B   max {max(sizes):>6} B   "
        f"over 1,500 B: {sum(s > 1500 for s in sizes)} of {len(sizes)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=5, help="boxes a side")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timer", type=int, default=0, help="seconds a move (0: none)")
    parser.add_argument("--names", nargs=2, default=("Alice", "Bob"), help="the players' names")
    parser.add_argument("--show", action="store_true", help="print the largest push")
    args = parser.parse_args()
    setup(args.tree.resolve())
    moves, lasts = play(args.games, args.size, args.seed, args.timer, tuple(args.names))
    print(
        f"{args.tree}: {args.games} random games of {args.size} x {args.size} boxes, to the end,"
        f" timer {args.timer or 'none'}, players {' and '.join(args.names)}"
    )
    for language in LANGUAGES:
        print(f"{language}:")
        print(line("move pushes", [len(h.encode()) for h in moves[language]]))
        print(line("last edge (full parts)", [len(h.encode()) for h in lasts[language]]))
    for language in LANGUAGES:
        split = [parts_of(h) for h in moves[language]]
        total = defaultdict(int)
        for s in split:
            for n, b in s.items():
                total[n] += b
        names = sorted(total, key=lambda n: -total[n])
        print(f"where the bytes of a move push go ({language}): piece, mean per push, largest")
        for name in names:
            mean = sum(s.get(name, 0) for s in split) / len(split)
            print(f"  {name:<24} {mean:>6.0f} B {max(s.get(name, 0) for s in split):>6} B")
        largest = max(moves[language], key=lambda h: len(h.encode()))
        if args.show:
            print(largest)
        pieces = ", ".join(f"{n} {b}" for n, b in parts_of(largest).items())
        print(f"  largest push, {len(largest.encode())} B: {pieces}")


if __name__ == "__main__":
    main()
