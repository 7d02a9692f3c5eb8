"""Pillow renderings of engine state: pure functions from a ruleset and a state to PNG bytes.

Each renderer also returns its layout (which pixel box shows which square, where each label sits),
so that tests and callers can check what an image means without reading it back. ``palette`` and
``sprites`` are shared by every renderer: player colours and the drawing of one piece.
"""
