"""``defensive``: ``greedy`` that folds (issue 9, item 3).

Against an opponent that can win and has declared riichi or shows a fast hand
(:mod:`policies.momojan.defence`), when its own hand is at least ``fold`` steps from tenpai it stops
calling and discards the least dangerous card: what the opponent itself discarded (furiten; momo is
never safe), then the card completing the fewest waiting shapes made of unseen cards. Otherwise it
plays as ``greedy``.
"""

import numba as nb

from simcore.family.params import Param, param_index
from .play import play

DEFENSIVE_PARAMS = (
    Param("call", "float", 1.0, "probability of taking a Pon/Chi that brings the win closer "
          "(0: never calls)", 0.0, 1.0),
    Param("draw_three", "float", 0.0, "draw three when the sampled distance after it is below "
          "the distance after discarding now plus this (higher: draws three more)", -3.0, 3.0),
    Param("riichi", "float", 1.0, "probability of declaring riichi when tenpai", 0.0, 1.0),
    Param("fold", "int", 1, "fold against a riichi or fast opponent when at least this far from "
          "tenpai (0: always folds when threatened, 9: never)", 0, 9),
    Param("temperature", "float", 0.0, "randomisation: Gumbel noise on the discard scores, in "
          "steps of distance to tenpai (0: deterministic)", 0.0, 5.0),
)
_CALL, _DRAW3, _RIICHI, _FOLD, _TEMP = (param_index(DEFENSIVE_PARAMS, n) for n in (
    "call", "draw_three", "riichi", "fold", "temperature"))


# inline: a one-line wrapper; as its own function it would compile (and optimise) the whole
# of play() once more (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def defensive_policy(obs, mask, params, rng, core, ra):
    return play(obs, mask, rng, core, ra, params[_CALL], params[_DRAW3], params[_RIICHI],
                params[_FOLD], 0.0, params[_TEMP], 0.0, 0.0)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
