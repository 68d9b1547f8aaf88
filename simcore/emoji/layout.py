"""The layout the emoji engine and its bots share (no kernels): seats, actions, the observation
of a deciding seat (spec emoji.md §5, §12)."""

from __future__ import annotations

from simcore.nb.layout import define_blocks
from .hand import N_KINDS

N_SEATS = 4
MAX_DISC = 16             # discards per seat and round (15 turns)
N_ACTIONS = 2 * N_KINDS   # kind, or kind + 30: discard it declaring riichi
DEFAULT_ACTION = -1       # "no answer": the drawn tile, no riichi (spec §4.2)

# The deciding seat's view (§5): blocks of int64, in this order.
OBS_BLOCKS = (("own", N_KINDS), ("unseen", N_KINDS), ("drawn", 1), ("seat", 1), ("dealer", 1),
              ("turn", 1), ("turns", 1), ("dora", 1), ("chips", N_SEATS), ("pot", 1),
              ("riichi_turn", N_SEATS), ("n_disc", N_SEATS), ("disc", N_SEATS * MAX_DISC),
              ("disc_riichi", N_SEATS * MAX_DISC),
              # room a policy may write (the engine never reads it): the bots' scratch, so that
              # a decision allocates nothing
              ("work", N_KINDS))
OBS_LEN = define_blocks(globals(), "OBS", OBS_BLOCKS)
