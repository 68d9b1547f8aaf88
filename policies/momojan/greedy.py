"""``greedy``: plays for the fastest win (issue 9, item 1).

Wins whenever it may; discards to minimise the distance to tenpai (``simcore.momojan.shanten``),
ties broken by the unseen useful cards; Pon/Chi when that brings the win closer; Kai the set that
keeps the hand closest to a win; draws three when sampled draws say it helps; riichi as soon as
tenpai. It never folds by default. Decisions: :func:`policies.momojan.play.play`.
"""

import numba as nb

from simcore.family.params import Param, param_index
from .play import play

GREEDY_PARAMS = (
    Param("call", "float", 1.0, "probability of taking a Pon/Chi that brings the win closer "
          "(0: never calls)", 0.0, 1.0),
    Param("draw_three", "float", 0.0, "draw three when the sampled distance after it is below "
          "the distance after discarding now plus this (higher: draws three more)", -3.0, 3.0),
    Param("riichi", "float", 1.0, "probability of declaring riichi when tenpai (0: silent tenpai, "
          "which cannot win without another yaku)", 0.0, 1.0),
    Param("fold", "int", 9, "fold against a riichi or fast opponent when at least this far from "
          "tenpai (9: never folds)", 0, 9),
    Param("temperature", "float", 0.0, "randomisation: Gumbel noise on the discard scores, in "
          "steps of distance to tenpai (0: deterministic)", 0.0, 5.0),
)
_CALL, _DRAW3, _RIICHI, _FOLD, _TEMP = (param_index(GREEDY_PARAMS, n) for n in (
    "call", "draw_three", "riichi", "fold", "temperature"))


# inline: a one-line wrapper; as its own function it would compile (and optimise) the whole
# of play() once more (benchmarks/bench_coldstart.py).
@nb.njit(cache=True, inline="always")
def greedy_policy(obs, mask, params, rng, core, ra):
    return play(obs, mask, rng, core, ra, params[_CALL], params[_DRAW3], params[_RIICHI],
                params[_FOLD], 0.0, params[_TEMP], 0.0, 0.0)


from simcore.nb.unliteral import compile_once  # noqa: E402

compile_once(__name__)
