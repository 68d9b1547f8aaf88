"""The value bot's estimate of a hand's points (policies.momojan.worth, issue 30 item 1): every
yaku it plans for moves the estimate when its points move, and never the wrong way."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from policies.momojan.worth import UNPLANNED_YAKU, _data_yaku, estimated_points, yaku_points
from simcore.momojan import scenario
from simcore.momojan.cards import mask_from_kinds, parse_card
from simcore.momojan.rules_array import (
    MAX_DATA_YAKU, MAX_REQUIREMENTS, RA_DATA_YAKU_N_REQ, RA_DATA_YAKU_REQ, RA_DATA_YAKU_SLOT,
    RA_SCORING_DOUBLE_THRESHOLD, RA_YAKU_ENABLED, RA_YAKU_POINTS, REQ_KAN, SLOT_NEW_YAKU, Y,
    YAKU_KEYS, build_rules_array, fill_picture_table,
)


def _mask(text):
    return np.uint64(mask_from_kinds([parse_card(c) for c in text.split()]))


# a hand (concealed + revealed) close to each yaku the estimate reads
NEAR = {
    "dog": "1z 1z 1z 2l 3l 4l 5o 6o 7o 9i 9i",
    "monkey": "2z 2z 2l 3l 4l 5o 6o 7o 9i 9i",
    "pheasant": "3z 3z 3z 2l 3l 4l 9i 9i",
    "sun": "4z 4z 2l 3l 4l 5o 6o 7o",
    "moon": "5z 5z 5z 2l 3l 4l 9i 9i",
    "ittsu": "1l 2l 3l 4l 5l 6l 7l 9o 9i",
    "kerai": "1z 1z 1z 2z 2z 2z 3z 3z 5l 5o",
    "takaramono": "4z 4z 4z 5z 5z 5z 1z 1z 7l 7o",
    "chinitsu": "1l 2l 3l 4l 5l 6l 8l 9l 9o",
    "oshimai": "1z 1z 1z 2z 2z 2z 3z 3z 3z 4z 4z 4z 5z 5z",
    "tanyao": "2l 3l 4l 5o 6o 7o 3i 4i 5i 6m 6l",
    "toitoi": "2l 2o 2i 5o 5i 5l 8l 8o 9i",
    "sanshoku": "2l 3l 4l 2o 3o 4o 2i 3i 9m 9l",
}
PLANNED = [k for k in YAKU_KEYS if k not in UNPLANNED_YAKU + ("riichi", "ippatsu", "honitsu")]


@pytest.fixture(scope="module")
def new_edition():
    return scenario.load("new_edition")


@pytest.fixture(scope="module")
def ra(new_edition):
    return build_rules_array(new_edition)


def test_every_planned_yaku_has_a_near_hand():
    assert sorted(NEAR) == sorted(PLANNED)


@pytest.mark.parametrize("yaku", sorted(NEAR))
def test_raising_a_yaku_raises_the_estimate_of_a_hand_near_it(ra, yaku):
    cards = _mask(NEAR[yaku])
    base, _ = yaku_points(cards, ra)
    raised = ra.copy()
    raised[RA_YAKU_POINTS + Y[yaku]] += 3
    up, _ = yaku_points(cards, fill_picture_table(raised))
    assert up > base, yaku
    off = ra.copy()
    off[RA_YAKU_ENABLED + Y[yaku]] = 0
    fill_picture_table(off)
    assert yaku_points(cards, off)[0] < base, yaku   # switched off: it stops counting


def test_honitsu_when_enabled_counts_a_one_fruit_hand_with_pictures(ra):
    on = ra.copy()
    on[RA_YAKU_ENABLED + Y["honitsu"]] = 1
    cards = _mask("1l 2l 3l 5l 6l 7l 1z 1z 1z 9l 9l")
    assert yaku_points(cards, on)[0] > yaku_points(cards, ra)[0]


@pytest.mark.parametrize("text", ["2l 3l 4l 5o 6o 7o 3i 4i 5i 6m 6m".replace("6m 6m", "6m 6l"),
                                  "1z 1z 1z 2z 2z 2z 3z 3z 3z 5l 5o"])
def test_a_complete_hand_with_a_yaku_is_sure(ra, text):
    assert yaku_points(_mask(text), ra)[1]


def test_a_hand_without_a_pattern_is_not_sure(ra):
    assert not yaku_points(_mask("1l 2l 3l 5o 6o 7o 9i 9i 4z"), ra)[1]


def test_the_doubling_applies_to_the_estimate(ra):
    cards = _mask("1z 1z 1z 2z 2z 2z 3z 3z 3z 5l 5o")   # kerai + three animals: over 7
    yaku, _ = yaku_points(cards, ra)
    assert yaku >= ra[RA_SCORING_DOUBLE_THRESHOLD]
    assert estimated_points(cards, 3, 0, ra, False) == pytest.approx(2 * (yaku + 0.5))
    higher = ra.copy()
    higher[RA_SCORING_DOUBLE_THRESHOLD] = 99
    assert estimated_points(cards, 3, 0, higher, False) == pytest.approx(yaku + 0.5)


_KINDS = st.lists(st.integers(0, 40), min_size=4, max_size=14)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=_KINDS, yaku=st.sampled_from(PLANNED), extra=st.integers(1, 5))
def test_raising_points_never_lowers_the_estimate(new_edition, kinds, yaku, extra):
    from collections import Counter
    counts = Counter(kinds)
    kinds = [k for k, n in counts.items() for _ in range(min(n, 1 if k < 36 else 4))]
    ra = build_rules_array(new_edition)
    cards = np.uint64(mask_from_kinds(kinds))
    raised = ra.copy()
    raised[RA_YAKU_POINTS + Y[yaku]] += extra
    fill_picture_table(raised)
    assert yaku_points(cards, raised)[0] >= yaku_points(cards, ra)[0] - 1e-12
    assert (estimated_points(cards, 3, 0, raised, True)
            >= estimated_points(cards, 3, 0, ra, True) - 1e-12)


def _data_yaku_reference(counts, ra):
    """The picture-set yaku's estimate of one hand, as the value bot computed it per hand before
    the table (module doc of policies.momojan.worth): the reference the table must equal."""
    def share(c):
        return 1.0 if c >= 3 else 0.5 if c == 2 else 0.2 if c == 1 else 0.0
    v, sure = 0.0, False
    for row in range(MAX_DATA_YAKU):
        slot = int(ra[RA_DATA_YAKU_SLOT + row])
        if slot < 0:
            break
        pts = int(ra[RA_YAKU_POINTS + slot]) if ra[RA_YAKU_ENABLED + slot] else 0
        if pts <= 0:
            continue
        base = RA_DATA_YAKU_REQ + row * MAX_REQUIREMENTS
        reqs = [int(r) for r in ra[base:base + ra[RA_DATA_YAKU_N_REQ + row]]]
        low, used = 1.0, 0
        for single in (True, False):
            for req in reqs:
                pics = req & (REQ_KAN - 1)
                if (pics & (pics - 1) == 0) != single:
                    continue
                best, best_p = 0.0, -1
                if not req & REQ_KAN:
                    for p in range(5):
                        if (pics >> p) & 1 and not (used >> p) & 1 and share(counts[p]) > best:
                            best, best_p = share(counts[p]), p
                if best_p >= 0:
                    used |= 1 << best_p
                low *= best
        v += pts * low
        sure = sure or low >= 1.0
    return v, sure


_REQ = st.tuples(st.integers(1, 31), st.booleans())


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pictures=st.lists(st.integers(0, 4), min_size=5, max_size=5),
       points=st.lists(st.integers(-2, 12), min_size=MAX_DATA_YAKU, max_size=MAX_DATA_YAKU),
       off=st.lists(st.booleans(), min_size=MAX_DATA_YAKU, max_size=MAX_DATA_YAKU),
       new=st.lists(st.lists(_REQ, min_size=1, max_size=MAX_REQUIREMENTS), max_size=3))
def test_the_picture_table_equals_the_per_hand_estimate_to_the_bit(new_edition, pictures, points,
                                                                    off, new):
    """The rules array's picture-level table gives, for any hand (its five pictures' counts
    0-4) and any yaku table (points, switched off, yaku a scenario adds with any requirements),
    the very float the per-hand loop gives, and the same 'met'."""
    ra = build_rules_array(new_edition)
    rows = int((ra[RA_DATA_YAKU_SLOT:RA_DATA_YAKU_SLOT + MAX_DATA_YAKU] >= 0).sum())
    for j, reqs in enumerate(new[:MAX_DATA_YAKU - rows]):
        row, slot = rows + j, SLOT_NEW_YAKU + j
        ra[RA_DATA_YAKU_SLOT + row], ra[RA_DATA_YAKU_N_REQ + row] = slot, len(reqs)
        ra[RA_YAKU_ENABLED + slot] = 1
        for i, (mask, kan) in enumerate(reqs):
            ra[RA_DATA_YAKU_REQ + row * MAX_REQUIREMENTS + i] = mask | (REQ_KAN if kan else 0)
    for row in range(MAX_DATA_YAKU):
        slot = ra[RA_DATA_YAKU_SLOT + row]
        if slot >= 0:
            ra[RA_YAKU_POINTS + slot] = points[row]
            ra[RA_YAKU_ENABLED + slot] = 0 if off[row] else 1
    fill_picture_table(ra)
    kinds = [36 + p for p, c in enumerate(pictures) for _ in range(c)] + [0, 10]
    got_v, got_sure = _data_yaku(np.uint64(mask_from_kinds(kinds)), ra)
    want_v, want_sure = _data_yaku_reference(pictures, ra)
    assert np.float64(got_v).view(np.int64) == np.float64(want_v).view(np.int64)
    assert bool(got_sure) == want_sure


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kinds=_KINDS)
def test_toitoi_share_counts_the_cards_without_a_partner(ra, kinds):
    """toitoi's share is 1 - singles / 3, singles being the pictures held once and the ranks
    held in exactly one fruit (module doc); counted here card by card."""
    from collections import Counter
    counts = Counter(kinds)
    kinds = [k for k, n in counts.items() for _ in range(min(n, 1 if k < 36 else 4))]
    cards = np.uint64(mask_from_kinds(kinds))
    held = Counter(kinds)
    ranks = Counter(k % 9 for k in held if k < 36)
    singles = (sum(1 for k, n in held.items() if k >= 36 and n == 1)
               + sum(1 for n in ranks.values() if n == 1))
    share = min(1.0, max(0.0, 1.0 - singles / 3.0))
    off = ra.copy()
    off[RA_YAKU_ENABLED + Y["toitoi"]] = 0
    pts = int(ra[RA_YAKU_POINTS + Y["toitoi"]])
    assert pts > 0 and ra[RA_YAKU_ENABLED + Y["toitoi"]]
    assert yaku_points(cards, ra)[0] - yaku_points(cards, off)[0] == pytest.approx(pts * share,
                                                                                  abs=1e-9)
