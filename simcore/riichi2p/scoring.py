"""Scoring of a two-player riichi win (spec riichi2p.md §5.3, §8, §9): every reading of the hand
(decomposition and the place of the winning tile in it), its yaku, yakuman, fu and han, the base
points and the payment; the reading that pays most (高点法). Compiled with numba.

Inputs of :func:`score_win`:
- ``c``: int64[34], the concealed tiles *with* the winning tile (14 - 3 calls);
- ``melds``: int64[4, 3] rows (type, kind, called kind) for the first ``cx[CX_N_MELDS]`` calls,
  types as :mod:`simcore.riichi2p.tiles` (``MELD_CHI`` ... ``MELD_ANKAN``), a chi's kind its lowest;
- ``win``: the winning tile's kind; ``cx``: the context (``CX_*``); ``dora``, ``ura``: int64[34],
  how many counted indicators point at each kind (the engine leaves ``ura`` at 0 where ura do
  not count); ``sr``: the scoring rules (``SR_*``).

Output: the result row ``res`` (``R_*``); ``res[R_PAY]`` is the payment P without honba (a
damage-only win: the loser loses P), -1 when the tiles are no winning shape or no reading has a
yaku.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .hand import YAOCHU
from .tiles import MELD_ANKAN, MELD_CHI, MELD_KAKAN, MELD_MINKAN, MELD_PON

# ---- the regular yaku and the yakuman: bit positions in res[R_YAKU] --------------------------
REGULAR = ("riichi", "double_riichi", "menzen_tsumo", "pinfu", "tanyao", "iipeikou", "haku",
           "hatsu", "chun", "round_wind", "seat_wind", "rinshan", "chankan", "haitei",
           "houtei", "chiitoitsu", "sanshoku", "ittsu", "chanta", "toitoi", "sanankou",
           "sanshoku_doukou", "sankantsu", "shousangen", "honroutou", "ryanpeikou",
           "junchan", "honitsu", "chinitsu", "isshoku_sanjun", "sanrenkou", "ippatsu")
YAKUMAN = ("kokushi", "suuankou", "daisangen", "shousuushii", "daisuushii", "tsuuiisou",
           "chinroutou", "ryuuiisou", "chuuren", "suukantsu", "tenhou", "chiihou",
           "suurenkou", "daisharin", "paarenchan", "shiisan_puutaa", "renhou")
BONUS = ("kazoe", "dora", "ura", "red")
YAKU = REGULAR + YAKUMAN + BONUS          # every name a win's bits can hold
(Y_RIICHI, Y_DOUBLE_RIICHI, Y_MENZEN_TSUMO, Y_PINFU, Y_TANYAO, Y_IIPEIKOU, Y_HAKU, Y_HATSU,
 Y_CHUN, Y_ROUND_WIND, Y_SEAT_WIND, Y_RINSHAN, Y_CHANKAN, Y_HAITEI, Y_HOUTEI, Y_CHIITOITSU,
 Y_SANSHOKU, Y_ITTSU, Y_CHANTA, Y_TOITOI, Y_SANANKOU, Y_SANSHOKU_DOUKOU, Y_SANKANTSU,
 Y_SHOUSANGEN, Y_HONROUTOU, Y_RYANPEIKOU, Y_JUNCHAN, Y_HONITSU, Y_CHINITSU, Y_ISSHOKU_SANJUN,
 Y_SANRENKOU, Y_IPPATSU,
 Y_KOKUSHI, Y_SUUANKOU, Y_DAISANGEN, Y_SHOUSUUSHII, Y_DAISUUSHII, Y_TSUUIISOU, Y_CHINROUTOU,
 Y_RYUUIISOU, Y_CHUUREN, Y_SUUKANTSU, Y_TENHOU, Y_CHIIHOU, Y_SUURENKOU, Y_DAISHARIN,
 Y_PAARENCHAN, Y_SHIISAN_PUUTAA, Y_RENHOU,
 Y_KAZOE, Y_DORA, Y_URA, Y_RED) = range(len(YAKU))
YAKUMAN_MASK = sum(1 << (Y_KOKUSHI + i) for i in range(len(YAKUMAN)))

# ---- the scoring rules sr (option values, spec §12) ------------------------------------------
SCORING_RULES = ("kuitan", "pinfu_tsumo", "open_pinfu_fu", "chiitoitsu_50fu", "honroutou_han",
                 "ryanpeikou_han", "kiriage", "kazoe_yakuman", "double_wind_pair_fu",
                 "double_yakuman", "yakuman_stacking", "red_fives", "ippatsu",
                 "ryuuiisou_without_hatsu", "chuuren_man_only", "isshoku_sanjun", "sanrenkou",
                 "suurenkou", "daisharin", "sanrenkou_open_han", "daisharin_any7", "renhou",
                 "paarenchan", "paarenchan_value", "shiisan_puutaa", "shiisan_puutaa_value",
                 "ryanhan_shibari", "shibari_honba", "atozuke", "atozuke_first_call_literal",
                 "atozuke_whole_hand_ignore")
(SR_KUITAN, SR_PINFU_TSUMO, SR_OPEN_PINFU_FU, SR_CHIITOITSU_50FU, SR_HONROUTOU_HAN,
 SR_RYANPEIKOU_HAN, SR_KIRIAGE, SR_KAZOE_YAKUMAN, SR_DOUBLE_WIND_PAIR_FU, SR_DOUBLE_YAKUMAN,
 SR_YAKUMAN_STACKING, SR_RED_FIVES, SR_IPPATSU, SR_RYUUIISOU_WITHOUT_HATSU, SR_CHUUREN_MAN_ONLY,
 SR_ISSHOKU_SANJUN, SR_SANRENKOU, SR_SUURENKOU, SR_DAISHARIN, SR_SANRENKOU_OPEN_HAN,
 SR_DAISHARIN_ANY7, SR_RENHOU, SR_PAARENCHAN, SR_PAARENCHAN_VALUE, SR_SHIISAN_PUUTAA,
 SR_SHIISAN_PUUTAA_VALUE, SR_RYANHAN_SHIBARI, SR_SHIBARI_HONBA, SR_ATOZUKE,
 SR_ATOZUKE_FIRST_CALL_LITERAL, SR_ATOZUKE_WHOLE_HAND_IGNORE) = range(len(SCORING_RULES))
N_SR = len(SCORING_RULES)
SR_DEFAULTS = dict(kuitan=1, pinfu_tsumo=1, open_pinfu_fu=1, chiitoitsu_50fu=0,
                   honroutou_han=2, ryanpeikou_han=3, kiriage=0, kazoe_yakuman=1,
                   double_wind_pair_fu=4, double_yakuman=0, yakuman_stacking=1, red_fives=0,
                   ippatsu=1, ryuuiisou_without_hatsu=1, chuuren_man_only=0, isshoku_sanjun=0,
                   sanrenkou=0, suurenkou=0, daisharin=0, sanrenkou_open_han=2,
                   daisharin_any7=0, renhou=0, paarenchan=0, paarenchan_value=1,
                   shiisan_puutaa=0, shiisan_puutaa_value=1, ryanhan_shibari=0,
                   shibari_honba=5, atozuke=1, atozuke_first_call_literal=0,
                   atozuke_whole_hand_ignore=0)

# ---- the context cx of one win -----------------------------------------------------------------
CONTEXT = ("tsumo", "riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "first",
           "dealer", "seat_wind", "round_wind", "red", "honba", "streak", "shiisan", "n_melds")
(CX_TSUMO, CX_RIICHI, CX_IPPATSU, CX_RINSHAN, CX_CHANKAN, CX_HAITEI, CX_HOUTEI, CX_FIRST,
 CX_DEALER, CX_SEAT_WIND, CX_ROUND_WIND, CX_RED, CX_HONBA, CX_STREAK, CX_SHIISAN,
 CX_N_MELDS) = range(len(CONTEXT))
N_CX = len(CONTEXT)

# ---- the result res ----------------------------------------------------------------------------
RESULT = ("pay", "han", "fu", "yaku", "yakuman", "limit", "dora", "ura", "red", "yaku_han",
          "base", "wait",
          "shape",        # 1: some reading is a winning shape (with or without a yaku)
          "atozuke_b",    # 1: a reading paid passes atozuke's (b) (any of those tied at the top)
          "refused")      # why a winning shape with a yaku is no win: 1 atozuke (a), 2 (b)
(R_PAY, R_HAN, R_FU, R_YAKU, R_YAKUMAN, R_LIMIT, R_DORA, R_URA, R_RED, R_YAKU_HAN, R_BASE,
 R_WAIT, R_SHAPE, R_ATOZUKE_B, R_REFUSED) = range(len(RESULT))
REFUSED = ("", "atozuke: a wait without a yaku (one-sided)",
           "atozuke: no yaku holds the first called tile or stands apart from the calls and the "
           "winning tile")
N_RES = len(RESULT)
LIMITS = ("", "mangan", "haneman", "baiman", "sanbaiman", "kazoe yakuman", "yakuman", "renhou")
WAITS = ("ryanmen", "shanpon", "kanchan", "penchan", "tanki", "kokushi", "pairs", "special")
W_RYANMEN, W_SHANPON, W_KANCHAN, W_PENCHAN, W_TANKI, W_KOKUSHI, W_PAIRS, W_SPECIAL = range(8)

# set kinds in a reading
S_RUN, S_TRIPLET, S_KAN = 0, 1, 2

GREEN = np.zeros(34, np.int64)
for _k in (19, 20, 21, 23, 25, 32):        # 2s 3s 4s 6s 8s hatsu
    GREEN[_k] = 1
CHUUREN = np.array([3, 1, 1, 1, 1, 1, 1, 1, 3], np.int64)


def new_rules(values: dict | None = None) -> np.ndarray:
    v = dict(SR_DEFAULTS, **(values or {}))
    return np.array([int(v[k]) for k in SCORING_RULES], np.int64)


@nb.njit(cache=True, inline="always")
def _yaochu(k: int) -> bool:
    return k >= 27 or k % 9 == 0 or k % 9 == 8


@nb.njit(cache=True, inline="always")
def _value_pair_fu(k: int, seat: int, rnd: int, sr) -> int:
    if k >= 31:
        return 2
    if k == seat and k == rnd:
        return sr[SR_DOUBLE_WIND_PAIR_FU]
    if k == seat or k == rnd:
        return 2
    return 0


@nb.njit(cache=True)
def base_points(han: int, fu: int, sr) -> tuple:
    """(b, limit code) of a regular hand (spec §9.4)."""
    if han >= 13:
        if sr[SR_KAZOE_YAKUMAN]:
            return 8000, 5
        return 6000, 4
    if han >= 11:
        return 6000, 4
    if han >= 8:
        return 4000, 3
    if han >= 6:
        return 3000, 2
    if han == 5:
        return 2000, 1
    b = fu * (1 << (han + 2))
    if sr[SR_KIRIAGE] and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        b = 2000
    if b >= 2000:
        return 2000, 1
    return b, 0


@nb.njit(cache=True, inline="always")
def payment(b: int, dealer: bool) -> int:
    """P = ceil100(6 b) for a dealer's win, ceil100(4 b) otherwise (spec §9.5)."""
    x = b * (6 if dealer else 4)
    return (x + 99) // 100 * 100


@nb.njit(cache=True)
def _all_tiles(c, melds, n_melds, out):
    """The winner's tiles of each kind: concealed (with the win) and called (a kan's four)."""
    for k in range(34):
        out[k] = c[k]
    for i in range(n_melds):
        t, k = melds[i, 0], melds[i, 1]
        if t == MELD_CHI:
            out[k] += 1
            out[k + 1] += 1
            out[k + 2] += 1
        elif t == MELD_PON:
            out[k] += 3
        else:
            out[k] += 4


@nb.njit(cache=True)
def _whole_hand(allt, sr, cx, closed: bool):
    """(bits, han, yakuman bits, yakuman multiplier) of the yaku that depend only on which
    tiles the hand holds: tanyao, honroutou, honitsu, chinitsu, tsuuiisou, chinroutou,
    ryuuiisou; and the context yaku (riichi, tsumo, rinshan ...)."""
    bits = 0
    han = 0
    ybits = 0
    ymult = 0
    n_yaochu = 0
    n_honour = 0
    n_terminal = 0
    total = 0
    suits = 0
    green = 0
    for k in range(34):
        if allt[k] == 0:
            continue
        total += allt[k]
        if k >= 27:
            n_honour += allt[k]
            n_yaochu += allt[k]
        else:
            suits |= 1 << (k // 9)
            if k % 9 == 0 or k % 9 == 8:
                n_terminal += allt[k]
                n_yaochu += allt[k]
        if GREEN[k]:
            green += allt[k]
    if n_yaochu == 0 and (closed or sr[SR_KUITAN]):
        bits |= 1 << Y_TANYAO
        han += 1
    if n_honour == total:
        ybits |= 1 << Y_TSUUIISOU
        ymult += 1
    elif n_terminal == total:
        ybits |= 1 << Y_CHINROUTOU
        ymult += 1
    elif n_yaochu == total:
        bits |= 1 << Y_HONROUTOU
        han += sr[SR_HONROUTOU_HAN]
    if green == total and (sr[SR_RYUUIISOU_WITHOUT_HATSU] or allt[32] > 0):
        ybits |= 1 << Y_RYUUIISOU
        ymult += 1
    one_suit = suits == 1 or suits == 2 or suits == 4
    if one_suit and n_honour > 0:
        bits |= 1 << Y_HONITSU
        han += 3 if closed else 2
    elif one_suit and n_honour == 0:
        bits |= 1 << Y_CHINITSU
        han += 6 if closed else 5
    # the context
    if cx[CX_RIICHI] == 2:
        bits |= 1 << Y_DOUBLE_RIICHI
        han += 2
    elif cx[CX_RIICHI] == 1:
        bits |= 1 << Y_RIICHI
        han += 1
    if closed and cx[CX_TSUMO]:
        bits |= 1 << Y_MENZEN_TSUMO
        han += 1
    if cx[CX_RINSHAN]:
        bits |= 1 << Y_RINSHAN
        han += 1
    if cx[CX_CHANKAN]:
        bits |= 1 << Y_CHANKAN
        han += 1
    if cx[CX_HAITEI]:
        bits |= 1 << Y_HAITEI
        han += 1
    if cx[CX_HOUTEI]:
        bits |= 1 << Y_HOUTEI
        han += 1
    if cx[CX_FIRST] and cx[CX_TSUMO]:
        ybits |= 1 << (Y_TENHOU if cx[CX_DEALER] else Y_CHIIHOU)
        ymult += 1
    return bits, han, ybits, ymult


@nb.njit(cache=True)
def _offer(res, pay, han, fu, bits, ymult, limit, yaku_han, base, wait, real_yakuman, b_ok):
    """Keep this reading if it pays more than the one held (ties: a real yakuman before a
    counted one, then more han, then more fu). ``b_ok``: it passes atozuke's (b); a reading
    tied with the one held in every respect adds its pass (the order readings are found in
    must not decide a win)."""
    if res[R_PAY] >= 0:
        if pay < res[R_PAY]:
            return
        if pay == res[R_PAY]:
            held_real = res[R_YAKUMAN] > 0
            if held_real and not real_yakuman:
                return
            if held_real == real_yakuman:
                if han == res[R_HAN] and fu == res[R_FU]:
                    if b_ok:
                        res[R_ATOZUKE_B] = 1
                    return
                if han < res[R_HAN] or (han == res[R_HAN] and fu < res[R_FU]):
                    return
    res[R_PAY] = pay
    res[R_HAN] = han
    res[R_FU] = fu
    res[R_YAKU] = bits
    res[R_YAKUMAN] = ymult if real_yakuman else 0
    res[R_LIMIT] = limit
    res[R_YAKU_HAN] = yaku_han
    res[R_BASE] = base
    res[R_WAIT] = wait
    res[R_ATOZUKE_B] = 1 if b_ok else 0


@nb.njit(cache=True)
def _finish(res, bits, yaku_han, fu, ybits, ymult, n_dora, n_ura, n_red, wait, sr, cx,
            closed_ippatsu: bool, b_ok: bool):
    """Turn one reading's yaku into a payment and offer it. A reading without a yaku (a
    yakuman, renhou) is no win; paarenchan makes a yakuman of a win that has one."""
    res[R_SHAPE] = 1
    dealer = cx[CX_DEALER] != 0
    renhou = sr[SR_RENHOU] > 0 and cx[CX_FIRST] != 0 and cx[CX_TSUMO] == 0 and not dealer
    has_yaku = ymult > 0 or bits != 0
    if not has_yaku and not renhou:
        return
    if sr[SR_RYANHAN_SHIBARI] and cx[CX_HONBA] >= sr[SR_SHIBARI_HONBA] and ymult == 0 \
            and yaku_han < 2 and not renhou:
        return
    if sr[SR_PAARENCHAN] and cx[CX_STREAK] >= 8 and wait != W_SPECIAL:   # puutaa: the whole value
        ybits |= 1 << Y_PAARENCHAN
        if sr[SR_YAKUMAN_STACKING]:
            ymult += sr[SR_PAARENCHAN_VALUE]
        elif sr[SR_PAARENCHAN_VALUE] > ymult:
            ymult = sr[SR_PAARENCHAN_VALUE]
    if ymult > 0:
        base = 8000 * ymult
        pay = payment(base, dealer)
        limit = 6
        han = 0
        fu = 0
        bits = ybits
        real = True
    else:
        han = yaku_han
        if closed_ippatsu and sr[SR_IPPATSU] and cx[CX_IPPATSU]:
            bits |= 1 << Y_IPPATSU
            han += 1
        han += n_dora + n_ura + n_red
        if n_dora:
            bits |= 1 << Y_DORA
        if n_ura:
            bits |= 1 << Y_URA
        if n_red:
            bits |= 1 << Y_RED
        base, limit = base_points(han, fu, sr)
        if limit == 5:
            bits |= 1 << Y_KAZOE
        pay = payment(base, dealer)
        real = False
    if renhou:
        flat = 8000 if sr[SR_RENHOU] == 1 else 16000
        if flat > pay or not has_yaku:
            pay = flat
            limit = 7
            bits = 1 << Y_RENHOU
            real = False
            ymult = 0
            b_ok = True                       # renhou: no call was made
    _offer(res, pay, han, fu, bits, ymult, limit, yaku_han, base, wait, real, b_ok)


@nb.njit(cache=True)
def _yakuman_add(ymult, mult, sr):
    if sr[SR_YAKUMAN_STACKING]:
        return ymult + mult
    return mult if mult > ymult else ymult


@nb.njit(cache=True)
def _standard_reading(st, sk, so, pair, slot, win, allt, sr, cx, closed, wbits, whan, wybits,
                      wymult, n_dora, n_ura, n_red, melds, res):
    """Score the reading of sets ``st``/``sk``/``so`` (type, kind, open) and ``pair`` with the
    winning tile at ``slot`` (the set index, or 4 for the pair)."""
    tsumo = cx[CX_TSUMO] != 0
    seat, rnd = cx[CX_SEAT_WIND], cx[CX_ROUND_WIND]
    # the wait of this reading
    if slot == 4:
        wait = W_TANKI
    elif st[slot] != S_RUN:
        wait = W_SHANPON
    else:
        pos = win - sk[slot]
        r = sk[slot] % 9
        if pos == 1:
            wait = W_KANCHAN
        elif (pos == 0 and r == 6) or (pos == 2 and r == 0):
            wait = W_PENCHAN
        else:
            wait = W_RYANMEN
    bits = wbits
    han = whan
    ybits = wybits
    ymult = wymult
    # concealed triplets: a triplet completed by ron is open
    n_ankou = 0
    n_kan = 0
    n_trip = 0
    n_run = 0
    for i in range(4):
        if st[i] == S_RUN:
            n_run += 1
            continue
        n_trip += 1
        if st[i] == S_KAN:
            n_kan += 1
        if so[i] == 0 and not (i == slot and not tsumo):
            n_ankou += 1
    # yakuhai
    dragons_t = 0
    winds_t = 0
    for i in range(4):
        if st[i] == S_RUN:
            continue
        k = sk[i]
        if k >= 31:
            dragons_t += 1
            bits |= 1 << (Y_HAKU + k - 31)
            han += 1
        elif k >= 27:
            winds_t += 1
            if k == rnd:
                bits |= 1 << Y_ROUND_WIND
                han += 1
            if k == seat:
                bits |= 1 << Y_SEAT_WIND
                han += 1
    value_pair = pair >= 31 or pair == seat or pair == rnd
    # pinfu (fu decided below)
    pinfu = closed and n_run == 4 and not value_pair and wait == W_RYANMEN and \
        (not tsumo or sr[SR_PINFU_TSUMO])
    if pinfu:
        bits |= 1 << Y_PINFU
        han += 1
    # identical runs
    if closed or sr[SR_ISSHOKU_SANJUN]:
        same_pairs = 0
        most = 0
        for i in range(4):
            if st[i] != S_RUN:
                continue
            n_same = 0
            for j in range(4):
                if st[j] == S_RUN and sk[j] == sk[i]:
                    n_same += 1
            if n_same > most:
                most = n_same
        # runs as pairs of identical ones: 2 -> one pair, 4 -> two; two different doubled runs
        counted = np.zeros(4, np.int64)
        for i in range(4):
            if st[i] != S_RUN or counted[i]:
                continue
            n_same = 0
            for j in range(4):
                if st[j] == S_RUN and sk[j] == sk[i] and not counted[j]:
                    counted[j] = 1
                    n_same += 1
            same_pairs += n_same // 2
        peikou_han = 0
        peikou_bit = -1
        if closed and same_pairs >= 2:
            peikou_han, peikou_bit = sr[SR_RYANPEIKOU_HAN], Y_RYANPEIKOU
        elif closed and same_pairs == 1:
            peikou_han, peikou_bit = 1, Y_IIPEIKOU
        if sr[SR_ISSHOKU_SANJUN] and most >= 3:
            sanjun_han = 2 if closed else 1
            if sanjun_han > peikou_han or (sanjun_han == peikou_han and
                                           peikou_bit == Y_IIPEIKOU):
                peikou_han, peikou_bit = sanjun_han, Y_ISSHOKU_SANJUN
        if peikou_bit >= 0:
            bits |= 1 << peikou_bit
            han += peikou_han
    # sanshoku, ittsu, sanshoku doukou
    for r in range(7):
        found = 0
        for i in range(4):
            if st[i] == S_RUN and sk[i] % 9 == r:
                found |= 1 << (sk[i] // 9)
        if found == 7:
            bits |= 1 << Y_SANSHOKU
            han += 2 if closed else 1
            break
    for s in range(3):
        found = 0
        for i in range(4):
            if st[i] == S_RUN and sk[i] // 9 == s and sk[i] % 3 == 0:
                found |= 1 << (sk[i] % 9 // 3)
        if found == 7:
            bits |= 1 << Y_ITTSU
            han += 2 if closed else 1
            break
    for r in range(9):
        found = 0
        for i in range(4):
            if st[i] != S_RUN and sk[i] < 27 and sk[i] % 9 == r:
                found |= 1 << (sk[i] // 9)
        if found == 7:
            bits |= 1 << Y_SANSHOKU_DOUKOU
            han += 2
            break
    # chanta / junchan (need a run; honroutou takes the all-triplet ones)
    if n_run > 0:
        all_yaochu = _yaochu(pair)
        any_honour = pair >= 27
        for i in range(4):
            k = sk[i]
            if st[i] == S_RUN:
                if k % 9 != 0 and k % 9 != 6:
                    all_yaochu = False
            else:
                if not _yaochu(k):
                    all_yaochu = False
                if k >= 27:
                    any_honour = True
        if all_yaochu:
            if any_honour:
                bits |= 1 << Y_CHANTA
                han += 2 if closed else 1
            else:
                bits |= 1 << Y_JUNCHAN
                han += 3 if closed else 2
    if n_trip == 4:
        bits |= 1 << Y_TOITOI
        han += 2
    if n_ankou == 3:
        bits |= 1 << Y_SANANKOU
        han += 2
    if n_kan == 3:
        bits |= 1 << Y_SANKANTSU
        han += 2
    if dragons_t == 2 and pair >= 31:
        bits |= 1 << Y_SHOUSANGEN
        han += 2
    # sanrenkou / suurenkou: triplets of one suit in consecutive ranks
    if sr[SR_SANRENKOU] or sr[SR_SUURENKOU]:
        best_run = 0
        for s in range(3):
            ranks = 0
            for i in range(4):
                if st[i] != S_RUN and sk[i] < 27 and sk[i] // 9 == s:
                    ranks |= 1 << (sk[i] % 9)
            length = 0
            for r in range(9):
                length = length + 1 if (ranks >> r) & 1 else 0
                if length > best_run:
                    best_run = length
        if best_run >= 4 and sr[SR_SUURENKOU]:
            ybits |= 1 << Y_SUURENKOU
            ymult = _yakuman_add(ymult, 1, sr)
        elif best_run >= 3 and sr[SR_SANRENKOU]:
            bits |= 1 << Y_SANRENKOU
            han += 2 if closed else sr[SR_SANRENKOU_OPEN_HAN]
    # yakuman of the sets
    if n_ankou == 4:
        ybits |= 1 << Y_SUUANKOU
        ymult = _yakuman_add(ymult, 2 if (sr[SR_DOUBLE_YAKUMAN] and wait == W_TANKI) else 1,
                             sr)
    if dragons_t == 3:
        ybits |= 1 << Y_DAISANGEN
        ymult = _yakuman_add(ymult, 1, sr)
    if winds_t == 4:
        ybits |= 1 << Y_DAISUUSHII
        ymult = _yakuman_add(ymult, 2 if sr[SR_DOUBLE_YAKUMAN] else 1, sr)
    elif winds_t == 3 and 27 <= pair <= 30:
        ybits |= 1 << Y_SHOUSUUSHII
        ymult = _yakuman_add(ymult, 1, sr)
    if n_kan == 4:
        ybits |= 1 << Y_SUUKANTSU
        ymult = _yakuman_add(ymult, 2 if sr[SR_DOUBLE_YAKUMAN] else 1, sr)
    # fu
    if pinfu:
        fu = 20 if tsumo else 30
    else:
        fu = 20
        if closed and not tsumo:
            fu += 10
        if tsumo:
            fu += 2
        if wait == W_KANCHAN or wait == W_PENCHAN or wait == W_TANKI:
            fu += 2
        fu += _value_pair_fu(pair, seat, rnd, sr)
        for i in range(4):
            if st[i] == S_RUN:
                continue
            f = 8 if _yaochu(sk[i]) else 4       # concealed
            if so[i] or (i == slot and not tsumo):
                f //= 2
            if st[i] == S_KAN:
                f *= 4
            fu += f
        if fu == 20 and not closed and not tsumo and sr[SR_OPEN_PINFU_FU]:
            fu = 30
        fu = (fu + 9) // 10 * 10
    b_ok = True
    if sr[SR_ATOZUKE] == 0 and not closed:
        # a reading paid as a yakuman is checked on its yakuman alone (paarenchan, which will
        # make one of any win with a yaku, holds no tiles)
        as_yakuman = ymult > 0 or (sr[SR_PAARENCHAN] and cx[CX_STREAK] >= 8)
        b_ok = atozuke_b(st, sk, so, pair, slot, melds, cx[CX_N_MELDS],
                         ybits if as_yakuman else bits, tsumo, cx, sr)
    _finish(res, bits, han, fu, ybits, ymult, n_dora, n_ura, n_red, wait, sr, cx, True, b_ok)


@nb.njit(cache=True)
def _chuuren_bits(c, allt, win, closed, n_melds, sr):
    """Multiplier of nine gates (0: none), ×2 for the pure nine-sided wait."""
    if not closed or n_melds > 0:
        return 0
    s = -1
    for k in range(34):
        if allt[k]:
            if k >= 27:
                return 0
            if s < 0:
                s = k // 9
            elif k // 9 != s:
                return 0
    if s < 0 or (sr[SR_CHUUREN_MAN_ONLY] and s != 0):
        return 0
    for r in range(9):
        if c[9 * s + r] < CHUUREN[r]:
            return 0
    pure = True
    for r in range(9):
        if c[9 * s + r] - (1 if 9 * s + r == win else 0) != CHUUREN[r]:
            pure = False
    return 2 if (pure and sr[SR_DOUBLE_YAKUMAN]) else 1


@nb.njit(cache=True)
def score_win(c, melds, win, cx, dora, ura, sr, res) -> int:
    """Score a win (module doc); returns res[R_PAY]."""
    for i in range(N_RES):
        res[i] = 0
    res[R_PAY] = -1
    n_melds = cx[CX_N_MELDS]
    closed = True
    for i in range(n_melds):
        if melds[i, 0] != MELD_ANKAN:
            closed = False
    allt = np.zeros(34, np.int64)
    _all_tiles(c, melds, n_melds, allt)
    n_dora = 0
    n_ura = 0
    for k in range(34):
        n_dora += allt[k] * dora[k]
        n_ura += allt[k] * ura[k]
    n_red = cx[CX_RED] if sr[SR_RED_FIVES] else 0
    wbits, whan, wybits, wymult = _whole_hand(allt, sr, cx, closed)
    if not sr[SR_YAKUMAN_STACKING] and wymult > 1:
        wymult = 1
    chuuren = _chuuren_bits(c, allt, win, closed, n_melds, sr)
    if chuuren:
        wybits |= 1 << Y_CHUUREN
        wymult = _yakuman_add(wymult, chuuren, sr)

    # thirteen orphans
    if n_melds == 0:
        kinds = 0
        pair = False
        for i in range(13):
            k = YAOCHU[i]
            if c[k] >= 1:
                kinds += 1
            if c[k] == 2:
                pair = True
        if kinds == 13 and pair:
            thirteen = c[win] == 2     # all 13 kinds held before the win: the 13-sided wait
            m = 2 if (thirteen and sr[SR_DOUBLE_YAKUMAN]) else 1
            yb = 1 << Y_KOKUSHI
            ym = m
            if cx[CX_FIRST] and cx[CX_TSUMO]:
                yb |= 1 << (Y_TENHOU if cx[CX_DEALER] else Y_CHIIHOU)
                ym = _yakuman_add(ym, 1, sr)
            _finish(res, 0, 0, 0, yb, ym, 0, 0, 0, W_KOKUSHI, sr, cx, False, True)
    # seven pairs
    if n_melds == 0:
        n_pairs = 0
        for k in range(34):
            if c[k] == 2:
                n_pairs += 1
        if n_pairs == 7:
            bits = wbits & ~(1 << Y_RINSHAN)
            han = whan
            ybits = wybits
            ymult = wymult
            if sr[SR_DAISHARIN]:
                lo = -1
                for k in range(9, 18):
                    if c[k] == 2:
                        lo = k
                        break
                run7 = lo >= 0 and lo + 6 <= 17
                if run7:
                    for k in range(lo, lo + 7):
                        if c[k] != 2:
                            run7 = False
                if run7 and (sr[SR_DAISHARIN_ANY7] or lo == 10):
                    ybits |= 1 << Y_DAISHARIN
                    ymult = _yakuman_add(ymult, 1, sr)
            bits |= 1 << Y_CHIITOITSU
            if sr[SR_CHIITOITSU_50FU]:
                han += 1
                fu = 50
            else:
                han += 2
                fu = 25
            _finish(res, bits, han, fu, ybits, ymult, n_dora, n_ura, n_red, W_PAIRS, sr, cx,
                    True, True)
    # thirteen unconnected (shiisan puutaa): a shape of its own, the whole value
    if sr[SR_SHIISAN_PUUTAA] and cx[CX_SHIISAN] and n_melds == 0 and _puutaa(c):
        _finish(res, 0, 0, 0, 1 << Y_SHIISAN_PUUTAA, sr[SR_SHIISAN_PUUTAA_VALUE], 0, 0, 0,
                W_SPECIAL, sr, cx, False, True)

    # four sets and a pair: every decomposition, every place of the winning tile
    st = np.zeros(4, np.int64)
    sk = np.zeros(4, np.int64)
    so = np.zeros(4, np.int64)
    for i in range(n_melds):
        t = melds[i, 0]
        st[i] = S_RUN if t == MELD_CHI else (S_TRIPLET if t == MELD_PON else S_KAN)
        sk[i] = melds[i, 1]
        so[i] = 0 if t == MELD_ANKAN else 1
    d = np.empty(34, np.int64)
    trip = np.empty(4, np.int64)
    for pair in range(34):
        if c[pair] < 2:
            continue
        n_trip = 0
        for k in range(34):     # the pair's kind keeps at most 2 more: never a triplet
            if c[k] >= 3 and k != pair:
                trip[n_trip] = k
                n_trip += 1
        for mask in range(1 << n_trip):
            for k in range(34):
                d[k] = c[k]
            d[pair] -= 2
            n = n_melds
            ok = True
            for j in range(n_trip):
                if (mask >> j) & 1:
                    d[trip[j]] -= 3
                    st[n] = S_TRIPLET
                    sk[n] = trip[j]
                    so[n] = 0
                    n += 1
            for k in range(27, 34):
                if d[k] != 0:
                    ok = False
            if ok:
                for s in range(3):
                    for r in range(9):
                        k = 9 * s + r
                        x = d[k]
                        if x == 0:
                            continue
                        if r > 6 or d[k + 1] < x or d[k + 2] < x or n + x > 4:
                            ok = False
                            break
                        d[k + 1] -= x
                        d[k + 2] -= x
                        d[k] = 0
                        for _ in range(x):
                            st[n] = S_RUN
                            sk[n] = k
                            so[n] = 0
                            n += 1
                    if not ok:
                        break
            if not ok or n != 4:
                continue
            # the winning tile's places: the pair, a concealed set holding it
            if pair == win:
                _standard_reading(st, sk, so, pair, 4, win, allt, sr, cx, closed, wbits, whan,
                                  wybits, wymult, n_dora, n_ura, n_red, melds, res)
            for i in range(n_melds, 4):
                if st[i] == S_RUN:
                    if not (sk[i] <= win <= sk[i] + 2):
                        continue
                else:
                    if sk[i] != win:
                        continue
                dup = False
                for j in range(n_melds, i):
                    if st[j] == st[i] and sk[j] == sk[i]:
                        dup = True
                if dup:
                    continue
                _standard_reading(st, sk, so, pair, i, win, allt, sr, cx, closed, wbits, whan,
                                  wybits, wymult, n_dora, n_ura, n_red, melds, res)
    if res[R_PAY] >= 0:
        res[R_DORA] = n_dora if res[R_YAKUMAN] == 0 and res[R_LIMIT] != 7 else 0
        res[R_URA] = n_ura if res[R_YAKUMAN] == 0 and res[R_LIMIT] != 7 else 0
        res[R_RED] = n_red if res[R_YAKUMAN] == 0 and res[R_LIMIT] != 7 else 0
    return res[R_PAY]


# ---- atozuke: false (spec §5.5) -------------------------------------------------------------
# Which yaku "include" tiles: the whole-hand ones every tile; the set yaku their sets (below);
# the rest (riichi, the chance yaku, pinfu, ippatsu, tenhou ...) none.
WHOLE_HAND_BITS = sum(1 << b for b in (Y_TANYAO, Y_HONITSU, Y_CHINITSU, Y_HONROUTOU, Y_CHANTA,
                                       Y_JUNCHAN, Y_CHIITOITSU, Y_TSUUIISOU, Y_CHINROUTOU,
                                       Y_RYUUIISOU, Y_CHUUREN, Y_KOKUSHI, Y_DAISHARIN,
                                       Y_SHIISAN_PUUTAA))
PAIR_GROUP = 4


@nb.njit(cache=True)
def _last_run(st, sk, kind) -> int:
    """The group of the last run of ``kind`` (the reference model's choice among equal runs)."""
    found = -1
    for i in range(4):
        if st[i] == S_RUN and sk[i] == kind:
            found = i
    return found


@nb.njit(cache=True)
def _last_triplet(st, sk, kind) -> int:
    found = -1
    for i in range(4):
        if st[i] != S_RUN and sk[i] == kind:
            found = i
    return found


@nb.njit(cache=True)
def _three(st, sk, k0, k1, k2, runs: bool) -> int:
    """The groups of the last run (or triplet) of each of three kinds, 0 unless all three are
    there: sanshoku, ittsu, sanshoku doukou."""
    used = 0
    for k in (k0, k1, k2):
        i = _last_run(st, sk, k) if runs else _last_triplet(st, sk, k)
        if i < 0:
            return 0
        used |= 1 << i
    return used


@nb.njit(cache=True)
def _groups_of(y, st, sk, so, pair, slot, tsumo, cx) -> int:
    """Bit i: group i (0-3 the sets, 4 the pair) belongs to set yaku ``y`` of this reading
    (0: the yaku holds no tiles of its own)."""
    used = 0
    if y == Y_HAKU or y == Y_HATSU or y == Y_CHUN:
        i = _last_triplet(st, sk, 31 + y - Y_HAKU)
        used = 1 << i if i >= 0 else 0
    elif y == Y_ROUND_WIND or y == Y_SEAT_WIND:
        i = _last_triplet(st, sk, cx[CX_ROUND_WIND] if y == Y_ROUND_WIND else cx[CX_SEAT_WIND])
        used = 1 << i if i >= 0 else 0
    elif y == Y_SANSHOKU:
        for r in range(7):
            used = _three(st, sk, r, 9 + r, 18 + r, True)
            if used:
                break
    elif y == Y_ITTSU:
        for su in range(3):
            used = _three(st, sk, 9 * su, 9 * su + 3, 9 * su + 6, True)
            if used:
                break
    elif y == Y_ISSHOKU_SANJUN or y == Y_IIPEIKOU:
        need = 3 if y == Y_ISSHOKU_SANJUN else 2
        for i in range(4):             # the first run kind (in group order) held often enough
            if st[i] != S_RUN:
                continue
            n = 0
            for j in range(4):
                if st[j] == S_RUN and sk[j] == sk[i]:
                    n += 1
            if n >= need:
                taken = 0
                for j in range(4):
                    if st[j] == S_RUN and sk[j] == sk[i] and taken < need:
                        used |= 1 << j
                        taken += 1
                break
    elif y == Y_RYANPEIKOU:
        for i in range(4):
            used |= 1 << i
    elif y == Y_TOITOI or y == Y_SANKANTSU or y == Y_SUUKANTSU or y == Y_DAISANGEN or \
            y == Y_DAISUUSHII or y == Y_SHOUSANGEN or y == Y_SHOUSUUSHII or \
            y == Y_SANANKOU or y == Y_SUUANKOU:
        for i in range(4):
            if st[i] == S_RUN:
                continue
            k = sk[i]
            if y == Y_TOITOI:
                used |= 1 << i
            elif (y == Y_SANKANTSU or y == Y_SUUKANTSU) and st[i] == S_KAN:
                used |= 1 << i
            elif (y == Y_DAISANGEN or y == Y_SHOUSANGEN) and k >= 31:
                used |= 1 << i
            elif (y == Y_DAISUUSHII or y == Y_SHOUSUUSHII) and 27 <= k <= 30:
                used |= 1 << i
            elif (y == Y_SANANKOU or y == Y_SUUANKOU) and so[i] == 0 and \
                    not (i == slot and not tsumo):
                used |= 1 << i
        if y == Y_SHOUSANGEN or y == Y_SHOUSUUSHII:
            used |= 1 << PAIR_GROUP
    elif y == Y_SANSHOKU_DOUKOU:
        for r in range(9):
            used = _three(st, sk, r, 9 + r, 18 + r, False)
            if used:
                break
    elif y == Y_SANRENKOU or y == Y_SUURENKOU:
        length = 3 if y == Y_SANRENKOU else 4
        for s in range(3):
            for start in range(9):
                n = 0
                while start + n < 9 and _last_triplet(st, sk, 9 * s + start + n) >= 0:
                    n += 1
                if n < 3:
                    continue
                for j in range(length):
                    used |= 1 << _last_triplet(st, sk, 9 * s + start + j)
                break
            if used:
                break
    return used


@nb.njit(cache=True)
def atozuke_b(st, sk, so, pair, slot, melds, n_melds, bits, tsumo, cx, sr) -> bool:
    """§5.5 (b) for one reading: some yaku of it includes the first called tile (b1), or holds
    without any called tile and without the winning tile (b2). ``bits``: the reading's yaku
    (its yakuman alone when it is one)."""
    literal = sr[SR_ATOZUKE_FIRST_CALL_LITERAL] != 0
    first = -1
    called = 0
    for i in range(n_melds):
        t = melds[i, 0]
        if t == MELD_CHI or t == MELD_PON or t == MELD_KAKAN or (t == MELD_MINKAN and not literal):
            called |= 1 << i
            if first < 0:
                first = i
    if first < 0:
        return True
    if bits & WHOLE_HAND_BITS and sr[SR_ATOZUKE_WHOLE_HAND_IGNORE] == 0:
        return True                   # a whole-hand yaku includes every tile, the called ones
    for y in range(Y_KAZOE):
        if not (bits >> y) & 1:
            continue
        used = _groups_of(y, st, sk, so, pair, slot, tsumo, cx)
        if used == 0:
            continue
        # Equal runs stand in for each other (chi 789s with a concealed 789s: either makes
        # the ittsu), so a yaku passes when some choice of its groups does.
        if _b1(used, st, sk, first):
            return True
        if _b2(used, st, sk, called, slot):
            return True
    return False


@nb.njit(cache=True)
def _same_group(st, sk, i, j) -> bool:
    if i == PAIR_GROUP or j == PAIR_GROUP:
        return i == j
    return st[i] == st[j] and sk[i] == sk[j]


@nb.njit(cache=True)
def _b1(used, st, sk, first) -> bool:
    """(b1): the first call's group, or one equal to it, is among the yaku's groups."""
    for i in range(5):
        if (used >> i) & 1 and _same_group(st, sk, i, first):
            return True
    return False


@nb.njit(cache=True)
def _b2(used, st, sk, called, slot) -> bool:
    """(b2): each of the yaku's groups can be one that is not called and does not hold the
    winning tile (as many such equal groups as the yaku needs)."""
    for i in range(5):
        if not (used >> i) & 1:
            continue
        need = 0
        clean = 0
        for j in range(5):
            if _same_group(st, sk, i, j):
                if (used >> j) & 1:
                    need += 1
                if not (called >> j) & 1 and j != slot:
                    clean += 1
        if clean < need:
            return False
    return True


@nb.njit(cache=True)
def score_legal(c, melds, win, cx, dora, ura, sr, res) -> int:
    """:func:`score_win` with atozuke's restrictions when ``atozuke: false`` (§5.5): a win
    with a chance yaku (menzen tsumo, rinshan, chankan, haitei, houtei) stands; otherwise every
    kind the hand waits on must give a yaku (a), and the reading paid must pass (b). A refused
    win has R_PAY -1 and R_REFUSED saying why. Returns res[R_PAY]."""
    pay = score_win(c, melds, win, cx, dora, ura, sr, res)
    if pay < 0 or sr[SR_ATOZUKE] != 0:
        return pay
    n_melds = cx[CX_N_MELDS]
    closed = True
    for i in range(n_melds):
        if melds[i, 0] != MELD_ANKAN:
            closed = False
    tsumo = cx[CX_TSUMO] != 0
    if (closed and tsumo) or (cx[CX_RINSHAN] and tsumo) or (cx[CX_CHANKAN] and not tsumo) or \
            (cx[CX_HAITEI] and tsumo and not cx[CX_RINSHAN]) or (cx[CX_HOUTEI] and not tsumo):
        return pay                                        # (c)
    if res[R_ATOZUKE_B] == 0:
        res[R_PAY] = -1
        res[R_REFUSED] = 2
        return -1
    # (a): the 13 tiles before the win, each kind that completes them (not held four times)
    conc = c.copy()
    conc[win] -= 1
    held = np.zeros(34, np.int64)
    _all_tiles(conc, melds, n_melds, held)
    sr2 = sr.copy()
    sr2[SR_RYANHAN_SHIBARI] = 0      # (a) asks for a yaku, not for the two-han minimum
    other = np.zeros(N_RES, np.int64)
    for k in range(34):
        if k == win or held[k] >= 4:
            continue
        conc[k] += 1
        p2 = score_win(conc, melds, k, cx, dora, ura, sr2, other)
        conc[k] -= 1
        if other[R_SHAPE] and p2 < 0:
            res[R_PAY] = -1
            res[R_REFUSED] = 1
            return -1
    return pay


@nb.njit(cache=True)
def _puutaa(c) -> bool:
    """14 tiles of 13 kinds with no run, triplet or taatsu: one pair and nothing connected."""
    n_pairs = 0
    for k in range(34):
        if c[k] >= 3:
            return False
        if c[k] == 2:
            n_pairs += 1
    if n_pairs != 1:
        return False
    for s in range(3):
        for r in range(9):
            k = 9 * s + r
            if c[k] == 0:
                continue
            if r + 1 < 9 and c[k + 1] > 0:
                return False
            if r + 2 < 9 and c[k + 2] > 0:
                return False
    return True


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
