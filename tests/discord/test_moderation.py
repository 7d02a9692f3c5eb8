"""Moderator commands, /mod ...: who may use them (Manage Server, the configured role), what each does
through the service (audited, announced by the service, answered privately), the confirmation
buttons of destructive actions, and the secrecy of /mod status."""

from __future__ import annotations

import dataclasses

import discord
import pytest
import simcord

from bot.service import NotAllowed
from cogs.moderation import REFUSAL, ConfirmView, is_moderator

from .conftest import let_use, stamp


class Mods:
    """The world's server with a moderator role ("Referee", configured) and a Manage Server role."""

    def __init__(self, world, role_setting) -> None:
        bot = world.env.bot
        bot.config = dataclasses.replace(bot.config, moderator_role=role_setting)
        self.referee_role = world.guild.create_role("Referee")
        self.admin_role = world.guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
        self.referee = world.guild.add_member(world.env.create_user("rita"), roles=[self.referee_role])
        self.admin = world.guild.add_member(world.env.create_user("adam"), roles=[self.admin_role])
        let_use(world, [self.referee_role], "mod")     # the server lets its moderator role see /mod (README)


@pytest.fixture
async def mods(world):
    found = Mods(world, "referee")            # names compare without regard to case
    await world.env.settle()
    return found


async def audit_actions(world, game) -> list[tuple[int, str]]:
    return [(entry.actor, entry.action) for entry in await world.service.audit_log(game.id)]


async def two_players(world):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    return game


async def confirmation(world, actor, command, **options):
    """Run a destructive command: its private answer carries the Confirm and Cancel buttons."""
    result = await actor.slash(world.channel, command, **options)
    assert result.ephemeral and result.response is not None
    labels = [c.get("label") for row in result.response.components for c in row.get("components", [])]
    assert labels == ["Confirm", "Cancel"], labels
    return result


# ----------------------------------------------------------------------------- who may
async def test_a_plain_member_is_not_shown_the_commands_and_the_bot_refuses_them_anyway(world, mods):
    game = await two_players(world)
    assert not any(name.startswith("mod") for name in world.alice.available_commands(world.channel))
    # a server that lets everyone see /mod: the bot's own check still refuses who does not moderate
    let_use(world, [world.guild.default_role, mods.referee_role], "mod")
    for command, options in (("mod lock", {}), ("mod announce", {"text": "hello"}), ("mod status", {}),
                             ("mod resolve", {}), ("mod kick", {"member": world.bob})):
        result = await world.alice.slash(world.channel, command, **options)
        assert result.ephemeral and result.response.content == REFUSAL, command
        assert not result.response.components
    game = await world.service.get_game(game.id)
    assert not game.locked and game.update_no == 1
    assert [a for _, a in await audit_actions(world, game)] == ["create", "start"]
    assert not world.env.errors


async def test_the_configured_role_by_name_or_by_id_and_manage_server_moderate(world, mods):
    game = await world.game()
    by_name = await mods.referee.slash(world.channel, "mod lock")
    assert by_name.ephemeral and "are locked" in by_name.response.content
    by_permission = await mods.admin.slash(world.channel, "mod unlock")
    assert "open again" in by_permission.response.content
    world.env.bot.config = dataclasses.replace(world.env.bot.config, moderator_role=mods.referee_role.id)
    by_id = await mods.referee.slash(world.channel, "mod lock")
    assert "are locked" in by_id.response.content
    world.env.bot.config = dataclasses.replace(world.env.bot.config, moderator_role=None)
    no_role = await mods.referee.slash(world.channel, "mod unlock")
    assert no_role.response.content == REFUSAL
    assert await audit_actions(world, game) == [(4242, "create"), (4242, "start"), (mods.referee.id, "lock"),
                                                (mods.admin.id, "unlock"), (mods.referee.id, "lock")]


def test_is_moderator_outside_a_server_is_false():
    assert not is_moderator(discord.Object(id=1), "Referee")


async def test_moderator_commands_are_not_offered_in_direct_messages(world, mods):
    await world.game()
    available = world.alice.user.available_commands()
    assert not any(name.startswith(("mod ", "game ")) for name in available)
    assert "mod status" in mods.referee.available_commands(world.channel)


# ----------------------------------------------------------------------------- the order book
async def test_lock_and_unlock_through_the_service_with_the_channel_told_once(world, mods):
    game = await world.game()
    locked = await mods.referee.slash(world.channel, "mod lock")
    assert world.deferred_privately() and locked.ephemeral
    assert (await world.service.get_game(game.id)).locked
    await world.env.settle()
    notices = [m for m in world.public(world.channel) if "are locked" in m.content]
    assert len(notices) == 1                 # posted once, by the service's outbox
    again = await mods.referee.slash(world.channel, "mod lock")
    assert "already locked" in again.response.content
    await mods.referee.slash(world.channel, "mod unlock")
    assert not (await world.service.get_game(game.id)).locked


async def test_extend_moves_the_deadline_and_a_manual_game_is_explained(world, mods):
    manual = await world.game()
    refused = await mods.referee.slash(world.channel, "mod extend", minutes=30)
    assert "has no deadline" in refused.response.content
    await world.service.end_game(manual.id, actor=world.moderator)
    game = await world.game(schedule="every 1 hour")
    result = await mods.referee.slash(world.channel, "mod extend", minutes=30)
    assert stamp("2099-11-22 13:30") in result.response.content
    assert (await world.service.get_game(game.id)).deadline_at.strftime("%H:%M") == "13:30"
    with pytest.raises(simcord.OptionError):
        await mods.referee.slash(world.channel, "mod extend", minutes=0)


# ----------------------------------------------------------------------------- confirmations
async def test_resolve_asks_and_confirm_resolves(world, mods):
    game = await two_players(world)
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    asked = await confirmation(world, mods.referee, "mod resolve")
    assert "Resolve update 1" in asked.response.content and "1 of 2 players have ordered" in asked.response.content
    assert (await world.service.get_game(game.id)).update_no == 1          # nothing yet
    done = await mods.referee.click(asked.response.message, label="Confirm")
    assert "Update 1 of neisg game is resolved" in done.response.content
    assert not done.response.components
    await world.env.settle()
    assert (await world.service.get_game(game.id)).update_no == 2
    assert (mods.referee.id, "resolve") in await audit_actions(world, game)


async def test_cancel_does_nothing(world, mods):
    game = await two_players(world)
    asked = await confirmation(world, mods.referee, "mod resolve")
    cancelled = await mods.referee.click(asked.response.message, label="Cancel")
    assert "Cancelled: nothing was changed." in cancelled.response.content
    assert not cancelled.response.components
    assert (await world.service.get_game(game.id)).update_no == 1
    assert "resolve" not in [a for _, a in await audit_actions(world, game)]


async def test_no_answer_in_time_does_nothing(world, mods):
    game = await two_players(world)
    asked = await confirmation(world, mods.referee, "mod resolve")
    await world.env.advance_time(61)
    await world.env.settle()
    message = world.channel.history(viewer=mods.referee)[-1]
    assert "No answer in time: nothing was changed." in message.content and not message.components
    assert (await world.service.get_game(game.id)).update_no == 1
    assert asked.response is not None


async def test_only_the_moderator_who_asked_may_confirm(world, mods):
    game = await two_players(world)
    asked = await confirmation(world, mods.referee, "mod resolve")
    # the question is private: nobody else can even see its buttons
    with pytest.raises(simcord.SetupError):
        await mods.admin.click(asked.response.message, label="Confirm")

    # and were anyone else's press to arrive, the view refuses it privately and does nothing
    class Response:
        def __init__(self):
            self.sent = []

        async def send_message(self, text, **kwargs):
            self.sent.append((text, kwargs))

    class Press:
        def __init__(self, user_id):
            self.user = discord.Object(id=user_id)
            self.response = Response()

    view = ConfirmView(mods.referee.id, "Resolve?", action=None)
    stranger = Press(mods.admin.id)
    assert await view.interaction_check(stranger) is False
    assert stranger.response.sent[0][1]["ephemeral"] is True
    assert "Only the moderator who asked" in stranger.response.sent[0][0]
    assert await view.interaction_check(Press(mods.referee.id)) is True
    assert (await world.service.get_game(game.id)).update_no == 1


async def test_rollback_after_confirmation(world, mods):
    game = await two_players(world)
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.resolve(game)
    asked = await confirmation(world, mods.admin, "mod rollback", update=0, reason="bad start")
    assert "Roll **neisg game** back to the board after update 0" in asked.response.content
    done = await mods.admin.click(asked.response.message, label="Confirm")
    assert "back at the board after update 0; orders are open for update 1" in done.response.content
    game = await world.service.get_game(game.id)
    assert (game.update_no, game.snapshot_update) == (1, 0)
    assert (mods.admin.id, "rollback") in await audit_actions(world, game)
    refused = await confirmation(world, mods.admin, "mod rollback", update=5)
    answered = await mods.admin.click(refused.response.message, label="Confirm")
    assert "roll back to an earlier update" in answered.response.content or "no earlier update" in answered.response.content


async def test_kick_after_confirmation_and_not_before(world, mods):
    game = await two_players(world)
    await world.service.submit_order(game.id, user_id=world.bob.id, text="K(5,5)", source="dm")
    asked = await confirmation(world, mods.referee, "mod kick", member=world.bob, reason="spam")
    assert "Remove Bob from **neisg game**?" in asked.response.content
    assert [p.name for p in await world.service.players(game.id)] == ["Alice", "Bob"]
    await mods.referee.click(asked.response.message, label="Confirm")
    assert [p.name for p in await world.service.players(game.id)] == ["Alice"]
    status = await world.service.order_status(game.id)
    assert (status.ordered, status.waiting) == ((), ("Alice",))      # Bob's order went with him
    assert (mods.referee.id, "kick") in await audit_actions(world, game)
    not_playing = await mods.referee.slash(world.channel, "mod kick", member=world.cleo)
    assert "cleo is not a player of game" in not_playing.response.content
    assert not not_playing.response.components


async def test_remove_after_confirmation(world, mods):
    game = await two_players(world)
    await mods.referee.slash(world.channel, "mod place", kind="N", square="(2,3)", owner="alice")
    asked = await confirmation(world, mods.referee, "mod remove", square="(2,3)")
    await mods.referee.click(asked.response.message, label="Cancel")
    assert "remove" not in [a for _, a in await audit_actions(world, game)]
    asked = await confirmation(world, mods.referee, "mod remove", square="(2,3)")
    done = await mods.referee.click(asked.response.message, label="Confirm")
    assert done.response.content.startswith("Removed.")
    actions = await world.service.audit_log(game.id)
    [removal] = [entry for entry in actions if entry.action == "remove"]
    assert removal.actor == mods.referee.id


# ----------------------------------------------------------------------------- edits, events, words
async def test_place_move_and_balance_edit_the_board_through_the_service(world, mods):
    game = await two_players(world)
    placed = await mods.referee.slash(world.channel, "mod place", kind="N", square="(2,3)", owner="Alice")
    assert placed.ephemeral and placed.response.content.startswith("Placed.")
    moved = await mods.referee.slash(world.channel, "mod move", origin="(2,3)", target="(4,4)")
    assert moved.response.content.startswith("Moved.")
    balance = await mods.referee.slash(world.channel, "mod balance", player="bob", amount="5.5")
    assert balance.response.content.startswith("Balance set.")
    occupied = await mods.referee.slash(world.channel, "mod place", kind="N", square="(4,4)")
    assert "is occupied" in occupied.response.content
    lines, _picture = await world.service.health_board(game.id)
    view = await world.service.player_view(game.id, user_id=world.bob.id)
    assert view.balance == "5.5"
    assert (await world.service.player_view(game.id, user_id=world.alice.id)).pieces == 1
    assert [a for _, a in await audit_actions(world, game)][-3:] == ["place", "move", "balance"]
    await world.env.settle()
    edits = [m.content for m in world.public(world.channel) if m.content.startswith("Moderator edit")]
    assert len(edits) == 3


async def test_event_start_and_stop_with_autocomplete(world, mods):
    game = await world.game()
    choices = [c["value"] for c in await mods.referee.autocomplete(world.channel, "mod event", "name", "ob")]
    assert choices[:2] == ["Obstacle Thicket", "Obstacles"]
    started = await mods.referee.slash(world.channel, "mod event", action="start", name="Famine")
    assert "starts" in started.response.content
    assert [e.name for e in (await world.service.event_status(game.id)).active] == ["Famine"]
    stopped = await mods.referee.slash(world.channel, "mod event", action="stop", name="famine")
    assert "ends" in stopped.response.content
    assert (await world.service.event_status(game.id)).active == ()
    unknown = await mods.referee.slash(world.channel, "mod event", action="start", name="Picnic")
    assert "unknown event" in unknown.response.content
    with pytest.raises(simcord.OptionError):
        await mods.referee.slash(world.channel, "mod event", action="pause", name="Famine")
    assert [a for _, a in await audit_actions(world, game)][-2:] == ["event_start", "event_stop"]


async def test_announce_is_posted_once_by_the_service(world, mods):
    game = await world.game()
    result = await mods.admin.slash(world.channel, "mod announce", text="Tea break at five.")
    assert result.ephemeral and "Announced" in result.response.content
    await world.env.settle()
    assert [m.content for m in world.public(world.channel)].count("Tea break at five.") == 1
    assert (mods.admin.id, "announce") in await audit_actions(world, game)


async def test_announce_refuses_a_text_that_would_not_show(world, mods):
    """Issue 36: only zero-width characters, or a NUL, are refused in words, as names are; nothing is
    posted or audited."""
    game = await world.game()
    for text, words in (("\u200b\u200b\u2060", "an announcement must show something: this one holds only "
                                                  "U+200B (zero width space), U+2060 (word joiner)"),
                        ("Tea\x00break", "an announcement cannot contain U+0000 (null): a control character")):
        result = await mods.admin.slash(world.channel, "mod announce", text=text)
        assert result.ephemeral and words in result.response.content, result.response.content
    await world.env.settle()
    assert all("Tea" not in m.content and "\u2060" not in m.content for m in world.public(world.channel))
    assert "announce" not in [action for _, action in await audit_actions(world, game)]


async def test_outside_a_game_channel(world, mods):
    result = await mods.referee.slash(world.lobby, "mod lock")
    assert "no game runs in this channel" in result.response.content
    asked = await mods.referee.slash(world.lobby, "mod resolve")
    assert "no game runs in this channel" in asked.response.content and not asked.response.components


# ----------------------------------------------------------------------------- /mod status
async def test_status_shows_who_has_ordered_never_what(world, mods):
    game = await world.game()
    await world.join(game, world.alice, "Red", "Alice")
    await world.join(game, world.bob, "Blue", "Bob")
    await world.join(game, world.cleo, "Green", "Cleo")
    await world.bob.send_dm("K(17,-4)")                        # a secret order by direct message
    await world.env.settle()
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(3,3)")
    assert (await world.service.my_order(game.id, user_id=world.bob.id)).canonical == "+K(17,-4)"
    result = await mods.referee.slash(world.channel, "mod status")
    text = result.response.content
    assert result.ephemeral
    assert "2 of 3 players have ordered" in text
    assert "Not yet: Cleo" in text and "Ordered: Alice, Bob" in text
    assert "17" not in text and "K(" not in text and "3,3" not in text


# ----------------------------------------------------------------------------- help, audit, undo, substitute
async def test_mod_help_and_help_show_moderators_their_commands(world, mods):
    await world.game()
    text = (await mods.referee.slash(world.channel, "mod help")).response.content
    assert "/mod undo" in text and "/mod audit" in text and "/mod substitute" in text and "Integrations" in text
    for moderator in (mods.referee, mods.admin):
        shown = (await moderator.slash(world.channel, "help")).response.content
        assert "You moderate this server" in shown and "/mod help" in shown
    plain = (await world.alice.slash(world.channel, "help")).response.content
    assert "/join" in plain and "moderate" not in plain and "/mod" not in plain


async def test_audit_pages_name_the_moderators_and_keep_secret_orders_secret(world, mods):
    game = await two_players(world)
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)", source="moderator",
                                     actor=world.moderator)
    for number in range(15):
        await mods.referee.slash(world.channel, "mod announce", text=f"notice {number}")
    first = (await mods.referee.slash(world.channel, "mod audit")).response.content
    lines = first.split("\n")
    assert lines[0] == "**neisg game**: audit log, page 1 of 2 (18 entries, newest first)"
    assert f"<@{mods.referee.id}>: announced: notice 14" in lines[1] and stamp("2099-11-22 12:00") in lines[1]
    assert lines[-1] == "Older entries: `/mod audit page:2`."
    second = (await mods.admin.slash(world.channel, "mod audit", page=2)).response.content
    assert "entered an order for Alice for update 1 (what it is stays secret until the update resolves)" in second
    assert "K(0,0)" not in first + second
    assert "created the game" in second
    beyond = await mods.referee.slash(world.channel, "mod audit", page=3)
    assert "has 2 pages, not 3" in beyond.response.content


async def test_undo_asks_first_then_restores_the_position_before_the_last_edit(world, mods):
    game = await two_players(world)
    await world.service.submit_order(game.id, user_id=world.alice.id, text="K(0,0)")
    await world.resolve(game)
    await mods.referee.slash(world.channel, "mod place", kind="N", square="(2,3)", owner="Alice")
    asked = await confirmation(world, mods.referee, "mod undo")
    assert "Undo the last moderator edit of **neisg game**?" in asked.response.content
    done = await mods.referee.click(asked.response.message, label="Confirm")
    assert done.response.content == "Undone. The channel is told."
    assert (await world.service.player_view(game.id, user_id=world.alice.id)).pieces == 1
    await world.env.settle()
    assert "Moderator edit undone: Alice's Knight placed on (2,3)." in [m.content for m in world.public(world.channel)]
    nothing = await confirmation(world, mods.referee, "mod undo")
    again = await mods.referee.click(nothing.response.message, label="Confirm")
    assert "there is no moderator edit to undo" in again.response.content
    assert [a for _, a in await audit_actions(world, game)][-2:] == ["place", "undo"]


async def test_substitute_gives_a_seat_to_another_member_after_confirmation(world, mods):
    game = await two_players(world)
    choices = [c["value"] for c in await mods.referee.autocomplete(world.channel, "mod substitute", "player", "b")]
    assert choices == ["Bob"]
    asked = await confirmation(world, mods.referee, "mod substitute", player="Bob", member=world.cleo)
    assert "Give Bob's seat in **neisg game** to cleo?" in asked.response.content
    await mods.referee.click(asked.response.message, label="Confirm")
    await world.env.settle()
    players = {p.name: p.user_id for p in await world.service.players(game.id)}
    assert players == {"Alice": world.alice.id, "Bob": world.cleo.id}
    refused = await world.bob.slash(world.channel, "move", order="K(5,0)")
    assert "gave your seat" in refused.response.content
    accepted = await world.cleo.slash(world.channel, "move", order="K(5,0)")
    assert "accepted: `+K(5,0)`" in accepted.response.content
    assert world.cleo.user.dm_channel.history()[-1].content.startswith("A moderator gave you the seat of Bob (Blue)")


async def test_revoke_links_makes_every_private_link_of_the_game_dead_after_confirmation(world, mods):
    game = await two_players(world)
    link = await world.service.player_link(game.id, user_id=world.alice.id)
    asked = await confirmation(world, mods.referee, "mod revoke-links")
    assert "Revoke every private web link to **neisg game**?" in asked.response.content
    assert (await world.service.web_player(game.id, link.token)).name == "Alice"      # nothing before Confirm
    done = await mods.referee.click(asked.response.message, label="Confirm")
    assert "Revoked" in done.response.content
    with pytest.raises(NotAllowed, match="revoked"):
        await world.service.web_player(game.id, link.token)
    assert [a for _, a in await audit_actions(world, game)][-1] == "revoke_links"


async def test_place_completes_the_rulesets_kinds_and_balance_the_players(world, mods):
    await two_players(world)
    kinds = await mods.referee.autocomplete(world.channel, "mod place", "kind", "kni")
    assert kinds[0] == {"name": "N: Knight", "value": "N"}
    exact = await mods.referee.autocomplete(world.channel, "mod place", "kind", "K")
    assert exact[0]["value"] == "K" and len(exact) <= 25
    players = [c["value"] for c in await mods.referee.autocomplete(world.channel, "mod balance", "player", "")]
    assert players == ["Alice", "Bob"]
    owners = [c["value"] for c in await mods.referee.autocomplete(world.channel, "mod place", "owner", "li")]
    assert owners == ["Alice"]
