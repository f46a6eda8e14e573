"""``python -m dotsboxes.engine``: the line protocol on stdin and stdout.

See :mod:`dotsboxes.engine.protocol` and docs/ENGINE.md ("The engine protocol") for the commands.
"""

from __future__ import annotations

import contextlib
import sys

from .protocol import serve


def main() -> None:
    """Serve the protocol until ``quit`` or the end of input."""
    with contextlib.suppress(KeyboardInterrupt):
        serve(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
