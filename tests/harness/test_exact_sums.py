"""The sufficient statistics stay exact when per-game values are large (a QA trial, 7 December:
`scoring.double_factor: 10000000` made a game's margin about 10^8; the int64 sums of squares
wrapped round after a thousand games and `run` printed an interval of width 0 around the mean).
Sums that could leave int64 are kept in Python integers; small ones stay int64."""

import json

import numpy as np
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.cli import main
from simcore.stats.luck_sums import LuckSums
from simcore.stats.moments import MomentSums, ratio


def _exact(z):
    """Sums and cross products of z (n, k, m) in plain Python integers."""
    n, k, m = z.shape
    s = [[sum(int(z[i, j, a]) for i in range(n)) for a in range(m)] for j in range(k)]
    c = [[[sum(int(z[i, j, a]) * int(z[i, j, b]) for i in range(n)) for b in range(m)]
          for a in range(m)] for j in range(k)]
    return s, c


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(0, 62), st.integers(0, 2 ** 32 - 1),
       st.integers(2, 6))
def test_sums_are_exact_and_merge_to_the_whole_whatever_the_size(n, bits, seed, parts):
    gen = np.random.default_rng(seed)
    hi = 2 ** bits
    z = gen.integers(-hi, hi + 1, size=(n, 2, 4), dtype=np.int64)
    s, c = _exact(z)
    whole = MomentSums.from_values(z)
    assert whole.s.tolist() == s and whole.c.tolist() == c
    cuts = np.sort(gen.integers(0, n + 1, parts - 1))
    merged = None
    for piece in np.split(z, cuts):
        m = MomentSums.from_values(piece)
        merged = m if merged is None else merged.merge(m)
    assert merged.s.tolist() == s and merged.c.tolist() == c
    back = MomentSums.from_json(json.loads(json.dumps(merged.to_json())))
    assert back.s.tolist() == s and back.c.tolist() == c


def test_small_values_stay_int64_and_large_ones_give_a_true_interval():
    small = MomentSums.from_values(np.ones((1000, 1, 2), np.int64))
    assert small.s.dtype == np.int64 and small.c.dtype == np.int64
    gen = np.random.default_rng(1)
    x = gen.integers(0, 2 * 10 ** 8, 5000)              # margins of 10^8 points
    z = np.stack([x, np.ones_like(x)], axis=1)[:, None, :]
    big = MomentSums.from_values(z)
    assert big.c.dtype == object
    r = ratio(big, 0)
    assert r.value == x.mean()
    assert abs(r.se / (x.std(ddof=1) / np.sqrt(len(x))) - 1) < 1e-9


def test_luck_sums_are_exact_with_large_values():
    gen = np.random.default_rng(2)
    z = gen.integers(-10 ** 9, 10 ** 9, size=(3000, 1, 2), dtype=np.int64)
    controls = gen.normal(size=(3000, 2)) * 1000
    idx = np.arange(3000)
    lk = LuckSums.from_values(idx, z, controls, ("a", "b"))
    z0 = z[idx % 2 == 0]
    assert lk.c0.tolist() == _exact(z0)[1]
    halves = [LuckSums.from_values(idx[i::2], z[i::2], controls[i::2], ("a", "b"))
              for i in (0, 1)]
    both = halves[0].merge(halves[1])
    assert both.czl.tolist() == lk.czl.tolist() and both.c0.tolist() == lk.c0.tolist()
    back = LuckSums.from_json(json.loads(json.dumps(lk.to_json())))
    assert back.c0.tolist() == lk.c0.tolist()


def test_a_run_of_large_point_values_prints_an_interval_that_is_not_a_point(tmp_path):
    f = tmp_path / "big.yaml"
    f.write_text("extends: new_edition\nname: big\nscoring:\n  double_factor: 10000000\n")
    r = CliRunner().invoke(main, ["run", str(f), "--games", "1500", "--no-save",
                                  "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    m = out["metrics"]["mean_final_margin"]
    assert m["ci"][0] < m["value"] < m["ci"][1]
