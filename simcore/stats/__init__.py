"""Streamed statistics with no game in them: metrics are columns of integer sums.

:mod:`.moments` (sums, ratios, differences, intervals), :mod:`.luck_sums` and :mod:`.luck` (the
luck correction), :mod:`.proportions`, :mod:`.verdicts` (per-metric comparison rows),
:mod:`.domains` (metrics within parts of the games) and :mod:`.summary` (one variant's metrics
with their intervals).
"""
