"""The web viewer (issue 40): every game's resolved updates in a browser, read only.

A front end like the cogs: :func:`make_app` builds the aiohttp application over a
:class:`bot.service.Service`; its pages, script and Leaflet (``static/leaflet``, BSD-2-Clause, its
licence beside it) are static files of this package. :func:`serve` runs it until cancelled.
"""

from .app import CSP, TOKEN_HEADER, make_app
from .server import serve, start

__all__ = ["make_app", "serve", "start", "CSP", "TOKEN_HEADER"]
