"""Test-wide settings.

Hypothesis runs derandomized (the same examples on every run, so CI never flakes) and without its
per-example deadline: no test in this suite depends on timing.

The PostgreSQL server and the ``postgres_server``, ``postgres_url`` and ``store_url`` fixtures come
from the plugin ``tests/postgres.py``.

With pytest-xdist (``make test``: ``pytest -n auto``, ``--dist loadfile`` from pyproject.toml) the
tests of a file run on one worker, so a module-scoped fixture (two demo sessions played side by
side, a community copied between stores) is made once per run, not once per worker. (``loadgroup``
with an ``xdist_group`` per fixture did that at a finer grain until pytest 9.2, whose node ids
pytest-xdist 3.8 can no longer suffix with the group: every such fixture was then made on both
workers.)
"""

import sys
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.append(str(Path(__file__).resolve().parent))     # the plugin below is tests/postgres.py
pytest_plugins = ["postgres"]

settings.register_profile("skirmish", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("skirmish")


_SHARED_SCOPES = ("module", "class", "package")
_TESTS = Path(__file__).resolve().parent


def _uses_a_shared_fixture(item) -> bool:
    """Whether a test uses a shared (module-, class- or package-scoped) fixture of the suite's own."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for name in info.names_closure:
        definitions = info.name2fixturedefs.get(name) or ()
        if not definitions or definitions[-1].scope not in _SHARED_SCOPES:
            continue
        code = getattr(definitions[-1].func, "__code__", None)
        if code is not None and Path(code.co_filename).is_relative_to(_TESTS):     # not a plugin's
            return True
    return False


def pytest_collection_modifyitems(config, items) -> None:
    """In an xdist worker the tests that use a shared fixture come first: their fixtures are the
    longest single pieces of the run (demo sessions), so the files holding them are handed out
    first and start at once, while the other worker takes the short tests, instead of making the
    run's long tail. (``--dist loadfile`` keeps a file's tests on one worker, so each such fixture
    is made once per run.)"""
    if not hasattr(config, "workerinput"):      # only the order of a distributed run changes
        return
    shared = [item for item in items if _uses_a_shared_fixture(item)]
    if shared:
        first = set(map(id, shared))
        items[:] = shared + [item for item in items if id(item) not in first]
