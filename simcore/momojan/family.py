"""MOMOJAN as seen by the game-agnostic harness: the family interface (issue 13).

The harness (``simcore.study``, ``simcore.compare``, ``simcore.results``, the CLI) reaches a game
only through a family module found by :mod:`simcore.families`; this is MOMOJAN's. It provides:
load a scenario (by path or bundled name), apply overrides with the same validation as YAML, the
picklable payload a worker rebuilds a scenario from, the metric catalogue, the pure chunk
function, what result directories and reports need, and what the hand and replay commands print
(every function is listed with one line in the README, "Game families").
"""

from __future__ import annotations

from .. import family_common as _common
from ..family_common import (  # noqa: F401  (part of the interface, the same in every family)
    payload, replay_command, run_defaults, seats, waits_table,
)
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
    from ..errors import InputError
    seats = parse_players(text, n_seats=n_seats(sc), option=option, names=policy_names())
    try:
        return replace_seats(sc, seats)
    except InputError as exc:   # a parameter out of range: the option, not the file, said it
        raise InputError(f"{option} {text}: {str(exc).split(': ', 1)[-1]}") from None


def n_seats(sc) -> int:
    """Seats (players) of the scenario: always 2 in MOMOJAN."""
    return len(sc["players"])


def policy_names() -> list:
    """The policies a seat may use (``--players``, ``tournament --policies``)."""
    from policies.registry import POLICY_NAMES
    return list(POLICY_NAMES)


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
    return _common.from_payload(data, _scenario.from_dict)


def rules_data(data: dict) -> dict:
    """The rules of a resolved scenario: everything but its name, description, seats and run
    settings (what the rules hash in provenance.json covers)."""
    return _common.rules_data(data, RUNNER_KEYS)


def metrics_off(sc) -> list:
    """Catalogue metrics that ``sc``'s rules switch off: disabled yaku, zero bonuses, unused
    new-yaku slots, kans, three-card draws or riichi turned off (compare lists them once)."""
    from .metrics import NEW_SLOT_NAMES, slot_display_names
    off = [f"yaku_{k}_share" for k, y in (sc.get("scoring.yaku") or {}).items()
           if hasattr(y, "get") and y.get("enabled") is False]
    used = slot_display_names(sc)
    off += [f"yaku_{k}_share" for k in NEW_SLOT_NAMES if k not in used]
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
    return _common.rounds_played(sums, CATALOGUE, ROUNDS_METRIC, v)


def metric_groups(metric_names) -> list:
    """(title, [metric names]) for reports: headline metrics, end reasons, yaku and bonuses."""
    names = list(metric_names)
    ends = [n for n in names if n.startswith("end_")]
    yaku = [n for n in names if n.startswith("yaku_") or n.endswith("_bonus_share")]
    rest = [n for n in names if n not in ends and n not in yaku]
    return [("Headline metrics", rest), ("How games end (share of games)", ends),
            ("Yaku and bonuses (share of wins)", yaku)]


# Compact column types of the per-game and per-round Parquet tables.
_GAME_TYPES = {"winner": "int8", "end_reason": "int8", "rounds": "int16", "score0": "int32",
               "score1": "int32", "first_dealer": "int8", "pot_left": "int32"}
_ROUND_WIDE = {"game": "int64", "yaku_bits": "int64", "points": "int32", "subtotal": "int32",
               "pot": "int32", "score0": "int32", "score1": "int32", "draw_payment": "int32",
               "round": "int16", "turns": "int16", "stock_left": "int16", "repeat": "int16",
               "dora": "int16", "ron_bonus": "int16", "set_bonus": "int16"}


def game_table(batch, first_game: int) -> dict:
    """The per-game table of a chunk's records: column name -> compact integer array."""
    from .engine import GAME_FIELDS
    return _common.game_table(batch, first_game, GAME_FIELDS, _GAME_TYPES, "int32")


def round_table(batch) -> dict:
    """The per-round table of a chunk's records (``--records``)."""
    from .engine import ROUND_FIELDS
    return _common.round_table(batch, ROUND_FIELDS, _ROUND_WIDE)


def kernels_cached() -> bool:
    """Whether numba's on-disk cache holds the game kernel for this machine and source (else the
    first chunk compiles it: about a minute on 2 cores)."""
    from . import engine
    return _common.kernels_cached(engine.play_games)


KERNEL_FUNCTIONS = ("simcore.momojan.engine.play_games", "simcore.momojan.engine.play_round")
# The bots' decision kernel: self-contained (the distance search and the bots), and the natural
# compile reaches it in its middle, so the second worker starts there (simcore.compile_plan).
COMPILE_FIRST = ("policies.play.play",)


def play_for_compile():
    """Play two games of the default scenario: compiles the kernel (one for every scenario and
    bot: rules and seats are arrays)."""
    import numpy as np

    from .simulate import Simulator
    Simulator(load("new_edition")).play(np.arange(2), seed=1)


def compile_helpers(_arg=None) -> int:
    """A second worker's share of a cold start (:mod:`simcore.compile_plan`): the kernel's
    helpers, last-needed first, into numba's cache."""
    from ..compile_plan import compile_reversed
    return compile_reversed(__package__, first=COMPILE_FIRST)


def values_from_tables(games_cols: dict, rounds_cols: dict):
    """Per-game numerators and denominators of the catalogue (int64[n, k] each) from a chunk's
    saved per-game and per-round tables (what pairs two saved runs game by game)."""
    from .engine import GAME_FIELDS, ROUND_FIELDS
    from .metrics import game_values
    return _common.values_from_tables(games_cols, rounds_cols, GAME_FIELDS, ROUND_FIELDS,
                                      game_values)


# Rule keys that are point values only (no condition, no flow of play): the bots that do not
# read point values (policies.registry.PolicySpec.reads_point_values) play every round the same
# whatever they are.
_POINT_KEYS = ("scoring.double_threshold", "scoring.double_factor", "scoring.dora_per_card",
               "scoring.ron_bonus", "scoring.set_count_bonus.")


def _is_point_value(key: str) -> bool:
    return key.startswith(_POINT_KEYS) or (key.startswith("scoring.yaku.")
                                           and key.endswith(".points"))


def play_note(scenarios) -> str | None:
    """One line when the rules that differ between the variants are point values only and no
    seated policy reads point values: the bots' decisions cannot change, only the scores."""
    from policies.registry import POLICY_SPECS
    if len(scenarios) < 2:
        return None
    changed = _common.changed_rules(scenarios, rules_data)
    if not changed or not all(_is_point_value(k) for k in changed):
        return None
    policies = sorted({s["policy"] for sc in scenarios for s in sc["players"]})
    if any(POLICY_SPECS[p].reads_point_values for p in policies):
        return None
    keys = _common.key_list(changed)
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
