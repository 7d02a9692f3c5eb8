"""Sandbox events (RULES.md sections 5.1 and 6; decisions P45-P49 in docs/rules/decisions.md)."""

from __future__ import annotations

from fractions import Fraction

from bot.engine.events import EventEffects, describe_event, scheduled
from bot.engine.ruleset import load_preset
from bot.engine.state import ActiveEvent

SANDBOX = load_preset("sandbox")


def effects(name: str) -> EventEffects:
    return EventEffects(SANDBOX, [ActiveEvent(name, 25)])


def test_schedule_draws_at_25_then_every_14() -> None:
    # P49: "the update 25 patch", then one every 14 updates
    assert [u for u in range(1, 100) if scheduled(SANDBOX, u, None)] == [25, 39, 53, 67, 81, 95]


def test_knights_in_shining_armor_kinds() -> None:
    # P47: the kinds whose knight leap is a move; the hunter's knight leaps only capture
    assert set(effects("Knights in Shining Armor").extra_rays()) == {"N", "L", "S", "U", "W", "Sp", "Ab", "C", "Dr"}


def test_clearance_rounds_up_to_a_whole() -> None:
    # P45: halved and rounded up to a whole number, not to the half
    cost = effects("Clearance").generation_cost
    assert [cost(SANDBOX.pieces[k].cost) for k in ("P", "N", "B", "S", "Q", "Dr")] == [1, 2, 3, 3, 7, 9]


def test_sudden_death_doubles_the_sandbox_share() -> None:
    assert effects("Sudden Death").king_share(SANDBOX.economy.king_penalty_share) == Fraction(1, 5)


def test_bounty_pays_the_full_value() -> None:
    assert effects("Bounty").capture_fraction(SANDBOX.economy.capture_reward) == 1


def test_announcements_speak_the_rulesets_currency() -> None:
    # the channel reads "energy" in sandbox and "health" in neisg; no energy pawn where there is none
    neisg = load_preset("neisg")
    assert describe_event(SANDBOX, "King of the Hill").endswith("gains +1 energy.")
    assert describe_event(neisg, "King of the Hill").endswith("gains +1 health.")
    assert describe_event(SANDBOX, "Bounty") == "a capture pays the full value of the piece."
    assert describe_event(neisg, "Bounty") == "a capture pays the full value of the piece; an energy pawn pays 8."
    assert all("{" not in describe_event(SANDBOX, name) for name in SANDBOX.events.pool)
