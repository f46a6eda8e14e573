"""The play page's commands: one keyword-only function per action, each in
``transaction.atomic``, composed of the core's steps (:mod:`dotsboxes.games.steps`).

A command locks the game, checks who is asking (:mod:`dotsboxes.games.seats`),
the game's state and the version, changes it through the steps and commits.
Refusals raise a :class:`~dotsboxes.games.errors.GameError` subclass; the
stored game is then unchanged.  Importing a record is
:mod:`dotsboxes.games.record_import`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from dotsboxes.engine import players
from dotsboxes.rules import Board, Edge, InvalidSizeError, RulesError

from .errors import (
    GameError,
    GameNotFoundError,
    GameOverError,
    IllegalEdgeError,
    InvalidSetupError,
    NothingToUndoError,
    NotYourGameError,
    NotYourTurnError,
)
from .models import Game, Side
from .seats import Actor, check_seated, check_turn
from .steps import (
    check_active,
    check_version,
    commit,
    draw_edges,
    locked,
    lose_on_time,
    resign,
    take_back_to,
)
from .turns import turn_spans

MAX_NAME = 40


@dataclass(frozen=True)
class MoveResult:
    """What a move command did: the game after it, its board, and the boxes claimed."""

    game: Game
    board: Board
    edge: Edge
    claimed: tuple[int, ...]


def _clean_name(name: str | None, default: str) -> str:
    name = " ".join((name or "").split())[:MAX_NAME]
    return name or default


@transaction.atomic
def game_create(
    *,
    actor: Actor,
    mode: str = Game.Mode.COMPUTER,
    width: int | None = None,
    height: int | None = None,
    start_key: str = "",
    computer_side: str = Side.RED,
    computer_level: str = players.DEFAULT_LEVEL,
    blue_name: str = "",
    red_name: str = "",
    blue: Actor | None = None,
    red: Actor | None = None,
    moves: Iterable[Edge | str] = (),
    hints_used: int = 0,
    rematch_of: Game | None = None,
    rated: bool = False,
) -> Game:
    """Start a game and return it.

    ``mode`` is ``computer`` (the actor plays the side the computer does not),
    ``local`` (the actor holds both seats) or ``online`` (seats from ``blue``
    and ``red``, either may be empty).  The size comes from ``start_key`` when
    one is given, else from ``width`` x ``height`` (5 x 5 by default).
    ``moves`` replays a record on the start position (imports).
    """
    if mode not in Game.Mode.values:
        raise InvalidSetupError(f"Unknown mode {mode!r}.")
    try:
        if start_key:
            board = Board.from_key(start_key)
            if board.is_over():
                raise InvalidSetupError(_("That position has no edge left to draw."))
            start_key = board.key()
        else:
            board = Board(5 if width is None else width, 5 if height is None else height)
    except RulesError as exc:
        if isinstance(exc, InvalidSizeError):
            raise InvalidSetupError(
                _("That board cannot be set up: a board is 1 to 9 boxes wide and high.")
            ) from None
        raise InvalidSetupError(
            _("That board cannot be set up: it is not a position key.")
        ) from None
    if start_key and (width, height) not in ((None, None), (board.width, board.height)):
        raise InvalidSetupError(_("The size does not match the starting position."))
    game = Game(mode=mode, width=board.width, height=board.height, start_key=start_key, rated=rated)
    game.hints_used = max(0, min(int(hints_used), 32767))
    if mode == Game.Mode.COMPUTER:
        if computer_side not in Side.values:
            raise InvalidSetupError(_("Choose Blue or Red for yourself."))
        if computer_level not in players.LEVELS:
            levels = ", ".join(players.LEVELS)
            raise InvalidSetupError(
                _("Unknown computer level “%(level)s”; choose from %(levels)s.")
                % {"level": computer_level, "levels": levels}
            )
        game.computer_side, game.computer_level = computer_side, computer_level
        computer_name = f"Computer ({computer_level})"
        human = Side.BLUE if computer_side == Side.RED else Side.RED
        names = {human: _clean_name(blue_name if human == Side.BLUE else red_name, "You")}
        names[Side(computer_side)] = computer_name
        game.blue_name, game.red_name = names[Side.BLUE], names[Side.RED]
        seats = {human: actor, Side(computer_side): None}
    else:
        game.blue_name = _clean_name(blue_name, "Blue")
        game.red_name = _clean_name(red_name, "Red")
        if mode == Game.Mode.LOCAL:
            seats = {Side.BLUE: actor, Side.RED: actor}
        else:
            seats = {Side.BLUE: blue, Side.RED: red}
    for side, seat in seats.items():
        if seat is not None:
            setattr(game, f"{side}_token", seat.token)
            setattr(game, f"{side}_user_id", seat.user_id)
    game.rematch_of = rematch_of
    game.save()
    game.keep_board(board, [])
    for edge in moves:
        try:
            draw_edges(game, [edge], by_computer=False)
        except IllegalEdgeError as exc:
            raise InvalidSetupError(
                _("Move %(n)d: %(reason)s") % {"n": len(board.move_stack) + 1, "reason": exc}
            ) from None
    commit(game, "created")
    return game


def _seated_on_current(
    game: Game | int, version: int | str, actor: Actor
) -> tuple[Game, list[Side]]:
    """Lock the game; the actor must hold a seat, the game be on, the version current."""
    game = locked(game)
    seats = check_seated(game, actor)
    check_active(game)
    check_version(game, version)
    return game, seats


@transaction.atomic
def game_play_move(
    *, game: Game | int, edge: str | Edge, version: int | str, actor: Actor
) -> MoveResult:
    """Draw ``edge`` for the side to move, if ``actor`` holds that seat."""
    game, seats = _seated_on_current(game, version, actor)
    check_turn(game, Side.of(game.board().turn), seats)
    (drawn,) = draw_edges(game, [edge], by_computer=False)
    commit(game, "move", (drawn,))
    return MoveResult(game, game.board(), Edge.parse(drawn.edge), drawn.claimed)


@transaction.atomic
def game_apply_computer_move(
    *, game_id: int | Game, version: int, edge: str | Edge, side: str | None = None
) -> MoveResult | None:
    """Draw the computer's ``edge`` if the game is still at ``version``.

    The computer thought about the position at ``version``; if anything
    changed since (a move, an undo, a resignation) its answer is dropped and
    ``None`` returned.  ``side`` is the seat it plays (default: the game's
    computer side); it is only applied when that side is to move.  Passing the
    game instance the computer thought about reuses its board.
    """
    try:
        game = locked(game_id)
    except GameNotFoundError:
        return None
    if game.status != Game.Status.ACTIVE or game.version != version:
        return None
    side = side or game.computer_side
    if not side or Side.of(game.board().turn) != side:
        return None
    try:
        (drawn,) = draw_edges(game, [edge], by_computer=True)
    except IllegalEdgeError:
        return None
    commit(game, "move", (drawn,))
    return MoveResult(game, game.board(), Edge.parse(drawn.edge), drawn.claimed)


def _undo_point(game: Game, board: Board) -> int:
    """How many moves to keep: drop the computer's last turn, if it was the last,
    then the player's last turn.  A turn is a run of edges by one side."""
    spans = turn_spans(board)
    if spans and game.is_computer(spans[-1].player):
        spans.pop()
    if not spans or game.is_computer(spans[-1].player):
        raise NothingToUndoError(_("There is no move of yours to take back."))
    return spans[-1].start


@transaction.atomic
def game_undo(*, game: Game | int, version: int | str, actor: Actor) -> Game:
    """Take back whole turns: the last turn on one device; against the computer the
    player's last turn and the computer's reply to it.  A game that ended by
    drawing every edge is reopened; a resigned one cannot be taken back."""
    game = locked(game)
    check_seated(game, actor)
    if game.mode == Game.Mode.ONLINE:
        raise GameError(_("Online games take moves back only when both players agree."))
    if game.termination not in ("", Game.Termination.COMPLETED):
        raise GameOverError(_("The game was resigned: it cannot be taken back."))
    check_version(game, version)
    take_back_to(game, _undo_point(game, game.board()))
    commit(game, "undo")
    return game


@transaction.atomic
def game_resign(
    *, game: Game | int, version: int | str, actor: Actor, side: str | None = None
) -> Game:
    """Resign ``side`` (default: the actor's only seat, or the side to move on one device)."""
    game, seats = _seated_on_current(game, version, actor)
    if side is None:
        side = seats[0] if len(seats) == 1 else Side.of(game.board().turn)
    if side not in seats:
        raise NotYourGameError(_("You can only resign for your own side."))
    resign(game, Side(side))
    commit(game, "resign")
    return game


@transaction.atomic
def game_lose_on_time(*, game: Game | int, version: int | str) -> Game:
    """End ``game`` as lost on time by the side to move, if it is still at ``version``
    (the version the caller saw when it found the deadline passed)."""
    game = locked(game)
    check_active(game)
    check_version(game, version)
    lose_on_time(game)
    commit(game, "timeout")
    return game


@transaction.atomic
def game_count_hint(*, game: Game | int, version: int | str, actor: Actor) -> Game:
    """Count a hint shown to the player (kept in the game and its record)."""
    game, seats = _seated_on_current(game, version, actor)
    side = Side.of(game.board().turn)
    if game.is_computer(side) or side not in seats:
        raise NotYourTurnError(_("A hint is for your own turn: wait for it."))
    game.hints_used += 1
    commit(game, "hint")
    return game


def game_rematch(*, game: Game, actor: Actor, swap: bool = True) -> Game:
    """The play page's rematch: a new game like ``game``; by default the other
    player draws first.  Online rematches are offered and accepted in the room."""
    check_seated(game, actor)
    if game.mode == Game.Mode.ONLINE:
        raise GameError(_("Online rematches are offered in the room."))
    with transaction.atomic():
        # A game has one rematch: the same post sent twice (a double click, two
        # tabs) leads to the game the first one started.  The lock makes a second
        # post at the same moment wait here and then find it.
        locked(game)
        existing = game.rematches.order_by("pk").first()
        if existing is not None:
            return existing
        return start_rematch(game, actor=actor, swap=swap)


def _seat_of(game: Game, side: Side) -> Actor:
    return Actor(token=getattr(game, f"{side}_token"), user_id=getattr(game, f"{side}_user_id"))


def start_rematch(game: Game, *, actor: Actor | None = None, swap: bool = True) -> Game:
    """Create the rematch of ``game`` (the caller decided it may start).

    Swapping gives the other side the first edge: against the computer the
    player takes the other side; on one device the two names change colours;
    online the two seats (name, account, browser) change colours.  ``swap=False``
    keeps everything as it was."""
    actor = actor or Actor()
    size = {
        "start_key": game.start_key,
        "width": None if game.start_key else game.width,
        "height": None if game.start_key else game.height,
    }
    if game.mode == Game.Mode.COMPUTER:
        human = Side.BLUE if game.computer_side == Side.RED else Side.RED
        return game_create(
            actor=actor,
            mode=game.mode,
            **size,
            computer_side=human if swap else game.computer_side,
            computer_level=game.computer_level,
            blue_name=game.name_of(human),
            red_name=game.name_of(human),
            rematch_of=game,
        )
    # The sides of ``game`` whose players sit as Blue and as Red in the rematch.
    blue, red = (Side.RED, Side.BLUE) if swap else (Side.BLUE, Side.RED)
    seats = {}
    if game.mode == Game.Mode.ONLINE:
        seats = {"blue": _seat_of(game, blue), "red": _seat_of(game, red), "rated": game.rated}
    return game_create(
        actor=actor,
        mode=game.mode,
        **size,
        blue_name=game.name_of(blue),
        red_name=game.name_of(red),
        rematch_of=game,
        **seats,
    )
