"""The P-style trump mahjong round and match engine (spec ptrump.md §3-§9), whole matches compiled.

Rules implemented: 2 or 3 seats; the deal of 7, dora and ura indicators from the bottom (a joker
dora indicator reshuffles the stock), the stock with or without the indicators and a replacement
reserve (§3); draw, tsumo, closed and added kans, nukidora (replace or instead of the discard),
discard, riichi with its deposit, double riichi and the ippatsu window (§4, §7); pon (hand 7/4/1,
play continues from the caller, kuikae and kan-after-pon options) and open kan (from any seat or
the previous one), the limit of kans per round and replacement draws; robbing (kokushi on an ankan,
the nukidora joker per ``nukidora.rob``, chankan on a kakan); ron priority with ``multiple_ron``
head bump or all; furiten full / discard only / none (§6); may_decline_win; the exhaustive draw
with automatic noten judgement, noten penalties (optionally paid to the tenpai players), nagashi at
the draw or at a win; the pon penalty at the win or always; deposits carried or lost at a draw;
the match to the target score with its tie rule, the round cap, the first dealer and the next
dealer (§9). Scoring (yaku, bonuses, deductions, the yakuman) is :func:`simcore.ptrump.scoring
.score_win`: the engine hands it the hand, the revealed sets, the nukidora, the win card and the
context flags it tracks (tsumo/ron, riichi, double, open, ippatsu, rinshan, haitei/houtei,
first-turn wins, nagashi, dealer), and the indicators. In a sample of matches
(:mod:`simcore.nb.reach`) the round record also notes per seat the score slots some wait of its
hand would have scored (``reach*``, :func:`_note_reach`), for the yaku table's reach.

What this implementation simplifies:
- Replacement draws (kans, nukidora) come from the replacement reserve while it lasts, else the
  next card of the stock (the spec does not say which end: the source has no dead wall).
- With ``stock.indicators_in_stock`` the two indicators are the last two ordinary draws (ura
  first), still scored as indicators; with a replacement reserve they are never drawn.
- Which copy goes where: a pon/kan takes the lowest card ids of the rank from the hand; nukidora
  sets aside the drawn joker if it is one, else the lowest; bots choose discards by card id.
- ``noten_to_tenpai``: the noten penalties are split evenly among the tenpai players, rounded
  down (the remainder is lost).
- ``next_dealer: winner``: after a draw the deal rotates; with several winners the first after
  the discarder deals.
- Chombo is not modelled (no bot makes one); ``open_riichi: on`` makes every riichi open.

State lives in fixed-size arrays (:class:`RoundState`), each field commented with its encoding;
one driver, :func:`play_round`, enforces the invariants in debug mode (card conservation, hand
sizes 7/4/1 between turns, only legal actions) and :func:`play_match` the score bookkeeping.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.borrow import borrowed
from simcore.nb.events import log_event
from simcore.nb.layout import define_fields, state_spec
from simcore.nb.reach import measures_reach
from simcore.nb.rng import randint, seed_keyed, shuffle
from simcore.nb.search import search_hook, searching
from .layout import (
    A_ANKAN, A_DISCARD, A_KAKAN, A_KAN_OPEN, A_NUKI, A_PASS, A_PON, A_RIICHI, A_RON, A_TSUMO,
    HAND_MAX, JOKER, MAX_NUKI, MAX_SEATS, MAX_SETS, N_ACTIONS, N_CARDS, N_KAN_RANKS, N_RANKS,
    OBS_CNT, OBS_DEALER, OBS_DISC_RANKS, OBS_DORA_RANK, OBS_DRAWN, OBS_HAND_MASK, OBS_K,
    OBS_KANS_LEFT, OBS_LEN, OBS_MENZEN, OBS_N_SEATS, OBS_NUKI, OBS_OFFER, OBS_OPP_RIICHI,
    OBS_PHASE, OBS_PONS, OBS_RIICHI, OBS_SCORE, OBS_SEAT, OBS_SEEN, OBS_SET_RANK, OBS_STOCK,
    PH_AFTER_PON, PH_DRAW, PH_OFFER, PH_ROB,
)
from . import rules_array as R
from .hand import HR_PAAREN, is_complete, shanten, win_mask
from . import scoring as S
from .scoring import BD_COUNT, BD_POINTS, N_SLOTS, score_win
from .waits import _colour_of, _paaren_only, win_cards  # noqa: F401  (win_cards: family's)
from policies.ptrump import decide

MAX_DISC = 48          # discards per seat and round at most (stock 40 + replacements)
MAX_EVENTS = 8192      # replay log rows per match
MAX_ROUNDS_CAP = 100000
EV_WIDTH = 6
GAME_KEY = 1 << 40     # the "round" key of a match's own random stream (first dealer)

# Round outcomes (RF_OUTCOME).
OUTCOME_NAMES = ("tsumo", "ron", "draw")
define_fields(globals(), "OUT", OUTCOME_NAMES)
# Match end reasons (GF_END_REASON); the metrics' end_<name>_rate.
END_REASON_NAMES = ("target", "round_limit")
define_fields(globals(), "END", END_REASON_NAMES)
# How a ron card came (RF_ROBBED): a discard, or robbed from a kakan, an ankan, a nukidora.
ROB_NAMES = ("discard", "kakan", "ankan", "nuki")
define_fields(globals(), "ROB", ROB_NAMES)
# Revealed set kinds (RoundState.set_kind).
SET_KIND_NAMES = ("pon", "kan", "kakan", "ankan")
define_fields(globals(), "SK", SET_KIND_NAMES)
# Draw kinds (ST_DRAWN_KIND): nothing drawn this turn, an ordinary draw, a kan replacement, a
# nukidora replacement.
DRAW_KIND_NAMES = ("none", "ordinary", "kan_replacement", "nuki_replacement")
define_fields(globals(), "DK", DRAW_KIND_NAMES)

# Round record fields (int64 columns of ``rounds_out``).
ROUND_FIELDS = (
    "game", "round", "dealer", "n_seats",
    "outcome",              # OUT_*
    "winners",              # bit s: seat s won (several with multiple_ron: all)
    "winner",               # the first winner after the discarder (tsumo: the winner); -1: draw
    "discarder",            # ron: the seat whose card was taken; -1 otherwise
    "robbed",               # ROB_* of the ron card
    "win_card",             # card id; -1 at a draw
    "value",                # sum of the winners' values
    "value0", "value1", "value2",        # each seat's win value (0 if it did not win)
    "has_yaku0", "has_yaku1", "has_yaku2",
    "yaku_bits0", "yaku_bits1", "yaku_bits2",  # bit i: breakdown slot i scored (scoring.SLOTS)
    "deposits_taken",       # deposits the winner took
    "deposits_lost",        # deposits forfeited at a draw (riichi.deposits: lost_at_draw)
    "pons0", "pons1", "pons2",
    "kans0", "kans1", "kans2",
    "nuki0", "nuki1", "nuki2",
    "riichi0", "riichi1", "riichi2",     # 1 riichi, 2 double riichi (0 when voided by a ron)
    "tenpai0", "tenpai1", "tenpai2",     # at an exhaustive draw
    "noten_penalty",        # points lost to noten penalties (all seats)
    "noten_paid",           # of which paid to tenpai players (noten_to_tenpai)
    "nagashi_bonus",        # nagashi at_draw points
    "pon_penalty",          # pon_penalty always: points lost to pons (all seats)
    "turns", "stock_left", "reshuffles",
    "pool",                 # deposits on the table after the round
    "score0", "score1", "score2",        # after the round
    # per seat, its win's counted items (scoring's breakdown counts, COUNT_BITS bits each in the
    # order of COUNTED_SLOTS: dora, ura, yakuhai sets, nukidora, pons charged); 0 if it did not win
    "counted0", "counted1", "counted2",
    # per seat, the score slots (bits as yaku_bits) some wait of its hand would have scored at
    # some point of the round (the winner's include what it won with), in the games that measure
    # it (simcore.nb.reach; else 0): _note_reach
    "reach0", "reach1", "reach2",
)
N_RF = define_fields(globals(), "RF", ROUND_FIELDS)
# The breakdown slots whose count a win records (RF_COUNTED*), and the bits each count takes.
COUNTED_NAMES = ("dora", "ura", "yakuhai", "nukidora", "pon")
COUNTED_SLOTS = np.array([R.SLOT[name] for name in COUNTED_NAMES], np.int64)
COUNT_BITS = 4
# Match record fields.
GAME_FIELDS = (
    "winner",        # seat; -1: shared
    "winners",       # bit s: seat s shares the win
    "n_winners",
    "n_seats",
    "end_reason",    # END_*
    "rounds",
    "first_dealer",
    "score0", "score1", "score2",
    "pool_left",     # deposits lost at match end
)
N_GF = define_fields(globals(), "GF", GAME_FIELDS)

# Replay events: rows (type, seat, a, b, c, d) of ``RoundState.ev``.
EV_TYPES = (
    "round_start",  # dealer; dora indicator, ura indicator, reshuffles, round index
    "deal",         # seat; card-id mask of the hand
    "draw",         # seat; card, DK_* kind
    "discard",      # seat; card, riichi (0, 1, 2 double), called-later 0
    "pon",          # seat; card taken, from seat, card-id mask of the set
    "kan",          # seat; SK_* kind, rank, card-id mask of the set
    "nuki",         # seat; card
    "deposit",      # seat; points, pool after
    "win",          # seat; card, value, 1 ron / 0 tsumo, robbed kind
    "win_detail",   # seat; yaku bits, card-id mask of the concealed hand, discarder, has_yaku
    "exhaustive",   # -1; tenpai bits, noten penalty, nagashi bits, noten paid
    "round_end",    # winner; winners bits, pool, scores s0 | s1 << 20 | s2 << 40 (offset), round
    "game_end",     # winner; winners bits, end reason, rounds, pool left
)
define_fields(globals(), "EV", EV_TYPES)
SCORE_OFFSET = 1 << 19   # round_end packs scores + offset in 20 bits each

# Random streams of a round (rng.seed_keyed purposes): the shuffle, then one per seat.
RNG_SHUFFLE, RNG_SEAT0 = 0, 1
N_RNG = RNG_SEAT0 + MAX_SEATS

ST_FIELDS = (
    "log", "n_ev",          # 1: log events; rows written (simcore.nb.events)
    "n",                    # seats
    "pos", "stock_end",     # ordinary draws: wall[pos:stock_end], then the indicators if in stock
    "ind_pos", "ind_end",   # indicators still drawable: wall[ind_pos:ind_end] (ind_end 52 if not)
    "res_pos", "res_end",   # replacement reserve wall[res_pos:res_end]
    "dora_ind", "ura_ind",  # indicator card ids
    "kans",                 # kans this round (all seats)
    "calls",                # pon/kan (and nukidora when it interrupts) this round: first-turn rules
    "discards",             # discards this round (all seats)
    "turns",
    "drawn", "drawn_kind",  # the card drawn last this turn and its DK_* (-1 / DK_NONE)
    "n_legal",
    "reshuffles",
    "dealer",
)
N_ST = define_fields(globals(), "ST", ST_FIELDS)


# The round's state, one line per array: (name, shape, dtype, fill); ``new_round_state(log)``
# allocates it (``deal`` resets it each round; ``log``: room for the replay event log).
RoundState, new_round_state = state_spec("RoundState", (
    # card ids; [0, 7n) the hands, 52 ura and 53 dora indicator, [52 - reserve, 52) the
    # replacement reserve, the rest the stock
    ("wall", (N_CARDS,), np.int64, 0),
    ("hand", (MAX_SEATS, HAND_MAX), np.int64, -1),  # concealed card ids, unordered; nh[s] used
    ("nh", (MAX_SEATS,), np.int64, 0),
    ("cnt", (MAX_SEATS, N_RANKS), np.int64, 0),  # concealed rank counts (always as ``hand``)
    ("sets", (MAX_SEATS, MAX_SETS, 4), np.int64, -1),  # revealed sets' card ids
    ("set_kind", (MAX_SEATS, MAX_SETS), np.int64, -1),  # SK_* (= scoring.REV_*), -1 unused
    ("set_rank", (MAX_SEATS, MAX_SETS), np.int64, -1),  # rank of each set (-1: none)
    ("n_sets", (MAX_SEATS,), np.int64, 0),
    ("nuki", (MAX_SEATS, MAX_NUKI), np.int64, -1),  # jokers set aside (card ids)
    ("n_nuki", (MAX_SEATS,), np.int64, 0),
    ("disc", (MAX_SEATS, MAX_DISC), np.int64, 0),  # discards in order (card ids)
    ("disc_called", (MAX_SEATS, MAX_DISC), np.bool_, False),  # taken by a pon / open kan
    ("n_disc", (MAX_SEATS,), np.int64, 0),
    ("disc_ranks", (MAX_SEATS,), np.int64, 0),          # bit r: rank r among own discards (called too)
    ("riichi", (MAX_SEATS,), np.int64, 0),              # 0, 1 riichi, 2 double riichi
    ("ippatsu", (MAX_SEATS,), np.int64, 0),             # 1 while the ippatsu window is open
    ("temp_furiten", (MAX_SEATS,), np.int64, 0),        # 1 from a passed winning card to the own discard
    ("riichi_furiten", (MAX_SEATS,), np.int64, 0),      # 1 once a riichi hand passed a winning card
    ("nagashi_bad", (MAX_SEATS,), np.int64, 0),         # 1 once a discard was not yaochu or was called
    ("n_draws", (MAX_SEATS,), np.int64, 0),             # own draws this round (ordinary and replacement)
    ("pons", (MAX_SEATS,), np.int64, 0),                # pons made (a later kakan does not undo it)
    ("kans", (MAX_SEATS,), np.int64, 0),                # kans made (any kind)
    # cached waits of the between-turns hand under the win rule (:func:`_wait_mask`; -1:
    # stale): bits 0..13 the ranks with a completing card, bits 16..29 those of them only a
    # one-colour paaren completes, bits 32.. the colour that completes them (``_colour_of``)
    ("wm", (MAX_SEATS,), np.int64, 0),
    ("st", (N_ST,), np.int64, 0),              # the scalars ST_* above
    ("ev", lambda log: (MAX_EVENTS if log else 1, EV_WIDTH), np.int64, 0),  # replay log
    ("obs", (OBS_LEN,), np.int64, 0),          # policy inputs
    ("mask", (N_ACTIONS,), np.bool_, False),
    ("legal", (N_ACTIONS,), np.int64, 0),
    ("conc", (HAND_MAX + 1,), np.int64, 0),    # scratch: one seat's concealed ids for scoring
    ("bd", (2, N_SLOTS), np.int64, 0),         # scoring's breakdown (row BD_POINTS: points)
    ("tmp_cnt", (N_RANKS,), np.int64, 0),      # scratch counts
), __name__)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, inline="always")
def rank_of(c):
    """Rank index of card id c (0..12; 13 for the jokers)."""
    return c // 4 if c < 52 else JOKER


@nb.njit(cache=True, inline="always")
def copies_of(r):
    return 2 if r == JOKER else 4


@nb.njit(cache=True, inline="always")
def _allow(mask, legal, st, a):
    if not mask[a]:
        mask[a] = True
        legal[st[ST_N_LEGAL]] = a
        st[ST_N_LEGAL] += 1


@nb.njit(cache=True, inline="always")
def _clear(mask, legal, st):
    for i in range(st[ST_N_LEGAL]):
        mask[legal[i]] = False
    st[ST_N_LEGAL] = 0


@nb.njit(cache=True, inline="always")
def stock_left(st):
    """Ordinary draws left (the reserve not counted)."""
    return (st[ST_STOCK_END] - st[ST_POS]) + (st[ST_IND_END] - st[ST_IND_POS])


@nb.njit(cache=True, inline="always")
def _replacement_left(st):
    return (st[ST_RES_END] - st[ST_RES_POS]) + stock_left(st)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add_card(rs, s, c):
    rs.hand[s, rs.nh[s]] = c
    rs.nh[s] += 1
    rs.cnt[s, rank_of(c)] += 1
    rs.wm[s] = -1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _remove_card(rs, s, c):
    n = rs.nh[s]
    for i in range(n):
        if rs.hand[s, i] == c:
            rs.hand[s, i] = rs.hand[s, n - 1]
            rs.hand[s, n - 1] = -1
            rs.nh[s] = n - 1
            rs.cnt[s, rank_of(c)] -= 1
            rs.wm[s] = -1
            return
    raise AssertionError("card not in hand")


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _lowest_of_rank(rs, s, r):
    best = 999
    for i in range(rs.nh[s]):
        c = rs.hand[s, i]
        if rank_of(c) == r and c < best:
            best = c
    return best


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _hand_mask(rs, s):
    m = np.int64(0)
    for i in range(rs.nh[s]):
        m |= np.int64(1) << np.int64(rs.hand[s, i])
    return m


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _set_mask(rs, s, g):
    m = np.int64(0)
    for j in range(4):
        c = rs.sets[s, g, j]
        if c >= 0:
            m |= np.int64(1) << np.int64(c)
    return m


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _menzen(rs, s, ra):
    """No open call: no pon, kakan, and (``hand.open_kan_breaks_menzen``) no open kan."""
    for g in range(rs.n_sets[s]):
        k = rs.set_kind[s, g]
        if k == SK_PON or k == SK_KAKAN:
            return False
        if k == SK_KAN and ra[R.RA_HAND_OPEN_KAN_BREAKS_MENZEN]:
            return False
    return True


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _pon_count(rs, s, ra):
    """Pons that cost points: pons, and kakans while ``kakan_keeps_pon_penalty``."""
    n = 0
    for g in range(rs.n_sets[s]):
        k = rs.set_kind[s, g]
        if k == SK_PON or (k == SK_KAKAN and ra[R.RA_SCORING_DEDUCTIONS_KAKAN_KEEPS_PON_PENALTY]):
            n += 1
    return n


@nb.njit(cache=True)
def _is_yaochu(r, ra):
    if r == 0 or r == 8:
        return True
    return r >= 9 and ra[R.RA_CARDS_YAOCHU_HONOURS] != 0


WM_ONLY_SHIFT, WM_COLOUR_SHIFT = 16, 32    # the fields of RoundState.wm
RANK_MASK = (1 << N_RANKS) - 1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _wait_mask(rs, s, ra, hr):
    """Rank mask of the ranks with a card that completes seat s's between-turns hand under the
    win rule (cached in ``rs.wm`` until the hand changes, with the paaren-only waits and their
    colour for :func:`_completes`)."""
    if rs.wm[s] < 0:
        wm = win_mask(rs.cnt[s], rs.n_sets[s], hr)
        only, colour = _paaren_only(rs.hand[s], rs.nh[s], -1, rs.cnt[s], rs.n_sets[s], wm, hr,
                                    ra, False)
        if colour < 0:
            rs.wm[s] = wm & ~only     # a mixed hand: no card completes those ranks
        else:
            rs.wm[s] = wm | (only << WM_ONLY_SHIFT) | (colour << WM_COLOUR_SHIFT)
    return rs.wm[s] & RANK_MASK


@nb.njit(cache=True, inline="always")
def _completes(rs, s, c, ra):
    """Does card c complete seat s's hand (``rs.wm`` fresh: :func:`_wait_mask`)?"""
    r = rank_of(c)
    w = rs.wm[s]
    if not (w >> r) & 1:
        return False
    return not (w >> (WM_ONLY_SHIFT + r)) & 1 or \
        _colour_of(c, ra[R.RA_CARDS_ONE_COLOUR]) == (w >> WM_COLOUR_SHIFT)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _discard_furiten(rs, s, ra):
    """Is a card that completes seat s's hand among its own discards (§6; ``rs.wm`` fresh)?"""
    w = rs.wm[s]
    only = (w >> WM_ONLY_SHIFT) & RANK_MASK
    if (w & RANK_MASK & ~only) & rs.disc_ranks[s]:
        return True
    if only & rs.disc_ranks[s]:        # rare: a one-colour paaren wait, checked card by card
        for i in range(rs.n_disc[s]):
            if _completes(rs, s, rs.disc[s, i], ra):
                return True
    return False


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _live_waits(rs, s, wm, ra):
    """``wm`` less the ranks all of whose copies seat s holds (``tenpai.needs_live_wait``)."""
    if not ra[R.RA_TENPAI_NEEDS_LIVE_WAIT]:
        return wm
    out = wm
    for r in range(N_RANKS):
        if (wm >> r) & 1:
            held = rs.cnt[s, r]
            for g in range(rs.n_sets[s]):
                if rs.set_rank[s, g] == r:
                    held += 4 if rs.sets[s, g, 3] >= 0 else 3
            if r == JOKER:
                held += rs.n_nuki[s]
            if held >= copies_of(r):
                out &= ~(np.int64(1) << r)
    return out


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _kokushi_shape(cnt):
    """Eight cards of the seven kokushi ranks (1, 9, 10, J, Q, K, joker), each present."""
    for r in range(N_RANKS):
        yao = r == 0 or r >= 8
        if yao and cnt[r] == 0:
            return False
        if not yao and cnt[r] != 0:
            return False
    return True


# ---------------------------------------------------------------------------------------------
# Scoring: the engine's context -> scoring.score_win_ctx
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _nagashi_state(rs, s, ra):
    return rs.n_disc[s] >= 1 and rs.nagashi_bad[s] == 0


@nb.njit(cache=True, inline="always")
def _riichi_flags(rs, s, ra):
    """Seat s's riichi scoring flags (riichi, double, open) as they stand."""
    flags = np.int64(0)
    rch = rs.riichi[s]
    if rch:
        flags |= S.F_RIICHI
        if rch == 2:
            flags |= S.F_DOUBLE_RIICHI
        if ra[R.RA_RIICHI_OPEN_RIICHI] == R.OPEN_RIICHI_ON:
            flags |= S.F_OPEN_RIICHI
    return flags


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _score(rs, s, ra, hr, win_card, ron, dk, last, first):
    """Score seat s winning on ``win_card`` (in the hand already for a tsumo; not for a ron).

    ``dk`` is the ``DK_*`` kind of the tsumo card (rinshan, nukidora replacement); ``last`` and
    ``first`` the engine's windows (haitei/houtei; tenhou/chiihou/renhou), whose options
    (``haitei.on_replacement``, ``chiihou.excludes_replacement``) scoring applies.
    Returns (value, has_yaku, ok) from :func:`simcore.ptrump.scoring.score_win`: ``ok`` says the
    win may be declared. ``rs.bd`` holds the breakdown.
    """
    conc = rs.conc
    conc[:] = -1
    n = 0
    skipped = False
    for i in range(rs.nh[s]):
        c = rs.hand[s, i]
        if not ron and c == win_card and not skipped:
            skipped = True  # the win card goes separately
            continue
        conc[n] = c
        n += 1
    flags = 0
    if not ron:
        flags |= S.F_TSUMO
        if dk == DK_KAN_REPLACEMENT:
            flags |= S.F_RINSHAN
        elif dk == DK_NUKI_REPLACEMENT:
            flags |= S.F_NUKI_REPLACEMENT
    flags |= _riichi_flags(rs, s, ra)
    if rs.riichi[s] and rs.ippatsu[s]:
        flags |= S.F_IPPATSU
    if last:
        flags |= S.F_LAST
    if first:
        flags |= S.F_FIRST
    if _nagashi_state(rs, s, ra):
        flags |= S.F_NAGASHI
    if s == rs.st[ST_DEALER]:
        flags |= S.F_DEALER
    return score_win(conc, rs.set_kind[s], rs.sets[s], rs.n_nuki[s], win_card, flags,
                     rs.st[ST_DORA_IND], rs.st[ST_URA_IND], ra, hr, rs.bd)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _first_turn(rs, s, ra):
    """Seat s is in its first turn and nobody has called (tenhou/chiihou, §8: "tsumo on the
    first draw, no pon/kan before"): no own discard yet, and no earlier turn ended by a nukidora
    ``instead_of_discard`` (which ends the turn without a discard)."""
    if rs.n_disc[s] != 0 or rs.st[ST_CALLS] != 0:
        return False
    return rs.n_nuki[s] == 0 or ra[R.RA_NUKIDORA_MODE] == R.NUKIDORA_REPLACE


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _tenpai(rs, s, ra, hr):
    """Tenpai at an exhaustive draw (§2): a live wait, and with ``tenpai.needs_yaku`` one that
    scores with a yaku (a ron on an unseen-to-nobody copy: the lowest id not in the hand)."""
    w = _live_waits(rs, s, _wait_mask(rs, s, ra, hr), ra)
    if w == 0:
        return False
    if not ra[R.RA_TENPAI_NEEDS_YAKU]:
        return True
    for r in range(N_RANKS):
        if (w >> r) & 1:
            first = 4 * r if r < JOKER else 52
            for c in range(first, first + copies_of(r)):
                if not _completes(rs, s, c, ra):
                    continue          # a card of the rank that completes nothing
                held = False
                for i in range(rs.nh[s]):
                    if rs.hand[s, i] == c:
                        held = True
                if not held:
                    _, has_yaku, _ = _score(rs, s, ra, hr, c, np.bool_(True), np.int64(DK_NONE), np.bool_(False),
                                            np.bool_(False))
                    if has_yaku:
                        return True
                    break
    return False


# ---------------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def shuffle_wall(wall, n, rng):
    """Fill ``wall`` with a random order of the 54 card ids, reshuffling the stock and both
    indicators while the dora indicator (``wall[53]``) is a joker (§3.4).

    Parameters
    ----------
    wall : int64[N_CARDS], written in place.
    n : int, seats (the hands are ``wall[:7n]``, left alone by the reshuffles).
    rng : uint64[4], the round's shuffle stream, advanced.

    Returns
    -------
    int : reshuffles done.
    """
    for i in range(N_CARDS):
        wall[i] = i
    shuffle(rng, wall, np.int64(N_CARDS))
    k = 0
    while wall[N_CARDS - 1] >= 52:
        k += 1
        sub = wall[7 * n:]
        shuffle(rng, sub, sub.shape[0])
    return k


@nb.njit(cache=True)
def deal(rs, ra, n, dealer):
    """Reset the round state and deal from ``rs.wall`` as it stands (a test may stack it).

    Seat s gets ``wall[7s:7s+7]``; ``wall[53]`` is the dora indicator, ``wall[52]`` the ura;
    ``wall[52-reserve:52]`` the replacement reserve; the stock is ``wall[7n:52-reserve]`` (then
    the indicators, ura first, with ``stock.indicators_in_stock`` and no reserve).
    """
    st = rs.st
    _clear(rs.mask, rs.legal, st)
    log, n_ev, resh = st[ST_LOG], st[ST_N_EV], st[ST_RESHUFFLES]
    st[:] = 0
    st[ST_LOG], st[ST_N_EV], st[ST_RESHUFFLES] = log, n_ev, resh
    st[ST_N] = n
    st[ST_DEALER] = dealer
    res = ra[R.RA_STOCK_REPLACEMENT_RESERVE]
    st[ST_POS] = 7 * n
    st[ST_STOCK_END] = 52 - res
    st[ST_RES_POS] = 52 - res
    st[ST_RES_END] = 52
    st[ST_IND_POS] = 52
    st[ST_IND_END] = 54 if (ra[R.RA_STOCK_INDICATORS_IN_STOCK] and res == 0) else 52
    st[ST_URA_IND] = rs.wall[52]
    st[ST_DORA_IND] = rs.wall[53]
    st[ST_DRAWN] = -1
    for s in range(MAX_SEATS):
        rs.nh[s] = 0
        rs.hand[s, :] = -1
        rs.cnt[s, :] = 0
        rs.n_sets[s] = 0
        rs.sets[s, :, :] = -1
        rs.set_rank[s, :] = -1
        rs.set_kind[s, :] = -1
        rs.n_nuki[s] = 0
        rs.nuki[s, :] = -1
        rs.n_disc[s] = 0
        rs.disc_ranks[s] = 0
        rs.riichi[s] = 0
        rs.ippatsu[s] = 0
        rs.temp_furiten[s] = 0
        rs.riichi_furiten[s] = 0
        rs.nagashi_bad[s] = 0
        rs.n_draws[s] = 0
        rs.pons[s] = 0
        rs.kans[s] = 0
        rs.wm[s] = -1
    for s in range(n):
        for i in range(7):
            _add_card(rs, s, rs.wall[7 * s + i])


@nb.njit(cache=True)
def check_invariants(rs, between_turns):
    """Debug checks: every card id in exactly one place; concealed sizes 7 - 3k (7/4/1)."""
    st = rs.st
    n = st[ST_N]
    seen = np.zeros(N_CARDS, np.int64)
    for s in range(n):
        for i in range(rs.nh[s]):
            seen[rs.hand[s, i]] += 1
        for g in range(rs.n_sets[s]):
            for j in range(4):
                if rs.sets[s, g, j] >= 0:
                    seen[rs.sets[s, g, j]] += 1
        for i in range(rs.n_nuki[s]):
            seen[rs.nuki[s, i]] += 1
        for i in range(rs.n_disc[s]):
            if not rs.disc_called[s, i]:
                seen[rs.disc[s, i]] += 1
        cnt = np.zeros(N_RANKS, np.int64)
        for i in range(rs.nh[s]):
            cnt[rank_of(rs.hand[s, i])] += 1
        for r in range(N_RANKS):
            if cnt[r] != rs.cnt[s, r]:
                raise AssertionError("rank counts out of step with the hand")
        if between_turns and rs.nh[s] != 7 - 3 * rs.n_sets[s]:
            raise AssertionError("concealed hand is not 7, 4 or 1 cards between turns")
    for i in range(st[ST_POS], st[ST_STOCK_END]):
        seen[rs.wall[i]] += 1
    for i in range(st[ST_RES_POS], st[ST_RES_END]):
        seen[rs.wall[i]] += 1
    for i in range(52, 54):
        if i >= st[ST_IND_POS] or st[ST_IND_END] == 52:
            seen[rs.wall[i]] += 1
    for c in range(N_CARDS):
        if seen[c] != 1:
            raise AssertionError("card conservation violated")


# ---------------------------------------------------------------------------------------------
# Observations and decisions
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _set_obs(rs, s, phase, offer, scores, ra):
    """Seat s's observation of the decision at hand, written into ``rs.obs`` (layout.OBS_*)."""
    o = rs.obs
    st = rs.st
    n = st[ST_N]
    for r in range(N_RANKS):
        o[OBS_CNT + r] = rs.cnt[s, r]
        o[OBS_SEEN + r] = rs.cnt[s, r]
    for t in range(n):
        for g in range(rs.n_sets[t]):
            for j in range(4):
                c = rs.sets[t, g, j]
                if c >= 0:
                    o[OBS_SEEN + rank_of(c)] += 1
        o[OBS_SEEN + JOKER] += rs.n_nuki[t]
        for i in range(rs.n_disc[t]):
            if not rs.disc_called[t, i]:
                o[OBS_SEEN + rank_of(rs.disc[t, i])] += 1
    o[OBS_SEEN + rank_of(st[ST_DORA_IND])] += 1
    if offer >= 0:
        o[OBS_SEEN + rank_of(offer)] += 0  # already counted (in a discard pile or a set)
    o[OBS_PHASE] = phase
    o[OBS_SEAT] = s
    o[OBS_N_SEATS] = n
    o[OBS_DEALER] = st[ST_DEALER]
    o[OBS_K] = rs.n_sets[s]
    o[OBS_PONS] = _pon_count(rs, s, ra)
    for g in range(MAX_SETS):
        o[OBS_SET_RANK + g] = rs.set_rank[s, g]
    o[OBS_MENZEN] = 1 if _menzen(rs, s, ra) else 0
    o[OBS_OFFER] = offer
    o[OBS_DRAWN] = st[ST_DRAWN] if offer < 0 else -1   # at an offer the card drawn is another's
    o[OBS_STOCK] = stock_left(st)
    ind = rank_of(st[ST_DORA_IND])
    o[OBS_DORA_RANK] = (ind + 1) % 13
    o[OBS_RIICHI] = rs.riichi[s]
    k = 0
    for t in range(n):
        if t != s and rs.riichi[t]:
            k += 1
    o[OBS_OPP_RIICHI] = k
    o[OBS_NUKI] = rs.n_nuki[s]
    o[OBS_DISC_RANKS] = rs.disc_ranks[s]
    o[OBS_HAND_MASK] = _hand_mask(rs, s)
    o[OBS_KANS_LEFT] = ra[R.RA_KAN_MAX_PER_ROUND] - st[ST_KANS]
    o[OBS_SCORE] = scores[s]


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _decide(rs, s, phase, offer, scores, ra, hr, pol_ids, params, rngs):
    """Ask seat s's policy; check the answer is legal. One legal action: taken without asking."""
    st = rs.st
    if st[ST_N_LEGAL] == 1:
        return rs.legal[0]
    _set_obs(rs, s, phase, offer, scores, ra)
    a = decide(pol_ids[s], rs.obs, rs.mask, params[s], rngs[RNG_SEAT0 + s], hr, ra)
    if a < 0 or a >= N_ACTIONS or not rs.mask[a]:
        raise AssertionError("policy chose an illegal action")
    return a


# ---------------------------------------------------------------------------------------------
# Applying actions
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _interrupt(rs, n):
    """A pon or kan (or an interrupting nukidora): ends every ippatsu window and the
    first-turn conditions."""
    rs.st[ST_CALLS] += 1
    for t in range(n):
        rs.ippatsu[t] = 0


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _draw_ordinary(rs, s):
    st = rs.st
    if st[ST_POS] < st[ST_STOCK_END]:
        c = rs.wall[st[ST_POS]]
        st[ST_POS] += 1
    else:
        c = rs.wall[st[ST_IND_POS]]
        st[ST_IND_POS] += 1
    _add_card(rs, s, c)
    rs.n_draws[s] += 1
    st[ST_DRAWN] = c
    st[ST_DRAWN_KIND] = DK_ORDINARY
    log_event(st, rs.ev, EV_DRAW, s, c, DK_ORDINARY, 0, 0)
    return c


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _draw_replacement(rs, s, kind):
    st = rs.st
    if st[ST_RES_POS] < st[ST_RES_END]:
        c = rs.wall[st[ST_RES_POS]]
        st[ST_RES_POS] += 1
    elif st[ST_POS] < st[ST_STOCK_END]:
        c = rs.wall[st[ST_POS]]
        st[ST_POS] += 1
    elif st[ST_IND_POS] < st[ST_IND_END]:
        c = rs.wall[st[ST_IND_POS]]
        st[ST_IND_POS] += 1
    else:
        raise AssertionError("replacement draw with nothing left")
    _add_card(rs, s, c)
    rs.n_draws[s] += 1
    st[ST_DRAWN] = c
    st[ST_DRAWN_KIND] = kind
    log_event(st, rs.ev, EV_DRAW, s, c, kind, 0, 0)
    return c


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _replacement_ok(rs, ra):
    """A kan or a replace-mode nukidora may draw its replacement (§4)."""
    if ra[R.RA_KAN_REPLACEMENT_NEEDS_STOCK]:
        return stock_left(rs.st) >= 1
    return _replacement_left(rs.st) >= 1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _discard(rs, s, c, riichi_kind, ra):
    st = rs.st
    _remove_card(rs, s, c)
    i = rs.n_disc[s]
    rs.disc[s, i] = c
    rs.disc_called[s, i] = False
    rs.n_disc[s] = i + 1
    r = rank_of(c)
    rs.disc_ranks[s] |= np.int64(1) << r
    if not _is_yaochu(r, ra):
        rs.nagashi_bad[s] = 1
    rs.ippatsu[s] = 0
    rs.temp_furiten[s] = 0
    if riichi_kind:
        rs.riichi[s] = riichi_kind
        rs.ippatsu[s] = 1
    st[ST_DISCARDS] += 1
    log_event(st, rs.ev, EV_DISCARD, s, c, riichi_kind, 0, 0)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _take_from_discard(rs, d):
    """Mark the last discard of seat d as called."""
    i = rs.n_disc[d] - 1
    rs.disc_called[d, i] = True
    rs.nagashi_bad[d] = 1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _reveal_from_discard(rs, s, d, c, n, kind):
    """Seat s takes seat d's last discard c and ``n - 1`` cards of its rank from the hand (the
    lowest ids) into a new revealed set of ``kind`` (``SK_PON``, n = 3; ``SK_KAN``, n = 4); the
    discard is marked called. Returns the set's index in ``rs.sets[s]``."""
    r = rank_of(c)
    g = rs.n_sets[s]
    rs.sets[s, g, 0] = c
    for j in range(1, n):
        x = _lowest_of_rank(rs, s, r)
        _remove_card(rs, s, x)
        rs.sets[s, g, j] = x
    rs.set_kind[s, g] = kind
    rs.set_rank[s, g] = r
    rs.n_sets[s] = g + 1
    _take_from_discard(rs, d)
    return g


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_pon(rs, s, d, c):
    g = _reveal_from_discard(rs, s, d, c, np.int64(3), np.int64(SK_PON))
    rs.pons[s] += 1
    log_event(rs.st, rs.ev, EV_PON, s, c, d, _set_mask(rs, s, g), 0)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_open_kan(rs, s, d, c):
    g = _reveal_from_discard(rs, s, d, c, np.int64(4), np.int64(SK_KAN))
    rs.kans[s] += 1
    rs.st[ST_KANS] += 1
    log_event(rs.st, rs.ev, EV_KAN, s, SK_KAN, rank_of(c), _set_mask(rs, s, g), d)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_ankan(rs, s, r):
    g = rs.n_sets[s]
    for j in range(4):
        x = _lowest_of_rank(rs, s, r)
        _remove_card(rs, s, x)
        rs.sets[s, g, j] = x
    rs.set_kind[s, g] = SK_ANKAN
    rs.set_rank[s, g] = r
    rs.n_sets[s] = g + 1
    rs.kans[s] += 1
    rs.st[ST_KANS] += 1
    log_event(rs.st, rs.ev, EV_KAN, s, SK_ANKAN, r, _set_mask(rs, s, g), -1)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_kakan(rs, s, g):
    r = rs.set_rank[s, g]
    x = _lowest_of_rank(rs, s, r)
    _remove_card(rs, s, x)
    rs.sets[s, g, 3] = x
    rs.set_kind[s, g] = SK_KAKAN
    rs.kans[s] += 1
    rs.st[ST_KANS] += 1
    log_event(rs.st, rs.ev, EV_KAN, s, SK_KAKAN, r, _set_mask(rs, s, g), -1)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _nuki_card(rs, s):
    """The joker a nukidora sets aside: the drawn card if it is one, else the lowest id."""
    d = rs.st[ST_DRAWN]
    if d >= 52:
        for i in range(rs.nh[s]):
            if rs.hand[s, i] == d:
                return d
    return _lowest_of_rank(rs, s, np.int64(JOKER))


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_nuki(rs, s, c):
    _remove_card(rs, s, c)
    rs.nuki[s, rs.n_nuki[s]] = c
    rs.n_nuki[s] += 1
    log_event(rs.st, rs.ev, EV_NUKI, s, c, 0, 0, 0)


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _riichi_kind(rs, s, ra, scores):
    """0 if seat s may not declare riichi on this discard, else 1 (riichi) or 2 (double)."""
    st = rs.st
    if rs.riichi[s]:
        return 0
    if ra[R.RA_RIICHI_REQUIRES_MENZEN] and not _menzen(rs, s, ra):
        return 0
    need = st[ST_N] if ra[R.RA_RIICHI_MIN_STOCK] == R.RIICHI_MIN_STOCK_PLAYERS else 1
    if stock_left(st) < need:
        return 0
    if not ra[R.RA_RIICHI_ALLOW_NEGATIVE_SCORE] and scores[s] < ra[R.RA_RIICHI_DEPOSIT]:
        return 0
    if rs.n_disc[s] == 0 and st[ST_CALLS] == 0:
        return 2
    return 1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _mask_discards(rs, s, ra, hr, scores, kuikae_rank, after_pon):
    """Discard actions (and riichi discards that leave a live tenpai); ``kuikae_rank`` >= 0 is a
    rank that may not be discarded (after a pon without kuikae). In riichi: the drawn card.
    ``after_pon``: the discard right after a pon, never a riichi (spec §4, decision point 2:
    discard only; it matters with ``riichi.requires_menzen: false``)."""
    st, mask, legal = rs.st, rs.mask, rs.legal
    if rs.riichi[s]:
        _allow(mask, legal, st, A_DISCARD + st[ST_DRAWN])
        return
    rk = 0 if after_pon else _riichi_kind(rs, s, ra, scores)
    if rk and ra[R.RA_TENPAI_NEEDS_LIVE_WAIT] and shanten(rs.cnt[s], rs.n_sets[s], hr) > 0:
        rk = 0  # no discard leaves a live wait (shanten counts the copies outside the hand)
    tmp = rs.tmp_cnt
    done = 0  # ranks whose riichi test ran (bit r), with the result in ``ok``
    ok = 0
    by_card = 0  # ranks whose result depends on the discarded card's colour: tested per card
    colour_matters = (rs.n_sets[s] == 0 and hr[HR_PAAREN] != 0
                      and ra[R.RA_SCORING_YAKUMAN_PAAREN_ONE_COLOUR] != 0
                      and (ra[R.RA_CARDS_ONE_COLOUR] == R.ONE_COLOUR_SUIT
                           or ra[R.RA_CARDS_ONE_COLOUR] == R.ONE_COLOUR_RED_BLACK))
    for i in range(rs.nh[s]):
        c = rs.hand[s, i]
        r = rank_of(c)
        if r == kuikae_rank:
            continue
        _allow(mask, legal, st, A_DISCARD + c)
        if rk:
            # the waits left depend on the rank discarded, and on the card's colour only where
            # a paaren wait needs one colour (_paaren_only): then each card is tested
            if not (done >> r) & 1 or (by_card >> r) & 1:
                done |= np.int64(1) << r
                for q in range(N_RANKS):
                    tmp[q] = rs.cnt[s, q]
                tmp[r] -= 1
                w = win_mask(tmp, rs.n_sets[s], hr)
                if w and colour_matters:
                    only, colour = _paaren_only(rs.hand[s], rs.nh[s], c, tmp, rs.n_sets[s], w,
                                                hr, ra, False)
                    if only:
                        by_card |= np.int64(1) << r   # depends on the card's colour
                        if colour < 0:
                            w &= ~only
                if w:
                    rs.cnt[s, r] -= 1  # _live_waits reads the hand without the discard
                    w = _live_waits(rs, s, w, ra)
                    rs.cnt[s, r] += 1
                if w:
                    ok |= np.int64(1) << r
                else:
                    ok &= ~(np.int64(1) << r)
            if (ok >> r) & 1:
                _allow(mask, legal, st, A_RIICHI + c)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _mask_kans(rs, s, ra, hr):
    """Ankan / kakan actions after a draw (or after a pon with ``calls.kan_after_pon``)."""
    st, mask, legal = rs.st, rs.mask, rs.legal
    if st[ST_KANS] >= ra[R.RA_KAN_MAX_PER_ROUND] or not _replacement_ok(rs, ra):
        return
    if rs.riichi[s]:
        if not ra[R.RA_RIICHI_ANKAN]:
            return
        d = st[ST_DRAWN]
        if d < 0 or d >= 52:
            return
        r = rank_of(d)
        if rs.cnt[s, r] == 4 and rs.n_sets[s] < MAX_SETS:
            # the wait must stay: compare the win masks before the draw and after the kan
            tmp = rs.tmp_cnt
            for q in range(N_RANKS):
                tmp[q] = rs.cnt[s, q]
            tmp[r] -= 1
            before = win_mask(tmp, rs.n_sets[s], hr)
            tmp[r] -= 3
            after = win_mask(tmp, rs.n_sets[s] + 1, hr)
            if before != 0 and before == after:
                _allow(mask, legal, st, A_ANKAN + r)
        return
    if rs.n_sets[s] < MAX_SETS:
        for r in range(N_KAN_RANKS):
            if rs.cnt[s, r] == 4:
                _allow(mask, legal, st, A_ANKAN + r)
    if ra[R.RA_KAN_ADDED_KAN]:
        for g in range(rs.n_sets[s]):
            if rs.set_kind[s, g] == SK_PON and rs.cnt[s, rs.set_rank[s, g]] > 0:
                _allow(mask, legal, st, A_KAKAN + g)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _nuki_ok(rs, s, ra):
    if rs.cnt[s, JOKER] == 0 or rs.n_nuki[s] >= MAX_NUKI:
        return False
    if rs.riichi[s] and rs.st[ST_DRAWN] < 52:
        return False  # frozen: only the drawn joker
    if ra[R.RA_NUKIDORA_MODE] == R.NUKIDORA_REPLACE:
        return _replacement_ok(rs, ra)
    if ra[R.RA_KAN_REPLACEMENT_NEEDS_STOCK]:
        return stock_left(rs.st) >= 1
    return True


# ---------------------------------------------------------------------------------------------
# Ron (on discards and robbed cards)
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ron_status(rs, t, c, kind, ra, hr):
    """Can seat t ron card c (a ``ROB_*`` kind)? Returns (shape wait, allowed)."""
    r = rank_of(c)
    w = _wait_mask(rs, t, ra, hr)
    if not _completes(rs, t, c, ra):
        return False, False
    if kind == ROB_ANKAN or (kind == ROB_NUKI and ra[R.RA_NUKIDORA_ROB]
                             == R.ROB_NUKI_KOKUSHI_ONLY):
        if rs.n_sets[t] != 0:
            return False, False
        rs.cnt[t, r] += 1
        kok = _kokushi_shape(rs.cnt[t])
        rs.cnt[t, r] -= 1
        if not kok or not ra[R.RA_ITEM_ENABLED + R.SL_KOKUSHI]:
            return False, False
        if kind == ROB_ANKAN and not ra[R.RA_KAN_KOKUSHI_ROBS_ANKAN]:
            return False, False  # not robbable: passing it is no furiten
    if kind == ROB_KAKAN and not ra[R.RA_KAN_CHANKAN_ADDED_KAN]:
        return False, False
    f = ra[R.RA_FURITEN]
    if f != R.FURITEN_NONE:
        if _discard_furiten(rs, t, ra):
            return True, False
        if f == R.FURITEN_FULL and (rs.temp_furiten[t] or rs.riichi_furiten[t]):
            return True, False
    return True, True


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ron_flags(rs, t, ra):
    """(last, first) context of a ron by seat t on the card just offered."""
    st = rs.st
    last = stock_left(st) == 0
    first = False
    if st[ST_CALLS] == 0:
        if ra[R.RA_SCORING_ADDITIVE_RENHOU_WINDOW] == R.RENHOU_OWN_FIRST_DRAW:
            first = rs.n_draws[t] == 0
        else:
            first = st[ST_DISCARDS] <= st[ST_N]
    return last, first


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ron_round(rs, d, c, kind, ra, hr, scores, pol_ids, params, rngs, values, has_yaku):
    """Offer card c from seat d (discard or robbed) to the other seats in order: ron or pass.

    With no pon possible this is the whole offer; :func:`_offer_discard` adds the calls. Returns
    the winners bitmask; ``values[t]``, ``has_yaku[t]`` written for winners. Passing a winning
    card sets temporary (and in riichi, riichi) furiten.
    """
    n = rs.st[ST_N]
    winners = np.int64(0)
    for i in range(1, n):
        t = (d + i) % n
        wait, ok = _ron_status(rs, t, c, kind, ra, hr)
        if not wait:
            continue
        took = False
        if ok:
            last, first = _ron_flags(rs, t, ra)
            if kind != ROB_DISCARD:
                last = False
            v, y, legal = _score(rs, t, ra, hr, c, np.bool_(True), np.int64(DK_NONE), last, first)
            if legal:
                _clear(rs.mask, rs.legal, rs.st)
                _allow(rs.mask, rs.legal, rs.st, A_RON)
                if ra[R.RA_CALLS_MAY_DECLINE_WIN]:
                    _allow(rs.mask, rs.legal, rs.st, A_PASS)
                a = _decide(rs, t, PH_ROB if kind != ROB_DISCARD else PH_OFFER, c, scores, ra, hr,
                            pol_ids, params, rngs)
                if a == A_RON:
                    took = True
                    winners |= 1 << t
                    values[t] = v
                    has_yaku[t] = 1 if y else 0
                    if ra[R.RA_CALLS_MULTIPLE_RON] == R.MULTIPLE_RON_HEAD_BUMP:
                        return winners
        if not took:
            rs.temp_furiten[t] = 1
            if rs.riichi[t]:
                rs.riichi_furiten[t] = 1
    return winners


# ---------------------------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _record_seats(rs, rec):
    n = rs.st[ST_N]
    for s in range(n):
        rec[RF_PONS0 + s] = rs.pons[s]
        rec[RF_KANS0 + s] = rs.kans[s]
        rec[RF_NUKI0 + s] = rs.n_nuki[s]
        rec[RF_RIICHI0 + s] = rs.riichi[s]
    rec[RF_TURNS] = rs.st[ST_TURNS]
    rec[RF_STOCK_LEFT] = stock_left(rs.st)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _settle_win(rs, ra, hr, scores, rec, winners, first_winner, discarder, c, kind, values,
                has_yaku):
    """Write the win into the record and the scores (value, deposits to the first winner)."""
    st = rs.st
    n = st[ST_N]
    rec[RF_OUTCOME] = OUT_RON if discarder >= 0 else OUT_TSUMO
    rec[RF_WINNERS] = winners
    rec[RF_WINNER] = first_winner
    rec[RF_DISCARDER] = discarder
    rec[RF_ROBBED] = kind
    rec[RF_WIN_CARD] = c
    total = 0
    for i in range(n):
        t = (first_winner + i) % n
        if not (winners >> t) & 1:
            continue
        # rescore for the breakdown of this winner (values were computed at the offer)
        if discarder >= 0:
            last, first = _ron_flags(rs, t, ra)
            if kind != ROB_DISCARD:
                last = False
            v, y, _ = _score(rs, t, ra, hr, c, np.bool_(True), np.int64(DK_NONE), last, first)
        else:
            v, y = values[t], has_yaku[t] != 0
        bits = 0
        for j in range(N_SLOTS):
            if rs.bd[BD_POINTS, j] != 0:
                bits |= np.int64(1) << j
        counted = np.int64(0)
        for j in range(COUNTED_SLOTS.shape[0]):
            counted |= min(rs.bd[BD_COUNT, COUNTED_SLOTS[j]], (1 << COUNT_BITS) - 1) \
                << (COUNT_BITS * j)
        rec[RF_COUNTED0 + t] = counted
        if measures_reach(rec[RF_GAME]):
            rec[RF_REACH0 + t] |= bits   # a won hand was within reach of what it scored
        rec[RF_VALUE0 + t] = v
        rec[RF_HAS_YAKU0 + t] = 1 if y else 0
        rec[RF_YAKU_BITS0 + t] = bits
        scores[t] += v
        total += v
        log_event(st, rs.ev, EV_WIN, t, c, v, 1 if discarder >= 0 else 0, kind)
        log_event(st, rs.ev, EV_WIN_DETAIL, t, bits, _hand_mask(rs, t), discarder, 1 if y else 0)
    rec[RF_VALUE] = total
    pool = scores[MAX_SEATS]
    rec[RF_DEPOSITS_TAKEN] = pool
    scores[first_winner] += pool
    scores[MAX_SEATS] = 0


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _settle_draw(rs, ra, hr, scores, rec):
    st = rs.st
    n = st[ST_N]
    rec[RF_OUTCOME] = OUT_DRAW
    rec[RF_WINNER] = -1
    rec[RF_DISCARDER] = -1
    rec[RF_WIN_CARD] = -1
    tenpai_bits = 0
    nagashi_bits = 0
    n_tenpai = 0
    for s in range(n):
        if _tenpai(rs, s, ra, hr):
            tenpai_bits |= 1 << s
            n_tenpai += 1
            rec[RF_TENPAI0 + s] = 1
        if (ra[R.RA_SCORING_ADDITIVE_NAGASHI_WHEN] == R.NAGASHI_AT_DRAW and ra[R.RA_SCORING_ADDITIVE_NAGASHI_ENABLED]
                and _nagashi_state(rs, s, ra)):
            nagashi_bits |= 1 << s
    pen = ra[R.RA_SCORING_DEDUCTIONS_NOTEN]
    lost = 0
    for s in range(n):
        if not (tenpai_bits >> s) & 1:
            if (nagashi_bits >> s) & 1 and not ra[R.RA_EXHAUSTIVE_DRAW_NAGASHI_KEEPS_NOTEN]:
                continue
            scores[s] -= pen
            lost += pen
    paid = 0
    if ra[R.RA_EXHAUSTIVE_DRAW_NOTEN_TO_TENPAI] and n_tenpai > 0:
        share = lost // n_tenpai
        for s in range(n):
            if (tenpai_bits >> s) & 1:
                scores[s] += share
                paid += share
    bonus = 0
    for s in range(n):
        if (nagashi_bits >> s) & 1:
            scores[s] += ra[R.RA_SCORING_ADDITIVE_NAGASHI_POINTS]
            bonus += ra[R.RA_SCORING_ADDITIVE_NAGASHI_POINTS]
    if ra[R.RA_RIICHI_DEPOSITS] == R.DEPOSITS_LOST_AT_DRAW:
        rec[RF_DEPOSITS_LOST] = scores[MAX_SEATS]
        scores[MAX_SEATS] = 0
    rec[RF_NOTEN_PENALTY] = lost
    rec[RF_NOTEN_PAID] = paid
    rec[RF_NAGASHI_BONUS] = bonus
    log_event(st, rs.ev, EV_EXHAUSTIVE, -1, tenpai_bits, lost, nagashi_bits, paid)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _first_bit(w, d, n):
    """The first seat of bitmask w after seat d (in play order)."""
    for i in range(1, n + 1):
        t = (d + i) % n
        if (w >> t) & 1:
            return t
    return -1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _offer_calls(rs, d, c, ra, hr, scores, pol_ids, params, rngs):
    """Offer discard c of seat d for pon / open kan (after nobody ronned it).

    Returns (caller, action): the seat that called and ``A_PON`` / ``A_KAN_OPEN``, or (-1,
    ``A_PASS``). Only one seat can hold two of the rank, but every seat is asked in order.
    """
    st = rs.st
    n = st[ST_N]
    r = rank_of(c)
    for i in range(1, n):
        t = (d + i) % n
        if rs.riichi[t] or rs.cnt[t, r] < 2 or rs.n_sets[t] >= MAX_SETS or rs.nh[t] < 4:
            continue
        _clear(rs.mask, rs.legal, st)
        _allow(rs.mask, rs.legal, st, A_PASS)
        _allow(rs.mask, rs.legal, st, A_PON)
        if (rs.cnt[t, r] >= 3 and st[ST_KANS] < ra[R.RA_KAN_MAX_PER_ROUND]
                and _replacement_ok(rs, ra)
                and (ra[R.RA_KAN_OPEN_KAN_FROM] == R.OPEN_KAN_ANY or t == (d + 1) % n)):
            _allow(rs.mask, rs.legal, st, A_KAN_OPEN)
        a = _decide(rs, t, np.int64(PH_OFFER), c, scores, ra, hr, pol_ids, params, rngs)
        if a != A_PASS:
            return t, a
    return -1, A_PASS


# ---------------------------------------------------------------------------------------------
# Yaku reach (simcore.nb.reach)
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, inline="always")
def _reach_changed(key, hand_ids, nh, riichi, s):
    """Has seat s's concealed hand or riichi changed since ``key`` (int64[MAX_SEATS, 2]: card-id
    mask, riichi) was set? Sets it to them. Revealed sets and nukidora need no place in the key:
    a call or a nukidora takes cards from the hand, which never come back."""
    m = np.int64(0)
    for i in range(nh[s]):
        m |= np.int64(1) << hand_ids[s, i]
    if key[s, 0] == m and key[s, 1] == riichi[s]:
        return False
    key[s, 0] = m
    key[s, 1] = riichi[s]
    return True


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _note_reach(rs, s, ra, hr, rec):
    """Add to ``rec[RF_REACH0 + s]`` the score slots some live wait of seat s's between-turns
    hand would score (bits as yaku_bits, of a legal win only), each wait scored by
    :func:`simcore.ptrump.scoring.score_win` as a tsumo in the riichi as it stands: a tsumo
    scores every item a ron does but renhou and houtei, both of the moment, with menzen tsumo
    besides. The moment's items (ippatsu, rinshan, haitei, houtei, tenhou, chiihou, renhou) are
    not asked for (the table does not count them as reached). Where the win card's colour can
    matter (chinitsu, kokushi_double, paaren under ``one_colour`` suit or red_black, the hand's
    other cards one colour) each colour of the wait is scored, else one card of it. Its own
    scratch arrays: ``rs.bd``, ``rs.conc`` keep what the engine scored last. The round loop
    calls this only when the hand or riichi changed (:func:`_reach_changed`), in the sampled
    games."""
    w = _live_waits(rs, s, _wait_mask(rs, s, ra, hr), ra)
    if w == 0:
        return
    conc = np.full(HAND_MAX + 1, -1, np.int64)
    held = np.int64(0)
    for i in range(rs.nh[s]):
        conc[i] = rs.hand[s, i]
        held |= np.int64(1) << rs.hand[s, i]
    for g in range(rs.n_sets[s]):
        held |= _set_mask(rs, s, g)
    # the colour of the hand's and sets' non-joker cards (-1: none yet, -2: mixed)
    mode = ra[R.RA_CARDS_ONE_COLOUR]
    colour = np.int64(-1)
    if mode == R.ONE_COLOUR_SUIT or mode == R.ONE_COLOUR_RED_BLACK:
        for c in range(52):
            if (held >> c) & 1:
                col = _colour_of(c, mode)
                if colour == -1:
                    colour = col
                elif col != colour:
                    colour = np.int64(-2)
                    break
    else:
        colour = np.int64(-2)   # numbers, off: the win card's colour decides nothing
    flags = np.int64(S.F_TSUMO) | _riichi_flags(rs, s, ra)
    if _nagashi_state(rs, s, ra):
        flags |= S.F_NAGASHI
    bd = np.zeros((2, N_SLOTS), np.int64)
    bits = rec[RF_REACH0 + s]
    for r in range(N_RANKS):
        if not (w >> r) & 1:
            continue
        first = 4 * r if r < JOKER else 52
        tried = 0   # colours of the rank scored (bit per colour)
        for c in range(first, first + copies_of(r)):
            if (held >> c) & 1 or not _completes(rs, s, c, ra):
                continue
            key = 0 if c >= 52 or colour == -2 else _colour_of(c, mode)
            if (tried >> key) & 1:
                continue
            tried |= 1 << key
            _, _, ok = score_win(conc, rs.set_kind[s], rs.sets[s], rs.n_nuki[s], c, flags,
                                 rs.st[ST_DORA_IND], rs.st[ST_URA_IND], ra, hr, bd)
            if ok:
                for j in range(N_SLOTS):
                    if bd[BD_POINTS, j] != 0:
                        bits |= np.int64(1) << j
    rec[RF_REACH0 + s] = bits


# How a turn starts (play_round): an ordinary draw, after a pon (discard), after an open kan's
# replacement draw (as after a draw).
START_DRAW, START_PON, START_KAN = 0, 1, 2


_search_decision = search_hook("simcore.ptrump.search")   # the search kernel's own turns


@nb.njit(cache=True)
def play_round(rs, ra, hr, n, dealer, scores, pol_ids, params, rngs, debug, rec, sx):
    """Deal from ``rs.wall`` (shuffled or stacked by the caller) and play one round to its end.

    Parameters
    ----------
    rs : RoundState, played in place (events appended to ``rs.ev`` when ``rs.st[ST_LOG]``).
    ra : int64[RA_LEN], the rules array; hr : int64[...], the hand-rules array (hand.py).
    n : int, seats (2 or 3); dealer : int, the seat that draws first.
    scores : int64[MAX_SEATS + 1]
        Seats' scores and, at ``[MAX_SEATS]``, the deposit pool; settled in place (wins,
        deposits, noten penalties, nagashi, pon penalties under ``always``).
    pol_ids : int64[MAX_SEATS]; params : float64[MAX_SEATS, n_params]
        Each seat's policy id (``bots``) and parameter row.
    rngs : uint64[N_RNG, 4], the round's streams; seat s decides with ``rngs[RNG_SEAT0 + s]``.
    debug : bool, check :func:`check_invariants` at every turn start.
    rec : int64[N_RF], the round record (game, round, dealer set by the caller; the rest here).
    sx : ``rs`` again, or a search's scratch (:mod:`simcore.ptrump.search`).
    """
    deal(rs, ra, n, dealer)
    st = rs.st
    rec[RF_N_SEATS] = n
    values = np.zeros(MAX_SEATS, np.int64)
    has_yaku = np.zeros(MAX_SEATS, np.int64)
    log_event(st, rs.ev, EV_ROUND_START, dealer, st[ST_DORA_IND], st[ST_URA_IND], st[ST_RESHUFFLES],
         rec[RF_ROUND])
    for s in range(n):
        log_event(st, rs.ev, EV_DEAL, s, _hand_mask(rs, s), 0, 0, 0)
    # yaku reach (simcore.nb.reach), in a sample of games: per seat the hand (card-id mask) and
    # riichi its reach was last noted for (a call or a nukidora changes the hand too)
    reach = measures_reach(rec[RF_GAME])
    reach_key = np.full((MAX_SEATS, 2), -1, np.int64)
    hand_ids, nh, riichi = rs.hand, rs.nh, rs.riichi
    if reach:
        for s in range(n):
            if _reach_changed(reach_key, hand_ids, nh, riichi, s):
                _note_reach(rs, s, ra, hr, rec)
    round_from(rs, ra, hr, n, scores, pol_ids, params, rngs, debug, rec, values, has_yaku, reach,
               reach_key, dealer, np.int64(START_DRAW), np.int64(-1), np.int64(-1), np.int64(-1),
               sx)


@nb.njit(cache=True, inline="always")
def round_from(rs, ra, hr, n, scores, pol_ids, params, rngs, debug, rec, values, has_yaku, reach,
               reach_key, seat, start, kuikae_rank, phase0, forced, sx):
    """The round from seat ``seat``'s turn (``start``: START_DRAW, START_PON or START_KAN) to its
    end; with ``forced`` >= 0 from that seat's decision at phase ``phase0`` instead (its turn
    begun, its draw made), which is ``forced`` (a search's candidate). Inlined, as numba would
    take the search kernel's round inside a decision for a recursion."""
    st = rs.st
    hand_ids, nh, riichi = rs.hand, rs.nh, rs.riichi
    resume = forced >= 0
    phase = phase0
    ended = False
    while not ended:
        # ---------------- the turn of ``seat`` ----------------
        if not resume:   # a resumed turn is begun, in phase phase0 (set above)
            st[ST_TURNS] += 1
            if start == START_DRAW:
                if debug:
                    check_invariants(rs, True)
                if stock_left(st) == 0:
                    _settle_draw(rs, ra, hr, scores, rec)
                    break
                _draw_ordinary(rs, seat)
                phase = PH_DRAW
            elif start == START_PON:
                phase = PH_AFTER_PON
            else:
                phase = PH_DRAW
        turn_over = False  # nukidora instead of the discard ended the turn
        c = -1
        rk = 0
        while True:
            _clear(rs.mask, rs.legal, st)
            if phase == PH_DRAW:
                dk = st[ST_DRAWN_KIND]
                win_ok = False
                if is_complete(rs.cnt[seat], rs.n_sets[seat], hr):
                    # raw windows; scoring applies haitei.on_replacement and
                    # chiihou.excludes_replacement (a kan is a call: never first)
                    last = stock_left(st) == 0
                    first = _first_turn(rs, seat, ra)
                    v, y, legal = _score(rs, seat, ra, hr, st[ST_DRAWN], np.bool_(False), dk, last, first)
                    if legal:
                        win_ok = True
                        values[seat] = v
                        has_yaku[seat] = 1 if y else 0
                        _allow(rs.mask, rs.legal, st, A_TSUMO)
                if not win_ok or ra[R.RA_CALLS_MAY_DECLINE_WIN]:
                    _mask_kans(rs, seat, ra, hr)
                    if _nuki_ok(rs, seat, ra):
                        _allow(rs.mask, rs.legal, st, A_NUKI)
                    _mask_discards(rs, seat, ra, hr, scores, np.int64(-1), False)
            else:  # after a pon
                if ra[R.RA_CALLS_KAN_AFTER_PON]:
                    _mask_kans(rs, seat, ra, hr)
                _mask_discards(rs, seat, ra, hr, scores, kuikae_rank, True)
            if resume:
                a = forced
                resume = False
            elif searching(sx):
                a = _search_decision((rs, seat, phase, kuikae_rank, scores, ra, hr, n, pol_ids,
                                      params, rngs, rec, values, has_yaku), sx)
            else:
                a = _decide(rs, seat, phase, np.int64(-1), scores, ra, hr, pol_ids, params, rngs)
            if a == A_TSUMO:
                _record_seats(rs, rec)
                _settle_win(rs, ra, hr, scores, rec, 1 << seat, seat, np.int64(-1), st[ST_DRAWN],
                            np.int64(ROB_DISCARD), values, has_yaku)
                ended = True
                break
            if a == A_NUKI or (a >= A_ANKAN and a < A_DISCARD):
                if a == A_NUKI:
                    c = _nuki_card(rs, seat)
                    kind = ROB_NUKI
                elif a < A_KAKAN:
                    c = _lowest_of_rank(rs, seat, a - A_ANKAN)
                    kind = ROB_ANKAN
                else:
                    c = _lowest_of_rank(rs, seat, rs.set_rank[seat, a - A_KAKAN])
                    kind = ROB_KAKAN
                w = _ron_round(rs, seat, c, kind, ra, hr, scores, pol_ids, params, rngs,
                               values, has_yaku)
                if w:  # robbed: the card goes to the winner(s)
                    _remove_card(rs, seat, c)
                    _record_seats(rs, rec)
                    _settle_win(rs, ra, hr, scores, rec, w, _first_bit(w, seat, n), seat, c,
                                kind, values, has_yaku)
                    ended = True
                    break
                if kind == ROB_NUKI:
                    _apply_nuki(rs, seat, c)
                    if ra[R.RA_NUKIDORA_INTERRUPTS]:
                        _interrupt(rs, n)
                    if ra[R.RA_NUKIDORA_MODE] != R.NUKIDORA_REPLACE:
                        turn_over = True
                        break
                    _draw_replacement(rs, seat, np.int64(DK_NUKI_REPLACEMENT))
                else:
                    if kind == ROB_ANKAN:
                        _apply_ankan(rs, seat, a - A_ANKAN)
                    else:
                        _apply_kakan(rs, seat, a - A_KAKAN)
                    _interrupt(rs, n)
                    _draw_replacement(rs, seat, np.int64(DK_KAN_REPLACEMENT))
                phase = PH_DRAW
                continue
            # a discard (maybe riichi)
            if a >= A_RIICHI:
                c = a - A_RIICHI
                rk = _riichi_kind(rs, seat, ra, scores)
            else:
                c = a - A_DISCARD
            _discard(rs, seat, c, rk, ra)
            break
        if ended:
            break
        # the hand between turns (after a discard, or a nukidora that ended the turn)
        if reach and _reach_changed(reach_key, hand_ids, nh, riichi, seat):
            _note_reach(rs, seat, ra, hr, rec)
        kuikae_rank = np.int64(-1)
        st[ST_DRAWN] = -1
        st[ST_DRAWN_KIND] = DK_NONE
        if turn_over:
            seat = (seat + 1) % n
            start = START_DRAW
            continue
        # ---------------- the discard c of ``seat`` is offered ----------------
        last_discard = stock_left(st) == 0
        w = _ron_round(rs, seat, c, np.int64(ROB_DISCARD), ra, hr, scores, pol_ids, params, rngs,
                       values, has_yaku)
        if w:
            if rk:
                rs.riichi[seat] = 0  # ronned on the declaring discard: void, nothing deposited
            _record_seats(rs, rec)
            _settle_win(rs, ra, hr, scores, rec, w, _first_bit(w, seat, n), seat, c,
                        np.int64(ROB_DISCARD), values, has_yaku)
            break
        if rk:
            dep = ra[R.RA_RIICHI_DEPOSIT]
            scores[seat] -= dep
            scores[MAX_SEATS] += dep
            log_event(st, rs.ev, EV_DEPOSIT, seat, dep, scores[MAX_SEATS], 0, 0)
        caller, call = -1, A_PASS
        if not last_discard or ra[R.RA_CALLS_CALL_LAST_DISCARD]:
            caller, call = _offer_calls(rs, seat, c, ra, hr, scores, pol_ids, params, rngs)
        if caller < 0:
            seat = (seat + 1) % n
            start = START_DRAW
            continue
        if call == A_PON:
            _apply_pon(rs, caller, seat, c)
            _interrupt(rs, n)
            kuikae_rank = -1 if ra[R.RA_CALLS_KUIKAE] else rank_of(c)
            start = START_PON
        else:  # open kan: reveal, replacement, go on as after a draw
            _apply_open_kan(rs, caller, seat, c)
            _interrupt(rs, n)
            _draw_replacement(rs, caller, np.int64(DK_KAN_REPLACEMENT))
            start = START_KAN
        seat = caller
    # ---------------- round end ----------------
    if rec[RF_OUTCOME] == OUT_DRAW:
        _record_seats(rs, rec)
    if ra[R.RA_SCORING_DEDUCTIONS_PON_PENALTY] == R.PON_PENALTY_ALWAYS:
        lost = 0
        for s in range(n):
            p = _pon_count(rs, s, ra) * ra[R.RA_SCORING_DEDUCTIONS_PON]
            scores[s] -= p
            lost += p
        rec[RF_PON_PENALTY] = lost
    rec[RF_RESHUFFLES] = st[ST_RESHUFFLES]
    rec[RF_POOL] = scores[MAX_SEATS]
    for s in range(n):
        rec[RF_SCORE0 + s] = scores[s]


# ---------------------------------------------------------------------------------------------
# A match, and many matches
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, inline="always")  # only play_matches calls it: one whole-program LLVM pass less
def play_match(game_index, seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out, n_rounds_out,
               game_rec, sx):
    """Play one match: rounds until a player reaches the target (or the round cap).

    Parameters
    ----------
    game_index : int
        With ``seed`` it keys every random stream (``rng.seed_keyed(seed, game, round,
        purpose)``); the first dealer (``match.first_dealer: random``) comes from the match's own
        stream (round key ``GAME_KEY``).
    seed : uint64
    rs, ra, hr, n, pol_ids, params, debug, sx : as in :func:`play_round`.
    rounds_out : int64[n_rows, N_RF], written from row ``n_rounds_out`` (one row per round).
    game_rec : int64[N_GF], written.

    Returns
    -------
    int : the new row count of ``rounds_out``, or -1 when it is full.
    """
    rngs = np.zeros((N_RNG, 4), np.uint64)
    scores = np.zeros(MAX_SEATS + 1, np.int64)
    fd = ra[R.RA_MATCH_FIRST_DEALER]
    if fd == R.FIRST_DEALER_RANDOM:
        seed_keyed(seed, game_index, np.int64(GAME_KEY), np.int64(0), rngs[0])
        first_dealer = randint(rngs[0], n)
    else:
        first_dealer = fd % n  # a seat number
    for s in range(n):  # compensation variants: a bonus by place in the first dealing order
        scores[s] = ra[R.RA_MATCH_START_SCORE] + ra[R.RA_MATCH_START_BONUS_FIRST_DEALER + (s - first_dealer) % n]
    dealer = first_dealer
    target = ra[R.RA_MATCH_TARGET_SCORE]
    max_rounds = ra[R.RA_MATCH_MAX_ROUNDS]
    rnd = np.int64(0)  # not a literal 0: seed_keyed compiles for one signature
    end_reason = END_ROUND_LIMIT
    while rnd < max_rounds:
        if n_rounds_out >= rounds_out.shape[0]:
            return -1
        rec = rounds_out[n_rounds_out]
        rec[:] = 0
        rec[RF_GAME] = game_index
        rec[RF_ROUND] = rnd
        rec[RF_DEALER] = dealer
        for p in range(N_RNG):
            seed_keyed(seed, game_index, rnd, p, rngs[p])
        rs.st[ST_RESHUFFLES] = shuffle_wall(rs.wall, n, rngs[RNG_SHUFFLE])
        before = scores[MAX_SEATS]
        for s in range(n):
            before += scores[s]
        play_round(rs, ra, hr, n, dealer, scores, pol_ids, params, rngs, debug, rec, sx)
        if debug:
            after = scores[MAX_SEATS]
            for s in range(n):
                after += scores[s]
            if after - before != round_balance(rec):
                raise AssertionError("score bookkeeping broken (spec §8)")
        log_event(rs.st, rs.ev, EV_ROUND_END, rec[RF_WINNER], rec[RF_WINNERS], scores[MAX_SEATS],
             _pack_scores(scores, n), rnd)
        n_rounds_out += 1
        rnd += 1
        top = scores[0]
        for s in range(1, n):
            top = max(top, scores[s])
        if top >= target:
            n_top = 0
            for s in range(n):
                if scores[s] == top:
                    n_top += 1
            if n_top == 1 or ra[R.RA_MATCH_TARGET_TIE] == R.TARGET_TIE_SHARED:
                end_reason = END_TARGET
                break
        w = rec[RF_WINNER]
        if ra[R.RA_MATCH_NEXT_DEALER] == R.NEXT_DEALER_WINNER and w >= 0:
            dealer = w
        else:
            dealer = (dealer + 1) % n
    top = scores[0]
    for s in range(1, n):
        top = max(top, scores[s])
    winners = np.int64(0)
    n_win = 0
    for s in range(n):
        if scores[s] == top:
            winners |= 1 << s
            n_win += 1
    game_rec[GF_WINNER] = _first_bit(winners, n - 1, n) if n_win == 1 else -1
    game_rec[GF_WINNERS] = winners
    game_rec[GF_N_WINNERS] = n_win
    game_rec[GF_N_SEATS] = n
    game_rec[GF_END_REASON] = end_reason
    game_rec[GF_ROUNDS] = rnd
    game_rec[GF_FIRST_DEALER] = first_dealer
    for s in range(n):
        game_rec[GF_SCORE0 + s] = scores[s]
    game_rec[GF_POOL_LEFT] = scores[MAX_SEATS]
    log_event(rs.st, rs.ev, EV_GAME_END, game_rec[GF_WINNER], winners, end_reason, rnd,
         scores[MAX_SEATS])
    return n_rounds_out


@nb.njit(cache=True)
def round_balance(rec):
    """What the scores plus the pool must change by in a round (spec §8): the win values, less
    noten penalties (plus what went to tenpai players), plus nagashi at the draw, less pon
    penalties under ``always``, less deposits forfeited at a draw."""
    return (rec[RF_VALUE] - rec[RF_NOTEN_PENALTY] + rec[RF_NOTEN_PAID] + rec[RF_NAGASHI_BONUS]
            - rec[RF_PON_PENALTY] - rec[RF_DEPOSITS_LOST])


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _pack_scores(scores, n):
    p = np.int64(0)
    for s in range(n):
        p |= (scores[s] + SCORE_OFFSET) << (20 * s)
    return p


def unpack_scores(p: int, n: int) -> list:
    return [((int(p) >> (20 * s)) & ((1 << 20) - 1)) - SCORE_OFFSET for s in range(n)]


@nb.njit(cache=True, inline="always")
def matches(game_indices, seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out, games_out,
            sx):
    """Play matches ``game_indices`` one after another with one round state.

    Returns the round rows written to ``rounds_out``, or -1 when it filled up (callers retry
    with more rows). ``games_out[i]`` is match ``game_indices[i]``'s record. ``sx``: ``rs``
    again, or a search's scratch (:mod:`simcore.ptrump.search`). Inlined into
    :func:`play_matches` and the search's kernel.
    """
    # The caller keeps every array alive for the whole call: callees need not count references.
    rs, ra, hr, pol_ids, params = borrowed(rs), borrowed(ra), borrowed(hr), borrowed(pol_ids), borrowed(params)
    rounds_out, games_out = borrowed(rounds_out), borrowed(games_out)
    k = 0
    for i in range(game_indices.shape[0]):
        k = play_match(game_indices[i], seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out,
                       k, games_out[i], sx)
        if k < 0:
            return -1
    return k


@nb.njit(cache=True)
def play_matches(game_indices, seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out,
                 games_out):
    """The policies' kernel: :func:`matches`."""
    return matches(game_indices, seed, rs, ra, hr, n, pol_ids, params, debug, rounds_out,
                   games_out, rs)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
