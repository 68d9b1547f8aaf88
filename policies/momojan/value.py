"""``value``: plays for points as the rules array rewards them (issue 9, item 2).

Like ``greedy``, but every discard weighs the distance to tenpai against the hand's estimated value
(:func:`policies.momojan.play.hand_value`: dora, picture-set yaku, kerai, the set-count bonus, all read from
the scenario's rules array), at ``value_weight / 4`` steps of distance per point; Pons a picture
set with a yaku even when it does not bring the win closer; draws three more readily (more revealed
sets score more); declares riichi when the hand has no other yaku and otherwise with probability
``riichi`` (silent tenpai keeps it flexible). It does not fold by default (folding cost more than
it saved in measured games; ``fold`` turns it on).
"""

import numba as nb

from policies.params import Param, param_index
from .play import play

VALUE_PARAMS = (
    Param("call", "float", 1.0, "probability of taking a Pon/Chi that brings the win closer or "
          "adds a picture-set yaku (0: never calls)", 0.0, 1.0),
    Param("draw_three", "float", 0.5, "draw three when the sampled distance after it is below "
          "the distance after discarding now plus this (higher: draws three more)", -3.0, 3.0),
    Param("riichi", "float", 0.5, "probability of declaring riichi when tenpai with another yaku "
          "(without one it always declares)", 0.0, 1.0),
    Param("fold", "int", 9, "fold against a riichi or fast opponent when at least this far from "
          "tenpai (9: never folds)", 0, 9),
    Param("value_weight", "float", 2.0, "weight of the estimated points against speed: at 1, "
          "4 points are worth one step of distance to tenpai", 0.0, 10.0),
    Param("temperature", "float", 0.0, "randomisation: Gumbel noise on the discard scores, in "
          "steps of distance to tenpai (0: deterministic)", 0.0, 5.0),
)
_CALL, _DRAW3, _RIICHI, _FOLD, _VALUE, _TEMP = (param_index(VALUE_PARAMS, n) for n in (
    "call", "draw_three", "riichi", "fold", "value_weight", "temperature"))


# inline: a one-line wrapper; as its own function it would compile (and optimise) the whole
# of play() once more (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def value_policy(obs, mask, params, rng, core, ra):
    return play(obs, mask, rng, core, ra, params[_CALL], params[_DRAW3], params[_RIICHI],
                params[_FOLD], params[_VALUE], params[_TEMP])
