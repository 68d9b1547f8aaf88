"""The MOMOJAN round and game engine (spec §3-§10), whole games inside compiled code.

Rules implemented: setup and ante (§3), the turn structure (§4: draw or call; Kai one set at a time;
draw-three or discard after every Kai/Pon/Chi; chained Kai), riichi and ippatsu (§7), furiten (§6:
permanent, and after a declined ron in riichi where ``furiten.declined_ron`` says so), tsumo and
ron on every discard (§5), exhaustive draw with the tenpai settlement (§9), pot carry-over, dealer
repeat and its ante, every game end (dealerships, dealer streak, oshimai, bust, unpayable ante),
tie-break and leftover pot; the old edition's kan with replacement draws from the dead wall (§10).

What this implementation simplifies:
- An added kan counts for the draw settlement and kibidango as the kind of set it was added to
  (onto a Kai set: Kai-kind; onto a Pon: call-kind).
- A player in riichi may not kan. Mistaken calls and penalties are not modelled.
- Rank-1 stand-ins in kans (``kan.rank1_stand_ins``): a sun/moon kan holds at least one real
  copy (four rank-1 cards are the rank-1 number kan); the stand-ins taken from the hand go in a
  fixed order (lemon, mikan, ichigo, momo last). All three kinds take them (§10): a closed kan
  ``1l 1o 1i 4z``; an open kan on a discarded sun, or on a discarded rank-1 card standing in
  (``KAN_OPEN_AS``: ``1o 4z 4z`` + ``1i``); an added kan of a real sun or moon onto a revealed
  ``1l 1o 1i`` (``KAN_ADDED_AS``), which fixes it as that picture, beside the fourth rank-1 fruit
  (``KAN_ADDED``, the rank-1 number kan).
- A game stops after ``MAX_ROUNDS`` rounds (end reason ``round_limit``); with the default dealer
  streak rule no game comes near it.

State lives in fixed-size arrays (``RoundState``), each field commented with its encoding. One
driver, :func:`play_game`, runs rounds and enforces the invariants in debug mode.
"""

from __future__ import annotations

from collections import namedtuple

import numba as nb
import numpy as np

from simcore.nb.bits import popcount
from simcore.nb.events import log_event
from simcore.nb.borrow import borrowed
from simcore.nb.layout import define_fields, state_spec
from simcore.nb.reach import measures_reach
from simcore.nb.search import search_hook, searching
from simcore.nb.rng import seed_keyed, shuffle
from .actions import (
    CALL, DISCARD, DISCARD_RIICHI, DRAW, DRAW_THREE, KAI, KAN_ADDED, KAN_ADDED_AS, KAN_CLOSED,
    KAN_OPEN, KAN_OPEN_AS,
    MAX_REVEALED, MAX_SET_ROWS, N_ACTIONS, OBS_DEALER, OBS_DORA_INDICATOR, OBS_DRAWN, OBS_HAND,
    OBS_LAST_DISCARD, OBS_LEN, OBS_OPP_DISCARDS, OBS_OPP_HAND_SIZE, OBS_OPP_N_REVEALED,
    OBS_OPP_REVEALED, OBS_OPP_RIICHI, OBS_OPP_SCORE, OBS_OWN_DISCARDS, OBS_OWN_N_REVEALED,
    OBS_OWN_REVEALED, OBS_OWN_RIICHI, OBS_OWN_SCORE, OBS_PHASE, OBS_POT, OBS_SEAT, OBS_STOCK,
    OBS_N_LEGAL, OBS_SEEN, OBS_TURN, OBS_TENPAI_CHECKED, PH_AFTER_DRAW, PH_AFTER_DRAW3, PH_AFTER_REVEAL, PH_START, RON, TSUMO,
)
from .cards import N_FRUITS, N_KINDS, N_NUMBER_KINDS, N_PICTURES, N_RANKS, PICTURE_SHIFT
from .hand import (RANK1_BITS, ROW, can_ron_on, hand_size, is_complete, kind_bit,
                   picture_count, waits)
from .shanten import kinds_present, shanten
from .rules_array import (
    DECLINED_RIICHI_REST, KOMI_AT_START, POT_TO_WINNER, RA_ANTE_BASE, RA_ANTE_PER_REPEAT,
    RA_COMPENSATION_KOMI, RA_COMPENSATION_KOMI_AT, RA_COMPENSATION_START_BONUS_FIRST_DEALER,
    RA_COMPENSATION_START_BONUS_SECOND_DEALER, RA_DEAD_WALL, RA_DRAW_THREE_ENABLED,
    RA_DRAW_THREE_MIN_STOCK, RA_EXHAUSTIVE_DRAW_CALL_SET_POINTS, RA_EXHAUSTIVE_DRAW_KAI_SET_POINTS,
    RA_EXHAUSTIVE_DRAW_ROUNDING, RA_EXHAUSTIVE_DRAW_TENPAI_REQUIRES_YAKU, RA_FURITEN_DECLINED_RON,
    RA_FURITEN_ENABLED, RA_FURITEN_MOMO_EXEMPT, RA_GAME_BUST_BELOW, RA_GAME_DEALERSHIPS_EACH,
    RA_GAME_DEALER_STREAK_WIN, RA_GAME_LEFTOVER_POT, RA_GAME_TIE_BREAK, RA_HAND_SIZE,
    RA_KAI_OPTIONAL, RA_KAN_ADDED, RA_KAN_CLOSED, RA_KAN_ENABLED, RA_KAN_OPEN,
    RA_KAN_RANK1_STAND_INS, RA_POT_CARRY_OVER, RA_RIICHI_ENABLED, RA_RIICHI_IPPATSU_LOST_ON_CALL,
    RA_RIICHI_MIN_STOCK, RA_SCORING_YAKU_OSHIMAI_ENDS_GAME, RA_STARTING_POINTS,
    RA_TSUMO_AFTER_DRAW_THREE, RA_WIN_RIGHT_AFTER_KAI, ROUND_FLOOR, SLOT_SET_COUNT, TIE_DRAW,
    TIE_FIRST_DEALER, Y_OSHIMAI,
)
from .scoring import (
    N_SCORE_SLOTS, ORIGIN_CHI, ORIGIN_KAI, ORIGIN_KAN_CLOSED, ORIGIN_KAN_OPEN, ORIGIN_PON, VALID,
    WIN_IPPATSU, WIN_LAST_CARD, WIN_RIICHI, WIN_RINSHAN, WIN_RON, score_hand,
)
from .luck import LUCK_SCALE, N_LUCK, cached_waits, race_table, seat_luck
from policies.momojan import decide

U1 = np.uint64(1)
# Calls from one kernel to another pass constants as np.int64(3), np.bool_(True): a bare 3 or True
# is typed as a literal, and numba compiles the callee once per literal value (and once more for
# the plain type), each time with all of its own callees (benchmarks/bench_coldstart.py lists
# functions compiled for more than one signature).
MAX_WALL = 64
MAX_DISCARDS = 64
MAX_ROUNDS = 200
MAX_EVENTS = 4096

# Every layout below is one names tuple; ``define_fields`` derives the PREFIX_NAME index
# constants and the count from it (simcore.nb.layout).

# Round outcomes (RF_OUTCOME): OUT_TSUMO, OUT_RON, OUT_DRAW (exhaustive draw).
OUTCOME_NAMES = ("tsumo", "ron", "draw")
define_fields(globals(), "OUT", OUTCOME_NAMES)
# Game end reasons (GF_END_REASON): END_FOUR_DEALERSHIPS, ..., END_ROUND_LIMIT. The names are
# the metrics' end_<name>_rate.
END_REASON_NAMES = ("four_dealerships", "dealer_streak", "oshimai", "bust", "ante_unpayable",
                    "round_limit")
define_fields(globals(), "END", END_REASON_NAMES)
END_ANTE = END_ANTE_UNPAYABLE  # noqa: F821 (short name, kept for importers)

# Round record fields (int64 columns of ``rounds_out``): RF_GAME, RF_ROUND, ..., N_RF.
ROUND_FIELDS = (
    "game", "round", "dealer", "repeat",
    "outcome",                  # OUT_*
    "winner",                   # seat, or the draw payment's receiver; -1: nobody
    "points",                   # paid by the loser (a win), before the pot
    "subtotal",                 # points before doubling
    "doubled", "dora", "ron_bonus", "set_bonus",
    "sets",                     # the winner's sets
    "kai0", "kai1", "pon0", "pon1", "chi0", "chi1", "kan0", "kan1",  # revealed groups per seat
    "winner_concealed_sets",
    "draw3_0", "draw3_1",       # three-card draws per seat
    "riichi0", "riichi1",
    "tenpai0", "tenpai1",       # at an exhaustive draw
    "turns", "stock_left",
    "pot", "score0", "score1",  # after the round's settlement
    "yaku_bits",                # bit i: score slot i scored (rules_array)
    "draw_payment",             # exhaustive draw: points paid to the winner
    "gap_before",               # score0 - score1 when the round began (before the ante)
    # the luck of the round's draws (simcore.momojan.luck, LUCK_NAMES), in 1 / LUCK_SCALE
    "luck_dealer", "luck_other", "luck_tsumo", "luck_ron",
    # per seat, the score slots a wait of its hand would have scored at some point of the round
    # (bits as yaku_bits; the winner's include what it won with), in the games that measure it
    # (simcore.nb.reach; else 0): _note_reach
    "reach0", "reach1",
)
N_RF = define_fields(globals(), "RF", ROUND_FIELDS)
# Game record fields (int64 columns of ``games_out``): GF_WINNER, ..., N_GF.
GAME_FIELDS = (
    "winner",         # seat, -1: a tie
    "end_reason",     # END_*
    "rounds", "score0", "score1", "first_dealer",
    "pot_left",       # the pot when the game ended (before it went to the winner, if it did)
)
N_GF = define_fields(globals(), "GF", GAME_FIELDS)

# Replay events: rows (type, seat, a, b, c, d) of ``RoundState.ev``; types EV_ROUND_START, ...
EV_TYPES = (
    "round_start",   # dealer; dora indicator, hand 0, hand 1 (masks)
    "deal", "draw",  # draw: card
    "draw_three",    # three cards
    "kai",           # set row
    "pon", "chi",    # set row, called card
    "kan",           # kind, KAN_KIND_*, group, hand mask of the cards taken from the hand
    "discard",       # card, 1 with riichi
    "tsumo", "ron",  # card, points, winning hand mask, yaku bits
    "exhaustive",    # receiver; payment, set points 0, set points 1, tenpai bits
    "round_end",     # winner; score 0, score 1, pot, outcome
    "replacement",   # card (from the dead wall)
    "game_end",      # winner; end reason, score 0, score 1, leftover pot
)
define_fields(globals(), "EV", EV_TYPES)
EV_WIDTH = 6
# Kan kinds (EV_KAN's b): KAN_KIND_CLOSED, KAN_KIND_OPEN, KAN_KIND_ADDED.
KAN_KIND_NAMES = ("closed", "open", "added")
define_fields(globals(), "KAN_KIND", KAN_KIND_NAMES)

EngineTables = namedtuple("EngineTables", [
    "deck",          # int64[n_cards]: kind of every physical card
    "rows",          # int16[n_rows, 3]: distinct set multisets (HandTables.shape_sets)
    "row_is_run",    # bool[n_rows]: the row is a run (called by Chi), else Pon
    "row_num",       # uint64[n_rows]: the row's number cards as a hand mask
    "row_pic",       # int64[n_rows]: the row's picture (0..4) or -1
    "row_pic_n",     # int64[n_rows]: copies of that picture in the row
    "rows_by_card", "rows_by_card_start",  # CSR: rows containing kind k
    "rows_first_start",  # int64[N_KINDS + 1]: rows whose lowest card is kind k are
                         # start[k] .. start[k + 1] - 1 (rows are sorted)
    "stand_in",      # bool[N_PICTURES]: rank-1 cards may stand in for this picture (deck rule)
    "universal",     # int64[N_UNIVERSAL]: kind of each card of the universal deck (see _shuffle_wall)
    "dropped",       # int64[n]: universal ids not in this scenario's deck, ascending
    "race",          # float64[...]: luck.race_table(), the draws' luck evaluator
])

# The universal deck: every number kind once and every picture N_COPIES_MAX times. Each round
# shuffles it and drops the cards this scenario's deck lacks (see _shuffle_wall), so any two
# variants share one random permutation per round (common random numbers, issue 12).
N_COPIES_MAX = 4
N_UNIVERSAL = N_NUMBER_KINDS + N_PICTURES * N_COPIES_MAX
# Random streams of a round (rng.seed_keyed purposes): the shuffle, then one per seat.
RNG_SHUFFLE, RNG_SEAT0 = 0, 1
N_RNG = RNG_SEAT0 + 2

# Round scalars (``RoundState.st``): ST_STOCK_POS, ..., N_ST.
ST_FIELDS = (
    "log", "n_ev",             # 1: log events; events written to ``ev`` (simcore.nb.events)
    "stock_pos", "stock_end",  # wall[stock_pos:stock_end] is the stock
    "dead_pos", "dead_end",    # wall[dead_pos:dead_end]: the dead wall's replacement draws
    "dora",                    # the dora indicator's kind
    "last_discard",            # kind of the discard on offer to the next seat (-1: none)
    "turns",                   # turns begun this round
    "drawn",                   # kind drawn this turn (-1: none)
    "last_discard_idx",        # its index in the discarder's pile
    "last_was_empty",          # 1: the stock was empty after that discard (houtei)
    "n_legal",                 # entries of ``legal`` in use
    # The last win offered this decision (scored to check its yaku), kept so that taking it
    # does not score the hand again: hand (int64 bits), win card, flags, then the result.
    "win_valid", "win_hand", "win_card", "win_flags", "win_points", "win_subtotal", "win_sets",
)
N_ST = define_fields(globals(), "ST", ST_FIELDS)


# The round's state, one line per array: (name, shape, dtype, fill); ``new_round_state(log)``
# allocates it (``deal`` resets it for each round; ``log``: room for the replay event log).
RoundState, new_round_state = state_spec("RoundState", (
    ("wall", (MAX_WALL,), np.int64, 0),        # shuffled cards: hands from the front, dead wall
    ("hands", (2,), np.uint64, 0),             # concealed hand masks
    ("rev_cards", (2, MAX_REVEALED, 4), np.int16, -1),  # revealed groups' sorted cards
    ("rev_n", (2, MAX_REVEALED), np.int64, 0),  # cards per group (3, or 4 for a kan)
    ("rev_origin", (2, MAX_REVEALED), np.int64, 0),  # scoring.ORIGIN_* of each group
    ("n_rev", (2,), np.int64, 0),
    ("rev_mask", (2,), np.uint64, 0),          # hand mask of all revealed cards
    ("disc", (2, MAX_DISCARDS), np.int64, 0),  # discard piles in order
    ("disc_called", (2, MAX_DISCARDS), np.bool_, False),  # the discard was taken by a call
    ("n_disc", (2,), np.int64, 0),
    ("disc_set", (2,), np.uint64, 0),          # kind set of each player's discards (furiten)
    ("disc_mask", (2,), np.uint64, 0),         # hand mask of the discards not taken by a call
    ("riichi", (2,), np.int64, 0),             # 1 once declared
    ("ippatsu", (2,), np.int64, 0),            # 1 while ippatsu is live
    ("riichi_furiten", (2,), np.int64, 0),     # 1 once a riichi player passed a winning discard
    ("draw3", (2,), np.int64, 0),              # three-card draws this round
    ("st", (N_ST,), np.int64, 0),              # the scalars ST_* above
    ("ev", lambda log: (MAX_EVENTS if log else 1, EV_WIDTH), np.int64, 0),  # replay log
    ("scratch_yaku", (N_SCORE_SLOTS,), np.int64, 0),  # scoring outputs
    ("scratch_bonus", (3,), np.int64, 0),
    ("rev_tmp_cards", (MAX_REVEALED, 4), np.int16, -1),  # one seat's groups for scoring
    ("rev_tmp_n", (MAX_REVEALED,), np.int64, 0),
    ("rev_tmp_origin", (MAX_REVEALED,), np.int64, 0),
    ("obs", (OBS_LEN,), np.int64, 0),          # policy inputs
    ("mask", (N_ACTIONS,), np.bool_, False),
    ("legal", (N_ACTIONS,), np.int64, 0),      # the actions set in ``mask`` (cheap to clear)
    ("luck", (N_LUCK,), np.float64, 0.0),      # this round's draw luck so far (luck.LK_*)
    ("luck_waits", (2, 3), np.uint64, 0),      # per seat: hand, revealed mask, their waits
    ("stock_cnt", (N_KINDS,), np.int64, 0),    # copies of each kind in the stock: count_stock
    ("rngs", (N_RNG, 4), np.uint64, 0),         # the game's streams (play_game)
    ("scores", (2,), np.int64, 0),              # the game's scores (play_game)
), __name__)


def build_engine_tables(hand_tables, hand_rules) -> EngineTables:
    deck = [k for k in range(N_NUMBER_KINDS) if hand_rules.in_deck(k)]
    for p in range(N_PICTURES):
        deck += [N_NUMBER_KINDS + p] * hand_rules.picture_copies[p]
    rows = hand_tables.shape_sets
    assert len(rows) <= MAX_SET_ROWS
    is_run = np.array([r[0] < N_NUMBER_KINDS and r[1] < N_NUMBER_KINDS and r[2] < N_NUMBER_KINDS
                       and len({int(x) % N_RANKS for x in r}) == 3 for r in rows], np.bool_)
    by_card = [[] for _ in range(N_KINDS)]
    for i, r in enumerate(rows):
        for k in sorted(set(int(x) for x in r)):
            by_card[k].append(i)
    start = np.zeros(N_KINDS + 1, np.int32)
    for k in range(N_KINDS):
        start[k + 1] = start[k] + len(by_card[k])
    flat = np.array([i for lst in by_card for i in lst], np.int32)
    first = [int(r[0]) for r in rows]
    assert first == sorted(first) and all(int(r[0]) == min(int(x) for x in r) for r in rows)
    first_start = np.searchsorted(np.array(first, np.int64), np.arange(N_KINDS + 1)).astype(np.int64)
    row_num = np.array([sum(1 << int(k) for k in r if k < N_NUMBER_KINDS) for r in rows], np.uint64)
    row_pic = np.array([next((int(k) - N_NUMBER_KINDS for k in r if k >= N_NUMBER_KINDS), -1)
                        for r in rows], np.int64)
    row_pic_n = np.array([sum(1 for k in r if k >= N_NUMBER_KINDS) for r in rows], np.int64)
    stand_in = np.array([p in hand_rules.rank1_substitutes for p in range(N_PICTURES)], np.bool_)
    universal = list(range(N_NUMBER_KINDS)) + [N_NUMBER_KINDS + p for p in range(N_PICTURES)
                                               for _ in range(N_COPIES_MAX)]
    dropped = [k for k in range(N_NUMBER_KINDS) if not hand_rules.in_deck(k)]
    for p in range(N_PICTURES):  # the highest copies go: copy c of picture p is universal id
        # N_NUMBER_KINDS + N_COPIES_MAX * p + c
        first = N_NUMBER_KINDS + N_COPIES_MAX * p
        dropped += range(first + hand_rules.picture_copies[p], first + N_COPIES_MAX)
    assert len(universal) - len(dropped) == len(deck)
    return EngineTables(deck=np.array(deck, np.int64), rows=rows.astype(np.int16),
                        row_is_run=is_run, row_num=row_num, row_pic=row_pic, row_pic_n=row_pic_n,
                        rows_by_card=flat, rows_by_card_start=start,
                        rows_first_start=first_start, stand_in=stand_in,
                        universal=np.array(universal, np.int64),
                        dropped=np.array(sorted(dropped), np.int64), race=race_table())


# ---------------------------------------------------------------------------------------------
# Card helpers
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, inline="always")
def _card_unit(k):
    if k < N_NUMBER_KINDS:
        return U1 << np.uint64(k)
    return U1 << np.uint64(PICTURE_SHIFT + 3 * (k - N_NUMBER_KINDS))


@nb.njit(cache=True, inline="always")
def count_in(mask, k):
    if k < N_NUMBER_KINDS:
        return np.int64((np.uint64(mask) >> np.uint64(k)) & U1)
    return picture_count(mask, k - N_NUMBER_KINDS)


# Not inline="always" (nor _set_obs, _mask_discards, _mask_kai): large; compiled apart (in
# parallel, simcore/compile_plan) they leave the round loop, the cold start's serial tail, less
# to compile. Measured: same rounds/s.
@nb.njit(cache=True)
def _row_in_hand(hand, row_num, row_pic, row_pic_n, r, skip_card):
    """Are row r's cards, less one copy of ``skip_card`` (or none if -1), all in ``hand``?
    (A row holds number cards and at most one picture kind.) Takes the row arrays themselves,
    not EngineTables: reading a tuple's member inside a loop costs numba a reference count."""
    num = row_num[r]
    pic_n = row_pic_n[r]
    if skip_card >= 0:
        if skip_card < N_NUMBER_KINDS:
            if not (num & (U1 << np.uint64(skip_card))):
                return False
            num ^= U1 << np.uint64(skip_card)
        else:
            if row_pic[r] != skip_card - N_NUMBER_KINDS:
                return False
            pic_n -= 1
    if (np.uint64(hand) & num) != num:
        return False
    return pic_n == 0 or picture_count(hand, row_pic[r]) >= pic_n


@nb.njit(cache=True, inline="always")
def _allow_in(mask, legal, st, a):
    """Mark action a legal (and remember it, so that clearing the mask touches only these)."""
    if not mask[a]:
        mask[a] = True
        legal[st[ST_N_LEGAL]] = a
        st[ST_N_LEGAL] += 1


@nb.njit(cache=True, inline="always")
def _allow(rs, a):
    _allow_in(rs.mask, rs.legal, rs.st, a)


@nb.njit(cache=True, inline="always")
def _clear_mask(mask, legal, st):
    for i in range(st[ST_N_LEGAL]):
        mask[legal[i]] = False
    st[ST_N_LEGAL] = 0


@nb.njit(cache=True, inline="always")
def _stock_left(st):
    return st[ST_STOCK_END] - st[ST_STOCK_POS]


@nb.njit(cache=True, inline="always")
def _draw_card(st, wall, hands, stock_cnt, seat):
    k = wall[st[ST_STOCK_POS]]
    st[ST_STOCK_POS] += 1
    stock_cnt[k] -= 1
    hands[seat] += _card_unit(k)
    return k


@nb.njit(cache=True)
def count_stock(rs):
    """``rs.stock_cnt`` from the stock (``wall[stock_pos:stock_end]``): at the deal, and after
    anything that deals the stock again (a search's determinization); each draw takes its card
    off, so the draws' luck counts the outs left without walking the stock."""
    rs.stock_cnt[:] = 0
    for i in range(rs.st[ST_STOCK_POS], rs.st[ST_STOCK_END]):
        rs.stock_cnt[rs.wall[i]] += 1


@nb.njit(cache=True, inline="always")
def _add_group(rs, seat, c0, c1, c2, c3, n, origin):
    g = rs.n_rev[seat]
    rs.rev_cards[seat, g, 0], rs.rev_cards[seat, g, 1] = c0, c1
    rs.rev_cards[seat, g, 2], rs.rev_cards[seat, g, 3] = c2, c3
    rs.rev_n[seat, g] = n
    rs.rev_origin[seat, g] = origin
    rs.n_rev[seat] = g + 1
    for j in range(n):
        rs.rev_mask[seat] += _card_unit(rs.rev_cards[seat, g, j])


# ---------------------------------------------------------------------------------------------
# Wins
# ---------------------------------------------------------------------------------------------

# _score, _ron_scores, _tsumo_scores are inline: thin wrappers of score_hand, so they need no
# compiled copy of the scoring code of their own (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def _score(rs, seat, hand_with_win, win_card, flags, ra, tables):
    """score_hand on one seat's revealed groups; returns (status, points, subtotal, sets)."""
    for g in range(MAX_REVEALED):
        for j in range(4):
            rs.rev_tmp_cards[g, j] = rs.rev_cards[seat, g, j]
        rs.rev_tmp_n[g] = rs.rev_n[seat, g]
        rs.rev_tmp_origin[g] = rs.rev_origin[seat, g]
    return score_hand(hand_with_win, win_card, rs.rev_tmp_cards, rs.rev_tmp_n, rs.rev_tmp_origin,
                      rs.n_rev[seat], flags, rs.st[ST_DORA], ra, tables, rs.scratch_yaku,
                      rs.scratch_bonus)


@nb.njit(cache=True, inline="always")
def _win_flags(rs, seat, ron, last, rinshan):
    f = 0
    if ron:
        f |= WIN_RON
    if rs.riichi[seat]:
        f |= WIN_RIICHI
        if rs.ippatsu[seat]:
            f |= WIN_IPPATSU
    if last:
        f |= WIN_LAST_CARD
    if rinshan:
        f |= WIN_RINSHAN
    return f


@nb.njit(cache=True, inline="always")
def _ron_allowed(card, wait_set, disc_set, riichi_furiten, ra):
    """May a player ron ``card`` under the furiten rules (§6)? (hand.can_ron_on holds the rule.)"""
    if not ra[RA_FURITEN_ENABLED]:
        return (np.uint64(wait_set) >> np.uint64(card)) & U1 != 0
    return can_ron_on(card, wait_set, disc_set, ra[RA_FURITEN_MOMO_EXEMPT] != 0, riichi_furiten != 0)


@nb.njit(cache=True, inline="always")
def _offer_scores(rs, seat, hand, card, flags, ra, tables):
    """Does this win have a yaku? (rare: scores the hand) A valid one is remembered in ``st``
    (``ST_WIN_*``), with the breakdown left in the scratch arrays, for :func:`_finish_win`."""
    status, points, sub, n_sets = _score(rs, seat, hand, card, flags, ra, tables)
    st = rs.st
    st[ST_WIN_VALID] = 1 if status == VALID else 0
    st[ST_WIN_HAND], st[ST_WIN_CARD], st[ST_WIN_FLAGS] = np.int64(hand), card, flags
    st[ST_WIN_POINTS], st[ST_WIN_SUBTOTAL], st[ST_WIN_SETS] = points, sub, n_sets
    return status == VALID


@nb.njit(cache=True, inline="always")
def _ron_scores(rs, seat, card, ra, tables):
    """Does a ron on ``card`` (already a wait, not furiten) have a yaku? (rare: scores the hand)"""
    return _offer_scores(rs, seat, rs.hands[seat] + _card_unit(card), card,
                         _win_flags(rs, seat, True, rs.st[ST_LAST_WAS_EMPTY] != 0, False), ra, tables)


@nb.njit(cache=True, inline="always")
def _tsumo_scores(rs, seat, ra, tables, rinshan):
    """Does a complete hand's tsumo have a yaku? (rare: scores the hand)"""
    last = _stock_left(rs.st) == 0 and not rinshan
    return _offer_scores(rs, seat, rs.hands[seat], rs.st[ST_DRAWN],
                         _win_flags(rs, seat, False, last, rinshan), ra, tables)


# ---------------------------------------------------------------------------------------------
# Legal actions and observations
# ---------------------------------------------------------------------------------------------

# Not inline="always": see _row_in_hand.
@nb.njit(cache=True)
def _set_obs(o, hands, rev_mask, n_rev, disc_set, disc_mask, riichi, st, seat, phase, scores, pot,
             dealer):
    """Write seat ``seat``'s observation of the current decision into ``o``.

    Parameters
    ----------
    o : int64[OBS_LEN], written in place (every ``OBS_*`` field except ``OBS_TENPAI_CHECKED``,
        which the ``_mask_discards`` call before it sets). Masks are stored as int64 bit patterns.
    hands, rev_mask, disc_set, disc_mask : uint64[2]; n_rev, riichi, scores : int64[2]
        The ``RoundState`` arrays of the same names, and the game's scores.
    st : int64[N_ST]
        Round scalars (stock, dora indicator, last discard, drawn card, turns).
    seat, phase, pot, dealer : int
        The deciding seat, its ``PH_*`` phase, the pot and the dealer seat.
    """
    opp = 1 - seat
    o[OBS_HAND] = np.int64(hands[seat])
    o[OBS_OWN_REVEALED] = np.int64(rev_mask[seat])
    o[OBS_OPP_REVEALED] = np.int64(rev_mask[opp])
    o[OBS_OWN_N_REVEALED] = n_rev[seat]
    o[OBS_OPP_N_REVEALED] = n_rev[opp]
    o[OBS_OWN_DISCARDS] = np.int64(disc_set[seat])
    o[OBS_OPP_DISCARDS] = np.int64(disc_set[opp])
    o[OBS_DORA_INDICATOR] = st[ST_DORA]
    o[OBS_STOCK] = _stock_left(st)
    o[OBS_OWN_SCORE] = scores[seat]
    o[OBS_OPP_SCORE] = scores[opp]
    o[OBS_POT] = pot
    o[OBS_OWN_RIICHI] = riichi[seat]
    o[OBS_OPP_RIICHI] = riichi[opp]
    o[OBS_PHASE] = phase
    o[OBS_LAST_DISCARD] = st[ST_LAST_DISCARD]
    o[OBS_SEAT] = seat
    o[OBS_DEALER] = dealer
    o[OBS_DRAWN] = st[ST_DRAWN]
    o[OBS_OPP_HAND_SIZE] = hand_size(hands[opp])
    o[OBS_TURN] = st[ST_TURNS]
    o[OBS_SEEN] = np.int64(hands[seat] + rev_mask[0] + rev_mask[1] + disc_mask[0] + disc_mask[1]
                           + _card_unit(st[ST_DORA]))
    o[OBS_N_LEGAL] = st[ST_N_LEGAL]


# Not inline="always": see _row_in_hand.
@nb.njit(cache=True)
def _mask_discards(hand, in_riichi, rev, n_rev, mask, legal, st, obs, ra, core, riichi_ok):
    """Mark the discard actions legal; with riichi, the riichi discards that leave a tenpai hand.

    Parameters
    ----------
    hand, rev : uint64
        The seat's concealed hand and revealed cards (hand masks). n_rev : int, revealed groups.
    in_riichi : int
        Nonzero: the hand is frozen, only ``DISCARD + st[ST_DRAWN]`` is legal.
    mask : bool[N_ACTIONS], legal : int64[N_ACTIONS], st : int64[N_ST]
        Written in place: ``mask[DISCARD + k]`` for every kind k in the hand, and
        ``mask[DISCARD_RIICHI + k]`` where riichi may be declared and ``hand - k`` waits; each
        action set is appended to ``legal[st[ST_N_LEGAL]:]`` and ``st[ST_N_LEGAL]`` advanced.
    obs : int64[OBS_LEN]
        ``obs[OBS_TENPAI_CHECKED]`` written: 1 when every discard was checked for riichi.
    ra : int64[RULES_LEN]; core : uint64[CORE_LEN], the hand-core array.
    riichi_ok : bool
        The caller allows riichi at this point at all.
    """
    obs[OBS_TENPAI_CHECKED] = 0
    if in_riichi:  # frozen: discard the drawn card
        _allow_in(mask, legal, st, DISCARD + st[ST_DRAWN])
        return
    can_riichi = (riichi_ok and ra[RA_RIICHI_ENABLED] != 0
                  and _stock_left(st) >= ra[RA_RIICHI_MIN_STOCK]
                  and (hand_size(hand) - 2) // 3 + n_rev >= 3)
    obs[OBS_TENPAI_CHECKED] = 1 if can_riichi else 0
    # Taking a card away never brings a hand closer to a win, so a hand above distance 0 has
    # no tenpai discard: one distance instead of a waits lookup per discard (mostly).
    try_waits = can_riichi and shanten(hand, n_rev, core) <= 0
    # _allow_in written out: see _mask_kai.
    n_legal = st[ST_N_LEGAL]
    present = kinds_present(hand)
    while present:  # the kinds in hand, in increasing order
        low = present & (~present + U1)
        present ^= low
        k = popcount(low - U1)
        mask[DISCARD + k] = True
        legal[n_legal] = DISCARD + k
        n_legal += 1
        if try_waits and waits(hand - _card_unit(k), rev, n_rev, core):
            mask[DISCARD_RIICHI + k] = True
            legal[n_legal] = DISCARD_RIICHI + k
            n_legal += 1
    st[ST_N_LEGAL] = n_legal


# Not inline="always": see _row_in_hand.
@nb.njit(cache=True)
def _mask_kai(hand, in_riichi, n_rev, mask, legal, st, row_num, row_pic, row_pic_n, first_start):
    """Mark ``KAI + r`` legal for every set-catalogue row r wholly in ``hand``; return whether any.

    Nothing is legal when the hand holds fewer than 4 cards, is in riichi, or the seat already has
    ``MAX_REVEALED`` groups. ``mask``, ``legal``, ``st[ST_N_LEGAL]`` are written as in
    :func:`_mask_discards`. ``row_num`` (uint64[n_rows]), ``row_pic``, ``row_pic_n``,
    ``first_start`` (int64[n_rows], [N_KINDS + 1]) are the ``EngineTables`` row arrays.
    """
    if hand_size(hand) < 4 or in_riichi or n_rev >= MAX_REVEALED:
        return False
    # The row test and _allow_in are written out here: an inlined helper that receives arrays
    # costs numba a reference count per array per call, and this loop runs often. Only the rows
    # starting with a kind in hand are tried (about a fifth of them), in row order as before.
    found = False
    n_legal = st[ST_N_LEGAL]
    hand = np.uint64(hand)
    present = kinds_present(hand)
    while present:
        low = present & (~present + U1)
        present ^= low
        k = popcount(low - U1)
        for r in range(first_start[k], first_start[k + 1]):
            num = row_num[r]
            if (hand & num) != num:
                continue
            pic_n = row_pic_n[r]
            if pic_n and picture_count(hand, row_pic[r]) < pic_n:
                continue
            a = KAI + r
            if not mask[a]:
                mask[a] = True
                legal[n_legal] = a
                n_legal += 1
            found = True
    st[ST_N_LEGAL] = n_legal
    return found


# Rank-1 cards in the order they are taken to stand in for a sun or moon in a kan: momo last,
# since it is the wild fruit (a simplification: the bot does not choose which rank-1 cards go).
STAND_IN_ORDER = (N_RANKS * 1, N_RANKS * 2, N_RANKS * 3, 0)


@nb.njit(cache=True, inline="always")
def _stand_ins_ok(et, ra, k):
    """May rank-1 cards fill a kan of picture kind k (kan.rank1_stand_ins, deck stand-ins)?"""
    return k >= N_NUMBER_KINDS and ra[RA_KAN_RANK1_STAND_INS] != 0 and et.stand_in[k - N_NUMBER_KINDS]


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _kan_group_count(hand, k, stand_ins):
    """Cards of kind k's kan group in ``hand``: copies of picture k (plus the rank-1 cards when
    ``stand_ins``), or the four fruits of number kind k's rank."""
    if k >= N_NUMBER_KINDS:
        n = count_in(hand, k)
        if stand_ins:
            for c in STAND_IN_ORDER:
                n += count_in(hand, c)
        return n
    n = 0
    for f in range(N_FRUITS):
        n += count_in(hand, f * N_RANKS + k % N_RANKS)
    return n


@nb.njit(cache=True, inline="always")
def _kan_group_possible(cards):
    """Whether hand mask ``cards`` (a seat's concealed and revealed cards together) holds four of
    some kan group: a rank's four fruits, or copies of a picture and rank-1 cards four or more.
    Every kan :func:`_mask_kans_after_draw` may offer needs one (a closed kan in the hand, an
    added kan in a revealed set of three and the hand), so where this is false it offers none;
    the round loop asks it first, from its own locals, and most draws stop here."""
    nums = np.uint64(cards)
    if nums & (nums >> np.uint64(N_RANKS)) & (nums >> np.uint64(2 * N_RANKS)) & \
            (nums >> np.uint64(3 * N_RANKS)) & ROW:
        return True
    rank1 = popcount(nums & RANK1_BITS)
    for p in range(N_PICTURES):
        if picture_count(cards, p) + rank1 >= 4:
            return True
    return False


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _mask_kans_after_draw(rs, et, seat, ra):
    """Mark the kans ``seat`` may declare after a draw legal (old edition, §10).

    ``KAN_CLOSED + k`` for every kan group of four in the hand (kind k: a picture, with rank-1
    stand-ins where ``kan.rank1_stand_ins`` and the deck allow them, or rank k + 1's four fruits);
    ``KAN_ADDED + g`` for every revealed 3-card group g the hand can complete. Nothing when kans
    are off, the seat is in riichi or the dead wall is used up. Writes ``rs.mask``, ``rs.legal``
    and ``rs.st[ST_N_LEGAL]``.
    """
    if not ra[RA_KAN_ENABLED] or rs.riichi[seat] or rs.st[ST_DEAD_POS] >= rs.st[ST_DEAD_END]:
        return
    hand = rs.hands[seat]
    if ra[RA_KAN_CLOSED] and rs.n_rev[seat] < MAX_REVEALED:
        for k in range(N_RANKS):
            if _kan_group_count(hand, k, np.bool_(False)) == 4:
                _allow(rs, KAN_CLOSED + k)
        for k in range(N_NUMBER_KINDS, N_KINDS):
            # At least one real copy: four rank-1 cards alone are the rank-1 number kan.
            if count_in(hand, k) >= 1 and _kan_group_count(hand, k, _stand_ins_ok(et, ra, k)) >= 4:
                _allow(rs, KAN_CLOSED + k)
    if ra[RA_KAN_ADDED]:
        for g in range(rs.n_rev[seat]):
            if rs.rev_n[seat, g] != 3:
                continue
            a, b, c = rs.rev_cards[seat, g, 0], rs.rev_cards[seat, g, 1], rs.rev_cards[seat, g, 2]
            p = _group_picture(rs, seat, g)
            if p >= 0:
                # A set already holding stand-ins becomes a kan only where kans may hold them.
                if (a >= N_NUMBER_KINDS or _stand_ins_ok(et, ra, p)) and \
                        _added_card(rs, seat, g, et, ra) >= 0:
                    _allow(rs, KAN_ADDED + g)
            elif a < N_NUMBER_KINDS and a % N_RANKS == b % N_RANKS and b % N_RANKS == c % N_RANKS and c < N_NUMBER_KINDS:
                for f in range(N_FRUITS):
                    k = f * N_RANKS + a % N_RANKS
                    if k != a and k != b and k != c and count_in(hand, k):
                        _allow(rs, KAN_ADDED + g)
                if a % N_RANKS == 0 and ra[RA_KAN_RANK1_STAND_INS]:
                    # a revealed rank-1 set is of that kind for every picture it may stand for:
                    # a real copy added makes it that picture's kan (spec §10)
                    for p in range(N_PICTURES):
                        if et.stand_in[p] and count_in(hand, N_NUMBER_KINDS + p):
                            _allow(rs, KAN_ADDED_AS + p * MAX_REVEALED + g)


# ---------------------------------------------------------------------------------------------
# One round
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def shuffle_wall(wall, et, rng):
    """Fill ``wall[:len(et.deck)]`` with a uniformly random order of this scenario's deck.

    The universal deck (``N_UNIVERSAL`` cards) is shuffled with ``rng`` (Fisher-Yates), then each
    card the scenario lacks is removed by swapping the last card into its place ("swap-remove").
    Swap-remove maps the n! orders of n cards n-to-1 onto the (n-1)! orders of the rest, so the
    result is exactly uniform; and it moves one card only, so two variants whose decks differ by a
    few cards (old edition: sun and moon x3) still get the same hands and stock almost everywhere
    (plain removal would shift every later card by one and swap whose draw each card is).

    Parameters
    ----------
    wall : int64[>= N_UNIVERSAL]
        Written in place: ``wall[:n]`` the kinds in shuffled order, ``n = len(et.deck)``;
        entries past ``n`` are scratch.
    et : EngineTables
        Reads ``universal`` (kind of each universal card) and ``dropped`` (ids not in this deck).
    rng : uint64[4]
        The round's shuffle stream (``RNG_SHUFFLE``), advanced.
    """
    n = N_UNIVERSAL
    for i in range(n):
        wall[i] = i
    shuffle(rng, wall, n)
    for d in et.dropped:
        for p in range(n):
            if wall[p] == d:
                wall[p] = wall[n - 1]
                n -= 1
                break
    for i in range(n):
        wall[i] = et.universal[wall[i]]


@nb.njit(cache=True)
def deal(rs, et, ra):
    """Reset the round state and deal from ``rs.wall`` as it stands (a test may stack it).

    Layout of ``rs.wall[:len(et.deck)]`` with hand size h (``ra[RA_HAND_SIZE]``) and dead wall D
    (``ra[RA_DEAD_WALL]``): ``[0, h)`` seat 0's hand, ``[h, 2h)`` seat 1's, ``2h`` the dora
    indicator, ``(2h, 2h + D)`` the replacement draws of kans, then the stock to the end.

    Parameters
    ----------
    rs : RoundState
        Written in place: ``hands``; ``st`` (stock and dead-wall bounds, dora, last discard -1,
        drawn -1, turns 0); every revealed group, discard set, riichi, ippatsu, furiten and
        draw-three counter cleared. ``st[ST_LOG]``, ``st[ST_N_EV]`` and ``ev`` are left alone.
    et : EngineTables (``deck``); ra : int64[RULES_LEN].
    """
    n = et.deck.shape[0]
    hs = ra[RA_HAND_SIZE]
    rs.hands[0] = 0
    rs.hands[1] = 0
    for i in range(hs):
        rs.hands[0] += _card_unit(rs.wall[i])
        rs.hands[1] += _card_unit(rs.wall[hs + i])
    dead = 2 * hs
    rs.st[ST_DORA] = rs.wall[dead]
    rs.st[ST_DEAD_POS] = dead + 1
    rs.st[ST_DEAD_END] = dead + ra[RA_DEAD_WALL]
    rs.st[ST_STOCK_POS] = dead + ra[RA_DEAD_WALL]
    rs.st[ST_STOCK_END] = n
    rs.st[ST_LAST_DISCARD] = -1
    rs.st[ST_TURNS] = 0
    rs.st[ST_DRAWN] = -1
    rs.st[ST_LAST_WAS_EMPTY] = 0
    rs.luck[:] = 0.0
    rs.luck_waits[:, :] = 0
    for s in range(2):
        rs.n_rev[s] = 0
        rs.rev_mask[s] = 0
        rs.n_disc[s] = 0
        rs.disc_set[s] = 0
        rs.disc_mask[s] = 0
        rs.riichi[s] = 0
        rs.ippatsu[s] = 0
        rs.riichi_furiten[s] = 0
        rs.draw3[s] = 0
        for g in range(MAX_REVEALED):
            rs.rev_n[s, g] = 0
            for j in range(4):
                rs.rev_cards[s, g, j] = -1
    count_stock(rs)


@nb.njit(cache=True)
def check_invariants(rs, et, scores, pot, total_points, between_turns):
    """Debug checks: every card in exactly one place, hand sizes, points conservation."""
    counts = np.zeros(N_KINDS, np.int64)
    for s in range(2):
        for k in range(N_KINDS):
            counts[k] += count_in(rs.hands[s], k)
        for g in range(rs.n_rev[s]):
            for j in range(rs.rev_n[s, g]):
                counts[rs.rev_cards[s, g, j]] += 1
        for i in range(rs.n_disc[s]):
            if not rs.disc_called[s, i]:
                counts[rs.disc[s, i]] += 1
        if between_turns:
            n = hand_size(rs.hands[s])
            if n != 7 and n != 4 and n != 1:
                raise AssertionError("hand size is not 7, 4 or 1 between turns")
    stock = np.zeros(N_KINDS, np.int64)
    for i in range(rs.st[ST_STOCK_POS], rs.st[ST_STOCK_END]):
        counts[rs.wall[i]] += 1
        stock[rs.wall[i]] += 1
    for k in range(N_KINDS):
        if stock[k] != rs.stock_cnt[k]:
            raise AssertionError("the stock's kind counts (stock_cnt) do not match the stock")
    counts[rs.st[ST_DORA]] += 1
    for i in range(rs.st[ST_DEAD_POS], rs.st[ST_DEAD_END]):
        counts[rs.wall[i]] += 1
    deck = np.zeros(N_KINDS, np.int64)
    for i in range(et.deck.shape[0]):
        deck[et.deck[i]] += 1
    for k in range(N_KINDS):
        if counts[k] != deck[k]:
            raise AssertionError("card conservation violated")
    if scores[0] + scores[1] + pot != total_points:
        raise AssertionError("points plus pot not constant")


@nb.njit(cache=True, inline="always")
def _decide(pid, obs, mask, prm, rng, core, ra):
    a = decide(pid, obs, mask, prm, rng, core, ra)   # SCRIPTED included (tests)
    if a < 0 or a >= N_ACTIONS or not mask[a]:
        raise AssertionError("policy chose an illegal action")
    return a


_search_decision = search_hook("simcore.momojan.search")   # the search kernel's decisions


# ---------------------------------------------------------------------------------------------
# Applying an action (one function per kind, as pgx's _step dispatches). Each takes the state
# tuple whole: they run once per action taken, not inside the legality loops.
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_call(rs, et, ra, seat, a, d):
    """Pon, Chi (``CALL + r``) or open kan (``KAN_OPEN``, ``KAN_OPEN_AS + p``) on the
    opponent's last discard ``d``.

    Marks the discard called (``disc_called``, ``disc_mask``), ends the discarder's ippatsu where
    ``riichi.ippatsu_lost_on_call``, moves the cards into a new revealed group, logs the event;
    an open kan also draws the replacement. Returns the next phase: ``PH_AFTER_DRAW`` after an
    open kan, else ``PH_AFTER_REVEAL``.
    """
    opp = 1 - seat
    st = rs.st
    i = st[ST_LAST_DISCARD_IDX]
    rs.disc_called[opp, i] = True
    rs.disc_mask[opp] -= _card_unit(d)
    if rs.riichi[opp] and ra[RA_RIICHI_IPPATSU_LOST_ON_CALL] and rs.n_disc[opp] > 0 \
            and i == rs.n_disc[opp] - 1 and rs.ippatsu[opp]:
        rs.ippatsu[opp] = 0
    if a == KAN_OPEN or a >= KAN_OPEN_AS:
        if a == KAN_OPEN:
            c = _take_kan_group(rs, seat, d, np.int64(3), _stand_ins_ok(et, ra, d))
        else:  # a picture kan, the discarded rank-1 card standing in
            c = _take_kan_group(rs, seat, N_NUMBER_KINDS + a - KAN_OPEN_AS, np.int64(3),
                                np.bool_(True))
        _add_group(rs, seat, c[0], c[1], c[2], d, 4, ORIGIN_KAN_OPEN)
        g = rs.n_rev[seat] - 1
        _sort_group(rs, seat, g)
        log_event(st, rs.ev, EV_KAN, seat, d, KAN_KIND_OPEN, g, _cards_mask(c))
        _replacement(rs, seat)
        return PH_AFTER_DRAW
    r = a - CALL
    row = et.rows[r]
    skipped = False
    for j in range(3):
        if row[j] == d and not skipped:
            skipped = True
        else:
            rs.hands[seat] -= _card_unit(row[j])
    origin = ORIGIN_CHI if et.row_is_run[r] else ORIGIN_PON
    _add_group(rs, seat, row[0], row[1], row[2], -1, 3, origin)
    log_event(st, rs.ev, EV_CHI if origin == ORIGIN_CHI else EV_PON, seat, r, d, 0, 0)
    return PH_AFTER_REVEAL


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_draw_three(rs, seat):
    """Draw three cards from the stock into ``hands[seat]``; ``st[ST_DRAWN]`` is the last."""
    st = rs.st
    if _stock_left(st) < 3:
        raise AssertionError("draw-three with fewer than 3 cards in the stock")
    c0 = _draw_card(st, rs.wall, rs.hands, rs.stock_cnt, seat)
    c1 = _draw_card(st, rs.wall, rs.hands, rs.stock_cnt, seat)
    c2 = _draw_card(st, rs.wall, rs.hands, rs.stock_cnt, seat)
    st[ST_DRAWN] = c2
    rs.draw3[seat] += 1
    log_event(st, rs.ev, EV_DRAW_THREE, seat, c0, c1, c2, 0)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_kai(rs, et, seat, r):
    """Reveal set-catalogue row ``r`` from ``hands[seat]`` as a new Kai group."""
    row = et.rows[r]
    for j in range(3):
        rs.hands[seat] -= _card_unit(row[j])
    _add_group(rs, seat, row[0], row[1], row[2], -1, 3, ORIGIN_KAI)
    log_event(rs.st, rs.ev, EV_KAI, seat, r, 0, 0, 0)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_closed_kan(rs, et, ra, seat, k):
    """Reveal kind ``k``'s four-card kan group from the hand, then draw the replacement."""
    c = _take_kan_group(rs, seat, k, np.int64(4), _stand_ins_ok(et, ra, k))
    _add_group(rs, seat, c[0], c[1], c[2], c[3], 4, ORIGIN_KAN_CLOSED)
    g = rs.n_rev[seat] - 1
    _sort_group(rs, seat, g)
    log_event(rs.st, rs.ev, EV_KAN, seat, k, KAN_KIND_CLOSED, g, _cards_mask(c))
    _replacement(rs, seat)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_added_kan(rs, et, ra, seat, g, k):
    """Add card ``k`` from the hand to revealed group ``g`` as its fourth (a Kai set stays
    Kai-kind, a Pon call-kind), then draw the replacement."""
    rs.hands[seat] -= _card_unit(k)
    rs.rev_cards[seat, g, 3] = k
    rs.rev_n[seat, g] = 4
    rs.rev_mask[seat] += _card_unit(k)
    rs.rev_origin[seat, g] = ORIGIN_KAN_CLOSED if rs.rev_origin[seat, g] == ORIGIN_KAI \
        else ORIGIN_KAN_OPEN
    _sort_group(rs, seat, g)
    log_event(rs.st, rs.ev, EV_KAN, seat, k, KAN_KIND_ADDED, g, np.int64(_card_unit(k)))
    _replacement(rs, seat)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _apply_discard(rs, seat, a):
    """Discard ``DISCARD + k`` or ``DISCARD_RIICHI + k`` (declaring riichi, ippatsu live).

    Appends k to the pile (``disc``, ``n_disc``, ``disc_set``, ``disc_mask``), ends own ippatsu,
    and offers k to the opponent (``ST_LAST_DISCARD``, its index, whether the stock is empty).
    """
    st = rs.st
    riichi_now = a >= DISCARD_RIICHI
    k = a - (DISCARD_RIICHI if riichi_now else DISCARD)
    rs.hands[seat] -= _card_unit(k)
    i = rs.n_disc[seat]
    rs.disc[seat, i] = k
    rs.disc_called[seat, i] = False
    rs.n_disc[seat] = i + 1
    rs.disc_set[seat] |= kind_bit(k)
    rs.disc_mask[seat] += _card_unit(k)
    rs.ippatsu[seat] = 0
    if riichi_now:
        rs.riichi[seat] = 1
        rs.ippatsu[seat] = 1
    st[ST_LAST_DISCARD] = k
    st[ST_LAST_DISCARD_IDX] = i
    st[ST_LAST_WAS_EMPTY] = 1 if _stock_left(st) == 0 else 0
    log_event(st, rs.ev, EV_DISCARD, seat, k, 1 if riichi_now else 0, 0, 0)


@nb.njit(cache=True)
def play_round(rs, et, ra, tables, dealer, scores, pot, total_points, pol_ids, params, rngs, debug, rec,
               sx, seat, entry, entry_drawn_by, entry_rinshan, forced):
    """Deal from ``rs.wall`` (shuffled by the caller) and play the round to its end.

    Parameters
    ----------
    rs : RoundState
        The round state: reset by :func:`deal`, then played in place (events appended to ``rs.ev``
        when ``rs.st[ST_LOG]``).
    et : EngineTables
    ra : int64[RULES_LEN]
        The rules array.
    tables : HandTables
        ``tables.core`` (uint64[CORE_LEN]) is the hand-core array the policies get.
    dealer : int
        The seat that plays first.
    scores : int64[2]; pot, total_points : int
        Read only (observations, debug checks): the caller settles the round.
    pol_ids : int64[2]; params : float64[2, n_params]
        Each seat's policy id (``simcore.family.policy``, or ``SCRIPTED``) and parameters.
    rngs : uint64[N_RNG, 4]
        The round's random streams; ``rngs[RNG_SEAT0 + s]`` is seat s's, advanced.
    debug : bool
        Check the invariants (:func:`check_invariants`) at every turn start.
    sx : RoundState or tuple
        ``rs`` again, or a search's scratch (the search kernel, :mod:`simcore.nb.search`).
    seat, entry, entry_drawn_by, entry_rinshan, forced
        ``forced`` < 0: a new round (``seat`` the dealer, ``entry`` PH_START, -1, False).
        Else the round goes on from seat ``seat``'s decision, whose action is ``forced`` (a
        search's candidate): at its turn start (``entry`` PH_START; the turn is counted again,
        so the caller takes one off), or in the rest of its turn (``entry`` its phase, with
        the draw's phase and rinshan as the loop had them).
    rec : int64[N_RF]
        The round record, zeroed by the caller with the ``RF_GAME`` .. ``RF_REPEAT`` fields set;
        written here: outcome, winner (-1: nobody), points and breakdown, yaku bits, revealed
        groups, draw-threes, riichi and tenpai per seat, turns, stock left, draw payment. The
        caller writes ``RF_POT`` and the scores.

    Returns
    -------
    int
        Points the winner (or the draw payment's receiver) gets from the other seat; 0 when
        nobody is paid.
    """
    reach_key = np.full((2, 3), -1, np.int64)
    reach = False
    if forced < 0:
        deal(rs, et, ra)
        log_event(rs.st, rs.ev, EV_ROUND_START, dealer, rs.st[ST_DORA], np.int64(rs.hands[0]),
                  np.int64(rs.hands[1]), 0)
        # yaku reach (simcore.nb.reach), in a sample of games: the hand each seat's reach was
        # last noted for (hand, revealed mask, riichi)
        reach = measures_reach(rec[RF_GAME])
        for s in range(2):
            if reach and _reach_changed(reach_key, rs.hands, rs.rev_mask, rs.riichi, s):
                w = cached_waits(rs.hands, rs.rev_mask, rs.n_rev, s, tables.core, rs.luck_waits)
                if w:
                    _note_reach(rs, s, w, ra, tables, rec)
    core = tables.core  # the uint64 hand-core array
    # Bind the state arrays once: every read of a tuple member (and every tuple passed to a
    # helper) costs numba atomic reference counts, which dominated the round loop.
    st, ev, mask, legal, obs, wall = rs.st, rs.ev, rs.mask, rs.legal, rs.obs, rs.wall
    hands, rev_mask, n_rev, riichi = rs.hands, rs.rev_mask, rs.n_rev, rs.riichi
    riichi_furiten, disc_set, disc_mask = rs.riichi_furiten, rs.disc_set, rs.disc_mask
    row_num, row_pic, row_pic_n, by_card = et.row_num, et.row_pic, et.row_pic_n, et.rows_by_card
    by_card_start, first_start = et.rows_by_card_start, et.rows_first_start
    seat_params = (params[0], params[1])  # sliced once, not on every decision
    # the draws' luck (luck.py): its arrays bound here, not passed in the state tuple
    race, luck, luck_waits, stock_cnt = et.race, rs.luck, rs.luck_waits, rs.stock_cnt
    momo_exempt, furiten_on = ra[RA_FURITEN_MOMO_EXEMPT] != 0, ra[RA_FURITEN_ENABLED] != 0
    seat_rng = (rngs[RNG_SEAT0], rngs[RNG_SEAT0 + 1])
    resume = entry != PH_START   # enter in the rest of the seat's turn
    phase, drawn_by, rinshan = entry, entry_drawn_by, entry_rinshan
    while True:
        opp = 1 - seat
        if resume:   # the turn start happened: the loop is in the rest of the turn
            resume = False
        else:
            st[ST_TURNS] += 1
            if debug:
                check_invariants(rs, et, scores, pot, total_points, True)
            # ---- turn start: ron, call, or draw -------------------------------------------------
            _clear_mask(mask, legal, st)
            obs[OBS_TENPAI_CHECKED] = 0
            st[ST_WIN_VALID] = 0
            st[ST_DRAWN] = -1
            d = st[ST_LAST_DISCARD]
            hand = hands[seat]
            ron_ok = False
            passes_win = False  # the last discard completes this hand (furiten.declined_ron)
            if d >= 0:
                w = cached_waits(hands, rev_mask, n_rev, seat, core, luck_waits)
                passes_win = (w >> np.uint64(d)) & U1 != 0
                if passes_win and _ron_allowed(d, w, disc_set[seat], riichi_furiten[seat], ra):
                    ron_ok = _ron_scores(rs, seat, d, ra, tables)
            if ron_ok:
                _allow_in(mask, legal, st, RON)
            _allow_in(mask, legal, st, DRAW)
            if d >= 0 and not riichi[seat] and hand_size(hand) >= 4 and n_rev[seat] < MAX_REVEALED:
                for i in range(by_card_start[d], by_card_start[d + 1]):
                    r = by_card[i]
                    if _row_in_hand(hand, row_num, row_pic, row_pic_n, r, d):
                        mask[CALL + r] = True  # each row once: no duplicate check needed
                        legal[st[ST_N_LEGAL]] = CALL + r
                        st[ST_N_LEGAL] += 1
                if (ra[RA_KAN_ENABLED] and ra[RA_KAN_OPEN]
                        and _kan_group_count(hand, d, _stand_ins_ok(et, ra, d)) >= 3
                        and st[ST_DEAD_POS] < st[ST_DEAD_END]):
                    _allow_in(mask, legal, st, KAN_OPEN)
                if (ra[RA_KAN_ENABLED] and ra[RA_KAN_OPEN] and ra[RA_KAN_RANK1_STAND_INS]
                        and d < N_NUMBER_KINDS and d % N_RANKS == 0
                        and st[ST_DEAD_POS] < st[ST_DEAD_END]):
                    # the discarded rank-1 card stands in for a picture: three hand cards of that
                    # picture's kan group, at least one a real copy (spec §10)
                    for p in range(N_PICTURES):
                        k = N_NUMBER_KINDS + p
                        if et.stand_in[p] and count_in(hand, k) >= 1 and \
                                _kan_group_count(hand, k, np.bool_(True)) >= 3:
                            _allow_in(mask, legal, st, KAN_OPEN_AS + p)
            _set_obs(obs, hands, rev_mask, n_rev, disc_set, disc_mask, riichi, st, seat, np.int64(PH_START), scores, pot, dealer)
            if forced >= 0:
                a, forced = forced, np.int64(-1)
            elif searching(sx):
                a = _search_decision((rs, et, ra, tables, dealer, scores, pot, total_points,
                                      pol_ids, seat_params, seat_rng, seat, np.int64(PH_START),
                                      np.int64(-1), False, obs, mask, core, rec), sx)
            else:
                a = _decide(pol_ids[seat], obs, mask, seat_params[seat], seat_rng[seat], core, ra)
            if passes_win and a != RON and riichi[seat] and ra[RA_FURITEN_DECLINED_RON] == DECLINED_RIICHI_REST:
                riichi_furiten[seat] = 1
            if a == RON:
                return _finish_win(rs, seat, d, np.bool_(True), ra, tables, rec, np.bool_(False))
            phase = PH_AFTER_DRAW
            drawn_by = -1  # the phase of this turn's last draw (-1: nothing drawn yet)
            rinshan = False
            if a == DRAW:
                if _stock_left(st) == 0:
                    return _finish_draw(rs, ra, tables, rec)
                seat_luck(wall, st[ST_STOCK_POS], st[ST_STOCK_POS], st[ST_STOCK_END], stock_cnt,
                          hands, rev_mask, n_rev, disc_set, riichi_furiten, seat, dealer,
                          momo_exempt, furiten_on, core, race, luck, luck_waits)
                st[ST_DRAWN] = _draw_card(st, wall, hands, stock_cnt, seat)
                log_event(st, ev, EV_DRAW, seat, st[ST_DRAWN], 0, 0, 0)
                drawn_by = PH_AFTER_DRAW
            else:
                phase = _apply_call(rs, et, ra, seat, a, d)
                if phase == PH_AFTER_DRAW:  # an open kan: a replacement draw is a one-card draw
                    rinshan = True
                    drawn_by = PH_AFTER_DRAW
            st[ST_LAST_DISCARD] = -1
        # ---- the rest of the turn --------------------------------------------------------------
        while True:
            _clear_mask(mask, legal, st)
            obs[OBS_TENPAI_CHECKED] = 0
            st[ST_WIN_VALID] = 0
            if phase == PH_AFTER_DRAW or phase == PH_AFTER_DRAW3:
                if (phase == PH_AFTER_DRAW or ra[RA_TSUMO_AFTER_DRAW_THREE]) and \
                        is_complete(hands[seat], n_rev[seat], core) and \
                        _tsumo_scores(rs, seat, ra, tables, rinshan):
                    _allow_in(mask, legal, st, TSUMO)
                has_kai = _mask_kai(hands[seat], riichi[seat], n_rev[seat], mask, legal, st,
                                    row_num, row_pic, row_pic_n, first_start)
                if ra[RA_KAN_ENABLED] and _kan_group_possible(hands[seat] + rev_mask[seat]):
                    _mask_kans_after_draw(rs, et, seat, ra)   # wherever Kai is allowed (§10)
                if not (has_kai and not ra[RA_KAI_OPTIONAL]):
                    _mask_discards(hands[seat], riichi[seat], rev_mask[seat], n_rev[seat], mask, legal, st, obs, ra, core, True)
            else:  # PH_AFTER_REVEAL
                if ra[RA_DRAW_THREE_ENABLED] and _stock_left(st) >= max(ra[RA_DRAW_THREE_MIN_STOCK], 3):
                    _allow_in(mask, legal, st, DRAW_THREE)
                # win_right_after_kai concerns the card drawn this turn (§4): never after a bare
                # Pon/Chi, and after a three-card draw only where that may tsumo.
                drew = drawn_by == PH_AFTER_DRAW or (drawn_by == PH_AFTER_DRAW3
                                                     and ra[RA_TSUMO_AFTER_DRAW_THREE])
                # After a kan's replacement draw the win is rinshan, offered as it is scored.
                if ra[RA_WIN_RIGHT_AFTER_KAI] and drew and is_complete(hands[seat], n_rev[seat], core) and \
                        _tsumo_scores(rs, seat, ra, tables, rinshan):
                    _allow_in(mask, legal, st, TSUMO)
                _mask_discards(hands[seat], riichi[seat], rev_mask[seat], n_rev[seat], mask, legal, st, obs, ra, core, True)
            _set_obs(obs, hands, rev_mask, n_rev, disc_set, disc_mask, riichi, st, seat, phase, scores, pot, dealer)
            if forced >= 0:
                a, forced = forced, np.int64(-1)
            elif searching(sx):
                a = _search_decision((rs, et, ra, tables, dealer, scores, pot, total_points,
                                      pol_ids, seat_params, seat_rng, seat, phase,
                                      np.int64(drawn_by), rinshan, obs, mask, core, rec), sx)
            else:
                a = _decide(pol_ids[seat], obs, mask, seat_params[seat], seat_rng[seat], core, ra)
            if a == TSUMO:
                return _finish_win(rs, seat, st[ST_DRAWN], np.bool_(False), ra, tables, rec, rinshan)
            if a == DRAW_THREE:
                # each card's luck valued with the hand as it was before the three (luck.py)
                for i in range(3):
                    seat_luck(wall, st[ST_STOCK_POS], st[ST_STOCK_POS] + i, st[ST_STOCK_END],
                              stock_cnt, hands, rev_mask, n_rev,
                              disc_set, riichi_furiten, seat, dealer, momo_exempt, furiten_on,
                              core, race, luck, luck_waits)
                _apply_draw_three(rs, seat)
                phase = PH_AFTER_DRAW3
                drawn_by = PH_AFTER_DRAW3
                rinshan = False
                continue
            if a >= KAI and a < CALL:
                _apply_kai(rs, et, seat, a - KAI)
                phase = PH_AFTER_REVEAL
                continue
            if a >= KAN_CLOSED:
                if a < KAN_OPEN:
                    _apply_closed_kan(rs, et, ra, seat, a - KAN_CLOSED)
                elif a < KAN_OPEN_AS:
                    g = a - KAN_ADDED
                    _apply_added_kan(rs, et, ra, seat, g, _added_card(rs, seat, g, et, ra))
                else:  # a real picture onto a revealed rank-1 set
                    g = (a - KAN_ADDED_AS) % MAX_REVEALED
                    _apply_added_kan(rs, et, ra, seat, g,
                                     N_NUMBER_KINDS + (a - KAN_ADDED_AS) // MAX_REVEALED)
                rinshan = True
                phase = PH_AFTER_DRAW  # a replacement draw is a one-card draw
                drawn_by = PH_AFTER_DRAW
                continue
            _apply_discard(rs, seat, a)  # a discard ends the turn
            if reach and _reach_changed(reach_key, hands, rev_mask, riichi, seat):
                w = cached_waits(hands, rev_mask, n_rev, seat, core, luck_waits)
                if w:
                    _note_reach(rs, seat, w, ra, tables, rec)
            break
        seat = opp


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sort_group(rs, seat, g):
    n = rs.rev_n[seat, g]
    for i in range(1, n):
        j = i
        while j > 0 and rs.rev_cards[seat, g, j - 1] > rs.rev_cards[seat, g, j]:
            t = rs.rev_cards[seat, g, j - 1]
            rs.rev_cards[seat, g, j - 1] = rs.rev_cards[seat, g, j]
            rs.rev_cards[seat, g, j] = t
            j -= 1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _take_kan_group(rs, seat, k, n, stand_ins):
    """Remove ``n`` cards of kind k's kan group from the hand (real copies of a picture first,
    then rank-1 stand-ins in ``STAND_IN_ORDER`` when ``stand_ins``); return them (-1 padding)."""
    out = np.full(4, -1, np.int64)
    got = 0
    if k >= N_NUMBER_KINDS:
        while got < n and count_in(rs.hands[seat], k):
            rs.hands[seat] -= _card_unit(k)
            out[got] = k
            got += 1
        if stand_ins:
            for c in STAND_IN_ORDER:
                if got < n and count_in(rs.hands[seat], c):
                    rs.hands[seat] -= _card_unit(c)
                    out[got] = c
                    got += 1
    else:
        for f in range(N_FRUITS):
            c = f * N_RANKS + k % N_RANKS
            if got < n and count_in(rs.hands[seat], c):
                rs.hands[seat] -= _card_unit(c)
                out[got] = c
                got += 1
    return out


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _group_picture(rs, seat, g):
    """The picture kind a revealed 3-card picture set is of (its highest card), or -1."""
    top = rs.rev_cards[seat, g, 2]
    return top if top >= N_NUMBER_KINDS else -1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _cards_mask(cards):
    """Hand mask (as int64) of the cards in ``cards`` (-1 entries skipped)."""
    m = np.uint64(0)
    for c in cards:
        if c >= 0:
            m += _card_unit(c)
    return np.int64(m)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _added_card(rs, seat, g, et, ra):
    """The hand card that completes revealed group g to a kan (-1: none): a copy of its picture
    (else a rank-1 stand-in, where allowed), or the missing fruit of a same-number set."""
    p = _group_picture(rs, seat, g)
    if p >= 0:
        if count_in(rs.hands[seat], p):
            return p
        if _stand_ins_ok(et, ra, p):
            for c in STAND_IN_ORDER:
                if count_in(rs.hands[seat], c):
                    return c
        return -1
    a = rs.rev_cards[seat, g, 0]
    for f in range(N_FRUITS):
        k = f * N_RANKS + a % N_RANKS
        if count_in(rs.hands[seat], k):
            return k
    return -1


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _replacement(rs, seat):
    k = rs.wall[rs.st[ST_DEAD_POS]]
    rs.st[ST_DEAD_POS] += 1
    rs.hands[seat] += _card_unit(k)
    rs.st[ST_DRAWN] = k
    log_event(rs.st, rs.ev, EV_REPLACEMENT, seat, k, 0, 0, 0)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _record_sets(rs, rec):
    for s in range(2):
        for g in range(rs.n_rev[s]):
            o = rs.rev_origin[s, g]
            if o == ORIGIN_KAI:
                rec[RF_KAI0 + s] += 1
            elif o == ORIGIN_PON:
                rec[RF_PON0 + s] += 1
            elif o == ORIGIN_CHI:
                rec[RF_CHI0 + s] += 1
            else:
                rec[RF_KAN0 + s] += 1
        rec[RF_DRAW3_0 + s] = rs.draw3[s]
        rec[RF_RIICHI0 + s] = rs.riichi[s]
    rec[RF_TURNS] = rs.st[ST_TURNS]
    rec[RF_STOCK_LEFT] = _stock_left(rs.st)


@nb.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _finish_win(rs, seat, card, ron, ra, tables, rec, rinshan):
    if ron:
        hand = rs.hands[seat] + _card_unit(card)
        last = rs.st[ST_LAST_WAS_EMPTY] != 0
    else:
        hand = rs.hands[seat]
        last = _stock_left(rs.st) == 0 and not rinshan
    flags = _win_flags(rs, seat, ron, last, rinshan)
    st = rs.st
    if st[ST_WIN_VALID] and st[ST_WIN_HAND] == np.int64(hand) and st[ST_WIN_CARD] == card \
            and st[ST_WIN_FLAGS] == flags:  # scored when offered: the scratch arrays hold it
        points, sub, n_sets = st[ST_WIN_POINTS], st[ST_WIN_SUBTOTAL], st[ST_WIN_SETS]
    else:
        status, points, sub, n_sets = _score(rs, seat, hand, card, flags, ra, tables)
        if status != VALID:
            raise AssertionError("a win was offered that does not score")
    rec[RF_OUTCOME] = OUT_RON if ron else OUT_TSUMO
    rec[RF_WINNER] = seat
    rec[RF_POINTS] = points
    rec[RF_SUBTOTAL] = sub
    rec[RF_DOUBLED] = 1 if points != sub else 0
    rec[RF_DORA] = rs.scratch_bonus[0]
    rec[RF_RON_BONUS] = rs.scratch_bonus[1]
    rec[RF_SET_BONUS] = rs.scratch_bonus[2]
    rec[RF_SETS] = n_sets
    rec[RF_WINNER_CONCEALED_SETS] = n_sets - rs.n_rev[seat]
    bits = _slot_bits(rs, n_sets)
    rec[RF_YAKU_BITS] = bits
    if measures_reach(rec[RF_GAME]):
        rec[RF_REACH0 + seat] |= bits   # a won hand was within reach of what it scored
    _record_sets(rs, rec)
    log_event(rs.st, rs.ev, EV_RON if ron else EV_TSUMO, seat, card, points, np.int64(hand), bits)
    return points


@nb.njit(cache=True, inline="always")
def _slot_bits(rs, n_sets):
    """The yaku_bits of the win just scored (the scratch arrays)."""
    bits = 0
    for y in range(N_SCORE_SLOTS):
        if rs.scratch_yaku[y] >= 0:
            bits |= 1 << y
    if rs.scratch_bonus[2] > 0:  # a set-count bonus (new edition) marks its slot as the yaku does
        bits |= 1 << (SLOT_SET_COUNT + min(n_sets, 7) - 4)
    return bits


@nb.njit(cache=True, inline="always")
def _reach_changed(key, hands, rev_mask, riichi, seat):
    """Has seat's hand, its revealed sets or its riichi changed since ``key`` (int64[2, 3]) was
    set? Sets it to them."""
    h, rv, ri = np.int64(hands[seat]), np.int64(rev_mask[seat]), riichi[seat]
    if key[seat, 0] == h and key[seat, 1] == rv and key[seat, 2] == ri:
        return False
    key[seat, 0], key[seat, 1], key[seat, 2] = h, rv, ri
    return True


@nb.njit(cache=True)
def _note_reach(rs, seat, w, ra, tables, rec):
    """Add to ``rec[RF_REACH0 + seat]`` the score slots some wait (``w``, not 0) of the seat's
    hand would score as a ron (riichi and ippatsu as they stand; furiten aside). A ron scores
    every yaku a self-draw does but those of the moment (the last card, a kan's replacement),
    which the table does not count as reached. The round loop calls this only when the hand,
    its revealed sets or its riichi changed (``_reach_changed``): a tenpai hand mostly discards
    what it draws, so it is rare; the waits come from the luck's cache, which the opponent's
    next draw reads anyway."""
    bits = rec[RF_REACH0 + seat]
    for k in range(N_KINDS):
        if w & kind_bit(k):
            status, _, _, n_sets = _score(rs, seat, rs.hands[seat] + _card_unit(k), k,
                                          _win_flags(rs, seat, np.bool_(True), np.bool_(False),
                                                     np.bool_(False)), ra, tables)
            if status == VALID:
                bits |= _slot_bits(rs, n_sets)
    rec[RF_REACH0 + seat] = bits


@nb.njit(cache=True)
def _tenpai(rs, seat, ra, tables):
    w = waits(rs.hands[seat], rs.rev_mask[seat], rs.n_rev[seat], tables.core)
    if w == 0:
        return False
    if not ra[RA_EXHAUSTIVE_DRAW_TENPAI_REQUIRES_YAKU]:
        return True
    # a possible yaku: by tsumo or by ron (kibidango needs the ron), not those of the moment
    # (the last card, a kan's replacement)
    for k in range(N_KINDS):
        if w & kind_bit(k):
            for ron in (False, True):
                status, _, _, _ = _score(rs, seat, rs.hands[seat] + _card_unit(k), k,
                                         _win_flags(rs, seat, ron, False, False), ra, tables)
                if status == VALID:
                    return True
    return False


@nb.njit(cache=True)
def _finish_draw(rs, ra, tables, rec):
    pts = np.zeros(2, np.int64)
    for s in range(2):
        t = _tenpai(rs, s, ra, tables)
        rec[RF_TENPAI0 + s] = 1 if t else 0
        if t:
            for g in range(rs.n_rev[s]):
                o = rs.rev_origin[s, g]
                if o == ORIGIN_KAI or o == ORIGIN_KAN_CLOSED:
                    pts[s] += ra[RA_EXHAUSTIVE_DRAW_KAI_SET_POINTS]
                else:
                    pts[s] += ra[RA_EXHAUSTIVE_DRAW_CALL_SET_POINTS]
    diff = abs(pts[0] - pts[1])
    if ra[RA_EXHAUSTIVE_DRAW_ROUNDING] == ROUND_FLOOR:
        pay = diff // 2
    else:  # ROUND_CEIL
        pay = (diff + 1) // 2
    rec[RF_OUTCOME] = OUT_DRAW
    rec[RF_WINNER] = -1
    if pay > 0:
        rec[RF_WINNER] = 0 if pts[0] > pts[1] else 1
    rec[RF_DRAW_PAYMENT] = pay
    _record_sets(rs, rec)
    log_event(rs.st, rs.ev, EV_EXHAUSTIVE, rec[RF_WINNER], pay, pts[0], pts[1], rec[RF_TENPAI0] + 2 * rec[RF_TENPAI1])
    return pay


# ---------------------------------------------------------------------------------------------
# A game, and many games
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, inline="always")  # its only caller is play_games: one whole-program LLVM pass less
def play_game(game_index, seed, rs, et, ra, tables, pol_ids, params, debug, rounds_out, n_rounds_out,
              game_rec, sx):
    """Play one whole game: antes, rounds, settlement, dealer rotation, the game end.

    Parameters
    ----------
    game_index : int
        The game's index; with ``seed`` it keys every random stream (``rng.seed_keyed``), and its
        parity picks the first dealer.
    seed : uint64
    rs, et, ra, tables, pol_ids, params, debug
        As in :func:`play_round`.
    sx
        ``rs`` again, or a search's scratch (:mod:`simcore.nb.search`).
    rounds_out : int64[n_rows, N_RF]
        Round records, written from row ``n_rounds_out`` on (one row per round).
    n_rounds_out : int
    game_rec : int64[N_GF]
        Written: every ``GF_*`` field (winner -1 for a tie, ``END_*`` reason, ...).

    Returns
    -------
    int
        The new row count of ``rounds_out``, or -1 when it is full (the game is incomplete).
    """
    # the state's rows: nothing allocated per game, and nothing counted where they are passed
    rngs, scores = rs.rngs, rs.scores
    rngs[:, :] = 0
    scores[:] = 0
    first_dealer = game_index % 2  # alternate, so seat and first-dealer effects separate
    # compensation (variants, not rulebook): starting bonus by role; a komi paid at the start
    # moves points from the first dealer to the second, one counted at the end only decides
    komi_start = ra[RA_COMPENSATION_KOMI] if ra[RA_COMPENSATION_KOMI_AT] == KOMI_AT_START else 0
    scores[first_dealer] = ra[RA_STARTING_POINTS] + ra[RA_COMPENSATION_START_BONUS_FIRST_DEALER] - komi_start
    scores[1 - first_dealer] = ra[RA_STARTING_POINTS] + ra[RA_COMPENSATION_START_BONUS_SECOND_DEALER] + komi_start
    total = scores[0] + scores[1]
    dealer = first_dealer
    repeat = 0
    dealerships_done = 0
    pot = 0
    end_reason = -1
    loser = -1
    winner_forced = -1
    rnd = 0
    while end_reason < 0:
        if rnd >= MAX_ROUNDS:
            end_reason = END_ROUND_LIMIT
            break
        nd = 1 - dealer
        gap_before = scores[0] - scores[1]
        ante = ra[RA_ANTE_BASE] + ra[RA_ANTE_PER_REPEAT] * repeat
        if scores[nd] < ante:
            end_reason = END_ANTE_UNPAYABLE
            loser = nd
            break
        scores[nd] -= ante
        pot += ante
        if n_rounds_out >= rounds_out.shape[0]:
            return -1
        rec = rounds_out[n_rounds_out]
        rec[:] = 0
        rec[RF_GAME] = game_index
        rec[RF_ROUND] = rnd
        rec[RF_DEALER] = dealer
        rec[RF_REPEAT] = repeat
        for purpose in range(N_RNG):
            seed_keyed(seed, game_index, np.int64(rnd), purpose, rngs[purpose])
        shuffle_wall(rs.wall, et, rngs[RNG_SHUFFLE])
        paid = play_round(rs, et, ra, tables, dealer, scores, pot, total, pol_ids, params, rngs,
                          debug, rec, sx, dealer, np.int64(PH_START), np.int64(-1), False,
                          np.int64(-1))
        rec[RF_GAP_BEFORE] = gap_before
        for i in range(N_LUCK):
            rec[RF_LUCK_DEALER + i] = np.int64(np.round(rs.luck[i] * LUCK_SCALE))
        w = rec[RF_WINNER]
        if w >= 0:
            scores[w] += paid
            scores[1 - w] -= paid
            scores[w] += pot
            pot = 0
        elif not ra[RA_POT_CARRY_OVER]:  # without carry-over an unclaimed ante goes back to its payer
            scores[nd] += pot
            pot = 0
        rec[RF_POT] = pot
        rec[RF_SCORE0] = scores[0]
        rec[RF_SCORE1] = scores[1]
        log_event(rs.st, rs.ev, EV_ROUND_END, w, scores[0], scores[1], pot, rec[RF_OUTCOME])
        n_rounds_out += 1
        rnd += 1
        if debug and scores[0] + scores[1] + pot != total:
            raise AssertionError("points plus pot not constant")
        # game end checks
        for s in range(2):
            if scores[s] < ra[RA_GAME_BUST_BELOW]:
                end_reason = END_BUST
                loser = s
        if end_reason >= 0:
            break
        oshimai = w >= 0 and rec[RF_OUTCOME] != OUT_DRAW and (rec[RF_YAKU_BITS] >> Y_OSHIMAI) & 1
        dealer_won = w == dealer and rec[RF_OUTCOME] != OUT_DRAW
        if dealer_won:
            repeat += 1
            if ra[RA_GAME_DEALER_STREAK_WIN] > 0 and repeat >= ra[RA_GAME_DEALER_STREAK_WIN]:
                end_reason = END_DEALER_STREAK
                winner_forced = dealer
        else:
            dealer = 1 - dealer
            repeat = 0
            dealerships_done += 1
            if dealerships_done >= 2 * ra[RA_GAME_DEALERSHIPS_EACH]:
                end_reason = END_FOUR_DEALERSHIPS
        if oshimai and ra[RA_SCORING_YAKU_OSHIMAI_ENDS_GAME] and end_reason < 0:
            end_reason = END_OSHIMAI
    komi_end = 0 if ra[RA_COMPENSATION_KOMI_AT] == KOMI_AT_START else ra[RA_COMPENSATION_KOMI]
    if loser >= 0:
        winner = 1 - loser
    elif winner_forced >= 0:
        winner = winner_forced
    elif scores[first_dealer] - scores[1 - first_dealer] != komi_end:
        winner = first_dealer if scores[first_dealer] - scores[1 - first_dealer] > komi_end \
            else 1 - first_dealer
    else:
        tb = ra[RA_GAME_TIE_BREAK]
        winner = first_dealer if tb == TIE_FIRST_DEALER else (-1 if tb == TIE_DRAW else 1 - first_dealer)
    pot_left = pot
    if pot > 0 and winner >= 0 and ra[RA_GAME_LEFTOVER_POT] == POT_TO_WINNER:
        scores[winner] += pot
        pot = 0
    game_rec[GF_WINNER] = winner
    game_rec[GF_END_REASON] = end_reason
    game_rec[GF_ROUNDS] = rnd
    game_rec[GF_SCORE0] = scores[0]
    game_rec[GF_SCORE1] = scores[1]
    game_rec[GF_FIRST_DEALER] = first_dealer
    game_rec[GF_POT_LEFT] = pot_left
    log_event(rs.st, rs.ev, EV_GAME_END, winner, end_reason, scores[0], scores[1], pot_left)
    return n_rounds_out


@nb.njit(cache=True)
def play_games(game_indices, seed, rs, et, ra, tables, pol_ids, params, debug, rounds_out, games_out):
    """Play games ``game_indices`` one after another with one round state.

    Parameters
    ----------
    game_indices : int64[n_games]
    seed : uint64
    rs, et, ra, tables, pol_ids, params, debug
        As in :func:`play_round`.
    rounds_out : int64[n_rows, N_RF]
        Written from row 0: every round of every game, in order.
    games_out : int64[n_games, N_GF]
        Written: row i is game ``game_indices[i]``'s record.

    Returns
    -------
    int
        Round rows written, or -1 when ``rounds_out`` filled up (callers retry with more rows).
    """
    return games_loop(game_indices, seed, rs, et, ra, tables, pol_ids, params, debug, rounds_out,
                      games_out, rs)


@nb.njit(cache=True, inline="always")
def games_loop(game_indices, seed, rs, et, ra, tables, pol_ids, params, debug, rounds_out,
               games_out, sx):
    """:func:`play_games`; ``sx``: ``rs`` again, or a search's scratch (:mod:`simcore.nb.search`)."""
    # the caller keeps every argument alive for the whole call: callees need not count them
    et, ra, tables, pol_ids, params = (borrowed(et), borrowed(ra), borrowed(tables),
                                       borrowed(pol_ids), borrowed(params))
    rounds_out, games_out = borrowed(rounds_out), borrowed(games_out)
    n = np.int64(0)  # not a literal 0: play_game compiles for one signature
    for i in range(game_indices.shape[0]):
        n = play_game(game_indices[i], seed, rs, et, ra, tables, pol_ids, params, debug, rounds_out, n,
                      games_out[i], sx)
        if n < 0:
            return -1
    return n


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
