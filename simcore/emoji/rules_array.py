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


# scenario key -> the engine's option name (spec §13's flat names)
SCENARIO_KEYS = {
    "chips.start": "start_chips", "chips.ante": "ante", "chips.riichi_deposit": "riichi_deposit",
    "game_length.regular_rounds": "regular_rounds", "game_length.west_rounds": "west_rounds",
    "game_length.west_gap": "west_gap", "game_length.west_mode": "west_mode",
    "game_length.bust_check": "bust_check", "game_length.first_dealer": "first_dealer",
    "game_length.rank_ties": "rank_ties", "game_length.pot_at_game_end": "pot_at_game_end",
    "wall.indicator": "indicator", "wall.dora_next": "dora_next",
    "wall.honor_cycle": "honor_cycle", "wall.turns": "turns",
    "shapes.tenpai": "tenpai", "shapes.require_yaku": "require_yaku",
    "shapes.furiten": "furiten",
    "turn.tsumo_ends_turn": "tsumo_ends_turn", "turn.simultaneous_wins": "simultaneous_wins",
    "turn.invalid_action": "invalid_action", "turn.wait_count_info": "wait_count_info",
    "riichi.min_chips": "riichi_min_chips", "riichi.last_turn": "riichi_last_turn",
    "riichi.if_ronned": "riichi_if_ronned",
    "settlement.tsumo_payment": "tsumo_payment",
    "settlement.tsumo_split_rounding": "tsumo_split_rounding",
    "settlement.tsumo_winners_pay_each_other": "tsumo_winners_pay_each_other",
    "settlement.ron_source": "ron_source", "settlement.multi_winner_pot": "multi_winner_pot",
    "settlement.pot_remainder": "pot_remainder",
    "settlement.draw_no_tenpai_pot": "draw_no_tenpai_pot", "settlement.payments": "payments",
    "scoring.tenhou_seats": "tenhou_seats", "scoring.last_tile_scope": "last_tile_scope",
}


def from_scenario(sc) -> np.ndarray:
    """``ra`` of a loaded emoji scenario."""
    values = {name: sc.get(key) for key, name in SCENARIO_KEYS.items()}
    values["turns"] = 0 if values["turns"] == "auto" else values["turns"]
    return build_rules_array(values)


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
