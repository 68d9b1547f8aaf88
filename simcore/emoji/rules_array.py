"""The emoji engine's arrays of a scenario: ``ra``, a slot per rule option
(:data:`simcore.emoji.schema.SLOTS`), and ``sr``, the scoring rules."""

from __future__ import annotations

import numpy as np

from .schema import SLOTS


def build_rules_array(values: dict | None = None) -> np.ndarray:
    """``ra`` of ``values`` (scenario key -> value, ``settlement.ron_source``; the schema's
    defaults for the rest)."""
    v = {k: f.default for k, f in SLOTS.fields}
    v.update(values or {})
    unknown = set(v) - set(SLOTS.keys)
    if unknown:
        raise KeyError(f"not options of the emoji engine: {sorted(unknown)}")
    return SLOTS.array(v)


def from_scenario(sc) -> np.ndarray:
    """``ra`` of a loaded emoji scenario."""
    return SLOTS.array(sc)


def scoring_from_scenario(sc) -> np.ndarray:
    """``sr`` (:func:`simcore.emoji.scoring.scoring_rules`) of a loaded emoji scenario."""
    from .scoring import multipliers_of, off_of, scoring_rules
    s = sc.get("scoring")
    return scoring_rules(multipliers_of(s["yaku"]), base=s["base"],
                         dealer_factor=s["dealer_factor"], dora_points=s["dora_points"],
                         rounding=s["rounding"], decomposition=sc.get("shapes.decomposition"),
                         wrap_runs=sc.get("shapes.wrap_runs"),
                         chanta_four_pairs=s["chanta_four_pairs"],
                         half_flush_needs_number=s["half_flush_needs_number"],
                         honor_triplet_per_set=s["honor_triplet_per_set"],
                         tenhou_is_tsumo=s["tenhou_is_tsumo"],
                         dora_includes_win_tile=s["dora_includes_win_tile"],
                         off=off_of(s["yaku"]), supersedes=dict(s["supersedes"]))
