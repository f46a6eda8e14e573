"""The servers' garbage-collection policy (dotsboxes/gcpolicy.py)."""

from __future__ import annotations

import gc
import weakref

import pytest

from dotsboxes import gcpolicy


@pytest.fixture
def policy():
    gcpolicy.uninstall()  # a server process installs it at import; tests start clean
    yield gcpolicy
    gcpolicy.uninstall()


class Clock:
    """Seconds that pass only when the test says so (a loaded CI machine paused for
    over the refreeze period between two collections, and the second refroze too)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_survivors_of_a_full_collection_are_frozen_and_handed_back_later(policy):
    clock = Clock()
    policy.install(refreeze_seconds=600, clock=clock)
    kept = [Node() for _ in range(1000)]  # long-lived state, made after startup
    before = gc.get_freeze_count()
    gc.collect()
    assert gc.get_freeze_count() >= before + len(kept)  # survivors frozen: not walked again
    clock.now += 601
    gc.collect()  # the refreeze is due: everything is handed back ...
    assert gc.get_freeze_count() == 0
    gc.collect()  # ... the next full collection walks it all, then freezes again
    assert gc.get_freeze_count() >= len(kept)


def test_a_cycle_frozen_alive_is_freed_after_the_refreeze(policy):
    clock = Clock()
    policy.install(refreeze_seconds=600, clock=clock)
    a, b = Node(), Node()
    a.other, b.other = b, a  # a cycle: only the collector can free it
    gc.collect()  # it survives (still referenced) and is frozen
    ref = weakref.ref(a)
    del a, b  # now garbage, but frozen: no collection sees it
    gc.collect()
    assert ref() is not None
    clock.now += 601
    gc.collect()  # the refreeze hands it back
    gc.collect()  # and this collection frees it
    assert ref() is None


def test_off_with_zero_seconds(policy):
    policy.install(refreeze_seconds=0)
    gc.collect()
    assert gc.get_freeze_count() == 0
