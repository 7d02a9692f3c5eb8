"""Issue 25: the large work of an update (reading a position, the engine, the posts) runs with the heap
frozen and the cyclic garbage collector off (``frozen``), and leaves the collector as it found it.

No collection runs during the work (each would walk the large containers it builds); nothing stays
frozen after it; a cycle it made is still collected afterwards; an error leaves things the same.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from bot.service.base import frozen


class Node:
    def __init__(self) -> None:
        self.other = None


def build_containers(count: int) -> list:
    """Enough young containers to trigger collections many times over."""
    return [{"n": [i]} for i in range(count)]


@pytest.fixture
def collections():
    seen = []

    def on_gc(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(on_gc)
    yield seen
    gc.callbacks.remove(on_gc)


def test_no_collection_runs_during_the_work_and_the_collector_is_back_after(collections):
    assert gc.isenabled()
    made = frozen(build_containers, 50_000)
    assert len(made) == 50_000 and collections == []
    assert gc.isenabled() and gc.get_freeze_count() == 0
    build_containers(50_000)
    assert collections                  # the collector runs again


def test_a_cycle_made_during_the_work_is_collected_afterwards():
    def make_cycle():
        a, b = Node(), Node()
        a.other, b.other = b, a
        return weakref.ref(a)

    ref = frozen(make_cycle)
    assert ref() is not None            # not collected during the work
    gc.collect()
    assert ref() is None                # nor leaked


def test_an_error_in_the_work_leaves_the_collector_as_it_was():
    def fail():
        raise RuntimeError("the renderer failed")

    with pytest.raises(RuntimeError):
        frozen(fail)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        with pytest.raises(RuntimeError):
            frozen(fail)
        assert not gc.isenabled() and gc.get_freeze_count() == 0     # left off, as it was found
    finally:
        gc.enable()
