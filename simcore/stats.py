"""Interval estimates for run summaries."""

from __future__ import annotations

import math

from scipy.stats import norm

Z95 = float(norm.ppf(0.975))


def wilson(successes: int, n: int, z: float = Z95) -> dict:
    """Rate with its Wilson score interval: ``{"value", "ci": [lo, hi], "n"}``.

    Wilson's interval stays inside [0, 1] and behaves at rates near 0 or 1, where the normal
    approximation does not (Wilson 1927; Brown, Cai & DasGupta 2001).
    """
    if n == 0:
        return {"value": None, "ci": [None, None], "n": 0}
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return {"value": round(p, 6), "ci": [round(max(0.0, centre - half), 6),
                                         round(min(1.0, centre + half), 6)], "n": n}


def mean_ci(values, z: float = Z95) -> dict:
    """Mean with a normal-approximation interval (fine for the thousands of samples runs have)."""
    n = len(values)
    if n == 0:
        return {"value": None, "ci": [None, None], "n": 0}
    m = float(sum(values)) / n
    var = float(sum((v - m) ** 2 for v in values)) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return {"value": round(m, 6), "ci": [round(m - half, 6), round(m + half, 6)], "n": n}
