"""Territory (RULES.md 5.4): the two-player draft-and-place game, strictly turn based.

A second engine family beside the simultaneous one. It reuses the board (``engine/board.py``), Betza
movement (``engine/betza.py``), the notation lexer (``engine/notation.py``) and the report
(``engine/report.py``), not the simultaneous pipeline:

    layout.py      the ruleset's [layout] and [draft] tables (5.4.1, 5.4.3), read and checked
    state.py       what a territory game keeps besides the board: reserves, draft area, bag, ...
    notation.py    5.4.7: parsing a submission and printing its canonical echo
    pieces.py      control, freezing, Shields, Lotus boxes and every piece's ability (5.4.4 to 5.4.6)
    turn.py        one turn (5.4.2 to 5.4.6, 5.4.10): check a submission, play it, refill, verdict
    scenario.py    the scenario additions of 5.4.9 (read, compare, print) and ``moves``
    trace.py       what a turn did, read back from its report, for the board picture's arrows

The variant that answers the program's questions is ``engine/variants/territory.py``. This package's
``__init__`` imports nothing, so that the ruleset loader may read the layout from below.
"""
