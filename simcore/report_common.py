"""What every game family's ``report.py`` does the same way with a run's sums.

What this implementation simplifies: nothing beyond the family modules; this is their common
code moved, not changed.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .stats import MomentSums


def sums_of_batch(batch, game_values: Callable, first_game: int = 0) -> MomentSums:
    """Sums of a Batch holding games ``first_game, first_game + 1, ...`` (``run_games``'s), by
    the family's ``game_values(idx, games, rounds) -> (num, den)``."""
    idx = np.arange(first_game, first_game + len(batch.games), dtype=np.int64)
    num, den = game_values(idx, batch.games, batch.rounds)
    return MomentSums.from_values(np.stack([num, den], axis=2))


def metric_cell(m: dict, metric) -> str:
    """One summary metric as ``value  [interval]  of N per`` (``-`` when it has no value)."""
    if m["value"] is None:
        return "-"
    if metric.is_rate:
        text = f"{100 * m['value']:7.2f}%  [{100 * m['ci'][0]:6.2f}, {100 * m['ci'][1]:6.2f}]"
    else:
        text = f"{m['value']:8.3f}  [{m['ci'][0]:.3f}, {m['ci'][1]:.3f}]"
    return f"{text:<28} of {m['n']} {m['per']}"


def drop_absent_seats(metrics: dict, n_seats: int, max_seats: int) -> None:
    """Leave out of ``metrics`` the seat metrics (``seat{s}_win_share``,
    ``seat{s}_ahead_of_seat{t}``) of the seats ``n_seats`` .. ``max_seats - 1``: the family
    interface's catalogue has them for ``max_seats`` seats, a scenario may have fewer."""
    for s in range(n_seats, max_seats):
        metrics.pop(f"seat{s}_win_share", None)
        for t in range(max_seats):
            metrics.pop(f"seat{min(s, t)}_ahead_of_seat{max(s, t)}", None)


def end_reasons(metrics: dict, field: str) -> dict:
    """``{reason: metric[field]}`` of the ``end_REASON_rate`` metrics that happened."""
    return {n[len("end_"):-len("_rate")]: m[field] for n, m in metrics.items()
            if n.startswith("end_") and m["value"]}
