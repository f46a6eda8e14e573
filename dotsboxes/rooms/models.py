"""Online rooms: a seat-and-presence layer on top of ``games.Game``.

One room per game (a rematch is a new game with a new room).  The game row
holds the moves, the result and the ``version``; the room holds what only an
online game needs: who may sit where, the turn deadline, pending offers,
presence, chat.  Both rows change together under the game row's lock.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from dotsboxes.games.models import Game, Side

CHAT_MAX_LENGTH = 200
CORRESPONDENCE_FROM = 86400  # a timer of a day or more per move is a correspondence game


class Room(models.Model):
    class Timer(models.IntegerChoices):
        NONE = 0, _("No timer")
        SECONDS_30 = 30, _("30 seconds a move")
        SECONDS_60 = 60, _("60 seconds a move")
        # Correspondence: days per move; running out loses the game on time.
        DAYS_1 = 86400, _("1 day a move")
        DAYS_2 = 2 * 86400, _("2 days a move")
        DAYS_3 = 3 * 86400, _("3 days a move")
        DAYS_5 = 5 * 86400, _("5 days a move")
        DAYS_7 = 7 * 86400, _("7 days a move")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="room")
    host_side = models.CharField(max_length=4, choices=Side.choices)
    is_public = models.BooleanField(default=True)
    timer_seconds = models.PositiveIntegerField(choices=Timer.choices, default=Timer.NONE)
    # When the side to move runs out of time (null: no timer, or not started).
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Denormalised from the move list so the ticker can find stand-in work in SQL.
    to_move = models.CharField(max_length=4, choices=Side.choices, default=Side.BLUE)
    swap_on_rematch = models.BooleanField(default=True)

    # Pending offers: the side that made them, "" when none.
    draw_offer = models.CharField(max_length=4, choices=Side.choices, blank=True, default="")
    takeback_offer = models.CharField(max_length=4, choices=Side.choices, blank=True, default="")
    rematch_offer = models.CharField(max_length=4, choices=Side.choices, blank=True, default="")
    # "draw:blue" -> number of edges drawn when Blue's draw offer was declined:
    # the same offer is refused until the position changes.
    declined = models.JSONField(default=dict, blank=True)

    # Presence: set when the last connection of a seated player closes.
    blue_away_deadline = models.DateTimeField(null=True, blank=True)
    red_away_deadline = models.DateTimeField(null=True, blank=True)
    # The computer plays for an absent player once their away deadline passed.
    blue_standin = models.BooleanField(default=False)
    red_standin = models.BooleanField(default=False)

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Room {self.game.public_id}"

    def get_absolute_url(self) -> str:
        return reverse("rooms:room", args=[self.game.public_id])

    @property
    def group(self) -> str:
        """The channel-layer group of everyone watching this room."""
        return f"room.{self.game.public_id}"

    @property
    def is_correspondence(self) -> bool:
        """Days per move: time out loses the game, and nobody is stood in for."""
        return self.timer_seconds >= CORRESPONDENCE_FROM

    def away_deadline(self, side: str) -> object:
        return self.blue_away_deadline if side == Side.BLUE else self.red_away_deadline

    def standin(self, side: str) -> bool:
        return self.blue_standin if side == Side.BLUE else self.red_standin

    def set_presence(self, side: str, *, away_deadline: object, standin: bool) -> None:
        setattr(self, f"{side}_away_deadline", away_deadline)
        setattr(self, f"{side}_standin", standin)


class Connection(models.Model):
    """One open WebSocket, as a row so every server process sees the same presence.

    ``server`` names the process that holds the socket; rows of a process that
    stopped beating (crashed, killed) are purged by any other process.
    """

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="connections")
    channel_name = models.CharField(max_length=200, unique=True)
    side = models.CharField(max_length=4, choices=Side.choices, blank=True, default="")
    # Who is behind it: "u:<id>" for a signed-in user, "s:<session key>" or
    # "c:<channel>" for an anonymous visitor, so one person counts once.
    viewer_key = models.CharField(max_length=120)
    name = models.CharField(max_length=40, blank=True, default="")
    server = models.CharField(max_length=40, db_index=True)
    # The language this socket's pushes are rendered in ("" on rows from before it was
    # kept: those get every language).  A push is rendered in the languages present.
    language = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.viewer_key} in {self.room_id} ({self.side or 'watching'})"


class ServerBeat(models.Model):
    """A live server process: its ticker refreshes ``last_seen`` every few seconds."""

    server = models.CharField(max_length=40, primary_key=True)
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return self.server


class Message(models.Model):
    """A chat line, or a system line of the room's log (timeouts, offers, results)."""

    class Kind(models.TextChoices):
        CHAT = "chat", "Chat"
        SYSTEM = "system", "System"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="messages")
    kind = models.CharField(max_length=6, choices=Kind.choices, default=Kind.CHAT)
    side = models.CharField(max_length=4, choices=Side.choices, blank=True, default="")
    author_key = models.CharField(max_length=120, blank=True, default="")
    name = models.CharField(max_length=40, blank=True, default="")
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    # A system line is stored as its English sentence with named placeholders and
    # these values, and put together in each reader's language when shown
    # (``rooms.presenters.line_text``): a room's readers do not share one language.
    params = models.JSONField(default=dict, blank=True)
    # For system lines about computer moves: the first ply they cover.
    ply = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["room", "author_key", "created_at"])]

    def __str__(self) -> str:
        return f"{self.name or self.kind}: {self.text}"


class VacationDay(models.Model):
    """One calendar day (the site's time zone) of a player's vacation.

    Spent by the room clock when a correspondence deadline of theirs passes on a
    day not yet spent; it covers every game of theirs whose deadline passes that
    day, as LittleGolem counts days of absence per player, not per game.  One row
    per day (the unique constraint) makes "spent once" a fact of the database."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_days"
    )
    day = models.DateField()

    class Meta:
        ordering = ["day"]
        constraints = [
            models.UniqueConstraint(fields=["user", "day"], name="one_vacation_day_per_day")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.day}"


class VacationChoice(models.Model):
    """Whether the clock may spend a player's vacation days (a row only once they
    change it: on by default)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacation_choice"
    )
    auto = models.BooleanField(
        _("Use my vacation days when my time to move in a correspondence game runs out"),
        default=True,
    )

    def __str__(self) -> str:
        return f"{self.user}: vacation {'on' if self.auto else 'off'}"
