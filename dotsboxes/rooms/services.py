"""Room commands: every change to an online game goes through here.

Each command runs in ``transaction.atomic`` with the game and room rows locked
(``select_for_update``; SQLite serialises writers with IMMEDIATE transactions
instead), checks who is asking and, for anything that acts on the position, the
``version`` the client saw.  Pushes are scheduled with ``transaction.on_commit``:
the database is the truth, a push only tells clients that it changed.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from dotsboxes.games import services as games
from dotsboxes.games.models import Game, Move, Side
from dotsboxes.rules import Board, Edge, IllegalMoveError, RulesError

from . import push
from .errors import Conflict, Forbidden, NotFound, RoomError, StaleVersion, TooFast
from .identity import Viewer, seat_of
from .models import CHAT_MAX_LENGTH, Message, Room
from .turns import both_have_played, takeback_start

OFFER_KINDS = ("draw", "takeback", "rematch")
OFFER_NAMES = {"draw": "a draw", "takeback": "a take-back", "rematch": "a rematch"}
CHAT_PRESETS = ("Hello!", "Good luck", "Have fun", "Nice move", "Thanks", "Good game", "Oops")


def other(side: str) -> str:
    return Side.RED.value if side == Side.BLUE else Side.BLUE.value


def _setting(name: str, default: float) -> float:
    return float(getattr(settings, name, default))


def away_grace() -> timedelta:
    """How long a seat may stay empty before the computer plays for it."""
    return timedelta(seconds=_setting("ROOMS_AWAY_SECONDS", 60))


def _locked(public_id: str, *, skip_locked: bool = False) -> tuple[Room, Game] | None:
    """The room and its game, both rows locked (one statement, so one lock order)."""
    rooms = Room.objects.select_for_update(skip_locked=skip_locked).select_related("game")
    room = rooms.filter(game__public_id=public_id).first()
    if room is None:
        if skip_locked:
            return None
        raise NotFound("There is no room at this address.")
    return room, room.game


def _lock(public_id: str) -> tuple[Room, Game]:
    found = _locked(public_id)
    assert found is not None
    return found


def _seated(game: Game, viewer: Viewer, action: str) -> str:
    side = seat_of(game, viewer)
    if not side:
        raise Forbidden(f"Only the two players can {action}; you are watching this game.")
    return side


def _both_seated(game: Game) -> bool:
    return all(
        getattr(game, f"{side}_user_id") or getattr(game, f"{side}_token") for side in Side.values
    )


def _check_version(game: Game, version: int | None) -> None:
    if version is None or version != game.version:
        raise StaleVersion(
            "The game changed since your page last heard of it: it has been refreshed."
        )


def _active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise Conflict("This game is over.")


def log_line(room: Room, text: str, *, ply: int | None = None) -> None:
    Message.objects.create(
        room=room, kind=Message.Kind.SYSTEM, text=text[:CHAT_MAX_LENGTH], ply=ply
    )


def _restart_clock(room: Room, game: Game) -> None:
    if room.timer_seconds and game.status == Game.Status.ACTIVE and _both_seated(game):
        room.turn_deadline = timezone.now() + timedelta(seconds=room.timer_seconds)
    else:
        room.turn_deadline = None


def _changed(
    room: Room,
    game: Game,
    *,
    lobby: bool = False,
    event: str = "room",
    bump: bool = True,
    push_move: tuple[Board, list[bool]] | None = None,
) -> None:
    """Bump the version, save both rows, push after commit (and tell ``game_changed``).

    ``push_move`` (the board and the computer flags of its moves) says the change
    was an edge and nothing else: the push then carries only what an edge changes,
    rendered from these rows."""
    if bump:
        game.version += 1
        game.save()
        kwargs = {
            "game_id": game.pk,
            "public_id": game.public_id,
            "version": game.version,
            "event": event,
            "active": game.status == Game.Status.ACTIVE,
            "to_move": Side(room.to_move),
            "computer_side": game.computer_side,
        }
        transaction.on_commit(lambda: games.game_changed.send(sender=Game, **kwargs))
    room.save()
    if push_move is not None:
        push.move_after_commit(room, game, *push_move)
    else:
        push.room_after_commit(room.pk)
    if lobby:
        push.lobby_after_commit()


def _finish(room: Room, game: Game, result: str, termination: str) -> None:
    game.status = Game.Status.ABORTED if termination == "aborted" else Game.Status.FINISHED
    game.result = result
    game.termination = termination
    game.finished_at = timezone.now()
    room.turn_deadline = None
    room.draw_offer = room.takeback_offer = ""


# -- creating and joining ------------------------------------------------------------


def room_create(
    *,
    viewer: Viewer,
    width: int = 5,
    height: int = 5,
    host_side: str = "random",
    timer_seconds: int = 0,
    is_public: bool = True,
    rated: bool = False,
) -> Room:
    """Open a room with the host seated; the other seat waits for the first visitor."""
    if host_side == "random":
        host_side = random.choice(Side.values)
    if host_side not in Side.values:
        raise RoomError("Choose Blue, Red or random for your side.")
    if timer_seconds not in Room.Timer.values:
        raise RoomError("Choose no timer, 30 seconds or 60 seconds.")
    if rated and not viewer.signed_in:
        raise Forbidden("Sign in to play rated games.")
    if not viewer.signed_in and not viewer.token:
        raise RoomError("Choose a display name first.")
    with transaction.atomic():
        game = Game(mode=Game.Mode.ONLINE, width=width, height=height, rated=rated)
        game.full_clean(exclude=["public_id"])
        _seat(game, host_side, viewer)
        game.save()
        room = Room.objects.create(
            game=game, host_side=host_side, is_public=is_public, timer_seconds=timer_seconds
        )
        log_line(room, f"{viewer.name} opened the room and sits as {Side(host_side).label}.")
        push.lobby_after_commit()
    return room


def _seat(game: Game, side: str, viewer: Viewer) -> None:
    setattr(game, f"{side}_name", viewer.name or Side(side).label)
    if viewer.signed_in:
        setattr(game, f"{side}_user_id", viewer.user_id)
        setattr(game, f"{side}_token", "")
    else:
        setattr(game, f"{side}_token", viewer.token)


def room_join(*, public_id: str, viewer: Viewer) -> tuple[Room, str]:
    """Take the free seat; return the room and the viewer's side ("" if they only watch)."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = seat_of(game, viewer)
        if side:
            return room, side
        if game.status != Game.Status.ACTIVE:
            raise Conflict("This game is over: you can watch it, but not sit down.")
        free = [
            s
            for s in Side.values
            if not (getattr(game, f"{s}_user_id") or getattr(game, f"{s}_token"))
        ]
        if not free:
            raise Conflict("Both seats are taken: you are watching this game.")
        if game.rated and not viewer.signed_in:
            raise Forbidden("This game is rated: sign in to take the seat.")
        if not viewer.signed_in and not viewer.token:
            raise RoomError("Choose a display name first.")
        side = free[0]
        _seat(game, side, viewer)
        log_line(
            room,
            f"{viewer.name or Side(side).label} sits down as {Side(side).label}. The game is on!",
        )
        _restart_clock(room, game)
        _changed(room, game, lobby=True)
    return room, side


# -- moves --------------------------------------------------------------------------


def record_edges(
    room: Room, game: Game, board: Board, edges: list[str], *, by_computer: bool
) -> list[str]:
    """Draw ``edges`` for the side to move (rows locked by the caller); return them canonical.

    Raises :class:`RoomError` and changes nothing if any edge is not legal.
    """
    start = len(board.move_stack)
    rows, canonical = [], []
    for ply, text in enumerate(edges, start=start + 1):
        mover = Side.of(board.turn).value
        try:
            board.play(text)
        except IllegalMoveError:
            raise RoomError("That edge is already drawn.") from None
        except (RulesError, ValueError):
            raise RoomError(f"{str(text)[:12]!r} is not an edge of this board.") from None
        edge = str(board.move_stack[-1])
        canonical.append(edge)
        rows.append(Move(game=game, ply=ply, edge=edge, side=mover, by_computer=by_computer))
    Move.objects.bulk_create(rows)
    game.blue_score, game.red_score = board.scores
    _after_move(room, game, board)
    return canonical


def _after_move(room: Room, game: Game, board: Board) -> None:
    """Room bookkeeping once edges are drawn: whose turn, the clock, stale offers."""
    room.to_move = Side.of(board.turn).value
    room.draw_offer = room.takeback_offer = ""
    if board.is_over() and game.status == Game.Status.ACTIVE:
        outcome = board.outcome()
        result = Game.Result.TIE if outcome.winner is None else Side.of(outcome.winner).value
        _finish(room, game, result, Game.Termination.COMPLETED)
    _restart_clock(room, game)  # no deadline once the game is over


def load_board(game: Game) -> tuple[Board, list[bool]]:
    """The game's board rebuilt from its moves, and which of them the computer drew
    (one query; the caller holds the rows locked or accepts a snapshot)."""
    board = game.start_board()
    computer = []
    for edge, by_computer in game.moves.order_by("ply").values_list("edge", "by_computer"):
        board.push(Edge.parse(edge))
        computer.append(by_computer)
    return board, computer


def room_play_move(*, public_id: str, viewer: Viewer, edge: str, version: int | None) -> Room:
    """A seated player draws one edge on their turn.

    The hot path of a live room: one locked read of room and game, one read of
    the moves, then the same ``record_edges`` the room clock uses; the push is
    rendered from these rows after commit instead of reading them again."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, "draw edges")
        _active(game)
        if not _both_seated(game):
            raise Conflict("Wait for an opponent to take the free seat.")
        _check_version(game, version)
        board, computer = load_board(game)
        to_move = Side.of(board.turn)
        if to_move != side:
            raise Conflict(f"It is {to_move.label}'s turn, not yours.")
        record_edges(room, game, board, [str(edge)[:16]], by_computer=False)
        computer.append(False)
        _changed(
            room,
            game,
            lobby=game.status != Game.Status.ACTIVE,
            push_move=(board, computer),
        )
    return room


# -- ending a game ----------------------------------------------------------------------


def room_resign(*, public_id: str, viewer: Viewer, version: int | None) -> Room:
    """The player gives up: the opponent wins."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, "resign")
        _active(game)
        if not _both_seated(game):
            raise Conflict("Nobody has taken the other seat yet: abort the game instead.")
        _check_version(game, version)
        _finish(room, game, other(side), Game.Termination.RESIGNED)
        log_line(room, f"{game.name_of(Side(side))} resigned. {Side(other(side)).label} wins.")
        _changed(room, game, lobby=True)
    return room


def room_abort(*, public_id: str, viewer: Viewer, version: int | None) -> Room:
    """Call the game off while at least one player has not finished a turn."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, "abort the game")
        _active(game)
        _check_version(game, version)
        if both_have_played(game.board()):
            raise Conflict("Both players have moved: you can resign or offer a draw instead.")
        _finish(room, game, Game.Result.NONE, Game.Termination.ABORTED)
        log_line(room, f"{game.name_of(Side(side))} aborted the game.")
        _changed(room, game, lobby=True)
    return room


# -- offers: draw, take-back, rematch ------------------------------------------------------


def room_offer(*, public_id: str, viewer: Viewer, kind: str, version: int | None) -> Room:
    """Offer a draw, ask for a take-back or propose a rematch; the opponent answers."""
    if kind not in OFFER_KINDS:
        raise RoomError("Unknown offer.")
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, f"offer {OFFER_NAMES[kind]}")
        _check_version(game, version)
        if not _both_seated(game):
            raise Conflict("Nobody has taken the other seat yet.")
        pending = getattr(room, f"{kind}_offer")
        if pending == side:
            raise Conflict(f"You already offered {OFFER_NAMES[kind]}: wait for the answer.")
        if pending:
            raise Conflict(f"Your opponent already offers {OFFER_NAMES[kind]}: answer it instead.")
        board = game.board()
        if kind == "rematch":
            if game.status == Game.Status.ACTIVE:
                raise Conflict("Finish this game before proposing a rematch.")
            if game.rematches.exists():
                raise Conflict("The rematch has already started.")
        else:
            _active(game)
            if room.declined.get(f"{kind}:{side}") == len(board.move_stack):
                raise Conflict(
                    f"Your opponent declined {OFFER_NAMES[kind]}: "
                    "you can ask again after the next move."
                )
            if kind == "takeback" and takeback_start(board, Side(side).player) is None:
                raise Conflict("You have not drawn anything to take back yet.")
        setattr(room, f"{kind}_offer", side)
        log_line(room, f"{game.name_of(Side(side))} offers {OFFER_NAMES[kind]}.")
        _changed(room, game)
    return room


def room_answer(
    *, public_id: str, viewer: Viewer, kind: str, accept: bool, version: int | None
) -> Room:
    """Accept or decline the opponent's pending offer; return the room to show next."""
    if kind not in OFFER_KINDS:
        raise RoomError("Unknown offer.")
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, "answer offers")
        _check_version(game, version)
        offerer = getattr(room, f"{kind}_offer")
        if not offerer:
            raise Conflict(f"There is no offer of {OFFER_NAMES[kind]} to answer.")
        if offerer == side:
            raise Conflict("You cannot answer your own offer.")
        setattr(room, f"{kind}_offer", "")
        name = game.name_of(Side(side))
        board = game.board()
        if not accept:
            if kind != "rematch":
                room.declined = {**room.declined, f"{kind}:{offerer}": len(board.move_stack)}
            log_line(room, f"{name} declined {OFFER_NAMES[kind]}.")
            _changed(room, game)
            return room
        if kind == "draw":
            _active(game)
            _finish(room, game, Game.Result.DRAW, Game.Termination.AGREED)
            log_line(room, f"{name} accepted the draw: the game is drawn by agreement.")
            _changed(room, game, lobby=True)
            return room
        if kind == "takeback":
            _active(game)
            _take_back(room, game, board, offerer)
            _changed(room, game)
            return room
        new_room = _rematch(room, game)
        log_line(room, f"{name} accepted the rematch.")
        _changed(room, game, lobby=True)
        return new_room


def _take_back(room: Room, game: Game, board: Board, requester: str) -> None:
    start = takeback_start(board, Side(requester).player)
    if start is None:
        raise Conflict("There is nothing to take back.")
    removed = len(board.move_stack) - start
    game.moves.filter(ply__gt=start).delete()
    while len(board.move_stack) > start:
        board.pop()
    game.blue_score, game.red_score = board.scores
    room.to_move = Side.of(board.turn).value
    _restart_clock(room, game)
    word = "edge" if removed == 1 else "edges"
    log_line(
        room, f"Take-back accepted: {removed} {word} undone, {Side(room.to_move).label} to move."
    )


def _rematch(room: Room, game: Game) -> Room:
    swap = room.swap_on_rematch
    new = Game(
        mode=Game.Mode.ONLINE,
        width=game.width,
        height=game.height,
        rated=game.rated,
        rematch_of=game,
    )
    for side in Side.values:
        source = other(side) if swap else side
        for field in ("name", "user_id", "token"):
            setattr(new, f"{side}_{field}", getattr(game, f"{source}_{field}"))
    new.save()
    host_side = other(room.host_side) if swap else room.host_side
    new_room = Room.objects.create(
        game=new,
        host_side=host_side,
        is_public=room.is_public,
        timer_seconds=room.timer_seconds,
        swap_on_rematch=room.swap_on_rematch,
    )
    _restart_clock(new_room, new)
    new_room.save()
    order = "sides swapped" if swap else "same sides"
    log_line(new_room, f"Rematch ({order}): {new.blue_name} plays Blue and moves first.")
    push.redirect_after_commit(room.pk, new_room.get_absolute_url())
    return new_room


def room_set_swap(*, public_id: str, viewer: Viewer, swap: bool) -> Room:
    """The host decides whether a rematch swaps who moves first."""
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, "change the rematch setting")
        if side != room.host_side:
            raise Forbidden("Only the host decides who moves first in a rematch.")
        if room.swap_on_rematch != swap:
            room.swap_on_rematch = swap
            _changed(room, game)
    return room


# -- chat ---------------------------------------------------------------------------


def chat_limits() -> tuple[int, float]:
    """(messages, seconds): at most that many chat lines per player per window."""
    return int(_setting("ROOMS_CHAT_BURST", 5)), _setting("ROOMS_CHAT_WINDOW_SECONDS", 10)


def room_chat(*, public_id: str, viewer: Viewer, text: str) -> Message:
    """A player says something; the text is stored as typed and escaped when shown."""
    text = " ".join(str(text).split())
    if not text:
        raise RoomError("Type a message or pick a phrase.")
    if len(text) > CHAT_MAX_LENGTH:
        raise RoomError(f"Keep chat messages under {CHAT_MAX_LENGTH} characters.")
    with transaction.atomic():
        room, game = _lock(public_id)
        side = _seated(game, viewer, "chat")
        burst, window = chat_limits()
        since = timezone.now() - timedelta(seconds=window)
        recent = room.messages.filter(author_key=viewer.key, created_at__gte=since).count()
        if recent >= burst:
            raise TooFast("You are sending messages too fast: wait a few seconds.")
        message = Message.objects.create(
            room=room,
            kind=Message.Kind.CHAT,
            side=side,
            author_key=viewer.key,
            name=game.name_of(Side(side)),
            text=text,
        )
        push.room_after_commit(room.pk, kind="chat")
    return message
