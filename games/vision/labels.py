"""The reader's classes and the order of the model's output channels."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
SUITS = ("C", "D", "H", "S")
JOKER_RANK = RANKS.index("JK")
# Per stride-4 cell: where the index centre sits in the cell (dx, dy, in cells), the index
# box's log width and height (log of pixels / 16), and the vector from the index centre to
# its card's centre (pixels / 64).
GEOMETRY = ("dx", "dy", "log_w", "log_h", "to_centre_x", "to_centre_y")
STRIDE = 4
NONE_RANK = len(RANKS)  # the classifier's answer for a crop that is not an index
CROP = 32  # the classifier reads an index turned upright, in a square of this many pixels
# From an index at the top left of an upright card, the card's centre lies this many degrees
# below the card's horizontal edge (about the same for every deck with the usual indices).
CENTRE_BEARING = 52.0
