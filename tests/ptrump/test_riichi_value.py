"""P-style greedy's riichi against silent tenpai (issue 30 item 1): the kernel's expected gain
against a pure-Python reference built on the scenario's own scorer (``score_text``), the fast
bound ``riichi_pays`` against the exact gain, and the play: riichi falls when it is worth
nothing, and choosing by value then beats riichi on every tenpai."""

from __future__ import annotations

import numpy as np
import pytest

from policies.ptrump.riichi_value import (
    IPPATSU_SHARE_PER_SEAT, WIN_SHARE, riichi_gain, riichi_pays,
)
from simcore.family import registry as families
from simcore.ptrump.cards import format_cards, rank_char
from simcore.ptrump.hand import is_complete
from simcore.ptrump.layout import (
    JOKER, OBS_CNT, OBS_DISC_RANKS, OBS_DORA_RANK, OBS_HAND_MASK, OBS_LEN, OBS_N_SEATS, OBS_SEEN,
)
from simcore.family.players import with_players
from simcore.family.scenario.files import nested
from simcore.family.summary import summarize
from simcore.ptrump.rules_array import build_hand_rules, build_rules_array
from simcore.ptrump.scoring import score_text

FAM, SC = families.load("ptrump_2p")
WORTHLESS = {"scoring.additive.riichi.points": 0, "scoring.additive.double_riichi.points": 0,
             "scoring.additive.ippatsu.points": 0, "scoring.additive.ura.enabled": False,
             "scoring.additive.ura_joker.enabled": False}


def _variant(**overrides):
    sc = SC
    for key, value in overrides.items():
        sc = FAM.SCENARIOS.with_overrides(sc, nested(key, value), "variant")
    return sc


VARIANTS = {
    "default": SC,
    "worthless": _variant(**WORTHLESS),
    "no_tsumo_yaku": _variant(**{"scoring.yaku.tsumo.enabled": False}),
    "deposit_3": _variant(**{"riichi.deposit": 3, "scoring.additive.ippatsu.points": 2}),
    "riichi_no_yaku": _variant(**{"scoring.additive_are_yaku": False}),
    "paaren_any_colour": _variant(**{"scoring.yakuman.paaren.one_colour": False}),
}


def _copies(r):
    return 2 if r == JOKER else 4


def _situation(rng, hr):
    """A random tenpai 7-card hand, the card discarded beside it, other cards seen, dora."""
    while True:
        deck = rng.permutation(54)
        hand, discard, seen_more = deck[:7], int(deck[7]), deck[8:8 + rng.integers(0, 12)]
        cnt = np.bincount(hand // 4, minlength=14).astype(np.int64)
        waits = [w for w in range(14) if cnt[w] < _copies(w)
                 and is_complete(_plus(cnt, w), 0, hr)]
        if waits:
            break
    seen = cnt.copy()
    seen[discard // 4] += 1
    for c in seen_more:
        seen[c // 4] += 1
    dora = int(rng.integers(0, 13))
    first = bool(rng.integers(0, 4) == 0)
    obs = np.zeros(OBS_LEN, np.int64)
    obs[OBS_CNT:OBS_CNT + 14] = cnt
    obs[OBS_CNT + discard // 4] += 1
    obs[OBS_SEEN:OBS_SEEN + 14] = seen
    obs[OBS_N_SEATS] = 2
    obs[OBS_DORA_RANK] = dora
    obs[OBS_DISC_RANKS] = 0 if first else 1
    obs[OBS_HAND_MASK] = sum(1 << int(c) for c in (*hand, discard))
    return obs, [int(c) for c in hand], discard, cnt, waits, seen, dora, first


def _plus(cnt, w):
    c = cnt.copy()
    c[w] += 1
    return c


def reference_gain(sc, hand, waits, seen, dora, first):
    """The module docstring's formula, every win scored by ``score_text``."""
    d = sc.to_dict()["scoring"]["additive"]
    n = 2
    unseen = np.array([max(0, _copies(r) - seen[r]) for r in range(14)])
    total = max(int(unseen.sum()), 1)

    def ura_share(r):
        return 0.0 if r == JOKER else unseen[(r + 12) % 13] / total

    ind = rank_char((dora + 12) % 13)
    word = "wriichi" if first else "riichi"
    ura_pts = d["dora"]["points"] if d["ura"]["enabled"] else 0
    added, live = 0.0, 0
    for w in waits:
        free = [c for c in range(4 * w, min(4 * w + 4, 54)) if c not in hand
                and any(score_text(f"{format_cards(hand)} +{format_cards([c])} {how}", sc)
                        ["reason"] != "not a winning shape" for how in ("tsumo", "tsumo riichi"))]
        if not unseen[w] or not free:
            continue
        text = f"{format_cards(hand)} +{format_cards([free[0]])}"
        g = 0.0
        for how, share in (("ron", 1 - 1 / n), ("tsumo", 1 / n)):
            with_r = score_text(f"{text} {how} {word} dora:{ind}", sc)
            dama = score_text(f"{text} {how} dora:{ind}", sc)
            g += share * ((with_r["total"] if with_r["valid"] else 0)
                          - (dama["total"] if dama["valid"] else 0))
        g += ura_pts * (sum(ura_share(c // 4) for c in hand) + ura_share(w))
        added += unseen[w] * g
        live += unseen[w]
    deposit = sc.to_dict()["riichi"]["deposit"]
    if live == 0:
        return -deposit
    per_win = added / live
    if d["ippatsu"]["enabled"]:
        per_win += IPPATSU_SHARE_PER_SEAT * n * d["ippatsu"]["points"]
    if d["ura_joker"]["enabled"] and d["ura_joker"]["when"] == "riichi_only":
        per_win += d["ura_joker"]["points"] * unseen[JOKER] / total
    return WIN_SHARE * per_win - (1 - WIN_SHARE) * deposit


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_riichi_gain_matches_the_reference_and_the_bound_agrees(variant):
    sc = VARIANTS[variant]
    ra, hr = build_rules_array(sc), build_hand_rules(sc)
    rng = np.random.default_rng(7)
    for _ in range(25):
        obs, hand, discard, cnt, waits, seen, dora, first = _situation(rng, hr)
        got = riichi_gain(obs, discard, cnt, hr, ra)
        want = reference_gain(sc, hand, waits, seen, dora, first)
        assert got == pytest.approx(want, abs=1e-9), (variant, format_cards(hand), waits)
        for need in (-1.0, 0.0, 0.3, got, 1.0, 3.0):
            assert riichi_pays(obs, discard, cnt, hr, ra, need) == (got >= need), (need, got)


def _obs(hand, discard, dora_rank):
    obs = np.zeros(OBS_LEN, np.int64)
    cnt = np.bincount(np.array(hand) // 4, minlength=14).astype(np.int64)
    obs[OBS_CNT:OBS_CNT + 14] = cnt
    obs[OBS_CNT + discard // 4] += 1
    obs[OBS_SEEN:OBS_SEEN + 14] = cnt
    obs[OBS_N_SEATS], obs[OBS_DISC_RANKS], obs[OBS_DORA_RANK] = 2, 1, dora_rank
    obs[OBS_HAND_MASK] = sum(1 << c for c in (*hand, discard))
    return obs, cnt


def test_riichi_gain_counts_the_rons_only_riichi_allows_at_their_points():
    sc = VARIANTS["worthless"]
    ra, hr = build_rules_array(sc), build_hand_rules(sc)
    no_yaku = [4, 8, 12, 17, 21, 25, 35]          # 234 567 9: a ron on the 9 needs riichi
    tanyao = [4, 8, 12, 17, 21, 25, 29]           # 234 567 8: dama may ron
    k = 51                                        # a K to discard
    # riichi worth nothing: dama with tanyao; the riichi-only ron of the other is worth 0
    # points (a win counts for its points) unless the hand holds dora
    obs, cnt = _obs(tanyao, k, 12)
    assert riichi_gain(obs, k, cnt, hr, ra) == pytest.approx(-(1 - WIN_SHARE))
    obs, cnt = _obs(no_yaku, k, 12)
    assert riichi_gain(obs, k, cnt, hr, ra) == pytest.approx(-(1 - WIN_SHARE))
    obs, cnt = _obs(no_yaku, k, 1)                # the 2 is dora: each ron riichi allows adds 1
    gain = riichi_gain(obs, k, cnt, hr, ra)
    assert gain == pytest.approx(WIN_SHARE * 0.5 * 1 - (1 - WIN_SHARE))
    # at the scenario's own points riichi pays on both hands
    sc = VARIANTS["default"]
    for hand in (no_yaku, tanyao):
        obs, cnt = _obs(hand, k, 12)
        assert riichi_gain(obs, k, cnt, build_hand_rules(sc), build_rules_array(sc)) > 0


def _play(sc, seats, games, seed):
    from simcore.studies.study import run_study
    sc = with_players(FAM, sc, ",".join(seats))
    res = run_study(FAM, [sc], seed, games, 1)
    return summarize(FAM, sc, seed, res.sums, v=0)["metrics"]


def test_riichi_falls_when_it_is_worth_nothing_and_value_beats_always_riichi():
    # Pinned seed 3 (observed at commit time: riichi rate 96.7% -> 21.2% over 3,000 matches;
    # by value 74.3% and 75.2% of 4,000 matches, either seat, against riichi on every live
    # tenpai under the worthless rules). Tolerances: 300 matches give the rates to about
    # +-2 pp and the share to +-5 pp.
    default = _play(SC, ["greedy"], 300, 3)["riichi_rate"]["value"]
    worthless = _play(VARIANTS["worthless"], ["greedy"], 300, 3)["riichi_rate"]["value"]
    assert default > 0.9 and worthless < 0.35, (default, worthless)
    duel = _play(VARIANTS["worthless"], ["greedy", "greedy:riichi_gain=-10"], 300, 3)
    duel_swapped = _play(VARIANTS["worthless"], ["greedy:riichi_gain=-10", "greedy"], 300, 3)
    share = (duel["seat0_win_share"]["value"] + duel_swapped["seat1_win_share"]["value"]) / 2
    assert share > 0.6, share
