"""Emoji mahjong as the harness sees it: the :class:`simcore.family.base.Family` of the game
(spec emoji.md). Four seats; what is emoji's here: its scenarios, simulator, catalogue and
per-game quantities, which rule keys are point values, and what ``replay``, ``waits`` and
``score`` print. Everything else is the base class's.
"""

from __future__ import annotations

import numpy as np

from policies.emoji import POLICIES as _POLICIES

from ..errors import InputError
from ..family.base import Family
from simcore.family.tables import storage_types
from simcore.family.policy import Mechanic as _M
from simcore.nb.restrict import ALWAYS as _ALWAYS, NEVER as _NEVER
from .hand import N_KINDS as _N_KINDS
from . import metrics as _metrics, scenario as _scenario, simulate as _simulate
from .engine import END_REASON_NAMES, N_SEATS


class Emoji(Family):
    NAME = "emoji"
    TITLE = "emoji mahjong"
    DEFAULT_SCENARIO = "emoji"
    SEAT_VIEW = "simcore.emoji.seat_view"   # play
    SEATS = (N_SEATS, N_SEATS)
    SCENARIOS = _scenario.LOADER
    ANNOTATION = _scenario.ANNOTATION
    GAME_WORDS = ("game", "games")
    SIMULATOR, METRICS = _simulate.Simulator, _metrics.OWN_METRICS
    POLICIES = _POLICIES
    game_quantities = staticmethod(_metrics.game_quantities)
    GAME_CODES = {"end_reason": END_REASON_NAMES}
    SWEEP_METRICS = ("first_dealer_win_share", "seat0_win_share", "dealer_round_win_rate",
                     "draw_rate", "mean_winning_value")
    SEAT_METRICS_AT = 1
    GAME_DTYPES = storage_types(int32="rounds chips0 chips1 chips2 chips3 pot_left")
    GAME_DTYPE_DEFAULT = "int8"
    ROUND_DTYPES = storage_types(int64="game", int32="round value0 value1 value2 value3 "
                                 "yaku0 yaku1 yaku2 yaku3 pot_taken pot_left chips0 chips1 "
                                 "chips2 chips3 reach0 reach1 reach2 reach3")
    MECHANICS = (
        _M("never_riichi", "never riichi", _NEVER, ((_N_KINDS, 2 * _N_KINDS),)),
        _M("always_riichi", "riichi whenever it may", _ALWAYS, ((_N_KINDS, 2 * _N_KINDS),),
           _N_KINDS),
    )
    KERNEL_FUNCTIONS = ("simcore.emoji.engine.play_games", "simcore.emoji.engine.play_round")
    COMPILE_FIRST = ("policies.emoji.bots.decide",)
    # validation switches: they decide which multiplier tables load (spec §8.4, §8.3's
    # nakayoshi), not how a game plays, so changing one alone changes no engine input
    CONDITIONAL_KEYS = {"scoring.calibration": "a multiplier table", "scoring.nakayoshi":
                        "the yaku's multiplier"}
    POINT_VALUE_PREFIXES = ("scoring.yaku.", "scoring.base", "scoring.dealer_factor",
                            "scoring.dora_points")
    EXAMPLE_HANDS = (("234k 567m 8h", None), ("234k 567m 88h", {"win": "8h"}))

    def point_sources(self, idx, batch, data: dict):
        return _metrics.point_sources(idx, batch.rounds, data)

    def yaku_reach(self, idx, batch, data: dict):
        return _metrics.yaku_reach(idx, batch.rounds, data)

    # ---- scenarios ------------------------------------------------------------------------------
    def metrics_off(self, sc) -> list:
        """The yaku a scenario switches off; riichi metrics where no seat can declare it."""
        return [f"yaku_{k}_share" for k, v in sc.get("scoring.yaku").items() if v == "off"]

    def engine_inputs(self, sc) -> tuple:
        from .rules_array import from_scenario, scoring_from_scenario
        return (from_scenario(sc), scoring_from_scenario(sc))

    # ---- replay and hands -----------------------------------------------------------------------
    def build_replay(self, sc, seed: int, game: int, events, batch):
        from .report import build_replay
        return build_replay(sc, seed, game, events, batch)

    def waits_json(self, hand_text: str, sc) -> dict:
        """A 7-tile hand: its waits (a kind held three times is no wait: there is no 4th) and
        its distance to a win; 8 tiles: complete or not."""
        from .hand import distance, is_winning, tables, waits
        from .tiles import counts_of, parse_tiles, tile_str
        kinds = parse_tiles(hand_text, "hand")
        t = tables(sc.get("shapes.wrap_runs"))
        c = counts_of(kinds).astype(np.int64)
        out = {"input": hand_text.strip(), "concealed": len(kinds), "revealed": 0}
        if len(kinds) == 7:
            w = int(waits(c, t))
            out.update(tenpai=w != 0, waits=[tile_str(k) for k in range(30) if (w >> k) & 1],
                       complete=False, distance=int(distance(c, t)))
            out["shanten"] = out["distance"] - 1   # the shared tables' word: 0 = tenpai
        elif len(kinds) == 8:
            out.update(tenpai=False, waits=[], complete=bool(is_winning(c, t)),
                       distance=int(distance(c, t)))
            out["shanten"] = out["distance"] - 1   # -1 = complete
        else:
            raise InputError(f"hand: {len(kinds)} tiles (7 between turns, 8 with the win)")
        return out

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        """The value of a win: HAND is the 8 tiles, or 7 and ``--win``; the context words in the
        text (``tsumo``, ``riichi`` or ``riichi1`` (declared in turn 1), ``dealer``, ``last``,
        ``turn:N``, ``dora:K``) or the options --by, --riichi, --last-card, --dora-indicator
        (the dora is the next kind: spec §3.5)."""
        from .score_text import score_hand
        return score_hand(hand_text, sc, **opts)

    def score_text(self, hand_text: str, sc, **opts) -> str:
        r = self.score_json(hand_text, sc, **opts)
        yk = ", ".join(f"{k} x{v:g}" for k, v in r["yaku"].items())
        return (f"{r['hand']}  (win {r['win']})\n  yaku: {yk or 'none (x1)'}; product "
                f"x{r['product']:g}\n  value {r['value']} (dora {r['n_dora']})")


FAMILY = Emoji()
