"""Issue 46, emoji: the readings settled in spec emoji.md §16 pinned on stacked walls, the pot at
game end under ``to_top`` (§10, §9.6), ``score`` reading the scenario's rules as play does,
``supersedes`` cycles refused, and the replay's ledger events (ante, deposit, refund, discarded
pot) reconciling with the records."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from emojiwalls import play_scripted_round, stack_wall as _wall
from policies.emoji import POLICIES
from simcore.cli import main
from simcore.emoji import engine as E
from simcore.emoji import hand as H
from simcore.emoji import scoring as S
from simcore.emoji.rules_array import build_rules_array
from simcore.emoji.tiles import N_KINDS, parse_tiles

T = H.tables(False)


def _k(text):
    return parse_tiles(text)[0]




def _round(wall, scripts=None, ra=None, chips=(5000,) * 4, log=False):
    """One round (:func:`emojiwalls.play_scripted_round`): (chip deltas as a list, record,
    events)."""
    delta, rec, events = play_scripted_round(wall, scripts, ra, chips, log)
    return list(delta), rec, events


# seat 3 (56h 888k 33z) waits on 4h and 7h; seat 0 throws 4h (the dora: 200), seat 2 throws 7h
# declaring riichi (123m 456m 9k left, waiting on 9k): seat 3 is paid by seat 0
VOID = dict(hands={0: "147k 19m 25h 1z", 1: "257k 28m 6h 2z", 2: "123m 456m 9k",
                   3: "56h 888k 33z"}, indicator="3h", draws={1: ["4h", "9h", "7h", "1z"]})


def test_riichi_if_ronned_void_also_when_the_winner_is_paid_from_another_discard():
    """§16: the declaring discard counts as ronned when it completes a winner's hand, even if
    under ron_source that winner is paid from another discard."""
    wall = _wall(**VOID)
    scripts = {2: [N_KINDS + _k("7h")]}
    delta, rec, _ = _round(wall, scripts)
    assert rec[E.RF_WINNERS] == 0b1000 and rec[E.RF_RON_FROM] == 0b0001
    assert rec[E.RF_VALUE3] == 200 and rec[E.RF_RIICHI] == 0b0100
    assert delta == [-220, -20, -120, 360]            # stands: the deposit goes to the winner
    delta, rec, ev = _round(wall, scripts, build_rules_array({"riichi.if_ronned": "void"}),
                            log=True)
    assert rec[E.RF_RON_FROM] == 0b0001 and rec[E.RF_RIICHI] == 0
    assert delta == [-220, -20, -20, 260]             # void: seat 2 has its 100 back
    assert [(e[1], e[2]) for e in ev if e[0] == E.EV_REFUND] == [(2, 100)]
    assert [(e[1], e[2]) for e in ev if e[0] == E.EV_DEPOSIT] == [(2, 100)]


# spec §15 example 4 on turn 1: seat 1 (438) and seat 3 (600) win by tsumo at once
TWO_TSUMOS = dict(hands={0: "147k 19m 15h", 1: "345k 678m 2h", 2: "258k 28m 5h 6h",
                         3: "11z 22z 33z 9k"}, indicator="5m",
                  draws={1: ["3m", "1k", "4m", "3h"], 2: ["7h", "2h", "9h", "9k"]})


def test_tsumo_winners_pay_each_other_false_each_non_winner_pays_as_if_alone():
    """§16: a non-winner pays each tsumo winner as if it were alone; winners pay nothing to
    each other."""
    wall = _wall(**TWO_TSUMOS)
    ra = build_rules_array({"settlement.tsumo_winners_pay_each_other": False})
    delta, rec, _ = _round(wall, ra=ra)
    assert (rec[E.RF_VALUE1], rec[E.RF_VALUE3]) == (438, 600)
    assert delta == [-20 - 146 - 200, -20 + 2 * 146 + 40, -20 - 146 - 200, -20 + 2 * 200 + 40]


def test_a_capped_payment_to_several_payees_is_divided_in_proportion():
    """§16: seat 0 (100 chips after the ante) owes seat 1 146 and seat 3 200; it pays 100 in
    proportion (42.2 and 57.8: floor 42 and 57), the remainder 1 to seat 1, the first payee in
    turn order from seat 0."""
    wall = _wall(**TWO_TSUMOS)
    ra = build_rules_array({"settlement.payments": "cap_at_balance"})
    delta, rec, ev = _round(wall, ra=ra, chips=(120, 5000, 5000, 5000), log=True)
    assert (rec[E.RF_VALUE1], rec[E.RF_VALUE3]) == (438, 600)
    paid_by_0 = {int(e[2]): int(e[3]) for e in ev if e[0] == E.EV_PAYMENT and e[1] == 0}
    assert paid_by_0 == {1: 43, 3: 57}
    assert delta == [-120, -20 + 43 + 146 + 146 - 200 + 40, -20 - 146 - 200,
                     -20 + 57 + 200 + 200 - 146 + 40]
    assert sum(delta) == 0


def test_wall_turns_n_makes_turn_n_the_last_turn_in_play():
    """§16: wall.turns N < 15: turn N is the last (last_tile); a turn-1 tsumo with turns 1 is
    tenhou and last tile at once."""
    hands = {0: "112233k 9k", 1: "5k 49m 4h 8h 1z 2z", 2: "6k 2m 6m 1h 5h 9h 3z",
             3: "8k 3m 7m 2h 6h 1z 2z"}
    wall = _wall(hands, "1k", {1: ["9k", "3z", "9h", "8h"]})
    _, rec, _ = _round(wall, ra=build_rules_array({"wall.turns": 1}))
    assert rec[E.RF_OUTCOME] == E.OUT_TSUMO and rec[E.RF_TURNS] == 1
    assert (rec[E.RF_YAKU0] >> S.Y_LAST_TILE) & 1 and (rec[E.RF_YAKU0] >> S.Y_TENHOU) & 1
    _, rec, _ = _round(wall, ra=build_rules_array({"wall.turns": 2}))
    assert rec[E.RF_TURNS] == 1 and not (rec[E.RF_YAKU0] >> S.Y_LAST_TILE) & 1


def test_honor_cycle_has_no_effect_under_dora_next_global_and_validate_warns(tmp_path):
    """§16: under dora_next: global the dora is the next kind id mod 30, whatever the honour
    cycle; validate says so."""
    for cycle in (("cat", "fish", "bird"), ("bird", "fish", "cat")):
        ra = build_rules_array({"wall.dora_next": "global", "wall.honor_cycle": cycle})
        assert [E.next_kind(k, ra) for k in (26, 27, 28, 29)] == [27, 28, 29, 0]
    f = tmp_path / "global.yaml"
    f.write_text("extends: emoji\nwall:\n  dora_next: global\n  honor_cycle: [bird, fish, cat]\n")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 0, r.output
    assert "warning: wall.honor_cycle has no effect while wall.dora_next is global" in r.output


def test_the_no_effect_warning_is_said_once_and_never_before_an_error(tmp_path, capfd):
    """It was printed by every validation (each worker's scenario rebuilt from its data too),
    and before a later key's error line."""
    from simcore.family import registry as families
    text = "extends: emoji\nwall:\n  dora_next: global\n  honor_cycle: [bird, fish, cat]\n"
    f = tmp_path / "global.yaml"
    f.write_text(text)
    loader = families.get("emoji").SCENARIOS
    sc = loader.load(str(f))
    loader.from_dict(sc.to_dict())          # as a worker rebuilds it: no second warning
    assert capfd.readouterr().err.count("warning: wall.honor_cycle") == 1
    f.write_text(text + "zork: 1\n")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 2 and "warning" not in r.output and "zork" in r.output
    # the same kit mechanism serves riichi2p's dependent keys
    f.write_text("extends: riichi2p\natozuke: true\natozuke_first_call: literal\n")
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 0 and "warning: atozuke_first_call has no effect while atozuke is " \
        "true" in r.output, r.output


# ---- the pot at game end ------------------------------------------------------------------

def _games(ra, policy="idle", n=80):
    ids, params = POLICIES.seat_arrays([{"policy": policy}] * 4, 4)
    g = np.zeros((n, E.N_GF), np.int64)
    r = np.zeros((n * 12, E.N_RF), np.int64)
    E.play_games(np.arange(n, dtype=np.int64), np.uint64(3), E.new_state(False), ra,
                 S.scoring_rules(), T, ids, params, True, r, g)
    return g


def test_pot_at_game_end_to_top_records_no_pot_left():
    """§10, §9.6: under to_top the top seat takes the pot, so the record's pot_left (the chips
    discarded, mean_pot_left) is 0 and the chips alone hold all 20,000; under discard the same
    games leave that pot."""
    keep = _games(build_rules_array({"game_length.pot_at_game_end": "discard"}))
    top = _games(build_rules_array({"game_length.pot_at_game_end": "to_top"}))
    chips = slice(E.GF_CHIPS0, E.GF_CHIPS0 + 4)
    assert (keep[:, E.GF_POT_LEFT] > 0).any()           # idle seats: pots are left
    assert np.all(top[:, E.GF_POT_LEFT] == 0)
    assert np.all(top[:, chips].sum(axis=1) == 20000)
    assert np.array_equal(top[:, chips].sum(axis=1) - keep[:, chips].sum(axis=1),
                          keep[:, E.GF_POT_LEFT])


# ---- score reads the scenario's rules as play does -------------------------------------------

def _score(tmp_path, rules: str, hand: str):
    f = tmp_path / "rules.yaml"
    f.write_text("extends: emoji\n" + rules)
    return CliRunner().invoke(main, ["score", "--game", "emoji", "--rules", str(f), hand,
                                     "--json"])


def test_score_refuses_a_yakuless_completion_under_require_yaku(tmp_path):
    r = _score(tmp_path, "", "456h 888k 33z +4h")
    assert r.exit_code == 0 and json.loads(r.stdout)["yaku"] == {}
    r = _score(tmp_path, "shapes:\n  require_yaku: true\n", "456h 888k 33z +4h")
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
    assert "require_yaku" in r.output


def test_score_gives_tenhou_to_the_dealer_only_under_dealer_only(tmp_path):
    hand = "123k 123k 99k tsumo turn:1"
    yaku = json.loads(_score(tmp_path, "", hand).stdout)["yaku"]
    assert "tenhou" in yaku
    rules = "scoring:\n  tenhou_seats: dealer_only\n"
    assert "tenhou" not in json.loads(_score(tmp_path, rules, hand).stdout)["yaku"]
    assert "tenhou" in json.loads(_score(tmp_path, rules, hand + " dealer").stdout)["yaku"]


def test_score_last_means_the_scenarios_last_turn(tmp_path):
    """§16: the word last is turn N under wall.turns: N (not turn 15)."""
    r = _score(tmp_path, "wall:\n  turns: 6\n", "123k 123k 99k tsumo last")
    out = json.loads(r.stdout)
    assert out["turn"] == 6 and "last_tile" in out["yaku"]
    r = _score(tmp_path, "wall:\n  turns: 6\n", "123k 123k 99k tsumo")
    out = json.loads(r.stdout)
    assert out["turn"] < 6 and "last_tile" not in out["yaku"]
    r = _score(tmp_path, "wall:\n  turns: 6\n", "123k 123k 99k tsumo turn:6")
    assert "last_tile" in json.loads(r.stdout)["yaku"]


# ---- supersedes cycles ----------------------------------------------------------------------

@pytest.mark.parametrize("table, cycle", [
    ("{machibuse: [debana_machibuse], debana_machibuse: [machibuse]}",
     "machibuse -> debana_machibuse -> machibuse"),
    ("{tsumo: [tenhou], tenhou: [last_tile], last_tile: [tsumo]}",
     "tsumo -> tenhou -> last_tile -> tsumo"),
])
def test_supersedes_cycles_are_refused(tmp_path, table, cycle):
    f = tmp_path / "cycle.yaml"
    f.write_text(f"extends: emoji\nscoring:\n  calibration: free\n  supersedes: {table}\n")
    for args in (["validate", str(f)], ["run", str(f), "--games", "5", "--workers", "1",
                                         "--out", str(tmp_path / "out")]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1, r.output
        assert "cycle.yaml: scoring.supersedes." in r.output and cycle in r.output
    assert not (tmp_path / "out").exists()
    f.write_text("extends: emoji\nscoring:\n  calibration: free\n  supersedes: "
                 "{tenhou: [tsumo], tsumo: [last_tile]}\n")
    assert CliRunner().invoke(main, ["validate", str(f)]).exit_code == 0


# ---- the replay's ledger --------------------------------------------------------------------

@pytest.mark.parametrize("rules", [
    {},
    {"riichi": {"if_ronned": "void"}, "game_length": {"pot_at_game_end": "to_top"}},
    {"settlement": {"draw_no_tenpai_pot": "discard", "payments": "cap_at_balance"},
     "chips": {"start": 300}, "wall": {"turns": 3}},
])
def test_replay_events_reconcile_with_the_records(rules):
    """§16: antes, deposits, void refunds, payments, pot shares and discarded pots are events;
    summed they give every round's chips and pot and the game's final chips."""
    from simcore.family import registry as families
    fam = families.get("emoji")
    sc = fam.SCENARIOS.from_dict({"game": "emoji", **rules})
    sim = fam.SIMULATOR(sc)
    start = sc.get("chips.start")
    seen = set()
    for game in range(25):
        events, batch = sim.replay_events(5, game)
        chips, pot, n_round, discarded = [start] * 4, 0, 0, [0, 0]   # in rounds, at the end
        for typ, seat, a, b, _, _ in (tuple(int(x) for x in e) for e in events):
            seen.add(typ)
            if typ in (E.EV_ANTE, E.EV_DEPOSIT):
                chips[seat] -= a
                pot += a
            elif typ == E.EV_REFUND:
                chips[seat] += a
                pot -= a
            elif typ == E.EV_PAYMENT:
                chips[seat] -= b
                chips[a] += b
            elif typ == E.EV_POT_SHARE:
                chips[seat] += a
                pot -= a
            elif typ == E.EV_POT_DISCARDED:
                pot -= a
                discarded[n_round == len(batch.rounds)] += a
            elif typ == E.EV_ROUND_END:
                rec = batch.rounds[n_round]
                assert chips == [int(rec[E.RF_CHIPS0 + i]) for i in range(4)]
                assert pot == a == rec[E.RF_POT_LEFT]
                n_round += 1
        g = batch.games[0]
        assert chips == [int(g[E.GF_CHIPS0 + i]) for i in range(4)] and pot == 0
        assert discarded[1] == g[E.GF_POT_LEFT] and sum(chips) + sum(discarded) == 4 * start
    assert {E.EV_ANTE, E.EV_PAYMENT, E.EV_POT_SHARE} <= seen
    if rules.get("riichi"):
        assert E.EV_REFUND in seen
    if rules.get("settlement"):
        assert E.EV_POT_DISCARDED in seen


def test_the_replay_prints_the_ledger_events():
    r = CliRunner().invoke(main, ["replay", "emoji", "--game", "2"])
    assert r.exit_code == 0, r.output
    assert "ante: every seat puts 20 into the pot" in r.stdout
    assert "(riichi deposit)" in r.stdout
