"""Two-player riichi mahjong as the harness sees it: the :class:`simcore.family.base.Family` of
the game (spec riichi2p.md). Two seats; what is riichi2p's here: its scenarios, simulator,
catalogue and per-game quantities, which rule keys are point values, and what ``replay``,
``waits`` and ``score`` print. Everything else is the base class's.
"""

from __future__ import annotations


from policies.riichi2p import POLICIES as _POLICIES

from ..errors import InputError
from ..family.base import Family
from simcore.family.tables import storage_types
from simcore.family.policy import Mechanic as _M
from simcore.nb.restrict import ALWAYS as _ALWAYS, NEVER as _NEVER
from . import layout as _L
from . import metrics as _metrics, scenario as _scenario, simulate as _simulate
from .engine import END_REASON_NAMES, N_SEATS


class Riichi2p(Family):
    NAME = "riichi2p"
    TITLE = "two-player riichi mahjong"
    DEFAULT_SCENARIO = "riichi2p"
    SEAT_VIEW = "simcore.riichi2p.seat_view"   # play
    SEATS = (N_SEATS, N_SEATS)
    SCENARIOS = _scenario.LOADER
    ANNOTATION = _scenario.ANNOTATION
    GAME_WORDS = ("game", "games")
    ROUND_WORDS = ("hand", "hands")      # the spec's word for a deal (局); its metrics say hands
    SIMULATOR, METRICS = _simulate.Simulator, _metrics.OWN_METRICS
    POLICIES = _POLICIES
    game_quantities = staticmethod(_metrics.game_quantities)
    GAME_CODES = {"end_reason": END_REASON_NAMES}
    SWEEP_METRICS = ("first_dealer_win_share", "mean_hands_per_game", "dealer_hand_win_rate",
                     "draw_rate", "mean_winning_pay")
    SEAT_METRICS_AT = 1
    GAME_DTYPES = storage_types(int32="rounds score0 score1 pool_left")
    GAME_DTYPE_DEFAULT = "int8"
    ROUND_DTYPES = storage_types(int64="game yaku reach0 reach1", int32="round pay score0 "
                                 "score1 honba pool_taken pool_left noten_paid han fu draws "
                                 "calls")
    MECHANICS = (
        _M("never_call", "never chi, pon or open kan", _NEVER,
           ((_L.A_CHI, _L.A_CHI + 3), (_L.A_PON, _L.A_MINKAN + 1))),
        _M("never_kan", "never a kan (closed, added or open)", _NEVER,
           ((_L.A_ANKAN, _L.A_KAKAN + _L.N_KINDS), (_L.A_MINKAN, _L.A_MINKAN + 1))),
        _M("never_riichi", "never riichi", _NEVER, ((_L.A_RIICHI, _L.A_RIICHI + _L.N_KINDS),)),
        _M("always_riichi", "riichi whenever it may", _ALWAYS,
           ((_L.A_RIICHI, _L.A_RIICHI + _L.N_KINDS),), _L.A_RIICHI - _L.A_DISCARD),
        _M("never_kyuushu", "never abort with nine terminals", _NEVER,
           ((_L.A_KYUUSHU, _L.A_KYUUSHU + 1),)),
        _M("never_ron", "wins by tsumo only (never ron)", _NEVER, ((_L.A_RON, _L.A_RON + 1),)),
    )
    KERNEL_FUNCTIONS = ("simcore.riichi2p.engine.play_games", "simcore.riichi2p.engine.play_hand")
    COMPILE_FIRST = ("policies.riichi2p.bots.decide",)
    # validation-only switches: which parent turns a dependent key on (spec §12)
    CONDITIONAL_KEYS = {"tenpai_declaration": "choose (not built)"}
    POINT_VALUE_PREFIXES = ("honba_value", "noten_penalty", "kiriage", "double_wind_pair_fu",
                            "open_pinfu_fu", "kazoe_yakuman", "honroutou_han",
                            "ryanpeikou_han", "double_yakuman", "yakuman_stacking",
                            "paarenchan_value", "shiisan_puutaa_value", "sanrenkou_open_han")
    EXAMPLE_HANDS = (("234567m 345p 67s 88p", None),
                     ("234567m 345p 67s 88p +8s tsumo seat:S", {}))

    # ---- scenarios ------------------------------------------------------------------------------
    def hidden_in_summary(self, sc) -> list:
        """A yaku the scenario's rules switch off is left out of the run summary rather than
        listed as "never scored" beside the ones that could happen and did not."""
        return [n for n in self.metrics_off(sc) if n.startswith("yaku_")]

    def metrics_off(self, sc) -> list:
        """Yaku the rules switch off (optional yaku not on; red fives off; ippatsu off)."""
        off = [f"yaku_{k}_share" for k in ("isshoku_sanjun", "sanrenkou", "suurenkou",
                                             "daisharin", "paarenchan", "shiisan_puutaa")
               if not sc.get(k)]
        if sc.get("renhou") == "none":
            off.append("yaku_renhou_share")
        if not sc.get("red_fives"):
            off.append("yaku_red_share")
        if not sc.get("ippatsu"):
            off.append("yaku_ippatsu_share")
        if not sc.get("ura_dora"):
            off.append("yaku_ura_share")
        if not sc.get("kazoe_yakuman"):
            off.append("yaku_kazoe_share")
        if sc.get("nagashi_mangan") == "none":
            off.append("nagashi_per_hand")
        return off

    def point_sources(self, idx, batch, data: dict):
        """Han, not points (metrics.point_sources): a win pays by han and fu."""
        return _metrics.point_sources(idx, batch.rounds, data)

    def yaku_reach(self, idx, batch, data: dict):
        return _metrics.yaku_reach(idx, batch.rounds, data)

    def engine_inputs(self, sc) -> tuple:
        from .rules_array import from_scenario, scoring_from_scenario
        return (from_scenario(sc), scoring_from_scenario(sc))

    # ---- replay and hands -----------------------------------------------------------------------
    def build_replay(self, sc, seed: int, game: int, events, batch):
        from .report import build_replay
        return build_replay(sc, seed, game, events, batch)

    def waits_json(self, hand_text: str, sc) -> dict:
        """A hand between turns (13 - 3 per call): its waits and shanten; with the 14th tile
        (``+TILE`` or 14 - 3 per call): complete or not. A win's context words (tsumo, seat:E,
        dora:3s) are accepted and play no part, so a line written for ``score`` works here; they
        are checked as ``score`` checks them (an unknown or malformed token is refused, not
        ignored)."""
        from .hand import distance, is_complete, tables, waits
        from .score_text import check_context
        from .tiles import parse_hand, tile_str, counts_of
        h = parse_hand(hand_text, "hand")
        check_context(h, "hand")     # context plays no part, but a bad token is not ignored
        kinds = h.concealed + ([h.win] if h.win is not None else [])
        ts, th = tables()
        c = counts_of(kinds)
        n_melds = len(h.melds)
        held = c.copy()
        for m in h.melds:
            for k in m.kinds:
                held[k] += 1
        out = {"input": hand_text.strip(), "concealed": len(kinds), "revealed": n_melds}
        need = 13 - 3 * n_melds
        if len(kinds) == need:
            all_four = bool(sc.get("tenpai_all_four_in_hand"))
            w = int(waits(c, n_melds, held, all_four, ts, th))
            d = int(distance(c, n_melds, ts, th))
            out.update(tenpai=w != 0, waits=[tile_str(k) for k in range(34) if (w >> k) & 1],
                       complete=False, shanten=d - 1)
        elif len(kinds) == need + 1:
            d = int(distance(c, n_melds, ts, th))
            out.update(tenpai=False, waits=[], complete=bool(is_complete(c, n_melds, ts, th)),
                       shanten=d - 1)
        else:
            raise InputError(f"hand: {len(kinds)} concealed tiles and {n_melds} calls "
                             f"(concealed + 3 per call must be 13, or 14 with the win)")
        return out

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        """The value of a win written in the spec's notation with its context tokens."""
        bad = [k for k, v in opts.items() if v not in (None, False)]
        if bad:
            raise InputError(f"score: --{bad[0].replace('_', '-')} has no meaning in riichi2p "
                             f"(write the context in the hand: tsumo, riichi, seat:E, dora:3s)")
        from .rules_array import scoring_from_scenario
        from .score_text import URA_DEFAULTS, score_hand
        return score_hand(hand_text, scoring_from_scenario(sc), sc.get("honba_value"),
                          options={k: sc.get(k) for k in URA_DEFAULTS})

    def score_text(self, hand_text: str, sc, **opts) -> str:
        r = self.score_json(hand_text, sc, **opts)
        if not r["win"]:
            return f"{r['hand']}\n  not a win: {r['why']}"
        value = (f"{r['han']} han {r['fu']} fu" if not r["yakuman"] else
                 f"yakuman x{r['yakuman']}")
        limit = f" ({r['limit']})" if r["limit"] else ""
        note = (f"\n  ({r['ura_not_counted']} ura indicator(s) not counted: {r['ura_why']})"
                if r.get("ura_not_counted") else "")
        return (f"{r['hand']}\n  yaku: {', '.join(r['yaku'])}\n  {value}{limit}: the loser "
                f"loses {r['pay']}" + (f" + honba = {r['total']}" if r["total"] != r["pay"]
                                      else "") + note)


FAMILY = Riichi2p()
