"""Score intervals and exact tests for the difference of two rates of games (0/1 per game).

Game-agnostic. When both variants play the same deals, a game-level 0/1 metric gives a 2x2 table
of games: both, neither, ``only_a``, ``only_b``. The difference of the rates is
``(only_b - only_a) / n`` and everything about its uncertainty is in the K = only_a + only_b
games that differ. The normal interval built from their spread is too narrow when K is small
and has zero width at K = 0; these methods hold at every K:

- :func:`paired_score_interval`: Tango's score interval (Tango 1998, Stat Med 17:891): the
  differences ``delta`` the score test does not reject, with the variance under ``delta`` from
  the restricted maximum-likelihood estimate of the ``only_a`` cell (a closed form). Never of
  zero width (at K = 0 it is about +-z^2 / n).
- :func:`mcnemar_exact_p`: the exact (binomial) McNemar test, for few differing games;
  :func:`paired_score_p` is the score test (McNemar's z at ``delta = 0``), for many.
- :func:`paired_equivalence_p`: the two one-sided score tests at +-margin (Tango 1998, sec. 3).
- :func:`newcombe_interval`: for rates from independent games, Newcombe's hybrid score interval
  from the two Wilson intervals (Newcombe 1998, Stat Med 17:873, method 10).

scipy.stats has neither Tango's nor Newcombe's interval (statsmodels has Newcombe's for
independent samples only), so they are written out; tests/harness/test_verdicts.py checks the
restricted estimate against a numerical maximisation and the coverage by simulation.
"""

from __future__ import annotations

import math

from simcore.stats.moments import Z95, wilson_bounds

EXACT_BELOW = 25   # differing games under which the exact McNemar p-value is used


def _restricted_only_a(only_a: int, only_b: int, n: int, delta: float) -> float:
    """Maximum-likelihood probability of an ``only_a`` game given rate(b) - rate(a) = delta."""
    a2 = 2.0 * n
    b1 = -only_b - only_a + (2.0 * n - only_b + only_a) * delta
    c0 = -only_a * delta * (1.0 - delta)
    disc = max(b1 * b1 - 4.0 * a2 * c0, 0.0)
    return max((math.sqrt(disc) - b1) / (2.0 * a2), 0.0)


def paired_score(only_a: int, only_b: int, n: int, delta: float) -> float:
    """Tango's score statistic for H0: rate(b) - rate(a) = ``delta`` (decreasing in delta)."""
    q = _restricted_only_a(only_a, only_b, n, delta)
    var = n * (2.0 * q + delta * (1.0 - delta))
    num = only_b - only_a - n * delta
    if var <= 0.0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def paired_score_interval(only_a: int, only_b: int, n: int, z: float = Z95) -> list:
    """``[lo, hi]``: the differences rate(b) - rate(a) the two-sided score test at the level of
    ``z`` does not reject."""
    from scipy.optimize import brentq
    est = (only_b - only_a) / n
    eps = 1e-12

    def bound(target, lo, hi):
        f = lambda d: paired_score(only_a, only_b, n, d) - target   # noqa: E731
        if f(lo) * f(hi) > 0:
            return None
        return brentq(f, lo, hi, xtol=1e-12, rtol=1e-12)

    lo = bound(z, -1.0 + eps, est) if est > -1.0 + eps else None
    hi = bound(-z, est, 1.0 - eps) if est < 1.0 - eps else None
    return [-1.0 if lo is None else lo, 1.0 if hi is None else hi]


def paired_score_p(only_a: int, only_b: int, n: int) -> float:
    """Two-sided p-value of the score test of no difference (McNemar's z test)."""
    from simcore.stats.moments import _norm_sf
    k = only_a + only_b
    if k == 0:
        return 1.0
    return min(1.0, 2.0 * _norm_sf(abs(only_b - only_a) / math.sqrt(k)))


def mcnemar_exact_p(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: the differing games split as a fair coin would."""
    from scipy.stats import binom
    k = only_a + only_b
    if k == 0:
        return 1.0
    return min(1.0, 2.0 * float(binom.cdf(min(only_a, only_b), k, 0.5)))


def paired_p(only_a: int, only_b: int, n: int) -> tuple:
    """(p-value, method name): exact below :data:`EXACT_BELOW` differing games, else score."""
    if only_a + only_b < EXACT_BELOW:
        return mcnemar_exact_p(only_a, only_b), "exact McNemar"
    return paired_score_p(only_a, only_b, n), "McNemar score"


def paired_equivalence_p(only_a: int, only_b: int, n: int, margin: float) -> float:
    """p-value of the two one-sided score tests of |rate(b) - rate(a)| >= margin: below alpha
    exactly when the (1 - 2 alpha) score interval lies inside +-margin."""
    from simcore.stats.moments import _norm_sf
    m = min(margin, 1.0 - 1e-12)
    t_low = paired_score(only_a, only_b, n, -m)    # large when the difference is above -margin
    t_high = paired_score(only_a, only_b, n, m)    # very negative when it is below +margin
    return max(_norm_sf(t_low), _norm_sf(-t_high))


def newcombe_interval(x_a: float, n_a: float, x_b: float, n_b: float, z: float = Z95) -> list:
    """Newcombe's hybrid score interval for rate(b) - rate(a) from independent games."""
    pa, pb = x_a / n_a, x_b / n_b
    la, ua = wilson_bounds(x_a, n_a, z)
    lb, ub = wilson_bounds(x_b, n_b, z)
    d = pb - pa
    return [d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2),
            d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)]


def newcombe_equivalence_p(x_a, n_a, x_b, n_b, margin: float) -> float:
    """TOST p-value by inverting :func:`newcombe_interval`: the alpha at which its (1 - 2
    alpha) interval just touches +-margin (1 when the estimate lies outside)."""
    from scipy.optimize import brentq
    from simcore.stats.moments import _norm_sf
    d = x_b / n_b - x_a / n_a
    if abs(d) >= margin:
        return 1.0

    def inside(zq):
        lo, hi = newcombe_interval(x_a, n_a, x_b, n_b, zq)
        return min(margin - hi, lo + margin)

    if inside(40.0) > 0:
        return 0.0
    return _norm_sf(brentq(inside, 0.0, 40.0, xtol=1e-10))


def discordant_upper(k: int, n: int, level: float = 0.95) -> float:
    """One-sided exact (Clopper-Pearson) upper bound on the share of games that differ, from
    ``k`` of ``n``: at k = 0 about 3 / n (the rule of three)."""
    from scipy.stats import beta
    if k >= n:
        return 1.0
    return float(beta.ppf(level, k + 1, n - k))


def paired_binary_power(n: int, psi: float, detect: float, alpha: float) -> float:
    """Power of compare's test of a paired 0/1 rate (exact McNemar under :data:`EXACT_BELOW`
    differing games, the score test above) at ``n`` games, when a share ``psi`` of games
    differ and rate(b) - rate(a) = ``detect``: the differing games K ~ Binomial(n, psi), and
    given K the games where only b has it ~ Binomial(K, (psi + detect) / (2 psi))."""
    import numpy as np
    from scipy.stats import binom, norm
    q = min(1.0, (psi + detect) / (2 * psi))
    ks = np.arange(n + 1)
    pk = binom.pmf(ks, n, psi)
    keep = pk > 1e-12
    total = 0.0
    zc = norm.ppf(1 - alpha / 2)
    for k, w in zip(ks[keep], pk[keep]):
        k = int(k)
        if k == 0:
            continue
        if k < EXACT_BELOW:
            lo_tail = binom.cdf(np.arange(k + 1), k, 0.5)
            p = np.minimum(1.0, 2 * np.minimum(lo_tail, 1 - lo_tail + binom.pmf(np.arange(k + 1),
                                                                                  k, 0.5)))
            reject = p < alpha
        else:
            b = np.arange(k + 1)
            reject = np.abs(2 * b - k) / math.sqrt(k) > zc
        total += w * float(binom.pmf(np.arange(k + 1), k, q)[reject].sum())
    return total


def paired_binary_games(psi: float, detect: float, alpha: float, power: float,
                        start: int) -> int:
    """Fewest games (to about 1%) at which :func:`paired_binary_power` reaches ``power``,
    searched from ``start`` (the normal approximation)."""
    psi = max(psi, detect * 1.0001)
    if start * psi > 400:
        return start            # hundreds of differing games: the normal approximation holds
    lo, hi = 1, max(start, 10)
    while paired_binary_power(hi, psi, detect, alpha) < power:
        lo, hi = hi, hi * 2
        if hi > 10 ** 8:
            return hi
    while hi - lo > max(1, hi // 100):
        mid = (lo + hi) // 2
        if paired_binary_power(mid, psi, detect, alpha) >= power:
            hi = mid
        else:
            lo = mid
    return hi
