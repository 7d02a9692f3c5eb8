"""The names a ruleset file may use, with the sentence that explains each: piece abilities and events.

This is the bottom of the engine's layers (it imports nothing), so that the ruleset loader can check
a file's names while each ability and event keeps its rule in the module that owns it
(abilities.py, validation.py, events.py).
"""

from __future__ import annotations

__all__ = ["ABILITIES", "EVENTS"]

#: Abilities a piece may name; each is implemented once, in the engine module that owns its rule.
ABILITIES = {
    "royal": "a king: one per player, free to place, its loss is penalised",
    "no_capture": "never captures an enemy (RULES 3.2: it covers nothing)",
    "transparent": "pieces of its own side move, attack and capture through it",
    "witch": "transparent to her side; her neighbours are transparent to her side's pieces (RULES 8)",
    "spirit": "possesses a friendly non-pawn by moving onto it; the host gains knight moves (RULES 8)",
    "dwarf": "a capture on it needs two attackers of other players (RULES 8, D26)",
    "angel": "friendly neighbours cannot be targeted by captures (RULES 8, D25)",
    "zombie": "freezes enemy pieces its move could reach (RULES 8)",
    "time_thief": "captures a piece that moved last update by landing on its origin square (RULES 8, D27)",
    "harpy": "picks up a friendly non-king piece and drops it within two updates (RULES 8)",
    "pillar": "never moves; blocks (RULES 7)",
    "one_time_step": "megachess bishop: once in its life, the piece's `once` Betza move (RULES 5.3)",
    "obstacle": "neutral; never moves, blocks, captured for no reward (RULES 6, Obstacles)",
    "void": "neutral; cannot be entered, crossed or captured (RULES 6, World Destruction)",
}

#: Every event the engine knows, with the sentence announcing it (a template: see describe_event).
EVENTS: dict[str, str] = {
    "Variety": "a piece that moved in the previous update may not move.",
    "Obstacles": "instead of moving, a player may place a neutral obstacle with +O(x,y) on an empty square.",
    "Obstacle Thicket": "obstacles sprout around every piece.",
    "World Destruction": "after each update voids open near the pieces; they cannot be entered, crossed or captured.",
    "Harvest": "regeneration is +2 instead of +1.",
    "Famine": "no regeneration.",
    "Bounty": "a capture pays the full value of the piece{energy_pawn}.",
    "Sudden Death": "a captured king costs twice the usual share of its owner's worth.",
    "Witch Trials": "every piece is transparent to its own side's pieces.",
    "Clearance": "generation costs are halved, rounded up.",
    "Knights in Shining Armor": "every piece that moves like a knight also leaps (1,3) like a unicorn.",
    "King of the Hill": "a square is marked; a player with a piece on it at the end of an update gains +1 {currency}.",
}
