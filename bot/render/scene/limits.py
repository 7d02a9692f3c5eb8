"""The sizes every board picture keeps to: what decides between a board, insets and an overview."""

MAX_SIDE = 4096              # pixels, either side
MAX_BYTES = 8 * 1024 * 1024  # PNG bytes
MIN_SCALE = 16               # pixels per square below which the overview is drawn
MAX_SCALE = 44               # pixels per square of a small region
VIEWPORT_SIDE = 64           # squares: the widest viewport of an overview (renders at 44 px a square)
DEFAULT_MARGIN = 2           # squares around the occupied area
PREVIEW_MARGIN = 1           # squares around the occupied area of a board laid out for a chat's preview
DETAILED_CELL_SCALE = 12     # pixels per square from which an overview cell shows squares and pieces
LEGEND_PLAYERS = 80          # players an overview's legend names at most
MAX_GRID = 200               # most columns (rows) of an overview's viewport grid (20 px cells)
INSET_FROM = 40              # squares: a framed board wider or taller than this, of far-apart areas, is drawn as insets
MAX_INSETS = 12              # more far-apart areas than this: the overview
