"""Garbage collection for a long-lived server process holding thousands of sockets.

A full (generation 2) collection walks every object the collector tracks and has
not frozen.  A server holding 6,000 WebSockets tracks hundreds of megabytes of
them, and its full collections, every few seconds while sockets come and go,
stopped the whole event loop for up to 1.1 s: that was the p99 of the
1,000-room benchmark (0.97 s, with the machine 41 % busy).

So after each full collection its survivors are frozen (:func:`gc.freeze`): they
have lived through a full collection and are the process's long-lived state (its
rooms' sockets, Django's and the libraries' own objects).  The next full collection
walks only what was made since.  The price: an object frozen while alive that
later becomes garbage *in a reference cycle* is not reclaimed while frozen (plain
garbage is still freed at once by reference counting).  So every
``refreeze_seconds`` the frozen objects are handed back (:func:`gc.unfreeze`), and
the next full collection walks everything once, frees those cycles and freezes the
rest again: one long pause every few minutes instead of one every few seconds.
"""

from __future__ import annotations

import gc
import time

_installed: list = []  # the callback, while installed (tests take it out again)


def install(refreeze_seconds: float = 600.0, clock=time.monotonic) -> None:
    """Freeze what exists now and what survives each full collection from now on.

    ``clock`` tells the seconds (the tests pass their own, so that a loaded machine's
    pauses cannot make a refreeze due twice)."""
    if _installed or refreeze_seconds <= 0:
        return
    last_refreeze = [clock()]

    def after_full_collection(phase: str, info: dict) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        now = clock()
        if now - last_refreeze[0] >= refreeze_seconds:
            last_refreeze[0] = now
            gc.unfreeze()  # the next full collection walks (and frees) everything
        else:
            gc.freeze()

    gc.freeze()  # everything loaded at startup lives as long as the process
    gc.callbacks.append(after_full_collection)
    _installed.append(after_full_collection)


def uninstall() -> None:
    """Stop the policy and hand every frozen object back to the collector."""
    while _installed:
        gc.callbacks.remove(_installed.pop())
    gc.unfreeze()
