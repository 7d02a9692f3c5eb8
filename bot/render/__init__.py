"""Pillow renderings of engine state: pure functions from a ruleset and a state to PNG bytes.

Each renderer also returns its layout (which pixel box shows which square, where each label sits),
so that tests and callers can check what an image means without reading it back. A board is made
in two steps: ``scene`` says what it shows (no Pillow), ``paint`` draws it; ``palette`` (player
colours) and ``paint.sprites`` (one piece) are shared by every renderer. docs/rendering.md.
"""
