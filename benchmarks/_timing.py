"""Timing and memory helpers shared by the benchmark scripts."""

from __future__ import annotations

import gc
import math
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Collect once, then keep the garbage collector out of the timed region."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def percentile(sorted_values: list[int], p: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = min(len(sorted_values), max(1, math.ceil(p / 100 * len(sorted_values))))
    return sorted_values[rank - 1]


def status_kib(field: str) -> int | None:
    """A field of ``/proc/self/status`` in KiB (``VmRSS``, ``VmHWM``); None off Linux."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def reset_peak() -> int | None:
    """Reset the process's resident high-water mark (Linux ``clear_refs``), so the next ``VmHWM``
    is the peak from now on; returns the resident size now (KiB), None where it cannot."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return None
    return status_kib("VmRSS")
