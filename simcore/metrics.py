"""What a metric is, for any game family: a ratio of per-game sums with a name and a margin.

A family's catalogue (e.g. :mod:`simcore.momojan.metrics`) lists its metrics once; ``run``,
``compare``, ``sweep``, ``plan`` and the reports read only this description and the streamed
:class:`simcore.stats.MomentSums`, never the family's records.
"""

from __future__ import annotations

from dataclasses import dataclass

# kind -> (what the denominator counts, whether the value is a share in [0, 1])
KINDS = {
    "game_rate": ("games", True),
    "round_rate": ("rounds", True),
    "win_rate": ("wins", True),
    "per_game": ("games", False),
    "per_round": ("rounds", False),
    "per_win": ("wins", False),
}


@dataclass(frozen=True)
class Metric:
    """One metric: the sum over games of ``numerator`` divided by the sum of ``denominator``.

    ``numerator`` and ``denominator`` name per-game quantities of the family (each game
    contributes integers); ``margin`` is the default equivalence margin of a comparison (a
    difference smaller than this does not matter to a designer); ``reference`` is the fair value
    where there is one (0.5 for a seat's win rate).
    """

    name: str
    kind: str
    numerator: str
    denominator: str
    description: str
    margin: float
    reference: float | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"metric {self.name}: unknown kind {self.kind!r}")

    @property
    def is_rate(self) -> bool:
        return KINDS[self.kind][1]

    @property
    def per(self) -> str:
        """What the denominator counts, in words ("games", "rounds", "wins")."""
        return KINDS[self.kind][0]


def by_name(catalogue) -> dict:
    return {m.name: m for m in catalogue}
