"""Fixed layouts shared by the ptrump engine and its bots: actions, observation fields, phases.

Every layout is one names tuple (or a tuple of (block name, size)); the index constants are
derived from it (:mod:`simcore.nb.layout`), so a field moves in one place only.
Card ids follow ``simcore.ptrump.cards`` (0..51: rank ``c // 4``, suit ``c % 4``; 52, 53 jokers).
"""

from __future__ import annotations

from simcore.nb.layout import define_blocks, define_fields

MAX_SEATS = 3          # 2 or 3 players
N_CARDS = 54           # card ids 0..53
N_RANKS = 14           # rank indices 0..12 = A..K, 13 = joker
JOKER = 13             # rank index of the jokers
N_KAN_RANKS = 13       # ranks with four copies (the joker has two: never a kan)
HAND_MAX = 8           # concealed cards at most (7 between turns + the drawn card)
MAX_SETS = 2           # revealed pons/kans per seat (7 = 2 x 3 + 1)
MAX_NUKI = 2           # jokers set aside per seat

# Action blocks: (name, size). Action ids are consecutive; A_<NAME> is each block's first id.
ACTION_BLOCKS = (
    ("pass", 1),        # decline (a ron, a call, a rob)
    ("tsumo", 1),
    ("ron", 1),         # ron on a discard, or rob a kan / nukidora card
    ("pon", 1),         # pon the offered discard
    ("kan_open", 1),    # open kan on the offered discard
    ("nuki", 1),        # set a joker aside (the drawn one when it is a joker, else the lowest id)
    ("ankan", N_KAN_RANKS),   # + rank: closed kan of the four copies in hand
    ("kakan", MAX_SETS),      # + set index: add the fourth card to own pon
    ("discard", N_CARDS),     # + card id
    ("riichi", N_CARDS),      # + card id: discard declaring riichi
)
N_ACTIONS = define_blocks(globals(), "A", ACTION_BLOCKS)
ACTION_NAMES = tuple(n for n, _ in ACTION_BLOCKS)

# Decision phases (OBS_PHASE): PH_DRAW (after a draw or replacement: tsumo, kans, nuki, discard),
# PH_AFTER_PON (discard only, or kans with kan_after_pon), PH_OFFER (an opponent's discard: ron,
# pon, open kan, pass), PH_ROB (an opponent's kakan, ankan or nukidora card: ron or pass).
PHASE_NAMES = ("draw", "after_pon", "offer", "rob")
define_fields(globals(), "PH", PHASE_NAMES)

# Observation fields (int64[OBS_LEN]) a policy receives. Blocks of 14 are per rank.
OBS_BLOCKS = (
    ("cnt", N_RANKS),        # own concealed rank counts (the drawn card included)
    ("seen", N_RANKS),       # copies of each rank this seat can see: own hand, every revealed set
                             # and nukidora, every discard not called, the dora indicator
    ("phase", 1),            # PH_*
    ("seat", 1), ("n_seats", 1), ("dealer", 1),
    ("k", 1),                # own revealed pons/kans
    ("pons", 1),             # own pons (a kakan'd pon counts while kakan_keeps_pon_penalty)
    ("set_rank", MAX_SETS),  # rank of own revealed sets (-1: none)
    ("menzen", 1),           # 1: no open call (rules' open_kan_breaks_menzen)
    ("offer", 1),            # card id on offer (PH_OFFER, PH_ROB), else -1
    ("drawn", 1),            # card id drawn this turn (-1: none)
    ("stock", 1),            # ordinary draws left
    ("dora_rank", 1),        # the dora rank (next after the indicator)
    ("riichi", 1),           # own riichi (0, 1, 2 = double)
    ("opp_riichi", 1),       # opponents in riichi
    ("nuki", 1),             # own jokers set aside
    ("disc_ranks", 1),       # bit r: own discards include rank r (called ones too)
    ("hand_mask", 1),        # bit c: card id c in own concealed hand
    ("kans_left", 1),        # kans the round still allows
    ("score", 1),
)
OBS_LEN = define_blocks(globals(), "OBS", OBS_BLOCKS)
