"""MOMOJAN as the harness sees it: the :class:`simcore.family.base.Family` of the game.

What is MOMOJAN's own here: its scenarios (:mod:`simcore.momojan.scenario`), simulator,
catalogue and per-game quantities, which rule keys are point values and which metrics a rule
switches off, the yaku a scenario names itself, and what ``replay``, ``waits`` and ``score``
print. Everything else is the base class's.
"""

from __future__ import annotations

from policies.momojan import POLICIES as _POLICIES

from ..errors import InputError
from ..family.base import Family
from simcore.family.tables import storage_types
from simcore.family.policy import Mechanic as _M
from simcore.nb.restrict import ALWAYS as _ALWAYS, NEVER as _NEVER
from .actions import (CALL as _CALL, DISCARD as _DISCARD, DISCARD_RIICHI as _RIICHI,
                      DRAW_THREE as _DRAW3, KAI as _KAI, KAN_CLOSED as _KAN,
                      N_ACTIONS as _N_ACTIONS, RON as _RON, TSUMO as _TSUMO)
from . import luck as _luck, metrics as _metrics, scenario as _scenario, simulate as _simulate


# Why the value bot does not plan for these yaku (its response table lists them so)
_NOT_PLANNED = {
    "riichi": "declared whenever riichi adds points (nearly every tenpai): no room to rise",
    "ippatsu": "luck after a riichi: nothing to plan",
    "kibidango": "needs every set called: the bot's observation does not say which of its "
                 "revealed sets were called",
    "haitei": "luck (the last stock card)", "houtei": "luck (the round's last discard)",
    "kan": "the bots do not declare kans", "rinshan": "the bots do not declare kans",
    "yonshoku": "the same run in all four fruits: not estimated (too rare to plan for)",
}


class Momojan(Family):
    NAME = "momojan"
    TITLE = "MOMOJAN"
    DEFAULT_SCENARIO = "new_edition"
    SEAT_VIEW = "simcore.momojan.seat_view"   # play
    SEATS = (2, 2)
    SCENARIOS = _scenario.LOADER
    SIMULATOR, METRICS = _simulate.Simulator, _metrics.OWN_METRICS
    POLICIES = _POLICIES
    game_quantities = staticmethod(_metrics.game_quantities)
    SWEEP_METRICS = ("first_dealer_win_rate", "dealer_round_win_rate", "draw_rate",
                     "mean_winning_points", "mean_rounds_per_game")
    SEAT_METRICS_AT = 2   # after the first dealer's rate and the tied-game rate
    # Parquet storage of the record columns (game columns not named: int32, round ones: int8)
    GAME_DTYPES = storage_types(int8="winner end_reason first_dealer", int16="rounds",
                                int32="score0 score1 pot_left")
    ROUND_DTYPES = storage_types(
        int64="game yaku_bits reach0 reach1", int32="points subtotal pot score0 score1 draw_payment "
        "luck_dealer luck_other luck_tsumo luck_ron gap_before",
        int16="round turns stock_left repeat dora ron_bonus set_bonus")
    LUCK_CONTROLS = _luck.GAME_CONTROLS   # luck_controls below
    MECHANICS = (
        _M("never_call", "never Pon or Chi", _NEVER, ((_CALL, _KAN),)),
        _M("never_kai", "never Kai (reveal a set from the hand) where it is optional", _NEVER,
           ((_KAI, _CALL),)),
        _M("never_draw_three", "never draw three", _NEVER, ((_DRAW3, _DRAW3 + 1),)),
        _M("never_riichi", "never riichi", _NEVER, ((_RIICHI, _TSUMO),)),
        _M("always_riichi", "riichi whenever it may", _ALWAYS, ((_RIICHI, _TSUMO),),
           _RIICHI - _DISCARD),
        _M("never_kan", "never a kan", _NEVER, ((_KAN, _N_ACTIONS),)),
        _M("never_ron", "wins by tsumo only (never ron)", _NEVER, ((_RON, _RON + 1),)),
    )
    KERNEL_FUNCTIONS = ("simcore.momojan.engine.play_games", "simcore.momojan.engine.play_round")
    # The bots' decision kernel: self-contained (the distance search and the bots), and the
    # natural compile reaches it in its middle, so the second worker starts there.
    COMPILE_FIRST = ("policies.momojan.play.play",)
    EXAMPLE_HANDS = (("kai:111z chi:789o 23o 44z 123l", None),
                     ("kai:111z kai:456o chi:789o 23o 44z", {"win": "1o", "by": "ron"}))
    GAME_CODES = {"end_reason": _metrics.END_REASON_NAMES}
    BREAKDOWNS = _metrics.breakdowns()
    BREAKDOWN_METRICS = _metrics.BREAKDOWN_METRICS
    BREAKDOWN_RULES = {
        ("score_gap", "0"): ("game.tie_break", "compensation.komi_at"),
        ("end_reason", "bust"): ("game.bust_below", "starting_points", "scoring.double_factor"),
        ("end_reason", "ante_unpayable"): ("ante.base", "ante.per_repeat", "starting_points"),
        ("end_reason", "dealer_streak"): ("game.dealer_streak_win",),
        ("end_reason", "four_dealerships"): ("game.dealerships_each",),
        ("end_reason", "oshimai"): ("scoring.yaku.oshimai.ends_game",),
        ("end_reason", "round_limit"): ("game.dealerships_each",),
    }
    breakdown_codes = staticmethod(_metrics.breakdown_codes)

    def luck_controls(self, idx, games, rounds):
        """The draws' luck per game (simcore.momojan.luck): mean exactly 0 whatever the bots."""
        from .engine import GF_FIRST_DEALER, ROUND_FIELDS
        rf = {name: i for i, name in enumerate(ROUND_FIELDS)}
        return _luck.game_controls(idx, games, rounds, GF_FIRST_DEALER, rf)

    def point_sources(self, idx, batch, data: dict):
        return _metrics.point_sources(idx, batch.rounds, data)

    def yaku_reach(self, idx, batch, data: dict):
        return _metrics.yaku_reach(idx, batch.rounds, data)

    POINT_VALUE_PREFIXES = ("scoring.double_threshold", "scoring.double_factor",
                            "scoring.dora_per_card", "scoring.ron_bonus",
                            "scoring.set_count_bonus.")

    # ---- scenarios ---------------------------------------------------------------------------
    def scenario_yaml(self, sc, title: str) -> str:
        from .scenario_yaml import annotated_yaml
        return annotated_yaml(sc.to_dict(), title=title)

    def metrics_off(self, sc) -> list:
        """Disabled yaku, zero bonuses, unused new-yaku slots, kans, three-card draws or riichi
        turned off, oshimai that does not end the game."""
        off = [f"yaku_{k}_share" for k, y in (sc.get("scoring.yaku") or {}).items()
               if hasattr(y, "get") and y.get("enabled") is False]
        off += self.hidden_in_summary(sc)   # new-yaku slots the scenario does not use
        bonus = sc.get("scoring.set_count_bonus") or {}
        off += [f"yaku_{k}_share" for k, v in bonus.items() if not v]
        if not any(bonus.values()):
            off.append("set_count_bonus_share")
        if not sc.get("scoring.ron_bonus"):
            off.append("ron_bonus_share")
        if not sc.get("scoring.dora_per_card"):
            off.append("dora_bonus_share")
        if not sc.get("kan.enabled"):
            off += ["kan_per_round", "yaku_kan_share", "yaku_rinshan_share"]
        if not sc.get("draw_three.enabled"):
            off.append("draw_three_per_round")
        if not sc.get("riichi.enabled"):
            off += ["riichi_rate", "yaku_riichi_share", "yaku_ippatsu_share"]
        oshimai = sc.get("scoring.yaku.oshimai") or {}
        if not (oshimai.get("enabled") and oshimai.get("ends_game")):
            off.append("end_oshimai_rate")
        return off

    def engine_inputs(self, sc) -> tuple:
        from .rules_array import build_rules_array
        return (build_rules_array(sc), sc.hand_rules)

    def is_point_value(self, key: str) -> bool:
        return super().is_point_value(key) or (key.startswith("scoring.yaku.")
                                                and key.endswith(".points"))

    def score_effects(self) -> str:
        return "doubling, busts, when games end"

    def response_probes(self, sc):
        """Every yaku ``value`` aims for and the bonuses it weighs, each raised by 3 points
        (dora by 1 a card, the doubling factor by 1), against the share of wins that has it."""
        from policies.momojan.worth import UNPLANNED_YAKU
        from simcore.family.metrics import Probe
        from .rules_array import SET_BONUS_NAMES
        new = {v: k for k, v in _metrics.slot_display_names(sc).items()}
        probes, skipped = [], []
        for name, y in sc.get("scoring.yaku").items():
            key = f"scoring.yaku.{name}.points"
            if not y.get("enabled", True):
                continue
            if name in UNPLANNED_YAKU or name in ("riichi", "ippatsu"):
                skipped.append((key, _NOT_PLANNED.get(name, "not a hand the bot builds")))
                continue
            metric = f"yaku_{new.get(name, name)}_share"
            probes.append(Probe(key, y["points"] + 3, metric,
                                f"{name} ({y['points']} -> {y['points'] + 3} points)"))
        for name in SET_BONUS_NAMES:
            key = f"scoring.set_count_bonus.{name}"
            v = sc.get(key)
            probes.append(Probe(key, v + 3, f"yaku_{name}_share",
                                f"{name} set-count bonus ({v} -> {v + 3})"))
        v = sc.get("scoring.dora_per_card")
        probes.append(Probe("scoring.dora_per_card", v + 1, "dora_bonus_share",
                            f"dora ({v} -> {v + 1} a card)"))
        v = sc.get("scoring.double_factor")
        probes.append(Probe("scoring.double_factor", v + 1, "doubled_win_rate",
                            f"doubling factor ({v} -> {v + 1})"))
        skipped.append(("scoring.ron_bonus", "the bot takes every win it is offered; a ron "
                        "cannot be chosen over a tsumo"))
        skipped.append(("scoring.double_threshold", "moving it changes the doubled share by "
                        "itself, whatever the play (the doubling factor is probed instead)"))
        return probes, skipped

    # ---- summaries ---------------------------------------------------------------------------------
    def metric_display_names(self, sc) -> dict:
        """The new picture-set yaku a scenario adds, by its own names."""
        return {f"yaku_{k}_share": v for k, v in _metrics.slot_display_names(sc).items()}

    def hidden_in_summary(self, sc) -> list:
        used = _metrics.slot_display_names(sc)
        return [f"yaku_{k}_share" for k in _metrics.NEW_SLOT_NAMES if k not in used]

    # ---- replay and hands ------------------------------------------------------------------------
    def histogram_marks(self, sc, name: str) -> list:
        """Points per win: a subtotal of ``double_threshold`` or more is multiplied, so paid
        points jump from threshold - 1 to threshold x factor; the line marks the jump."""
        t, f = sc.get("scoring.double_threshold"), sc.get("scoring.double_factor")
        if name != "winning_points" or f <= 1:
            return []
        return [(t * f, f"x{f} from a subtotal of {t}")]

    def replay(self, sc, seed: int, game: int, sim=None, record=None):
        from .report import build_replay
        sim = sim or self.SIMULATOR(sc)
        events, batch = record if record is not None else sim.replay_events(seed, game)
        return build_replay(sc, seed, game, events, batch, sim.ET.rows)

    def waits_json(self, hand_text: str, sc) -> dict:
        """Waits, completeness and shanten of one hand in card notation under ``sc``'s rules
        (:func:`simcore.momojan.analysis.describe`)."""
        from .analysis import describe, parse_hand_for
        hand = parse_hand_for(hand_text, sc.hand_rules, sc.get("kan.enabled"))
        return describe(hand_text, _analyzer(sc), hand)

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        """The score of a win (``opts``: win, by, riichi, ippatsu, dora, last_card, rinshan)."""
        return _score(hand_text, sc, **opts).to_json()

    def score_text(self, hand_text: str, sc, **opts) -> str:
        return _score(hand_text, sc, **opts).describe()


_ANALYZERS: dict = {}


def _analyzer(sc):
    from .tables import HandAnalyzer
    hr = sc.hand_rules
    if hr not in _ANALYZERS:
        _ANALYZERS[hr] = HandAnalyzer(hr)
    return _ANALYZERS[hr]


def _score(hand_text, sc, win=None, by="tsumo", riichi=False, ippatsu=False, dora=None,
           last_card=False, rinshan=False):
    from .scoring import score_text
    if win is None:
        raise InputError("score: Missing option '--win' (the winning card)")
    rules = str(sc.path) if sc.path else sc.name
    return score_text(hand_text, win, by, riichi, ippatsu, dora, last_card, rinshan, rules)


FAMILY = Momojan()
