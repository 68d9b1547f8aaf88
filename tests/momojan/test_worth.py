"""The value bot's estimate of a hand's points (policies.momojan.worth, issue 30 item 1): every
yaku it plans for moves the estimate when its points move, and never the wrong way."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from policies.momojan.worth import UNPLANNED_YAKU, estimated_points, yaku_points
from simcore.momojan import scenario
from simcore.momojan.cards import mask_from_kinds, parse_card
from simcore.momojan.rules_array import (
    RA_SCORING_DOUBLE_THRESHOLD, RA_YAKU_ENABLED, RA_YAKU_POINTS, Y, YAKU_KEYS, build_rules_array,
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
    up, _ = yaku_points(cards, raised)
    assert up > base, yaku
    off = ra.copy()
    off[RA_YAKU_ENABLED + Y[yaku]] = 0
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
    assert yaku_points(cards, raised)[0] >= yaku_points(cards, ra)[0] - 1e-12
    assert (estimated_points(cards, 3, 0, raised, True)
            >= estimated_points(cards, 3, 0, ra, True) - 1e-12)
