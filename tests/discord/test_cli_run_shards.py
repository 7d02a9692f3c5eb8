"""``python -m bot run --shards A-B --shard-count N`` (INTERFACES.md, "Command line"): impossible
shards exit with status 2 and one message saying what to write, before anything is opened or
connected; the sweep's setting is checked like every other."""

from __future__ import annotations

import pytest

from bot.client import ShardedSkirmishBot, SkirmishBot, make_bot
from bot.config import Config, ConfigError, load_config
from bot.shards import Shards

from .test_cli_run import run


@pytest.mark.parametrize("arguments, words", [
    (("--shards", "3-1", "--shard-count", "8"), "the range ends before it starts; write the lower shard first (1-3)"),
    (("--shards", "0-8", "--shard-count", "8"), "with --shard-count 8 the shards are numbered 0 to 7"),
    (("--shards", "0-3"), "--shards needs --shard-count"),
    (("--shard-count", "8"), "--shard-count needs --shards"),
    (("--shards", "0", "--shard-count", "0"), "--shard-count must be 1 or more, not 0"),
    (("--shards", "zero", "--shard-count", "2"), "--shards must be a whole number 0 or more, not 'zero'"),
    (("--shards", "0", "--shard-count", "two"), "'two' is not a whole number"),
])
def test_impossible_shards_exit_2_saying_why(tmp_path, arguments, words):
    done = run(tmp_path, *arguments, token="secret-token")
    assert done.returncode == 2
    assert words in done.stderr
    assert "Traceback" not in done.stderr and "secret-token" not in done.stderr + done.stdout
    assert not (tmp_path / "skirmish.sqlite3").exists()           # nothing was opened


def test_good_shards_go_on_to_the_next_check(tmp_path):
    done = run(tmp_path, "--shards", "4-7", "--shard-count", "8")        # no token: the next thing refused
    assert done.returncode == 2
    assert "DISCORD_TOKEN" in done.stderr and "shard" not in done.stderr


def test_a_bad_sweep_interval_exits_2_naming_the_key(tmp_path):
    (tmp_path / "config.toml").write_text("[scheduler]\nsweep_seconds = 0\n")
    done = run(tmp_path, token="secret-token")
    assert done.returncode == 2
    assert "scheduler.sweep_seconds must be a number of seconds from 0.5 to 3600, not 0" in done.stderr


def test_the_sweep_interval_is_read_from_the_configuration(tmp_path):
    (tmp_path / "config.toml").write_text("[scheduler]\nsweep_seconds = 2.5\n")
    assert load_config(tmp_path / "config.toml").sweep_seconds == 2.5
    assert Config().sweep_seconds == 5.0
    (tmp_path / "config.toml").write_text('[scheduler]\nsweep_seconds = "often"\n')
    with pytest.raises(ConfigError, match="scheduler.sweep_seconds"):
        load_config(tmp_path / "config.toml")


def test_the_run_command_builds_a_sharded_bot_only_when_asked():
    whole = make_bot(Config(), sync_commands=False)
    sharded = make_bot(Config(), shards=Shards.span(4, 7, 8), sync_commands=False)
    try:
        assert type(whole) is SkirmishBot and whole.owned_shards == Shards.whole()
        assert isinstance(sharded, ShardedSkirmishBot)
        assert (sharded.shard_ids, sharded.shard_count) == ([4, 5, 6, 7], 8)
        assert sharded.owned_shards == Shards.span(4, 7, 8)
    finally:
        sharded._restore_endpoints()
        whole._restore_endpoints()
