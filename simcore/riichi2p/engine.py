"""The two-player riichi hand and game engine (spec riichi2p.md §3, §4, §6, §7, §10, §11), whole
games compiled.

A hand: the 136 tiles shuffled as physical ids (``kind * 4 + copy``; copy 0 of each five is red
under ``red_fives``); 13 tiles each from ``wall[0:26]`` (the dealer first), the live wall from
``wall[26]`` for ``live_wall`` tiles, the dead wall ``wall[122:136]``: replacement tiles 122-125,
dora indicators 126-130, ura indicators 131-135. Each kan moves the last live tile into the dead
wall (the live wall ends one tile earlier). Between the two ends lie the out-of-play tiles.

The turn (§4.1): the player to move draws and decides (tsumo, ankan, kakan, kyuushu, discard or
riichi and discard); the opponent answers the discard (ron, chi, pon, daiminkan, pass) or the
kakan (chankan). A policy is asked only when it has a choice besides passing. Settlement (§9.5,
§10): damage only, the winner takes the pool; the exhaustive draw's noten penalty and the
dealer's repeat; the abortive draws; sudden death (§11) after every settlement.

Rules arrive as ``ra`` (int64: the ``RA_*`` slot of every option of the schema,
:data:`simcore.riichi2p.schema.SLOTS`) and ``sr`` (the scoring rules of
:mod:`simcore.riichi2p.scoring`); ``ts``, ``th`` are the hand tables
(:func:`simcore.riichi2p.hand.tables`).

What this implementation simplifies:
- Red fives: a hand keeps its red five as long as it holds another five of the suit (it
  discards and calls with the plain ones first), which is what a player wanting the han does;
  a hand in riichi discards the tile it drew, a red five too (§7).
- ``tenpai_declaration: choose`` is refused by the scenario loader (not built yet; see
  docs/riichi2p.md).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.events import log
from simcore.nb.borrow import borrowed
from simcore.nb.games import games_loop as kit_games_loop, open_round
from simcore.nb.layout import define_fields, state_spec
from simcore.nb.reach import measures_reach
from simcore.nb.rng import randint, seed_keyed
from simcore.nb.search import search_hook, searching
from .hand import AFTER_LEN, distance, distances_after, is_complete, waits
from .layout import (  # noqa: F401  (the layout's names, for importers)
    A_ANKAN, A_CHI, A_DISCARD, A_KAKAN, A_KYUUSHU, A_MINKAN, A_PASS, A_PON, A_RIICHI, A_RON,
    A_TSUMO, D_AFTER_CALL, D_ON_DISCARD, D_ON_KAN, D_OWN_TURN, MAX_DISC, N_ACTIONS, N_KINDS,
    N_SEATS, OBS_CLOSED, OBS_DEALER, OBS_DECISION, OBS_DORA, OBS_HONBA, OBS_LEN, OBS_LIVE_LEFT,
    OBS_N_DRAWS, OBS_N_MELDS, OBS_OPP_DISC, OBS_OPP_N_MELDS, OBS_OPP_RIICHI, OBS_OPP_SAFE,
    OBS_OPP_SCORE, OBS_OWN, OBS_OWN_DISC, OBS_POOL, OBS_RIICHI, OBS_ROUND_WIND, OBS_SCORE,
    OBS_SEAT, OBS_SEAT_WIND, OBS_TILE, OBS_UNSEEN, OBS_YAKUHAI,
)
from .schema import SLOTS
from .scoring import (
    CX_CHANKAN, CX_DEALER, CX_FIRST, CX_HAITEI, CX_HONBA, CX_HOUTEI, CX_IPPATSU, CX_N_MELDS,
    CX_RED, CX_RIICHI, CX_RINSHAN, CX_ROUND_WIND, CX_SEAT_WIND, CX_SHIISAN, CX_STREAK,
    CX_TSUMO, N_CX, N_RES, R_DORA, R_FU, R_HAN, R_LIMIT, R_PAY, R_RED, R_URA, R_YAKU,
    R_YAKUMAN, SR_SHIISAN_PUUTAA,
    Y_KOKUSHI, _puutaa, score_legal,
)
from .tiles import MELD_ANKAN, MELD_CHI, MELD_KAKAN, MELD_MINKAN, MELD_PON
from policies.riichi2p import P_SEARCH, decide

N_TILES = 136
DEAL = 26
DEAD = 122                 # wall[122:136] is the dead wall
RINSHAN0, DORA0, URA0 = 122, 126, 131
N_HANDS = 8                # E1-E4, S1-S4, then E1 again

# ---- the rules array ra ---------------------------------------------------------------------
N_RA = SLOTS.define(globals())   # RA_<OPTION> for every option of the schema

# ---- records ----------------------------------------------------------------------------------
OUTCOMES = ("tsumo", "ron", "draw", "kyuushu", "four_kans")
define_fields(globals(), "OUT", OUTCOMES)
END_REASON_NAMES = ("bust", "both_bust", "hand_limit")
define_fields(globals(), "END", END_REASON_NAMES)
ROUND_FIELDS = (
    "game", "round",            # the hand's sequence number in the game
    "kyoku",                    # 0-7: E1-E4, S1-S4
    "dealer", "honba", "outcome",
    "winner", "loser",          # seats (-1: none)
    "pay",                      # what the loser lost (P + honba)
    "han", "fu", "yakuman", "limit", "yaku",
    "riichi",                   # bit s: seat s declared riichi (established)
    "tenpai",                   # bits at an exhaustive draw
    "calls",                    # calls made (both seats; kans included)
    "draws",                    # live-wall draws made
    "noten_paid", "nagashi",    # the noten penalty moved; bit s: seat s's nagashi mangan
    "pool_taken", "pool_left",
    "score0", "score1",         # after the hand
    "dealer_kept",              # 1: the dealer repeats
    # a win's han from dora (kan dora included), ura and red fives (0 for a yakuman or renhou)
    "dora", "ura", "red",
    # per seat, the bits of `yaku` (scoring.YAKU) some wait of its hand would have scored at
    # some point of the hand (the winner's include what it won with), in the games that measure
    # it (simcore.nb.reach; else 0): _note_reach
    "reach0", "reach1",
)
N_RF = define_fields(globals(), "RF", ROUND_FIELDS)
GAME_FIELDS = ("winners",       # bit s: seat s won the game (both: a drawn game)
               "end_reason", "rounds", "score0", "score1", "first_dealer", "pool_left")
N_GF = define_fields(globals(), "GF", GAME_FIELDS)

# ---- events (replay) --------------------------------------------------------------------------
# A tile id is kind * 4 + copy. Deal, draw and indicator events carry the wall's physical tile.
# A tile that leaves a hand (a discard, a kakan's added tile, the called tile of a call) names
# only its kind and whether it is the red five (spec riichi2p.md §17.8): kind * 4 for the red
# five, kind * 4 + 1 for any plain copy, whichever physical copy it was (copies are
# indistinguishable, so the hand keeps counts, not copies: _remove_tile).
EV_TYPES = ("hand_start",    # seat dealer; a kyoku, b honba, c pool, d indicator tile id
            "deal",          # seat; a tile id (the physical tile)
            "draw",          # seat; a tile id (the physical tile), b 1 = replacement tile
            "discard",       # seat; a tile id (kind and red, not the copy), b riichi, c tsumogiri
            "riichi_paid",   # seat; a deposit
            "call",          # seat; a meld type, b kind, c called tile id (kind and red, not
                             # the copy; a kakan's added tile; -1 ankan)
            "indicator",     # -1; a tile id (a kan's new dora indicator)
            "win",           # seat; a tsumo 1 / ron 0, b pay, c han, d fu, e yaku, f tile id
                             # (a tsumo's drawn tile; a ron's as its discard or kakan named it)
            "exhaustive",    # -1; a tenpai bits, b noten paid, c nagashi bits
            "abort",         # -1; a outcome
            "hand_end",      # -1; a score0, b score1, c pool
            "game_end")      # -1; a winners bits, b end reason
define_fields(globals(), "EV", EV_TYPES)
EV_WIDTH = 8
MAX_EVENTS = 60000

ST_FIELDS = ("log", "n_ev", "dealer", "kyoku", "honba", "pool", "first_dealer",
             "live_pos", "live_end", "n_kans", "n_ind", "any_call", "streak", "streak_seat",
             "calls", "n_rinshan")
N_ST = define_fields(globals(), "ST", ST_FIELDS)

State, new_state = state_spec("State", (
    ("wall", (N_TILES,), np.int64, 0),              # tile ids in wall order
    ("hand", (N_SEATS, N_KINDS), np.int64, 0),      # concealed counts
    ("melds", (N_SEATS, 4, 3), np.int64, 0),        # type, kind, called kind
    ("n_melds", (N_SEATS,), np.int64, 0),
    ("kans", (N_SEATS,), np.int64, 0),
    ("red_conc", (N_SEATS,), np.int64, 0),          # bit s: the suit's red five is concealed
    ("red_meld", (N_SEATS,), np.int64, 0),          # bit s: it is in a call
    ("disc", (N_SEATS, MAX_DISC), np.int64, -1),    # tile ids
    ("disc_flags", (N_SEATS, MAX_DISC), np.int64, 0),   # 1 riichi, 2 called, 4 tsumogiri
    ("n_disc", (N_SEATS,), np.int64, 0),
    ("disc_kinds", (N_SEATS,), np.int64, 0),        # bit k: the seat discarded kind k
    ("safe_kinds", (N_SEATS,), np.int64, 0),        # bit k: discarded after seat's riichi
    ("visible", (N_KINDS,), np.int64, 0),           # discards, calls, face-up indicators
    ("waits", (N_SEATS,), np.int64, 0),             # the 13-tile hand's waits
    ("riichi", (N_SEATS,), np.int64, 0),            # 0 none, 1 riichi, 2 double
    ("ippatsu", (N_SEATS,), np.int64, 0),
    ("furiten", (N_SEATS,), np.int64, 0),           # bit 0 temporary, bit 1 riichi
    ("n_draws", (N_SEATS,), np.int64, 0),
    ("nagashi_ok", (N_SEATS,), np.int64, 0),
    ("called_from", (N_SEATS,), np.int64, 0),       # 1: one of the seat's discards was called
    ("scores", (N_SEATS,), np.int64, 0),
    ("obs", (OBS_LEN,), np.int64, 0),
    ("mask", (N_ACTIONS,), np.bool_, False),
    ("pmask", (N_ACTIONS,), np.bool_, False),
    ("cx", (N_CX,), np.int64, 0),
    ("res", (N_RES,), np.int64, 0),
    ("dora", (N_KINDS,), np.int64, 0),
    ("ura", (N_KINDS,), np.int64, 0),
    ("c", (N_KINDS,), np.int64, 0),
    ("held", (N_KINDS,), np.int64, 0),
    ("after", (AFTER_LEN,), np.int64, 0),           # distances after each discard (riichi)
    ("st", (N_ST,), np.int64, 0),
    ("ev", lambda log: (MAX_EVENTS if log else 1, EV_WIDTH), np.int64, -1),
), __name__)

RNG_SHUFFLE = 0                     # then one stream per seat: 1 + seat


@nb.njit(cache=True)
def dora_of(k: int) -> int:
    """The kind an indicator of kind ``k`` makes dora (spec §9.3)."""
    if k < 27:
        return k - k % 9 + (k % 9 + 1) % 9
    if k < 31:
        return 27 + (k - 27 + 1) % 4
    return 31 + (k - 31 + 1) % 3


@nb.njit(cache=True, inline="always")
def _is_red(tile, ra) -> bool:
    return ra[RA_RED_FIVES] != 0 and (tile == 16 or tile == 52 or tile == 88)


@nb.njit(cache=True, inline="always")
def _suit_bit(k) -> int:
    return 1 << (k // 9)


@nb.njit(cache=True)
def seat_wind(s, p, ra) -> int:
    if p == s.st[ST_DEALER]:
        return 27
    return 29 if ra[RA_SEAT_WINDS] == 1 else 28


@nb.njit(cache=True, inline="always")
def round_wind(s) -> int:
    return 27 if s.st[ST_KYOKU] < 4 else 28


@nb.njit(cache=True)
def _held(s, p):
    """s.held: the seat's tiles of each kind, concealed and called."""
    for k in range(N_KINDS):
        s.held[k] = s.hand[p, k]
    for i in range(s.n_melds[p]):
        t, k = s.melds[p, i, 0], s.melds[p, i, 1]
        if t == MELD_CHI:
            s.held[k] += 1
            s.held[k + 1] += 1
            s.held[k + 2] += 1
        else:
            s.held[k] += 3 if t == MELD_PON else 4


@nb.njit(cache=True)
def _update_waits(s, p, ra, ts, th):
    _held(s, p)
    s.waits[p] = waits(s.hand[p], s.n_melds[p], s.held, ra[RA_TENPAI_ALL_FOUR_IN_HAND] != 0,
                       ts, th)


@nb.njit(cache=True)
def _closed(s, p) -> bool:
    for i in range(s.n_melds[p]):
        if s.melds[p, i, 0] != MELD_ANKAN:
            return False
    return True


@nb.njit(cache=True)
def _turn_indicator(s):
    """Turn the next dora indicator face up."""
    i = s.st[ST_N_IND]
    tile = s.wall[DORA0 + i]
    s.st[ST_N_IND] = i + 1
    s.visible[tile // 4] += 1
    log(s, EV_INDICATOR, -1, tile, 0, 0, 0, 0, 0)


@nb.njit(cache=True)
def _score(s, p, tile, tsumo, chankan, rinshan, sr, ra) -> int:
    """What seat p's win on ``tile`` would pay (P without honba), -1 if it is none; the result
    row in s.res. ``tile`` is a tile id; for a tsumo it is already in the hand."""
    _context(s, p, tile, tsumo, chankan, rinshan, ra)
    return score_legal(s.c, s.melds[p], tile // 4, s.cx, s.dora, s.ura, sr, s.res)


@nb.njit(cache=True)
def _context(s, p, tile, tsumo, chankan, rinshan, ra):
    """The scorer's inputs for seat p's win on ``tile`` (:func:`_score`): s.c, s.cx, s.dora,
    s.ura."""
    k = tile // 4
    for j in range(N_KINDS):
        s.c[j] = s.hand[p, j]
    if not tsumo:
        s.c[k] += 1
    cx = s.cx
    cx[CX_TSUMO] = 1 if tsumo else 0
    cx[CX_RIICHI] = s.riichi[p]
    cx[CX_IPPATSU] = s.ippatsu[p]
    cx[CX_RINSHAN] = 1 if rinshan else 0
    cx[CX_CHANKAN] = 1 if chankan else 0
    wall_empty = s.st[ST_LIVE_POS] >= s.st[ST_LIVE_END]
    cx[CX_HAITEI] = 1 if (tsumo and wall_empty and not rinshan) else 0
    cx[CX_HOUTEI] = 1 if (not tsumo and wall_empty and not chankan) else 0
    first = s.st[ST_ANY_CALL] == 0 and ((tsumo and s.n_draws[p] == 1 and not rinshan) or
                                        (not tsumo and s.n_draws[p] == 0))
    cx[CX_FIRST] = 1 if first else 0
    cx[CX_SHIISAN] = 1 if (first and tsumo) else 0
    dealer = p == s.st[ST_DEALER]
    cx[CX_DEALER] = 1 if dealer else 0
    cx[CX_SEAT_WIND] = seat_wind(s, p, ra)
    cx[CX_ROUND_WIND] = round_wind(s)
    red = s.red_conc[p] | s.red_meld[p]
    if not tsumo and _is_red(tile, ra):
        red |= _suit_bit(k)
    cx[CX_RED] = (red & 1) + ((red >> 1) & 1) + ((red >> 2) & 1)
    cx[CX_HONBA] = s.st[ST_HONBA]
    streak = 0
    if s.st[ST_STREAK_SEAT] == p:
        streak = s.st[ST_STREAK]
    if ra[RA_PAARENCHAN_COUNTS] == 0 and not dealer:
        streak = 0
    cx[CX_STREAK] = streak + 1
    cx[CX_N_MELDS] = s.n_melds[p]
    for j in range(N_KINDS):
        s.dora[j] = 0
        s.ura[j] = 0
    for i in range(s.st[ST_N_IND]):
        s.dora[dora_of(s.wall[DORA0 + i] // 4)] += 1
    if ra[RA_URA_DORA] and (s.riichi[p] > 0 or ra[RA_URA_NEEDS_RIICHI] == 0):
        n_ura = s.st[ST_N_IND] if ra[RA_KAN_URA_DORA] else 1
        for i in range(n_ura):
            s.ura[dora_of(s.wall[URA0 + i] // 4)] += 1


@nb.njit(cache=True, inline="always")
def _reach_changed(key, s, p) -> bool:
    """Has seat p's concealed hand, its calls (their number and its kans) or its riichi changed
    since ``key`` (int64[N_SEATS, 4]) was set? Sets it to them."""
    lo = np.int64(0)
    hi = np.int64(0)
    for k in range(17):
        lo |= s.hand[p, k] << (3 * k)
        hi |= s.hand[p, 17 + k] << (3 * k)
    calls = s.n_melds[p] * 8 + s.kans[p]
    ri = s.riichi[p]
    if key[p, 0] == lo and key[p, 1] == hi and key[p, 2] == calls and key[p, 3] == ri:
        return False
    key[p, 0], key[p, 1], key[p, 2], key[p, 3] = lo, hi, calls, ri
    return True


@nb.njit(cache=True)
def _note_reach(s, p, sr, ra, rec):
    """Add to ``rec[RF_REACH0 + p]`` the yaku some wait of seat p's tenpai 13-tile hand would
    score, as a ron and as a tsumo (riichi as it stands; furiten aside). The yaku of the moment
    are not reach: the win is scored as on no particular tile of the hand (no ippatsu, haitei,
    houtei, rinshan, chankan, first-turn win, shiisan puutaa). A kind the seat holds four of is
    no winning tile (a wait on it is tenpai only, spec §17.7). The round loop calls this only
    when the hand, its calls or its riichi changed (``_reach_changed``), in the games that
    measure reach. It overwrites the scorer's scratch (s.c, s.cx, s.dora, s.ura, s.res, s.held):
    the engine scores a win afresh before it reads s.res."""
    w = s.waits[p]
    _held(s, p)
    bits = rec[RF_REACH0 + p]
    for k in range(N_KINDS):
        if not (w >> k) & 1 or s.held[k] >= 4:
            continue
        for tsumo in range(2):
            _context(s, p, 4 * k + 1, tsumo == 1, False, False, ra)
            if tsumo == 1:
                s.c[k] += 1                  # _context expects a tsumo's tile in the hand
            cx = s.cx
            cx[CX_IPPATSU] = 0
            cx[CX_HAITEI] = 0
            cx[CX_HOUTEI] = 0
            cx[CX_FIRST] = 0
            cx[CX_SHIISAN] = 0
            if score_legal(s.c, s.melds[p], k, cx, s.dora, s.ura, sr, s.res) > 0:
                bits |= s.res[R_YAKU]
    rec[RF_REACH0 + p] = bits


@nb.njit(cache=True)
def _may_ron(s, p, tile, chankan, sr, ra) -> bool:
    """Seat p may ron ``tile`` (§6): a wait, not furiten, a win with a yaku."""
    k = tile // 4
    if not (s.waits[p] >> k) & 1:
        return False
    if s.furiten[p] != 0 or (s.waits[p] & s.disc_kinds[p]) != 0:
        return False
    return _score(s, p, tile, False, chankan, False, sr, ra) > 0


@nb.njit(cache=True)
def _observe(s, p, decision, tile, ra):
    """The seat's view (§4.5) into s.obs."""
    o = s.obs
    q = 1 - p
    for k in range(N_KINDS):
        o[OBS_OWN + k] = s.hand[p, k]
        o[OBS_UNSEEN + k] = 4 - s.hand[p, k] - s.visible[k]
        o[OBS_DORA + k] = 0
        o[OBS_OPP_DISC + k] = (s.disc_kinds[q] >> k) & 1
        o[OBS_OPP_SAFE + k] = (s.safe_kinds[q] >> k) & 1
        o[OBS_OWN_DISC + k] = (s.disc_kinds[p] >> k) & 1
        o[OBS_YAKUHAI + k] = 0
    # own called tiles are visible to everyone and counted in `visible`
    for i in range(s.st[ST_N_IND]):
        o[OBS_DORA + dora_of(s.wall[DORA0 + i] // 4)] += 1
    sw = seat_wind(s, p, ra)
    rw = round_wind(s)
    o[OBS_YAKUHAI + 31] = 1
    o[OBS_YAKUHAI + 32] = 1
    o[OBS_YAKUHAI + 33] = 1
    o[OBS_YAKUHAI + sw] += 1
    o[OBS_YAKUHAI + rw] += 1
    o[OBS_DECISION] = decision
    o[OBS_TILE] = tile
    o[OBS_SEAT] = p
    o[OBS_DEALER] = s.st[ST_DEALER]
    o[OBS_SEAT_WIND] = sw
    o[OBS_ROUND_WIND] = rw
    o[OBS_RIICHI] = s.riichi[p]
    o[OBS_OPP_RIICHI] = s.riichi[q]
    o[OBS_N_MELDS] = s.n_melds[p]
    o[OBS_CLOSED] = 1 if _closed(s, p) else 0
    o[OBS_OPP_N_MELDS] = s.n_melds[q]
    o[OBS_LIVE_LEFT] = s.st[ST_LIVE_END] - s.st[ST_LIVE_POS]
    o[OBS_SCORE] = s.scores[p]
    o[OBS_OPP_SCORE] = s.scores[q]
    o[OBS_POOL] = s.st[ST_POOL]
    o[OBS_HONBA] = s.st[ST_HONBA]
    o[OBS_N_DRAWS] = s.n_draws[p]


@nb.njit(cache=True)
def _ask(s, p, decision, tile, ra, ts, th, pol_ids, params, rngs, fallback) -> int:
    """The policy's legal action (``fallback`` when it answers with an illegal one)."""
    _observe(s, p, decision, tile, ra)
    s.pmask[:] = s.mask
    a = decide(pol_ids[p], s.obs, s.pmask, params[p], rngs[1 + p], ts, th)
    if a < 0 or a >= N_ACTIONS or not s.mask[a]:
        a = fallback
    return a


@nb.njit(cache=True)
def _tenpai_after(s, p, k, ra, ts, th) -> bool:
    """Discarding kind k leaves seat p tenpai (a wait the rules count)."""
    s.hand[p, k] -= 1
    w = 0
    all_four = ra[RA_TENPAI_ALL_FOUR_IN_HAND] != 0
    if distance(s.hand[p], s.n_melds[p], ts, th) == 1 or (all_four and s.hand[p].max() == 4):
        _held(s, p)
        w = waits(s.hand[p], s.n_melds[p], s.held, ra[RA_TENPAI_ALL_FOUR_IN_HAND] != 0, ts, th)
    s.hand[p, k] += 1
    return w != 0


@nb.njit(cache=True)
def _yaochu_kinds(s, p) -> int:
    n = 0
    for k in range(N_KINDS):
        if s.hand[p, k] > 0 and (k >= 27 or k % 9 == 0 or k % 9 == 8):
            n += 1
    return n


@nb.njit(cache=True)
def _kan_allowed(s, ra) -> bool:
    """Another kan may be declared: a replacement tile, a live tile left, at most 4 (§4.2-§4.3)."""
    if s.st[ST_N_KANS] >= 4 or s.st[ST_LIVE_POS] >= s.st[ST_LIVE_END]:
        return False
    return True


@nb.njit(cache=True)
def _riichi_ankan_ok(s, p, k, drawn_kind, ra, ts, th) -> bool:
    """An ankan of k during riichi leaves the wait unchanged (§7)."""
    if ra[RA_RIICHI_ANKAN_DRAWN_ONLY] and k != drawn_kind:
        return False
    before = s.waits[p]
    s.hand[p, k] -= 4
    s.melds[p, s.n_melds[p], 0] = MELD_ANKAN
    s.melds[p, s.n_melds[p], 1] = k
    s.n_melds[p] += 1
    _held(s, p)
    w = waits(s.hand[p], s.n_melds[p], s.held, ra[RA_TENPAI_ALL_FOUR_IN_HAND] != 0, ts, th)
    s.n_melds[p] -= 1
    s.hand[p, k] += 4
    # the 14-tile hand before the ankan: its waits were those of the 13 tiles without the drawn one
    return w == before


@nb.njit(cache=True)
def _own_mask(s, p, drawn, rinshan, sr, ra, ts, th) -> bool:
    """The legal actions after a draw into s.mask; returns whether tsumo is among them."""
    m = s.mask
    for a in range(N_ACTIONS):
        m[a] = False
    dk = drawn // 4
    h = s.hand[p]
    can_tsumo = False
    if is_complete(h, s.n_melds[p], ts, th):
        can_tsumo = _score(s, p, drawn, True, False, rinshan, sr, ra) > 0
    elif sr[SR_SHIISAN_PUUTAA] and s.n_draws[p] == 1 and not rinshan and \
            s.st[ST_ANY_CALL] == 0 and s.n_melds[p] == 0 and _puutaa(h):
        # shiisan puutaa (§8.4) is a 14-tile pattern of its own, not a winning shape: the
        # dealer's dealt 14 tiles or the non-dealer's first draw, before any call by anyone
        can_tsumo = _score(s, p, drawn, True, False, rinshan, sr, ra) > 0
    if can_tsumo:
        m[A_TSUMO] = True
    kan_ok = _kan_allowed(s, ra)
    if s.riichi[p] > 0:
        m[A_DISCARD + dk] = True
        if kan_ok:
            for k in range(N_KINDS):
                if h[k] == 4 and _riichi_ankan_ok(s, p, k, dk, ra, ts, th):
                    m[A_ANKAN + k] = True
        return can_tsumo
    closed = _closed(s, p)
    live_left = s.st[ST_LIVE_END] - s.st[ST_LIVE_POS]
    riichi_ok = closed and s.scores[p] >= ra[RA_RIICHI_MIN_POINTS] and \
        live_left >= ra[RA_RIICHI_MIN_WALL] and distance(h, s.n_melds[p], ts, th) <= 1
    if riichi_ok:
        # one pass for every discard's distance; the full wait test only where it is 1
        distances_after(h, s.n_melds[p], ts, th, -1, s.after)
    all_four = ra[RA_TENPAI_ALL_FOUR_IN_HAND] != 0
    for k in range(N_KINDS):
        if h[k] == 0:
            continue
        m[A_DISCARD + k] = True
        if riichi_ok and (s.after[k] == 1 or all_four) and \
                _tenpai_after(s, p, k, ra, ts, th):
            m[A_RIICHI + k] = True
        if kan_ok and h[k] == 4:
            m[A_ANKAN + k] = True
    if kan_ok:
        for i in range(s.n_melds[p]):
            if s.melds[p, i, 0] == MELD_PON and h[s.melds[p, i, 1]] >= 1:
                m[A_KAKAN + s.melds[p, i, 1]] = True
    if ra[RA_KYUUSHU] and s.n_draws[p] == 1 and s.st[ST_ANY_CALL] == 0 and not rinshan \
            and s.n_disc[p] == 0 and _yaochu_kinds(s, p) >= 9:
        m[A_KYUUSHU] = True
    return can_tsumo


@nb.njit(cache=True)
def _remove_tile(s, p, k, ra) -> int:
    """Take one tile of kind k out of the concealed hand; returns its tile id (a plain five
    before the red one). Tile ids of a kind's copies are kind*4 + copy; which plain copy it is
    does not matter (copies are indistinguishable), so copy 1 stands for every plain one."""
    s.hand[p, k] -= 1
    if k < 27 and k % 9 == 4 and (s.red_conc[p] & _suit_bit(k)) and s.hand[p, k] == 0:
        s.red_conc[p] &= ~_suit_bit(k)
        return 4 * k
    return 4 * k + 1


@nb.njit(cache=True)
def _remove_drawn(s, p, drawn, ra) -> int:
    """Take the tile just drawn (physical id ``drawn``) out of the concealed hand, the red five
    if it was the red one; returns its id as :func:`_remove_tile` names it (kind and red)."""
    k = drawn // 4
    s.hand[p, k] -= 1
    if _is_red(drawn, ra):
        s.red_conc[p] &= ~_suit_bit(k)
        return 4 * k
    return 4 * k + 1


@nb.njit(cache=True)
def _add_tile(s, p, tile, ra):
    k = tile // 4
    s.hand[p, k] += 1
    if _is_red(tile, ra):
        s.red_conc[p] |= _suit_bit(k)


@nb.njit(cache=True)
def _take_for_call(s, p, k, ra) -> int:
    """A concealed tile of kind k into a call (the red five goes last, and into the call)."""
    tile = _remove_tile(s, p, k, ra)
    if _is_red(tile, ra):
        s.red_meld[p] |= _suit_bit(k)
    return tile


@nb.njit(cache=True)
def _add_meld(s, p, typ, k, called):
    i = s.n_melds[p]
    s.melds[p, i, 0] = typ
    s.melds[p, i, 1] = k
    s.melds[p, i, 2] = called
    s.n_melds[p] = i + 1


@nb.njit(cache=True)
def _kuikae_banned(s, p, typ, low, called_kind, ra, k) -> bool:
    """Kind k may not be discarded right after the call (§4.4)."""
    rule = ra[RA_KUIKAE]
    if rule == 0:
        return False
    if k == called_kind:
        return True
    if rule == 2 and typ == MELD_CHI:
        if called_kind == low and low % 9 <= 5 and k == low + 3:
            return True
        if called_kind == low + 2 and low % 9 >= 1 and k == low - 1:
            return True
    return False


@nb.njit(cache=True)
def _call_options(s, p, tile, ra) -> bool:
    """The calls seat p may make on the opponent's discard ``tile`` into s.mask (chi, pon,
    daiminkan: not in riichi, not on the houtei discard, a legal discard left after it)."""
    m = s.mask
    k = tile // 4
    h = s.hand[p]
    any_call = False
    if s.riichi[p] > 0 or s.st[ST_LIVE_POS] >= s.st[ST_LIVE_END]:
        return False
    if k < 27:
        for i in range(3):            # the called tile at position i of the run
            low = k - i
            if low < 0 or low // 9 != k // 9 or low % 9 > 6:
                continue
            ok = True
            for j in range(3):
                if j != i and h[low + j] == 0:
                    ok = False
            if not ok:
                continue
            for j in range(3):
                if j != i:
                    h[low + j] -= 1
            legal = False
            for d in range(N_KINDS):
                if h[d] > 0 and not _kuikae_banned(s, p, MELD_CHI, low, k, ra, d):
                    legal = True
                    break
            for j in range(3):
                if j != i:
                    h[low + j] += 1
            if legal:
                m[A_CHI + i] = True
                any_call = True
    if h[k] >= 2:
        h[k] -= 2
        legal = False
        for d in range(N_KINDS):
            if h[d] > 0 and not _kuikae_banned(s, p, MELD_PON, k, k, ra, d):
                legal = True
                break
        h[k] += 2
        if legal:
            m[A_PON] = True
            any_call = True
    if h[k] >= 3 and _kan_allowed(s, ra):
        m[A_MINKAN] = True
        any_call = True
    return any_call


@nb.njit(cache=True)
def _cancel_ippatsu(s):
    s.ippatsu[0] = 0
    s.ippatsu[1] = 0


@nb.njit(cache=True)
def _settle_win(s, p, tsumo, tile, ra, rec):
    """Seat p won (the result row in s.res): the loser loses P + honba, the winner takes the
    pool (§9.5); the record."""
    q = 1 - p
    pay = s.res[R_PAY] + s.st[ST_HONBA] * ra[RA_HONBA_VALUE]
    s.scores[q] -= pay
    pool = s.st[ST_POOL]
    if ra[RA_RIICHI_POT] == 0:
        s.scores[p] += pool
    s.st[ST_POOL] = 0
    rec[RF_OUTCOME] = OUT_TSUMO if tsumo else OUT_RON
    rec[RF_WINNER] = p
    rec[RF_LOSER] = q
    rec[RF_PAY] = pay
    rec[RF_HAN] = s.res[R_HAN]
    rec[RF_FU] = s.res[R_FU]
    rec[RF_YAKUMAN] = s.res[R_YAKUMAN]
    rec[RF_LIMIT] = s.res[R_LIMIT]
    rec[RF_YAKU] = s.res[R_YAKU]
    rec[RF_DORA] = s.res[R_DORA]
    rec[RF_URA] = s.res[R_URA]
    rec[RF_RED] = s.res[R_RED]
    if measures_reach(rec[RF_GAME]):
        rec[RF_REACH0 + p] |= s.res[R_YAKU]      # a won hand was within reach of what it scored
    rec[RF_POOL_TAKEN] = pool
    log(s, EV_WIN, p, 1 if tsumo else 0, pay, s.res[R_HAN], s.res[R_FU], s.res[R_YAKU], tile)


@nb.njit(cache=True)
def _declare_kan(s, p, ra, rec) -> bool:
    """Establish seat p's kan (its indicator with ``kan_dora``); returns True when it ends the
    hand in four kans (§4.3), recorded and logged."""
    s.st[ST_N_KANS] += 1
    s.kans[p] += 1
    s.st[ST_LIVE_END] -= 1
    s.st[ST_ANY_CALL] = 1
    _cancel_ippatsu(s)
    if ra[RA_SUUKAIKAN] and s.st[ST_N_KANS] == 4 and s.kans[p] != 4:
        rec[RF_OUTCOME] = OUT_FOUR_KANS
        log(s, EV_ABORT, -1, OUT_FOUR_KANS, 0, 0, 0, 0, 0)
        return True
    if ra[RA_KAN_DORA]:
        _turn_indicator(s)
    return False


@nb.njit(cache=True)
def _offer_robbing(s, q, tile, sr, ra, ts, th, pol_ids, params, rngs, rec) -> bool:
    """Seat q, which may ron the kan's ``tile`` (chankan, or a kokushi on an ankan), is asked
    (forced after riichi under riichi_pass_win: forced); a pass is furiten like any winning
    tile let pass. Returns True when it robbed the kan (the win settled)."""
    for x in range(N_ACTIONS):
        s.mask[x] = False
    s.mask[A_RON] = True
    s.mask[A_PASS] = True
    forced = ra[RA_RIICHI_PASS_WIN] == 1 and s.riichi[q] > 0
    b = A_RON if forced else _ask(s, q, D_ON_KAN, tile, ra, ts, th, pol_ids, params, rngs,
                                   A_PASS)
    if b == A_RON:
        _may_ron(s, q, tile, True, sr, ra)
        _settle_win(s, q, False, tile, ra, rec)
        return True
    s.furiten[q] |= 1 | (2 if s.riichi[q] > 0 else 0)
    return False


@nb.njit(cache=True)
def _replacement_draw(s, p, ra, ts, th) -> int:
    """After an established kan: the 13-tile waits, then the replacement tile into seat p's
    hand (a draw: temporary furiten ends). Returns its tile id."""
    _update_waits(s, p, ra, ts, th)
    drawn = s.wall[RINSHAN0 + s.st[ST_N_KANS] - 1]
    s.st[ST_N_RINSHAN] += 1
    s.furiten[p] &= ~1
    _add_tile(s, p, drawn, ra)
    log(s, EV_DRAW, p, drawn, 1, 0, 0, 0, 0)
    return drawn


@nb.njit(cache=True)
def play_hand(s, sr, ra, ts, th, pol_ids, params, rngs, debug, rec, sx):
    """Play one hand from ``s.wall`` as it stands (a test may stack it); scores, pool, honba,
    kyoku and dealer as the game left them. Writes the hand record and applies the settlement.
    ``sx``: ``s`` again, or a search's scratch (:mod:`simcore.nb.search`)."""
    d = s.st[ST_DEALER]
    for p in range(N_SEATS):
        for k in range(N_KINDS):
            s.hand[p, k] = 0
        s.n_melds[p] = 0
        s.kans[p] = 0
        s.red_conc[p] = 0
        s.red_meld[p] = 0
        s.n_disc[p] = 0
        s.disc_kinds[p] = 0
        s.safe_kinds[p] = 0
        s.riichi[p] = 0
        s.ippatsu[p] = 0
        s.furiten[p] = 0
        s.n_draws[p] = 0
        s.nagashi_ok[p] = 1
        s.called_from[p] = 0
        for j in range(MAX_DISC):
            s.disc[p, j] = -1
            s.disc_flags[p, j] = 0
    for k in range(N_KINDS):
        s.visible[k] = 0
    s.st[ST_LIVE_POS] = DEAL
    s.st[ST_LIVE_END] = DEAL + ra[RA_LIVE_WALL]
    s.st[ST_N_KANS] = 0
    s.st[ST_N_IND] = 0
    s.st[ST_ANY_CALL] = 0
    s.st[ST_CALLS] = 0
    s.st[ST_N_RINSHAN] = 0
    log(s, EV_HAND_START, d, s.st[ST_KYOKU], s.st[ST_HONBA], s.st[ST_POOL], s.wall[DORA0],
         s.scores[0], s.scores[1])
    for i in range(DEAL):
        p = d if i < 13 else 1 - d
        _add_tile(s, p, s.wall[i], ra)
        log(s, EV_DEAL, p, s.wall[i], 0, 0, 0, 0, 0)
    _turn_indicator(s)
    for p in range(N_SEATS):
        _update_waits(s, p, ra, ts, th)
    # yaku reach (simcore.nb.reach), in a sample of games: the hand each seat's reach was last
    # noted for (_reach_changed)
    reach = measures_reach(rec[RF_GAME])
    reach_key = np.full((N_SEATS, 4), -1, np.int64)
    if reach:
        for p in range(N_SEATS):
            if s.waits[p] != 0 and _reach_changed(reach_key, s, p):
                _note_reach(s, p, sr, ra, rec)
    rec[RF_DEALER] = d
    rec[RF_KYOKU] = s.st[ST_KYOKU]
    rec[RF_HONBA] = s.st[ST_HONBA]
    rec[RF_WINNER] = -1
    rec[RF_LOSER] = -1
    rec[RF_OUTCOME] = OUT_DRAW
    hand_from(s, sr, ra, ts, th, pol_ids, params, rngs, debug, rec, reach, reach_key, d,
              np.int64(-1), False, np.int64(-1), sx)


_search_decision = search_hook("simcore.riichi2p.search")   # the search kernel's own turns


@nb.njit(cache=True)
def hand_from(s, sr, ra, ts, th, pol_ids, params, rngs, debug, rec, reach, reach_key, p, drawn,
              rinshan, first, sx):
    """The hand from seat ``p``'s draw to its settlement; with ``first`` >= 0 from that seat's
    decision after drawing ``drawn`` (``rinshan``: a replacement tile) instead, the action
    ``first`` taken there (a search's candidate)."""
    need_draw = first < 0
    after_call = -1           # the meld type of the call just made (-1: none)
    call_low = 0
    call_kind = 0
    while True:
        if after_call < 0:
            if need_draw:
                if s.st[ST_LIVE_POS] >= s.st[ST_LIVE_END]:
                    break                                 # exhaustive draw
                drawn = s.wall[s.st[ST_LIVE_POS]]
                s.st[ST_LIVE_POS] += 1
                s.n_draws[p] += 1
                rinshan = False
                s.furiten[p] &= ~1                       # temporary furiten ends at a draw
                _add_tile(s, p, drawn, ra)
                log(s, EV_DRAW, p, drawn, 0, 0, 0, 0, 0)
            need_draw = True
            can_tsumo = _own_mask(s, p, drawn, rinshan, sr, ra, ts, th)
            fallback = A_DISCARD + drawn // 4
            if first >= 0:
                a, first = first, np.int64(-1)
            elif can_tsumo and (ra[RA_RIICHI_PASS_WIN] == 1 and s.riichi[p] > 0):
                a = A_TSUMO                                # forced: no passing after riichi
            elif searching(sx) and pol_ids[p] == P_SEARCH:
                a = _search_decision((s, sr, ra, ts, th, pol_ids, params, rngs, rec, p, drawn,
                                      rinshan, fallback), sx)
            else:
                a = _ask(s, p, D_OWN_TURN, drawn, ra, ts, th, pol_ids, params, rngs, fallback)
            if a == A_TSUMO:
                _score(s, p, drawn, True, False, rinshan, sr, ra)
                _settle_win(s, p, True, drawn, ra, rec)
                break
            if a == A_KYUUSHU:
                rec[RF_OUTCOME] = OUT_KYUUSHU
                log(s, EV_ABORT, -1, OUT_KYUUSHU, 0, 0, 0, 0, 0)
                break
            if A_ANKAN <= a < A_ANKAN + N_KINDS:
                k = a - A_ANKAN
                for _ in range(4):
                    _take_for_call(s, p, k, ra)
                _add_meld(s, p, MELD_ANKAN, k, -1)
                s.visible[k] += 4
                s.st[ST_CALLS] += 1
                log(s, EV_CALL, p, MELD_ANKAN, k, -1, 0, 0, 0)
                q = 1 - p
                # a kokushi waiting on it may rob an ankan (kokushi_ankan_ron, §4.3)
                if ra[RA_KOKUSHI_ANKAN_RON] and s.n_melds[q] == 0 and (s.waits[q] >> k) & 1:
                    if _may_ron(s, q, 4 * k + 1, True, sr, ra) and \
                            (s.res[R_YAKU] >> Y_KOKUSHI) & 1:
                        if _offer_robbing(s, q, 4 * k + 1, sr, ra, ts, th, pol_ids, params,
                                          rngs, rec):
                            break
                if _declare_kan(s, p, ra, rec):
                    break
                drawn = _replacement_draw(s, p, ra, ts, th)
                rinshan = True
                need_draw = False
                continue
            if A_KAKAN <= a < A_KAKAN + N_KINDS:
                k = a - A_KAKAN
                tile = _take_for_call(s, p, k, ra)
                for i in range(s.n_melds[p]):
                    if s.melds[p, i, 0] == MELD_PON and s.melds[p, i, 1] == k:
                        s.melds[p, i, 0] = MELD_KAKAN
                s.visible[k] += 1
                s.st[ST_CALLS] += 1
                log(s, EV_CALL, p, MELD_KAKAN, k, tile, 0, 0, 0)
                q = 1 - p
                if (s.waits[q] >> k) & 1:       # chankan (§4.3)
                    if not _may_ron(s, q, tile, True, sr, ra):
                        s.furiten[q] |= 1 | (2 if s.riichi[q] > 0 else 0)
                    elif _offer_robbing(s, q, tile, sr, ra, ts, th, pol_ids, params, rngs, rec):
                        break
                if _declare_kan(s, p, ra, rec):
                    break
                drawn = _replacement_draw(s, p, ra, ts, th)
                rinshan = True
                need_draw = False
                continue
            riichi_now = A_RIICHI <= a < A_RIICHI + N_KINDS
            k = a - A_RIICHI if riichi_now else a - A_DISCARD
        else:
            # right after a chi or pon: discard within kuikae
            m = s.mask
            for x in range(N_ACTIONS):
                m[x] = False
            fallback = -1
            for j in range(N_KINDS):
                if s.hand[p, j] > 0 and not _kuikae_banned(s, p, after_call, call_low,
                                                           call_kind, ra, j):
                    m[A_DISCARD + j] = True
                    if fallback < 0:
                        fallback = A_DISCARD + j
            a = _ask(s, p, D_AFTER_CALL, -1, ra, ts, th, pol_ids, params, rngs, fallback)
            riichi_now = False
            k = a - A_DISCARD
            after_call = -1
            drawn = -1
        # the discard. A hand in riichi discards the tile it drew (§7, §4.6.5), a red five
        # too; otherwise a five leaves plain first (the module doc). Either way the event names
        # the kind and whether it is red, not the copy (§17.8).
        if s.riichi[p] > 0 and drawn >= 0 and drawn // 4 == k:
            tsumogiri = True
            tile = _remove_drawn(s, p, drawn, ra)
        else:
            tsumogiri = drawn >= 0 and drawn // 4 == k and s.hand[p, k] == 1
            tile = _remove_tile(s, p, k, ra)
        j = s.n_disc[p]
        s.disc[p, j] = tile
        s.disc_flags[p, j] = (1 if riichi_now else 0) | (4 if tsumogiri else 0)
        s.n_disc[p] = j + 1
        s.disc_kinds[p] |= 1 << k
        q = 1 - p
        if s.riichi[q] > 0:
            s.safe_kinds[q] |= 1 << k
        if s.riichi[p] > 0:
            s.safe_kinds[p] |= 1 << k
        s.visible[k] += 1
        if not (k >= 27 or k % 9 == 0 or k % 9 == 8):
            s.nagashi_ok[p] = 0
        double = riichi_now and s.n_disc[p] == 1 and s.st[ST_ANY_CALL] == 0
        if s.ippatsu[p] and not riichi_now:
            s.ippatsu[p] = 0                      # the declarer's window ends at its next discard
        log(s, EV_DISCARD, p, tile, 1 if riichi_now else 0, 1 if tsumogiri else 0, 0, 0, 0)
        _update_waits(s, p, ra, ts, th)
        if reach and s.waits[p] != 0 and _reach_changed(reach_key, s, p):
            _note_reach(s, p, sr, ra, rec)        # (the answer below scores its ron afresh)
        if riichi_now:
            s.riichi[p] = 2 if double else 1      # void again below if the discard is ronned
        # the opponent's answer
        for x in range(N_ACTIONS):
            s.mask[x] = False
        ron_ok = _may_ron(s, q, tile, False, sr, ra)
        if ron_ok:
            s.mask[A_RON] = True
        calls = _call_options(s, q, tile, ra)
        b = A_PASS
        if ron_ok or calls:
            s.mask[A_PASS] = True
            must = ron_ok and ra[RA_RIICHI_PASS_WIN] == 1 and s.riichi[q] > 0
            b = A_RON if must else _ask(s, q, D_ON_DISCARD, tile, ra, ts, th, pol_ids,
                                           params, rngs, A_PASS)
        if b == A_RON:
            if riichi_now:
                s.riichi[p] = 0                   # the riichi is void: nothing deposited
            _may_ron(s, q, tile, False, sr, ra)
            _settle_win(s, q, False, tile, ra, rec)
            break
        if (s.waits[q] >> k) & 1:                 # a winning tile let pass (§6.2, §6.3)
            s.furiten[q] |= 1
            if s.riichi[q] > 0:
                s.furiten[q] |= 2
        if riichi_now:
            s.scores[p] -= ra[RA_RIICHI_DEPOSIT]
            s.st[ST_POOL] += ra[RA_RIICHI_DEPOSIT]
            s.ippatsu[p] = 1 if ra[RA_IPPATSU] else 0
            log(s, EV_RIICHI_PAID, p, ra[RA_RIICHI_DEPOSIT], 0, 0, 0, 0, 0)
            if reach and s.waits[p] != 0 and _reach_changed(reach_key, s, p):
                _note_reach(s, p, sr, ra, rec)    # the riichi established: its hand again
        if b == A_PASS:
            if s.st[ST_LIVE_POS] >= s.st[ST_LIVE_END]:
                break                             # the houtei discard passed: exhaustive draw
            p = q
            continue
        # a call: the discard moves into it
        s.disc_flags[p, j] |= 2
        s.called_from[p] = 1
        s.visible[k] -= 1
        s.furiten[q] &= ~1
        s.st[ST_ANY_CALL] = 1
        s.st[ST_CALLS] += 1
        _cancel_ippatsu(s)
        if A_CHI <= b < A_CHI + 3:
            low = k - (b - A_CHI)
            for jj in range(3):
                if low + jj != k:
                    _take_for_call(s, q, low + jj, ra)
                    s.visible[low + jj] += 1
            if _is_red(tile, ra):
                s.red_meld[q] |= _suit_bit(k)
            _add_meld(s, q, MELD_CHI, low, k)
            after_call, call_low, call_kind = MELD_CHI, low, k
            s.visible[k] += 1
            log(s, EV_CALL, q, MELD_CHI, low, tile, 0, 0, 0)
            p = q
            continue
        n = 2 if b == A_PON else 3
        for _ in range(n):
            _take_for_call(s, q, k, ra)
        if _is_red(tile, ra):
            s.red_meld[q] |= _suit_bit(k)
        s.visible[k] += n + 1
        if b == A_PON:
            _add_meld(s, q, MELD_PON, k, k)
            after_call, call_low, call_kind = MELD_PON, k, k
            log(s, EV_CALL, q, MELD_PON, k, tile, 0, 0, 0)
            p = q
            continue
        _add_meld(s, q, MELD_MINKAN, k, k)
        log(s, EV_CALL, q, MELD_MINKAN, k, tile, 0, 0, 0)
        p = q
        if _declare_kan(s, p, ra, rec):
            break
        drawn = _replacement_draw(s, p, ra, ts, th)
        rinshan = True
        need_draw = False
    _end_hand(s, ra, ts, th, rec)
    if debug:
        check_hand(s, ra)


@nb.njit(cache=True)
def _end_hand(s, ra, ts, th, rec):
    """The exhaustive draw's settlement (§10.2-§10.3), the dealer's repeat, honba, the record."""
    d = s.st[ST_DEALER]
    outcome = rec[RF_OUTCOME]
    tenpai = 0
    noten_paid = 0
    nagashi = 0
    if outcome == OUT_DRAW:
        for p in range(N_SEATS):
            if s.waits[p] != 0:
                tenpai |= 1 << p
        if ra[RA_NAGASHI_MANGAN] > 0:
            for p in range(N_SEATS):
                if not s.nagashi_ok[p] or s.n_disc[p] == 0:
                    continue
                if ra[RA_NAGASHI_MANGAN] == 2:
                    void_on = ra[RA_NAGASHI_VOID_ON]
                    if void_on == 0 and s.called_from[p]:
                        continue
                    if void_on == 1 and s.n_melds[p] > 0:
                        continue
                    if void_on == 2 and s.st[ST_CALLS] > 0:
                        continue
                nagashi |= 1 << p
            for p in range(N_SEATS):
                if (nagashi >> p) & 1:
                    loss = 12000 if p == d else 8000
                    if ra[RA_NAGASHI_HONBA]:
                        loss += s.st[ST_HONBA] * ra[RA_HONBA_VALUE]
                    s.scores[1 - p] -= loss
        if tenpai == 1 or tenpai == 2:
            winner = 0 if tenpai == 1 else 1
            pen = ra[RA_NOTEN_PENALTY]
            s.scores[1 - winner] -= pen
            if ra[RA_NOTEN_PENALTY_TO] == 0:
                s.scores[winner] += pen
            noten_paid = pen
        log(s, EV_EXHAUSTIVE, -1, tenpai, noten_paid, nagashi, 0, 0, 0)
    # the next hand
    if outcome == OUT_TSUMO or outcome == OUT_RON:
        keep = rec[RF_WINNER] == d
    elif outcome == OUT_DRAW:
        if (tenpai >> d) & 1:
            keep = True
        else:
            rule = ra[RA_NOTEN_DEALER_PASSES]
            keep = rule == 2 or (rule == 1 and s.st[ST_KYOKU] >= 4)
    else:
        keep = True
    # paarenchan's count (§8.4)
    if outcome == OUT_TSUMO or outcome == OUT_RON:
        w = rec[RF_WINNER]
        if ra[RA_PAARENCHAN_COUNTS] == 0 and w != d:
            s.st[ST_STREAK] = 0
            s.st[ST_STREAK_SEAT] = -1
        elif s.st[ST_STREAK_SEAT] == w:
            s.st[ST_STREAK] += 1
        else:
            s.st[ST_STREAK_SEAT] = w
            s.st[ST_STREAK] = 1
    elif ra[RA_PAARENCHAN_DRAW] == 0:             # any drawn hand, abortive ones too
        s.st[ST_STREAK] = 0
        s.st[ST_STREAK_SEAT] = -1
    if outcome == OUT_TSUMO or outcome == OUT_RON:
        s.st[ST_HONBA] = s.st[ST_HONBA] + 1 if keep else 0
    elif outcome == OUT_DRAW:
        if keep or ra[RA_HONBA_AFTER_DRAW] == 0:
            s.st[ST_HONBA] += 1
        else:
            s.st[ST_HONBA] = 0
    else:
        s.st[ST_HONBA] += 1
    if not keep:
        s.st[ST_KYOKU] = (s.st[ST_KYOKU] + 1) % N_HANDS
        s.st[ST_DEALER] = 1 - d
    riichi = 0
    for p in range(N_SEATS):
        if s.riichi[p] > 0:
            riichi |= 1 << p
    rec[RF_RIICHI] = riichi
    rec[RF_TENPAI] = tenpai
    rec[RF_CALLS] = s.st[ST_CALLS]
    rec[RF_DRAWS] = s.st[ST_LIVE_POS] - DEAL
    rec[RF_NOTEN_PAID] = noten_paid
    rec[RF_NAGASHI] = nagashi
    rec[RF_POOL_LEFT] = s.st[ST_POOL]
    rec[RF_SCORE0] = s.scores[0]
    rec[RF_SCORE1] = s.scores[1]
    rec[RF_DEALER_KEPT] = 1 if keep else 0
    log(s, EV_HAND_END, -1, s.scores[0], s.scores[1], s.st[ST_POOL], 0, 0, 0)


@nb.njit(cache=True)
def _ankans(s, p) -> int:
    n = 0
    for i in range(s.n_melds[p]):
        if s.melds[p, i, 0] == MELD_ANKAN:
            n += 1
    return n


@nb.njit(cache=True)
def _open_calls(s, p) -> int:
    return s.n_melds[p] - _ankans(s, p)


@nb.njit(cache=True)
def check_hand(s, ra):
    """The round-driver invariants (spec §15): 136 tiles accounted for, hand sizes, kans."""
    for p in range(N_SEATS):
        n = 0
        for k in range(N_KINDS):
            if s.hand[p, k] < 0 or s.hand[p, k] > 4:
                raise AssertionError("a concealed count out of 0..4")
            n += s.hand[p, k]
        if n != 13 - 3 * s.n_melds[p] and n != 14 - 3 * s.n_melds[p]:
            raise AssertionError("a concealed hand of the wrong size")
    if s.st[ST_N_KANS] > 4:
        raise AssertionError("more than four kans")
    if ra[RA_KAN_DORA] and s.st[ST_N_IND] > 1 + s.st[ST_N_KANS]:
        raise AssertionError("more indicators than kans allow")
    total = 0
    for p in range(N_SEATS):
        for k in range(N_KINDS):
            total += s.hand[p, k]
        for i in range(s.n_melds[p]):
            total += 3 if s.melds[p, i, 0] in (MELD_CHI, MELD_PON) else 4
        for j in range(s.n_disc[p]):
            if not s.disc_flags[p, j] & 2:
                total += 1
    if total != s.st[ST_LIVE_POS] + s.st[ST_N_RINSHAN]:
        raise AssertionError("tiles not conserved")


@nb.njit(cache=True)
def shuffle_wall(s, rng):
    """A uniform order of the 136 tile ids (Fisher-Yates)."""
    for i in range(N_TILES):
        s.wall[i] = i
    for i in range(N_TILES - 1, 0, -1):
        j = randint(rng, i + 1)
        s.wall[i], s.wall[j] = s.wall[j], s.wall[i]


@nb.njit(cache=True)
def _bust(s, p, ra) -> bool:
    return s.scores[p] <= 0 if ra[RA_BUST] == 0 else s.scores[p] < 0


@nb.njit(cache=True)
def play_game(ctx, game, seed, params, rounds_out, n_out, game_rec):
    """Play one whole game (hands until a player busts, §11); returns the new round-row count,
    or -1 when ``rounds_out`` is full (:func:`simcore.nb.games.games_loop`)."""
    s, sr, ra, ts, th, pol_ids, debug, sx = ctx
    rngs = np.zeros((1 + N_SEATS, 4), np.uint64)
    first = 0
    if ra[RA_FIRST_DEALER] == 0:
        seed_keyed(seed, game, np.int64(-1), 0, rngs[0])
        first = randint(rngs[0], N_SEATS)
    else:
        first = ra[RA_FIRST_DEALER] - 1
    s.st[ST_FIRST_DEALER] = first
    s.scores[first] = ra[RA_START_POINTS0]
    s.scores[1 - first] = ra[RA_START_POINTS1]
    s.st[ST_POOL] = 0
    s.st[ST_HONBA] = 0
    s.st[ST_KYOKU] = 0
    s.st[ST_DEALER] = first
    s.st[ST_STREAK] = 0
    s.st[ST_STREAK_SEAT] = -1
    end = END_HAND_LIMIT
    n_hands = 0
    winners = 0
    while n_hands < ra[RA_MAX_HANDS]:
        if n_out >= rounds_out.shape[0]:
            return -1
        rec = open_round(seed, game, n_hands, rngs, 1 + N_SEATS, rounds_out, n_out)
        shuffle_wall(s, rngs[RNG_SHUFFLE])
        play_hand(s, sr, ra, ts, th, pol_ids, params, rngs, debug, rec, sx)
        n_out += 1
        n_hands += 1
        b0 = _bust(s, 0, ra)
        b1 = _bust(s, 1, ra)
        if b0 and b1:
            end = END_BOTH_BUST
            if ra[RA_BOTH_BUST] == 1 or s.scores[0] == s.scores[1]:
                winners = 3
            else:
                winners = 1 if s.scores[0] > s.scores[1] else 2
            break
        if b0 or b1:
            end = END_BUST
            winners = 2 if b0 else 1
            break
    if end == END_HAND_LIMIT:
        if s.scores[0] == s.scores[1]:
            winners = 3
        else:
            winners = 1 if s.scores[0] > s.scores[1] else 2
    game_rec[GF_WINNERS] = winners
    game_rec[GF_END_REASON] = end
    game_rec[GF_ROUNDS] = n_hands
    game_rec[GF_SCORE0] = s.scores[0]
    game_rec[GF_SCORE1] = s.scores[1]
    game_rec[GF_FIRST_DEALER] = first
    game_rec[GF_POOL_LEFT] = s.st[ST_POOL]
    log(s, EV_GAME_END, -1, winners, end, 0, 0, 0, 0)
    return n_out


@nb.njit(cache=True, inline="always")
def games_loop(game_indices, seed, s, sr, ra, ts, th, pol_ids, params, debug, rounds_out,
               games_out, sx):
    """Play games ``game_indices`` of ``seed``; each depends on (seed, index) alone. Returns the
    round rows written, or -1 when ``rounds_out`` is too short (the caller grows it). ``sx``:
    ``s`` again (:func:`play_games`), or a search's scratch (the search kernel,
    :mod:`simcore.riichi2p.search`)."""
    # the caller keeps every argument alive for the whole call: callees need not count them
    sr, ra, ts, th, pol_ids = borrowed(sr), borrowed(ra), borrowed(ts), borrowed(th), borrowed(pol_ids)
    rounds_out, games_out = borrowed(rounds_out), borrowed(games_out)
    return kit_games_loop(play_game, (s, sr, ra, ts, th, pol_ids, debug, sx), game_indices,
                          seed, params, rounds_out, games_out)


@nb.njit(cache=True)
def play_games(game_indices, seed, s, sr, ra, ts, th, pol_ids, params, debug, rounds_out,
               games_out):
    """The policies' kernel: :func:`games_loop`."""
    return games_loop(game_indices, seed, s, sr, ra, ts, th, pol_ids, params, debug,
                      rounds_out, games_out, s)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
