"""Games and their moves.  The move list is the truth: the board is rebuilt by
replaying it (from ``start_key`` when a game starts from a set position)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from dotsboxes.rules import Board, Edge, Player

from .wording import level_name, player_name, size_text

SIZE_VALIDATORS = [MinValueValidator(1), MaxValueValidator(9)]
#: The stored name of a closed account's seats (``privacy.closing``), shown in the
#: reader's language: its games stay for the opponents, its name does not.
CLOSED_ACCOUNT = "Closed account"


def new_public_id() -> str:
    """An unguessable URL id: game ids in URLs must not be enumerable."""
    return secrets.token_urlsafe(9)


class Side(models.TextChoices):
    # Not translated: the services store these words (a seat's default name, room log
    # lines).  Pages say a side through presenters.player_name, in the reader's language.
    BLUE = "blue", "Blue"
    RED = "red", "Red"

    @classmethod
    def of(cls, player: Player) -> Side:
        return cls.BLUE if player is Player.BLUE else cls.RED

    @property
    def player(self) -> Player:
        return Player.BLUE if self == Side.BLUE else Player.RED


class Game(models.Model):
    class Mode(models.TextChoices):
        COMPUTER = "computer", _("Against the computer")
        LOCAL = "local", _("Two players on one device")
        ONLINE = "online", _("Online room")

    class Status(models.TextChoices):
        ACTIVE = "active", _("In progress")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class Result(models.TextChoices):
        NONE = "", _("No result yet")
        BLUE = "blue", _("Blue won")
        RED = "red", _("Red won")
        TIE = "tie", _("Tie on boxes")  # equal totals when every edge is drawn
        DRAW = "draw", _("Draw agreed")  # agreed by the players: not a tie on boxes

    class Termination(models.TextChoices):
        NONE = "", _("Not over")
        COMPLETED = "completed", _("Every edge drawn")
        RESIGNED = "resigned", _("Resignation")
        AGREED = "agreed", _("Draw by agreement")
        ABORTED = "aborted", _("Aborted")
        TIME = "time", _("Lost on time")  # the side to move let its deadline pass

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    width = models.PositiveSmallIntegerField(default=5, validators=SIZE_VALIDATORS)
    height = models.PositiveSmallIntegerField(default=5, validators=SIZE_VALIDATORS)
    # A set starting position (Board.key()), empty for a game from the empty board.
    start_key = models.CharField(max_length=120, blank=True, default="")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.COMPUTER)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    result = models.CharField(max_length=5, choices=Result.choices, blank=True, default="")
    termination = models.CharField(
        max_length=10, choices=Termination.choices, blank=True, default=""
    )
    # Bumped by every change; clients send it with each action, pushes carry it.
    version = models.PositiveIntegerField(default=0)

    blue_name = models.CharField(max_length=40, default="Blue")
    red_name = models.CharField(max_length=40, default="Red")
    blue_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    red_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # Anonymous seats belong to a browser: a random token kept in its session.
    blue_token = models.CharField(max_length=64, blank=True, default="", db_index=True)
    red_token = models.CharField(max_length=64, blank=True, default="", db_index=True)

    computer_side = models.CharField(max_length=4, choices=Side.choices, blank=True, default="")
    computer_level = models.CharField(max_length=20, blank=True, default="")
    hints_used = models.PositiveSmallIntegerField(default=0)
    # Box totals, kept in step with the moves by the services so lists need no replay.
    blue_score = models.PositiveSmallIntegerField(default=0)
    red_score = models.PositiveSmallIntegerField(default=0)
    # Rated games (online, both players signed in) update both players' ratings when finished.
    rated = models.BooleanField(default=False)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["mode", "status"])]

    def __str__(self) -> str:
        return f"{self.width}x{self.height} {self.get_mode_display()} {self.public_id}"

    def get_absolute_url(self) -> str:
        if self.mode == self.Mode.ONLINE:
            return reverse("rooms:room", args=[self.public_id])
        return reverse("games:game", args=[self.public_id])

    @property
    def size_text(self) -> str:
        return size_text(self.width, self.height)

    def start_board(self) -> Board:
        return Board.from_key(self.start_key) if self.start_key else Board(self.width, self.height)

    def board(self, *, ply: int | None = None) -> Board:
        """The position after the stored moves (the first ``ply`` of them).

        The whole game's board is rebuilt at most once per instance and version:
        later calls in the same request or job return the same board, and the
        commands in :mod:`dotsboxes.games.services` keep it in step as they draw
        or take back edges.  Treat it as read-only (``copy()`` it to explore).
        ``ply`` gives a fresh board of an earlier position.

        Outside a transaction (a page being rendered while the computer or the
        opponent commits) the game row and its moves are two reads, and a commit
        can land between them: the page would then show the new board with the
        old ``version``, and its next action would be refused as stale.  So the
        version is read again after the moves, and on a change this instance is
        refreshed and the board rebuilt.  Every change to the moves bumps the
        version in the same transaction, so equal versions mean a consistent pair.
        """
        if ply is not None:
            return self._replay(ply)[0]
        cached = self.__dict__.get("_replayed")
        if cached is not None and cached[0] == self.version:
            return cached[1]
        while True:
            board, computer = self._replay(None)
            if self.pk is None or transaction.get_connection().in_atomic_block:
                break
            current = Game.objects.filter(pk=self.pk).values_list("version", flat=True).first()
            if current is None or current == self.version:
                break
            self.refresh_from_db()
        self.keep_board(board, computer)
        return board

    def computer_flags(self) -> list[bool]:
        """For each move of :meth:`board`, whether the computer drew it (same cache)."""
        self.board()
        return self.__dict__["_replayed"][2]

    def keep_board(self, board: Board, computer: list[bool]) -> None:
        """Remember ``board`` (and who drew its moves) as this version's board."""
        self.__dict__["_replayed"] = (self.version, board, computer)

    def _replay(self, ply: int | None) -> tuple[Board, list[bool]]:
        board = self.start_board()
        moves = self.moves.order_by("ply").values_list("edge", "by_computer")
        if ply is not None:
            moves = moves[: max(ply, 0)]
        computer = []
        for text, by_computer in moves:
            board.push(Edge.parse(text))  # stored moves were checked when drawn
            computer.append(by_computer)
        return board, computer

    def name_of(self, side: Side | Player) -> str:
        blue = side in (Side.BLUE, Player.BLUE)
        return self.blue_name if blue else self.red_name

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE

    def label_of(self, side: Side | Player) -> str:
        """``side``'s stored name as the reader should see it.

        Unnamed seats are stored as "Blue"/"Red", the person facing the computer as
        "You", the computer as "Computer (casual)" and a closed account's seat as
        ``CLOSED_ACCOUNT``: those are shown in the reader's language; a name someone
        typed, as typed.
        """
        side = Side.of(side) if isinstance(side, Player) else Side(side)
        name = self.name_of(side)
        if name == side.value.capitalize():
            return player_name(side.player)
        if name == "You" and self.computer_side and not self.is_computer(side):
            return gettext("You")
        if name == CLOSED_ACCOUNT and getattr(self, f"{side.value}_user_id"):
            return gettext("Closed account")
        level = self.computer_level
        if self.is_computer(side) and name == f"Computer ({level})":
            return gettext("Computer (%(level)s)") % {"level": level_name(level)}
        return name

    def display_of(self, side: Side | Player) -> str:
        """A player's name with their colour, e.g. "Ada (Blue)"; just "Blue" if unnamed."""
        side = Side.of(side) if isinstance(side, Player) else Side(side)
        name, colour = self.label_of(side), player_name(side.player)
        if name == colour:
            return name
        if self.is_computer(side):  # "Computer (casual)" becomes "Computer (casual, Red)"
            level = level_name(self.computer_level)
            return gettext("Computer (%(level)s, %(side)s)") % {"level": level, "side": colour}
        return gettext("%(name)s (%(side)s)") % {"name": name, "side": colour}

    @property
    def blue_label(self) -> str:
        return self.label_of(Side.BLUE)

    @property
    def red_label(self) -> str:
        return self.label_of(Side.RED)

    @property
    def blue_display(self) -> str:
        return self.display_of(Side.BLUE)

    @property
    def red_display(self) -> str:
        return self.display_of(Side.RED)

    @property
    def computer_label(self) -> str:
        """ "Computer (casual)" in the reader's language."""
        return gettext("Computer (%(level)s)") % {"level": level_name(self.computer_level)}

    def is_computer(self, side: Side | Player) -> bool:
        """True if the computer plays ``side`` in this game."""
        if isinstance(side, Player):
            side = Side.of(side)
        return bool(self.computer_side) and side == self.computer_side


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    ply = models.PositiveIntegerField()  # 1-based count of edges drawn in this game
    edge = models.CharField(max_length=8)  # canonical dot-pair notation, e.g. "c3-d3"
    side = models.CharField(max_length=4, choices=Side.choices)
    # Drawn by the computer: its own move, a timed-out turn or a stand-in for an absent player.
    by_computer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["game", "ply"], name="unique_move_per_ply"),
            models.UniqueConstraint(fields=["game", "edge"], name="unique_edge_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.ply}. {self.edge} ({self.side})"
