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
    # territory (RULES 5.4.6): each is carried out once, in bot/engine/territory/pieces.py
    "swap_enemy": "full phase: swaps squares with an enemy not on the goal or in the neutral zone (Balance, T16)",
    "capture_chain": "after a leg that captured, may step one more square, again and again (Fire, T21)",
    "place_anywhere": "may be placed on any empty square but the goal and the neutral zone (Freedom, T7)",
    "delegate": "full phase: gives the action to an allied piece that is not a Leadership (Leadership, T17)",
    "swap_ally": "before its move: swaps squares with an allied piece (Leaf)",
    "mirror_copy": "when placed from the reserve, may add a copy on an adjacent square (Mirror, T18)",
    "pull": "before its move: pulls the first piece on a line one square toward itself (Moon, T16, T29)",
    "push": "after its move: pushes the first piece on a line one square away (Power, T16)",
    "returns_to_reserve": "when removed, returns to its owner's reserve if it has room (Rock, T8)",
    "jump_to_ally": "full phase: jumps next to an allied piece, capturing as it lands (Shadow, T19)",
    "lotus_box": "pieces may not leave the 7x7 box centred on it (White Lotus, T14)",
    "carry_ally": "after its move: carries an allied piece next to itself (Wind, T20)",
    "ranged_capture": "full phase: captures two squares away in a line without moving (Wood)",
    "counts_double": "counts 2 for control, the goal included (Sun)",
    "blocks_control": "a territory holding it, the goal excepted, has no controller (Chaos)",
    "shield": "allied pieces diagonally next to it cannot be captured (Shield, T15)",
    "freezes": "pieces next to it, of both sides, cannot move or act (Ice, T13)",
    "portal": "its owner may place pieces next to it on their own turns (Portal, RULES 5.4.3)",
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
