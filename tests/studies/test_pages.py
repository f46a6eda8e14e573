"""Studies through their pages: an author writes, the solver checks, a reader answers."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from dotsboxes.engine import solver
from dotsboxes.rules import Board
from dotsboxes.studies import checks
from dotsboxes.studies.models import Chapter, ChapterProgress, PositionCheck, Study

pytestmark = pytest.mark.django_db(transaction=True)

# 2 x 2 boxes, Blue to move: a1-b1 draws the bottom side of the bottom-left box.
POSITION = "2x2.0.0.b"


def _user(name, **extra):
    return get_user_model().objects.create_user(name, password="pw-very-secret-1", **extra)


def _wait_checked(key, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = PositionCheck.objects.filter(key=key).first()
        if row is not None and row.status == PositionCheck.Status.DONE:
            return row
        time.sleep(0.1)
    raise AssertionError(f"{key} was not checked: {PositionCheck.objects.filter(key=key).first()}")


def _badge(html):
    return re.findall(r'data-badge="([a-z_]+)"', html)


@pytest.fixture
def author():
    """Ada's browser (the ``client`` fixture is another person's)."""
    browser = Client()
    browser.force_login(_user("ada"))
    return browser


def _study_with_chapter(author, size="2x2"):
    response = author.post(
        "/studies/new",
        {"s-title": "Sacrifices", "s-description": "", "s-visibility": "public", "create": "1"},
    )
    study = Study.objects.get()
    assert response["Location"] == f"/studies/{study.slug}/edit"
    response = author.post(
        f"/studies/{study.slug}/edit", {"action": "chapter", "c-title": "One", "c-size": size}
    )
    assert response["Location"] == f"/studies/{study.slug}/1/edit"
    return study, study.chapters.get()


def _draw(author, study, chapter, at, edge):
    chapter.refresh_from_db()
    response = author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "draw", "at": at, "version": chapter.version, "edge": edge},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"].partition("?at=")[2]


def test_a_best_move_claim_the_solver_refutes_shows_the_better_move_then_a_fixed_one_is_proved(
    author,
):
    study, chapter = _study_with_chapter(author)
    board = Board(2, 2)
    values = solver.move_values(board)
    best_value = max(values.values())
    worst = min(values, key=lambda e: (values[e], str(e)))
    best = min((e for e in values if values[e] == best_value), key=str)
    assert values[worst] < best_value  # the 2 x 2 board has moves that give boxes away
    at = _draw(author, study, chapter, "", str(worst))
    chapter.refresh_from_db()
    author.post(
        f"/studies/{study.slug}/1/edit",
        {
            "action": "annotate",
            "at": at,
            "version": chapter.version,
            "comment": "Why?",
            "best": "1",
        },
    )
    _wait_checked(Board(2, 2).key())
    page = author.get(f"/studies/{study.slug}/1/edit?at={at}").content.decode()
    assert _badge(page)[0] == "refuted"
    better = [e for e in values if values[e] == best_value]
    shown = re.search(r"refuted: (\S+) is better", page)
    assert shown and shown.group(1) in {str(e) for e in better}
    # The author fixes it: the best move instead, marked best.
    chapter.refresh_from_db()
    author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "cut", "at": at, "version": chapter.version},
    )
    at = _draw(author, study, chapter, "", str(best))
    chapter.refresh_from_db()
    author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "annotate", "at": at, "version": chapter.version, "comment": "", "best": "1"},
    )
    page = author.get(f"/studies/{study.slug}/").content.decode()
    assert _badge(page) == ["proved"]


def test_a_value_claim_is_checked_against_blues_boxes_with_best_play(author):
    study, chapter = _study_with_chapter(author, size="2x1")
    board = Board(2, 1)
    truth = (board.num_boxes + solver.value(board)) // 2  # Blue moves first
    chapter.refresh_from_db()
    author.post(
        f"/studies/{study.slug}/1/edit",
        {
            "action": "annotate",
            "at": "",
            "version": chapter.version,
            "comment": "",
            "blue": truth + 1,
        },
    )
    _wait_checked(board.key())
    page = author.get(f"/studies/{study.slug}/1/edit").content.decode()
    assert f"refuted: with best play Blue ends with {truth} boxes" in page
    chapter.refresh_from_db()
    author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "annotate", "at": "", "version": chapter.version, "comment": "", "blue": truth},
    )
    assert _badge(author.get(f"/studies/{study.slug}/1/").content.decode())[0] == "proved"


def test_a_reader_signed_out_answers_the_question_on_the_server_and_steps_through_variations(
    author, client
):
    study, chapter = _study_with_chapter(author)
    text = (
        "Chapter: Q\nSize: 2 x 2 boxes (3 x 3 dots)\nQuestion: best\nQuestion: blue\n\n"
        "{Start here.} 1. a1-b1 {main} (1. a1-a2 {the other}) 2. b1-c1\n"
    )
    author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "text", "version": chapter.version, "text": text},
    )
    _wait_checked(Board(2, 2).key())
    client.logout()
    reader = client
    page = reader.get(f"/studies/{study.slug}/1/?at=1").content.decode()
    assert "the other" in page and 'aria-current="step"' in page
    page = reader.get(f"/studies/{study.slug}/1/?at=0.0").content.decode()
    assert 'data-at="0.0"' in page and "b1-c1" in page
    solution = solver.solve(Board(2, 2))
    wrong = next(e for e in Board(2, 2).legal_moves if e not in solution.best)
    reader.post(f"/studies/{study.slug}/1/answer", {"question": "1", "edge": str(wrong)})
    page = reader.get(f"/studies/{study.slug}/1/").content.decode()
    assert f"No: {wrong} gives away" in page
    reader.post(f"/studies/{study.slug}/1/answer", {"question": "1", "edge": str(solution.best[0])})
    blue = (4 + solution.value) // 2
    reader.post(f"/studies/{study.slug}/1/answer", {"question": "2", "answer": str(blue)})
    page = reader.get(f"/studies/{study.slug}/1/").content.decode()
    assert f"Right: {solution.best[0]} is a best move" in page
    assert f"Right: Blue takes {blue} boxes" in page
    assert ChapterProgress.objects.count() == 0  # signed out: kept in the session only


def test_a_signed_in_readers_answers_are_kept(author, client):
    study, chapter = _study_with_chapter(author)
    author.post(
        f"/studies/{study.slug}/1/edit",
        {
            "action": "text",
            "version": chapter.version,
            "text": "Chapter: Q\nSize: 2 x 2 boxes\nQuestion: best\n",
        },
    )
    _wait_checked(Board(2, 2).key())
    bo = _user("bo")
    client.force_login(bo)
    best = solver.solve(Board(2, 2)).best[0]
    client.post(f"/studies/{study.slug}/1/answer", {"question": "1", "edge": str(best)})
    assert ChapterProgress.objects.get(user=bo).answers == {"1": True}
    assert "1 question answered right" in client.get(f"/studies/{study.slug}/").content.decode()


def test_a_stale_edit_is_refused_and_loses_nothing(author):
    study, chapter = _study_with_chapter(author)
    _draw(author, study, chapter, "", "a1-b1")
    response = author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "draw", "at": "", "version": chapter.version - 0, "edge": "a1-a2"},
    )
    assert response.status_code == 400
    assert "changed meanwhile" in response.content.decode()
    chapter.refresh_from_db()
    assert [str(n.edge) for n in chapter.parsed().root.children] == ["a1-b1"]


def test_an_illegal_edge_gets_a_plain_message(author):
    study, chapter = _study_with_chapter(author)
    _draw(author, study, chapter, "", "a1-b1")
    chapter.refresh_from_db()
    response = author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "draw", "at": "0", "version": chapter.version, "edge": "a1-b1"},
    )
    assert response.status_code == 400 and "a1-b1" in response.content.decode()


def test_private_studies_are_hidden_and_only_the_owner_edits(author, client):
    study, _chapter = _study_with_chapter(author)
    Study.objects.filter(pk=study.pk).update(visibility="private")
    client.logout()
    assert client.get(f"/studies/{study.slug}/").status_code == 404
    client.force_login(_user("eve"))
    assert client.get(f"/studies/{study.slug}/1/").status_code == 404
    Study.objects.filter(pk=study.pk).update(visibility="unlisted")
    assert client.get(f"/studies/{study.slug}/1/").status_code == 200
    assert study.title not in client.get("/studies/").content.decode()
    assert client.get(f"/studies/{study.slug}/1/edit").status_code == 404
    chapter = Chapter.objects.get()
    response = client.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "draw", "at": "", "version": chapter.version, "edge": "a1-b1"},
    )
    assert response.status_code == 404


def test_a_study_exported_and_imported_is_the_same_study_and_copies_belong_to_the_copier(
    author, client
):
    study, chapter = _study_with_chapter(author)
    text = (
        "Chapter: Q\nSize: 2 x 2 boxes (3 x 3 dots)\nQuestion: control red\n\n"
        "{Start.} 1. a1-b1 ! {main} (1. a1-a2 {the other} [blue 2]) 2. b1-c1\n"
    )
    author.post(
        f"/studies/{study.slug}/1/edit",
        {"action": "text", "version": chapter.version, "text": text},
    )
    exported = author.get(f"/studies/{study.slug}/export.txt").content.decode()
    author.post("/studies/new", {"i-text": exported, "import": "1"})
    again = Study.objects.exclude(pk=study.pk).get()
    assert again.as_notation() == Study.objects.get(pk=study.pk).as_notation()
    client.force_login(_user("bo"))
    response = client.post(f"/studies/{study.slug}/copy")
    copy = Study.objects.get(owner__username="bo")
    assert response["Location"] == f"/studies/{copy.slug}/edit"
    assert copy.visibility == "private" and copy.copied_from_id == study.pk
    assert copy.as_notation() == study.as_notation()


def test_a_chapter_from_a_finished_game_starts_at_the_ply_and_follows_the_game(author):
    from tests.gamefactory import played_game

    game = played_game(width=2, height=2, status="finished")
    study, _chapter = _study_with_chapter(author)
    edges = list(game.moves.order_by("ply").values_list("edge", flat=True))
    response = author.post(
        f"/studies/{study.slug}/edit",
        {"action": "chapter", "c-title": "From the game", "c-game": game.public_id, "c-ply": 3},
    )
    assert response.status_code == 302, response.content.decode()[:800]
    parsed = Chapter.objects.get(number=2).parsed()
    assert parsed.start_key == game.board(ply=3).key()
    main = [str(n.edge) for n in parsed.root.walk() if n.edge]
    assert main == edges[3:]


def test_the_embed_is_an_svg_image_linking_to_the_chapter(author, client):
    study, _chapter = _study_with_chapter(author)
    response = client.get(f"/studies/{study.slug}/1.svg")
    assert response["Content-Type"].startswith("image/svg+xml")
    body = response.content.decode()
    assert body.startswith("<svg") and f"/studies/{study.slug}/1/" in body


def test_staff_unlist_a_reported_study(author, client):
    study, _chapter = _study_with_chapter(author)
    client.force_login(_user("staff", is_staff=True))
    client.post(f"/studies/{study.slug}/staff", {"action": "unlist"})
    study.refresh_from_db()
    assert study.unlisted_by_staff and not study.is_listed
    assert study.title not in client.get("/studies/").content.decode()
    author.post(
        f"/studies/{study.slug}/edit",
        {
            "action": "settings",
            "s-title": study.title,
            "s-description": "",
            "s-visibility": "public",
        },
    )
    study.refresh_from_db()
    assert not study.is_listed  # the owner cannot list it again
    assert author.post(f"/studies/{study.slug}/staff", {"action": "relist"}).status_code == 404


def test_claims_list_the_positions_the_solver_settles(author):
    chapter = Chapter(
        title="x",
        text="Chapter: x\nSize: 2 x 1 boxes\nQuestion: best a1-b1\n\n"
        "[blue 1] 1. a1-b1 ! [blue 2]\n",
    )
    found = checks.claims(chapter.parsed())
    after = Board(2, 1)
    after.play("a1-b1")
    assert [(c.kind, c.key, c.path) for c in found] == [
        ("best", "2x1.0.0.b", ""),
        ("blue", "2x1.0.0.b", ""),
        ("best", "2x1.0.0.b", "0"),
        ("blue", after.key(), "0"),
    ]


def test_a_study_is_reported_like_a_game_and_staff_review_it_beside_its_board(author, client):
    from dotsboxes.reports.models import Report

    study, _chapter = _study_with_chapter(author)
    client.logout()
    page = client.get(f"/studies/{study.slug}/").content.decode()
    assert f"/reports/new/?study={study.slug}" in page
    response = client.post(
        f"/reports/new/?study={study.slug}", {"category": "study", "text": "This lesson is spam."}
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.study, report.game, report.ply) == (study, None, 1)
    assert report.position_key == Board(2, 2).key()
    staff = Client()
    staff.force_login(_user("staff", is_staff=True))
    queue = staff.get("/reports/").content.decode()
    assert "Study: Sacrifices" in queue
    detail = staff.get(f"/reports/{report.pk}/").content.decode()
    assert "This lesson is spam." in detail and f"/studies/{study.slug}/staff" in detail
    staff.post(f"/studies/{study.slug}/staff", {"action": "unlist"})
    assert not Study.objects.get().is_listed
    assert client.get(f"/reports/{report.pk}/").status_code in (302, 404)


def test_staff_feature_a_public_study_in_the_guide(author, client):
    study, _chapter = _study_with_chapter(author)
    assert study.title not in client.get("/learn/studies/").content.decode()
    client.force_login(_user("staff", is_staff=True))
    client.post(f"/studies/{study.slug}/staff", {"action": "feature"})
    guide = client.get("/learn/studies/").content.decode()
    assert study.title in guide and study.get_absolute_url() in guide
    Study.objects.filter(pk=study.pk).update(visibility="private")
    assert study.title not in client.get("/learn/studies/").content.decode()


def test_the_author_draws_with_the_analysis_boards_values_beside_the_board(author):
    study, _chapter = _study_with_chapter(author)
    values = solver.move_values(Board(2, 2))
    best = max(values.values())
    deadline = time.monotonic() + 60
    while True:
        page = author.get(f"/studies/{study.slug}/1/edit").content.decode()
        if "Values for Blue:" in page and "estimate" not in page.split("Values for Blue:")[1][:600]:
            break
        assert time.monotonic() < deadline, "the values never came"
        time.sleep(0.3)
    shown = page.split("Values for Blue:")[1].split("</p>")[0]
    top = min((e for e in values if values[e] == best), key=lambda e: str(e))
    assert f"{top} {best:+d} (best)" in shown
