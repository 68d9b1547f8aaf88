"""The emoji mahjong round and game engine (spec emoji.md §3-§10), whole games compiled.

Four seats draw and discard at the same time; wins are automatic. A turn (§4.1): every seat draws
(dealer order); the tsumo check; every seat not in riichi chooses a discard (and riichi) from its
own observation, all four observations built before any discard is applied (§5's fair
simultaneous play), each seat with its own random stream keyed by (seed, game, round, seat); the
reveal (discards, riichi deposits); the ron check against this turn's discards; after the last
turn the exhaustive draw. Settlement (§9): tsumo split or each full, ron payer by ``ron_source``,
the pot split among the winners, the draw's pot to the tenpai seats; every payment of a round is
computed from the same state and applied at once. The game (§10): rounds E1-S4, the West
extension when the chips are close, the bust rule, the ranking.

Rules arrive as two arrays: ``ra`` (int64: the ``RA_*`` slot of every option
of the schema, :data:`simcore.emoji.schema.SLOTS`) and ``sr`` (float64, the scoring rules of
:mod:`simcore.emoji.scoring`); ``t`` is the hand table (:func:`simcore.emoji.hand.tables`).

What this implementation simplifies:
- ``tsumo_winners_pay_each_other: false``: each non-winner pays its share (a third of the value
  under ``split``); the winner receives only the non-winners' shares.
- ``carry_chips: true`` is not offered: games stay independent, the unit of every statistic.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.events import log
from simcore.nb.borrow import borrowed
from simcore.nb.games import games_loop, open_round
from simcore.nb.layout import define_fields, state_spec
from simcore.nb.reach import measures_reach
from simcore.nb.rng import randint, seed_keyed
from simcore.nb.search import search_hook, searching
from .hand import N_KINDS, N_NUMBER_KINDS, N_RANKS, distance, is_winning, waits
from .layout import (  # noqa: F401  (the layout's names, for importers)
    DEFAULT_ACTION, MAX_DISC, N_ACTIONS, N_SEATS, OBS_CHIPS, OBS_DEALER, OBS_DISC,
    OBS_DISC_RIICHI, OBS_DORA, OBS_DRAWN, OBS_LEN, OBS_N_DISC, OBS_OWN, OBS_POT,
    OBS_RIICHI_TURN, OBS_SEAT, OBS_TURN, OBS_TURNS, OBS_UNSEEN,
)
from .schema import SLOTS
from .scoring import DECOMP_COLS, score_win
from policies.emoji import decide

N_TILES = 90
HAND = 7
DEAL = 28
MAX_TURNS = 15
MAX_ROUNDS = 12

# ---- the rules array ra ---------------------------------------------------------------------
N_RA = SLOTS.define(globals())   # RA_<KEY> for every option of the schema (RA_CHIPS_ANTE)

# ---- records ----------------------------------------------------------------------------------
OUTCOMES = ("tsumo", "ron", "draw")
define_fields(globals(), "OUT", OUTCOMES)
END_REASON_NAMES = ("regular", "west", "bust", "round_limit")
define_fields(globals(), "END", END_REASON_NAMES)
ROUND_FIELDS = (
    "game", "round", "dealer", "outcome", "turns",
    "winners",                          # bit s: seat s won
    "ron_from",                         # bits: seats that paid a ron
    "riichi",                           # bits: seats in riichi at the end
    "tenpai",                           # bits (a draw)
    "value0", "value1", "value2", "value3",   # each winner's value
    "yaku0", "yaku1", "yaku2", "yaku3",       # each winner's yaku mask
    "pot_taken", "pot_left",
    "chips0", "chips1", "chips2", "chips3",   # after the round
    "dora",
    # per seat, the yaku (bits as yaku0..3) some wait of its 7 tiles would have scored as a ron
    # at some point of the round (the winner's include what it won with), in the games that
    # measure it (simcore.nb.reach; else 0): _note_reach
    "reach0", "reach1", "reach2", "reach3",
)
N_RF = define_fields(globals(), "RF", ROUND_FIELDS)
GAME_FIELDS = ("winners", "end_reason", "rounds", "chips0", "chips1", "chips2", "chips3",
               "first_dealer", "pot_left")
N_GF = define_fields(globals(), "GF", GAME_FIELDS)

# ---- events (replay) --------------------------------------------------------------------------
EV_TYPES = ("round_start",   # seat dealer; a dora kind, b indicator kind
            "deal",          # seat; a kind: one event per dealt tile, seats 0-3 in order
            "draw",          # seat; a kind
            "discard",       # seat; a kind, b riichi
            "tsumo", "ron",  # seat; a win tile, b value, c from (ron) / -1, d yaku mask
            "payment",       # seat payer; a receiver, b amount
            "pot_share",     # seat; a amount
            "exhaustive",    # -1; a tenpai bits
            "round_end",     # -1; a pot left
            "game_end",      # -1; a winners bits, b end reason
            "ante",          # seat; a amount put into the pot (round start)
            "deposit",       # seat; a amount put into the pot (a riichi declaration)
            "refund",        # seat; a amount taken back from the pot (a void riichi)
            "pot_discarded")  # -1; a amount (a draw with nobody tenpai under discard; game end)
# the pot at game end under pot_at_game_end: to_top is a pot_share event of each top seat
define_fields(globals(), "EV", EV_TYPES)
EV_WIDTH = 6
MAX_EVENTS = 12 * 200

ST_FIELDS = ("log", "n_ev", "pot", "dealer", "turn", "indicator", "dora", "first_dealer",
             "went_negative")   # 1: a balance went below 0 during the round (bust_check any_time)
N_ST = define_fields(globals(), "ST", ST_FIELDS)

State, new_state = state_spec("State", (
    ("wall", (N_TILES,), np.int64, 0),          # kinds in draw order
    ("hand", (N_SEATS, N_KINDS), np.int64, 0),  # counts
    ("drawn", (N_SEATS,), np.int64, -1),
    ("disc", (N_SEATS, MAX_DISC), np.int64, -1),
    ("disc_riichi", (N_SEATS, MAX_DISC), np.int64, 0),
    ("n_disc", (N_SEATS,), np.int64, 0),
    ("disc_count", (N_KINDS,), np.int64, 0),    # every seat's discards of each kind (public)
    ("waits", (N_SEATS,), np.int64, 0),         # each 7-tile hand's waits (a tsumo: one bit)
    ("riichi_turn", (N_SEATS,), np.int64, 0),   # 0: none
    ("chips", (N_SEATS,), np.int64, 0),
    ("owed", (N_SEATS, N_SEATS), np.int64, 0),  # cap_at_balance: [payer, receiver] this round
    ("obs", (N_SEATS, OBS_LEN), np.int64, 0),
    ("mask", (N_SEATS, N_ACTIONS), np.bool_, False),
    ("pmask", (N_ACTIONS,), np.bool_, False),   # the mask a policy is given (a copy)
    ("st", (N_ST,), np.int64, 0),
    ("ev", lambda log: (MAX_EVENTS if log else 1, EV_WIDTH), np.int64, -1),
    # a game's streams and a round's working rows (cleared where the loop starts them): in the
    # state, so that the loop allocates nothing and hands them on without counting references
    ("rngs", (1 + N_SEATS, 4), np.uint64, 0),
    ("delta", (N_SEATS,), np.int64, 0),
    ("values", (N_SEATS,), np.float64, 0.0),
    ("yaku", (N_SEATS,), np.int64, 0),
    ("reach_riichi", (N_SEATS,), np.int64, 0),
    ("actions", (N_SEATS,), np.int64, -1),
    ("best_from", (N_SEATS,), np.int64, -1),
    ("decomp", (DECOMP_COLS,), np.int64, 0),
    ("reach_decomp", (DECOMP_COLS,), np.int64, 0),
), __name__)

RNG_SHUFFLE = 0                     # then one stream per seat: 1 + seat


@nb.njit(cache=True)
def next_kind(k, ra) -> int:
    """The dora after indicator kind ``k`` (§3.5): per suit (9 -> 1) or the next id mod 30;
    honours by ``honor_cycle``."""
    if ra[RA_WALL_DORA_NEXT] == 1:
        return (k + 1) % N_KINDS
    if k >= N_NUMBER_KINDS:
        return ra[RA_WALL_HONOR_CYCLE0 + k - N_NUMBER_KINDS]
    return k - k % N_RANKS + (k % N_RANKS + 1) % N_RANKS


@nb.njit(cache=True)
def n_turns(ra) -> int:
    live = N_TILES - DEAL - (1 if ra[RA_WALL_INDICATOR] == 0 else 0)
    auto = live // N_SEATS
    return auto if ra[RA_WALL_TURNS] == 0 else min(ra[RA_WALL_TURNS], auto)


@nb.njit(cache=True)
def deal(s, ra):
    """Deal the round from ``s.wall`` as it stands (a test may stack it): seat (d+i) mod 4 gets
    wall[7i .. 7i+6]; the indicator is wall[28] (``indicator: removed``) or a tile of
    wall[28 ..] chosen by the shuffle stream beforehand (``in_wall``, st[ST_INDICATOR])."""
    d = s.st[ST_DEALER]
    for seat in range(N_SEATS):
        for k in range(N_KINDS):
            s.hand[seat, k] = 0
        s.drawn[seat] = -1
        s.n_disc[seat] = 0
        s.riichi_turn[seat] = 0
        for j in range(MAX_DISC):
            s.disc[seat, j] = -1
            s.disc_riichi[seat, j] = 0
    for k in range(N_KINDS):
        s.disc_count[k] = 0
    for i in range(N_SEATS):
        seat = (d + i) % N_SEATS
        for j in range(HAND):
            s.hand[seat, s.wall[HAND * i + j]] += 1
    if ra[RA_WALL_INDICATOR] == 0:
        s.st[ST_INDICATOR] = s.wall[DEAL]
    s.st[ST_DORA] = next_kind(s.st[ST_INDICATOR], ra)


@nb.njit(cache=True)
def _draw_pos(ra, turn, i) -> int:
    base = DEAL + (1 if ra[RA_WALL_INDICATOR] == 0 else 0)
    return base + N_SEATS * (turn - 1) + i


@nb.njit(cache=True)
def _unseen(s, seat, ra, out):
    """unseen[k] = 3 - the seat's own copies - every discard - the removed indicator (§5)."""
    for k in range(N_KINDS):
        out[k] = 3 - s.hand[seat, k] - s.disc_count[k]
    if ra[RA_WALL_INDICATOR] == 0:
        out[s.st[ST_INDICATOR]] -= 1


@nb.njit(cache=True)
def build_observation(s, seat, ra, t, turns, delta):
    """The seat's view at step 3 (§5) into s.obs[seat], and its legal mask into s.mask[seat]."""
    o = s.obs[seat]
    for k in range(N_KINDS):
        o[OBS_OWN + k] = s.hand[seat, k]
    un = o[OBS_UNSEEN:OBS_UNSEEN + N_KINDS]
    if ra[RA_TURN_WAIT_COUNT_INFO] == 1:   # wall: the copies left to draw (leaks others' hands)
        for k in range(N_KINDS):
            un[k] = 0
        for pos in range(_draw_pos(ra, s.st[ST_TURN] + 1, 0), _draw_pos(ra, turns + 1, 0)):
            un[s.wall[pos]] += 1
    else:
        _unseen(s, seat, ra, un)
    o[OBS_DRAWN] = s.drawn[seat]
    o[OBS_SEAT] = seat
    o[OBS_DEALER] = s.st[ST_DEALER]
    o[OBS_TURN] = s.st[ST_TURN]
    o[OBS_TURNS] = turns
    o[OBS_DORA] = s.st[ST_DORA]
    o[OBS_POT] = s.st[ST_POT]
    for p in range(N_SEATS):
        o[OBS_CHIPS + p] = s.chips[p] + delta[p]   # this round's deposits paid
        o[OBS_RIICHI_TURN + p] = s.riichi_turn[p]
        o[OBS_N_DISC + p] = s.n_disc[p]
        # the discard lists grow by one a turn: copy the new entry (a deal clears the rest)
        for j in range(max(s.n_disc[p] - 1, 0), MAX_DISC if s.n_disc[p] == 0 else s.n_disc[p]):
            o[OBS_DISC + p * MAX_DISC + j] = s.disc[p, j]
            o[OBS_DISC_RIICHI + p * MAX_DISC + j] = s.disc_riichi[p, j]
    m = s.mask[seat]
    for a in range(N_ACTIONS):
        m[a] = False
    if s.riichi_turn[seat] > 0:
        m[s.drawn[seat]] = True
        return
    h = s.hand[seat]
    # riichi_min_chips 0: no balance needed at all, a negative one included (spec §7)
    riichi_ok = ((ra[RA_RIICHI_MIN_CHIPS] == 0 or s.chips[seat] + delta[seat]
                  >= ra[RA_RIICHI_MIN_CHIPS])
                 and (ra[RA_RIICHI_LAST_TURN] != 0 or s.st[ST_TURN] < turns))
    # a discard leaves tenpai only if the 8 tiles lack at most one (one lookup, not 8 waits)
    riichi_ok = riichi_ok and distance(h, t) <= 1
    for k in range(N_KINDS):
        if h[k] == 0:
            continue
        m[k] = True
        if riichi_ok:
            h[k] -= 1
            if waits(h, t) != 0:
                m[N_KINDS + k] = True
            h[k] += 1


@nb.njit(cache=True)
def _winning_value(s, seat, c, win_kind, tsumo, turn, turns, drawn_last, ra, sr, t, riichi_turn,
                   decomp):
    """(value, yaku mask) of seat's win on ``c`` (8 tiles), or (-1, 0) when it is no win
    (``require_yaku`` and no yaku; ``tenhou_seats: dealer_only`` keeps a non-dealer's turn-1
    tsumo a plain tsumo)."""
    last = turns if (ra[RA_SCORING_LAST_TILE_SCOPE] == 0 or drawn_last) else -1
    tenhou_ok = ra[RA_SCORING_TENHOU_SEATS] == 0 or seat == s.st[ST_DEALER]
    v, p, m = score_win(c, win_kind, tsumo, riichi_turn, turn, last, seat == s.st[ST_DEALER],
                        s.st[ST_DORA], sr, decomp, tenhou_ok)
    if v < 0:
        return -1.0, np.int64(0)
    if ra[RA_SHAPES_REQUIRE_YAKU] != 0 and m == 0:
        return -1.0, np.int64(0)
    return v, m


@nb.njit(cache=True)
def _pay(s, payer, receiver, amount, ra, delta):
    """A payment into ``delta`` (applied at once at the round's end); under ``payments:
    cap_at_balance`` only owed here, and capped by :func:`_pay_owed` once every payment of the
    round is known."""
    if ra[RA_SETTLEMENT_PAYMENTS] == 1:
        s.owed[payer, receiver] += amount
        return
    delta[payer] -= amount
    delta[receiver] += amount
    log(s, EV_PAYMENT, payer, receiver, amount, 0, 0)


@nb.njit(cache=True)
def _pay_owed(s, delta):
    """``cap_at_balance`` (spec §9.6, §16): each payer pays at most max(balance, 0), its
    balance before the round's payments (the ante and deposits paid); a capped total is divided
    among its payees in proportion to what each is owed (floor), the remainder to the payee
    first in turn order from the payer. Every cap is taken from the same state."""
    avail = np.zeros(N_SEATS, np.int64)
    for p in range(N_SEATS):
        avail[p] = max(s.chips[p] + delta[p], 0)
    for p in range(N_SEATS):
        total = 0
        for r in range(N_SEATS):
            total += s.owed[p, r]
        if total == 0:
            continue
        pays = min(total, avail[p])
        paid = 0
        share = np.zeros(N_SEATS, np.int64)
        for r in range(N_SEATS):
            if s.owed[p, r] > 0:
                share[r] = s.owed[p, r] if pays == total else (s.owed[p, r] * pays) // total
                paid += share[r]
        for off in range(1, N_SEATS):
            r = (p + off) % N_SEATS
            if s.owed[p, r] > 0:
                share[r] += pays - paid
                break
        for off in range(1, N_SEATS):
            r = (p + off) % N_SEATS
            if s.owed[p, r] > 0:
                delta[p] -= share[r]
                delta[r] += share[r]
                log(s, EV_PAYMENT, p, r, share[r], 0, 0)
            s.owed[p, r] = 0


@nb.njit(cache=True)
def _share_pot(s, receivers, ra, delta, allow_carry):
    """The pot to the seats in bit mask ``receivers``: floor(pot/n) each, the remainder to the
    first in dealer order (or carried); ``first_in_dealer_order``: all to the first. Returns
    the amount paid out."""
    pot = s.st[ST_POT]
    n = 0
    for p in range(N_SEATS):
        if (receivers >> p) & 1:
            n += 1
    if n == 0 or pot == 0:
        return 0
    d = s.st[ST_DEALER]
    first = -1
    for i in range(N_SEATS):
        p = (d + i) % N_SEATS
        if (receivers >> p) & 1:
            first = p
            break
    if ra[RA_SETTLEMENT_MULTI_WINNER_POT] == 1:
        delta[first] += pot
        log(s, EV_POT_SHARE, first, pot, 0, 0, 0)
        s.st[ST_POT] = 0
        return pot
    each = pot // n
    rem = pot - each * n
    paid = 0
    for p in range(N_SEATS):
        if (receivers >> p) & 1:
            amt = each + (rem if (p == first and (ra[RA_SETTLEMENT_POT_REMAINDER] == 0 or not allow_carry))
                          else 0)
            delta[p] += amt
            paid += amt
            log(s, EV_POT_SHARE, p, amt, 0, 0, 0)
    s.st[ST_POT] = pot - paid
    return paid


_search_decision = search_hook("simcore.emoji.search")   # the search kernel's discards


@nb.njit(cache=True)
def play_round(s, ra, sr, t, pol_ids, params, rngs, debug, rec, sx):
    """Play one round (the wall shuffled or stacked, chips and pot as the game left them; the
    ante already in the pot). Writes the round record ``rec`` and applies the settlement.
    ``sx``: ``s`` again, or a search's scratch (:mod:`simcore.emoji.search`)."""
    d = s.st[ST_DEALER]
    held = s.chips.sum() + s.st[ST_POT]   # chips plus pot: constant through the settlement
    deal(s, ra)
    for seat in range(N_SEATS):
        s.waits[seat] = waits(s.hand[seat], t)
    log(s, EV_ROUND_START, d, s.st[ST_DORA], s.st[ST_INDICATOR], 0, 0)
    for seat in range(N_SEATS):   # the ante the game driver put into the pot (spec §3.3)
        log(s, EV_ANTE, seat, ra[RA_CHIPS_ANTE], 0, 0, 0)
    for seat in range(N_SEATS):
        for k in range(N_KINDS):
            for _ in range(s.hand[seat, k]):
                log(s, EV_DEAL, seat, k, 0, 0, 0)
    s.delta[:] = 0
    s.decomp[:] = 0
    # yaku reach (simcore.nb.reach), in a sample of games: each seat's riichi turn when its reach
    # was last noted (its 7 tiles change only by a discard other than the drawn kind), and the
    # scoring's scratch row (decomp's own, so a reach never overwrites a win's)
    reach = measures_reach(rec[RF_GAME])
    s.reach_riichi[:] = 0
    s.reach_decomp[:] = 0
    if reach:
        for seat in range(N_SEATS):
            if s.waits[seat] != 0:
                _note_reach(s, seat, sr, rec, s.reach_decomp)
    s.values[:] = 0.0
    s.yaku[:] = 0
    round_from(s, ra, sr, t, pol_ids, params, rngs, rec, reach, np.int64(1), np.int64(0),
               np.int64(-1), np.int64(-1), sx)
    if debug:
        check_round(s, ra)
        if not (rec[RF_WINNERS] == 0 and rec[RF_TENPAI] == 0
                and ra[RA_SETTLEMENT_DRAW_NO_TENPAI_POT] == 1) \
                and s.chips.sum() + s.st[ST_POT] != held:
            raise AssertionError("payments and pot shares do not sum to zero")


@nb.njit(cache=True, inline="always")
def round_from(s, ra, sr, t, pol_ids, params, rngs, rec, reach, start, tsumo0, forced_seat,
               forced, sx):
    """The round from turn ``start``'s draw to its settlement and record; with ``forced_seat``
    >= 0, from that turn's decisions instead (the draws made, ``tsumo0`` the seats whose tsumo
    stands), seat ``forced_seat`` playing action ``forced`` (a search's candidate). Inlined, as
    numba would take the search kernel's round inside a decision for a recursion."""
    d = s.st[ST_DEALER]
    turns = n_turns(ra)
    delta, decomp = s.delta, s.decomp
    reach_riichi, reach_decomp = s.reach_riichi, s.reach_decomp
    values, yaku = s.values, s.yaku
    winners = 0
    ron_from = 0
    outcome = OUT_DRAW
    turn = 0
    tsumo_won = 0
    fresh = forced_seat < 0   # False on a resumed turn: its draws and tsumo check are made
    for turn in range(start, turns + 1):
        s.st[ST_TURN] = turn
        drawn_last = turn == turns
        if fresh:
            # 1. draw, in dealer order
            for i in range(N_SEATS):
                seat = (d + i) % N_SEATS
                k = s.wall[_draw_pos(ra, turn, i)]
                s.hand[seat, k] += 1
                s.drawn[seat] = k
                log(s, EV_DRAW, seat, k, 0, 0, 0)
            # 2. tsumo check
            tsumo_won = 0
            for i in range(N_SEATS):
                seat = (d + i) % N_SEATS
                if (s.waits[seat] >> s.drawn[seat]) & 1:   # the 7 tiles waited on the drawn kind
                    v, m = _winning_value(s, seat, s.hand[seat], s.drawn[seat], True, turn,
                                          turns, True, ra, sr, t, s.riichi_turn[seat], decomp)
                    if v >= 0 and not (ra[RA_TURN_SIMULTANEOUS_WINS] == 1 and tsumo_won != 0):
                        tsumo_won |= 1 << seat
                        values[seat] = v
                        yaku[seat] = m
            if tsumo_won != 0 and ra[RA_TURN_TSUMO_ENDS_TURN] != 0:
                winners = tsumo_won
                outcome = OUT_TSUMO
                break
        else:
            tsumo_won = tsumo0
        # 3. choose: every observation first, then every decision (§5)
        for seat in range(N_SEATS):   # a seat in riichi has no choice: no observation
            if not (tsumo_won >> seat) & 1 and s.riichi_turn[seat] == 0:
                build_observation(s, seat, ra, t, turns, delta)
        actions = s.actions
        actions[:] = -1
        for seat in range(N_SEATS):
            if (tsumo_won >> seat) & 1:
                continue
            if s.riichi_turn[seat] > 0:
                actions[seat] = s.drawn[seat]
                continue
            # a policy gets its own observation row (rebuilt from the state every turn, never
            # the state itself) and a copy of its mask: it cannot change what is legal (§5)
            s.pmask[:] = s.mask[seat]
            if not fresh and seat == forced_seat:
                a = forced
            elif searching(sx):
                a = _search_decision((s, seat, turn, tsumo_won, ra, sr, t, pol_ids, params,
                                      rngs, rec), sx)
            else:
                # borrowed: the state owns these for the whole call, so the policy's call
                # tree counts no references to them (simcore.nb.borrow)
                a = decide(pol_ids[seat], borrowed(s.obs[seat]), borrowed(s.pmask),
                           borrowed(params[seat]), borrowed(rngs[1 + seat]), t, ra)
            if a < 0 or a >= N_ACTIONS or not s.mask[seat, a]:
                if ra[RA_TURN_INVALID_ACTION] == 1 and a != DEFAULT_ACTION:
                    raise ValueError("a policy returned an illegal action")
                a = s.drawn[seat]
            actions[seat] = a
        fresh = True
        # 4. reveal and apply
        declared = 0
        for seat in range(N_SEATS):
            a = actions[seat]
            if a < 0:
                continue
            k = a % N_KINDS
            riichi = a >= N_KINDS
            s.hand[seat, k] -= 1
            j = s.n_disc[seat]
            s.disc[seat, j] = k
            s.disc_riichi[seat, j] = 1 if riichi else 0
            s.n_disc[seat] = j + 1
            s.disc_count[k] += 1
            s.waits[seat] = waits(s.hand[seat], t)
            log(s, EV_DISCARD, seat, k, 1 if riichi else 0, 0, 0)
            if riichi:
                s.riichi_turn[seat] = turn
                declared |= 1 << seat
                delta[seat] -= ra[RA_CHIPS_RIICHI_DEPOSIT]
                s.st[ST_POT] += ra[RA_CHIPS_RIICHI_DEPOSIT]
                log(s, EV_DEPOSIT, seat, ra[RA_CHIPS_RIICHI_DEPOSIT], 0, 0, 0)
                if s.chips[seat] + delta[seat] < 0:
                    s.st[ST_WENT_NEGATIVE] = 1
            if reach and (k != s.drawn[seat] or s.riichi_turn[seat] != reach_riichi[seat]):
                reach_riichi[seat] = s.riichi_turn[seat]
                if s.waits[seat] != 0:
                    _note_reach(s, seat, sr, rec, reach_decomp)
        # 5. ron check: p's 7 tiles + q's discard of this turn
        ron_won = 0
        best_from = s.best_from
        best_from[:] = -1
        for p in range(N_SEATS):
            if (tsumo_won >> p) & 1 or actions[p] < 0:
                continue
            q, v, m, _ = _ron_candidates(s, p, tsumo_won, actions, ra, sr, t, turn, turns,
                                         drawn_last, decomp)
            if q >= 0:
                best_from[p], values[p], yaku[p] = q, v, m
                ron_won |= 1 << p
        if ron_won != 0 and ra[RA_TURN_SIMULTANEOUS_WINS] == 1:
            for i in range(N_SEATS):
                p = (d + i) % N_SEATS
                if (tsumo_won | ron_won) >> p & 1:
                    if (tsumo_won >> p) & 1:
                        ron_won = 0
                        tsumo_won = 1 << p
                    else:
                        ron_won = 1 << p
                        tsumo_won = 0
                    break
        if ra[RA_RIICHI_IF_RONNED] == 1 and ron_won != 0:
            # a declaration whose discard completed a winner's hand is void: the deposit back,
            # and the declarer's own ron chosen again without machibuse (it may fall away
            # under require_yaku; a second round of voiding is not followed: spec silent)
            ronned = 0
            for p in range(N_SEATS):
                if (ron_won >> p) & 1:
                    ronned |= _ron_candidates(s, p, tsumo_won, actions, ra, sr, t, turn, turns,
                                              drawn_last, decomp)[3]
            for q in range(N_SEATS):
                if (declared >> q) & 1 and (ronned >> q) & 1:
                    s.riichi_turn[q] = 0
                    delta[q] += ra[RA_CHIPS_RIICHI_DEPOSIT]
                    s.st[ST_POT] -= ra[RA_CHIPS_RIICHI_DEPOSIT]
                    log(s, EV_REFUND, q, ra[RA_CHIPS_RIICHI_DEPOSIT], 0, 0, 0)
                    if (ron_won >> q) & 1:
                        b2, v, m, _ = _ron_candidates(s, q, tsumo_won, actions, ra, sr, t, turn,
                                                      turns, drawn_last, decomp)
                        if b2 < 0:
                            ron_won &= ~(1 << q)
                        else:
                            best_from[q], values[q], yaku[q] = b2, v, m
        if tsumo_won != 0 or ron_won != 0:
            # the tsumo wins of this turn (tsumo_ends_turn: false) settle with the rons
            # (ron_from: every seat that pays a ron)
            winners = tsumo_won | ron_won
            outcome = OUT_RON if ron_won != 0 else OUT_TSUMO
            _settle_rons(s, ron_won, best_from, actions, values, yaku, ra, sr, t, turn, turns,
                         drawn_last, decomp, delta)
            for p in range(N_SEATS):
                if (ron_won >> p) & 1:
                    if ra[RA_SETTLEMENT_RON_SOURCE] >= 2:   # split / each_full: every qualifying discarder
                        ron_from |= _ron_candidates(s, p, tsumo_won, actions, ra, sr, t, turn,
                                                    turns, drawn_last, decomp)[3]
                    else:
                        ron_from |= 1 << best_from[p]
            break
    if outcome == OUT_TSUMO or (outcome == OUT_RON and tsumo_won != 0):
        _settle_tsumos(s, tsumo_won, values, yaku, ra, delta)
    if ra[RA_SETTLEMENT_PAYMENTS] == 1:
        _pay_owed(s, delta)
    pot_before = s.st[ST_POT]
    tenpai = 0
    if winners != 0:
        _share_pot(s, winners, ra, delta, True)
    else:
        for p in range(N_SEATS):
            if s.riichi_turn[p] > 0 or _is_tenpai(s, p, ra, t):
                tenpai |= 1 << p
        log(s, EV_EXHAUSTIVE, -1, tenpai, 0, 0, 0)
        if tenpai != 0:
            _share_pot(s, tenpai, ra, delta, True)
        elif ra[RA_SETTLEMENT_DRAW_NO_TENPAI_POT] == 1:
            log(s, EV_POT_DISCARDED, -1, s.st[ST_POT], 0, 0, 0)
            s.st[ST_POT] = 0
        elif ra[RA_SETTLEMENT_DRAW_NO_TENPAI_POT] == 2:
            _share_pot(s, 15, ra, delta, True)
    for p in range(N_SEATS):
        s.chips[p] += delta[p]
    log(s, EV_ROUND_END, -1, s.st[ST_POT], 0, 0, 0)
    rec[RF_DEALER] = d
    rec[RF_OUTCOME] = outcome
    rec[RF_TURNS] = turn
    rec[RF_WINNERS] = winners
    rec[RF_RON_FROM] = ron_from
    rec[RF_TENPAI] = tenpai
    rec[RF_DORA] = s.st[ST_DORA]
    riichi = 0
    for p in range(N_SEATS):
        if s.riichi_turn[p] > 0:
            riichi |= 1 << p
        rec[RF_VALUE0 + p] = np.int64(values[p]) if (winners >> p) & 1 else 0
        rec[RF_YAKU0 + p] = yaku[p] if (winners >> p) & 1 else 0
        if reach and (winners >> p) & 1:
            rec[RF_REACH0 + p] |= yaku[p]   # a won hand was within reach of what it scored
        rec[RF_CHIPS0 + p] = s.chips[p]
    rec[RF_RIICHI] = riichi
    discarded_pot = winners == 0 and tenpai == 0 and ra[RA_SETTLEMENT_DRAW_NO_TENPAI_POT] == 1
    rec[RF_POT_TAKEN] = 0 if discarded_pot else pot_before - s.st[ST_POT]
    rec[RF_POT_LEFT] = s.st[ST_POT]


@nb.njit(cache=True)
def _note_reach(s, seat, sr, rec, out):
    """Add to ``rec[RF_REACH0 + seat]`` the yaku some wait of the seat's 7 tiles
    (``s.waits[seat]``, not 0) would score as a ron (its riichi as it stands, its dealership, the
    dora; furiten aside); ``out`` is the scoring's scratch row. A ron scores every yaku of the
    hand; tsumo, last_tile and tenhou are of the moment (how and when the tile comes), which the
    reach table does not count. The round loop calls this only in the games that measure reach,
    when the seat's 7 tiles or its riichi changed: a discard of another kind than the one drawn,
    or a declaration (a riichi seat's hand is frozen: one call)."""
    w = s.waits[seat]
    h = s.hand[seat]
    dealer = seat == s.st[ST_DEALER]
    bits = rec[RF_REACH0 + seat]
    for k in range(N_KINDS):
        if (w >> k) & 1:
            h[k] += 1
            v, _, m = score_win(h, k, np.bool_(False), s.riichi_turn[seat], np.int64(0),
                                np.int64(-1), dealer, s.st[ST_DORA], sr, out, np.bool_(True))
            h[k] -= 1
            if v >= 0:
                bits |= m
    rec[RF_REACH0 + seat] = bits


@nb.njit(cache=True)
def _ron_candidates(s, p, tsumo_won, actions, ra, sr, t, turn, turns, drawn_last, decomp):
    """Seat p's ron this turn: (payer, value, yaku mask, bit mask of every discarder whose tile
    wins), payer -1 for none. ``nearest_seat``: the first such discarder in after-winner order;
    otherwise the best tile's (a tie: the earlier), which split and each_full report too."""
    best_q, best_v, best_m, qualifying = -1, -1.0, np.int64(0), 0
    p_waits = s.waits[p]   # computed at the reveal: a bit per discard
    if p_waits == 0:
        return best_q, best_v, best_m, qualifying
    if ra[RA_SHAPES_FURITEN] == 1:   # no ron while a wait is among one's own discards
        for j in range(s.n_disc[p]):
            if (p_waits >> s.disc[p, j]) & 1:
                return best_q, best_v, best_m, qualifying
    for off in range(1, N_SEATS):
        q = (p + off) % N_SEATS    # after-winner order
        if (tsumo_won >> q) & 1 or actions[q] < 0:
            continue
        k = actions[q] % N_KINDS
        if not (p_waits >> k) & 1:
            continue
        s.hand[p, k] += 1
        v, m = _winning_value(s, p, s.hand[p], k, False, turn, turns,
                              s.drawn[q] == k and drawn_last, ra, sr, t, s.riichi_turn[p],
                              decomp)
        s.hand[p, k] -= 1
        if v >= 0:
            qualifying |= 1 << q
            if best_q < 0 or (ra[RA_SETTLEMENT_RON_SOURCE] != 1 and v > best_v):
                best_q, best_v, best_m = q, v, m
    return best_q, best_v, best_m, qualifying


@nb.njit(cache=True)
def _is_tenpai(s, p, ra, t) -> bool:
    """At the draw (§9.5): by shape, or (``live_wait``) with a wait some copy of which is not
    in the seat's hand, its discards or the removed indicator."""
    w = waits(s.hand[p], t)
    if w == 0:
        return False
    if ra[RA_SHAPES_TENPAI] == 0:
        return True
    un = np.zeros(N_KINDS, np.int64)
    _unseen(s, p, ra, un)
    for k in range(N_KINDS):
        if (w >> k) & 1 and un[k] > 0:
            return True
    return False


@nb.njit(cache=True)
def _settle_tsumos(s, tsumo_won, values, yaku, ra, delta):
    """Each tsumo winner is paid by the three others (§9.2): a third each, the remainder by the
    first payers in after-winner order, or ceil thirds; or each the full value."""
    for w in range(N_SEATS):
        if not (tsumo_won >> w) & 1:
            continue
        v = np.int64(values[w])
        log(s, EV_TSUMO, w, s.drawn[w], v, -1, yaku[w])
        third = v // 3
        rem = v - 3 * third
        for off in range(1, N_SEATS):
            q = (w + off) % N_SEATS
            if (tsumo_won >> q) & 1 and ra[RA_SETTLEMENT_TSUMO_WINNERS_PAY_EACH_OTHER] == 0:
                continue
            if ra[RA_SETTLEMENT_TSUMO_PAYMENT] == 1:
                amt = v
            elif ra[RA_SETTLEMENT_TSUMO_SPLIT_ROUNDING] == 1:
                amt = -((-v) // 3)
            else:
                amt = third + (1 if off <= rem else 0)
            _pay(s, q, w, amt, ra, delta)


@nb.njit(cache=True)
def _settle_rons(s, ron_won, best_from, actions, values, yaku, ra, sr, t, turn, turns,
                 drawn_last, decomp, delta):
    """Each ron winner is paid by its discarder (§9.3); with several qualifying discarders by
    ``ron_source``: the best tile's, the nearest seat's, shared, or each its own."""
    for p in range(N_SEATS):
        if not (ron_won >> p) & 1:
            continue
        src = ra[RA_SETTLEMENT_RON_SOURCE]
        if src <= 1:
            log(s, EV_RON, p, actions[best_from[p]] % N_KINDS, np.int64(values[p]),
                 best_from[p], yaku[p])
            _pay(s, best_from[p], p, np.int64(values[p]), ra, delta)
            continue
        payers = np.zeros(N_SEATS, np.int64)
        own = np.zeros(N_SEATS, np.float64)
        n = 0
        for off in range(1, N_SEATS):
            q = (p + off) % N_SEATS
            if actions[q] < 0:
                continue
            k = actions[q] % N_KINDS
            if s.hand[p, k] >= 3:
                continue
            s.hand[p, k] += 1
            if is_winning(s.hand[p], t):
                v, m = _winning_value(s, p, s.hand[p], k, False, turn, turns,
                                      s.drawn[q] == k and drawn_last, ra, sr, t,
                                      s.riichi_turn[p], decomp)
                if v >= 0:
                    payers[n] = q
                    own[n] = v
                    n += 1
            s.hand[p, k] -= 1
        log(s, EV_RON, p, actions[best_from[p]] % N_KINDS, np.int64(values[p]), best_from[p],
             yaku[p])
        if src == 3:   # each_full: every qualifying discarder pays its own tile's value
            for i in range(n):
                _pay(s, payers[i], p, np.int64(own[i]), ra, delta)
        else:          # split: the best tile's value shared, the remainder exact
            v = np.int64(values[p])
            each = v // n
            rem = v - each * n
            for i in range(n):
                _pay(s, payers[i], p, each + (1 if i < rem else 0), ra, delta)


@nb.njit(cache=True)
def check_round(s, ra):
    """Debug invariants (§9.6): hands of 7 between turns (8 for a tsumo winner), tiles
    conserved."""
    total = 0
    for p in range(N_SEATS):
        n = 0
        for k in range(N_KINDS):
            if s.hand[p, k] < 0 or s.hand[p, k] > 3:
                raise AssertionError("a count outside 0..3")
            n += s.hand[p, k]
        if n != 7 and n != 8:
            raise AssertionError("a hand of neither 7 nor 8 tiles")
        total += n + s.n_disc[p]
    drawn = N_SEATS * s.st[ST_TURN]
    if total != DEAL + drawn:
        raise AssertionError("tiles not conserved")


@nb.njit(cache=True)
def shuffle_wall(s, ra, rng):
    """A uniform order of the 90 tiles (Fisher-Yates over kinds: copies are indistinguishable);
    under ``in_wall`` the indicator is a uniformly chosen tile of wall[28 ..]."""
    for k in range(N_KINDS):
        for c in range(3):
            s.wall[3 * k + c] = k
    for i in range(N_TILES - 1, 0, -1):
        j = randint(rng, i + 1)
        s.wall[i], s.wall[j] = s.wall[j], s.wall[i]
    if ra[RA_WALL_INDICATOR] == 1:
        s.st[ST_INDICATOR] = s.wall[DEAL + randint(rng, N_TILES - DEAL)]


@nb.njit(cache=True)
def play_game(ctx, game, seed, params, rounds_out, n_out, game_rec):
    """Play one whole game (rounds E1-S4, the West extension, the bust rule); returns the new
    round-row count, or -1 when ``rounds_out`` is full (:func:`simcore.nb.games.games_loop`)."""
    s, ra, sr, t, pol_ids, debug, sx = ctx
    rngs = s.rngs
    rngs[:, :] = 0
    for p in range(N_SEATS):
        s.chips[p] = ra[RA_CHIPS_START]
    s.st[ST_POT] = 0
    first = 0
    if ra[RA_GAME_LENGTH_FIRST_DEALER] == 1:
        seed_keyed(seed, game, np.int64(-1), 0, rngs[0])
        first = randint(rngs[0], N_SEATS)
    s.st[ST_FIRST_DEALER] = first
    end = -1
    rnd = 0
    regular = ra[RA_GAME_LENGTH_REGULAR_ROUNDS]
    limit = regular + ra[RA_GAME_LENGTH_WEST_ROUNDS]
    west = False
    while True:
        if n_out >= rounds_out.shape[0]:
            return -1
        s.st[ST_DEALER] = (first + rnd) % N_SEATS
        rec = open_round(seed, game, rnd, rngs, 1 + N_SEATS, rounds_out, n_out)
        shuffle_wall(s, ra, rngs[RNG_SHUFFLE])
        s.st[ST_WENT_NEGATIVE] = 0
        for p in range(N_SEATS):
            s.chips[p] -= ra[RA_CHIPS_ANTE]
            s.st[ST_POT] += ra[RA_CHIPS_ANTE]
            if s.chips[p] < 0:
                s.st[ST_WENT_NEGATIVE] = 1
        play_round(s, ra, sr, t, pol_ids, params, rngs, debug, rec, sx)
        n_out += 1
        rnd += 1
        neg = False
        for p in range(N_SEATS):
            if s.chips[p] < 0:
                neg = True
        # below 0 after the settlement ends the game (exactly 0 is safe); any_time: at any
        # moment of the round (an ante, a deposit) as well
        if neg or (ra[RA_GAME_LENGTH_BUST_CHECK] == 1 and s.st[ST_WENT_NEGATIVE] != 0):
            end = END_BUST
            break
        gap = _gap(s)
        if rnd == regular:
            if gap > ra[RA_GAME_LENGTH_WEST_GAP] or ra[RA_GAME_LENGTH_WEST_ROUNDS] == 0:
                end = END_REGULAR
                break
            west = True
        elif west:
            if rnd >= limit or (ra[RA_GAME_LENGTH_WEST_MODE] == 1 and gap > ra[RA_GAME_LENGTH_WEST_GAP]):
                end = END_WEST
                break
        if rnd >= MAX_ROUNDS:
            end = END_ROUND_LIMIT
            break
    pot_left = s.st[ST_POT]
    top = s.chips[0]
    for p in range(N_SEATS):
        top = max(top, s.chips[p])
    winners = 0
    for i in range(N_SEATS):
        p = (first + i) % N_SEATS
        if s.chips[p] == top:
            winners |= 1 << p
            if ra[RA_GAME_LENGTH_RANK_TIES] == 1:
                break
    if pot_left > 0 and ra[RA_GAME_LENGTH_POT_AT_GAME_END] == 1:
        # to_top: the top seats share it (the remainder to the first in E1's seat order); none
        # of it is left, so the record's pot_left is 0 (spec §10, §9.6)
        n = 0
        for p in range(N_SEATS):
            if (winners >> p) & 1:
                n += 1
        each = pot_left // n
        rem = pot_left - each * n
        for i in range(N_SEATS):
            p = (first + i) % N_SEATS
            if (winners >> p) & 1:
                s.chips[p] += each + rem
                log(s, EV_POT_SHARE, p, each + rem, 0, 0, 0)
                rem = 0
        pot_left = 0
    elif pot_left > 0:
        log(s, EV_POT_DISCARDED, -1, pot_left, 0, 0, 0)
    s.st[ST_POT] = pot_left
    game_rec[GF_WINNERS] = winners
    game_rec[GF_END_REASON] = end
    game_rec[GF_ROUNDS] = rnd
    for p in range(N_SEATS):
        game_rec[GF_CHIPS0 + p] = s.chips[p]
    game_rec[GF_FIRST_DEALER] = first
    game_rec[GF_POT_LEFT] = pot_left
    log(s, EV_GAME_END, -1, winners, end, 0, 0)
    return n_out


@nb.njit(cache=True)
def _gap(s) -> int:
    hi = s.chips[0]
    lo = s.chips[0]
    for p in range(N_SEATS):
        hi = max(hi, s.chips[p])
        lo = min(lo, s.chips[p])
    return hi - lo


@nb.njit(cache=True, inline="always")
def games(game_indices, seed, s, ra, sr, t, pol_ids, params, debug, rounds_out, games_out, sx):
    """Play games ``game_indices`` of ``seed``; each depends on (seed, index) alone. Returns the
    round rows written, or -1 when ``rounds_out`` is too short (the caller grows it). ``sx``:
    ``s`` again, or a search's scratch (:mod:`simcore.emoji.search`). Inlined into
    :func:`play_games` and the search's kernel."""
    # the caller keeps every argument alive for the whole call: callees need not count them
    ra, sr, t, pol_ids = borrowed(ra), borrowed(sr), borrowed(t), borrowed(pol_ids)
    rounds_out, games_out = borrowed(rounds_out), borrowed(games_out)
    return games_loop(play_game, (s, ra, sr, t, pol_ids, debug, sx), game_indices, seed, params,
                      rounds_out, games_out)


@nb.njit(cache=True)
def play_games(game_indices, seed, s, ra, sr, t, pol_ids, params, debug, rounds_out,
               games_out):
    """The policies' kernel: :func:`games`."""
    return games(game_indices, seed, s, ra, sr, t, pol_ids, params, debug, rounds_out,
                 games_out, s)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
