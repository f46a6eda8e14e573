"""Lean pushes: a room's edge is pushed as only what it changed (dotsboxes/rooms/push.py)."""

from __future__ import annotations

import random
import re
import statistics

from dotsboxes.rules import Board
from tests.rooms.conftest import act, join, open_room


def play_random(room, alice, bob, moves: int, seed: int = 1) -> list[str]:
    """Draw ``moves`` random legal edges; each move's htmx response, which is the push
    itself (the request answers with the fragments it just pushed)."""
    board = Board(room.game.width, room.game.height)
    rng = random.Random(seed)
    sent = []
    for _ in range(moves):
        mover = alice if board.turn.name == "BLUE" else bob
        edge = rng.choice(board.legal_moves)
        response = act(mover, room, "move", edge=str(edge))
        assert response.status_code == 200, response.content.decode()[:500]
        board.play(edge)
        sent.append(response.content.decode())
    return sent


def test_a_move_push_on_a_9x9_board_carries_only_the_change(transactional_db, alice, bob):
    # transactional: pushes are rendered after commit.
    room = open_room(alice, width=9, height=9)
    join(bob, room)
    sent = play_random(room, alice, bob, 120)
    sizes = [len(html.encode()) for html in sent]
    assert statistics.median(sizes) <= 1500, sizes
    assert max(sizes) <= 1800, sizes
    last = sent[-1]
    # One edge drawn, not the board: the other 119 edges are not in it.
    assert len(re.findall(r'class="edge drawn', last)) == 1
    assert 'id="rb-edges"' not in last and "room-chat" not in last
    room.game.refresh_from_db()
    assert f'data-version="{room.game.version}" data-kind="game"' in last
