"""Commands on games: the only code that changes a ``Game`` or its ``Move`` rows.

HackSoft-style: one keyword-only function per action, each in
``transaction.atomic`` with the game row locked (``select_for_update``).  Every
command that acts on a position takes the ``version`` the client saw and
refuses a stale one, applies moves through :mod:`dotsboxes.rules`, saves, bumps
``version`` and sends :data:`game_changed` once the transaction commits.

Who may act is decided by :class:`Actor` (a browser token and, when signed
in, a user id) against the game's seats.  Views, the rooms app and the
computer all call these functions; refusals raise a :class:`GameError`
subclass whose message is plain English, safe to show to the player, and the
stored game is unchanged.

Listening for changes (e.g. to push a board over a WebSocket)::

    from dotsboxes.games.services import game_changed

    @receiver(game_changed)
    def push(sender, *, game_id, public_id, version, event, **kwargs): ...
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import django.dispatch
from django.db import transaction
from django.utils import timezone

from dotsboxes.engine import players
from dotsboxes.rules import (
    Board,
    Edge,
    GameRecord,
    InvalidRecordError,
    Player,
    RulesError,
    parse_record,
)
from dotsboxes.rules.notation import _parse_turns

from .models import Game, Move, Side

#: Sent after commit by every command. Keyword arguments: ``game_id``,
#: ``public_id``, ``version`` (the new one), ``event`` (``"created"``,
#: ``"move"``, ``"undo"``, ``"resign"``, ``"hint"``), ``active`` (still in
#: progress), ``to_move`` (the :class:`Side` to move) and ``computer_side``.
game_changed = django.dispatch.Signal()

MAX_NAME = 40


class GameError(ValueError):
    """An action on a game was refused; ``str(error)`` is a message for the player."""


class GameNotFoundError(GameError):
    pass


class StaleVersionError(GameError):
    pass


class NotYourGameError(GameError):
    pass


class NotYourTurnError(GameError):
    pass


class GameOverError(GameError):
    pass


class IllegalEdgeError(GameError):
    pass


class NothingToUndoError(GameError):
    pass


class InvalidSetupError(GameError):
    pass


class BadRecordError(GameError):
    """A record that cannot be imported; ``turn`` and ``edge`` say where."""

    def __init__(self, message: str, *, turn: int | None = None, edge: str | None = None):
        super().__init__(message)
        self.turn = turn
        self.edge = edge


@dataclass(frozen=True)
class Actor:
    """Who is asking: a browser (its session token) and, if signed in, a user."""

    token: str = ""
    user_id: int | None = None

    def holds(self, game: Game, side: Side | Player) -> bool:
        """True if this actor sits in ``side``'s seat of ``game``."""
        blue = side in (Side.BLUE, Player.BLUE)
        token = game.blue_token if blue else game.red_token
        user_id = game.blue_user_id if blue else game.red_user_id
        if user_id is not None and self.user_id == user_id:
            return True
        return bool(token) and token == self.token

    def seats(self, game: Game) -> list[Side]:
        """The sides of ``game`` this actor may play (both on one device)."""
        return [side for side in (Side.BLUE, Side.RED) if self.holds(game, side)]


@dataclass(frozen=True)
class MoveResult:
    """What a move command did: the game after it, its board, and the boxes claimed."""

    game: Game
    board: Board
    edge: Edge
    claimed: tuple[int, ...]


# -- helpers ----------------------------------------------------------------------


def _locked(game: Game | int) -> Game:
    pk = game.pk if isinstance(game, Game) else game
    try:
        return Game.objects.select_for_update().get(pk=pk)
    except Game.DoesNotExist:
        raise GameNotFoundError("There is no such game.") from None


def _check_seated(game: Game, actor: Actor) -> list[Side]:
    seats = actor.seats(game)
    if not seats:
        raise NotYourGameError(
            "This game belongs to another browser: you can watch it, but not play in it."
        )
    return seats


def _check_active(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        raise GameOverError("The game is over: no more moves can be made in it.")


def _check_version(game: Game, version: int | str | None) -> None:
    try:
        seen = int(version)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seen = -1
    if seen != game.version:
        raise StaleVersionError(
            "The board had changed since that page was loaded, so nothing was drawn. "
            "It now shows the game as it stands."
        )


def _finish_if_over(game: Game, board: Board) -> None:
    outcome = board.outcome()
    if outcome is None:
        return
    game.status = Game.Status.FINISHED
    game.termination = Game.Termination.COMPLETED
    if outcome.winner is None:
        game.result = Game.Result.TIE
    else:
        game.result = Game.Result.BLUE if outcome.winner is Player.BLUE else Game.Result.RED
    game.finished_at = timezone.now()


def _save(game: Game, board: Board, event: str) -> None:
    """Store scores, bump the version, and announce the change after commit."""
    game.blue_score, game.red_score = board.scores
    game.version += 1
    game.save()
    kwargs = {
        "game_id": game.pk,
        "public_id": game.public_id,
        "version": game.version,
        "event": event,
        "active": game.status == Game.Status.ACTIVE,
        "to_move": Side.of(board.turn),
        "computer_side": game.computer_side,
    }
    transaction.on_commit(lambda: game_changed.send(sender=Game, **kwargs))


def _draw(game: Game, board: Board, edge: Edge, *, by_computer: bool) -> tuple[int, ...]:
    side = Side.of(board.turn)
    ply = len(board.move_stack) + 1
    claimed = board.play(edge)
    Move.objects.create(game=game, ply=ply, edge=str(edge), side=side, by_computer=by_computer)
    return claimed


def _clean_name(name: str | None, default: str) -> str:
    name = " ".join((name or "").split())[:MAX_NAME]
    return name or default


# -- commands ---------------------------------------------------------------------


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
                raise InvalidSetupError("That position has no edge left to draw.")
            start_key = board.key()
        else:
            board = Board(5 if width is None else width, 5 if height is None else height)
    except RulesError as exc:
        raise InvalidSetupError(f"That board cannot be set up: {exc}.") from None
    if start_key and (width, height) not in ((None, None), (board.width, board.height)):
        raise InvalidSetupError("The size does not match the starting position.")
    game = Game(mode=mode, width=board.width, height=board.height, start_key=start_key)
    game.hints_used = max(0, min(int(hints_used), 32767))
    if mode == Game.Mode.COMPUTER:
        if computer_side not in Side.values:
            raise InvalidSetupError("Choose Blue or Red for yourself.")
        if computer_level not in players.LEVELS:
            levels = ", ".join(players.LEVELS)
            raise InvalidSetupError(
                f"Unknown computer level {computer_level!r}; choose from {levels}."
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
    for edge in moves:
        try:
            _draw(game, board, board.parse_edge(str(edge)), by_computer=False)
        except RulesError as exc:
            raise InvalidSetupError(f"Move {len(board.move_stack) + 1}: {exc}.") from None
    _finish_if_over(game, board)
    _save(game, board, "created")
    return game


@transaction.atomic
def game_play_move(
    *, game: Game | int, edge: str | Edge, version: int | str, actor: Actor
) -> MoveResult:
    """Draw ``edge`` for the side to move, if ``actor`` holds that seat."""
    game = _locked(game)
    seats = _check_seated(game, actor)
    _check_active(game)
    _check_version(game, version)
    board = game.board()
    side = Side.of(board.turn)
    if game.is_computer(side):
        raise NotYourTurnError("It is the computer's turn: wait for its move.")
    if side not in seats:
        raise NotYourTurnError(f"It is {side.label}'s turn, not yours.")
    try:
        parsed = board.parse_edge(str(edge))
    except RulesError as exc:
        raise IllegalEdgeError(f"{exc}.") from None
    if board.is_drawn(parsed):
        raise IllegalEdgeError(f"{parsed} is already drawn: choose an edge that is not.")
    claimed = _draw(game, board, parsed, by_computer=False)
    _finish_if_over(game, board)
    _save(game, board, "move")
    return MoveResult(game, board, parsed, claimed)


@transaction.atomic
def game_apply_computer_move(
    *, game_id: int, version: int, edge: str | Edge, side: str | None = None
) -> MoveResult | None:
    """Draw the computer's ``edge`` if the game is still at ``version``.

    The computer thought about the position at ``version``; if anything
    changed since (a move, an undo, a resignation) its answer is dropped and
    ``None`` returned.  ``side`` is the seat it plays (default: the game's
    computer side); it is only applied when that side is to move.
    """
    try:
        game = _locked(game_id)
    except GameNotFoundError:
        return None
    if game.status != Game.Status.ACTIVE or game.version != version:
        return None
    board = game.board()
    side = side or game.computer_side
    if not side or Side.of(board.turn) != side:
        return None
    parsed = board.parse_edge(str(edge))
    if board.is_drawn(parsed):
        return None
    claimed = _draw(game, board, parsed, by_computer=True)
    _finish_if_over(game, board)
    _save(game, board, "move")
    return MoveResult(game, board, parsed, claimed)


def _undo_point(game: Game, sides: list[str]) -> int:
    """How many moves to keep: drop the last run of the computer's edges, then the
    player's last turn.  A turn is a run of edges by one side (play passes between)."""
    keep = len(sides)

    def drop_run() -> None:
        nonlocal keep
        mover = sides[keep - 1]
        while keep and sides[keep - 1] == mover:
            keep -= 1

    if keep and game.is_computer(Side(sides[keep - 1])):
        drop_run()
    if not keep or game.is_computer(Side(sides[keep - 1])):
        raise NothingToUndoError("There is no move of yours to take back.")
    drop_run()
    return keep


@transaction.atomic
def game_undo(*, game: Game | int, version: int | str, actor: Actor) -> Game:
    """Take back whole turns: the last turn on one device; against the computer the
    player's last turn and the computer's reply to it.  A game that ended by
    drawing every edge is reopened; a resigned one cannot be taken back."""
    game = _locked(game)
    _check_seated(game, actor)
    if game.mode == Game.Mode.ONLINE:
        raise GameError("Online games take moves back only when both players agree.")
    if game.termination not in ("", Game.Termination.COMPLETED):
        raise GameOverError("The game was resigned: it cannot be taken back.")
    _check_version(game, version)
    sides = list(game.moves.order_by("ply").values_list("side", flat=True))
    keep = _undo_point(game, sides)
    game.moves.filter(ply__gt=keep).delete()
    board = game.board()
    game.status, game.result, game.termination = Game.Status.ACTIVE, "", ""
    game.finished_at = None
    _save(game, board, "undo")
    return game


@transaction.atomic
def game_resign(
    *, game: Game | int, version: int | str, actor: Actor, side: str | None = None
) -> Game:
    """Resign ``side`` (default: the actor's only seat, or the side to move on one device)."""
    game = _locked(game)
    seats = _check_seated(game, actor)
    _check_active(game)
    _check_version(game, version)
    board = game.board()
    if side is None:
        side = seats[0] if len(seats) == 1 else Side.of(board.turn)
    if side not in seats:
        raise NotYourGameError("You can only resign for your own side.")
    game.status = Game.Status.FINISHED
    game.termination = Game.Termination.RESIGNED
    game.result = Game.Result.RED if side == Side.BLUE else Game.Result.BLUE
    game.finished_at = timezone.now()
    _save(game, board, "resign")
    return game


@transaction.atomic
def game_count_hint(*, game: Game | int, version: int | str, actor: Actor) -> Game:
    """Count a hint shown to the player (kept in the game and its record)."""
    game = _locked(game)
    seats = _check_seated(game, actor)
    _check_active(game)
    _check_version(game, version)
    board = game.board()
    side = Side.of(board.turn)
    if game.is_computer(side) or side not in seats:
        raise NotYourTurnError("A hint is for your own turn: wait for it.")
    game.hints_used += 1
    _save(game, board, "hint")
    return game


def game_rematch(*, game: Game, actor: Actor, swap: bool = True) -> Game:
    """A new game like ``game``; by default the other player draws first.

    Against the computer, swapping gives the player the other side; on one
    device the two names change colours.  ``swap=False`` keeps everything as it was.
    """
    _check_seated(game, actor)
    if game.mode == Game.Mode.ONLINE:
        raise GameError("Online rematches are offered in the room.")
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
    blue, red = (game.red_name, game.blue_name) if swap else (game.blue_name, game.red_name)
    return game_create(
        actor=actor, mode=game.mode, **size, blue_name=blue, red_name=red, rematch_of=game
    )


_TURN_PREFIX = re.compile(r"^turn \d+:\s*", re.I)
_POSITION_RE = re.compile(r"^\s*position\s*:\s*(\S+)\s*$", re.I | re.M)
_BODY_RE = re.compile(r"^\s*\d+\.", re.M)


def _read_record(text: str) -> tuple[GameRecord, str]:
    """Parse a record; one with a ``Position:`` header (a game from a set position,
    as the Record link writes it) is replayed from that position instead of the
    empty board.  Returns the record and the start key ('' for the empty board)."""
    found = _POSITION_RE.search(text)
    if not found:
        return parse_record(text), ""
    try:
        start = Board.from_key(found.group(1))
    except RulesError as exc:
        raise InvalidRecordError(f"the Position header is not a position key: {exc}") from None
    body = _BODY_RE.search(text)
    head, moves = (text[: body.start()], text[body.start() :]) if body else (text, "")
    record = parse_record(head)  # the headers alone: size and the rest
    if (record.width, record.height) != (start.width, start.height):
        raise InvalidRecordError("the Position header does not match the Size line")
    # The rules core's turn reader, run on the set position (it is not public yet).
    record.turns = _parse_turns(moves, start.copy()) if moves.strip() else []
    return record, start.key()


def game_import(
    *,
    text: str,
    actor: Actor,
    mode: str = Game.Mode.LOCAL,
    computer_side: str = Side.RED,
    computer_level: str = players.DEFAULT_LEVEL,
) -> Game:
    """Create a game from a record (the rules core's notation); nothing is saved if
    the record is bad, and the :class:`BadRecordError` names the turn and edge."""
    try:
        record, start_key = _read_record(text or "")
    except RulesError as exc:
        turn, edge = getattr(exc, "turn", None), getattr(exc, "edge", None)
        detail = _TURN_PREFIX.sub("", str(exc))
        # The rules name the whole position after "already drawn"; the turn says enough.
        detail = re.sub(r" is already drawn \(.*\)$", " is already drawn", detail)
        where = ""
        if turn is not None:
            where = f"Turn {turn}" + (f", edge {edge}" if edge else "") + ": "
            if detail.lower().startswith(f"turn {turn} ") and not edge:
                where, detail = "", detail[0].upper() + detail[1:]
        else:
            detail = detail[0].upper() + detail[1:]
        raise BadRecordError(f"{where}{detail}.", turn=turn, edge=edge) from None
    headers = {k.lower(): v for k, v in record.headers.items()}
    try:
        hints = int(headers.get("hints", "0"))
    except ValueError:
        hints = 0
    if mode not in (Game.Mode.LOCAL, Game.Mode.COMPUTER):
        raise InvalidSetupError("Imported games continue on one device or against the computer.")
    names: dict[str, str] = {}
    if mode == Game.Mode.LOCAL:
        names = {"blue_name": headers.get("blue", ""), "red_name": headers.get("red", "")}
    return game_create(
        actor=actor,
        mode=mode,
        width=None if start_key else record.width,
        height=None if start_key else record.height,
        start_key=start_key,
        computer_side=computer_side,
        computer_level=computer_level,
        moves=record.edges,
        hints_used=hints,
        **names,
    )
