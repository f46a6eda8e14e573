"""The line protocol, in process and through the real ``python -m dotsboxes.engine``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dotsboxes.engine.protocol import Session
from dotsboxes.rules import Board

ROOT = Path(__file__).resolve().parents[2]
SOLVE_INFO = re.compile(r"info nodes \d+ time \d+")
INFO = re.compile(r"info value (-?\d+|\?) (exact|estimate) nodes \d+ time \d+")


@pytest.fixture
def session():
    return Session()


def test_a_session_starts_on_an_empty_five_by_five_board(session):
    assert (session.board.width, session.board.height) == (5, 5)
    assert session.handle("analyse").startswith("Blue to move, 60 safe edges")


def test_size_play_and_undo_change_the_position(session):
    assert session.handle("size 3 2") == "ok"
    assert (session.board.width, session.board.height) == (3, 2)
    assert session.handle("play a1-b1 B2-b1") == "ok"
    assert [str(e) for e in session.board.move_stack] == ["a1-b1", "b1-b2"]
    assert session.handle("undo") == "ok"
    assert [str(e) for e in session.board.move_stack] == ["a1-b1"]


def test_go_answers_a_legal_edge_for_each_level(session):
    session.handle("size 3 3")
    for level in ("beginner", "casual", "club", "expert", "master"):
        answer = session.handle(f"go level {level} movetime 50")
        word, edge = answer.splitlines()[-1].split()
        assert word == "bestmove"
        assert session.board.parse_edge(edge) in session.board.legal_moves


def test_go_takes_an_offered_box(session):
    session.handle("size 2 1")
    session.handle("play a1-b1 a2-b2 a1-a2")
    assert session.handle("go movetime 100").splitlines()[-1] == "bestmove b1-b2"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("jump", "unknown command 'jump'"),
        ("size 3", "size takes two whole numbers"),
        ("size 10 3", "must be 1 to 9 boxes"),
        ("play", "needs at least one edge"),
        ("play a1-c1", "not neighbours"),
        ("play a1-b1 a1-b1", "already drawn"),
        ("play a1-b1 z9-z10", "off every board"),
        ("go level grandmaster", "unknown level 'grandmaster'"),
        ("go movetime soon", "movetime is whole milliseconds"),
        ("go movetime 0", "movetime is whole milliseconds"),
        ("go level", "name-value pairs"),
        ("go speed 3", "does not take 'speed'"),
        ("solve level master", "does not take 'level'"),
        ("undo", "nothing to undo"),
        ("analyse now", "takes no arguments"),
    ],
)
def test_bad_input_is_an_error_line_and_leaves_the_position_unchanged(session, line, message):
    session.handle("size 3 3")
    before = session.board.key()
    answer = session.handle(line)
    assert answer.startswith("error ") and message in answer, answer
    assert "\n" not in answer
    assert session.board.key() == before
    assert (session.board.width, session.board.height) == (3, 3)


def test_go_on_a_finished_game_is_an_error(session):
    session.handle("size 1 1")
    session.handle("play a1-b1 a2-b2 a1-a2 b1-b2")
    assert session.handle("go").startswith("error the game is over")


def test_solve_a_finished_game_is_worth_nothing(session):
    session.handle("size 1 1")
    session.handle("play a1-b1 a2-b2 a1-a2 b1-b2")
    # The same two lines as every solve: a program reading the info line first is not thrown.
    assert session.handle("solve") == "info nodes 0 time 0\nvalue 0 best"


def test_solve_answers_a_value_with_best_moves_or_unknown(session):
    session.handle("size 2 1")
    info, answer = session.handle("solve movetime 2000").splitlines()
    assert SOLVE_INFO.fullmatch(info), info
    if answer.startswith("unknown"):  # only without the exact solver
        pytest.importorskip("dotsboxes.engine.solver")
        pytest.fail("the solver could not solve 2 x 1 boxes in 2 seconds")
    words = answer.split()
    assert words[:3] == ["value", "0", "best"]  # 2 x 1 boxes: a tie with best play
    assert len(words) > 3


def test_the_engine_runs_as_a_program_and_answers_line_by_line():
    commands = [
        "size 3 3",
        "play b2-c2",
        "analyse",
        "go level club movetime 100",
        "play a1-a3",
        "undo",
        "",
        "go level master movetime 200",
        "quit",
        "analyse",  # after quit: never answered
    ]
    result = subprocess.run(
        [sys.executable, "-m", "dotsboxes.engine"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 8
    assert lines[:2] == ["ok", "ok"]
    assert lines[2].startswith("Red to move, 23 safe edges")
    assert lines[3].startswith("bestmove ")
    assert lines[4].startswith("error 'a1-a3' is not an edge")
    assert lines[5] == "ok"
    assert INFO.fullmatch(lines[6]), lines[6]  # the master says what it knows first
    assert lines[7].startswith("bestmove ")
    board = Board(3, 3)
    board.play("b2-c2")
    assert board.parse_edge(lines[7].split()[1]) in board.legal_moves


def test_the_program_flushes_each_answer_before_reading_the_next_command():
    proc = subprocess.Popen(
        [sys.executable, "-m", "dotsboxes.engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        proc.stdin.write("size 2 2\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "ok\n"  # would hang without a flush
        proc.stdin.write("go level casual\n")
        proc.stdin.flush()
        assert proc.stdout.readline().startswith("bestmove ")
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_the_documented_example_session_is_what_the_engine_answers():
    readme = (ROOT / "docs" / "ENGINE.md").read_text()
    start = readme.index("An example session")
    block = readme[readme.index("```\n", start) + 4 : readme.index("\n```", start)]
    commands, expected = [], []
    for line in block.splitlines():
        if line.startswith("> "):
            commands.append(line[2:])
        else:
            expected.append(line)
    result = subprocess.run(
        [sys.executable, "-m", "dotsboxes.engine"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    answers = result.stdout.splitlines()
    assert len(answers) == len(expected)
    for got, want in zip(answers, expected, strict=True):
        if want.startswith("bestmove"):  # a timed search: only its shape is certain
            assert got.startswith("bestmove ")
        elif want.startswith("info value"):  # nodes and milliseconds vary
            assert INFO.fullmatch(got), got
            assert got.split()[:4] == want.split()[:4]
        elif want.startswith("info nodes"):
            assert SOLVE_INFO.fullmatch(got), got
        else:
            assert got == want


def test_the_master_says_its_value_is_exact_when_the_solver_proved_it(session):
    # 2 x 2 boxes, solved at once: the first player takes 3 of 4 with best play.
    session.handle("size 2 2")
    info, best = session.handle("go movetime 500").splitlines()
    assert INFO.fullmatch(info), info
    assert info.split()[2:4] == ["2", "exact"]
    assert best.startswith("bestmove ")


def test_the_master_labels_a_search_value_an_estimate(session):
    # An empty 5 x 5 board in 20 ms: far out of the solver's reach.
    info, best = session.handle("go movetime 20").splitlines()
    assert INFO.fullmatch(info), info
    assert info.split()[3] == "estimate"
    assert session.board.parse_edge(best.split()[1]) in session.board.legal_moves


def test_an_unfinished_solve_gives_the_bounds_it_proved(session):
    info, answer = session.handle("solve movetime 1").splitlines()
    assert SOLVE_INFO.fullmatch(info), info
    words = answer.split()
    assert words[0] == "unknown"
    assert words[1] == "lower" and words[3] == "upper"
    assert -25 <= int(words[2]) <= int(words[4]) <= 25


def test_the_session_keeps_the_solver_table_across_moves(session):
    # After the master's first move, the opponent's reply is answered from what
    # the first move proved: far fewer nodes than the same position cold.
    session.handle("size 3 2")
    info, best = session.handle("go movetime 3000").splitlines()
    assert info.split()[3] == "exact"
    session.handle("play " + best.split()[1])
    warm = session.handle("go movetime 3000").splitlines()[0]
    cold = Session()
    cold.handle("size 3 2")
    cold.handle("play " + best.split()[1])
    fresh = cold.handle("go movetime 3000").splitlines()[0]
    assert warm.split()[3] == fresh.split()[3] == "exact"
    assert warm.split()[2] == fresh.split()[2]  # the same proved value
    assert int(warm.split()[5]) < int(fresh.split()[5]) / 2


@pytest.mark.parametrize(
    "line",
    [
        "go movetime",
        "go movetime 0",
        "go movetime -5",
        "go movetime 1.5",
        "go level",
        "go depth 3",
        "solve movetime abc",
        "solve level master",
        "undo now",
        "analyse please",
        "size -1 2",
        "size 0 0",
        "play e1-e",
    ],
)
def test_more_bad_input_still_answers_error_and_keeps_the_position(session, line):
    session.handle("size 3 3")
    session.handle("play a1-b1")
    before = session.board.key()
    answer = session.handle(line)
    assert answer.startswith("error "), answer
    assert session.board.key() == before


@pytest.mark.parametrize("backend", ["python", "native"])
def test_id_names_the_engine_its_version_and_the_solver_core(backend):
    from dotsboxes.engine import _backend

    if backend == "native" and _backend.native is None:
        pytest.skip("the C extension was not built")
    env = {**__import__("os").environ, "DOTSBOXES_ENGINE_BACKEND": backend}
    run = subprocess.run(
        [sys.executable, "-m", "dotsboxes.engine"],
        input="id\nsize 2 2\nsolve\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=True,
    )
    lines = run.stdout.splitlines()
    assert re.fullmatch(rf"id name dotsboxes version [\w.]+ backend {backend}", lines[0])
    assert lines[-1].startswith("value 2 best ")
    assert Session().handle("id extra") == "error id takes no arguments"
