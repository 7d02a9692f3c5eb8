"""Painters: what turns a scene (:mod:`bot.render.scene`) into pixels, and the drawing tools they share.

``sprites`` draws one piece (and holds the fonts), ``glyphs`` composes texts from glyphs rasterized
once per font (the pixels Pillow draws, without shaping a text again), ``png`` writes a large
picture's PNG quickly. A painter decides nothing a player reads: it lays out and draws what its
scene says.
"""
