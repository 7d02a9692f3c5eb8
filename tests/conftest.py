"""Test-wide settings.

Hypothesis runs derandomized (the same examples on every run, so CI never flakes) and without its
per-example deadline: no test in this suite depends on timing.
"""

from hypothesis import settings

settings.register_profile("skirmish", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("skirmish")
