"""The /rules summary of a simultaneous ruleset, told from the ruleset's own numbers (RULES 4, 5)."""

from __future__ import annotations

from fractions import Fraction

from ..policies import arrivals_policy, submission_shape
from ..ruleset import Ruleset

__all__ = ["rules_summary"]


def _amount(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _share(value) -> str:
    value = Fraction(value)
    return "" if value == 1 else f"{value.numerator}/{value.denominator} x "


def _either(names: list[str]) -> str:
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)


def _economy_lines(ruleset) -> list[str]:
    """Captures, kings, a balance below 0 and promotions, from the ruleset's numbers (RULES 4, 5.1);
    short, so that /rules fits in one Discord message."""
    economy, promotion, currency = ruleset.economy, ruleset.promotion, ruleset.economy.currency
    lines = []
    if economy.capture_reward:
        lines.append(f"- **Captures** pay {_share(economy.capture_reward)}the value taken, rounded up.")
    if economy.king_capture == "penalty":
        to = "to nobody" if economy.king_penalty_to == "nobody" else "to the capturer"
        share = Fraction(economy.king_penalty_share) * 100
        respawn = (f"; re-place it with `K(x,y)` or it returns after {economy.king_respawn_after} updates"
                   if economy.king_respawn_after else "")
        lines.append(f"- **King lost**: pay {_amount(economy.king_penalty_base)} + {_amount(share)}% of (piece "
                     f"values + {currency}), rounded up, {to} (D19){respawn}.")
    if economy.negative == "sell":
        again = f", may re-join {economy.rejoin_after_removal} updates later" if economy.rejoin_after_removal else ""
        lines.append(f"- **Below 0**: non-king pieces are sold cheapest first for {_share(economy.refund)}value "
                     f"(up to a half) until you reach 0; with none left you are removed{again}.")
    elif economy.negative == "disintegrate":
        lines.append(f"- **Below 0**: random non-king pieces disintegrate for {_share(economy.refund)}cost, "
                     f"rounded up (D17); with only kings left you are eliminated.")
    tiers = []
    for tier in promotion.tiers:
        where = f"ending on rank {tier.rank}+" if tier.or_above else f"reaching rank {tier.rank}"
        barred = [ruleset.kind(k).name.lower() for k in tier.exclude if k in ruleset.pieces]
        prices = ", ".join(f"{ruleset.kind(k).name.lower()} {'half cost' if v == 'half' else f'{v} {currency}'}"
                           for k, v in sorted(tier.prices.items()))
        tiers.append(f"{where}, not into a {_either(barred)}" + (f" ({prices})" if prices else ""))
    if tiers:
        energy = "; or `=energy`, an energy pawn" if promotion.energy else ""
        lines.append(f"- **Promotion** (`=X`) on a pawn move {'; '.join(tiers)}{energy}.")
    return lines


def rules_summary(ruleset: Ruleset) -> str:
    """A short summary of a simultaneous ruleset for players, citing the rules decisions
    (D-numbers) that players meet most; it fits one Discord message."""
    orders, economy, events = ruleset.orders, ruleset.economy, ruleset.events
    king = ruleset.royal_letter or "K"
    lines = [f"**{ruleset.title}** (`{ruleset.name}`)"]
    shape = submission_shape(ruleset)
    if not shape.several_lines:
        per_update = "one order per update (a move, a generation" + (", `resign`" if orders.resign else "") + ")"
    else:
        per_update = shape.summary
    where = ("in the game channel with /move, or secretly by direct message to the bot (the channel only "
             "learns that you ordered)" if orders.secret else "only in the game channel with /move: no "
             "secret orders")
    lines.append(f"- **Orders**: {per_update}, {where}.")
    if ruleset.teams.names:
        teams = " and ".join(ruleset.teams.names)
        lines.append(f"- **Teams**: {teams} move on alternate updates; you order on your team's updates.")
    lines.append("- **Notation**: `N(35,2)-(37,3)`, or `N(37,3)` when only one of your pieces of that letter can "
                 "go there (D5); letters ignore case (D4); chess notation (`Nf3`) is refused with a hint.")
    if shape.several_lines:
        lines.append("- Several moves go in one /move, separated by `;`, and are checked together (D7).")
    lines.append("- Your latest valid order before the lock counts; a refused one changes nothing; /cancel "
                 "withdraws it (D6).")
    lines.append("- **Resolution**: all orders resolve at once against the board you saw: sending first never "
                 "matters (D2); the same board and orders give the same result (D3).")
    if orders.fallbacks:
        lines.append("- **Fallbacks**: `A else B` only behind a capture attempt or a move of a capturable piece "
                     "(D11).")
    arrivals = arrivals_policy(ruleset)
    if arrivals is not None and arrivals.implodes:
        lines.append(f"- **Collisions**: {arrivals.summary}.")
    currency = economy.currency
    economy_line = f"- **{currency.capitalize()}**: you start with {_amount(economy.start)}"
    if economy.regen and economy.regen_when == "king":
        economy_line += f", +{_amount(economy.regen)} per update while you have a king on the board"
    elif economy.regen and economy.regen_when == "executed_order":
        economy_line += f", +{_amount(economy.regen)} for each update your order was executed"
    if economy.points_per_update:
        economy_line += f", +{_amount(economy.points_per_update)} per update while you are in the game"
    if economy.win_at is not None:
        economy_line += f"; the first to {_amount(economy.win_at)} wins"
    lines.append(economy_line + ".")
    lines.extend(_economy_lines(ruleset))
    if ruleset.board.bounds is not None:
        (x0, y0), (x1, y1) = ruleset.board.bounds
        lines.append(f"- **Board**: x from {x0} to {x1}, y from {y0} to {y1}.")
    if orders.generation and ruleset.generation.allowed:
        lines.append(f"- **Generation**: `+X(x,y)` places a piece on an empty square for its cost in {currency}; "
                     "it cannot capture in its first update.")
    if not shape.several_lines:
        lines.append(f"- **Joining**: /join, then place your king with `{king}(x,y)` on an empty square no enemy "
                     f"attacks (D20).")
    if events.events_from is not None and events.pool:
        at_once = " one at a time;" if events.max_active == 1 else ""
        repeats = f" the last {events.cooldown} on cooldown;" if events.cooldown else " never repeated;"
        lines.append(f"- **Events**: the first at update {events.events_from}, then one every {events.every} updates, "
                     f"each lasting {events.duration};{at_once}{repeats} /event shows them.")
    lines.append("/pieces: every piece, its moves and cost; /help: the commands.")
    return "\n".join(lines)
