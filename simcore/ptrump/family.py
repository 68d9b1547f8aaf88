"""P-style trump mahjong as the harness sees it: the :class:`simcore.family.base.Family` of
the game.

What is P-style's own here: its scenarios (:mod:`simcore.ptrump.scenario`, with the beginner
preset that overrides must see), simulator, catalogue and per-match quantities, which rule keys
are point values and which metrics a rule switches off, and what ``replay``, ``waits`` and
``score`` print. Everything else is the base class's.
"""

from __future__ import annotations

from policies.ptrump import POLICIES as _POLICIES

from ..errors import InputError
from ..family.base import Family
from simcore.family.tables import storage_types
from simcore.family.policy import Mechanic as _M
from simcore.nb.restrict import ALWAYS as _ALWAYS, NEVER as _NEVER
from . import layout as _L
from . import metrics as _metrics, scenario as _scenario, simulate as _simulate
from .layout import MAX_SEATS


class PStyle(Family):
    NAME = "ptrump"
    TITLE = "P-style trump mahjong"
    DEFAULT_SCENARIO = "ptrump_2p"
    SEAT_VIEW = "simcore.ptrump.seat_view"   # play
    SEATS = (2, MAX_SEATS)
    SCENARIOS = _scenario.LOADER
    ANNOTATION = _scenario.ANNOTATION
    GAME_WORDS = ("match", "matches")
    SIMULATOR, METRICS = _simulate.Simulator, _metrics.OWN_METRICS
    POLICIES = _POLICIES
    game_quantities = staticmethod(_metrics.game_quantities)
    GAME_CODES = {"end_reason": _metrics.END_REASON_NAMES}
    BREAKDOWNS = _metrics.breakdowns()
    BREAKDOWN_METRICS = _metrics.BREAKDOWN_METRICS
    breakdown_codes = staticmethod(_metrics.breakdown_codes)
    SWEEP_METRICS = ("first_dealer_win_share", "seat0_win_share", "draw_rate",
                     "mean_winning_value", "mean_rounds_per_match")
    SEAT_METRICS_AT = 1   # after the first dealer's share
    # Parquet storage of the record columns (others: int8)
    GAME_DTYPES = storage_types(int32="rounds score0 score1 score2 pool_left")
    GAME_DTYPE_DEFAULT = "int8"
    ROUND_DTYPES = storage_types(
        int64="game yaku_bits0 yaku_bits1 yaku_bits2 reach0 reach1 reach2",
        int32="round score0 score1 score2 pool counted0 counted1 counted2",
        int16="value value0 value1 value2 deposits_taken deposits_lost noten_penalty noten_paid "
              "pon_penalty turns")
    MECHANICS = (
        _M("never_pon", "never pon", _NEVER, ((_L.A_PON, _L.A_PON + 1),)),
        _M("never_kan", "never a kan (open, closed or added)", _NEVER,
           ((_L.A_KAN_OPEN, _L.A_KAN_OPEN + 1), (_L.A_ANKAN, _L.A_KAKAN + _L.MAX_SETS))),
        _M("never_nuki", "never sets a joker aside", _NEVER, ((_L.A_NUKI, _L.A_NUKI + 1),)),
        _M("never_riichi", "never riichi", _NEVER, ((_L.A_RIICHI, _L.A_RIICHI + _L.N_CARDS),)),
        _M("always_riichi", "riichi whenever it may", _ALWAYS,
           ((_L.A_RIICHI, _L.A_RIICHI + _L.N_CARDS),), _L.A_RIICHI - _L.A_DISCARD),
        _M("never_ron", "wins by tsumo only (never ron or rob)", _NEVER,
           ((_L.A_RON, _L.A_RON + 1),)),
    )
    KERNEL_FUNCTIONS = ("simcore.ptrump.engine.play_matches", "simcore.ptrump.engine.play_round")
    # The bots' decision kernel: self-contained (the distance search and the bots), and the
    # natural compile reaches it in its middle, so the second worker starts there.
    COMPILE_FIRST = ("policies.ptrump.bots.decide",)
    CONDITIONAL_KEYS = {"scoring.additive.open_riichi.": "riichi.open_riichi: on"}
    EXAMPLE_HANDS = (("234 67 55", None), ("nuki:X 111 TTT 9 +9 tsumo riichi ippatsu dora:9 "
                                          "ura:X", {}))

    # ---- scenarios ---------------------------------------------------------------------------
    def metrics_off(self, sc) -> list:
        """The yaku, additive bonuses and yakuman it disables, a zero Pon deduction, yakuless
        wins under yaku_required, multiple ron under head bump, open riichi off."""
        off = []
        for group in ("scoring.yaku", "scoring.additive", "scoring.yakuman"):
            for k, y in (sc.get(group) or {}).items():
                if hasattr(y, "get") and y.get("enabled") is False and k in _metrics.SLOTS:
                    off.append(f"yaku_{k}_share")
        if not sc.get("scoring.deductions.pon"):
            off.append("yaku_pon_share")
        if sc.get("scoring.yaku_required"):
            off.append("yakuless_win_share")
        if sc.get("calls.multiple_ron") == "head_bump":
            off.append("multiple_ron_rate")
        if sc.get("riichi.open_riichi") == "off":
            off.append("yaku_open_riichi_share")
        return off

    def point_sources(self, idx, batch, data: dict):
        return _metrics.point_sources(idx, batch.rounds, data)

    def yaku_reach(self, idx, batch, data: dict):
        return _metrics.yaku_reach(idx, batch.rounds, data)

    def engine_inputs(self, sc) -> tuple:
        from .rules_array import build_hand_rules, build_rules_array
        return (build_rules_array(sc), build_hand_rules(sc))

    def is_point_value(self, key: str) -> bool:
        # Only the points of score items qualify: an item's points can make a win legal or not
        # only through negative_win: forbidden, a flow change (point_values_only).
        return (key.startswith(("scoring.yaku.", "scoring.additive.", "scoring.yakuman."))
                and key.endswith("points")) or key == "scoring.deductions.pon"

    def point_values_only(self, scenarios) -> bool:
        return not any(sc.get("scoring.negative_win") == "forbidden" for sc in scenarios)

    # ---- replay and hands ------------------------------------------------------------------------
    def build_replay(self, sc, seed: int, game: int, events, batch):
        from .report import build_replay
        return build_replay(sc, seed, game, events, batch)

    def waits_json(self, hand_text: str, sc) -> dict:
        """Waits, completeness and shanten of one hand under ``sc``'s shape rules (a 7/4/1-card
        hand: its waits; with a ``+card`` or 8/5/2 cards: complete or not)."""
        import numpy as np
        from .cards import format_rank_mask, parse_hand, rank_counts
        from .engine import win_cards
        from .hand import held_out_mask, is_complete, shanten
        from .rules_array import build_hand_rules, build_rules_array
        p = parse_hand(hand_text, allow_drawn=True)
        hr = build_hand_rules(sc)
        ids = list(p.concealed) + ([p.win] if getattr(p, "win", None) is not None else [])
        cnt = rank_counts(ids).astype(np.int64)
        k = len(p.revealed)
        out = {"input": hand_text, "concealed": len(ids), "revealed": k}
        if len(ids) == 7 - 3 * k:
            # the win rule's waits (spec §2): a rank is a wait only if a card of it completes a
            # winning shape, so a mixed-colour 1-8 waits on nothing under paaren_one_colour
            suitless = any(c in p.suitless for c in ids)
            wc = int(win_cards(np.array(ids, np.int64), len(ids), -1, cnt, k, hr,
                               build_rules_array(sc), suitless))
            w = 0
            for c in range(54):       # the ranks with a completing card
                if (wc >> c) & 1:
                    w |= 1 << (c // 4)
            held = cnt.copy()
            for rs in p.revealed:
                for c in rs.cards:
                    held[c // 4] += 1
            live = w & ~int(held_out_mask(held))
            out.update(complete=False, tenpai=live != 0, shanten=int(shanten(cnt, k, hr)),
                       waits=list(format_rank_mask(live)),
                       dead_waits=list(format_rank_mask(w & ~live)))
        else:
            out.update(complete=bool(is_complete(cnt, k, hr)), tenpai=False,
                       shanten=int(shanten(cnt, k, hr)), waits=[], dead_waits=[])
        return out

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        """The score of a win written in notation with its context (``"234 67 55 +8 tsumo
        dora:K"``); of the MOMOJAN ``score`` options only ``dealer``, ``open_riichi`` and
        ``nuki_replacement`` apply, the others are refused."""
        from .scoring import score_text
        keep = {k: v for k, v in opts.items()
                if k in ("dealer", "open_riichi", "nuki_replacement") and v is not None}
        ignored = [_SCORE_OPTIONS.get(k, k) for k, v in opts.items()
                   if k not in keep and v not in (None, False)]
        if ignored:
            raise InputError(f"score: {', '.join(ignored)} would be ignored: a P-style "
                             f"hand carries its win card and context in the text (e.g. \"234 67 "
                             f"55 +8 tsumo riichi dora:K\")")
        return score_text(hand_text, sc, **keep)

    def score_text(self, hand_text: str, sc, **opts) -> str:
        r = self.score_json(hand_text, sc, **opts)
        if not r.get("valid", True):
            return f"{hand_text}: no win ({r.get('reason', '')})"
        items = ", ".join(f"{k} {v}" for k, v in r.get("items", {}).items())
        ded = ", ".join(f"{k} {v}" for k, v in r.get("deductions", {}).items())
        return (f"{hand_text}\n  items: {items or '-'}" + (f"\n  deductions: {ded}" if ded else "")
                + f"\n  total: {r.get('total')}")


# The MOMOJAN score options, as the command line spells them.
_SCORE_OPTIONS = {"win": "--win", "by": "--by", "riichi": "--riichi", "ippatsu": "--ippatsu",
                  "dora": "--dora-indicator", "last_card": "--last-card", "rinshan": "--rinshan"}


FAMILY = PStyle()
