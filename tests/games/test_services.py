"""The game commands: moves, seats, versions, undo, resign, hints, rematch, import."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from dotsboxes.games import errors, events, record_import, seats, services
from dotsboxes.games.models import Game, Move, Side
from dotsboxes.rules import Board

from .conftest import ALICE, BOB, CAROL, play


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    moves = list(game.moves.values_list("ply", "edge", "side"))
    return game.version, game.status, game.blue_score, game.red_score, game.hints_used, moves


def test_a_move_is_saved_with_its_ply_and_side_and_bumps_the_version(local_game):
    before = local_game.version
    result = services.game_play_move(game=local_game, edge="b1-A1", version=before, actor=ALICE)
    assert str(result.edge) == "a1-b1" and result.claimed == ()
    move = Move.objects.get(game=local_game)
    assert (move.ply, move.edge, move.side, move.by_computer) == (1, "a1-b1", "blue", False)
    local_game.refresh_from_db()
    assert local_game.version == before + 1
    assert local_game.board().turn.name == "RED"


def test_the_database_holds_one_move_per_ply_and_one_per_edge_of_a_game(local_game):
    game = play(local_game, "a1-b1")
    for ply, edge in ((1, "a2-b2"), (2, "a1-b1")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Move.objects.create(game=game, ply=ply, edge=edge, side="red")
    other = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL)
    Move.objects.create(game=other, ply=1, edge="a1-b1", side="blue")  # another game: fine
    assert game.moves.count() == 1


def test_completing_a_box_scores_it_and_keeps_the_turn(local_game):
    game = play(local_game, "a1-b1", "a2-b2", "a1-a2")
    result = services.game_play_move(game=game, edge="b1-b2", version=game.version, actor=ALICE)
    assert result.claimed == (0,)
    game.refresh_from_db()
    assert (game.blue_score, game.red_score) == (0, 1)
    assert Move.objects.get(game=game, ply=4).side == "red"
    assert game.board().turn.name == "RED"


def test_the_game_finishes_with_the_result_when_every_edge_is_drawn(db):
    game = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, width=1, height=1)
    game = play(game, "a1-b1", "a2-b2", "a1-a2", "b1-b2")
    assert game.status == Game.Status.FINISHED
    assert game.result == Game.Result.RED and game.termination == Game.Termination.COMPLETED
    assert game.finished_at is not None
    with pytest.raises(errors.GameOverError):
        services.game_play_move(game=game, edge="a1-b1", version=game.version, actor=ALICE)


@pytest.mark.parametrize(
    ("edge", "message"),
    [
        ("zz", "is not an edge"),
        ("a1-c1", "not neighbours"),
        ("a1-b2", "diagonal"),
        ("e1-f1", "is not on this"),
        ("", "is not an edge"),
    ],
)
def test_a_malformed_or_off_board_edge_is_refused_and_nothing_changes(local_game, edge, message):
    before = snapshot(local_game)
    with pytest.raises(errors.IllegalEdgeError, match=message):
        services.game_play_move(game=local_game, edge=edge, version=local_game.version, actor=ALICE)
    assert snapshot(local_game) == before


def test_an_edge_already_drawn_is_refused(local_game):
    game = play(local_game, "a1-b1")
    before = snapshot(game)
    with pytest.raises(errors.IllegalEdgeError, match="already drawn"):
        services.game_play_move(game=game, edge="b1-a1", version=game.version, actor=ALICE)
    assert snapshot(game) == before


def test_a_repeated_post_with_the_old_version_is_refused_as_stale(local_game):
    version = local_game.version
    services.game_play_move(game=local_game, edge="a1-b1", version=version, actor=ALICE)
    before = snapshot(local_game)
    # A double click: the same request again, and a different edge with the old version.
    for edge in ("a1-b1", "a2-b2"):
        with pytest.raises(errors.StaleVersionError, match="had changed"):
            services.game_play_move(game=local_game, edge=edge, version=version, actor=ALICE)
    assert snapshot(local_game) == before


@pytest.mark.parametrize("version", [None, "", "abc", "-1", "99"])
def test_a_missing_or_forged_version_is_refused(local_game, version):
    before = snapshot(local_game)
    with pytest.raises(errors.StaleVersionError):
        services.game_play_move(game=local_game, edge="a1-b1", version=version, actor=ALICE)
    assert snapshot(local_game) == before


def test_another_browser_cannot_move_in_a_game_and_is_told_it_is_read_only(local_game):
    before = snapshot(local_game)
    with pytest.raises(errors.NotYourGameError, match="another browser"):
        services.game_play_move(
            game=local_game, edge="a1-b1", version=local_game.version, actor=CAROL
        )
    with pytest.raises(errors.NotYourGameError):
        services.game_undo(game=local_game, version=local_game.version, actor=CAROL)
    with pytest.raises(errors.NotYourGameError):
        services.game_resign(game=local_game, version=local_game.version, actor=CAROL)
    with pytest.raises(errors.NotYourGameError):
        services.game_rematch(game=local_game, actor=CAROL)
    assert snapshot(local_game) == before


def test_an_anonymous_actor_with_no_token_holds_no_seat(db):
    game = services.game_create(actor=seats.Actor(token=""), mode=Game.Mode.LOCAL)
    with pytest.raises(errors.NotYourGameError):
        services.game_play_move(game=game, edge="a1-b1", version=game.version, actor=seats.Actor())


def test_a_forged_game_id_is_refused(db):
    with pytest.raises(errors.GameNotFoundError):
        services.game_play_move(game=987654, edge="a1-b1", version=1, actor=ALICE)


def test_online_seats_let_each_player_move_only_in_their_own_turn(db):
    game = services.game_create(actor=ALICE, mode=Game.Mode.ONLINE, blue=ALICE, red=BOB)
    with pytest.raises(errors.NotYourTurnError, match="Blue's turn, not yours"):
        services.game_play_move(game=game, edge="a1-b1", version=game.version, actor=BOB)
    game = play(game, "a1-b1", actor=ALICE)
    with pytest.raises(errors.NotYourTurnError, match="Red's turn"):
        services.game_play_move(game=game, edge="a2-b2", version=game.version, actor=ALICE)
    game = play(game, "a2-b2", actor=BOB)
    assert list(game.moves.values_list("side", flat=True)) == ["blue", "red"]


def test_a_signed_in_user_holds_their_seat_from_any_browser(db, django_user_model):
    user = django_user_model.objects.create_user("dora", password="pw-123456")
    game = services.game_create(
        actor=ALICE,
        mode=Game.Mode.ONLINE,
        blue=seats.Actor(token="dora-phone", user_id=user.pk),
        red=BOB,
    )
    laptop = seats.Actor(token="dora-laptop", user_id=user.pk)
    play(game, "a1-b1", actor=laptop)
    assert game.moves.count() == 1


def test_the_player_cannot_move_for_the_computer(computer_game):
    game = play(computer_game, "a1-b1")
    before = snapshot(game)
    with pytest.raises(errors.NotYourTurnError, match="computer's turn"):
        services.game_play_move(game=game, edge="a2-b2", version=game.version, actor=ALICE)
    assert snapshot(game) == before


def test_a_computer_move_applies_only_at_the_version_it_thought_about(computer_game):
    game = play(computer_game, "a1-b1")
    stale = services.game_apply_computer_move(
        game_id=game.pk, version=game.version - 1, edge="a2-b2"
    )
    assert stale is None and game.moves.count() == 1
    result = services.game_apply_computer_move(game_id=game.pk, version=game.version, edge="a2-b2")
    assert result is not None and result.game.version == game.version + 1
    move = game.moves.get(ply=2)
    assert (move.side, move.by_computer) == ("red", True)
    # Not the computer's turn any more: a late second answer is dropped too.
    assert (
        services.game_apply_computer_move(
            game_id=game.pk, version=result.game.version, edge="a3-b3"
        )
        is None
    )


def test_a_stand_in_can_draw_for_a_human_seat_when_asked_for_that_side(db):
    game = services.game_create(actor=ALICE, mode=Game.Mode.ONLINE, blue=ALICE, red=BOB)
    result = services.game_apply_computer_move(
        game_id=game.pk, version=game.version, edge="a1-b1", side=Side.BLUE
    )
    assert result is not None and game.moves.get().by_computer


def test_undo_on_one_device_takes_back_the_last_whole_turn(local_game):
    # Red's turn is two edges: it claims a box with b1-b2 and then draws c1-d1.
    game = play(local_game, "a1-b1", "a2-b2", "a1-a2", "b1-b2", "c1-d1")
    services.game_undo(game=game, version=game.version, actor=ALICE)
    game.refresh_from_db()
    assert list(game.moves.values_list("edge", flat=True)) == ["a1-b1", "a2-b2", "a1-a2"]
    assert (game.blue_score, game.red_score) == (0, 0)
    assert game.board().turn.name == "RED"


def test_undo_against_the_computer_takes_back_its_reply_and_the_players_turn(computer_game):
    game = play(computer_game, "a1-b1")
    services.game_apply_computer_move(game_id=game.pk, version=game.version, edge="c3-c2")
    game = play(game, "a3-b3")
    services.game_apply_computer_move(game_id=game.pk, version=game.version, edge="a1-a2")
    game.refresh_from_db()
    services.game_undo(game=game, version=game.version, actor=ALICE)
    assert list(game.moves.values_list("edge", flat=True)) == ["a1-b1", "c2-c3"]
    assert game.board().turn.name == "BLUE"


def test_undo_while_the_computer_thinks_takes_back_the_players_turn(computer_game):
    game = play(computer_game, "a1-b1")
    services.game_undo(game=game, version=game.version, actor=ALICE)
    assert game.moves.count() == 0


def test_undo_with_nothing_of_yours_to_take_back_is_refused(db):
    game = services.game_create(
        actor=ALICE, mode=Game.Mode.COMPUTER, width=2, height=2, computer_side=Side.BLUE
    )
    services.game_apply_computer_move(game_id=game.pk, version=game.version, edge="a1-b1")
    game.refresh_from_db()
    before = snapshot(game)
    with pytest.raises(errors.NothingToUndoError):
        services.game_undo(game=game, version=game.version, actor=ALICE)
    with pytest.raises(errors.NothingToUndoError):
        empty = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL)
        services.game_undo(game=empty, version=empty.version, actor=ALICE)
    assert snapshot(game) == before


def test_undo_with_a_stale_version_is_refused(local_game):
    game = play(local_game, "a1-b1")
    with pytest.raises(errors.StaleVersionError):
        services.game_undo(game=game, version=game.version - 1, actor=ALICE)
    assert game.moves.count() == 1


def test_undo_reopens_a_completed_game(db):
    game = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, width=1, height=1)
    game = play(game, "a1-b1", "a2-b2", "a1-a2", "b1-b2")
    services.game_undo(game=game, version=game.version, actor=ALICE)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.result == "" and game.finished_at is None
    assert game.moves.count() == 3


def test_resigning_ends_the_game_for_the_other_side_and_cannot_be_undone(computer_game):
    game = play(computer_game, "a1-b1")
    services.game_resign(game=game, version=game.version, actor=ALICE)
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "red", "resigned")
    with pytest.raises(errors.GameOverError):
        services.game_resign(game=game, version=game.version, actor=ALICE)
    with pytest.raises(errors.GameOverError):
        services.game_undo(game=game, version=game.version, actor=ALICE)


def test_on_one_device_the_side_to_move_resigns(local_game):
    game = play(local_game, "a1-b1")
    services.game_resign(game=game, version=game.version, actor=ALICE)
    game.refresh_from_db()
    assert game.result == "blue"


def test_hints_are_counted_only_on_the_players_own_turn(computer_game):
    services.game_count_hint(game=computer_game, version=computer_game.version, actor=ALICE)
    computer_game.refresh_from_db()
    assert computer_game.hints_used == 1
    game = play(computer_game, "a1-b1")
    with pytest.raises(errors.NotYourTurnError):
        services.game_count_hint(game=game, version=game.version, actor=ALICE)
    assert snapshot(game)[4] == 1


def test_a_rematch_swaps_the_first_player(computer_game, local_game):
    again = services.game_rematch(game=computer_game, actor=ALICE)
    assert again.computer_side == "blue" and again.rematch_of == computer_game
    assert again.red_token == ALICE.token and again.blue_token == ""
    assert (again.width, again.height, again.computer_level) == (2, 2, "casual")
    named = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, blue_name="Ada", red_name="Max")
    swapped = services.game_rematch(game=named, actor=ALICE)
    assert (swapped.blue_name, swapped.red_name) == ("Max", "Ada")


def test_a_rematch_can_keep_the_first_player(computer_game, local_game):
    again = services.game_rematch(game=computer_game, actor=ALICE, swap=False)
    assert again.computer_side == "red" and again.blue_token == ALICE.token
    named = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, blue_name="Ada", red_name="Max")
    same = services.game_rematch(game=named, actor=ALICE, swap=False)
    assert (same.blue_name, same.red_name) == ("Ada", "Max")


def test_hints_and_resigning_refuse_stale_versions_strangers_and_finished_games(computer_game):
    game = computer_game
    before = snapshot(game)
    for command in (services.game_count_hint, services.game_resign):
        with pytest.raises(errors.StaleVersionError):
            command(game=game, version=game.version + 1, actor=ALICE)
        with pytest.raises(errors.NotYourGameError):
            command(game=game, version=game.version, actor=CAROL)
        with pytest.raises(errors.GameNotFoundError):
            command(game=987654, version=1, actor=ALICE)
    assert snapshot(game) == before
    services.game_resign(game=game, version=game.version, actor=ALICE)
    over = snapshot(game)
    with pytest.raises(errors.GameOverError):
        services.game_count_hint(game=game, version=game.version, actor=ALICE)
    with pytest.raises(errors.GameOverError):
        services.game_play_move(game=game, edge="a1-b1", version=game.version, actor=ALICE)
    assert snapshot(game) == over


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "chess"}, "Unknown mode"),
        ({"width": 0}, "cannot be set up"),
        ({"height": 10}, "cannot be set up"),
        ({"computer_level": "godlike"}, "Unknown computer level"),
        ({"computer_side": "green"}, "Blue or Red"),
        ({"start_key": "5x5.zz.0.b"}, "cannot be set up"),
        ({"start_key": "1x1.f.0.b"}, "no edge left"),
    ],
)
def test_bad_setups_are_refused_and_nothing_is_saved(db, kwargs, message):
    with pytest.raises(errors.InvalidSetupError, match=message):
        services.game_create(actor=ALICE, **kwargs)
    assert not Game.objects.exists()


def test_a_game_can_start_from_a_position_key(db):
    board = Board(3, 2)
    for edge in ("a1-b1", "a2-b2", "a1-a2"):
        board.play(edge)
    game = services.game_create(actor=ALICE, mode=Game.Mode.LOCAL, start_key=board.key())
    assert (game.width, game.height, game.start_key) == (3, 2, board.key())
    game = play(game, "b1-b2")
    assert game.board().scores == (0, 1)


def test_a_record_is_imported_with_its_moves_names_and_hints(db):
    text = "Dots and Boxes\nSize: 1 x 1 boxes (2 x 2 dots)\nBlue: Ada\nRed: Max\nHints: 2\n\n"
    text += "1. a1-b1  2. a2-b2  3. a1-a2  4. b1-b2\n"
    game = record_import.game_import(text=text, actor=ALICE)
    assert (game.blue_name, game.red_name, game.hints_used) == ("Ada", "Max", 2)
    assert game.status == "finished" and game.result == "red"


def test_a_record_can_be_continued_against_the_computer_from_either_side(db):
    text = "Dots and Boxes\nSize: 2 x 2 boxes (3 x 3 dots)\n\n1. a1-b1  2. a2-b2\n"
    game = record_import.game_import(
        text=text, actor=ALICE, mode=Game.Mode.COMPUTER, computer_side=Side.RED
    )
    assert (game.mode, game.computer_side, game.blue_token, game.red_token) == (
        "computer",
        "red",
        ALICE.token,
        "",
    )
    assert game.red_name == "Computer (casual)" and game.moves.count() == 2
    # Blue is to move: Alice, who plays Blue, draws next.
    play(game, "a3-b3")
    with pytest.raises(errors.InvalidSetupError):
        record_import.game_import(text=text, actor=ALICE, mode=Game.Mode.ONLINE)


@pytest.mark.parametrize(
    ("body", "turn", "edge"),
    [
        ("1. a1-b1  2. a1-b1", 2, "a1-b1"),
        ("1. a1-b1  2. a2-b2, a1-a2", 2, "a1-a2"),
        ("1. a1-b1  2. zz-9", 2, "zz-9"),
        ("1. a1-b1  3. a2-b2", 2, None),
    ],
)
def test_a_bad_record_names_the_turn_and_edge_and_saves_nothing(db, body, turn, edge):
    text = f"Dots and Boxes\nSize: 2 x 2 boxes (3 x 3 dots)\n\n{body}\n"
    with pytest.raises(errors.BadRecordError) as caught:
        record_import.game_import(text=text, actor=ALICE)
    assert caught.value.turn == turn
    assert str(caught.value).startswith(f"Turn {turn}")
    if edge:
        assert f"edge {edge}" in str(caught.value)
    assert not Game.objects.exists() and not Move.objects.exists()


def test_an_empty_or_headless_record_is_refused(db):
    for text in ("", "1. a1-b1"):
        with pytest.raises(errors.BadRecordError):
            record_import.game_import(text=text, actor=ALICE)
    assert not Game.objects.exists()


def test_every_change_is_announced_after_commit(local_game, django_capture_on_commit_callbacks):
    seen = []

    def listener(sender, *, change, **kwargs):
        seen.append((change.event, change.version, change.to_move))

    events.game_changed.connect(listener)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.game_play_move(
                game=local_game, edge="a1-b1", version=local_game.version, actor=ALICE
            )
    finally:
        events.game_changed.disconnect(listener)
    local_game.refresh_from_db()
    assert seen == [("move", local_game.version, Side.RED)]
