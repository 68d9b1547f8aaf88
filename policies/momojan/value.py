"""``value``: plays for points as the rules array rewards them (issues 9 and 30).

Like ``greedy``, but every discard weighs the distance to tenpai against the hand's estimated
points (:mod:`policies.momojan.worth`: every yaku the bot can aim for, dora, the ron and set-count
bonuses and the doubling, all read from the scenario's rules array), at ``value_weight / 4``
steps of distance per point, so raising a yaku's points makes the bot chase it more where the
hand allows; takes a Pon/Chi that keeps the distance when it adds half a point or more; draws
three more readily (more revealed sets score more). Riichi by value: always when no wait gives
another yaku (riichi is then the only way to win), else when riichi adds at least
``riichi_gain`` points on average over the waits (its point, ippatsu's chance, a doubling it
reaches), else with probability ``riichi`` (silent tenpai keeps Kai, calls and three-card draws
open). Folds against a threat when at least ``fold`` from tenpai, or when the opponent's
estimated points times ``caution`` outweigh what this hand can win (its points, halved per step
of distance).
"""

import numba as nb

from simcore.family.params import Param, param_index
from .play import play

VALUE_PARAMS = (
    Param("call", "float", 1.0, "probability of taking a Pon/Chi that brings the win closer or "
          "adds half a point of estimated value (0: never calls)", 0.0, 1.0),
    Param("draw_three", "float", 0.5, "draw three when the sampled distance after it is below "
          "the distance after discarding now plus this (higher: draws three more)", -3.0, 3.0,
          tune=(-1.5, 1.5)),
    Param("riichi", "float", 0.0, "probability of declaring riichi anyway when the waits have "
          "another yaku and riichi adds less than riichi_gain points", 0.0, 1.0),
    Param("riichi_gain", "float", 0.5, "declare riichi when it adds at least this many points on "
          "average over the waits (a hand whose waits have no other yaku always declares)",
          0.0, 20.0, tune=(0.0, 3.0)),
    Param("fold", "int", 9, "fold against a riichi or fast opponent when at least this far from "
          "tenpai (9: never folds)", 0, 9),
    Param("value_weight", "float", 2.0, "weight of the estimated points against speed: at 1, "
          "4 points are worth one step of distance to tenpai", 0.0, 10.0, tune=(0.0, 4.0)),
    Param("temperature", "float", 0.0, "randomisation: Gumbel noise on the discard scores, in "
          "steps of distance to tenpai (0: deterministic)", 0.0, 5.0),
    Param("caution", "float", 0.0, "fold when the opponent's estimated points times this exceed "
          "this hand's, halved per step from tenpai (0: only the fold distance)", 0.0, 10.0,
          tune=(0.0, 2.0)),
)
_CALL, _DRAW3, _RIICHI, _GAIN, _FOLD, _VALUE, _TEMP, _CAUTION = (
    param_index(VALUE_PARAMS, n) for n in ("call", "draw_three", "riichi", "riichi_gain", "fold",
                                           "value_weight", "temperature", "caution"))


# inline: a one-line wrapper; as its own function it would compile (and optimise) the whole
# of play() once more (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def value_policy(obs, mask, params, rng, core, ra):
    return play(obs, mask, rng, core, ra, params[_CALL], params[_DRAW3], params[_RIICHI],
                params[_FOLD], params[_VALUE], params[_TEMP], params[_GAIN], params[_CAUTION])


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
