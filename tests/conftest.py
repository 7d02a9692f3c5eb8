"""Test-wide settings.

Hypothesis runs derandomized (the same examples on every run, so CI never flakes) and without its
per-example deadline: no test in this suite depends on timing.

The PostgreSQL server and the ``postgres_server``, ``postgres_url`` and ``store_url`` fixtures come
from the plugin ``tests/postgres.py``.

With pytest-xdist (``make test``: ``pytest -n auto``, ``--dist loadgroup`` from pyproject.toml) the
tests that share a module-scoped fixture (two demo sessions played side by side, a community copied
between stores) run on one worker, so each such fixture is made once per run, not once per worker;
every other test goes to whichever worker is free.
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


def pytest_collection_modifyitems(config, items) -> None:
    """Group each test that uses a shared (module-, class- or package-scoped) fixture of the suite
    under that fixture's name, for pytest-xdist's ``loadgroup``: its tests go to one worker. In an
    xdist worker the grouped tests also come first: their fixtures are the longest single pieces of
    the run (demo sessions played on real deadlines), so they start at once, while the other worker
    takes the short tests, instead of making the run's long tail."""
    grouped = []
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        for name in sorted(info.names_closure):
            definitions = info.name2fixturedefs.get(name) or ()
            if not definitions or definitions[-1].scope not in _SHARED_SCOPES:
                continue
            where = Path(getattr(definitions[-1].func, "__code__", None).co_filename) \
                if hasattr(definitions[-1].func, "__code__") else None
            if where is not None and where.is_relative_to(_TESTS):     # the suite's own, not a plugin's
                item.add_marker(pytest.mark.xdist_group(f"{where.stem}.{name}"))
                grouped.append(item)
                break
    if hasattr(config, "workerinput") and grouped:       # only the order of a distributed run changes
        first = set(map(id, grouped))
        items[:] = grouped + [item for item in items if id(item) not in first]
