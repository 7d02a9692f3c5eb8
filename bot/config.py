"""The bot's configuration: ``config.toml`` (INTERFACES.md, "Configuration"), validated at start-up.

Every key is listed and explained in ``config.example.toml``. A missing file means all defaults;
an unknown section or key, or a value of the wrong type, is refused with its name, so a typo never
passes silently. The Discord token is never in the file: it is read from ``DISCORD_TOKEN``.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

__all__ = ["Config", "WebConfig", "ConfigError", "web_config", "load_config", "token_from_environment", "DEFAULT_API_BASE"]

DEFAULT_API_BASE = "https://discord.com/api/v10"
#: the database (INTERFACES.md, "[store]"): a SQLite file beside the bot, or postgresql://...
DEFAULT_STORE_URL = "sqlite:///skirmish.sqlite3"
#: how often the scheduler rereads its games from the database (docs/sharding.md, "The sweep")
DEFAULT_SWEEP_SECONDS = 5.0
#: where the web viewer listens by default (INTERFACES.md, "Command line": python -m bot web)
DEFAULT_WEB_HOST = "127.0.0.1"
DEFAULT_WEB_PORT = 8080


class ConfigError(ValueError):
    """A missing or invalid setting; the message names it (``python -m bot run`` exits with 2)."""


@dataclass(frozen=True, slots=True)
class WebConfig:
    """``[web]``: the viewer (docs/web.md). ``enabled``: the bot serves it in its own process;
    ``public_url``: the address players reach (board posts then carry a link to it); ``secret``:
    signs players' private links (None: generated and kept in the store)."""

    enabled: bool = False
    host: str = DEFAULT_WEB_HOST
    port: int = DEFAULT_WEB_PORT
    public_url: str | None = None
    secret: str | None = None


@dataclass(frozen=True, slots=True)
class Config:
    api_base: str = DEFAULT_API_BASE
    gateway_url: str | None = None
    test_guild: int | None = None
    store_url: str = DEFAULT_STORE_URL
    moderator_role: str | int | None = None
    rulebook_url: str | None = None
    sweep_seconds: float = DEFAULT_SWEEP_SECONDS
    web: WebConfig = field(default_factory=WebConfig)
    source: str = "(defaults)"


_KNOWN = {
    "discord": {"api_base", "gateway_url", "test_guild"},
    "store": {"url", "path"},
    "moderation": {"role"},
    "docs": {"rulebook_url"},
    "scheduler": {"sweep_seconds"},
    "web": {"enabled", "host", "port", "public_url", "secret"},
}


def _url(value, key: str, schemes: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{key} must be a URL in quotes, not {value!r}")
    parsed = urlparse(value)
    if parsed.scheme not in schemes or not parsed.netloc:
        raise ConfigError(f"{key} must be a {' or '.join(s + '://' for s in schemes)} URL, not {value!r}")
    return value.rstrip("/")


def _store_url(store: dict) -> str:
    """``[store] url``, or ``path`` (the older spelling of a SQLite file) as a ``sqlite:///`` URL."""
    from bot.store.database import StoreError, parse_url, redact

    if "url" in store and "path" in store:
        raise ConfigError("store.url and store.path are both set: keep only store.url "
                          "(store.path is the older spelling of a SQLite file)")
    if "path" in store:
        path = store["path"]
        if not isinstance(path, str) or not path or "://" in path:
            raise ConfigError(f"store.path must be a file path in quotes, not {path!r} (a URL goes in store.url)")
        return f"sqlite:///{path}"              # an absolute path gives sqlite:////...
    url = store.get("url", DEFAULT_STORE_URL)
    if not isinstance(url, str) or "://" not in url:
        shown = redact(url) if isinstance(url, str) else repr(url)
        raise ConfigError(f"store.url must be sqlite:///relative/path.sqlite3, sqlite:////absolute/path.sqlite3 "
                          f"or postgresql://user[:password]@host:port/database in quotes, not {shown}")
    try:
        parse_url(url)
    except StoreError as exc:
        raise ConfigError(f"store.url: {exc}") from None
    return url


def load_config(path: str | Path | None = None) -> Config:
    """Read ``path`` (default ``./config.toml``); a missing default file gives the defaults."""
    explicit = path is not None
    path = Path(path if explicit else "config.toml")
    if not path.is_file():
        if explicit:
            raise ConfigError(f"no configuration file at {path}")
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    for section, values in data.items():
        if section == "token" or (section == "discord" and isinstance(values, dict) and "token" in values):
            key = "token" if section == "token" else "discord.token"
            raise ConfigError(f"{path}: {key}: the bot's token does not go in the configuration file; remove it "
                              f"and put the token in the environment variable DISCORD_TOKEN instead "
                              f"(export DISCORD_TOKEN=...), where python -m bot run reads it")
        if section not in _KNOWN:
            raise ConfigError(f"{path}: unknown section [{section}] (known: {', '.join(f'[{s}]' for s in _KNOWN)})")
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: {section} must be a [{section}] table")
        for key in values:
            if key not in _KNOWN[section]:
                raise ConfigError(f"{path}: unknown key {section}.{key} (known in [{section}]: "
                                  f"{', '.join(sorted(_KNOWN[section]))})")
    discord = data.get("discord", {})
    store = data.get("store", {})
    moderation = data.get("moderation", {})
    api_base = _url(discord.get("api_base", DEFAULT_API_BASE), "discord.api_base", ("http", "https"))
    gateway_url = discord.get("gateway_url")
    if gateway_url is not None:
        gateway_url = _url(gateway_url, "discord.gateway_url", ("ws", "wss"))
    test_guild = discord.get("test_guild")
    if test_guild is not None and (isinstance(test_guild, bool) or not isinstance(test_guild, int) or test_guild <= 0):
        raise ConfigError(f"discord.test_guild must be a server id (a positive whole number), not {test_guild!r}")
    store_url = _store_url(store)
    role = moderation.get("role")
    if role is not None and (isinstance(role, bool) or not isinstance(role, (str, int)) or role == ""):
        raise ConfigError(f"moderation.role must be a role name in quotes or a role id, not {role!r}")
    rulebook_url = data.get("docs", {}).get("rulebook_url")
    if rulebook_url is not None:
        rulebook_url = _url(rulebook_url, "docs.rulebook_url", ("http", "https"))
        if len(rulebook_url) > 100:     # it goes into messages of at most 2,000 characters
            raise ConfigError(f"docs.rulebook_url must be at most 100 characters, not {len(rulebook_url)}")
    sweep_seconds = data.get("scheduler", {}).get("sweep_seconds", DEFAULT_SWEEP_SECONDS)
    if isinstance(sweep_seconds, bool) or not isinstance(sweep_seconds, (int, float)) or not 0.5 <= sweep_seconds <= 3600:
        raise ConfigError(f"scheduler.sweep_seconds must be a number of seconds from 0.5 to 3600, not {sweep_seconds!r}")
    return Config(api_base=api_base, gateway_url=gateway_url, test_guild=test_guild, store_url=store_url,
                  moderator_role=role, rulebook_url=rulebook_url, sweep_seconds=float(sweep_seconds),
                  web=web_config(data.get("web", {})), source=str(path))


def web_config(web: dict) -> WebConfig:
    """``[web]``, checked: a switch, a host name, a port, an http(s) URL, a secret of 16+ characters."""
    enabled = web.get("enabled", False)
    if not isinstance(enabled, bool):
        raise ConfigError(f"web.enabled must be true or false, not {enabled!r}")
    host = web.get("host", DEFAULT_WEB_HOST)
    if not isinstance(host, str) or not host.strip() or any(c.isspace() for c in host):
        raise ConfigError(f"web.host must be a host name or address in quotes (such as \"127.0.0.1\"), not {host!r}")
    port = web.get("port", DEFAULT_WEB_PORT)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise ConfigError(f"web.port must be a port number from 1 to 65535, not {port!r}")
    public_url = web.get("public_url")
    if public_url is not None:
        public_url = _url(public_url, "web.public_url", ("http", "https"))
        if len(public_url) > 200:       # it goes into link buttons (Discord: 512 characters a URL)
            raise ConfigError(f"web.public_url must be at most 200 characters, not {len(public_url)}")
    secret = web.get("secret")
    if secret is not None and (not isinstance(secret, str) or len(secret) < 16):
        raise ConfigError("web.secret must be a string of at least 16 characters (or left out: one is generated "
                          "and kept in the store)")
    return WebConfig(enabled=enabled, host=host, port=port, public_url=public_url, secret=secret)


def token_from_environment() -> str:
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError("the environment variable DISCORD_TOKEN is not set: put the bot's token there "
                          "(Discord Developer Portal > your application > Bot > Reset Token)")
    return token
