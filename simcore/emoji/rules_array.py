"""The emoji engine's rules array ``ra`` (``simcore.emoji.engine.RULE_FIELDS``) from option
values named as in the spec (emoji.md §13): values, and each [I] option's choice by name."""

from __future__ import annotations

import numpy as np

from . import engine as E

# option -> its choices (index = the code the engine reads); options not listed are integers
CHOICES = {
    "first_dealer": ("seat0", "random"), "indicator": ("removed", "in_wall"),
    "dora_next": ("per_suit", "global"), "simultaneous_wins": ("all", "first_from_dealer"),
    "tsumo_payment": ("split", "each_full"), "tsumo_split_rounding": ("exact", "ceil"),
    "ron_source": ("best_for_winner", "nearest_seat", "split", "each_full"),
    "multi_winner_pot": ("split", "first_in_dealer_order"),
    "pot_remainder": ("dealer_order", "carry"),
    "draw_no_tenpai_pot": ("carry", "discard", "split_all"),
    "pot_at_game_end": ("discard", "to_top"), "payments": ("uncapped", "cap_at_balance"),
    "tenpai": ("shape", "live_wait"), "furiten": ("none", "discards"),
    "riichi_if_ronned": ("stands", "void"), "tenhou_seats": ("any", "dealer_only"),
    "last_tile_scope": ("whole_turn", "drawn_tile"), "bust_check": ("round_end", "any_time"),
    "west_mode": ("all_four", "sudden_death"), "rank_ties": ("shared", "dealer_order"),
    "invalid_action": ("default", "error"), "wait_count_info": ("public", "wall"),
}
DEFAULTS = {
    "start_chips": 5000, "ante": 20, "riichi_deposit": 100, "regular_rounds": 8,
    "west_rounds": 4, "west_gap": 1000, "turns": 0, "tsumo_ends_turn": True,
    "tsumo_winners_pay_each_other": True, "require_yaku": False, "riichi_min_chips": 0,
    "riichi_last_turn": True, "honor_cycle": ("cat", "fish", "bird"),
    **{k: v[0] for k, v in CHOICES.items()},
}
HONOURS = ("cat", "fish", "bird")


def build_rules_array(values: dict | None = None) -> np.ndarray:
    """``ra`` of ``values`` (option name -> value; the spec's defaults for the rest)."""
    v = dict(DEFAULTS, **(values or {}))
    ra = np.zeros(E.N_RA, np.int64)
    for name, index in ((n, getattr(E, f"RA_{n.upper()}")) for n in E.RULE_FIELDS
                        if not n.startswith("honor_cycle")):
        x = v[name]
        ra[index] = CHOICES[name].index(x) if name in CHOICES else int(x)
    cycle = list(v["honor_cycle"])
    for i, h in enumerate(cycle):   # the honour after cycle[i] is cycle[i + 1]
        ra[E.RA_HONOR_CYCLE0 + HONOURS.index(h)] = 27 + HONOURS.index(cycle[(i + 1) % 3])
    return ra
