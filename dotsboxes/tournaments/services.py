"""Tournament commands: one function per action, each atomic with the tournament row
locked (``select_for_update``), so pairing and results are serialised per tournament.

- :func:`tournament_create`, :func:`tournament_join`, :func:`tournament_leave`,
  :func:`tournament_start`, :func:`tournament_feature` for people;
- :func:`tournament_record_result` when a game of a pairing ends (a receiver of the
  core's change event calls it after commit); it pairs what is due next: the free
  players of an arena, the next Swiss round once every game of the round is over,
  or finishes the Swiss after its last round;
- :func:`tournament_tick`, the periodic pass (a receiver of the room clock's
  ``ticked`` signal, in every server process): starts due tournaments, stops an
  arena's pairing at its end, and catches up any result an event missed (a
  restart between a game's commit and its listener).  Tournaments another process
  holds are skipped (``skip_locked``); under the lock everything is checked again
  (``recorded``, the round's pairings), so each step happens exactly once.

Games are ordinary rooms opened through :mod:`dotsboxes.rooms.services`; their
results reach the ratings through the usual rated-game path.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils.translation import gettext as _

from dotsboxes import clock
from dotsboxes.accounts.models import Rating
from dotsboxes.games.errors import ConflictError, GameError, GameNotFoundError, NotYourGameError
from dotsboxes.games.events import GameChanged, game_changed
from dotsboxes.games.models import Game
from dotsboxes.moderation.models import FairPlayMark
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.identity import NAME_MAX, Viewer
from dotsboxes.rooms.models import Room
from dotsboxes.rooms.ticker import ticked

from . import pairing, push
from .eligibility import may_join
from .models import NAME_MAX as TOURNAMENT_NAME_MAX
from .models import TIMERS, Entry, Pairing, Tournament
from .standings import standings, swiss_players

logger = logging.getLogger(__name__)

TournamentError = GameError  # 400, and its kinds below carry their HTTP status
SIZES = range(2, 10)
MAX_ROUNDS = 15
MAX_MINUTES = 7 * 24 * 60
MAX_AHEAD = timedelta(days=60)


def _lock(tournament_id: int, *, skip_locked: bool = False) -> Tournament | None:
    found = Tournament.objects.select_for_update(skip_locked=skip_locked).filter(pk=tournament_id)
    tournament = found.first()
    if tournament is None and not skip_locked:
        raise GameNotFoundError(_("There is no tournament at this address."))
    return tournament


def _changed(tournament: Tournament) -> None:
    """Bump the version and push the page to its watchers after commit."""
    tournament.version += 1
    tournament.save()
    push.after_commit(tournament.pk)


# -- people's commands ---------------------------------------------------------------------


def tournament_create(
    *,
    user: object,
    name: str,
    kind: str,
    starts_at: datetime,
    timer_seconds: int = Room.Timer.SECONDS_60,
    width: int = 5,
    height: int = 5,
    rated: bool = True,
    duration_minutes: int | None = None,
    rounds: int | None = None,
    allow_bots: bool = False,
) -> Tournament:
    """Announce a tournament; its organiser is not entered (they join like anyone)."""
    if not getattr(user, "is_authenticated", False):
        raise NotYourGameError(_("Sign in to create a tournament."))
    name = " ".join(str(name).split())[:TOURNAMENT_NAME_MAX]
    if not name:
        raise TournamentError(_("Give the tournament a name."))
    if kind not in Tournament.Kind.values:
        raise TournamentError(_("Choose arena or Swiss."))
    if width not in SIZES or height not in SIZES:
        raise TournamentError(_("Boards are 2 to 9 boxes wide and high."))
    if timer_seconds not in dict(TIMERS):
        raise TournamentError(_("Choose a time control: tournament games need a clock."))
    now = clock.now()
    if starts_at < now - timedelta(minutes=1) or starts_at > now + MAX_AHEAD:
        raise TournamentError(_("Choose a start time from now to 60 days ahead."))
    if kind == Tournament.Kind.ARENA:
        if not duration_minutes or not 5 <= duration_minutes <= MAX_MINUTES:
            raise TournamentError(_("An arena lasts from 5 minutes to 7 days."))
        rounds = None
    else:
        if not rounds or not 1 <= rounds <= MAX_ROUNDS:
            raise TournamentError(_("A Swiss has 1 to 15 rounds."))
        duration_minutes = None
    with transaction.atomic():
        return Tournament.objects.create(
            name=name,
            kind=kind,
            created_by=user,
            width=width,
            height=height,
            timer_seconds=timer_seconds,
            rated=rated,
            starts_at=max(starts_at, now),
            duration_minutes=duration_minutes,
            rounds=rounds,
            allow_bots=allow_bots,
        )


def tournament_join(*, tournament_id: int, user: object) -> Entry:
    """Enter (or, in an arena, come back after a pause); a running arena pairs at once."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = tournament.entries.filter(user_id=getattr(user, "pk", None)).first()
        if entry is not None and entry.active:
            raise ConflictError(_("You are already in this tournament."))
        if not getattr(user, "is_authenticated", False):
            raise NotYourGameError(_("Sign in to join a tournament."))
        refusal = may_join(user, tournament)
        if refusal:
            raise ConflictError(refusal)
        if entry is None:
            rating = Rating.objects.filter(user=user).values_list("rating", flat=True).first()
            entry = Entry.objects.create(tournament=tournament, user=user, seed=rating or 1500)
        else:
            entry.active = True
            entry.save(update_fields=["active"])
        if tournament.status == Tournament.Status.RUNNING:
            _pair_arena(tournament)
        _changed(tournament)
    return entry


def tournament_leave(*, tournament_id: int, user: object) -> Entry:
    """Leave: an arena pauses the player (they may join again), a Swiss withdraws them
    from later rounds.  A game in progress goes on (resign it to end it)."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        entry = tournament.entries.filter(user_id=getattr(user, "pk", None), active=True).first()
        if entry is None:
            raise ConflictError(_("You are not playing in this tournament."))
        if tournament.status == Tournament.Status.FINISHED:
            raise ConflictError(_("This tournament is over."))
        entry.active = False
        entry.save(update_fields=["active"])
        _changed(tournament)
    return entry


def tournament_start(*, tournament_id: int, user: object | None = None) -> Tournament:
    """Start now: the organiser's button (``user``), or the clock at the start time."""
    with transaction.atomic():
        tournament = _lock(tournament_id)
        if user is not None and user.pk != tournament.created_by_id:
            raise NotYourGameError(_("Only the organiser can start the tournament early."))
        if tournament.status != Tournament.Status.UPCOMING:
            raise ConflictError(_("This tournament has already started."))
        _start(tournament)
    return tournament


def tournament_feature(*, tournament_id: int, user: object, featured: bool) -> Tournament:
    """Staff show one tournament on the home page (featuring one unfeatures the others).

    A repeated post changes nothing: no version bump, no push to the watchers."""
    if not getattr(user, "is_staff", False):
        raise NotYourGameError(_("Only staff can feature a tournament."))
    with transaction.atomic():
        tournament = _lock(tournament_id)
        others = 0
        if featured:
            others = (
                Tournament.objects.filter(featured=True)
                .exclude(pk=tournament.pk)
                .update(featured=False)
            )
        if tournament.featured == featured and not others:
            return tournament
        tournament.featured = featured
        _changed(tournament)
    return tournament


# -- starting, pairing, results, finishing ---------------------------------------------------


def _start(tournament: Tournament) -> None:
    now = clock.now()
    tournament.starts_at = min(tournament.starts_at, now)
    tournament.status = Tournament.Status.RUNNING
    if tournament.kind == Tournament.Kind.ARENA:
        _pair_arena(tournament)  # players may still join: an empty arena runs all the same
    elif tournament.entries.filter(active=True).count() < 2:
        _finish(tournament)  # a Swiss with nobody to play: over before it began
    else:
        _pair_swiss_round(tournament)
    _changed(tournament)


def _finish(tournament: Tournament) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = clock.now()


def _viewer(entry: Entry) -> Viewer:
    user = entry.user
    return Viewer(user.pk, "", user.get_username()[:NAME_MAX], f"u:{user.pk}")


def _open_game(tournament: Tournament, blue: Entry, red: Entry) -> Game:
    """An ordinary room with both players seated (the rooms' own commands)."""
    room = rooms.room_create(
        viewer=_viewer(blue),
        width=tournament.width,
        height=tournament.height,
        host_side="blue",
        timer_seconds=tournament.timer_seconds,
        rated=tournament.rated,
    )
    rooms.room_join(public_id=room.game.public_id, viewer=_viewer(red), arranged=True)
    return room.game


def _pairable(tournament: Tournament, entries: object) -> list[Entry]:
    """The entries to pair: in a rated tournament, not those of accounts staff marked for
    a fair-play violation after they entered (they may no longer play rated games)."""
    entries = list(entries)
    if not tournament.rated:
        return entries
    marked = set(
        FairPlayMark.objects.filter(user_id__in=[e.user_id for e in entries]).values_list(
            "user_id", flat=True
        )
    )
    return [e for e in entries if e.user_id not in marked]


def _pair_swiss_round(tournament: Tournament) -> list[Pairing]:
    """Pair the next round (``current_round + 1``) of the active players."""
    active = _pairable(tournament, tournament.entries.filter(active=True).select_related("user"))
    number = tournament.current_round + 1
    if len(active) < 2:
        _finish(tournament)
        return []
    entries = {e.pk: e for e in active}
    paired = pairing.swiss_round(swiss_players(tournament, active), number=number)
    made = []
    for blue, red in paired.pairs:
        game = _open_game(tournament, entries[blue], entries[red])
        made.append(
            Pairing.objects.create(
                tournament=tournament, round=number, blue_id=blue, red_id=red, game=game
            )
        )
    if paired.bye is not None:
        made.append(
            Pairing.objects.create(
                tournament=tournament,
                round=number,
                blue_id=paired.bye,
                recorded=True,
                blue_points=pairing.BYE_POINTS,
                finished_at=clock.now(),
            )
        )
    tournament.current_round = number
    return made


def _pair_arena(tournament: Tournament) -> list[Pairing]:
    """Pair the free active players of a running arena, unless its time is up."""
    ends_at = tournament.ends_at
    if tournament.status != Tournament.Status.RUNNING or (ends_at and clock.now() >= ends_at):
        return []
    busy = set()
    for blue, red in tournament.pairings.filter(recorded=False).values_list("blue_id", "red_id"):
        busy |= {blue, red}
    active = _pairable(tournament, tournament.entries.filter(active=True).select_related("user"))
    free = [e for e in active if e.pk not in busy]
    if len(free) < 2:
        return []
    rows = {r.entry.pk: r for r in standings(tournament)}
    last: dict[int, int] = {}
    balance: dict[int, int] = {}
    for p in tournament.pairings.exclude(red=None).order_by("created_at", "id"):
        last[p.blue_id], last[p.red_id] = p.red_id, p.blue_id
        balance[p.blue_id] = balance.get(p.blue_id, 0) + 1
        balance[p.red_id] = balance.get(p.red_id, 0) - 1
    waiting = [
        pairing.ArenaPlayer(e.pk, rows[e.pk].score, last.get(e.pk), balance.get(e.pk, 0))
        for e in free
    ]
    entries = {e.pk: e for e in free}
    made = []
    for blue, red in pairing.arena_pairs(waiting, allow_rematch=len(active) == 2):
        game = _open_game(tournament, entries[blue], entries[red])
        made.append(
            Pairing.objects.create(tournament=tournament, blue_id=blue, red_id=red, game=game)
        )
    return made


def points_of(game: Game) -> tuple[int, int]:
    """(blue, red) tournament points of a finished game; an aborted game scores nothing."""
    if game.result == Game.Result.BLUE:
        return pairing.WIN, pairing.LOSS
    if game.result == Game.Result.RED:
        return pairing.LOSS, pairing.WIN
    if game.result in (Game.Result.TIE, Game.Result.DRAW):
        return pairing.DRAW, pairing.DRAW
    return 0, 0


def _after_result(tournament: Tournament) -> None:
    """What a result makes due: the next Swiss round (or its end), new arena pairs."""
    if tournament.status != Tournament.Status.RUNNING:
        return
    if tournament.kind == Tournament.Kind.ARENA:
        _pair_arena(tournament)
        return
    current = tournament.pairings.filter(round=tournament.current_round)
    if current.filter(recorded=False).exists():
        return
    if tournament.current_round >= (tournament.rounds or 0):
        _finish(tournament)
    else:
        _pair_swiss_round(tournament)


def tournament_record_result(*, game_id: int, skip_locked: bool = False) -> Pairing | None:
    """Score the pairing of a game that is over, once; then pair what is due."""
    tournament_id = (
        Pairing.objects.filter(game_id=game_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return None
    with transaction.atomic():
        tournament = _lock(tournament_id, skip_locked=skip_locked)
        if tournament is None:
            return None  # another process holds it and will see this result
        found = Pairing.objects.select_related("game").filter(game_id=game_id).first()
        if found is None or found.recorded or found.game.status == Game.Status.ACTIVE:
            return found
        found.blue_points, found.red_points = points_of(found.game)
        found.recorded = True
        found.finished_at = clock.now()
        found.save()
        _after_result(tournament)
        _changed(tournament)
    return found


def tournament_tick(now: datetime | None = None, *, sweep: bool = True) -> int:
    """The periodic pass; returns how many tournaments it changed.

    One query finds the tournaments with work (one to start, an arena running), so a
    tick with none costs only that.  ``sweep``: also record results no event brought
    (a restart between a game's commit and its listener)."""
    now = now or clock.now()
    changed = 0
    upcoming = Q(status=Tournament.Status.UPCOMING, starts_at__lte=now)
    arena = Q(status=Tournament.Status.RUNNING, kind="arena")
    found = list(Tournament.objects.filter(upcoming | arena).values_list("pk", "status", "kind"))
    due = [(pk, kind) for pk, status, kind in found if status == Tournament.Status.UPCOMING]
    arenas = [pk for pk, status, _kind in found if status == Tournament.Status.RUNNING][:50]
    for tournament_id, kind in due[:50]:
        with transaction.atomic():
            tournament = _lock(tournament_id, skip_locked=True)
            if tournament is not None and tournament.status == Tournament.Status.UPCOMING:
                _start(tournament)
                changed += 1
                if kind == "arena":
                    arenas.append(tournament_id)  # its first pass, as for any running arena
    if sweep:
        missed = Pairing.objects.filter(recorded=False, game__isnull=False).exclude(
            game__status=Game.Status.ACTIVE
        )
        for game_id in missed.values_list("game_id", flat=True)[:200]:
            if tournament_record_result(game_id=game_id, skip_locked=True) is not None:
                changed += 1
    for tournament_id in arenas:
        with transaction.atomic():
            tournament = _lock(tournament_id, skip_locked=True)
            if tournament is None or tournament.status != Tournament.Status.RUNNING:
                continue
            ends_at = tournament.ends_at
            if ends_at and now >= ends_at:
                _finish(tournament)  # games still in progress count when they end
                _changed(tournament)
                changed += 1
            elif _pair_arena(tournament):
                _changed(tournament)
                changed += 1
    return changed


@receiver(game_changed, dispatch_uid="tournaments.result")
def on_game_changed(sender: object, *, change: GameChanged, **kwargs: object) -> None:
    """A tournament game ended: record it (after the game's own commit)."""
    if change.active or change.game.mode != Game.Mode.ONLINE:
        return
    tournament_record_result(game_id=change.game_id)


#: Seconds between the clock's sweeps for results no event brought: rare, so not on
#: every tick.
SWEEP_SECONDS = 30.0
_last_sweep = [float("-inf")]


@receiver(ticked, dispatch_uid="tournaments.tick")
def on_tick(sender: object, *, now: datetime, **kwargs: object) -> None:
    """The room clock ticks twice a second in every server: with no tournament to
    start or arena running a pass costs one query, and the sweep for missed results
    runs every :data:`SWEEP_SECONDS` only."""
    sweep = time.monotonic() - _last_sweep[0] >= SWEEP_SECONDS
    if sweep:
        _last_sweep[0] = time.monotonic()
    tournament_tick(now, sweep=sweep)
