"""The layout the riichi2p engine and its bots share (no kernels): seats, decisions, actions, the
observation of a deciding seat (spec riichi2p.md §4.5, §4.6).

One action space serves every decision point; the engine's mask says which actions are legal.
"""

from __future__ import annotations

from simcore.nb.layout import define_blocks, define_fields
from .hand import AFTER_LEN

N_SEATS = 2
N_KINDS = 34
MAX_DISC = 56             # discards per seat and hand (up to 48 draws from the whole wall, 4 replacements)

# actions: blocks of one action space
ACTION_BLOCKS = (("discard", N_KINDS), ("riichi", N_KINDS), ("ankan", N_KINDS),
                 ("kakan", N_KINDS), ("tsumo", 1), ("kyuushu", 1), ("ron", 1), ("pass", 1),
                 ("chi", 3), ("pon", 1), ("minkan", 1))
N_ACTIONS = define_blocks(globals(), "A", ACTION_BLOCKS)
# chi action A_CHI + i: the called tile is the run's lowest (0), middle (1) or highest (2)

# decision points (spec §4.6)
DECISIONS = ("own_turn", "after_call", "on_discard", "on_kan")
define_fields(globals(), "D", DECISIONS)

# The deciding seat's view (§4.5): blocks of int64, in this order.
OBS_BLOCKS = (("own", N_KINDS),          # concealed counts (with the drawn tile)
              ("unseen", N_KINDS),       # 4 - own - every visible tile of the kind
              ("dora", N_KINDS),         # how many face-up indicators point at each kind
              ("opp_disc", N_KINDS),     # 1: the opponent discarded this kind (genbutsu)
              ("opp_safe", N_KINDS),     # 1: discarded by anyone after the opponent's riichi
              ("own_disc", N_KINDS),     # 1: the deciding seat discarded it (furiten)
              ("decision", 1), ("tile", 1),   # the decision point; the offered/drawn tile
              ("seat", 1), ("dealer", 1), ("seat_wind", 1), ("round_wind", 1),
              ("riichi", 1), ("opp_riichi", 1), ("n_melds", 1), ("closed", 1),
              ("opp_n_melds", 1), ("live_left", 1), ("score", 1), ("opp_score", 1),
              ("pool", 1), ("honba", 1), ("n_draws", 1), ("yakuhai", N_KINDS),
              # room a policy may write (the engine never reads it): the bots' scratch for
              # hand.distances_after, so that a discard decision allocates nothing
              ("work", AFTER_LEN))
OBS_LEN = define_blocks(globals(), "OBS", OBS_BLOCKS)
