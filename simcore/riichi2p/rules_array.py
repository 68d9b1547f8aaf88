"""The riichi2p engine's rules arrays from option values named as in the spec (§12): ``ra``
(:data:`simcore.riichi2p.engine.RULE_FIELDS`) and ``sr`` (the scoring rules,
:data:`simcore.riichi2p.scoring.SCORING_RULES`)."""

from __future__ import annotations

import numpy as np

from . import engine as E
from . import scoring as S
from .schema import SCHEMA
from simcore.family.scenario.schema import Field

# option -> its choices (index = the code the engine reads)
CHOICES = {
    "first_dealer": ("random", 0, 1), "seat_winds": ("east_south", "east_west"),
    "kuikae": ("allow", "genbutsu_only", "forbid"),
    "noten_dealer_passes": ("always", "east_only", "never"),
    "noten_penalty_to": ("transfer", "damage_only"), "honba_after_draw": ("add", "reset_on_pass"),
    "riichi_pass_win": ("furiten", "forced"), "riichi_pot": ("to_winner", "vanish"),
    "bust": ("at_or_below_zero", "below_zero"), "both_bust": ("higher_score", "draw"),
    "nagashi_mangan": ("none", "plain", "void_if_called"),
    "nagashi_void_on": ("discard_called", "own_call", "any_call"),
    "paarenchan_counts": ("dealer_wins", "player_wins"), "paarenchan_draw": ("reset", "pause"),
}
DEFAULTS = {k: f.default for k, f in SCHEMA.items() if isinstance(f, Field)}


def build_rules_array(values: dict | None = None) -> np.ndarray:
    """``ra`` of ``values`` (option name -> value; the spec's defaults for the rest)."""
    v = dict(DEFAULTS, **(values or {}))
    ra = np.zeros(E.N_RA, np.int64)
    ra[E.RA_START0], ra[E.RA_START1] = v["start_points"]
    for name in E.RULE_FIELDS:
        if name in ("start0", "start1"):
            continue
        x = v[name]
        ra[getattr(E, f"RA_{name.upper()}")] = CHOICES[name].index(x) if name in CHOICES \
            else int(x)
    return ra


def build_scoring_rules(values: dict | None = None) -> np.ndarray:
    """``sr`` of ``values`` (the same option names)."""
    v = dict(DEFAULTS, **(values or {}))
    sr = {k: v[k] for k in S.SCORING_RULES if k in v}
    sr.update(chiitoitsu_50fu=v["chiitoitsu"] == "50fu1han",
              chuuren_man_only=v["chuuren_suits"] == "man_only",
              daisharin_any7=v["daisharin_ranks"] == "any7",
              renhou=("none", "mangan", "baiman").index(v["renhou"]),
              atozuke_first_call_literal=v["atozuke_first_call"] == "literal",
              atozuke_whole_hand_ignore=v["atozuke_whole_hand_yaku"] == "ignore")
    return S.new_rules({k: int(x) for k, x in sr.items()})


def values_of(sc) -> dict:
    return {k: sc.get(k) for k in DEFAULTS}


def from_scenario(sc) -> np.ndarray:
    return build_rules_array(values_of(sc))


def scoring_from_scenario(sc) -> np.ndarray:
    return build_scoring_rules(values_of(sc))
