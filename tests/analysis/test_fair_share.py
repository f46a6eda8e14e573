"""Issue 23, item 4: one account cannot fill the background lane.

Each owner has at most ``ANALYSIS_PER_PLAYER`` analyses in the lane; the rest wait
in the database and go, oldest first, as the owner's earlier ones finish.  Games
are analysed without being asked only when worth it (docs/ANALYSIS.md).
"""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model

from dotsboxes.analysis import scheduling, services
from dotsboxes.analysis.models import GameAnalysis
from dotsboxes.games import services as games
from dotsboxes.games.models import Game, Side
from tests.gamefactory import played_game

pytestmark = pytest.mark.django_db(transaction=True)


def wait_all_finished(owner: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while (
        GameAnalysis.objects.filter(owner=owner)
        .exclude(status__in=(GameAnalysis.Status.DONE, GameAnalysis.Status.FAILED))
        .exists()
    ):
        assert time.monotonic() < deadline, "the analyses did not finish in time"
        time.sleep(0.05)


def test_a_flood_of_requests_holds_at_most_its_share_of_the_lane_and_others_go_first(settings):
    settings.ANALYSIS_PER_PLAYER = 2
    flooder, other = "user:1001", "user:1002"
    # Games on 3 x 3: long enough that the lane is busy while the flood is sent.
    floods = [played_game(width=3, height=3, seed=s, mode=Game.Mode.LOCAL) for s in range(8)]
    mine = played_game(width=3, height=3, seed=99, mode=Game.Mode.LOCAL)
    most_in_lane, stop = [0], threading.Event()

    def watch() -> None:  # samples the flooder's place in the lane while it all runs
        from django.db import connections

        try:
            while not stop.is_set():
                most_in_lane[0] = max(most_in_lane[0], scheduling.in_lane(flooder))
                time.sleep(0.005)
        finally:
            connections.close_all()

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for game in floods:
            services.request_analysis(game, flooder)
        waiting = GameAnalysis.objects.filter(owner=flooder, sent_at__isnull=True).count()
        assert waiting >= 8 - 2 - 2  # at most two sent, and at most two finished already
        services.request_analysis(mine, other)
        theirs = GameAnalysis.objects.get(game=mine)
        assert theirs.sent_at is not None  # not behind the flood: sent at once
        wait_all_finished(flooder)
        wait_all_finished(other)
    finally:
        stop.set()
        watcher.join()
    assert most_in_lane[0] <= 2
    rows = list(GameAnalysis.objects.filter(owner=flooder).order_by("created_at", "pk"))
    assert [r.status for r in rows] == [GameAnalysis.Status.DONE] * 8
    # The flooder's own were sent oldest first, and the other player's went before most.
    sent = [r.sent_at for r in rows]
    assert sent == sorted(sent)
    theirs.refresh_from_db()
    assert theirs.status == GameAnalysis.Status.DONE
    assert sum(1 for s in sent if s > theirs.sent_at) >= 4


@pytest.mark.parametrize("kind", ["user", "user without a row", "session without a row"])
def test_the_share_is_counted_once_when_one_owner_asks_from_many_threads_at_once(settings, kind):
    settings.ANALYSIS_PER_PLAYER = 2
    # The owner's lock must hold whether or not a user or session row stands behind the
    # key (it locked that row, so a key without one let the threads through together).
    owner = {
        "user": lambda: (
            f"user:{get_user_model().objects.create_user('cy', password='pw12345678').pk}"
        ),
        "user without a row": lambda: "user:987654",
        "session without a row": lambda: "session:no-such-session",
    }[kind]()
    games_ = [played_game(width=2, height=2, seed=s, mode=Game.Mode.LOCAL) for s in range(6)]
    for game in games_:  # rows waiting, as a burst of requests left them
        GameAnalysis.objects.create(
            game=game, game_version=game.version, engine_version=1, owner=owner
        )
    admitted: list[int] = []
    barrier = threading.Barrier(6)

    def one() -> None:
        from django.db import connections

        try:
            barrier.wait()
            admitted.extend(scheduling.admit(owner))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) == len(set(admitted)) == 2


def _computer_game(user, *, seed: int, edges: int | None, width: int = 3, height: int = 3):
    """A game against the computer, its last edge about to be drawn by the player."""
    game = played_game(width=width, height=height, seed=seed, edges=edges, mode=Game.Mode.COMPUTER)
    mover = Side.of(game.board().turn)
    Game.objects.filter(pk=game.pk).update(
        blue_user=user if mover == Side.BLUE else None,
        red_user=user if mover == Side.RED else None,
        blue_token="seat",
        red_token="seat",
        computer_side=Side.RED if mover == Side.BLUE else Side.BLUE,
        computer_level="beginner",
    )
    game.refresh_from_db()
    return game


def _finish(game: Game) -> None:
    edge = game.board().legal_moves[0]
    games.game_play_move(
        game=game, edge=str(edge), version=game.version, actor=games.Actor(token="seat")
    )


def test_only_games_worth_it_are_analysed_without_being_asked(settings):
    settings.ANALYSIS_AUTO = True
    settings.ANALYSIS_PER_PLAYER = 2
    user = get_user_model().objects.create_user("ada", password="pw12345678")
    # Against the computer, played out: analysed.
    played = _computer_game(user, seed=1, edges=23)
    _finish(played)
    assert GameAnalysis.objects.filter(game=played).exists()
    # On one device: not analysed unasked (the button still works).
    local = played_game(width=3, height=3, seed=2, edges=23, mode=Game.Mode.LOCAL)
    Game.objects.filter(pk=local.pk).update(blue_user=user, blue_token="seat", red_token="seat")
    local.refresh_from_db()
    _finish(local)
    local.refresh_from_db()
    assert local.status == Game.Status.FINISHED
    assert not GameAnalysis.objects.filter(game=local).exists()
    # Resigned after a few edges: nothing worth minutes of engine time.
    short = _computer_game(user, seed=3, edges=4)
    games.game_resign(game=short, version=short.version, actor=games.Actor(token="seat"))
    short.refresh_from_db()
    assert short.status == Game.Status.FINISHED
    assert not GameAnalysis.objects.filter(game=short).exists()


def test_a_player_finishing_games_faster_than_the_engine_gets_the_first_ones_analysed(settings):
    settings.ANALYSIS_AUTO = True
    settings.ANALYSIS_PER_PLAYER = 2
    user = get_user_model().objects.create_user("bo", password="pw12345678")
    owner = f"user:{user.pk}"
    # Two analyses of this player still in the lane (as a stream of quick games leaves them).
    for seed in (10, 11):
        game = played_game(width=2, height=2, seed=seed, mode=Game.Mode.LOCAL)
        GameAnalysis.objects.create(
            game=game, game_version=game.version, engine_version=1, owner=owner
        )
    more = _computer_game(user, seed=12, edges=23)
    _finish(more)
    more.refresh_from_db()
    assert more.status == Game.Status.FINISHED
    assert not GameAnalysis.objects.filter(game=more).exists()  # the share is full: skipped


def test_a_late_progress_report_does_not_bring_a_failed_analysis_back_into_the_lane():
    from django.utils import timezone

    from dotsboxes.analysis import jobs as analysis_jobs

    game = played_game(width=2, height=2, seed=5, mode=Game.Mode.LOCAL)
    row = GameAnalysis.objects.create(
        game=game,
        game_version=game.version,
        engine_version=1,
        owner="user:7",
        sent_at=timezone.now(),
        status=GameAnalysis.Status.FAILED,
    )
    analysis_jobs.report_progress(row.pk, 3, 10)  # the engine's report came after the failure
    row.refresh_from_db()
    assert row.status == GameAnalysis.Status.FAILED
    assert scheduling.in_lane("user:7") == 0
