"""Running the viewer: :func:`start` opens the site and returns its runner; :func:`serve` runs it
until the task is cancelled (``python -m bot web``, the bot's own process, ``demo --serve``)."""

from __future__ import annotations

import asyncio

from aiohttp import web

from .app import make_app

__all__ = ["start", "serve"]


async def start(service, host: str, port: int, *, public_url: str | None = None) -> web.AppRunner:
    """The viewer listening on ``host``:``port`` (OSError when the port cannot be had); the caller
    calls ``await runner.cleanup()`` to stop it."""
    runner = web.AppRunner(make_app(service, public_url=public_url), access_log=None, handle_signals=False,
                            shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner


async def serve(service, host: str, port: int, *, public_url: str | None = None, ready=None) -> None:
    """Run the viewer until cancelled; ``ready()`` is called once it answers."""
    runner = await start(service, host, port, public_url=public_url)
    try:
        if ready is not None:
            ready()
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
