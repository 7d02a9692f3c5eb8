"""Test-wide settings.

Hypothesis runs derandomized (the same examples on every run, so CI never flakes) and without its
per-example deadline: no test in this suite depends on timing.

The PostgreSQL server and the ``postgres_server``, ``postgres_url`` and ``store_url`` fixtures come
from the plugin ``tests/postgres.py``.
"""

import sys
from pathlib import Path

from hypothesis import settings

sys.path.append(str(Path(__file__).resolve().parent))     # the plugin below is tests/postgres.py
pytest_plugins = ["postgres"]

settings.register_profile("skirmish", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("skirmish")
