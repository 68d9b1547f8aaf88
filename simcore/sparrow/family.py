"""Sparrow mahjong as the harness sees it (spec sparrow.md): 2-6 seats; what is Sparrow's here is
its catalogue, its replay and what ``waits`` and ``score`` print. Everything else is the kit's."""

from __future__ import annotations

import numpy as np

from policies.sparrow import POLICIES
from simcore.errors import InputError
from simcore.family import chunks
from simcore.family.base import Family
from simcore.family.standard import loader
from simcore.family.tables import storage_types
from . import engine as E, metrics
from .hand import YAKU, best_win, distance, is_red, tables, waits
from .report import build_replay
from .rules import SCHEMA, SEATS, SLOTS, worst_cases
from .tiles import kind_str, parse_tiles


class Simulator(chunks.Simulator):
    """Chunks of games around the compiled engine (kit: :mod:`simcore.family.chunks`)."""
    ENGINE, ROUND_SCORE0, START_SCORE = E, "points0", "start_points"
    KERNEL = "simcore.sparrow.engine.kernel"
    SEARCH_KERNEL = "simcore.sparrow.search.play_games_search"
    POLICIES, MAX_SEATS = POLICIES, E.MAX_SEATS
    HISTOGRAMS = {"winning_points": ("points per win", "wins", 41),   # the kit counts them
                  "rounds_per_game": ("rounds per game", "games", 41)}

    def __init__(self, scenario):
        super().__init__(scenario)
        self.ra, self.t, self.n = SLOTS.array(scenario), tables(), len(scenario["players"])

    def policy_tables(self) -> tuple:
        return self.t, self.ra

    def kernel_inputs(self, debug) -> tuple:
        return self.n, self.ra, self.t, self.policy_ids, self.params


class Sparrow(Family):
    NAME, TITLE, DEFAULT_SCENARIO, SEATS = "sparrow", "Sparrow mahjong", "sparrow", SEATS
    SEAT_VIEW = "simcore.sparrow.seat_view"   # play
    SCENARIOS = loader("sparrow", "Sparrow mahjong", "sparrow", SCHEMA, POLICIES, SEATS,
                       worst_cases)
    SIMULATOR, POLICIES, METRICS, SEAT_METRICS_AT = Simulator, POLICIES, metrics.OWN_METRICS, 1
    game_quantities = staticmethod(metrics.game_quantities)
    point_sources = staticmethod(metrics.point_sources)
    yaku_reach = staticmethod(metrics.yaku_reach)
    build_replay = staticmethod(build_replay)
    GAME_CODES = {"end_reason": E.END_REASON_NAMES}
    SWEEP_METRICS = ("first_dealer_win_share", "seat0_win_share", "draw_rate",
                     "mean_winning_points")
    GAME_DTYPES, GAME_DTYPE_DEFAULT = storage_types(int32=" ".join(E.GAME_FIELDS[5:])), "int16"
    ROUND_DTYPES = storage_types(int64="game", int32=" ".join(E.ROUND_FIELDS[8:]))
    COMPILE_FIRST = ("policies.sparrow.bots.decide",)
    POINT_VALUE_PREFIXES = ("scoring.", "draw.noten_payment")
    EXAMPLE_HANDS = (("123s 45s", None), ("123s 45s", {"win": "6s"}))

    def metrics_off(self, sc) -> list:
        return [f"yaku_{y}_share" for y in YAKU[:5] if sc.get(f"scoring.{y}") == 0]

    def _hand(self, text: str, sc, win: str | None = None):
        red = sc.get("deck.red_bamboo")
        tiles = parse_tiles(f"{text} {win or ''}", red, "hand" if win is None else
                            "hand and --win")
        return tiles, np.bincount(np.array(tiles, np.int64) >> 2, minlength=11)

    def waits_json(self, hand_text: str, sc) -> dict:
        """5 tiles: the waits and the distance; 6: whether it is a win."""
        tiles, c = self._hand(hand_text, sc)
        if len(tiles) not in (5, 6):
            raise InputError(f"hand: {len(tiles)} tiles (5 between turns, 6 with the win)")
        d = int(distance(c, tables()))
        w = int(waits(c, tables())) if len(tiles) == 5 else 0
        return {"input": hand_text.strip(), "concealed": len(tiles), "revealed": 0,
                "tenpai": w != 0, "waits": [kind_str(k) for k in range(11) if (w >> k) & 1],
                "complete": len(tiles) == 6 and d == 0, "distance": d, "shanten": d - 1}

    def score_json(self, hand_text: str, sc, win=None, dora=None, by="tsumo", **opts) -> dict:
        """HAND is the six tiles (or five and ``--win``); ``--dora-indicator`` (default none),
        and ``dealer`` in the hand text for a dealer's win."""
        if opts:
            raise InputError(f"score: sparrow has no {', '.join('--' + k for k in opts)}")
        dealer = "dealer" in hand_text.split()
        if hand_text.split().count("dealer") > 1:
            raise InputError("score: the word dealer given twice")
        text = " ".join(w for w in hand_text.split() if w != "dealer")
        tiles, c = self._hand(text, sc, win)
        if len(tiles) != 6:
            raise InputError(f"hand: {len(tiles)} tiles (a win is 6, or 5 and --win)")
        ra = SLOTS.array(sc)
        ind = parse_tiles(dora, 1, "--dora-indicator") if dora is not None else []
        if dora is not None and len(ind) != 1:
            raise InputError(f"--dora-indicator: {dora!r}: expected one tile")
        dk = int(E.dora_of(ind[0] >> 2, ra)) if ind else -1
        reds = sum(bool(is_red(t, sc.get("deck.red_bamboo"))) for t in tiles)
        n_dora = int(c[dk]) if dk >= 0 else 0
        p, bits, runs = best_win(c, reds, n_dora, dealer, sc.get("scoring.specials") == "alone",
                                 ra[E.RA_SCORING_RUN:E.RA_SCORING_DEALER_BONUS + 1])
        if p < 0:
            raise InputError(f"hand: {hand_text.strip()!r} is not two sets")
        return {"hand": text, "win": win, "points": int(p), "legal": int(p) >= sc.get(
            "wins.min_points"), "yaku": [y for i, y in enumerate(YAKU) if (bits >> i) & 1],
            "by": by, "runs": int(runs), "red": reds, "dora": n_dora,
            "dora_kind": kind_str(dk) if dk >= 0 else None}

    def score_text(self, hand_text: str, sc, **opts) -> str:
        r = self.score_json(hand_text, sc, **opts)
        return (f"{r['hand']}{'  (win ' + r['win'] + ')' if r['win'] else ''}\n  {r['points']} "
                f"points: {r['runs']} runs, {2 - r['runs']} triplets, {r['red']} red, {r['dora']}"
                f" dora{'; ' + ', '.join(r['yaku']) if r['yaku'] else ''}"
                f"\n  {'a legal win' if r['legal'] else 'below wins.min_points: no win'}")


FAMILY = Sparrow()
