"""P-style's bots: numba policies deciding inside the compiled round loop, and their registry.

Every policy has one signature::

    policy(obs: int64[OBS_LEN], mask: bool[N_ACTIONS], params: float64[:], rng: uint64[4],
           hr: int64[...], ra: int64[RULES_LEN]) -> int action

``obs`` is the deciding seat's view (``layout.OBS_*``), ``mask`` the legal actions
(``layout.A_*``), ``params`` the seat's declared parameters in declared order, ``rng`` the seat's
stream of the round, ``hr`` the hand-rules array (:mod:`simcore.ptrump.hand`), ``ra`` the rules
array. :func:`decide` dispatches on the policy id with plain branches (no function pointers).

- ``random``: uniform over the legal actions.
- ``baseline``: tsumo / ron whenever offered; never calls, kans or sets a joker aside; discards
  the card that leaves the hand closest to tenpai (``hand.shanten``), lowest card first on ties;
  riichi whenever that discard allows it.
- ``greedy``: wins whenever it may; discards to minimise shanten, ties broken by the unseen cards
  that would bring the hand closer (ukeire), then by keeping dora and suits; Pon / open kan when
  the hand gets closer to a win and keeps a yaku and an estimated value of at least
  ``pon_min_value`` after the Pon deduction (tanyao, yakuhai, ryankoutsu, dora, nukidora at the
  rules array's points);
  closed and added kans (after a draw, or after a pon where the rules allow) when they do not
  set the hand back; nukidora whenever allowed unless the
  joker is needed as the head; riichi when tenpai and menzen and it pays over silent tenpai
  by ``riichi_gain``'s measure (:mod:`policies.ptrump.riichi_value`: riichi's points, ippatsu,
  ura, the ron wins only riichi makes legal, less the deposit at risk).

To add a policy: write it here, append a :class:`PolicySpec` to :data:`POLICIES`, name its id
and add a branch to :func:`decide`.

What this implementation simplifies: the bots do not read opponents (no defence); value
estimates ignore chanta, iipeikou, pinfu and chinitsu; a scripted policy (id ``SCRIPTED``, tests
only) plays a list of actions from its params row and falls back to ``baseline``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from simcore.nb.borrow import writable
from simcore.nb.stack import stack_empty
from policies.ptrump.riichi_value import _copies, riichi_pays
from policies.random_policy import random_policy, uniform
from policies.scripted import scripted_action
from simcore.nb.restrict import restricted_action, restricted_mask
from simcore.family.params import Param, param_index
from simcore.family.policy import (  # noqa: F401  (SCRIPTED: tests')
    RESTRICTED, SCRIPTED, PolicySpec, Registry, search_spec)
from simcore.ptrump.hand import code_step, hand_codes, shanten, shanten_of_codes, win_mask
from simcore.ptrump.rules_array import (
    RA_ITEM_ENABLED, RA_ITEM_POINTS, RA_SCORING_DEDUCTIONS_PON, SL_DORA, SL_NUKIDORA, SL_RYANKOUTSU,
    SL_TANYAO, SL_YAKUHAI,
)
from simcore.ptrump.layout import (
    A_ANKAN, A_DISCARD, A_KAKAN, A_KAN_OPEN, A_NUKI, A_PASS, A_PON, A_RIICHI, A_RON, A_TSUMO,
    JOKER, MAX_SETS, N_ACTIONS, N_CARDS, N_KAN_RANKS, N_RANKS, OBS_CNT, OBS_DORA_RANK,
    OBS_HAND_MASK, OBS_K, OBS_MENZEN, OBS_NUKI, OBS_OFFER, OBS_PHASE, OBS_PONS, OBS_SEEN,
    OBS_SET_RANK, PH_AFTER_PON, PH_DRAW, PH_OFFER, PH_ROB,
)


GREEDY_PARAMS = (
    Param("pon", "float", 1.0, "probability of taking a Pon / open kan that passes the tests "
          "(0: never calls)", 0.0, 1.0),
    Param("pon_min_value", "int", 1, "estimated value (yaku + dora + nukidora - pons) a hand must "
          "keep after a Pon", -3, 10),
    Param("riichi", "float", 1.0, "probability of declaring riichi when tenpai, menzen and it "
          "pays (0: never riichi)", 0.0, 1.0),
    Param("riichi_gain", "float", 0.0, "expected points per round riichi must add over silent "
          "tenpai (its points, ippatsu, ura, the ron wins only riichi allows, less the deposit "
          "at risk)", -10.0, 10.0, tune=(-1.0, 2.0)),
    Param("kan", "bool", True, "declare closed / added kans that do not set the hand back"),
    Param("nuki", "bool", True, "set jokers aside (nukidora) unless the joker is needed"),
)
_PON, _PON_MIN, _RIICHI, _RIICHI_GAIN, _KAN, _NUKI = (param_index(GREEDY_PARAMS, n) for n in (
    "pon", "pon_min_value", "riichi", "riichi_gain", "kan", "nuki"))

MAX_PARAMS = 8
POLICIES = Registry((
    PolicySpec("random", "uniform over the legal actions", ()),
    PolicySpec("baseline", "wins when it can, never calls, discards by shanten, riichi when "
               "tenpai", ()),
    PolicySpec("greedy", "fastest win: shanten and useful cards, Pon/kan when closer and still "
               "worth it, nukidora, riichi when it pays over silent tenpai", GREEDY_PARAMS,
               reads_point_values=True,
               # what _worth_a_pon reads from the rules array
               reads=("scoring.yaku.tanyao.", "scoring.yaku.yakuhai.",
                      "scoring.yaku.ryankoutsu.", "scoring.additive.dora.",
                      "scoring.additive.nukidora.", "scoring.deductions.pon",
                      # and what riichi_value.riichi_gain adds up (a yaku's own points cancel
                      # between riichi and dama; only whether dama has one counts)
                      "scoring.additive.riichi.", "scoring.additive.double_riichi.",
                      "scoring.additive.open_riichi.", "scoring.additive.ippatsu.",
                      "scoring.additive.ura_joker.")),
    search_spec(("random", "baseline", "greedy"), "greedy", sims=16, margin=3.0),   # docs/bots.md
), MAX_PARAMS, best="greedy")
P_RANDOM, P_BASELINE, P_GREEDY, P_SEARCH = (POLICIES.id(n) for n in ("random", "baseline",
                                                                     "greedy", "search"))
BEST = POLICIES.best   # the bot `mechanics` restricts
_BEST_ROW = np.array(POLICIES.param_row(BEST, {}) or [0.0], np.float64)


# ---------------------------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True)
def _card_of_rank(obs, mask, base, r):
    """A legal action ``base + c`` with card c of rank r, or -1: the copy whose suit is rarest
    in the rest of the hand (keeps one suit together for chinitsu)."""
    hm = obs[OBS_HAND_MASK]
    best = -1
    best_n = 99
    first = 4 * r
    for c in range(first, min(first + 4, N_CARDS)):
        if mask[base + c]:
            if c >= 52:
                return base + c
            suit = c % 4
            same = 0
            for q in range(13):
                d = 4 * q + suit
                if d != c and (hm >> d) & 1:
                    same += 1
            if same < best_n:
                best_n = same
                best = base + c
    return best


@nb.njit(cache=True)
def _rank_legal(mask, base, r):
    """Some card of rank r is legal in the per-card action block starting at ``base``
    (``A_DISCARD``: it may be discarded; ``A_RIICHI``: discarded declaring riichi)."""
    for c in range(4 * r, min(4 * r + 4, N_CARDS)):
        if mask[base + c]:
            return True
    return False


@nb.njit(cache=True)
def _near_ranks(cnt):
    """Bit q: a draw of rank q can shorten the hand's distance (a rank held, or a number rank
    within two of a held number rank); other draws never can."""
    m = np.int64(0)
    for r in range(N_RANKS):
        if cnt[r]:
            m |= np.int64(1) << r
            if r <= 8:
                for q in range(max(0, r - 2), min(8, r + 2) + 1):
                    m |= np.int64(1) << q
    return m


@nb.njit(cache=True)
def _best_discard_rank(obs, mask, hr, cnt, k, ukeire):
    """The rank to discard: least shanten after it; ties by the unseen cards that reduce it
    (``ukeire``), then not a dora, then the lowest rank. Returns (rank, shanten)."""
    sh = stack_empty(N_RANKS, np.int64)
    sh[:] = 99
    best_s = 99
    n_best = 0
    first = -1
    # the hand is within the copies, so is every hand a card less (and a card more of a rank
    # it holds fewer than the copies of): shanten from its table codes, moved a card at a time
    low, high, hon, n_low, total = hand_codes(cnt)
    for r in range(N_RANKS):
        if cnt[r] == 0 or not _rank_legal(mask, np.int64(A_DISCARD), r):
            continue
        l1, h1, o1, n1, t1 = code_step(low, high, hon, n_low, total, r, -1)
        sh[r] = shanten_of_codes(l1, h1, o1, n1, t1, k, hr)
        if sh[r] < best_s:
            best_s = sh[r]
            n_best = 1
            first = r
        elif sh[r] == best_s:
            n_best += 1
    if n_best <= 1 or not ukeire:
        return first, best_s
    dora = obs[OBS_DORA_RANK]
    best_r = -1
    best_u = -1
    for r in range(N_RANKS):
        if sh[r] != best_s:
            continue
        cnt[r] -= 1
        u = 0
        if best_s == 0:  # tenpai: the useful draws are the waits (one call, not one per rank)
            w = win_mask(cnt, k, hr)
            for q in range(N_RANKS):
                if (w >> q) & 1:
                    left = _copies(q) - obs[OBS_SEEN + q]
                    if left > 0:
                        u += left
        else:
            near = _near_ranks(cnt)
            l1, h1, o1, n1, t1 = code_step(low, high, hon, n_low, total, r, -1)
            for q in range(N_RANKS):
                if not (near >> q) & 1:
                    continue
                left = _copies(q) - obs[OBS_SEEN + q]
                if left <= 0:
                    continue
                if cnt[q] >= _copies(q):   # over the copies: shanten's 98, never closer
                    continue
                l2, h2, o2, n2, t2 = code_step(l1, h1, o1, n1, t1, q, 1)
                if shanten_of_codes(l2, h2, o2, n2, t2, k, hr) < best_s:
                    u += left
        cnt[r] += 1
        u = 2 * u + (0 if r == dora else 1)
        if u > best_u:
            best_u = u
            best_r = r
    return best_r, best_s


@nb.njit(cache=True)
def _discard_action(obs, mask, hr, rng, ukeire, riichi_p, by_value, riichi_min, ra):
    """The discard (``_best_discard_rank``), as riichi when tenpai and menzen with probability
    ``riichi_p`` and, ``by_value``, only where riichi adds ``riichi_min`` points or more over
    dama (:func:`policies.ptrump.riichi_value.riichi_pays`)."""
    cnt = stack_empty(N_RANKS, np.int64)
    for r in range(N_RANKS):
        cnt[r] = obs[OBS_CNT + r]
    k = obs[OBS_K]
    r, s = _best_discard_rank(obs, mask, hr, cnt, k, ukeire)
    if r < 0:  # frozen in riichi (only the drawn card) or no discard at all
        for a in range(A_DISCARD, N_ACTIONS):
            if mask[a]:
                return a
        return A_PASS
    if s == 0 and riichi_p > 0.0 and _rank_legal(mask, np.int64(A_RIICHI), r) and \
            obs[OBS_MENZEN] != 0:
        a = _card_of_rank(obs, mask, np.int64(A_RIICHI), r)
        if by_value:
            cnt[r] -= 1
            pays = riichi_pays(obs, a - A_RIICHI, cnt, hr, ra, riichi_min)
            cnt[r] += 1
        else:
            pays = True
        if pays and (riichi_p >= 1.0 or uniform(rng) < riichi_p):
            return a
    return _card_of_rank(obs, mask, np.int64(A_DISCARD), r)


@nb.njit(cache=True)
def baseline_policy(obs, mask, params, rng, hr, ra):
    if mask[A_TSUMO]:
        return A_TSUMO
    if mask[A_RON]:
        return A_RON
    ph = obs[OBS_PHASE]
    if ph == PH_OFFER or ph == PH_ROB:
        return A_PASS
    return _discard_action(obs, mask, hr, rng, np.bool_(False), 1.0, np.bool_(False), 0.0, ra)


# ---------------------------------------------------------------------------------------------
# greedy
# ---------------------------------------------------------------------------------------------

@nb.njit(cache=True, inline="always")
def _item(ra, slot):
    """Points of score slot ``slot`` when it is enabled, else 0."""
    return ra[RA_ITEM_POINTS + slot] if ra[RA_ITEM_ENABLED + slot] else 0


_PON_SETS = MAX_SETS + 1   # the revealed sets and the Pon's


@nb.njit(cache=True)
def _worth_a_pon(obs, cnt_after, set_rank_new, min_value, ra):
    """After a Pon of ``set_rank_new`` (``cnt_after``: the concealed counts left), does the hand
    keep a yaku and an estimated value of at least ``min_value``? The points are the rules
    array's (tanyao, yakuhai per set, ryankoutsu, dora and nukidora per card, the Pon
    deduction), so a scenario that changes them changes which Pons pass."""
    k = obs[OBS_K]
    simples = True
    for r in range(N_RANKS):
        if cnt_after[r] and (r == 0 or r >= 8):
            simples = False
    ranks = stack_empty(_PON_SETS, np.int64)
    for g in range(k):
        ranks[g] = obs[OBS_SET_RANK + g]
    ranks[k] = set_rank_new
    has_yaku = False
    value = 0
    for g in range(k + 1):
        r = ranks[g]
        if r == 0 or r >= 8:
            simples = False
        if r >= 9 and ra[RA_ITEM_ENABLED + SL_YAKUHAI]:  # 10, J, Q, K triplets: yakuhai
            has_yaku = True
            value += _item(ra, SL_YAKUHAI)
    if simples and ra[RA_ITEM_ENABLED + SL_TANYAO]:
        has_yaku = True
        value += _item(ra, SL_TANYAO)
    if k + 1 == 2 and ra[RA_ITEM_ENABLED + SL_RYANKOUTSU]:  # two triplets: ryankoutsu
        has_yaku = True
        value += _item(ra, SL_RYANKOUTSU)
    if not has_yaku:
        return False
    dora = obs[OBS_DORA_RANK]
    n_dora = cnt_after[dora]
    for g in range(k + 1):
        if ranks[g] == dora:
            n_dora += 3
    value += (n_dora * _item(ra, SL_DORA) + obs[OBS_NUKI] * _item(ra, SL_NUKIDORA)
              - (obs[OBS_PONS] + 1) * ra[RA_SCORING_DEDUCTIONS_PON])
    return value >= min_value


@nb.njit(cache=True)
def greedy_policy(obs, mask, params, rng, hr, ra):
    if mask[A_TSUMO]:
        return A_TSUMO
    if mask[A_RON]:
        return A_RON
    ph = obs[OBS_PHASE]
    if ph == PH_ROB:
        return A_PASS
    cnt = stack_empty(N_RANKS, np.int64)
    for r in range(N_RANKS):
        cnt[r] = obs[OBS_CNT + r]
    k = obs[OBS_K]
    if ph == PH_OFFER:
        if not (mask[A_PON] or mask[A_KAN_OPEN]) or params[_PON] <= 0.0:
            return A_PASS
        r = obs[OBS_OFFER] // 4
        s0 = shanten(cnt, k, hr)
        if mask[A_KAN_OPEN]:
            cnt[r] -= 3
            s1 = shanten(cnt, k + 1, hr)
            ok = s1 <= s0 and (obs[OBS_MENZEN] == 0 or _worth_a_pon(obs, cnt, r, np.int64(-99), ra))
            cnt[r] += 3
            if ok and (params[_PON] >= 1.0 or uniform(rng) < params[_PON]):
                return A_KAN_OPEN
        if mask[A_PON]:
            cnt[r] -= 2
            s1 = shanten(cnt, k + 1, hr)
            ok = s1 < s0 and _worth_a_pon(obs, cnt, r, np.int64(params[_PON_MIN]), ra)
            cnt[r] += 2
            if ok and (params[_PON] >= 1.0 or uniform(rng) < params[_PON]):
                return A_PON
        return A_PASS
    if ph == PH_DRAW or ph == PH_AFTER_PON:  # kans after a pon only with calls.kan_after_pon
        s8 = shanten(cnt, k, hr)  # the best after one discard
        if params[_KAN] != 0.0:
            for r in range(N_KAN_RANKS):
                if mask[A_ANKAN + r]:
                    cnt[r] -= 4
                    s = shanten(cnt, k + 1, hr)
                    cnt[r] += 4
                    if s <= s8:
                        return A_ANKAN + r
            for g in range(MAX_SETS):
                if mask[A_KAKAN + g]:
                    r = obs[OBS_SET_RANK + g]
                    cnt[r] -= 1
                    s = shanten(cnt, k, hr)
                    cnt[r] += 1
                    if s <= s8:
                        return A_KAKAN + g
        if mask[A_NUKI] and params[_NUKI] != 0.0:
            cnt[JOKER] -= 1
            s = shanten(cnt, k, hr)
            cnt[JOKER] += 1
            if s <= s8:
                return A_NUKI
    return _discard_action(obs, mask, hr, rng, np.bool_(True), params[_RIICHI], np.bool_(True),
                           params[_RIICHI_GAIN], ra)


@nb.njit(cache=True)
def scripted_policy(obs, mask, params, rng, hr, ra):
    """Tests: ``params[0]`` is a cursor into the action list ``params[1:]``; an entry of -1 (or
    the end of the row) lets ``baseline`` decide that one, ASK stops the game for a human seat
    (:mod:`simcore.family.policy`)."""
    a = scripted_action(params)
    return a if a >= 0 else baseline_policy(obs, mask, params, rng, hr, ra)


@nb.njit(cache=True)
def restricted_policy(obs, mask, params, rng, hr, ra):
    """``greedy`` with one kind of decision taken away or forced (``params``:
    :mod:`simcore.nb.restrict`), for ``mechanics``."""
    row = writable(_BEST_ROW)   # one compile of greedy_policy (simcore.nb.borrow)
    return restricted_action(greedy_policy(obs, restricted_mask(mask, params), row, rng, hr,
                             ra), mask, params)


@nb.njit(cache=True)
def search_hint(obs, mask, params, rng, hr, ra):
    """A search seat asked outside its own turns in the search kernel (its answers to the
    others' discards), or outside the search kernel (a hint in ``play``): greedy's choice. Its
    own turns it plays by simulation (:mod:`simcore.ptrump.search`)."""
    return greedy_policy(obs, mask, writable(_BEST_ROW), rng, hr, ra)


@nb.njit(cache=True)
def decide(policy_id, obs, mask, params, rng, hr, ra):
    """The action of policy ``policy_id`` (an id of :data:`POLICIES`, or ``SCRIPTED``)."""
    if policy_id == P_GREEDY:
        return greedy_policy(obs, mask, params, rng, hr, ra)
    if policy_id == P_BASELINE:
        return baseline_policy(obs, mask, params, rng, hr, ra)
    if policy_id == P_RANDOM:
        return random_policy(obs, mask, params, rng, hr, ra)
    if policy_id == P_SEARCH:
        return search_hint(obs, mask, params, rng, hr, ra)
    if policy_id == RESTRICTED:
        return restricted_policy(obs, mask, params, rng, hr, ra)
    return scripted_policy(obs, mask, params, rng, hr, ra)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
