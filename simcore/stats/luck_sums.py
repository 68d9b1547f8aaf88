"""The luck controls' streamed sums (issue 32): what :mod:`simcore.stats.luck` corrects from.

Game-agnostic and free of the statistics (``simcore.stats.moments`` holds a :class:`LuckSums` beside
its moments; the correction reads both).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.stats.exact import exact_add, exact_array, exact_einsum, exact_sum

UNITS = 4096        # controls are streamed as integers in units of 1 / UNITS


@dataclass
class LuckSums:
    """Per-fold sums of the controls and their products with every metric's components.

    Fold 0 holds the games of even index, fold 1 the odd ones. ``q = V K`` controls (variant v's
    K controls are columns ``v K .. v K + K - 1``), or ``q = K``: the first variant's alone
    (studies of more than two variants, simcore.family.chunks.chunk_stats). The fold-0 sums of the metric components
    themselves (``n0``, ``s0``, ``c0``) sit here too; fold 1's are the totals of
    :class:`simcore.stats.moments.MomentSums` minus them.

    n0 : int                  games in fold 0
    s0 : int64[k, m]          fold 0's sums of the components (``MomentSums.s``)
    c0 : int64[k, m, m]       and of their cross products (``MomentSums.c``)
    sl : int64[2, q]          per fold, the controls' sums
    cll : int64[2, q, q]      their cross products
    czl : int64[2, k, m, q]   component a of metric j times control l
    names : tuple             the K control names (the family's ``LUCK_CONTROLS``)
    """

    n0: int
    s0: np.ndarray
    c0: np.ndarray
    sl: np.ndarray
    cll: np.ndarray
    czl: np.ndarray
    names: tuple

    @classmethod
    def from_values(cls, idx, z, controls, names) -> "LuckSums":
        """Sums of per-game components ``z`` (int64[n, k, m]) and ``controls`` (float[n, q])
        for games ``idx`` (their parity is the fold)."""
        z = np.asarray(z, np.int64)
        lq = np.round(np.asarray(controls, float) * UNITS).astype(np.int64)
        fold = np.asarray(idx) % 2
        parts = [(z[fold == f], lq[fold == f]) for f in (0, 1)]
        # exact: int64, or Python integers where a sum could leave it (moments.exact_sum)
        sl = np.stack([exact_sum(lf) for _, lf in parts])
        cll = np.stack([exact_einsum("nl,nr->lr", lf, lf) for _, lf in parts])
        czl = np.stack([exact_einsum("nka,nl->kal", zf, lf) for zf, lf in parts])
        z0 = parts[0][0]
        return cls(int(len(z0)), exact_sum(z0), exact_einsum("nka,nkb->kab", z0, z0),
                   sl, cll, czl, tuple(names))

    def fits(self, other: "LuckSums") -> bool:
        """Whether ``other`` holds the same controls of the same variants (they can merge)."""
        return other.names == self.names and other.czl.shape == self.czl.shape

    def merge(self, other: "LuckSums") -> "LuckSums":
        if not self.fits(other):
            raise ValueError("luck sums of different controls")
        return LuckSums(self.n0 + other.n0, exact_add(self.s0, other.s0),
                        exact_add(self.c0, other.c0), exact_add(self.sl, other.sl),
                        exact_add(self.cll, other.cll), exact_add(self.czl, other.czl),
                        self.names)

    def to_json(self) -> dict:
        return {"n0": self.n0, "s0": self.s0.tolist(), "c0": self.c0.tolist(),
                "sl": self.sl.tolist(), "cll": self.cll.tolist(), "czl": self.czl.tolist(),
                "names": list(self.names)}

    @classmethod
    def from_json(cls, d: dict) -> "LuckSums":
        out = cls(int(d["n0"]), *(exact_array(d[key])
                                  for key in ("s0", "c0", "sl", "cll", "czl")),
                  tuple(d["names"]))
        k, m = out.s0.shape
        q = out.sl.shape[1]
        if out.c0.shape != (k, m, m) or out.cll.shape != (2, q, q) or \
                out.czl.shape != (2, k, m, q) or q not in (len(out.names),
                                                          len(out.names) * (m // 2)):
            raise ValueError("luck sums do not fit together")
        return out
