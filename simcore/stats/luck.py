"""Luck-corrected estimates: control variates with a known mean of 0, streamed and cross-fitted.

Game-agnostic. A family whose engine measures luck gives, per game, K controls ``L`` (floats)
each of which has expectation exactly 0 whatever the bots do: sums of per-draw terms ``V(card) -
mean of V over the cards that could have come``, as in AIVAT (Burch et al. 2018) and GNU
Backgammon's luck-adjusted rollouts. For any fixed coefficients b, ``x - b . L`` has the same
mean as the metric's per-game numerator x, and a smaller variance when L predicts x. So every
ratio metric R = sum x / sum y can be estimated from ``x' = x - b . L`` instead, with the same
delta-method interval, the game still the unit.

The coefficients are fitted on the run's own games, by least squares of the metric's linearised
contribution u = x - R y on every variant's controls (so a paired difference is corrected too:
least squares is linear in the response, and b_B - b_A is the difference's own fit; a study of
more than two variants streams the first variant's controls alone, which its other variants'
games share through the common deals). Fitting b on
the games it corrects would make the corrected estimate slightly biased and its variance
optimistic, so the fit is *cross-fitted*: games of even index are corrected with b fitted on the
odd ones and vice versa (Chernozhukov et al. 2018). Everything needed is a sum over games, kept
per fold as exact integers (:class:`simcore.stats.luck_sums.LuckSums`), so the correction merges over
chunks, workers and Ray like the plain moments, and memory stays flat.

A metric is corrected where it helps: when its interval (for one variant; the widest difference
from variant 0 for more) gets at least ``GAIN`` times narrower; elsewhere it keeps the plain
methods (Wilson, Tango's score interval and the exact tests for 0/1 outcomes).
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

GAIN = 1.05         # correct a metric when its interval gets at least this many times narrower
MIN_FOLD_GAMES = 100  # fewer games in a fold: no fit


def _fold_sums(sums, f: int):
    """(n, s, c, sl, cll, czl) of fold f, as float arrays."""
    lk = sums.luck
    if f == 0:
        n, s, c = lk.n0, lk.s0, lk.c0
    else:
        n, s, c = sums.n - lk.n0, sums.s - lk.s0, sums.c - lk.c0
    return (n, s.astype(float), c.astype(float), lk.sl[f].astype(float),
            lk.cll[f].astype(float), lk.czl[f].astype(float))


def _coefficients(fold, j: int, v: int) -> np.ndarray | None:
    """Least-squares coefficients of metric j, variant v's linearised contribution on the
    controls, from one fold's sums (None: the fold cannot fit)."""
    n, s, c, sl, cll, czl = fold
    x, y = 2 * v, 2 * v + 1
    if n < MIN_FOLD_GAMES or s[j, y] == 0:
        return None
    lbar = sl / n
    cov_ll = cll / n - np.outer(lbar, lbar)
    r = s[j, x] / s[j, y]
    cov_lu = (czl[j, x] - r * czl[j, y]) / n - lbar * (s[j, x] - r * s[j, y]) / n
    scale = np.sqrt(np.maximum(np.diag(cov_ll), 0.0))
    keep = scale > 0
    if not keep.any():
        return None
    # standardised, and a control that never varied left out; lstsq takes the minimum-norm
    # solution where controls are collinear (a same-deck pair's two variants' controls)
    a = cov_ll[np.ix_(keep, keep)] / np.outer(scale[keep], scale[keep])
    sol = np.linalg.lstsq(a, cov_lu[keep] / scale[keep], rcond=1e-10)[0]
    b = np.zeros(len(sl))
    b[keep] = sol / scale[keep]
    return b


def _corrected_metric(sums, folds, j: int):
    """(s_j, c_j) of metric j with every variant's numerator corrected, fold by fold with the
    other fold's coefficients; None when a fold cannot fit."""
    v_count = sums.variants
    s_new = sums.s[j].astype(float).copy()
    c_new = sums.c[j].astype(float).copy()
    s_new[0::2] = 0.0
    c_new[0::2, :] = 0.0
    c_new[:, 0::2] = 0.0
    for f in (0, 1):
        betas = [_coefficients(folds[1 - f], j, v) for v in range(v_count)]
        if any(b is None for b in betas):
            return None
        n, s, c, sl, cll, czl = folds[f]
        for a in range(v_count):
            xa, ba = 2 * a, betas[a]
            s_new[xa] += s[j, xa] - ba @ sl
            for b in range(v_count):
                xb, yb, bb = 2 * b, 2 * b + 1, betas[b]
                c_new[xa, xb] += (c[j, xa, xb] - ba @ czl[j, xb] - bb @ czl[j, xa]
                                  + ba @ cll @ bb)
                cross = c[j, xa, yb] - ba @ czl[j, yb]
                c_new[xa, yb] += cross
                c_new[yb, xa] += cross
    return s_new, c_new


def _spread(sums, j: int, paired: bool) -> float | None:
    """The variance corrected or not is judged by: the value's for one variant, the widest
    difference from variant 0's for more."""
    from simcore.stats.moments import difference, ratio
    if sums.variants == 1:
        r = ratio(sums, j)
        return None if r.se is None else r.se ** 2
    widest = 0.0
    for v in range(1, sums.variants):
        d = difference(sums, j, 0, v, paired)
        if d.se is None:
            return None
        widest = max(widest, d.se ** 2)
    return widest


def corrected(sums, paired: bool = True):
    """``sums`` with the numerator of every metric the controls help replaced by its
    luck-corrected one (float sums; :class:`simcore.stats.moments.MomentSums`), or ``sums`` itself when
    it streamed no controls or a fold is too small to fit.

    The result also has ``raw`` (the plain sums), ``corrected`` (bool[k]: metric j corrected)
    and ``narrowing`` (float[k]: how many times narrower metric j's interval is, the measure of
    :func:`_spread`; 1 where not corrected, NaN where undefined)."""
    from simcore.stats.moments import MomentSums
    if getattr(sums, "luck", None) is None or getattr(sums, "raw", None) is not None:
        return sums
    if min(sums.luck.n0, sums.n - sums.luck.n0) < MIN_FOLD_GAMES:
        return sums
    folds = [_fold_sums(sums, f) for f in (0, 1)]
    k = sums.s.shape[0]
    s_out, c_out = sums.s.astype(float), sums.c.astype(float)
    done = np.zeros(k, bool)
    narrowing = np.full(k, np.nan)
    for j in range(k):
        before = _spread(sums, j, paired)
        fixed = _corrected_metric(sums, folds, j)
        if before is None or before <= 0 or fixed is None:
            continue
        trial = MomentSums(sums.n, sums.s[j:j + 1].astype(float), sums.c[j:j + 1].astype(float))
        trial.s[0], trial.c[0] = fixed
        after = _spread(trial, 0, paired)
        gain = math.sqrt(before / after) if after and after > 0 else math.nan
        narrowing[j] = 1.0
        if gain >= GAIN:
            s_out[j], c_out[j] = fixed
            done[j], narrowing[j] = True, gain
    out = MomentSums(sums.n, s_out, c_out, sums.g)
    out.raw, out.corrected, out.narrowing = sums, done, narrowing
    out.luck = None
    return out


def is_corrected(sums, j: int) -> bool:
    """Whether metric j of ``sums`` carries the luck correction."""
    done = getattr(sums, "corrected", None)
    return done is not None and bool(done[j])


def plain(sums):
    """The plain (uncorrected) sums behind ``sums``: where counts are read, not estimates."""
    return sums.raw if getattr(sums, "raw", None) is not None else sums


def narrowing_text(narrowing: float) -> str:
    """How every output says a number is luck-corrected."""
    return f"luck-corrected: {narrowing:.2f}x narrower"


def narrowing_of(sums, j: int) -> float | None:
    """How many times narrower the correction made metric j's interval (None: not corrected)."""
    return float(sums.narrowing[j]) if is_corrected(sums, j) else None


# ---------------------------------------------------------------------------------------------
# On or off for a command (--no-luck-correction)
# ---------------------------------------------------------------------------------------------

_STATE = {"on": True}


def enabled() -> bool:
    """Whether studies correct for luck (:func:`simcore.studies.study.run_study`'s default)."""
    return _STATE["on"]


@contextlib.contextmanager
def switched(on: bool):
    """Studies inside correct for luck or not."""
    before = _STATE["on"]
    _STATE["on"] = on
    try:
        yield
    finally:
        _STATE["on"] = before


def honour_saved(saved: bool | None, where: str) -> None:
    """A resumed study analyses its games as it was started (issue 46): ``saved`` is the
    correction its directory records (None: an older directory, which was corrected unless
    its command line says otherwise). ``--no-luck-correction`` on a result started with the
    correction is a contradiction (one line); a result started without it stays without."""
    from simcore.errors import InputError
    saved = True if saved is None else bool(saved)
    if saved and not _STATE["on"]:
        raise InputError(f"{where}: was started with the luck correction, which its numbers "
                         f"use: give no --no-luck-correction with --resume (the result cannot "
                         f"mix the two)")
    _STATE["on"] = saved   # the command's luck_option restores the state when it ends
