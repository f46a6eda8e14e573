"""An engine subprocess that speaks our text protocol (``size``, ``play``, ``go``)."""

from __future__ import annotations

import shlex
import subprocess


class EngineError(RuntimeError):
    """The engine answered ``error …``, or stopped."""


class Engine:
    """One engine process for one game; it keeps its own copy of the position.

    The bridge sends only the edges drawn since it last spoke (``play``), so an
    engine that keeps tables from move to move (our master does) keeps them."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.size: tuple[int, int] | None = None
        self.moves: list[str] = []

    def _ask(self, line: str, expect: str) -> str:
        """Send one command; return its answer line, the first that starts with ``expect``.

        Every other line is skipped: ``info`` lines, and any line an engine adds
        that we do not know (the protocol allows both, see
        :mod:`dotsboxes.engine.protocol`).  ``error …`` raises.
        """
        assert self.process.stdin and self.process.stdout
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise EngineError("the engine stopped") from None
        while True:
            answer = self.process.stdout.readline()
            if not answer:
                raise EngineError(f"the engine stopped after {line!r}")
            word = answer.split(maxsplit=1)[0] if answer.strip() else ""
            if word == "error":
                raise EngineError(f"{line!r}: {answer.strip()}")
            if word == expect:
                return answer.strip()

    def sync(self, width: int, height: int, moves: list[str]) -> None:
        """Bring the engine's board to ``moves`` on a ``width`` x ``height`` board."""
        same_start = self.size == (width, height) and moves[: len(self.moves)] == self.moves
        if not same_start:  # a new game, or a take-back: start the board again
            self._ask(f"size {width} {height}", "ok")
            self.size, self.moves = (width, height), []
        new = moves[len(self.moves) :]
        if new:
            self._ask("play " + " ".join(new), "ok")
            self.moves = list(moves)

    def go(self, options: str = "") -> str:
        """The engine's edge for the side to move."""
        answer = self._ask(f"go {options}".strip(), "bestmove")
        _word, _sep, edge = answer.partition(" ")
        if not edge.strip():
            raise EngineError(f"expected 'bestmove E', got {answer!r}")
        return edge.strip()

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin
                self.process.stdin.write("quit\n")
                self.process.stdin.close()
                self.process.wait(timeout=5)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                self.process.kill()
