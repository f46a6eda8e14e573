"""Tournaments played to the end through the services, with the games as rooms.

Transactional: results arrive through the core's change event, which is sent after
commit, exactly as on the site."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import Q

from dotsboxes import clock
from dotsboxes.accounts.models import RatingChange
from dotsboxes.games.errors import ConflictError
from dotsboxes.games.models import Game
from dotsboxes.rooms import services as rooms
from dotsboxes.rooms.models import Room
from dotsboxes.tournaments import services
from dotsboxes.tournaments.models import Pairing, Tournament
from dotsboxes.tournaments.standings import standings
from tests.tournaments.conftest import agree_draw, make_players, resign, viewer

pytestmark = pytest.mark.django_db(transaction=True)


def swiss(organiser, rounds=3, **kw) -> Tournament:
    return services.tournament_create(
        user=organiser,
        name="Thursday Swiss",
        kind="swiss",
        rounds=rounds,
        starts_at=clock.now() + timedelta(minutes=5),
        width=2,
        height=2,
        **kw,
    )


def open_games(t: Tournament, round_: int) -> list[Pairing]:
    return list(
        t.pairings.filter(round=round_, red__isnull=False).select_related(
            "game", "blue__user", "red__user"
        )
    )


def test_a_six_player_swiss_is_paired_played_and_ranked_by_tie_breaks():
    players = make_players("ann", "ben", "cat", "dan", "eve", "fay")
    strength = {p.username: n for n, p in enumerate(players)}  # fay is the strongest
    t = swiss(players[0])
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    clock.advance(timedelta(minutes=6))
    assert services.tournament_tick() == 1  # the clock starts it and pairs round one
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("running", 1)
    for round_ in (1, 2, 3):
        t.refresh_from_db()
        assert t.current_round == round_
        games = open_games(t, round_)
        assert len(games) == 3  # six players: three boards, no bye
        for p in games:
            assert p.game.room.timer_seconds == t.timer_seconds and p.game.rated
            blue, red = p.blue.user, p.red.user
            if {blue.username, red.username} == {"cat", "dan"}:
                agree_draw(p.game)
            else:  # the weaker player resigns
                resign(p.game, min(blue, red, key=lambda u: strength[u.username]))
    t.refresh_from_db()
    assert t.status == "finished"
    # Nobody met anyone twice, and nobody had one colour three times.
    met = [frozenset((p.blue_id, p.red_id)) for p in t.pairings.all()]
    assert len(met) == len(set(met)) == 9
    for entry in t.entries.all():
        colours = [
            "B" if p.blue_id == entry.pk else "R"
            for p in t.pairings.order_by("round")
            if entry.pk in (p.blue_id, p.red_id)
        ]
        assert len(colours) == 3 and len(set(colours)) == 2
    rows = standings(t)
    # Points match the games: each player's wins and draws, nothing counted twice.
    for row in rows:
        assert row.score == 2 * row.results.count("W") + row.results.count("D")
        assert row.played == 3
    assert sum(r.score for r in rows) == 9 * 2
    # Buchholz is the sum of the opponents' final scores.
    for row in rows:
        opponents = [
            p.red_id if p.blue_id == row.entry.pk else p.blue_id
            for p in t.pairings.all()
            if row.entry.pk in (p.blue_id, p.red_id)
        ]
        scores = {r.entry.pk: r.score for r in rows}
        assert row.buchholz == sum(scores[o] for o in opponents)
    # Ranked by score, then Buchholz, then Sonneborn-Berger.
    keys = [(r.score, r.buchholz, r.sonneborn_berger) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert rows[0].name == "fay" and rows[0].results == "WWW"
    # The results went through the ordinary rated path.
    assert RatingChange.objects.count() == 9 * 2


def test_an_odd_swiss_gives_one_bye_a_round_worth_a_win():
    players = make_players("ann", "ben", "cat")
    t = swiss(players[0], rounds=3)
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=players[0])
    for round_ in (1, 2, 3):
        t.refresh_from_db()
        byes = t.pairings.filter(round=round_, red__isnull=True)
        assert byes.count() == 1 and byes.get().blue_points == 2
        (p,) = open_games(t, round_)
        resign(p.game, p.red.user)
    byed = list(t.pairings.filter(red__isnull=True).values_list("blue_id", flat=True))
    assert len(set(byed)) == 3  # never the same player twice
    t.refresh_from_db()
    assert t.status == "finished"


def test_a_round_is_paired_once_even_if_the_result_is_recorded_again():
    players = make_players("ann", "ben", "cat", "dan")
    t = swiss(players[0], rounds=2)
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=players[0])
    t.refresh_from_db()
    for p in open_games(t, 1):
        resign(p.game, p.blue.user)
    # The clock's catch-up pass and a repeated event change nothing more.
    for p in t.pairings.filter(round=1):
        services.tournament_record_result(game_id=p.game_id)
    services.tournament_tick()
    assert t.pairings.filter(round=2).count() == 2
    assert t.pairings.count() == 4


def test_a_result_the_event_missed_is_recorded_by_the_clock():
    players = make_players("ann", "ben")
    t = swiss(players[0], rounds=1)
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=players[0])
    (p,) = open_games(t, 1)
    # The game ends by a bulk update: no change event, as after a crash.
    Game.objects.filter(pk=p.game_id).update(status="finished", result="blue")
    assert services.tournament_tick() == 1
    p.refresh_from_db()
    assert p.recorded and (p.blue_points, p.red_points) == (2, 0)
    t.refresh_from_db()
    assert t.status == "finished"


def test_joining_twice_and_joining_a_started_swiss_are_refused():
    ann, ben, cat = make_players("ann", "ben", "cat")
    t = swiss(ann, rounds=1)
    services.tournament_join(tournament_id=t.pk, user=ann)
    with pytest.raises(ConflictError, match="already in"):
        services.tournament_join(tournament_id=t.pk, user=ann)
    services.tournament_join(tournament_id=t.pk, user=ben)
    services.tournament_start(tournament_id=t.pk, user=ann)
    with pytest.raises(ConflictError, match="entries are closed"):
        services.tournament_join(tournament_id=t.pk, user=cat)
    assert t.entries.count() == 2


def test_bots_are_kept_out_unless_the_organiser_allows_them():
    from dotsboxes.api.services import bot_account_create
    from dotsboxes.tournaments.eligibility import may_join

    ann, bot = make_players("ann", "robot")
    bot_account_create(user=bot)  # a real bot account, as its owner makes it
    bot.refresh_from_db()
    closed = swiss(ann)
    open_ = swiss(ann, allow_bots=True)
    assert "does not allow bots" in may_join(bot, closed)
    assert may_join(bot, open_) == ""
    assert may_join(ann, closed) == ""


# -- arena -----------------------------------------------------------------------------


def arena(organiser, minutes=30) -> Tournament:
    return services.tournament_create(
        user=organiser,
        name="Lunch arena",
        kind="arena",
        duration_minutes=minutes,
        starts_at=clock.now(),
        width=2,
        height=2,
        timer_seconds=Room.Timer.SECONDS_30,
    )


def current_game(t: Tournament, user) -> Game | None:
    p = t.pairings.filter(Q(blue__user=user) | Q(red__user=user), recorded=False).first()
    return Game.objects.get(pk=p.game_id) if p else None


def play_out(game: Game) -> None:
    """Draw every edge of a 2 x 2 game in order, each by the side to move."""
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        board = game.board()
        user = game.blue_user if board.turn.name == "BLUE" else game.red_user
        edge = str(sorted(board.legal_moves, key=str)[0])
        rooms.room_play_move(
            public_id=game.public_id, viewer=viewer(user), edge=edge, version=game.version
        )


def test_an_arena_pairs_free_players_counts_streaks_and_stops_at_its_end():
    ann, ben, cat, dan = make_players("ann", "ben", "cat", "dan")
    t = arena(ann)
    for p in (ann, ben, cat, dan):
        services.tournament_join(tournament_id=t.pk, user=p)
    services.tournament_tick()  # start time reached: four players, two games
    t.refresh_from_db()
    assert t.status == "running" and t.pairings.count() == 2
    # Ann wins three games in a row: the third counts double (2 + 2 + 4).
    for _ in range(3):
        game = current_game(t, ann)
        loser = game.red_user if game.blue_user == ann else game.blue_user
        resign(game, loser)
        # The other game ends too, so Ann is not left waiting for her last opponent.
        for p in t.pairings.filter(recorded=False).select_related("game"):
            if ann.pk not in (p.game.blue_user_id, p.game.red_user_id):
                resign(p.game, p.game.blue_user)
    rows = {r.name: r for r in standings(t)}
    assert rows["ann"].score == 8 and rows["ann"].on_fire
    assert rows["ann"].results == "WWW"
    # A game played edge by edge to the last box counts like any other.
    game = current_game(t, ben)
    play_out(game)
    game.refresh_from_db()
    assert game.termination == Game.Termination.COMPLETED
    assert t.pairings.get(game=game).recorded
    # Ben leaves (a pause): he is not paired again until he comes back.
    services.tournament_leave(tournament_id=t.pk, user=ben)
    for p in t.pairings.filter(recorded=False).select_related("game"):
        resign(p.game, p.game.blue_user)
    assert current_game(t, ben) is None
    # The end: games in progress still count, but nobody is paired again.
    in_progress = t.pairings.filter(recorded=False).count()
    clock.advance(timedelta(minutes=31))
    services.tournament_tick()
    t.refresh_from_db()
    assert t.status == "finished"
    unfinished = list(t.pairings.filter(recorded=False).select_related("game"))
    assert len(unfinished) == in_progress
    total = t.pairings.count()
    for p in unfinished:
        resign(p.game, p.game.red_user)
    assert t.pairings.count() == total  # no new pairing after the end
    assert all(p.recorded for p in t.pairings.all())
    with pytest.raises(ConflictError, match="over"):
        services.tournament_join(tournament_id=t.pk, user=ben)


def test_an_arena_runs_from_its_start_before_anyone_joins():
    ann, ben = make_players("ann", "ben")
    t = arena(ann)
    services.tournament_tick()
    t.refresh_from_db()
    assert t.status == "running" and not t.pairings.exists()
    services.tournament_join(tournament_id=t.pk, user=ann)
    services.tournament_join(tournament_id=t.pk, user=ben)
    assert t.pairings.filter(recorded=False).count() == 1  # paired the moment two are free


def test_a_swiss_nobody_joined_is_over_at_its_start():
    (ann,) = make_players("ann")
    t = swiss(ann)
    services.tournament_join(tournament_id=t.pk, user=ann)
    clock.advance(timedelta(minutes=6))
    services.tournament_tick()
    t.refresh_from_db()
    assert t.status == "finished" and not t.pairings.exists()


def test_two_processes_recording_a_rounds_last_results_at_once_pair_the_next_round_once(
    django_db_blocker,
):
    import threading

    from django.db import connection

    players = make_players("ann", "ben", "cat", "dan")
    t = swiss(players[0], rounds=2)
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=players[0])
    games = [p.game_id for p in open_games(t, 1)]
    # Both games end with no change event (as if their listeners had not run yet)...
    Game.objects.filter(pk__in=games).update(status="finished", result="red")
    barrier = threading.Barrier(2)
    errors = []

    def record(game_id):
        with django_db_blocker.unblock():
            try:
                barrier.wait()
                services.tournament_record_result(game_id=game_id)
            except Exception as exc:  # pragma: no cover - reported below
                errors.append(exc)
            finally:
                connection.close()

    # ... and two processes record one each at the same moment.
    threads = [threading.Thread(target=record, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    t.refresh_from_db()
    assert t.current_round == 2
    assert t.pairings.filter(round=1, recorded=True).count() == 2
    assert t.pairings.filter(round=2).count() == 2


def test_the_room_clock_costs_one_query_a_tick_until_a_tournament_is_due(
    django_assert_num_queries,
):
    from dotsboxes.rooms import ticker

    players = make_players("ann", "ben")
    t = swiss(players[0], rounds=1)
    for p in players:
        services.tournament_join(tournament_id=t.pk, user=p)
    services._last_sweep[0] = float("inf")  # as if the sweep had just run
    try:
        with django_assert_num_queries(1):  # is any tournament due? no
            services.on_tick(sender=ticker.tick, now=clock.now())
        clock.advance(timedelta(minutes=6))
        ticker.ticked.send(sender=ticker.tick, now=clock.now())  # due: the full pass starts it
    finally:
        services._last_sweep[0] = float("-inf")
    t.refresh_from_db()
    assert (t.status, t.current_round) == ("running", 1)
