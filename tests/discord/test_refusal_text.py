"""What a refusal quotes of a player's text cannot break the message it is quoted in (issue 19 item 7).

A refused order is answered with the engine's explanation in a code block: the text as typed with
the offending part underlined. A typed ```` ``` ```` must not close that block early, and
characters that reorder or recolour what follows (bidi overrides, ANSI escapes) must not reach the
message, while the caret still points at the right place.
"""

from __future__ import annotations

ZWSP = "\u200b"


async def refusal_of(world, order: str) -> str:
    game = await world.game()
    await world.join(game, world.alice, "Red")
    await world.alice.slash(world.channel, "move", order="K(0,0)")
    refused = await world.alice.slash(world.channel, "move", order=order)
    assert (await world.service.my_order(game.id, user_id=world.alice.id)).canonical == "+K(0,0)", "nothing changed"
    return refused.response.content


async def test_a_typed_fence_does_not_close_the_refusals_code_block(world):
    text = await refusal_of(world, "K(0,1) ```@everyone **bold**")
    text, footer = text.rsplit("\n", 1)
    assert footer.startswith("Read RULES 2 in the rulebook: ")       # how to write an order (issue 27)
    assert text.startswith("Order refused:\n```\n") and text.endswith("\n```")
    assert text.count("```") == 2, text
    _, _, reason, typed, caret, *_ = text.replace(ZWSP, "").split("\n")
    assert "unexpected text after the order" in reason
    assert typed == "  K(0,1) ```@everyone **bold**", "shown as typed (the zero-width spaces show as nothing)"
    assert caret == "  " + " " * 7 + "^" * len("```@everyone"), "the caret points at what was refused"


async def test_bidi_overrides_and_ansi_escapes_do_not_reach_the_message(world):
    text = await refusal_of(world, "K(0,1) \u202eevil\x1b[31m red\tand\u2066x")
    assert not any(c in text for c in "\u202e\u2066\x1b\t"), repr(text)
    typed, caret = text.split("\n")[3:5]
    assert typed == "  K(0,1) \ufffdevil\ufffd[31m red and\ufffdx", "one character for one"
    assert caret.index("^") == typed.index("\ufffdevil")
