"""Scripted rounds: one exact situation each (a stacked wall, scripted seats), per rule option.

Seat 0 deals and moves first. Wall positions: hands 0-13, dora indicator 14, dead wall 15-17,
stock from 18 (tests/enginescript.py).
"""

import numpy as np
import pytest

from simcore.momojan.actions import DRAW, DRAW_THREE, RON, TSUMO
from simcore.momojan.cards import parse_card
from simcore.momojan.engine import (
    OUT_DRAW, OUT_RON, OUT_TSUMO, RF_KAN1, RF_OUTCOME, RF_WINNER, RF_YAKU_BITS, _finish_draw,
    new_round_state,
)
from simcore.momojan.rules_array import Y_IPPATSU

from enginescript import cards, discard, kan_closed, table

ILLEGAL = "illegal action"


# --- win_right_after_kai (spec §4): the card drawn this turn only ------------------------------

def _pon_completes_hand(t):
    """Seat 1 Kais two sets (draw, Kai, draw three, Kai), then Pons seat 0's moon: after the Pon
    its hand (7m 7l) is a head, so 3 revealed sets + head are complete, with nothing drawn."""
    wall = t.wall("5z 1i 3i 5i 7i 2o 8o", "1l2l3l 5z5z 7m 7l", "9o", stock="2i 4o 5o6o9i 6i")
    seat0 = [DRAW, discard("1i"), DRAW, discard("5z")]
    seat1 = [DRAW, t.kai("123l"), DRAW_THREE, t.kai("456o"), discard("9i"), t.call("5z5z5z")]
    return wall, seat0, seat1


@pytest.mark.parametrize("option", [False, True])
def test_no_win_right_after_a_pon(option):
    t = table(win_right_after_kai=option)
    wall, seat0, seat1 = _pon_completes_hand(t)
    with pytest.raises(AssertionError, match=ILLEGAL):
        t.play(wall, seat0, seat1 + [TSUMO])
    _, rec, _ = t.play(wall, seat0, seat1 + [discard("7m")])  # the turn goes on
    assert rec[RF_OUTCOME] in (OUT_TSUMO, OUT_RON, OUT_DRAW)


def _kai_after_draw_three_completes(t):
    """Seat 1: draw, Kai 123l, draw three, Kai 456o: its hand is then 5z5z5z 7m 7l, complete
    right after the Kai, and the last card came from the three-card draw."""
    wall = t.wall("1i 3i 5i 7i 2o 8o 9l", "1l2l3l 5z5z5z 7m", "9o", stock="2i 4o 5o6o7l")
    return wall, [DRAW, discard("1i")], [DRAW, t.kai("123l"), DRAW_THREE, t.kai("456o")]


def test_win_right_after_kai_on_a_drawn_card():
    t = table(win_right_after_kai=True)
    wall, seat0, seat1 = _kai_after_draw_three_completes(t)
    _, rec, _ = t.play(wall, seat0, seat1 + [TSUMO])
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNER] == 1
    # ... but only where a three-card draw may tsumo
    t = table(win_right_after_kai=True, tsumo_after_draw_three=False)
    with pytest.raises(AssertionError, match=ILLEGAL):
        t.play(wall, seat0, seat1 + [TSUMO])
    t = table(win_right_after_kai=False)
    with pytest.raises(AssertionError, match=ILLEGAL):
        t.play(wall, seat0, seat1 + [TSUMO])


# --- furiten.declined_ron (spec §6) ---------------------------------------------------------

def _riichi_then_pass(t, second):
    """Seat 1 Kais twice and declares riichi on 2i 3i 9o 9i (waits 1i 4i, momo 1m 4m); seat 0
    discards 4i and seat 1 passes; seat 1 discards its next draw (8l); seat 0 then discards
    ``second``."""
    wall = t.wall("4i 1i 1m 6l 7l 8o 9l", "1l2l3l 2i3i 9o9i", "5l",
                  stock="5m 5o 6o7o1z 6m 8l 4l")
    seat0 = [DRAW, discard("6l"), DRAW, discard("4i"), DRAW, discard(second)]
    seat1 = [DRAW, t.kai("123l"), DRAW_THREE, t.kai("567o"), discard("1z", riichi=True),
             DRAW, discard("8l")]
    return wall, seat0, seat1


@pytest.mark.parametrize("rule, second, may_ron", [
    ("none", "1i", True),
    ("riichi_rest_of_round", "1i", False),
    ("riichi_rest_of_round", "1m", True),   # momo may always be ronned (momo_exempt)
])
def test_declined_ron_in_riichi(rule, second, may_ron):
    t = table(**{"furiten.declined_ron": rule})
    wall, seat0, seat1 = _riichi_then_pass(t, second)
    if may_ron:
        _, rec, _ = t.play(wall, seat0, seat1 + [RON])
        assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNER] == 1
    else:
        with pytest.raises(AssertionError, match=ILLEGAL):
            t.play(wall, seat0, seat1 + [RON])


# --- ippatsu lost on a call (spec §7) -------------------------------------------------------

@pytest.mark.parametrize("lost_on_call", [True, False])
def test_ippatsu_lost_when_the_riichi_discard_is_called(lost_on_call):
    t = table(**{"riichi.ippatsu_lost_on_call": lost_on_call})
    wall = t.wall("4i 1z1z 6l 7l 8o 9l", "1l2l3l 2i3i 9o9i", "5l", stock="5m 5o 6o7o1z")
    seat0 = [DRAW, discard("6l"), t.call("1z1z1z"), discard("4i")]
    seat1 = [DRAW, t.kai("123l"), DRAW_THREE, t.kai("567o"), discard("1z", riichi=True), RON]
    _, rec, _ = t.play(wall, seat0, seat1)
    assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNER] == 1
    assert bool((rec[RF_YAKU_BITS] >> Y_IPPATSU) & 1) == (not lost_on_call)


# --- old edition kans (spec §10) ------------------------------------------------------------

def test_kan_after_a_three_card_draw():
    t = table("old_edition")
    wall = t.wall("2i 3i 5i 7i 2o 8o 9l", "2l3l4l 1z1z1z 7m", "9o", dead="6i",
                  stock="4i 5o 6o1z7l")
    seat0 = [DRAW, discard("2i")]
    seat1 = [DRAW, t.kai("234l"), DRAW_THREE, kan_closed("1z")]
    _, rec, ev = t.play(wall, seat0, seat1)
    assert rec[RF_KAN1] == 1


def test_rank1_cards_fill_a_sun_kan():
    t = table("old_edition")
    wall = t.wall("2i 3i 5i 7i 2o 8o 9l", "4z4z4z 1l 5l6l 7m", "9o", stock="4i 3o")
    seat1 = [DRAW, kan_closed("4z")]
    _, rec, ev = t.play(wall, [DRAW, discard("2i")], seat1)
    assert rec[RF_KAN1] == 1
    kans = [e for e in ev if e[0] == 7]  # EV_KAN
    from simcore.momojan.cards import kinds_from_mask
    assert sorted(kinds_from_mask(np.uint64(kans[0][5]))) == cards("1l 4z4z4z")
    t = table("old_edition", **{"kan.rank1_stand_ins": False})
    with pytest.raises(AssertionError, match=ILLEGAL):
        t.play(wall, [DRAW, discard("2i")], seat1)


def _kans(ev):
    from simcore.momojan.cards import kinds_from_mask
    return [(int(e[1]), int(e[2]), int(e[3]), sorted(kinds_from_mask(np.uint64(e[5]))))
            for e in ev if e[0] == 7]  # EV_KAN: seat, card, kind, hand cards


@pytest.mark.parametrize("stand_ins", [True, False])
def test_open_kan_on_a_discarded_rank1_card_standing_in(stand_ins):
    """Spec §10: with ``kan.rank1_stand_ins`` an open kan of ``1o 4z 4z`` on a discarded 1i is a
    sun kan; without it the call is illegal."""
    from simcore.momojan.actions import KAN_OPEN_AS
    from simcore.momojan.cards import SUN
    from simcore.momojan.engine import KAN_KIND_OPEN
    t = table("old_edition", **{"kan.rank1_stand_ins": stand_ins})
    wall = t.wall("1i 3i 5i 7i 2o 8o 9l", "1o 4z4z 5l6l 7m 2m", "9o", stock="4i 3o")
    seat0 = [DRAW, discard("1i")]
    seat1 = [KAN_OPEN_AS + SUN, discard("2m")]
    if not stand_ins:
        with pytest.raises(AssertionError, match=ILLEGAL):
            t.play(wall, seat0, seat1)
        return
    _, rec, ev = t.play(wall, seat0, seat1)
    assert rec[RF_KAN1] == 1
    assert _kans(ev) == [(1, parse_card("1i"), KAN_KIND_OPEN, cards("1o 4z4z"))]


@pytest.mark.parametrize("stand_ins", [True, False])
def test_added_kan_of_a_sun_onto_a_revealed_rank1_set(stand_ins):
    """Spec §10: a revealed ``1l 1o 1i`` is of the sun's kind while it may stand for a sun, so a
    sun added to it is an added kan (a sun kan); the option off, only the fourth rank-1 fruit
    may be added."""
    from simcore.momojan.actions import KAN_ADDED_AS, MAX_REVEALED
    from simcore.momojan.cards import SUN
    from simcore.momojan.engine import KAN_KIND_ADDED
    t = table("old_edition", **{"kan.rank1_stand_ins": stand_ins})
    wall = t.wall("2i 3i 5i 7i 2o 8o 9l", "1l 1o 1i 4z 5l6l 7m", "9o", stock="4i 3o 6i 7o 8l")
    seat0 = [DRAW, discard("2i")]
    seat1 = [DRAW, t.kai("1l1o1i"), DRAW_THREE, KAN_ADDED_AS + SUN * MAX_REVEALED + 0,
             discard("7m")]
    if not stand_ins:
        with pytest.raises(AssertionError, match=ILLEGAL):
            t.play(wall, seat0, seat1)
        return
    _, rec, ev = t.play(wall, seat0, seat1)
    assert rec[RF_KAN1] == 1
    assert _kans(ev) == [(1, parse_card("4z"), KAN_KIND_ADDED, cards("4z"))]


# --- exhaustive draw settlement (spec §9) ---------------------------------------------------

@pytest.mark.parametrize("rounding, paid", [("ceil", 2), ("floor", 1)])
def test_draw_settlement_rounding(rounding, paid):
    """Seat 0 tenpai with a Kai set (2) and a Pon set (1), seat 1 noten: difference 3."""
    t = table(**{"exhaustive_draw.rounding": rounding})
    rs = new_round_state(False)
    rs.hands[0] = np.uint64(sum(1 << k for k in cards("2i3i 9o9i")))
    rs.hands[1] = np.uint64(sum(1 << k for k in cards("1l 3o 5i 7m")))
    from simcore.momojan.engine import _add_group
    for text, origin in (("123l", 1), ("5z5z5z", 2)):  # ORIGIN_KAI, ORIGIN_PON
        c = cards(text)
        _add_group(rs, 0, c[0], c[1], c[2], -1, 3, origin)
    rec = np.zeros_like(np.zeros(64, np.int64))
    got = _finish_draw(rs, t.sim.ra, t.sim.T, rec)
    assert got == paid and rec[RF_WINNER] == 0


# --- furiten (spec §6): own discards block ron, not tsumo; momo exempt both ways -------------

def _furiten_riichi(t, seat0_hand, stock, second):
    """Seat 1 draws 4i, Kais 123l and 567o, and declares riichi discarding 4i: it now waits on
    1i/4i (and momo 1m/4m) with 4i in its own discards. Seat 0 then discards ``second``."""
    wall = t.wall(seat0_hand, "1l2l3l 2i3i 9o9i", "5l", stock=stock)
    seat0 = [DRAW, discard("6l"), DRAW, discard(second)]
    seat1 = [DRAW, t.kai("123l"), DRAW_THREE, t.kai("567o"), discard("4i", riichi=True)]
    return wall, seat0, seat1


@pytest.mark.parametrize("furiten, second, may_ron", [
    (True, "1i", False),    # a winning card (4i) lies in its own discards
    (True, "1m", True),     # momo may always be ronned
    (False, "1i", True),    # furiten.enabled: false
])
def test_furiten_blocks_ron(furiten, second, may_ron):
    t = table(**{"furiten.enabled": furiten})
    wall, seat0, seat1 = _furiten_riichi(t, "1i 1m 6l 7l 8o 9l 8l", "5m 4i 6o7o5o 6m", second)
    if may_ron:
        _, rec, _ = t.play(wall, seat0, seat1 + [RON])
        assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNER] == 1
    else:
        with pytest.raises(AssertionError, match=ILLEGAL):
            t.play(wall, seat0, seat1 + [RON])


def test_furiten_player_may_tsumo():
    t = table()
    wall, seat0, seat1 = _furiten_riichi(t, "4l 1m 6l 7l 8o 9l 8l", "5m 4i 6o7o5o 6m 1i", "4l")
    _, rec, _ = t.play(wall, seat0, seat1 + [DRAW, TSUMO])
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNER] == 1


def test_momo_in_own_discards_never_causes_furiten():
    """Seat 1 riichis discarding 1m (a momo it could use as 1i): its momo discard does not make it
    furiten, so it may ron 1i."""
    t = table()
    wall = t.wall("1i 4l 6l 7l 8o 9l 8l", "1l2l3l 2i3i 9o9i", "5l", stock="5m 1m 6o7o5o 6m")
    seat0 = [DRAW, discard("6l"), DRAW, discard("1i")]
    seat1 = [DRAW, t.kai("123l"), DRAW_THREE, t.kai("567o"), discard("1m", riichi=True), RON]
    _, rec, _ = t.play(wall, seat0, seat1)
    assert rec[RF_OUTCOME] == OUT_RON and rec[RF_WINNER] == 1


def test_win_right_after_kai_on_a_kan_replacement_is_rinshan():
    """Review finding: after a kan's replacement draw, a Kai that completes the hand may win
    (win_right_after_kai) and the win is rinshan, offered as it is scored. Seat 0: draw 6l, Kai
    234o, draw three 7l8l9l, closed kan of the 5s, replacement 9i, Kai 678l: 9l 9i is the head."""
    t = table("old_edition", win_right_after_kai=True, **{"scoring.yaku.kan.enabled": False})
    wall = t.wall("2o3o4o 5m5l5o5i", "1z2z3z 2i3i 6i 8i", "3z", dead="9i", stock="6l 7l8l9l")
    seat0 = [DRAW, t.kai("234o"), DRAW_THREE, kan_closed("5m"), t.kai("678l"), TSUMO]
    _, rec, _ = t.play(wall, seat0, [])
    assert rec[RF_OUTCOME] == OUT_TSUMO and rec[RF_WINNER] == 0
    from simcore.momojan.rules_array import Y_RINSHAN
    assert (rec[RF_YAKU_BITS] >> Y_RINSHAN) & 1


def test_baseline_declares_a_kan_when_offered():
    """Review finding: no bot ever declared a kan, so old-edition runs had no kan, rinshan or kan
    yaku. Seat 1 (baseline) holds three dogs and draws the fourth."""
    t = table("old_edition")
    wall = t.wall("2i 3i 5i 7i 2o 8o 9l", "1z1z1z 5l 7m 3o 9i", "9o", stock="4i 1z")
    _, rec, _ = t.play(wall, [DRAW, discard("2i")], [-1, -1, -1])
    assert rec[RF_KAN1] == 1


def test_the_kan_precheck_passes_every_hand_that_holds_a_kan_group():
    # the round loop asks _kan_group_possible before _mask_kans_after_draw; it must be true
    # wherever some group has four cards (a rank's four fruits, or a picture's copies with the
    # rank-1 cards that may stand in), and false otherwise (checked against counting by kind)
    from simcore.momojan.cards import N_FRUITS, N_NUMBER_KINDS, N_PICTURES, N_RANKS
    from simcore.momojan.engine import _kan_group_possible
    from simcore.momojan.cards import mask_from_kinds

    import numba as nb

    @nb.njit
    def ask(cards):
        return _kan_group_possible(cards)

    rng = np.random.default_rng(11)
    for _ in range(20000):
        nums = [k for k in range(N_NUMBER_KINDS) if rng.random() < rng.random() * 0.6]
        pics = [int(rng.integers(0, 5)) if rng.random() < 0.5 else 0 for _ in range(N_PICTURES)]
        kinds = nums + [N_NUMBER_KINDS + p for p in range(N_PICTURES) for _ in range(pics[p])]
        rank1 = sum(1 for f in range(N_FRUITS) if f * N_RANKS in nums)
        want = any(all(f * N_RANKS + r in nums for f in range(N_FRUITS)) for r in range(N_RANKS)) \
            or any(pics[p] + rank1 >= 4 for p in range(N_PICTURES))
        assert ask(np.uint64(mask_from_kinds(kinds))) == want, (nums, pics)


def test_the_kan_precheck_is_true_wherever_a_kan_is_offered():
    # the pre-check's claim itself: on random consistent round states of the old edition (0-3
    # revealed sets from its catalogue, hands rich in rank-1 cards, pictures and 5s, every kan
    # flag on or off, rank-1 stand-ins allowed for the deck's substitutes or for every picture),
    # wherever _mask_kans_after_draw offers a kan, _kan_group_possible is true
    import numba as nb
    from simcore.momojan import engine as E
    from simcore.momojan import scenario
    from simcore.momojan.cards import N_KINDS, N_NUMBER_KINDS
    from simcore.momojan.simulate import Simulator

    @nb.njit
    def ask(rs, et, ra):
        E._clear_mask(rs.mask, rs.legal, rs.st)
        E._mask_kans_after_draw(rs, et, 0, ra)
        return rs.st[E.ST_N_LEGAL], E._kan_group_possible(rs.hands[0] + rs.rev_mask[0])

    @nb.njit
    def reveal(rs, c0, c1, c2):
        E._add_group(rs, 0, c0, c1, c2, -1, 3, 0)
        E._sort_group(rs, 0, rs.n_rev[0] - 1)

    sim = Simulator(scenario.load("old_edition"))
    et0, ra0 = sim.ET, sim.ra.copy()
    et_all = et0._replace(stand_in=np.ones(len(et0.stand_in), np.bool_))
    rs = E.new_round_state(False)
    rows = np.asarray(et0.rows)[:, :3]
    deck = np.bincount(np.asarray(et0.deck), minlength=N_KINDS)
    deck_all = deck.copy()
    deck_all[N_NUMBER_KINDS:] = 4
    likely = [0, 9, 18, 27, 4, 13, 22, 31] + list(range(N_NUMBER_KINDS, N_KINDS))
    rich = [r for r in rows if all(x in likely for x in r)]
    rng = np.random.default_rng(1)
    offered = 0
    for t in range(2500):
        et, left = (et0, deck.copy()) if t % 2 else (et_all, deck_all.copy())
        rs.hands[0] = 0
        rs.rev_mask[0] = 0
        rs.n_rev[0] = 0
        rs.riichi[0] = 0
        rs.rev_n[0, :] = 0
        rs.rev_cards[0] = -1
        rs.st[E.ST_DEAD_POS], rs.st[E.ST_DEAD_END] = 0, 3
        for _ in range(rng.integers(0, 4)):
            pool = rich if rng.random() < 0.5 else rows
            r = pool[rng.integers(len(pool))]
            need = np.bincount(r, minlength=N_KINDS)
            if (need <= left).all():
                left -= need
                reveal(rs, int(r[0]), int(r[1]), int(r[2]))
        avail = np.repeat(np.arange(N_KINDS), left)
        w = np.where(np.isin(avail, likely), 8.0, 1.0)
        for k in rng.choice(avail, size=min(len(avail), int(rng.integers(1, 14))),
                            replace=False, p=w / w.sum()):
            rs.hands[0] += np.uint64(E._card_unit(int(k)))
        ra = ra0.copy()
        ra[E.RA_KAN_ENABLED] = 1
        for key in (E.RA_KAN_CLOSED, E.RA_KAN_ADDED, E.RA_KAN_RANK1_STAND_INS):
            ra[key] = int(rng.random() < 0.8)
        n, possible = ask(rs, et, ra)
        if n:
            offered += 1
            assert possible, (int(rs.hands[0]), rs.rev_cards[0, :rs.n_rev[0]].tolist())
    assert offered > 400
