"""The riichi2p engine's rules arrays from option values named as in the spec (§12): ``ra``
(one slot per option: :data:`simcore.riichi2p.schema.SLOTS`) and ``sr`` (the scoring rules,
:data:`simcore.riichi2p.scoring.SCORING_RULES`)."""

from __future__ import annotations

import numpy as np

from . import scoring as S
from .schema import SCHEMA, SLOTS
from simcore.family.scenario.schema import Field

DEFAULTS = {k: f.default for k, f in SCHEMA.items() if isinstance(f, Field)}


def build_rules_array(values: dict | None = None) -> np.ndarray:
    """``ra`` of ``values`` (option name -> value; the spec's defaults for the rest): every
    option in its slot (:data:`simcore.riichi2p.schema.SLOTS`)."""
    return SLOTS.array(dict(DEFAULTS, **(values or {})))


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
