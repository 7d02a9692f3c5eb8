"""The Variant protocol and its registry (issue 18): what the rest of the program asks a game's shape."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from bot.engine.model import Player
from bot.engine.policies import Unplayable, policies_for
from bot.engine.resolution import resolve
from bot.engine.ruleset import RulesetError, load_preset, ruleset_from_dict
from bot.engine.standings import health_board_lines
from bot.engine.state import GameState
from bot.engine.variants import (Variant, VariantUnavailable, load_variant, playable_presets, variant_for)
from bot.engine.variants.simultaneous import assemble_pipeline

NEISG = load_preset("neisg")
SANDBOX = load_preset("sandbox")


def _state(ruleset, pieces, players, **kwargs) -> GameState:
    return GameState.build(ruleset, pieces, players, **kwargs)


def _players(*names: str, balance: int = 10) -> list[Player]:
    return [Player(name=n, colour=c, balance=Fraction(balance)) for n, c in zip(names, ("Red", "Blue", "Green"))]


# ----------------------------------------------------------------------------- the registry
def test_the_registry_plays_the_presets_whose_family_has_a_variant():
    assert {"arena", "megachess", "neisg", "sandbox"} <= set(playable_presets())
    assert isinstance(load_variant("neisg"), Variant)
    assert variant_for(NEISG) is variant_for(load_preset("neisg"))       # built once per ruleset


def test_a_preset_whose_rules_its_family_does_not_carry_out_is_refused_with_what_is_missing():
    """M.A.D. is carried out by the arena family's steps only: arena's file read as a simultaneous ruleset
    would be resolved by the wrong rules (implosions), so it is refused."""
    simultaneous = dataclasses.replace(load_preset("arena"), name="mad-sandbox", source="mad-sandbox.toml",
                                       family="simultaneous")
    with pytest.raises(VariantUnavailable) as refused:
        variant_for(simultaneous)
    for needle in ["cannot be played yet", "M.A.D. collisions outside the arena family", "(RULES 5.2)"]:
        assert needle in str(refused.value)


def test_an_unknown_family_is_refused_when_the_file_is_read():
    data = {"name": "odd", "family": "hexagonal", "pieces": {"K": {"name": "King", "cost": 0, "betza": "K",
                                                                  "abilities": ["royal"]}}}
    with pytest.raises(RulesetError, match="family: must be one of simultaneous, territory, .*not 'hexagonal'"):
        ruleset_from_dict(data, "odd.toml")


def test_a_family_without_a_variant_yet_is_unavailable(monkeypatch):
    import bot.engine.variants as registry

    monkeypatch.setattr(registry, "FAMILIES", {k: v for k, v in registry.FAMILIES.items() if k != "territory"})
    tiles = dataclasses.replace(load_preset("territory"), name="tiles", source="tiles.toml")
    with pytest.raises(VariantUnavailable, match="territory game family"):
        variant_for(tiles)


# ----------------------------------------------------------------------------- the pipeline
def test_the_pipeline_follows_d16_and_is_assembled_from_the_policies():
    names = [step.name for step in load_variant("neisg").pipeline]
    assert names == ["validate", "movement", "annihilation", "resignations", "transformations", "balances",
                     "debts", "respawns", "events", "enable", "check states"]
    no_respawn = dataclasses.replace(NEISG, name="neisg-no-respawn",
                                     economy=dataclasses.replace(NEISG.economy, king_respawn_after=None))
    assert "respawns" not in [step.name for step in assemble_pipeline(policies_for(no_respawn))]


def test_without_automatic_respawns_a_lost_king_stays_lost():
    """The respawn step is left out of the pipeline, so the fourth update after a loss brings no king."""
    ruleset = dataclasses.replace(NEISG, name="neisg-no-respawn",
                                  economy=dataclasses.replace(NEISG.economy, king_respawn_after=None))
    players = _players("Blue", "Red")
    players[0].king_lost_at, players[0].king_lost_square = 1, (5, 5)
    state = _state(ruleset, [dict(kind="K", owner="Red", square=(0, 0)), dict(kind="Q", owner="Blue", square=(9, 9))],
                   players, update=4)
    after, report = variant_for(ruleset).resolve(state, {}, seed=1)
    assert not [p for p in after.board.owned_by("Blue") if p.kind == "K"] and not report.of_type("respawn")
    normal, normal_report = resolve(NEISG, state, {}, seed=1)
    assert [p.square for p in normal.board.owned_by("Blue") if p.kind == "K"] == [(5, 5)]


def test_the_variant_resolves_exactly_as_the_engine_entry_point():
    state = _state(NEISG, [dict(kind="K", owner="Red", square=(0, 0)), dict(kind="K", owner="Blue", square=(8, 8)),
                           dict(kind="N", owner="Red", square=(2, 2))], _players("Blue", "Red"))
    orders = {"Red": "N(2,2)-(3,4)", "Blue": "K(8,8)-(7,7)"}
    via_variant, report = load_variant("neisg").resolve(state, orders, seed=7)
    via_engine, engine_report = resolve(NEISG, state, orders, seed=7)
    assert sorted(p.canonical_key for p in via_variant.board) == sorted(p.canonical_key for p in via_engine.board)
    assert report.to_json() == engine_report.to_json()


# ----------------------------------------------------------------------------- questions asked by the bot
def test_features_say_what_a_game_offers():
    neisg, sandbox = load_variant("neisg").features, load_variant("sandbox").features
    assert (neisg.currency, neisg.secret_orders, neisg.fallbacks, neisg.implosions, neisg.events) == \
        ("health", True, True, True, True)
    assert (sandbox.currency, sandbox.secret_orders) == ("energy", False)      # RULES 5.1: no secret orders
    assert not neisg.several_lines and neisg.royal == "K" and neisg.pawn == "P"
    assert not neisg.early_resolution and not sandbox.early_resolution         # issue 20: off by default


def test_seating_and_set_up_of_a_simultaneous_game():
    variant = load_variant("sandbox")
    assert variant.seating.joins_by_placement and not variant.seating.seats_before_start
    player = variant.new_player("Ada", "Purple")
    assert player.balance == 5                                                 # RULES 5.1: 5 at joining
    state = variant.set_up([player], seed=3, length=40)
    assert state.board.bounds == ((-99, 1), (99, 99)) and not list(state.board)
    assert state.length == 40 and state.update == 1 and list(state.players) == ["Ada"]


def test_everyone_in_the_game_may_order_in_a_simultaneous_update():
    variant = load_variant("neisg")
    players = _players("Cleo", "Ada", "Bo")
    players[2].status = "eliminated"
    state = _state(NEISG, [], players)
    assert variant.who_may_order(state) == ["Ada", "Cleo"]
    assert variant.may_order(state, "Ada") is None
    assert "join it first" in variant.may_order(state, "Zed")
    assert variant.may_resolve_early(state, {"Ada", "Cleo"})
    assert not variant.may_resolve_early(state, {"Ada"})


def test_the_check_of_a_submission_names_the_rule():
    state = _state(NEISG, [dict(kind="K", owner="Red", square=(0, 0))], _players("Red"))
    check = load_variant("neisg").check(state, "Red", "K(0,0)-(0,1); K(0,1)-(0,2)")
    assert not check.ok and "one order per update" in check.error.reason and check.error.rule == "D7"
    assert load_variant("neisg").check(state, "Red", "K(0,1)").canonical == "K(0,0)-(0,1)"


def test_a_simultaneous_game_has_no_winner():
    state = _state(NEISG, [dict(kind="K", owner="Red", square=(0, 0))], _players("Red"))
    verdict = load_variant("neisg").verdict(state)
    assert not verdict.over and verdict.winners == () and not verdict.drawn


def test_the_standings_panel_holds_the_health_board_lines_and_what_regenerates():
    players = _players("Red", "Blue")
    state = _state(NEISG, [dict(kind="K", owner="Red", square=(0, 0)), dict(kind="Q", owner="Red", square=(1, 0))],
                   players)
    players[1].king_lost_at = 0
    panel = load_variant("neisg").standings_panel(state)
    assert panel.title == "Health board" and panel.lines == health_board_lines(NEISG, state)
    red, blue = panel.rows
    assert (red.note, red.alarm) == ("+1", False)
    assert (blue.note, blue.alarm) == ("+0 (no king)", True)
    assert blue.line.endswith("+0 Regen, No King")
    assert [symbol for symbol, _ in panel.legend] == ["💖", "❤️"]


def test_the_sandbox_panel_counts_energy_for_executed_orders():
    state = _state(SANDBOX, [dict(kind="K", owner="Red", square=(0, 1))], _players("Red", balance=5))
    panel = load_variant("sandbox").standings_panel(state)
    assert panel.title == "Energy board" and panel.legend == ()
    assert panel.rows[0].note == "+1 per executed order"


def test_events_in_force_and_the_next_draw():
    from bot.engine.state import ActiveEvent

    state = _state(NEISG, [], _players("Red"), update=5, events=(ActiveEvent("Harvest", 2),))
    panel = load_variant("neisg").standings_panel(state)
    assert [(e.name, e.left, e.ends) for e in panel.events] == [("Harvest", 12, 16)]
    assert "+2" in panel.events[0].sentence
    assert panel.next_event_draw == 9                    # RULES 4: events at 2, 9, 16, ...


def test_the_board_adds_implosion_squares_and_the_hill():
    state = _state(NEISG, [], _players("Red"), implosions=frozenset({(3, 3), (1, 2)}), marked=((7, 7),))
    marks = load_variant("neisg").board_additions(state).marks
    assert [(m.square, m.kind) for m in marks] == [((1, 2), "implosion"), ((3, 3), "implosion"), ((7, 7), "hill")]


def test_the_rules_summary_comes_from_the_ruleset_numbers():
    text = load_variant("neisg").rules_summary()
    assert text.startswith("**Never-Ending Infinite Sandbox Game** (`neisg`)") and len(text) <= 2000
    assert "implodes at the end of the next update (D14, D15)" in text
    arena = load_variant("arena").rules_summary()         # the arena family tells its own rules
    assert "D7" in arena and "`;`" in arena and "M.A.D." in arena and len(arena) <= 2000


def test_unplayable_is_a_value_error_with_the_missing_rules():
    """Bounces and teams in turn are carried out by the megachess family's steps only: a simultaneous
    ruleset naming them would be resolved by the wrong rules, so it is refused."""
    megachess = load_preset("megachess")
    simultaneous = dataclasses.replace(megachess, name="bouncing-sandbox", family="simultaneous")
    with pytest.raises(Unplayable) as refused:
        policies_for(simultaneous)
    assert isinstance(refused.value, ValueError)
    assert refused.value.missing == ("bouncing collisions outside the megachess family",
                                     "teams moving in turn outside the megachess family")
    assert policies_for(megachess).arrivals.name == "bounce"


def test_players_who_never_joined_are_not_ranked():
    """Players without pieces who never joined are not in the standings (D35)."""
    state = _state(NEISG, [dict(kind="K", owner="Red", square=(0, 0))], _players("Red", "Blue"))
    assert [s.name for s in load_variant("neisg").standings(state)] == ["Red"]
