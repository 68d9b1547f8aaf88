"""Issue 46: values the engine cannot hold. Emoji's ``scoring.base: 1.0e+300`` (and multipliers
of 1e308, ``dealer_factor: 1.0e+300``, ``dora_points: 1.0e+19``) overflowed the 64-bit chip
counts: wins came out negative and counted as no win, exit 0. Every family now declares what its
engine forms from the scenario's numbers and what stores it (``worst_cases`` in its schema), and
the kit's loader refuses a scenario that could overflow: one line naming the key and the file,
exit 2, nothing written; a large value that fits still loads."""

import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from simcore.cli import main
from simcore.family import registry as families

TOO_BIG = [
    ("emoji", "extends: emoji\nscoring:\n  base: 1.0e+300\n", "scoring.base"),
    ("emoji", "extends: emoji\nscoring:\n  calibration: free\n  yaku:\n    tanyao: 1.0e+308\n",
     "scoring.yaku.tanyao"),
    ("emoji", "extends: emoji\nscoring:\n  dealer_factor: 1.0e+300\n", "scoring.dealer_factor"),
    ("emoji", "extends: emoji\nscoring:\n  calibration: free\n  dora_points: 1.0e+19\n",
     "scoring.dora_points"),
    ("emoji", "extends: emoji\nchips:\n  start: 1000000000\n", "chips.start"),
    ("momojan", "extends: new_edition\nscoring:\n  double_factor: 1000000000000\n",
     "scoring.double_factor"),
    ("momojan", "extends: new_edition\nscoring:\n  ron_bonus: 40000\n", "scoring.ron_bonus"),
    ("ptrump", "extends: ptrump_2p\nscoring:\n  additive:\n    dora:\n      points: 1000\n",
     "scoring.additive.dora.points"),
    ("ptrump", "extends: ptrump_2p\nriichi:\n  deposit: 1000\n", "riichi.deposit"),
    # two keys set, one harmless: the key named is the one that overflows (each bound read
    # the d worst_cases was called with, so resetting a key changed nothing)
    ("ptrump", "extends: ptrump_2p\nscoring:\n  yaku:\n    tanyao:\n      points: 2\n"
     "  additive:\n    dora:\n      points: 1000\n", "scoring.additive.dora.points"),
    ("riichi2p", "extends: riichi2p\nhonba_value: 1000000000\n", "honba_value"),
]

LARGE_BUT_FINE = [
    "extends: emoji\nscoring:\n  base: 10000\n",
    "extends: emoji\nchips:\n  start: 100000000\n",
    "extends: new_edition\nstarting_points: 100000000\nscoring:\n  ron_bonus: 30000\n",
    "extends: ptrump_2p\nscoring:\n  additive:\n    tenhou:\n      points: 1000\n"
    "match:\n  max_rounds: 10000\n",
    "extends: riichi2p\nhonba_value: 1000000\n",
    "extends: riichi2p\nstart_points: [1000000000, 1000000000]\n",
]


def test_every_family_declares_its_worst_cases():
    for name in families.names():
        loader = families.get(name).SCENARIOS
        assert loader.WORST_CASES is not None, name
        sc = families.get(name).SCENARIOS.load(families.get(name).DEFAULT_SCENARIO)
        assert loader.WORST_CASES(sc.to_dict()), name


@pytest.mark.parametrize("family, text, key", TOO_BIG)
def test_values_the_engine_cannot_hold_are_refused_before_play(tmp_path, family, text, key):
    f = tmp_path / "big.yaml"
    f.write_text(text)
    out = tmp_path / "out"
    for args in (["validate", str(f)], ["run", str(f), "--games", "4", "--workers", "1",
                                         "--out", str(out)]):
        r = CliRunner().invoke(main, args)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 2 and len(lines) == 1, r.output
        assert f"big.yaml: {key}: " in lines[0] and "more than the engine can hold" in lines[0]
        assert "Traceback" not in r.output
    assert not out.exists()


@pytest.mark.parametrize("text", LARGE_BUT_FINE)
def test_large_values_that_fit_still_load(tmp_path, text):
    f = tmp_path / "large.yaml"
    f.write_text(text)
    r = CliRunner().invoke(main, ["validate", str(f)])
    assert r.exit_code == 0, r.output


def test_sweep_set_names_the_option():
    r = CliRunner().invoke(main, ["sweep", "emoji", "--set", "scoring.base=1.0e+300,100",
                                  "--games", "4", "--no-save"])
    assert r.exit_code == 2 and r.output.startswith("momojan-sim: error: --set scoring.base: ")


def test_emoji_bound_is_the_sources_maximum_for_the_default_table():
    from simcore.emoji.calibration import max_win_value
    d = families.get("emoji").SCENARIOS.load("emoji").to_dict()
    assert max_win_value(d) == math.ceil(100 * 1.5 * 1215) + 3 * 100


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0, 7.0, 20.0]), min_size=16,
                max_size=16),
       st.integers(1, 10 ** 4), st.sampled_from([1.0, 1.5, 3.0]), st.integers(0, 500),
       st.integers(0, 10 ** 6), st.booleans(), st.sampled_from([1, 5, 15]), st.integers(0, 2),
       st.booleans())
def test_emoji_bound_holds_every_win(mults, base, dealer_factor, dora_points, pick, tsumo, turn,
                                      riichi_turn, dealer):
    """No win the scorer values exceeds the bound (random tables, hands, feasible situations:
    riichi declared before the win's turn)."""
    from simcore.emoji import scoring as S
    from simcore.emoji.calibration import max_win_value, winning_hands
    yaku = {**dict(zip(S.YAKU, mults)), "all_runs": 1.5}   # nakayoshi: all_runs is x1.5
    d = families.get("emoji").SCENARIOS.load("emoji").to_dict()   # the bound of this table, loaded or not
    d["scoring"].update(base=base, dealer_factor=dealer_factor, dora_points=dora_points,
                        yaku=yaku)
    hands = winning_hands(False)
    c = hands[pick % len(hands)]
    sr = S.scoring_rules(yaku, base=base, dealer_factor=dealer_factor, dora_points=dora_points)
    dora = int(np.argmax(c))   # a kind the hand holds most of: the most dora
    riichi_turn = min(riichi_turn, turn - 1)
    v, _, _ = S.score_win(c, dora, tsumo, riichi_turn, turn, 15, dealer, dora, sr,
                          np.zeros(S.DECOMP_COLS, np.int64))
    assert 0 <= v <= max_win_value(d)


def test_the_declared_engine_limits_match_the_engines():
    from simcore.momojan import engine as momojan_engine, schema as momojan_schema
    from simcore.ptrump import engine as ptrump_engine, schema as ptrump_schema
    assert momojan_schema.MAX_ROUNDS == momojan_engine.MAX_ROUNDS
    assert ptrump_schema.SCORE_PACKED == ptrump_engine.SCORE_OFFSET - 1
