"""Named fault points for crash-safety tests.

``fault_point("after_commit", update_no)`` does nothing unless the environment variable
``SKIRMISH_FAULT`` names that point, in which case the process kills itself with SIGKILL on the
spot (no clean-up, no flushing: exactly like a power cut). ``SKIRMISH_FAULT_UPDATE=N`` limits it to
update N. Points: ``after_claim``, ``after_engine``, ``after_commit``, ``mid_publish``.
"""

from __future__ import annotations

import os
import signal

__all__ = ["fault_point", "FAULT_POINTS"]

FAULT_POINTS = ("after_claim", "after_engine", "after_commit", "mid_publish")


def fault_point(name: str, update_no: int | None = None) -> None:
    if name not in FAULT_POINTS:
        raise ValueError(f"unknown fault point {name!r}")
    if os.environ.get("SKIRMISH_FAULT") != name:
        return
    wanted = os.environ.get("SKIRMISH_FAULT_UPDATE")
    if wanted is not None and update_no is not None and int(wanted) != update_no:
        return
    os.kill(os.getpid(), signal.SIGKILL)
