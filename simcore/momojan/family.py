"""MOMOJAN as seen by the game-agnostic harness: the family interface (issue 13).

The harness (``simcore.study``, ``simcore.compare``, ``simcore.results``, the CLI) reaches a game
only through a family module found by :mod:`simcore.families`; this is MOMOJAN's. It provides:
load a scenario (by path or bundled name), apply overrides with the same validation as YAML, the
picklable payload a worker rebuilds a scenario from, the metric catalogue, the pure chunk
function, what result directories and reports need, and what the hand and replay commands print
(every function is listed with one line in the README, "Game families").
"""

from __future__ import annotations

from . import scenario as _scenario
from .metrics import CATALOGUE, HEADLINE  # noqa: F401  (part of the interface)
from .simulate import chunk_stats  # noqa: F401

NAME = "momojan"
DEFAULT_SCENARIO = "new_edition"   # what `waits`, `score` and `metrics --game momojan` use
ROUNDS_METRIC = "mean_rounds_per_game"   # per-game numerator: rounds played

# The metrics a sweep tabulates unless told otherwise.
SWEEP_METRICS = ("first_dealer_win_rate", "dealer_round_win_rate", "draw_rate",
                 "mean_winning_points", "mean_rounds_per_game")


def load(ref):
    return _scenario.load(ref)


def with_players(sc, text: str | None, option: str = "--players"):
    """``sc`` with its seats replaced from a ``--players`` string (``greedy,value``,
    ``value:call=0.8,greedy``; one entry seats both), validated like YAML seats."""
    if not text:
        return sc
    from policies.players import parse_players, with_players as replace_seats
    return replace_seats(sc, parse_players(text, n_seats=n_seats(sc), option=option,
                                           names=policy_names()))


def n_seats(sc) -> int:
    """Seats (players) of the scenario: always 2 in MOMOJAN."""
    return len(sc["players"])


def policy_names() -> list:
    """The policies a seat may use (``--players``, ``tournament --policies``)."""
    from policies.registry import POLICY_NAMES
    return list(POLICY_NAMES)


def payload(sc) -> dict:
    """Resolved scenario data (plain, picklable): a worker rebuilds the scenario from it."""
    return sc.to_dict()


def run_defaults(sc) -> tuple[int, int, int]:
    """(games, seed, workers) the scenario's ``run:`` section asks for."""
    return sc.get("run.games"), sc.get("run.seed"), sc.get("run.workers")


def with_overrides(sc, overrides: dict, name: str):
    """``sc`` with ``overrides`` (nested mapping) applied, validated like a YAML file.

    Errors name the key path, e.g. ``--set scoring.ron_bonus: expected an integer >= 0, got
    "x"``.
    """
    data = sc.to_dict()
    merged = _scenario.deep_merge(data, overrides)
    merged["name"] = name
    try:
        return _scenario.from_dict(merged, name=name)
    except _scenario.ScenarioError as exc:
        msg = str(exc)
        _, _, rest = msg.partition(": ")  # drop the "<scenario>" placeholder file name
        raise _scenario.ScenarioError(f"--set {rest or msg}") from None


# ---------------------------------------------------------------------------------------------
# What result directories and reports need (simcore.results, simcore.report_html)
# ---------------------------------------------------------------------------------------------

from .simulate import HISTOGRAMS  # noqa: E402,F401  (name -> (what, per what, bins))

TITLE = "MOMOJAN"
RUNNER_KEYS = ("name", "description", "extends", "run", "players")


def from_payload(data: dict):
    """The scenario back from :func:`payload`'s data (a saved result's, when resuming)."""
    return _scenario.from_dict(dict(data), name=data.get("name") or "inline")


def rules_data(data: dict) -> dict:
    """The rules of a resolved scenario: everything but its name, description, seats and run
    settings (what the rules hash in provenance.json covers)."""
    return {k: v for k, v in data.items() if k not in RUNNER_KEYS}


def seats(sc) -> list:
    """The seated policies and their parameters (defaults filled in)."""
    return [{"seat": i, "policy": s["policy"], "params": dict(s.get("params") or {})}
            for i, s in enumerate(sc["players"])]


def scenario_yaml(sc, title: str) -> str:
    """The resolved scenario as YAML with each value's tag and meaning (loads back)."""
    from .scenario_yaml import annotated_yaml
    return annotated_yaml(sc.to_dict(), title=title)


def summarize_variant(sc, seed, sums, reached=None, v: int = 0) -> dict:
    """One variant's summary (:func:`simcore.momojan.report.summarize`)."""
    from .report import summarize
    return summarize(sc.name, seed, sums, reached, v=v, scenario=sc)


def summary_text(summary: dict) -> str:
    from .report import summary_table
    return summary_table(summary)


def rounds_played(sums, v: int = 0) -> int:
    """Rounds in ``sums`` (variant v), for rounds/s."""
    j = [m.name for m in CATALOGUE].index("mean_rounds_per_game")
    return int(sums.s[j, 2 * v])


def metric_groups(metric_names) -> list:
    """(title, [metric names]) for reports: headline metrics, end reasons, yaku and bonuses."""
    names = list(metric_names)
    ends = [n for n in names if n.startswith("end_")]
    yaku = [n for n in names if n.startswith("yaku_") or n.endswith("_bonus_share")]
    rest = [n for n in names if n not in ends and n not in yaku]
    return [("Headline metrics", rest), ("How games end (share of games)", ends),
            ("Yaku and bonuses (share of wins)", yaku)]


def replay_command(scenario_ref: str, seed: int, game: int) -> str:
    return f"momojan-sim replay {scenario_ref} --seed {seed} --game {game}"


# Compact column types of the per-game and per-round Parquet tables.
_GAME_TYPES = {"winner": "int8", "end_reason": "int8", "rounds": "int16", "score0": "int32",
               "score1": "int32", "first_dealer": "int8", "pot_left": "int32"}
_ROUND_WIDE = {"game": "int64", "yaku_bits": "int64", "points": "int32", "subtotal": "int32",
               "pot": "int32", "score0": "int32", "score1": "int32", "draw_payment": "int32",
               "round": "int16", "turns": "int16", "stock_left": "int16", "repeat": "int16",
               "dora": "int16", "ron_bonus": "int16", "set_bonus": "int16"}


def _typed(values, dtype: str, column: str):
    import numpy as np
    info = np.iinfo(dtype)
    if len(values) and (values.min() < info.min or values.max() > info.max):
        raise OverflowError(f"column {column}: values outside {dtype}")
    return values.astype(dtype)


def game_table(batch, first_game: int) -> dict:
    """The per-game table of a chunk's records: column name -> compact integer array."""
    import numpy as np
    from .engine import GAME_FIELDS
    cols = {"game": np.arange(first_game, first_game + len(batch.games), dtype=np.int64)}
    for i, name in enumerate(GAME_FIELDS):
        cols[name] = _typed(batch.games[:, i], _GAME_TYPES.get(name, "int32"), name)
    return cols


def round_table(batch) -> dict:
    """The per-round table of a chunk's records (``--records``)."""
    from .engine import ROUND_FIELDS
    return {name: _typed(batch.rounds[:, i], _ROUND_WIDE.get(name, "int8"), name)
            for i, name in enumerate(ROUND_FIELDS)}


def kernels_cached() -> bool:
    """Whether numba's on-disk cache holds the game kernel, newer than its source (else the
    first chunk compiles it: about a minute on 2 cores)."""
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
        for f in glob.glob(os.path.join(d, "**", "engine.play_games-*.nbi"), recursive=True):
            if os.path.getmtime(f) >= mtime:
                return True
    return False


def values_from_tables(games_cols: dict, rounds_cols: dict):
    """Per-game numerators and denominators of the catalogue (int64[n, k] each) from a chunk's
    saved per-game and per-round tables (what pairs two saved runs game by game)."""
    import numpy as np
    from .engine import GAME_FIELDS, ROUND_FIELDS
    from .metrics import game_values
    games = np.stack([np.asarray(games_cols[f], np.int64) for f in GAME_FIELDS], axis=1)
    rounds = np.stack([np.asarray(rounds_cols[f], np.int64) for f in ROUND_FIELDS], axis=1) \
        if len(rounds_cols[ROUND_FIELDS[0]]) else np.zeros((0, len(ROUND_FIELDS)), np.int64)
    return game_values(np.asarray(games_cols["game"], np.int64), games, rounds)


# Rule keys that are point values only (no condition, no flow of play): the bots that do not
# read point values (policies.registry.PolicySpec.reads_point_values) play every round the same
# whatever they are.
_POINT_KEYS = ("scoring.double_threshold", "scoring.double_factor", "scoring.dora_per_card",
               "scoring.ron_bonus", "scoring.set_count_bonus.")


def _is_point_value(key: str) -> bool:
    return key.startswith(_POINT_KEYS) or (key.startswith("scoring.yaku.")
                                           and key.endswith(".points"))


def _flat(d, prefix=""):
    out = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def play_note(scenarios) -> str | None:
    """One line when the rules that differ between the variants are point values only and no
    seated policy reads point values: the bots' decisions cannot change, only the scores."""
    from policies.registry import POLICY_SPECS
    if len(scenarios) < 2:
        return None
    base = _flat(rules_data(scenarios[0].to_dict()))
    changed = set()
    for sc in scenarios[1:]:
        other = _flat(rules_data(sc.to_dict()))
        changed |= {k for k in base.keys() | other.keys() if base.get(k) != other.get(k)}
    if not changed or not all(_is_point_value(k) for k in changed):
        return None
    policies = sorted({s["policy"] for sc in scenarios for s in sc["players"]})
    if any(POLICY_SPECS[p].reads_point_values for p in policies):
        return None
    keys = ", ".join(sorted(changed)[:6]) + (", ..." if len(changed) > 6 else "")
    return (f"note: the rules that differ ({keys}) are point values, and no seated policy "
            f"({', '.join(policies)}) reads point values: every round is played the same; "
            f"differences come only through the scores (doubling, busts, when games end)")


# ---------------------------------------------------------------------------------------------
# What the replay and hand commands print (``replay``, ``waits``, ``score``)
# ---------------------------------------------------------------------------------------------

def replay_text(sc, seed: int, game: int) -> str:
    """The play-by-play of game ``game`` of ``seed`` (the same game ``run`` played)."""
    from .report import replay_text as _replay_text
    from .simulate import Simulator
    sim = Simulator(sc)
    events, batch = sim.replay_events(seed, game)
    return _replay_text(sc, seed, game, events, batch, sim.ET.rows)


_ANALYZERS: dict = {}


def _analyzer(sc):
    from .hand import HandAnalyzer
    hr = sc.hand_rules
    if hr not in _ANALYZERS:
        _ANALYZERS[hr] = HandAnalyzer(hr)
    return _ANALYZERS[hr]


def waits_json(hand_text: str, sc) -> dict:
    """Waits, completeness and shanten of one hand in card notation under ``sc``'s rules
    (:func:`simcore.momojan.analysis.describe`)."""
    from .analysis import describe, parse_hand_for
    hand = parse_hand_for(hand_text, sc.hand_rules, sc.get("kan.enabled"))
    return describe(hand_text, _analyzer(sc), hand)


def waits_table(reports) -> str:
    """Several :func:`waits_json` reports as one aligned table."""
    width = max(len("hand"), *(len(r["input"]) for r in reports))
    lines = [f"{'hand':<{width}}  cards  tenpai  complete  shanten  waits"]
    for r in reports:
        lines.append(f"{r['input']:<{width}}  {r['concealed']:>2}+{r['revealed']}"
                     f"  {'yes' if r['tenpai'] else 'no':<6}  {'yes' if r['complete'] else 'no':<8}"
                     f"  {r['shanten']:>7}  {' '.join(r['waits']) or '-'}")
    return "\n".join(lines)


def waits_text(hand_text: str, sc) -> str:
    return waits_table([waits_json(hand_text, sc)])


def _score(hand_text, sc, win=None, by="tsumo", riichi=False, ippatsu=False, dora=None,
           last_card=False, rinshan=False):
    from ..errors import InputError
    from .scoring import score_text as _score_text
    if win is None:
        raise InputError("score: Missing option '--win' (the winning card)")
    rules = str(sc.path) if sc.path else sc.name
    return _score_text(hand_text, win, by, riichi, ippatsu, dora, last_card, rinshan, rules)


def score_json(hand_text: str, sc, **opts) -> dict:
    """The score of a win (``opts``: win, by, riichi, ippatsu, dora, last_card, rinshan)."""
    return _score(hand_text, sc, **opts).to_json()


def score_text(hand_text: str, sc, **opts) -> str:
    return _score(hand_text, sc, **opts).describe()
