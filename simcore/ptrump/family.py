"""P-style trump mahjong as seen by the game-agnostic harness: the family interface (issue 13).

The same functions as :mod:`simcore.momojan.family` (the README's "Game families" table lists
them): scenarios, overrides and payloads (:mod:`simcore.ptrump.scenario`), the metric catalogue
and the pure chunk function (:mod:`simcore.ptrump.metrics`, :mod:`simcore.ptrump.simulate`), what
result directories and reports need, and what ``replay``, ``waits`` and ``score`` print.
"""

from __future__ import annotations

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
    return _scenario.from_dict(data, name=sc.name)


def payload(sc) -> dict:
    """Resolved scenario data (plain, picklable): a worker rebuilds the scenario from it."""
    return sc.to_dict()


def from_payload(data: dict):
    return _scenario.from_dict(dict(data), name=data.get("name") or "inline")


def run_defaults(sc) -> tuple[int, int, int]:
    return sc.get("run.games"), sc.get("run.seed"), sc.get("run.workers")


def with_overrides(sc, overrides: dict, name: str):
    """``sc`` with ``overrides`` (nested mapping) applied, validated like a YAML file."""
    return _scenario.with_overrides(sc, overrides, name)


def rules_data(data: dict) -> dict:
    """The rules of a resolved scenario (what the rules hash covers)."""
    return {k: v for k, v in data.items() if k not in RUNNER_KEYS}


def seats(sc) -> list:
    return [{"seat": i, "policy": s["policy"], "params": dict(s.get("params") or {})}
            for i, s in enumerate(sc["players"])]


def scenario_yaml(sc, title: str) -> str:
    return _scenario.annotated_yaml(sc.to_dict(), title=title)


def summarize_variant(sc, seed, sums, reached=None, v: int = 0) -> dict:
    from .report import summarize
    return summarize(sc.name, seed, sums, reached, v=v, scenario=sc)


def summary_text(summary: dict) -> str:
    from .report import summary_table
    return summary_table(summary)


def rounds_played(sums, v: int = 0) -> int:
    j = [m.name for m in CATALOGUE].index(ROUNDS_METRIC)
    return int(sums.s[j, 2 * v])


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


def replay_command(scenario_ref: str, seed: int, game: int) -> str:
    return f"momojan-sim replay {scenario_ref} --seed {seed} --game {game}"


# Compact column types of the per-game and per-round Parquet tables (default int8 / int32).
_GAME_TYPES = {"rounds": "int32", "score0": "int32", "score1": "int32", "score2": "int32",
               "pool_left": "int32"}
_ROUND_WIDE = {"game": "int64", "yaku_bits0": "int64", "yaku_bits1": "int64",
               "yaku_bits2": "int64", "round": "int32", "value": "int16", "value0": "int16",
               "value1": "int16", "value2": "int16", "score0": "int32", "score1": "int32",
               "score2": "int32", "pool": "int32", "deposits_taken": "int16",
               "deposits_lost": "int16", "noten_penalty": "int16", "noten_paid": "int16",
               "pon_penalty": "int16", "turns": "int16"}


def _typed(values, dtype: str, column: str):
    import numpy as np
    info = np.iinfo(dtype)
    if len(values) and (values.min() < info.min or values.max() > info.max):
        raise OverflowError(f"column {column}: values outside {dtype}")
    return values.astype(dtype)


def game_table(batch, first_game: int) -> dict:
    import numpy as np
    from .engine import GAME_FIELDS
    cols = {"game": np.arange(first_game, first_game + len(batch.games), dtype=np.int64)}
    for i, name in enumerate(GAME_FIELDS):
        cols[name] = _typed(batch.games[:, i], _GAME_TYPES.get(name, "int8"), name)
    return cols


def round_table(batch) -> dict:
    from .engine import ROUND_FIELDS
    return {name: _typed(batch.rounds[:, i], _ROUND_WIDE.get(name, "int8"), name)
            for i, name in enumerate(ROUND_FIELDS)}


def values_from_tables(games_cols: dict, rounds_cols: dict):
    import numpy as np
    from .engine import GAME_FIELDS, ROUND_FIELDS
    from .metrics import game_values
    games = np.stack([np.asarray(games_cols[f], np.int64) for f in GAME_FIELDS], axis=1)
    rounds = np.stack([np.asarray(rounds_cols[f], np.int64) for f in ROUND_FIELDS], axis=1) \
        if len(rounds_cols[ROUND_FIELDS[0]]) else np.zeros((0, len(ROUND_FIELDS)), np.int64)
    return game_values(np.asarray(games_cols["game"], np.int64), games, rounds)


def kernels_cached() -> bool:
    """Whether numba's on-disk cache holds the match kernel, newer than its source."""
    import glob
    import os
    from . import engine
    src = engine.__file__
    dirs = [os.path.join(os.path.dirname(src), "__pycache__")]
    if os.environ.get("NUMBA_CACHE_DIR"):
        dirs.append(os.environ["NUMBA_CACHE_DIR"])
    try:
        mtime = os.path.getmtime(src)
    except OSError:
        return True
    for d in dirs:
        for f in glob.glob(os.path.join(d, "**", "engine.play_matches-*.nbi"), recursive=True):
            if os.path.getmtime(f) >= mtime:
                return True
    return False


# Rule keys that are point values only: the bots that do not read point values (PolicySpec
# .reads_point_values) play every round the same whatever they are. Only the points of score
# items qualify (an item's points can make a win legal or not only through negative_win:
# forbidden, which is then a flow change too, so that key is not a point value).
def _is_point_value(key: str) -> bool:
    return (key.startswith(("scoring.yaku.", "scoring.additive.", "scoring.yakuman."))
            and key.endswith("points")) or key == "scoring.deductions.pon"


def _flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def play_note(scenarios) -> str | None:
    """One line when the rules that differ are point values only and no seated policy reads
    them (decisions cannot change, only the scores)."""
    from .bots import POLICY_SPECS
    if len(scenarios) < 2:
        return None
    base = _flat(rules_data(scenarios[0].to_dict()))
    changed = set()
    for sc in scenarios[1:]:
        other = _flat(rules_data(sc.to_dict()))
        changed |= {k for k in base.keys() | other.keys() if base.get(k) != other.get(k)}
    if not changed or not all(_is_point_value(k) for k in changed):
        return None
    if any(sc.get("scoring.negative_win") == "forbidden" for sc in scenarios):
        return None
    policies = sorted({s["policy"] for sc in scenarios for s in sc["players"]})
    if any(POLICY_SPECS[p].reads_point_values for p in policies):
        return None
    keys = ", ".join(sorted(changed)[:6]) + (", ..." if len(changed) > 6 else "")
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
    from .hand import held_out_mask, is_complete, shanten, win_mask
    from .rules_array import build_hand_rules
    p = parse_hand(hand_text, allow_drawn=True) if _allows_drawn() else parse_hand(hand_text)
    hr = build_hand_rules(sc)
    ids = list(p.concealed) + ([p.win] if getattr(p, "win", None) is not None else [])
    cnt = rank_counts(ids).astype(np.int64)
    k = len(p.revealed)
    out = {"input": hand_text, "concealed": len(ids), "revealed": k}
    if len(ids) == 7 - 3 * k:
        w = int(win_mask(cnt, k, hr))
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


def waits_table(reports) -> str:
    width = max(len("hand"), *(len(r["input"]) for r in reports))
    lines = [f"{'hand':<{width}}  cards  tenpai  complete  shanten  waits"]
    for r in reports:
        lines.append(f"{r['input']:<{width}}  {r['concealed']:>2}+{r['revealed']}"
                     f"  {'yes' if r['tenpai'] else 'no':<6}  {'yes' if r['complete'] else 'no':<8}"
                     f"  {r['shanten']:>7}  {' '.join(r['waits']) or '-'}")
    return "\n".join(lines)


def waits_text(hand_text: str, sc) -> str:
    return waits_table([waits_json(hand_text, sc)])


def score_json(hand_text: str, sc, **opts) -> dict:
    """The score of a win written in notation with its context (``"234 67 55 +8 tsumo dora:K"``);
    the text carries the context, so ``opts`` from the MOMOJAN ``score`` options are ignored
    except ``dealer``, ``open_riichi`` and ``nuki_replacement``."""
    from .scoring import score_text as _score_text
    keep = {k: v for k, v in opts.items()
            if k in ("dealer", "open_riichi", "nuki_replacement") and v is not None}
    return _score_text(hand_text, sc, **keep)


def score_text(hand_text: str, sc, **opts) -> str:
    r = score_json(hand_text, sc, **opts)
    if not r.get("valid", True):
        return f"{hand_text}: no win ({r.get('reason', '')})"
    items = ", ".join(f"{k} {v}" for k, v in r.get("items", {}).items())
    ded = ", ".join(f"{k} {v}" for k, v in r.get("deductions", {}).items())
    return (f"{hand_text}\n  items: {items or '-'}" + (f"\n  deductions: {ded}" if ded else "")
            + f"\n  total: {r.get('total')}")
