"""The economy of an update (D16 steps 5 and 6): rewards, penalties, costs, regeneration, debts.

Every rule reads its numbers and its policy from the ruleset's ``[economy]`` table; every change
of a balance goes through :meth:`Ledger.credit`, which writes a report entry, so the report's
balance entries always add up to each player's change.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Iterable

from .model import Piece, Player, format_amount
from .report import PUBLIC, Entry, Report
from .standings import piece_worth

if TYPE_CHECKING:  # pragma: no cover
    from .update import Update

__all__ = ["Ledger", "Capture", "piece_value", "score", "capture_rewards", "king_penalties", "pay_costs",
           "regenerate", "settle_debts", "ceil_half", "may_return", "rejoin_refusal", "join"]


def ceil_half(value: Fraction) -> Fraction:
    """Round up to the nearest half (sandbox selling)."""
    return Fraction(ceil(value * 2), 2)


@dataclass(slots=True)
class Capture:
    """A piece taken this update: by whom (several when they arrived together, D14)."""

    piece: Piece
    capturers: tuple[str, ...]
    value: Fraction                      # full value, for captured totals
    extra: tuple[Piece, ...] = ()        # a spirit riding in a captured host


@dataclass(slots=True)
class Ledger:
    players: dict[str, Player]
    report: Report
    currency: str

    def credit(self, player: str, amount: Fraction, reason: str) -> None:
        if amount == 0:
            return
        record = self.players[player]
        record.balance += amount
        self.report.add("balance", [player], amount=Fraction(amount), currency=self.currency, reason=reason)

    def credit_each(self, players: Iterable[str], amount: Fraction, reason: str) -> None:
        """:meth:`credit` of the same amount to each of ``players`` in turn (regeneration: every
        player of a 10,000-player game), with the same balances and report entries. Fractions are
        immutable, so every entry holds the one Fraction of the amount, and players whose whole
        balances come to the same sum share its Fraction: a whole amount added to a whole balance
        is added on the numerators, which gives the very Fraction that ``+`` would without its
        general arithmetic."""
        if amount == 0:
            return
        share = Fraction(amount)
        whole = share.numerator if share.denominator == 1 else None
        records, entries = self.players, self.report.entries
        currency = self.currency
        sums: dict[int, Fraction] = {}     # whole balance after -> its Fraction, made once
        for player in players:
            record = records[player]
            balance = record.balance
            if whole is not None and type(balance) is Fraction and balance.denominator == 1:
                total = balance.numerator + whole
                after = sums.get(total)
                if after is None:
                    after = sums[total] = Fraction(total)
                record.balance = after
            else:
                record.balance = balance + amount
            entries.append(Entry("balance", (player,), PUBLIC,
                                 {"amount": share, "currency": currency, "reason": reason}))


def piece_value(update: "Update", piece: Piece) -> Fraction:
    """A piece's worth: its kind's cost; an energy pawn's worth (8, D29); a host with its spirit."""
    return piece_worth(update.ruleset, piece)


def score(update: "Update", player: str, pieces) -> Fraction:
    """RULES 4: the sum of the costs of the player's pieces on the board (king 0)."""
    return sum((piece_value(update, p) for p in pieces.owned_by(player)), Fraction(0))


def _shares(amount: Fraction, capturers: tuple[str, ...]) -> Fraction:
    """D14: a reward shared between arriving players, each share rounded up."""
    return Fraction(ceil(amount / len(capturers)))


def capture_rewards(update: "Update", captures: list[Capture]) -> None:
    """Step 5: ceil(fraction x value) to the capturer(s); captured totals grow by the full value.

    P45: a fraction of a value is rounded up, the full value (Bounty) is paid exactly as it is
    (a spirit pays 5.5); a reward shared by several capturers is divided and each share rounded
    up (D14, P13)."""
    economy = update.ruleset.economy
    fraction = update.effects.capture_fraction(economy.capture_reward)
    for capture in captures:
        piece = capture.piece
        value = capture.value  # an obstacle is worth 0: captured for no reward (RULES 6)
        if piece.energy:
            reward = update.effects.energy_capture_reward(update.ruleset.promotion.energy_capture_reward)
        else:
            reward = fraction * value
        # the whole reward to one capturer is paid exactly when it is a full value (P45); a fraction
        # of a value, or a share of one, is rounded up
        exact = fraction == 1 and not piece.energy and len(capture.capturers) == 1
        share = reward if exact else _shares(reward, capture.capturers)
        for player in capture.capturers:
            update.players[player].captured += value
            what = f"captured {update.describe(piece)}"
            if len(capture.capturers) > 1:
                what += f", shared by {len(capture.capturers)} (D14)"
            update.ledger.credit(player, share, what)


def king_penalties(update: "Update", kings: list[tuple[Piece, tuple[str, ...]]]) -> None:
    """Step 5: a lost king costs its owner base + ceil(share x worth), worth from P0 (D19, D32),
    a resigner included (D36); capturers share it (rounded up); an annihilated king pays nobody (D31)."""
    economy = update.ruleset.economy
    if economy.king_capture != "penalty":
        return
    share = update.effects.king_share(economy.king_penalty_share)
    for king, capturers in kings:
        owner = king.owner
        if owner not in update.p0.players:
            continue
        p0_player = update.p0.players[owner]
        worth = score(update, owner, update.p0.board) + p0_player.balance
        penalty = economy.king_penalty_base + ceil(share * worth)
        arithmetic = (f"{format_amount(economy.king_penalty_base)} + ceil({format_amount(share * 100)}% x "
                      f"({format_amount(score(update, owner, update.p0.board))} + {format_amount(p0_player.balance)})) = {format_amount(penalty)}")
        # D36: a resigner whose king is captured in the update of the resignation pays like anyone
        # else, so the capturer's gain is exactly the victim's loss and no health is created
        update.ledger.credit(owner, -penalty, f"king lost: {arithmetic} (D19)")
        if capturers and economy.king_penalty_to == "capturer":
            each = _shares(Fraction(penalty), capturers)
            for player in capturers:
                update.ledger.credit(player, each, f"captured {owner}'s king (D19)")


def pay_costs(update: "Update") -> None:
    """Step 5: generation costs and promotion prices of executed orders, paid even on a collision."""
    for player, amount, reason in sorted(update.costs, key=lambda c: (c[0], c[2])):
        update.ledger.credit(player, -amount, reason)


def regenerate(update: "Update") -> None:
    """Step 5: regeneration (neisg: while the player has a king at step 5; sandbox: for an
    executed order): the ruleset's regeneration policy says who earns it."""
    policy = update.policies.regeneration
    amount = update.effects.regeneration(update.ruleset.economy.regen)
    if amount == 0:
        return
    royal = update.ruleset.royal_letter
    players, owns_kind, executed = update.players, update.board.owns_kind, update.executed_players
    earners = []
    for name in sorted(players):
        if players[name].status != "active":
            continue
        has_king = royal is not None and owns_kind(name, royal)
        # a king on the board is a piece on the board: its owner has joined, nothing more to ask
        if (has_king or update.joined(name)) and policy.earns(has_king=has_king, executed=name in executed):
            earners.append(name)
    update.ledger.credit_each(earners, amount, policy.reason)


#: How a refund is rounded (``[economy] refund_rounding``): up to a whole number, or to a half.
_ROUNDINGS = {"up": lambda value: Fraction(ceil(value)), "up_half": ceil_half}


def settle_debts(update: "Update", rng: random.Random) -> None:
    """Step 6: a negative balance disintegrates random non-king pieces (D17) or sells the cheapest
    first (sandbox), as the ruleset's debts policy says; a player left below 0 with only kings is
    eliminated (D30)."""
    economy = update.ruleset.economy
    policy = update.policies.debts
    if policy is None:
        return
    royal = update.ruleset.royal_letter
    rounding = _ROUNDINGS[economy.refund_rounding]
    # a balance's numerator has its sign (whole numbers and Fractions alike): the players in debt
    # are found without comparing 10,000 Fractions with 0, then settled in name order
    indebted = sorted(name for name, player in update.players.items() if player.balance.numerator < 0)
    for name in indebted:
        player = update.players[name]
        if player.status != "active":
            continue
        while player.balance < 0:
            pieces = sorted((p for p in update.board.owned_by(name) if p.kind != royal),
                            key=lambda p: p.canonical_key)
            if not pieces:
                break
            victim = policy.victim(pieces, lambda p: piece_value(update, p), rng)
            refund = rounding(piece_value(update, victim) * economy.refund)
            update.remove(victim.id)
            update.report.add(policy.event, [name], kind=update.kind_name(victim), at=victim.square)
            update.ledger.credit(name, refund, f"{update.describe(victim)} {policy.verb}")
        if player.balance < 0:
            for king in update.board.owned_by(name):
                update.remove(king.id)
            player.status = "eliminated"
            player.king_lost_at = None
            player.king_lost_square = None
            if economy.rejoin_after_removal is not None:
                # P33: removed in update N, the player sits out N+1 .. N+4 and may place a king
                # again from update N+5; the record keeps the last update sat out (SCENARIOS.md:
                # "the update after which a removed player may re-join").
                player.rejoin_after = update.number + economy.rejoin_after_removal - 1
                update.report.add("elimination", [name], rejoin=player.rejoin_after + 1)
            else:
                update.report.add("elimination", [name])


# ============================================================================= joining (RULES 4, 5.1)
def may_return(ruleset, player: Player | None) -> bool:
    """A player removed by their debts in a ruleset that lets them re-join (sandbox, RULES 5.1)."""
    return (player is not None and player.status == "eliminated" and player.rejoin_after is not None
            and ruleset.economy.rejoin_after_removal is not None)


def rejoin_refusal(ruleset, player: Player, number: int) -> str | None:
    """Why a removed player may not place a king in update ``number`` (None: they may, P33)."""
    if number > player.rejoin_after:
        return None
    return (f"you were removed (your {ruleset.economy.currency} stayed below 0 with nothing left to sell, "
            f"RULES 5.1) and may re-join {ruleset.economy.rejoin_after_removal} updates later: place your king "
            f"again from update {player.rejoin_after + 1} on (P33)")


def join(update: "Update", name: str) -> None:
    """A king placement by a player who had not joined (or was removed, P33): they enter with the
    ruleset's starting balance (RULES 4, RULES 5.1: 5 energy at joining)."""
    player = update.players[name]
    returning = player.status == "eliminated"
    player.status = "active"
    player.rejoin_after = None
    start = update.ruleset.economy.start
    verb = "re-joined" if returning else "joined"
    update.ledger.credit(name, start - player.balance,
                         f"{verb}: the starting balance is {format_amount(start)} {update.ledger.currency} (RULES 4, 5.1)")
