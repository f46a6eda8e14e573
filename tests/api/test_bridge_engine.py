"""The bridge's engine client reads the protocol as documented: it skips lines it does not know."""

from __future__ import annotations

import shlex
import sys

import pytest

from dotsboxes.bot.engine import Engine, EngineError

# An engine that says more than our own: info lines and a line of its own before each answer.
CHATTY = """
import sys
for line in sys.stdin:
    word = line.split()[0]
    print("info string thinking", flush=True)
    print("id name Chatty 1.0", flush=True)
    if word == "go":
        print("bestmove a1-b1", flush=True)
    elif word == "play" and "z9-z10" in line:
        print("error no such edge", flush=True)
    else:
        print("ok", flush=True)
"""


def chatty() -> Engine:
    return Engine(f"{shlex.quote(sys.executable)} -c {shlex.quote(CHATTY)}")


def test_lines_an_engine_adds_before_its_answer_are_skipped():
    engine = chatty()
    try:
        engine.sync(2, 2, ["b1-c1"])
        assert engine.go() == "a1-b1"
        with pytest.raises(EngineError, match="no such edge"):
            engine.sync(2, 2, ["b1-c1", "z9-z10"])
    finally:
        engine.close()


def test_our_engine_answers_through_its_info_lines():
    engine = Engine(f"{shlex.quote(sys.executable)} -m dotsboxes.engine")
    try:
        engine.sync(2, 2, ["a1-b1"])
        edge = engine.go("level master movetime 200")
        assert edge != "a1-b1" and "-" in edge
    finally:
        engine.close()
