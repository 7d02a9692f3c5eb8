"""The report's sentences read right for the channel and for the player concerned (INTERFACES.md,
"The report"): a private report says "you" and "your", never "You's" or "You lost their king"."""

from bot.engine.report import PRIVATE, Entry, render

ENTRIES = [
    Entry("sale", ("Red",), data={"kind": "rook", "at": (1, 2)}),
    Entry("king_lost", ("Red",), data={"at": (1, 2), "respawn": 5}),
    Entry("resignation", ("Red",)),
    Entry("elimination", ("Red",), data={"rejoin": 15}),
    Entry("elimination", ("Red",)),
]


def test_the_channel_reads_names() -> None:
    assert render(ENTRIES).splitlines() == [
        "- Red's rook on (1,2) was sold (balance below 0).",
        "- Red lost their king on (1,2); it respawns automatically at the end of update 5.",
        "- Red resigned; their pieces left the board.",
        "- Red is removed from the game (balance below 0 with nothing left to sell, RULES 5.1), with no automatic "
        "respawn; Red may re-join from update 15 on (P33).",
        "- Red is eliminated (D30).",
    ]


def test_the_player_concerned_reads_you_and_your() -> None:
    assert render(ENTRIES, "Red").splitlines() == [
        "- Your rook on (1,2) was sold (balance below 0).",
        "- You lost your king on (1,2); it respawns automatically at the end of update 5.",
        "- You resigned; your pieces left the board.",
        "- You are removed from the game (balance below 0 with nothing left to sell, RULES 5.1), with no automatic "
        "respawn; you may re-join from update 15 on (P33).",
        "- You are eliminated (D30).",
    ]
    assert render([Entry("refused", ("Red",), PRIVATE, {"text": "N(0,0)", "reason": "no piece"})], "Red") == (
        "- Your order 'N(0,0)' was refused: no piece")
