"""P-style trump mahjong as seen by the game-agnostic harness: the family interface (issue 13).

The same functions as :mod:`simcore.momojan.family` (the README's "Game families" table lists
them): scenarios, overrides and payloads (:mod:`simcore.ptrump.scenario`), the metric catalogue
and the pure chunk function (:mod:`simcore.ptrump.metrics`, :mod:`simcore.ptrump.simulate`), what
result directories and reports need, and what ``replay``, ``waits`` and ``score`` print.
"""

from __future__ import annotations

from .. import family_common as _common
from ..family_common import (  # noqa: F401  (part of the interface, the same in every family)
    payload, replay_command, run_defaults, seats, waits_table,
)
from ..errors import InputError
from . import scenario as _scenario
from .metrics import CATALOGUE, HEADLINE  # noqa: F401  (part of the interface)
from .simulate import HISTOGRAMS, chunk_stats  # noqa: F401

NAME = "ptrump"
TITLE = "P-style trump mahjong"
DEFAULT_SCENARIO = "ptrump_2p"
ROUNDS_METRIC = "mean_rounds_per_match"   # per-game numerator: rounds played
RUNNER_KEYS = ("name", "description", "extends", "run", "players", "game")

# The metrics a sweep tabulates unless told otherwise.
SWEEP_METRICS = ("first_dealer_win_share", "seat0_win_share", "draw_rate", "mean_winning_value",
                 "mean_rounds_per_match")


def load(ref):
    return _scenario.load(ref)


def n_seats(sc) -> int:
    """Seats (players) of the scenario: 2 or 3."""
    return len(sc["players"])


def policy_names() -> list:
    from .bots import policy_names as _names
    return _names()


def with_players(sc, text: str | None, option: str = "--players"):
    """``sc`` with its seats from a ``--players`` string (``greedy,baseline`` or
    ``greedy:pon=0.5,random,baseline``; one entry seats everyone), validated like YAML seats."""
    if not text:
        return sc
    from policies.players import parse_players
    seats = parse_players(text, n_seats=n_seats(sc), option=option, names=policy_names())
    data = sc.to_dict()
    data["players"] = seats
    try:
        return _scenario.from_dict(data, name=sc.name)
    except InputError as exc:   # a parameter out of range: the option, not the file, said it
        raise InputError(f"{option} {text}: {str(exc).split(': ', 1)[-1]}") from None


def from_payload(data: dict):
    return _common.from_payload(data, _scenario.from_dict)


def with_overrides(sc, overrides: dict, name: str):
    """``sc`` with ``overrides`` (nested mapping) applied, validated like a YAML file."""
    return _scenario.with_overrides(sc, overrides, name)


def rules_data(data: dict) -> dict:
    """The rules of a resolved scenario (what the rules hash covers)."""
    return _common.rules_data(data, RUNNER_KEYS)


def metrics_off(sc) -> list:
    """Catalogue metrics that ``sc``'s rules switch off: the yaku, additive bonuses and
    yakuman it disables, a zero Pon deduction (compare lists them once)."""
    from .metrics import SLOTS
    off = []
    for group in ("scoring.yaku", "scoring.additive", "scoring.yakuman"):
        for k, y in (sc.get(group) or {}).items():
            if hasattr(y, "get") and y.get("enabled") is False and k in SLOTS:
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


def scenario_yaml(sc, title: str) -> str:
    return _scenario.annotated_yaml(sc.to_dict(), title=title)


def summarize_variant(sc, seed, sums, reached=None, v: int = 0) -> dict:
    from .report import summarize
    return summarize(sc.name, seed, sums, reached, v=v, scenario=sc)


def summary_text(summary: dict) -> str:
    from .report import summary_table
    return summary_table(summary)


def rounds_played(sums, v: int = 0) -> int:
    return _common.rounds_played(sums, CATALOGUE, ROUNDS_METRIC, v)


def metric_groups(metric_names) -> list:
    """(title, [metric names]) for reports: headline and seat metrics, end reasons, yaku."""
    names = list(metric_names)
    seat = [n for n in names if n.startswith("seat")]
    ends = [n for n in names if n.startswith("end_")]
    yaku = [n for n in names if n.startswith("yaku_")]
    rest = [n for n in names if n not in ends and n not in yaku and n not in seat]
    return [("Headline metrics", rest), ("Seats (share of matches)", seat),
            ("How matches end (share of matches)", ends),
            ("Yaku and bonuses (share of wins)", yaku)]


# Compact column types of the per-game and per-round Parquet tables (default int8 / int32).
_GAME_TYPES = {"rounds": "int32", "score0": "int32", "score1": "int32", "score2": "int32",
               "pool_left": "int32"}
_ROUND_WIDE = {"game": "int64", "yaku_bits0": "int64", "yaku_bits1": "int64",
               "yaku_bits2": "int64", "round": "int32", "value": "int16", "value0": "int16",
               "value1": "int16", "value2": "int16", "score0": "int32", "score1": "int32",
               "score2": "int32", "pool": "int32", "deposits_taken": "int16",
               "deposits_lost": "int16", "noten_penalty": "int16", "noten_paid": "int16",
               "pon_penalty": "int16", "turns": "int16"}


def game_table(batch, first_game: int) -> dict:
    from .engine import GAME_FIELDS
    return _common.game_table(batch, first_game, GAME_FIELDS, _GAME_TYPES, "int8")


def round_table(batch) -> dict:
    from .engine import ROUND_FIELDS
    return _common.round_table(batch, ROUND_FIELDS, _ROUND_WIDE)


def values_from_tables(games_cols: dict, rounds_cols: dict):
    from .engine import GAME_FIELDS, ROUND_FIELDS
    from .metrics import game_values
    return _common.values_from_tables(games_cols, rounds_cols, GAME_FIELDS, ROUND_FIELDS,
                                      game_values)


KERNEL_FUNCTIONS = ("simcore.ptrump.engine.play_matches", "simcore.ptrump.engine.play_round")
# The bots' decision kernel: self-contained (the distance search and the bots), and the natural
# compile reaches it in its middle, so the second worker starts there (simcore.compile_plan).
COMPILE_FIRST = ("simcore.ptrump.bots.decide",)


def play_for_compile():
    """Play two matches of the default scenario: compiles the kernel (one for every scenario,
    seat count and bot: rules and seats are arrays)."""
    import numpy as np

    from .simulate import Simulator
    Simulator(load("ptrump_2p")).play(np.arange(2), seed=1)


def compile_helpers(_arg=None) -> int:
    """A second worker's share of a cold start (:mod:`simcore.compile_plan`)."""
    from ..compile_plan import compile_reversed
    return compile_reversed(__package__, first=COMPILE_FIRST)


def kernels_cached() -> bool:
    """Whether numba's on-disk cache holds the match kernel for this machine and source (else the
    first chunk compiles it: about a minute on 2 cores)."""
    from . import engine
    return _common.kernels_cached(engine.play_matches)


# Rule keys that are point values only: the bots that do not read point values (PolicySpec
# .reads_point_values) play every round the same whatever they are. Only the points of score
# items qualify (an item's points can make a win legal or not only through negative_win:
# forbidden, which is then a flow change too, so that key is not a point value).
def _is_point_value(key: str) -> bool:
    return (key.startswith(("scoring.yaku.", "scoring.additive.", "scoring.yakuman."))
            and key.endswith("points")) or key == "scoring.deductions.pon"


def play_note(scenarios) -> str | None:
    """One line when the rules that differ are point values only and no seated policy reads
    them (decisions cannot change, only the scores)."""
    from .bots import POLICY_SPECS
    if len(scenarios) < 2:
        return None
    changed = _common.changed_rules(scenarios, rules_data)
    if not changed or not all(_is_point_value(k) for k in changed):
        return None
    if any(sc.get("scoring.negative_win") == "forbidden" for sc in scenarios):
        return None
    policies = sorted({s["policy"] for sc in scenarios for s in sc["players"]})
    if any(POLICY_SPECS[p].reads_point_values for p in policies):
        return None
    keys = _common.key_list(changed)
    return (f"note: the rules that differ ({keys}) are point values, and no seated policy "
            f"({', '.join(policies)}) reads point values: every round is played the same; "
            f"differences come only through the scores (when matches end)")


# ---------------------------------------------------------------------------------------------
# What the replay and hand commands print (``replay``, ``waits``, ``score``)
# ---------------------------------------------------------------------------------------------

def replay_text(sc, seed: int, game: int) -> str:
    """The play-by-play of match ``game`` of ``seed`` (the same match ``run`` played)."""
    from .report import replay_text as _replay_text
    from .simulate import Simulator
    events, batch = Simulator(sc).replay_events(seed, game)
    return _replay_text(sc, seed, game, events, batch)


def waits_json(hand_text: str, sc) -> dict:
    """Waits, completeness and shanten of one hand in card notation under ``sc``'s shape rules
    (a 7/4/1-card hand: its waits; with a ``+card`` or 8/5/2 cards: complete or not)."""
    import numpy as np
    from .cards import format_rank_mask, parse_hand, rank_counts
    from .engine import win_cards
    from .hand import held_out_mask, is_complete, shanten
    from .rules_array import build_hand_rules, build_rules_array
    p = parse_hand(hand_text, allow_drawn=True) if _allows_drawn() else parse_hand(hand_text)
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


def _allows_drawn() -> bool:
    import inspect
    from .cards import parse_hand
    return "allow_drawn" in inspect.signature(parse_hand).parameters


def waits_text(hand_text: str, sc) -> str:
    return waits_table([waits_json(hand_text, sc)])


def score_json(hand_text: str, sc, **opts) -> dict:
    """The score of a win written in notation with its context (``"234 67 55 +8 tsumo dora:K"``);
    the text carries the context, so ``opts`` from the MOMOJAN ``score`` options are ignored
    except ``dealer``, ``open_riichi`` and ``nuki_replacement``."""
    from .scoring import score_text as _score_text
    keep = {k: v for k, v in opts.items()
            if k in ("dealer", "open_riichi", "nuki_replacement") and v is not None}
    ignored = [_SCORE_OPTIONS.get(k, k) for k, v in opts.items()
               if k not in keep and v not in (None, False)]
    if ignored:
        raise InputError(f"score: {', '.join(ignored)} would be ignored: a P-style "
                         f"hand carries its win card and context in the text (e.g. \"234 67 55 "
                         f"+8 tsumo riichi dora:K\")")
    return _score_text(hand_text, sc, **keep)


# The MOMOJAN score options, as the command line spells them.
_SCORE_OPTIONS = {"win": "--win", "by": "--by", "riichi": "--riichi", "ippatsu": "--ippatsu",
                  "dora": "--dora-indicator", "last_card": "--last-card", "rinshan": "--rinshan"}


def score_text(hand_text: str, sc, **opts) -> str:
    r = score_json(hand_text, sc, **opts)
    if not r.get("valid", True):
        return f"{hand_text}: no win ({r.get('reason', '')})"
    items = ", ".join(f"{k} {v}" for k, v in r.get("items", {}).items())
    ded = ", ".join(f"{k} {v}" for k, v in r.get("deductions", {}).items())
    return (f"{hand_text}\n  items: {items or '-'}" + (f"\n  deductions: {ded}" if ded else "")
            + f"\n  total: {r.get('total')}")
