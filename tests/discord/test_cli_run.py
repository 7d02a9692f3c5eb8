"""``python -m bot run [--config PATH]``: a missing or invalid setting, or a missing token, exits
with status 2 and one message naming it, before anything connects."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path, *args: str, token: str | None = None) -> subprocess.CompletedProcess:
    environment = {key: value for key, value in os.environ.items() if key != "DISCORD_TOKEN"}
    if token is not None:
        environment["DISCORD_TOKEN"] = token
    # run from another folder: this checkout's code, not whichever copy the virtualenv has installed
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "bot", "run", *args], cwd=tmp_path, env=environment,
                          capture_output=True, text=True, timeout=60)


def test_an_unknown_key_exits_2_naming_it(tmp_path):
    (tmp_path / "bad.toml").write_text('[discord]\napi_bas = "https://discord.com/api/v10"\n')
    done = run(tmp_path, "--config", "bad.toml", token="secret-token")
    assert done.returncode == 2
    assert "discord.api_bas" in done.stderr and "api_base" in done.stderr
    assert done.stderr.startswith("python -m bot run: error:")
    assert "Traceback" not in done.stderr
    assert "secret-token" not in done.stderr + done.stdout


def test_an_invalid_value_exits_2_naming_the_key(tmp_path):
    (tmp_path / "bad.toml").write_text('[discord]\ngateway_url = "https://gateway.discord.gg"\n')
    done = run(tmp_path, "--config", "bad.toml", token="secret-token")
    assert done.returncode == 2
    assert "discord.gateway_url must be a ws:// or wss:// URL" in done.stderr


def test_a_missing_config_file_exits_2(tmp_path):
    done = run(tmp_path, "--config", "nowhere.toml", token="secret-token")
    assert done.returncode == 2
    assert "no configuration file at nowhere.toml" in done.stderr


def test_a_missing_token_exits_2(tmp_path):
    done = run(tmp_path)                              # no ./config.toml: the defaults
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "skirmish.sqlite3").exists()      # nothing was opened


def test_an_empty_token_counts_as_missing(tmp_path):
    (tmp_path / "config.toml").write_text('[store]\npath = "game.sqlite3"\n')
    done = run(tmp_path, token="   ")
    assert done.returncode == 2 and "DISCORD_TOKEN" in done.stderr


def test_a_database_that_cannot_be_reached_exits_2_before_connecting_to_discord(tmp_path):
    """The store is opened first: a wrong [store] url is named (without its password) before the
    bot tries Discord, whose api_base here would be refused if it were tried."""
    (tmp_path / "c.toml").write_text('[discord]\napi_base = "http://127.0.0.1:9/api/v10"\n'
                                     '[store]\nurl = "postgresql://bot:hunter2@127.0.0.1:9/skirmish"\n')
    done = run(tmp_path, "--config", "c.toml", token="secret-token")
    assert done.returncode == 2
    assert "store.url" in done.stderr and "postgresql://bot:***@127.0.0.1:9/skirmish" in done.stderr
    assert "Discord" not in done.stderr.splitlines()[-1]
    assert "hunter2" not in done.stderr + done.stdout and "Traceback" not in done.stderr


def test_no_warning_about_voice_which_the_bot_does_not_use(tmp_path):
    """discord.py warns at start-up that PyNaCl is missing, "voice will NOT be supported"; Skirmish
    uses no voice, so a moderator starting it sees no such warning (here Discord cannot be reached,
    after the bot was made and started logging)."""
    (tmp_path / "c.toml").write_text('[discord]\napi_base = "http://127.0.0.1:9/api/v10"\n')
    done = run(tmp_path, "--config", "c.toml", token="secret-token")
    assert done.returncode == 2 and "cannot reach Discord at http://127.0.0.1:9/api/v10" in done.stderr
    assert "voice" not in done.stderr.lower() and "PyNaCl" not in done.stderr


def test_a_sqlite_file_that_cannot_be_created_exits_2_naming_it(tmp_path):
    """A relative path under a service started in / (no WorkingDirectory=, docs/deploy.md) lands
    where the bot may not write: one message naming the file, not a traceback."""
    (tmp_path / "taken").mkdir()                   # a folder where the database file should be
    (tmp_path / "c.toml").write_text('[discord]\napi_base = "http://127.0.0.1:9/api/v10"\n'
                                     '[store]\nurl = "sqlite:///taken"\n')
    done = run(tmp_path, "--config", "c.toml", token="secret-token")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        f"python -m bot run: error: store.url: cannot open or create the SQLite file taken (in the working "
        f"directory {tmp_path}): unable to open database file")
    assert "Traceback" not in done.stderr and "Exception in thread" not in done.stderr
