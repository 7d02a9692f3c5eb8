"""The application: every use case a front end (Discord, the demo, tests) calls.

``Service(store, clock=...)`` offers, grouped by module:

- :mod:`.games`: create, configure, start, pause, resume and end a game; join; listings;
- :mod:`.orders`: submit (validated at once, D6), replace, cancel and look up orders;
- :mod:`.updates`: lock and unlock, ``resolve_if_due`` (idempotent), extend, roll back, history, replay;
- :mod:`.claims`: the service's identity, heartbeat (``start``, ``stop``) and the claims of dead holders;
- :mod:`.moderation`: edits of the position (each a new snapshot revision, audited), kick, announce;
- :mod:`.oversight`: the audit log in words, undo of the last edit, a seat given to another member;
- :mod:`.views`: the board, the health board, a player's own view, who has ordered;
- :mod:`.deliveries`: for moderators, the game's posts that failed and why, and delivering them again;
- :mod:`.notifications`: the game's notification role and the players' direct-message reminders;
- :mod:`.suggestions`: the orders a player may send now, as they type them (autocomplete);
- :mod:`.teams`: in a game of teams, the roster each team's private thread is kept to;
- :mod:`.viewer`: the web viewer's reads: resolved updates, their tiles, squares and search;
- :mod:`.careers`: ratings per server and family, leaderboards, profiles, careers in endless games.

Front ends (the cogs, the web viewer) import this package and nothing under it: what they need of
the store or the engine is handed over here (:class:`~bot.store.Game`, the row a game is;
:func:`~.games.playable_rulesets`; :func:`~.games.colour_choices`; ``Service.event_names``).

Each use case is one transaction under the game's lock, scoped by game id, and raises a
:class:`~.errors.ServiceError` (nothing changed) for bad input. Posts go to the outbox, delivered by
:class:`~.publishing.OutboxRelay` through a :class:`~.publishing.Publisher`.
"""

from .actors import Moderator
from .base import Clock, utc_now
from .careers import Career, CareerCases, Leaderboard, Profile, Rating
from .deliveries import DeliveryCases, PostTrouble
from .errors import Conflict, InvalidInput, NotAllowed, NotFound, NotSignedIn, OrderRefused, ServiceError, WrongTime
from bot.store import Game

from .games import GameCases, Joined, colour_choices, playable_rulesets
from .moderation import ModerationCases
from .notifications import NotificationCases, NotificationPreferences
from .orders import ORDER_FILE_LIMIT, OrderCases, OrderDraft, Receipt, order_from_file, require_order_file_size
from .oversight import AuditLine, AuditPage, OversightCases
from .record import RecordCases, RecordError, replay_record
from .publishing import (FilePublisher, MemoryPublisher, OutboxRelay, Publisher, PublishError, UndeliverableError,
                         WaitingForAccess)
from .settings import GameSettings, Schedule
from .suggestions import Suggestion, SuggestionCases
from .teams import TeamCases, TeamRoster, TeamThreads
from .updates import HistoryEntry, Resolution, UpdateCases
from .views import OrderStatus, Picture, PlayerView, ViewCases
from .viewer import ViewedGame, ViewedUpdate, ViewerCases
from .weblinks import LINK_LIFETIME, PlayerLink, WebPlayCases, WebPlayer

__all__ = ["Service", "Clock", "utc_now", "ServiceError", "NotFound", "NotAllowed", "WrongTime", "InvalidInput",
           "Conflict", "OrderRefused", "Moderator", "Joined", "Receipt", "Resolution", "HistoryEntry", "PlayerView", "OrderStatus",
           "Picture", "GameSettings", "Schedule", "Publisher", "PublishError", "UndeliverableError", "FilePublisher",
           "MemoryPublisher", "OutboxRelay", "WaitingForAccess", "PostTrouble", "NotificationPreferences",
           "AuditLine", "AuditPage", "Suggestion", "OrderDraft", "ORDER_FILE_LIMIT", "order_from_file",
           "require_order_file_size", "TeamRoster", "TeamThreads", "RecordError", "replay_record", "Game",
           "playable_rulesets", "colour_choices", "ViewedGame", "ViewedUpdate", "Rating", "Leaderboard", "Profile",
           "Career", "NotSignedIn", "PlayerLink", "WebPlayer", "LINK_LIFETIME"]


class Service(GameCases, OrderCases, UpdateCases, ModerationCases, OversightCases, ViewCases, DeliveryCases,
              NotificationCases, SuggestionCases, TeamCases, RecordCases, ViewerCases, CareerCases, WebPlayCases):
    """Every use case of Skirmish, over one :class:`~bot.store.Store`."""
