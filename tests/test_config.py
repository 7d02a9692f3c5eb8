"""config.toml (INTERFACES.md, "Configuration"): defaults, the example file, refusals by name."""

import pytest

from bot.config import DEFAULT_API_BASE, Config, ConfigError, load_config, token_from_environment


def write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_file_is_valid_and_gives_the_defaults():
    config = load_config("config.example.toml")
    assert (config.api_base, config.gateway_url, config.test_guild) == (DEFAULT_API_BASE, None, None)
    assert config.store_url == "sqlite:///skirmish.sqlite3" and config.moderator_role is None
    assert config.rulebook_url is None


def test_no_file_at_the_default_path_means_defaults(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert load_config() == Config()


def test_an_explicit_missing_file_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match="no configuration file"):
        load_config(tmp_path / "nope.toml")


def test_every_documented_key_is_read(tmp_path):
    config = load_config(write(tmp_path, """
[discord]
api_base = "http://127.0.0.1:8080/api/v10/"
gateway_url = "ws://127.0.0.1:8081"
test_guild = 42
[store]
url = "postgresql://bot:hunter2@db.example:5432/skirmish"
[moderation]
role = "Game Master"
[docs]
rulebook_url = "https://example.org/skirmish/docs/rulebook/"
"""))
    assert config.api_base == "http://127.0.0.1:8080/api/v10"       # trailing slash dropped
    assert config.gateway_url == "ws://127.0.0.1:8081"
    assert config.test_guild == 42 and config.store_url == "postgresql://bot:hunter2@db.example:5432/skirmish"
    assert config.moderator_role == "Game Master"
    assert config.rulebook_url == "https://example.org/skirmish/docs/rulebook"


@pytest.mark.parametrize("text, words", [
    ("[discord]\napi_bse = 'https://x'\n", "unknown key discord.api_bse"),
    ("[discrod]\n", "unknown section [discrod]"),
    ("[discord]\ngateway_url = 'https://x.y'\n", "discord.gateway_url must be a ws:// or wss:// URL"),
    ("[discord]\napi_base = 'discord.com'\n", "discord.api_base must be a http:// or https:// URL"),
    ("[discord]\ntest_guild = 'abc'\n", "discord.test_guild must be a server id"),
    ("[store]\npath = 3\n", "store.path must be a file path"),
    ("[store]\npath = 'sqlite:///x.sqlite3'\n", "a URL goes in store.url"),
    ("[store]\nurl = 'x.sqlite3'\n", "store.url must be sqlite:///relative/path.sqlite3"),
    ("[store]\nurl = 'mysql://bot:hunter2@db/skirmish'\n", "store.url: the store URL mysql://bot:***@db/skirmish has "
                                                          "the scheme 'mysql'"),
    ("[store]\nurl = 'postgresql://bot:hunter2@db:5432'\n", "store.url: the PostgreSQL URL"
                                                            " postgresql://bot:***@db:5432 names no database"),
    ("[store]\nurl = 'sqlite:///a.sqlite3'\npath = 'b.sqlite3'\n", "store.url and store.path are both set"),
    ("[moderation]\nrole = true\n", "moderation.role must be a role name"),
    ("[docs]\nrulebook_url = 'docs/rulebook'\n", "docs.rulebook_url must be a http:// or https:// URL"),
    ("[docs]\nrulebook = 'https://x.y'\n", "unknown key docs.rulebook"),
    ("[discord\n", "not valid TOML"),
])
def test_bad_settings_are_refused_by_name(tmp_path, text, words):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert words in str(caught.value)


@pytest.mark.parametrize("store, url", [
    ("path = 'data/game.sqlite3'", "sqlite:///data/game.sqlite3"),
    ("path = '/var/lib/skirmish/game.sqlite3'", "sqlite:////var/lib/skirmish/game.sqlite3"),
    ("url = 'sqlite:////var/lib/skirmish/game.sqlite3'", "sqlite:////var/lib/skirmish/game.sqlite3"),
])
def test_the_older_store_path_names_the_same_sqlite_file(tmp_path, store, url):
    assert load_config(write(tmp_path, f"[store]\n{store}\n")).store_url == url


def test_a_bad_store_url_never_shows_its_password(tmp_path):
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, "[store]\nurl = 'postgresql://bot:hunter2@db'\n"))
    assert "hunter2" not in str(caught.value)


def test_the_token_comes_only_from_the_environment(monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        token_from_environment()
    monkeypatch.setenv("DISCORD_TOKEN", " abc.def ")
    assert token_from_environment() == "abc.def"


@pytest.mark.parametrize("text, key", [
    ("token = 'MTIz.secret'\n", "token"),
    ("[discord]\ntoken = 'MTIz.secret'\n", "discord.token"),
])
def test_a_token_in_the_file_points_to_discord_token(tmp_path, text, key):
    """Issue 27 item 6: a token written in config.toml is refused with where it belongs, never echoed."""
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    message = str(caught.value)
    assert f"{key}:" in message and "DISCORD_TOKEN" in message
    assert "unknown section" not in message and "secret" not in message


def test_the_web_viewer_settings_are_read_and_checked(tmp_path):
    from bot.config import WebConfig

    assert Config().web == WebConfig(enabled=False, host="127.0.0.1", port=8080, public_url=None, secret=None)
    config = load_config(write(tmp_path, """
[web]
enabled = true
host = "0.0.0.0"
port = 9090
public_url = "https://skirmish.example.org/"
secret = "0123456789abcdef0123"
"""))
    assert config.web == WebConfig(True, "0.0.0.0", 9090, "https://skirmish.example.org", "0123456789abcdef0123")
    for text, words in (("enabled = 1", "web.enabled"), ("port = 70000", "web.port"), ('port = "80"', "web.port"),
                        ('public_url = "ftp://x"', "web.public_url"), ('secret = "short"', "web.secret"),
                        ('host = ""', "web.host"), ("hots = 1", "unknown key web.hots")):
        with pytest.raises(ConfigError, match=words.replace(".", r"\.")):
            load_config(write(tmp_path, f"[web]\n{text}\n"))
