"""What the Sparrow engine and its bots share: the actions and the deciding seat's view."""

from simcore.nb.layout import define_blocks

MAX_SEATS = 6
# actions: discard the tile in hand slot 0-5; or, asked about a win, take it or decline it
TAKE, DECLINE, N_ACTIONS = 6, 7, 8
PHASE_DISCARD, PHASE_WIN = 0, 1
OBS_LEN = define_blocks(globals(), "OBS", (
    ("hand", 6), ("own", 11), ("unseen", 11), ("phase", 1), ("win_points", 1), ("dora", 1),
    ("seat", 1), ("dealer", 1), ("seats", 1), ("points", MAX_SEATS)))
from .rules import SLOTS  # noqa: E402
N_RA = SLOTS.define(globals())   # RA_<KEY> slots and <KEY>_<CHOICE> codes of the rules array
