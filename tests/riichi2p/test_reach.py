"""riichi2p's yaku value table and yaku reach (``Family.point_sources``, ``Family.yaku_reach``):
the kit's reach checks on two scenarios; the han of every win accounted for, row by row; the
engine's reach columns on scripted hands (a closed tenpai hand at the draw, a riichi that is
ronned and one that is established) and over whole games (a seat in riichi at the draw was
within reach of riichi; a winner of what it scored)."""

import numpy as np
import pytest

from simcore.family import registry as families
from simcore.nb.reach import reach_games
from simcore.riichi2p import engine as E
from simcore.riichi2p import metrics as M
from simcore.riichi2p.scoring import YAKU, YAKUMAN_MASK
from tests.reach_checks import check_reach
from tests.riichi2p.test_engine import _games

from riichi2p.script import discard, play, riichi, stack

RON = E.A_RON
FAR = "2468m 2468p 2468s 1z"           # far from tenpai, nothing the other wants
DEALER = "123m 456m 789p 55s 34s"      # tenpai on 2s-5s: pinfu (1m dora under 9m)
OTHER = "234p 567p 234s 678s 6m"       # tenpai on 6m: tanyao


def bit(name: str) -> int:
    return 1 << YAKU.index(name)


def _scenario(name: str, policy: str | None = None, **rules):
    fam, sc = families.load(name)
    data = sc.to_dict()
    data.update(rules)
    if policy:
        data["players"] = [{"policy": policy, "params": {}}] * 2
    return fam, fam.SCENARIOS.from_dict(data, name=f"{name}_test")


def test_reach_in_the_default_and_the_local_yaku_scenarios():
    fam, sc = families.load("riichi2p")
    rows, reached = check_reach(fam, sc)
    by_name = dict(zip([r["name"] for r in rows], reached.sum(axis=0)))
    assert by_name["riichi"] > 0 and by_name["menzen_tsumo"] > 0 and by_name["pinfu"] > 0
    for moment in ("haitei", "houtei", "rinshan", "ippatsu", "dora", "ura"):
        assert by_name[moment] == 0
    fam, sc = families.load("riichi2p_local_yaku")
    check_reach(fam, sc, games=400)


@pytest.mark.parametrize("name, policy, rules", [
    ("riichi2p", None, {}),
    ("riichi2p", "baseline", {"red_fives": True, "chiitoitsu": "50fu1han", "kuitan": False}),
    ("riichi2p_local_yaku", "greedy", {"yakuman_stacking": False, "double_yakuman": True}),
    ("riichi2p_full_wall", "greedy", {"red_fives": True, "honroutou_han": 3}),
])
def test_the_yaku_table_accounts_for_every_han_of_every_win(name, policy, rules):
    """Game by game the han over the rows are the han of the wins (a yakuman 13 a multiple),
    and win by win a regular win's han are its yaku's (as a closed or an open hand) and its
    dora, ura and red fives."""
    fam, sc = _scenario(name, policy, **rules)
    idx = np.arange(300)
    b = fam.SIMULATOR(sc).play(idx, 3)
    data = fam.SCENARIOS.payload(sc)
    rows, x, fired, wins, total = fam.point_sources(idx, b, data)
    assert [r["name"] for r in rows] == list(YAKU)
    np.testing.assert_array_equal(x.sum(axis=1), total)
    r = b.rounds
    won, xr, tr = M._win_han(r, data)
    np.testing.assert_array_equal(xr.sum(axis=1), tr)
    assert wins.sum() == won.sum() > 100
    regular = won & (r[:, E.RF_YAKUMAN] == 0) & (r[:, E.RF_LIMIT] != 7)
    np.testing.assert_array_equal(tr[regular], r[regular, E.RF_HAN])
    assert np.all(x >= 0) and np.all((x > 0) <= (fired > 0))
    # the dora, ura and red columns say what the bits do
    for field, name in ((E.RF_DORA, "dora"), (E.RF_URA, "ura"), (E.RF_RED, "red")):
        np.testing.assert_array_equal(r[won, field] > 0, (r[won, E.RF_YAKU] & bit(name)) != 0)


def _win(n_rf, yaku_bits, yakuman=0, han=0, limit=0):
    rec = np.zeros(n_rf, np.int64)
    rec[E.RF_OUTCOME], rec[E.RF_WINNER], rec[E.RF_YAKU] = E.OUT_RON, 0, yaku_bits
    rec[E.RF_YAKUMAN], rec[E.RF_HAN], rec[E.RF_LIMIT] = yakuman, han, limit
    return rec


def test_yakuman_and_renhou_are_shared_out_in_han():
    """A wait's double to the yakuman it doubles; with stacking off the win's multiple to its
    largest yakuman; renhou the han of its limit."""
    data = dict(families.load("riichi2p_local_yaku")[1].to_dict(), double_yakuman=True)
    recs = np.array([
        _win(E.N_RF, bit("kokushi"), yakuman=2),                          # 13-sided
        _win(E.N_RF, bit("daisuushii") | bit("tsuuiisou"), yakuman=3),
        _win(E.N_RF, bit("daisangen") | bit("tsuuiisou"), yakuman=1),    # stacking off
        _win(E.N_RF, bit("renhou"), han=2, limit=7),
    ])
    won, x, total = M._win_han(recs, data)
    col = {n: YAKU.index(n) for n in YAKU}
    assert won.all() and list(total) == [26, 39, 13, 5]
    np.testing.assert_array_equal(x.sum(axis=1), total)
    assert x[0, col["kokushi"]] == 26
    assert (x[1, col["daisuushii"]], x[1, col["tsuuiisou"]]) == (26, 13)
    assert x[2, col["daisangen"]] + x[2, col["tsuuiisou"]] == 13
    assert x[3, col["renhou"]] == 5


def test_a_closed_tenpai_hand_at_the_draw_was_within_reach_of_its_yaku():
    """Closed and tenpai without riichi: its waits score pinfu as a ron and menzen tsumo as a
    tsumo; the far hand reached nothing; nothing of the moment (haitei) is noted."""
    wall = stack(DEALER, FAR, draws="1z 7z", indicator="9m")
    h = play(wall, {0: [discard("1z")], 1: [discard("7z")]}, rules={"live_wall": 2})
    assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and h.rec[E.RF_TENPAI] == 1
    reach = h.rec[E.RF_REACH0]
    assert reach & bit("pinfu") and reach & bit("menzen_tsumo")
    assert not reach & (bit("riichi") | bit("haitei") | bit("houtei") | bit("tanyao"))
    assert h.rec[E.RF_REACH1] == 0


def test_a_riichi_ronned_on_its_tile_was_never_within_reach_of_riichi():
    wall = stack(DEALER, OTHER, draws="1z 7z 6m", indicator="9m")
    h = play(wall, {0: [discard("1z"), riichi("6m")], 1: [discard("7z"), RON]})
    assert h.rec[E.RF_OUTCOME] == E.OUT_RON and h.rec[E.RF_RIICHI] == 0
    assert h.rec[E.RF_REACH0] & bit("pinfu") and not h.rec[E.RF_REACH0] & bit("riichi")
    assert h.rec[E.RF_REACH1] & bit("tanyao")
    assert h.rec[E.RF_REACH1] & h.rec[E.RF_YAKU] == h.rec[E.RF_YAKU]


def test_an_established_riichi_is_within_reach_of_riichi():
    wall = stack(DEALER, FAR, draws="1z 7z 6m 3z 4z 2z", indicator="9m")
    h = play(wall, {0: [discard("1z"), riichi("6m")],
                    1: [discard("7z"), discard("3z"), discard("2z")]}, rules={"live_wall": 6})
    assert h.rec[E.RF_OUTCOME] == E.OUT_DRAW and h.rec[E.RF_RIICHI] == 1
    assert h.rec[E.RF_TENPAI] == 1
    reach = h.rec[E.RF_REACH0]
    assert reach & bit("riichi") and reach & bit("pinfu") and not reach & bit("ippatsu")


@pytest.mark.parametrize("policy", ["greedy", "baseline"])
def test_whole_games_note_reach_where_it_must_be(policy):
    """In the games that measure reach: a seat in riichi at an exhaustive draw (tenpai, and
    riichi is a yaku) was within reach of riichi (or of a yakuman, which a yakuman wait scores
    alone); a winner was within reach of everything it won with. Elsewhere the columns stay
    0."""
    _, r = _games(policy, range(400), debug=False)
    sample = reach_games(r[:, E.RF_GAME])
    reach = r[:, E.RF_REACH0:E.RF_REACH1 + 1]
    assert np.all(reach[~sample] == 0)
    drawn = sample & (r[:, E.RF_OUTCOME] == E.OUT_DRAW)
    cases = 0
    for s in range(2):
        in_riichi = drawn & ((r[:, E.RF_RIICHI] >> s) & 1 == 1)
        assert np.all((r[in_riichi, E.RF_TENPAI] >> s) & 1 == 1)
        assert np.all(reach[in_riichi, s] & (bit("riichi") | bit("double_riichi") |
                                             YAKUMAN_MASK) != 0)
        cases += in_riichi.sum()
    assert cases > 5          # the check above has cases
    won = sample & ((r[:, E.RF_OUTCOME] == E.OUT_TSUMO) | (r[:, E.RF_OUTCOME] == E.OUT_RON))
    winner = np.where(r[:, E.RF_WINNER] == 0, reach[:, 0], reach[:, 1])
    assert np.all(winner[won] & r[won, E.RF_YAKU] == r[won, E.RF_YAKU])


def test_run_prints_the_yaku_table_and_whether_a_yaku_is_worth_chasing():
    from click.testing import CliRunner
    from simcore.cli import main
    r = CliRunner().invoke(main, ["run", "riichi2p", "--games", "800", "--no-save", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "yaku value table" in r.output and "is it worth chasing?" in r.output
    assert any(line.strip().startswith("menzen_tsumo") for line in r.output.splitlines())
