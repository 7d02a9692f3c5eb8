"""Scenes: what a picture shows, apart from how it is drawn.

A scene is made of plain frozen values (squares with their tints, pieces with their states and
badges, marks, arrows, axis labels, legend entries, insets, an overview's grid and dots), a pure
function of the ruleset, the state, the variant's board additions, the region and the options
(palette, focus, the last update's moves). It knows no Pillow: every choice a player reads is made
here, where a test reads it without pixels. The painters (:mod:`bot.render.paint`) lay it out and
draw it. docs/rendering.md has the picture of the flow.
"""
