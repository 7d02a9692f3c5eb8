"""The offline demo session: ``python -m bot demo`` (INTERFACES.md, "Command line").

A whole play-by-post game with simulated players, no Discord and no token. It goes through the
same path as the bot: :class:`~bot.service.Service` over a SQLite file, the real
:class:`~bot.scheduler.GameScheduler` firing at deadlines a few seconds apart, and the outbox
delivered by :class:`~bot.service.OutboxRelay` to files (``DIR/posts/0001/board.png``, ...). It
plays until the game's verdict or ``--updates``, whichever comes first.

Its parts, one concern each:

* the players' policy, one planner per game family (:mod:`.planners` picks it by the variant's
  family): pure functions of the position players saw, the update number and the seed. Same seed,
  same orders, same posts.

  - :mod:`.simultaneous` (neisg, sandbox): players join, place kings, generate, capture, dodge,
    collide, play fallbacks (``A else B``), slip and order by direct message;
  - :mod:`.arena` (Chess Arena): seated players move ``1 + kings`` pieces a round, answer checks,
    chase power-ups, place new pieces, sometimes collide (M.A.D.) or send a wrong count;
  - :mod:`.megachess`: players join over time far from their enemies, move many pieces on their
    team's updates, take kings and their armies, collect bonus pieces and leave far pieces to fade;
  - :mod:`.territory`: two seated players take turns: the active one moves or uses an ability, then
    places from the reserve or drafts, fighting for the territories and the goal; each candidate is
    tried with the variant's ``resolve`` and the submission checked before it is sent;

* the session driver (:mod:`.session`, :func:`run_demo`): creates the game (seats first where the
  variant seats players before the start) or continues the unfinished one found in
  ``DIR/skirmish.sqlite3`` (a demo killed at any point resumes where it stopped), submits each
  update's orders as soon as the board is posted, and waits for the scheduler to resolve it;
* the summary (:mod:`.summary`): counts read back from the stored updates, how the game ended (its
  verdict, or cut short), and which counts the session should have produced (a zero there is a
  failure: exit status 1).
"""

from __future__ import annotations

from .common import (DATABASE, INTERVAL_SECONDS, POSTS, DemoError, DemoOptions, Intent, Planner, SimulatedPlayer,
                     cast)
from .planners import PLANNERS, planner_for
from .session import main, run_demo, seat_count
from .simultaneous import plan_update
from .summary import Summary

__all__ = ["DATABASE", "INTERVAL_SECONDS", "POSTS", "DemoError", "DemoOptions", "Intent", "Planner", "PLANNERS",
           "SimulatedPlayer", "Summary", "cast", "main", "plan_update", "planner_for", "run_demo", "seat_count"]
