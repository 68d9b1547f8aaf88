"""Interval estimates, and the mergeable sufficient statistics every run and comparison streams.

Game-agnostic. A game family turns each game into, for every metric, an integer numerator ``x``
and denominator ``y`` (a game-level rate: x = 1 if it happened, y = 1; a round-level rate: x =
rounds where it happened, y = rounds; a mean per win: x = points summed over the game's wins,
y = wins). A run of V variants on the same game indices gives per game and metric a vector
``z = (x_0, y_0, x_1, y_1, ..., x_{V-1}, y_{V-1})``. :class:`MomentSums` keeps, per metric, the
game count, the sums of ``z`` and the sums of all its cross products. That is all the delta
method needs (ratios, their variances, paired differences and their covariances), the sums are
integers (exact, and merged in any order to the same result), and memory does not grow with the
number of games.

The sums are int64 while every sum of products fits (per-game values up to 10^4 in absolute
value allow 9 * 10^10 games); where one could leave int64 (a scenario of large point values:
a doubling factor of 10^7 makes a game's margin 10^8, its square 10^16, and a thousand games
overflow) they are computed and kept in Python integers instead (numpy object arrays:
:mod:`simcore.stats.exact`), still exact and merged in any order to the same result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from simcore.stats.exact import exact_add, exact_array, exact_einsum, exact_sum

# No scipy.stats here: it costs 0.6-3 s at start-up, and every command and worker process imports
# this module; the few quantiles it needs come from scipy.special, bit for bit the same.
Z95 = 1.959963984540054  # float(scipy.stats.norm.ppf(0.975)), to the last bit


def wilson(successes: int, n: int, z: float = Z95) -> dict:
    """Rate with its Wilson score interval: ``{"value", "ci": [lo, hi], "n"}``.

    Wilson's interval stays inside [0, 1] and behaves at rates near 0 or 1, where the normal
    approximation does not (Wilson 1927; Brown, Cai & DasGupta 2001), with those authors' Poisson
    ends for 1-3 successes or failures (:func:`wilson_bounds_modified`).
    """
    if n == 0:
        return {"value": None, "ci": [None, None], "n": 0}
    lo, hi = wilson_bounds_modified(successes, n, z)
    return {"value": round(successes / n, 6), "ci": [round(lo, 6), round(hi, 6)], "n": n}


def wilson_bounds_modified(successes: float, n: float, z: float = Z95) -> tuple:
    """Wilson's bounds, the lower one for 1 to x* successes (x* = 2 up to 50 trials, else 3)
    taken down to the one-sided Poisson bound chi2_{2x}(alpha) / 2n, and the upper one likewise
    for as few failures: Brown, Cai & DasGupta's (2001, sec. 4.1.1) modified Wilson interval.
    Wilson's own lower bound is too high there: at 0.5 expected successes in 750 trials it
    covered 91% of the time, the modified one 98% (``tests/harness/test_stats.py``)."""
    lo, hi = wilson_bounds(successes, n, z)
    x_star = 2 if n <= 50 else 3
    if 0 < successes <= x_star or 0 < n - successes <= x_star:
        alpha = 2 * _norm_sf(z)
        if 0 < successes <= x_star:
            lo = min(lo, _chi2_ppf(alpha, 2 * successes) / (2 * n))
        if 0 < n - successes <= x_star:
            hi = max(hi, 1 - _chi2_ppf(alpha, 2 * (n - successes)) / (2 * n))
    return lo, hi


def rate_bounds(value: float, se: float | None, units: float, z: float = Z95) -> tuple:
    """The 95% bounds of a rate of rounds or wins (``units`` of them, clustered in games, the
    delta method's standard error ``se`` with the game as the unit): the modified Wilson
    interval on the effective count, the count of independent trials that would give that
    variance, p (1 - p) / se^2, at most ``units`` (Korn & Graubard 1998, for proportions from
    clustered samples). Where events are many it is the delta method's interval; where they are
    few (a rare yaku's 1-4 wins) the normal interval clipped at 0 covered the truth 83-88% of
    the time (300 runs of 300 games of new_edition) and this one near 95%. No spread (none or
    all): Wilson's on the units."""
    n_eff = units
    if se and 0 < value < 1:
        n_eff = min(units, value * (1 - value) / se ** 2)
    return wilson_bounds_modified(value * n_eff, n_eff, z)


def wilson_bounds(successes: float, n: float, z: float = Z95) -> tuple:
    """The Wilson score interval's (lower, upper) bounds, unrounded (n > 0)."""
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values, z: float = Z95) -> dict:
    """Mean with a normal-approximation interval (fine for the thousands of samples runs have)."""
    n = len(values)
    if n == 0:
        return {"value": None, "ci": [None, None], "n": 0}
    m = float(sum(values)) / n
    var = float(sum((v - m) ** 2 for v in values)) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return {"value": round(m, 6), "ci": [round(m - half, 6), round(m + half, 6)], "n": n}


# ---------------------------------------------------------------------------------------------
# Sufficient statistics
# ---------------------------------------------------------------------------------------------

@dataclass
class MomentSums:
    """Sums over games of per-game metric components and of their cross products.

    Attributes
    ----------
    n : int
        Games.
    s : int64[k, m]
        ``s[j, a]`` = sum over games of component ``a`` of metric ``j``.
    c : int64[k, m, m]
        ``c[j, a, b]`` = sum over games of component ``a`` times component ``b`` of metric ``j``.

    g : int64[k, 3, V, V] or None
        Games that differ between two variants, by direction: ``g[j, q, a, b]`` = games in
        which quantity ``q`` of variant ``b`` exceeds variant ``a``'s (q = 0: the numerator
        x, 1: the complement y - x, 2: the denominator y). The moments cannot give these
        counts (except for 0/1 metrics), and they decide which interval holds: with few
        differing games a normal interval from their spread is too narrow
        (:mod:`simcore.studies.compare`). None where variants did not play the same games.

    Components come in (numerator, denominator) pairs, one pair per variant: ``m = 2 V``.
    """

    n: int
    s: np.ndarray
    c: np.ndarray
    g: np.ndarray | None = None
    # The luck controls' sums (simcore.stats.luck.LuckSums), where the family streams them.
    luck: object = None
    # Set on luck-corrected sums (simcore.stats.luck.corrected): the plain sums, which
    # metrics are corrected (bool[k]) and how many times narrower each interval got (float[k]).
    raw: object = field(default=None, repr=False)
    corrected: object = field(default=None, repr=False)
    narrowing: object = field(default=None, repr=False)

    @classmethod
    def from_values(cls, z: np.ndarray, luck=None) -> "MomentSums":
        """Sums of ``z`` (int64[n_games, k, m]): per-game components of k metrics (and the
        :class:`simcore.stats.luck.LuckSums` of the same games, if any)."""
        z = np.asarray(z, np.int64)
        return cls(int(z.shape[0]), exact_sum(z), exact_einsum("nka,nkb->kab", z, z),
                   differing_counts(z), luck)

    @classmethod
    def empty(cls, k: int, m: int) -> "MomentSums":
        v = m // 2
        return cls(0, np.zeros((k, m), np.int64), np.zeros((k, m, m), np.int64),
                   np.zeros((k, 3, v, v), np.int64))

    def merge(self, other: "MomentSums") -> "MomentSums":
        """The sums over both sets of games (exact; the order of merging does not matter)."""
        g = None if self.g is None or other.g is None else self.g + other.g
        # sums of no games carry no controls and take the other's; otherwise both must have them
        if self.n == 0 or other.n == 0:
            luck = other.luck if self.n == 0 else self.luck
        elif self.luck is None or other.luck is None or not self.luck.fits(other.luck):
            luck = None     # sums of games that did not all stream the same controls: plain
        else:
            luck = self.luck.merge(other.luck)
        return MomentSums(self.n + other.n, exact_add(self.s, other.s),
                          exact_add(self.c, other.c), g, luck)

    @property
    def variants(self) -> int:
        return self.s.shape[1] // 2

    def to_json(self) -> dict:
        """Plain data (for saving per chunk and resuming); :meth:`from_json` reads it back."""
        out = {"n": self.n, "s": self.s.tolist(), "c": self.c.tolist()}
        if self.g is not None:
            out["g"] = self.g.tolist()
        if self.luck is not None:
            out["luck"] = self.luck.to_json()
        return out

    @classmethod
    def from_json(cls, d: dict) -> "MomentSums":
        s = exact_array(d["s"])
        g = np.array(d["g"], np.int64) if "g" in d else None
        if g is not None and g.shape != (s.shape[0], 3, s.shape[1] // 2, s.shape[1] // 2):
            raise ValueError("g does not fit s")
        luck = None
        if "luck" in d:
            from simcore.stats.luck_sums import LuckSums
            luck = LuckSums.from_json(d["luck"])
            if luck.s0.shape != s.shape:
                raise ValueError("the luck sums do not fit s")
        return cls(int(d["n"]), s, exact_array(d["c"]), g, luck)


def differing_counts(z: np.ndarray) -> np.ndarray:
    """``g`` of :class:`MomentSums` for per-game components ``z`` (int64[n, k, 2 V])."""
    x, y = z[:, :, 0::2], z[:, :, 1::2]
    out = np.empty((z.shape[1], 3, x.shape[2], x.shape[2]), np.int64)
    for q, w in enumerate((x, y - x, y)):
        # [j, a, b]: games where w of b > w of a
        out[:, q] = (w[:, :, None, :] > w[:, :, :, None]).sum(axis=0)
    return out


# ---------------------------------------------------------------------------------------------
# Ratio estimates with the game as the unit (delta method)
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Ratio:
    """One variant's value of one metric: R = sum x / sum y over games."""

    value: float | None
    se: float | None       # standard error (delta method); None when undefined
    num: int               # sum of numerators
    den: int               # sum of denominators


def _num(x):
    """A sum as a Python number: an exact int for the plain (integer) sums, a float for
    luck-corrected ones (simcore.stats.luck)."""
    x = x.item() if hasattr(x, "item") else x
    if isinstance(x, float) and x.is_integer() and abs(x) < 2 ** 53:
        return int(x)     # a denominator, or an uncorrected metric: exact again
    return x


def _q(sums: MomentSums, j: int, a: int, b: int) -> int:
    """sum_i (x_a - R_a y_a)(x_b - R_b y_b) * Y_a * Y_b, exactly, in Python integers.

    With X, Y the sums and R = X / Y this is the cross product of the per-game linearised
    contributions, scaled by Y_a Y_b so that it stays an integer (no cancellation error: a
    comparison of a scenario with itself gets a variance of exactly 0).
    """
    xa, ya, xb, yb = 2 * a, 2 * a + 1, 2 * b, 2 * b + 1
    s, c = sums.s[j], sums.c[j]
    Xa, Ya, Xb, Yb = _num(s[xa]), _num(s[ya]), _num(s[xb]), _num(s[yb])
    return (_num(c[xa, xb]) * Ya * Yb - Xb * _num(c[xa, yb]) * Ya - Xa * _num(c[ya, xb]) * Yb
            + Xa * Xb * _num(c[ya, yb]))


def ratio(sums: MomentSums, j: int, v: int = 0) -> Ratio:
    """Metric ``j`` of variant ``v``, with the game as the unit of independence.

    R = X / Y is a ratio of two per-game sums (wins and their points, rounds and their
    outcomes). The rounds of a game are not independent (one game's scores, seats and dealer
    streak shape all its rounds), so the rounds cannot be treated as the sample; the games can.
    The delta method linearises R around the means: game i contributes u_i = (x_i - R y_i) / ybar,
    and Var(R) ~= sum u_i^2 / (n (n - 1)) (Cochran, Sampling Techniques, 1977, sec. 6.4: the
    ratio estimator under cluster sampling, the game being the cluster). It is the usual
    "cluster-robust" variance of a ratio, accurate once there are a few hundred games; for a
    game-level rate (y = 1) it is the binomial p (1 - p) / (n - 1).
    """
    X, Y = _num(sums.s[j, 2 * v]), _num(sums.s[j, 2 * v + 1])
    n = sums.n
    if Y == 0:
        return Ratio(None, None, X, Y)
    value = X / Y
    if n < 2:
        return Ratio(value, None, X, Y)
    var = _q(sums, j, v, v) * n / ((n - 1) * Y ** 4)
    return Ratio(value, math.sqrt(max(var, 0.0)), X, Y)


def ratio_covariance(sums: MomentSums, j: int) -> np.ndarray:
    """float64[V, V]: the covariance of metric ``j``'s values across the V variants of one
    study (delta method, the game as the unit; ``cov[a, a]`` is ``ratio(sums, j, a).se ** 2``).
    Variants played on the same games covary (common random numbers), and a fit across them
    (``simcore.studies.solve_design``) needs every pair's term, not only each variant's own. Rows of a
    variant with no denominator are NaN."""
    v, n = sums.variants, sums.n
    out = np.full((v, v), np.nan)
    dens = [_num(sums.s[j, 2 * a + 1]) for a in range(v)]
    if n < 2:
        return out
    for a in range(v):
        for b in range(a, v):
            if dens[a] and dens[b]:
                out[a, b] = out[b, a] = _q(sums, j, a, b) * n / ((n - 1) * dens[a] ** 2
                                                                 * dens[b] ** 2)
    return out


def ratio_ci(r: Ratio, z: float = Z95) -> list:
    if r.value is None or r.se is None:
        return [None, None]
    return [r.value - z * r.se, r.value + z * r.se]


@dataclass(frozen=True)
class Difference:
    """Variant b minus variant a for one metric, from the same games (or independent ones)."""

    a: Ratio
    b: Ratio
    diff: float | None
    se: float | None          # using the pairing (covariance of a and b over games)
    se_independent: float | None  # what independent runs of the same size would give
    correlation: float | None  # per-game correlation of a's and b's linearised contributions

    @property
    def narrowing(self) -> float | None:
        """How many times narrower the paired interval is than independent runs' would be."""
        if self.se is None or self.se_independent is None:
            return None
        if self.se == 0:
            return math.inf if self.se_independent > 0 else 1.0
        return self.se_independent / self.se


def difference(sums: MomentSums, j: int, a: int = 0, b: int = 1, paired: bool = True) -> Difference:
    """D = R_b - R_a for metric ``j`` by the delta method on the per-game sums.

    Why the delta method and not a paired bootstrap: it needs only the streamed sums (no stored
    per-game values, so a 10^8-game run stays small and chunks merge exactly), and at the
    thousands of games a comparison plays the two agree closely. Game i contributes
    d_i = u_b,i - u_a,i (see :func:`ratio`); the covariance term -2 Cov(R_a, R_b) is what common
    random numbers buy: when both variants play the same deals, their per-game contributions are
    positively correlated and the difference is estimated more tightly than from independent runs.
    ``paired=False`` drops that term (for variants that did not play the same games).
    """
    ra, rb = ratio(sums, j, a), ratio(sums, j, b)
    if ra.value is None or rb.value is None:
        return Difference(ra, rb, None, None, None, None)
    Ya, Yb = ra.den, rb.den
    # Exact difference: identical sums give exactly 0.
    diff = (rb.num * Ya - ra.num * Yb) / (Ya * Yb)
    n = sums.n
    if n < 2:
        return Difference(ra, rb, diff, None, None, None)
    qaa, qbb, qab = _q(sums, j, a, a), _q(sums, j, b, b), _q(sums, j, a, b)
    scale = n / (n - 1)
    var_ind = scale * (qaa * Yb ** 4 + qbb * Ya ** 4) / (Ya ** 4 * Yb ** 4)
    var_pair = scale * (qaa * Yb ** 4 + qbb * Ya ** 4 - 2 * qab * Ya ** 2 * Yb ** 2) \
        / (Ya ** 4 * Yb ** 4)
    corr = qab / math.sqrt(qaa * qbb) if qaa > 0 and qbb > 0 else None
    se_ind = math.sqrt(max(var_ind, 0.0))
    se = math.sqrt(max(var_pair, 0.0)) if paired else se_ind
    return Difference(ra, rb, diff, se, se_ind, corr if paired else None)


def combination_se(sums: MomentSums, j: int, a: int, b: int, wa: int, wb: int,
                   paired: bool = True) -> float | None:
    """Standard error of ``wa R_a + wb R_b`` (weights -1, 0 or 1) by the delta method: the
    difference (-1, 1), or a change in the distance from a fair value (the signs of each side)."""
    ra, rb = ratio(sums, j, a), ratio(sums, j, b)
    n = sums.n
    if ra.value is None or rb.value is None or n < 2:
        return None
    Ya, Yb = ra.den, rb.den
    qaa, qbb = _q(sums, j, a, a), _q(sums, j, b, b)
    qab = _q(sums, j, a, b) if paired else 0
    num = (wa * wa * qaa * Yb ** 4 + wb * wb * qbb * Ya ** 4
           + 2 * wa * wb * qab * Ya ** 2 * Yb ** 2)
    return math.sqrt(max(num * n / ((n - 1) * Ya ** 4 * Yb ** 4), 0.0))


def log_ratio(sums: MomentSums, j: int, a: int = 0, b: int = 1,
              paired: bool = True) -> tuple:
    """(log(R_b / R_a), its standard error) by the delta method; (None, None) unless both are
    positive. The variance is one fraction of exact integers (no cancellation)."""
    ra, rb = ratio(sums, j, a), ratio(sums, j, b)
    n = sums.n
    if not (ra.value and rb.value) or ra.value <= 0 or rb.value <= 0 or n < 2:
        return None, None
    Xa, Ya, Xb, Yb = ra.num, ra.den, rb.num, rb.den
    qaa, qbb = _q(sums, j, a, a), _q(sums, j, b, b)
    qab = _q(sums, j, a, b) if paired else 0
    num = qaa * Yb ** 2 * Xb ** 2 + qbb * Ya ** 2 * Xa ** 2 - 2 * qab * Ya * Yb * Xa * Xb
    var = num * n / ((n - 1) * Ya ** 2 * Xa ** 2 * Yb ** 2 * Xb ** 2)
    return math.log(rb.value / ra.value), math.sqrt(max(var, 0.0))


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------

def _norm_sf(z: float) -> float:
    """``scipy.stats.norm.sf(z)``, bit for bit: the scipy.special function it evaluates
    (``ndtr(-z)``), without the distribution object's argument handling (100 us a call: a
    compare makes three per metric, a sweep or tournament thousands)."""
    from scipy.special import ndtr
    return float(ndtr(-z))


def _chi2_ppf(q: float, df: float) -> float:
    """``scipy.stats.chi2.ppf(q, df)``, bit for bit (``2 gammaincinv(df / 2, q)``, what it
    evaluates), without importing scipy.stats: 0.6 s of every command's start-up."""
    from scipy.special import gammaincinv
    return float(2 * gammaincinv(df / 2, q))


def _norm_ppf(q: float) -> float:
    """``scipy.stats.norm.ppf(q)``, bit for bit (``ndtri(q)``)."""
    from scipy.special import ndtri
    return float(ndtri(q))


def two_sided_p(diff: float, se: float) -> float:
    """p-value of the z-test of "no difference"."""
    if se == 0:
        return 1.0 if diff == 0 else 0.0
    return 2 * _norm_sf(abs(diff) / se)


def tost_p(diff: float, se: float, margin: float) -> float:
    """p-value of the two one-sided tests of |true difference| >= margin (Schuirmann 1987).

    Rejecting at level alpha is the same as the (1 - 2 alpha) interval lying inside +-margin.
    """
    if se == 0:
        return 0.0 if abs(diff) < margin else 1.0
    p_low = _norm_sf((diff + margin) / se)    # H0: diff <= -margin
    p_high = _norm_sf(-(diff - margin) / se)  # H0: diff >= +margin: norm.cdf(x) = ndtr(x)
    return max(p_low, p_high)


def holm(pvalues) -> list:
    """Holm's step-down adjustment (Holm 1979): controls the family-wise error rate under any
    dependence between the tests. ``None`` entries are skipped (not counted in the family).

    scipy.stats has only Benjamini-Hochberg/Yekutieli (``false_discovery_control``), which
    control the false discovery rate instead, so this is written out.
    """
    idx = [i for i, p in enumerate(pvalues) if p is not None]
    order = sorted(idx, key=lambda i: pvalues[i])
    m = len(order)
    out = [None] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out


def games_for_half_width(se: float, n: int, half_width: float, z: float = Z95) -> int:
    """Games needed for a half-width ``half_width``, given standard error ``se`` at ``n`` games
    (the standard error shrinks as 1 / sqrt(games))."""
    if se <= 0:
        return n
    return int(math.ceil(n * (z * se / half_width) ** 2))


def games_for_power(se: float, n: int, detect: float, alpha: float = 0.05,
                    power: float = 0.8, paired_binary: bool = False) -> int:
    """Games for a two-sided z-test at ``alpha`` to detect a true difference ``detect`` with
    probability ``power``: n (z_{1-alpha/2} + z_power)^2 se^2 / detect^2.

    ``paired_binary``: the test is McNemar's (a paired 0/1 rate), whose variance under no
    difference is the share of differing games psi, larger than the variance psi - detect^2
    the pilot's standard error measures (Connor 1987, Biometrics 43:207):
    n = (z_{1-alpha/2} sqrt(psi) + z_power sqrt(psi - detect^2))^2 / detect^2."""
    if paired_binary:
        var = n * se * se                  # per game, under the alternative
        root = _norm_ppf(1 - alpha / 2) * math.sqrt(var + detect ** 2) \
            + _norm_ppf(power) * math.sqrt(var)
        return int(math.ceil((root / detect) ** 2))
    z = _norm_ppf(1 - alpha / 2) + _norm_ppf(power)
    return int(math.ceil(n * (z * se / detect) ** 2))


def games_for_equivalence(se: float, n: int, margin: float, alpha: float = 0.05,
                          power: float = 0.8) -> int:
    """Games for the two one-sided tests at ``alpha`` to conclude equivalence within
    +-``margin`` with probability ``power`` when the true difference is 0:
    n (z_{1-alpha} + z_{1-(1-power)/2})^2 se^2 / margin^2."""
    z = _norm_ppf(1 - alpha) + _norm_ppf(1 - (1 - power) / 2)
    return int(math.ceil(n * (z * se / margin) ** 2))
