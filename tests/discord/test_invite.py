"""The README's invite link grants every permission the bot uses (its table says why each)."""

from __future__ import annotations

import re
from pathlib import Path

import discord

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_invite_link_grants_what_the_bot_needs_and_nothing_it_does_not():
    text = README.read_text(encoding="utf-8")
    [value] = re.findall(r"oauth2/authorize\?client_id=APP_ID&scope=bot\+applications\.commands&permissions=([0-9]+)",
                         text)
    granted = discord.Permissions(int(value))
    needed = discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True,
                                 attach_files=True, create_private_threads=True, manage_threads=True,
                                 manage_roles=True)
    assert granted == needed
    for name in ("View Channels", "Send Messages", "Send Messages in Threads", "Attach Files",
                 "Create Private Threads", "Manage Threads", "Manage Roles"):
        assert f"   | {name} | " in text, f"the README's table does not say why the bot needs {name}"
