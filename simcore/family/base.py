"""The family interface: what a game family writes, and everything the harness inherits for it.

pgx's ``Env`` is the model: a family is a subclass of :class:`Family` that declares a few
attributes and writes a handful of methods; the harness (run, compare, sweep, plan, tournament,
result directories, reports, backends, the CLI) calls only what this class defines, so nothing
is probed with ``hasattr``. ``simcore/<name>/family.py`` ends with ``FAMILY = TheFamily()`` and
:mod:`simcore.family.registry` registers the module by name.

What a family must write (abstract or empty here):

- ``SCENARIOS``: its scenario loader (a :class:`simcore.family.scenario.ScenarioLoader` with its
  schema and cross-key checks; or ``load``/``from_dict`` of its own);
- ``SIMULATOR``: its :class:`simcore.family.chunks.Simulator` subclass (the compiled kernel's
  arguments and how to call it);
- ``METRICS``: its own metrics (:class:`simcore.family.metrics.Metric`; the seat metrics are added)
  and ``game_quantities(idx, games, rounds)``: the per-game integers they name;
- ``replay`` (a :class:`simcore.family.replay.Replay`), ``waits_json``, ``score_json``: what
  the replay and hand commands print;
- ``POLICIES``: its bots (a :class:`simcore.family.policy.Registry`, in ``policies/<family>/``).

Everything else has a default below that a family may override: payloads, overrides, seats,
tables, summaries, seat metrics, play notes, compile hooks, histograms and examples.

What this implementation simplifies: seat metrics are generated for ``SEATS[1]`` seats (the most
a scenario of the family may have); a scenario with fewer seats shows only its own (the summary
and compare leave the others out).
"""

from __future__ import annotations

import functools
import numpy as np

from ..errors import InputError
from simcore.family import chunks, tables as common
from simcore.family.metrics import catalogue_values, with_seat_metrics


def family_at(module: str):
    """The family object a module defines as ``FAMILY`` (what a pickled family becomes again
    in a worker process or on a Ray node)."""
    import importlib
    return importlib.import_module(module).FAMILY


class Family:
    """One game family. Subclasses set the attributes below and write the abstract methods."""

    # ---- declared attributes --------------------------------------------------------------------
    NAME: str = ""                    # registry name, `game:` in a scenario file
    TITLE: str = ""                   # shown in reports
    DEFAULT_SCENARIO: str | None = None   # what `waits`, `score`, `metrics --game` use
    SEATS: tuple = (2, 2)             # fewest and most seats a scenario may have
    GAME_WORDS: tuple = ("game", "games")   # one unit of play, and its plural, in summaries
    ROUND_WORDS: tuple = ("round", "rounds")   # one deal within it, and its plural (riichi2p:
                                               # hands), in summaries
    HEADLINE: str = ""                # the metric `--target-ci`, `plan` default to [METRICS[0]]
    ROUNDS_METRIC: str = ""           # whose per-game numerator is rounds played (rounds/s)
                                      # [the per-game metric of numerator "rounds"]
    SWEEP_METRICS: tuple = ()         # what a sweep tabulates unless told otherwise
    SIMULATOR: type = chunks.Simulator   # the family's Simulator subclass
    METRICS: tuple = ()               # its own catalogue (simcore.family.metrics.Metric)
    POLICIES = None                   # its bots: a simcore.family.policy.Registry
    SEAT_METRICS_AT: int = 0          # where the harness's seat metrics stand in the catalogue
    SCENARIOS = None                  # its scenario loader (simcore.family.scenario)
    RUNNER_KEYS: tuple = ("name", "description", "extends", "run", "players")
    # Parquet storage: column name -> dtype; columns not named take the default
    GAME_DTYPES: dict = {}
    GAME_DTYPE_DEFAULT: str = "int32"
    ROUND_DTYPES: dict = {}
    ROUND_DTYPE_DEFAULT: str = "int8"
    # Compile hooks (simcore.precompile, simcore.nb.compile_plan): the games loop and the kernels
    # a second worker compiles first on a cold start; empty = no ahead-of-time compile
    KERNEL_FUNCTIONS: tuple = ()
    COMPILE_FIRST: tuple = ()
    # Rule keys (dotted prefixes) that are point values only: a policy that does not read point
    # values plays every round the same whatever they are (play_note)
    POINT_VALUE_PREFIXES: tuple = ()
    # Rule keys (dotted prefixes) that take effect only under another key's value: prefix ->
    # that condition, in words (the conformance check does not ask them to reach the engine)
    CONDITIONAL_KEYS: dict = {}
    NUMERIC_RULES: dict = {}   # key -> (integer, min, max): number rules outside a SCHEMA
    # Where an imbalance comes from: name -> (what it is, part labels) of the per-game codes
    # breakdown_codes gives, and the metrics shown in each part
    GAME_CODES: dict = {}      # per-game table column -> the names of its codes 0, 1, ...
    BREAKDOWNS: dict = {}
    BREAKDOWN_METRICS: tuple = ()
    # (hand, score options or None) the conformance check asks `waits` (and `score`) about
    EXAMPLE_HANDS: tuple = ()

    # ---- identity and pickling ------------------------------------------------------------------
    @property
    def module(self) -> str:
        """The module that defines this family's ``FAMILY``."""
        return type(self).__module__

    def __reduce__(self):
        # a worker (fork, spawn or a Ray node) imports the family instead of unpickling state
        return family_at, (self.module,)

    def __repr__(self) -> str:
        return f"<family {self.NAME}>"

    # ---- what a family must write ---------------------------------------------------------------
    def load(self, ref, every_error: bool = False):
        """The scenario a path or bundled name refers to, validated (``SCENARIOS.load``;
        ``every_error``: every wrong key at once, as :class:`simcore.errors.InputErrors`)."""
        return self.SCENARIOS.load(ref, every_error)

    def from_dict(self, data: dict, name: str = "inline"):
        """A scenario from plain data (keys it leaves out take the defaults), validated."""
        return self.SCENARIOS.from_dict(data, name=name)

    def simulator(self, sc) -> chunks.Simulator:
        """Everything the compiled engine needs to play ``sc`` (built once per scenario):
        ``SIMULATOR(sc)`` unless a family builds it otherwise."""
        return self.SIMULATOR(sc)

    def game_quantities(self, idx, games, rounds) -> dict:
        """Per-game integer quantities (name -> int64[n]) that the catalogue's numerators and
        denominators name, from a chunk's records; they include the seat metrics' quantities
        (:func:`simcore.family.metrics.seat_quantities`)."""
        raise NotImplementedError

    def policy_specs(self) -> dict:
        """name -> :class:`simcore.family.policy.PolicySpec` of the family's bots (``POLICIES``)."""
        return self.POLICIES.by_name

    def histogram_marks(self, sc, name: str) -> list:
        """(x, label) lines the report draws on histogram ``name`` under ``sc`` (a threshold
        of the rules); none unless a family has them."""
        return []

    def replay(self, sc, seed: int, game: int):
        """The :class:`simcore.family.replay.Replay` of game ``game`` of ``seed`` (the same game
        ``run`` played): rounds of tagged lines."""
        raise NotImplementedError

    def replay_text(self, sc, seed: int, game: int, round_no: int | None = None) -> str:
        """The replay as text; ``round_no`` (1-based) alone when given."""
        from .replay import replay_text
        return replay_text(self.replay(sc, seed, game).only_round(round_no, self.GAME_WORDS[0]))

    def waits_json(self, hand_text: str, sc) -> dict:
        raise NotImplementedError

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        raise NotImplementedError

    # ---- the catalogue --------------------------------------------------------------------------
    @functools.cached_property
    def CATALOGUE(self) -> tuple:
        """Every metric of the family: ``METRICS`` with the harness's seat metrics for
        ``SEATS[1]`` seats at ``SEAT_METRICS_AT``."""
        return with_seat_metrics(self.METRICS, self.SEAT_METRICS_AT, self.SEATS[1],
                                 self.GAME_WORDS, self.ROUND_WORDS)

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if cls.METRICS and not cls.HEADLINE:
            cls.HEADLINE = cls.METRICS[0].name
        if cls.METRICS and not cls.ROUNDS_METRIC:
            cls.ROUNDS_METRIC = next((m.name for m in cls.METRICS if m.numerator == "rounds"
                                      and m.kind == "per_game"), "")

    def game_values(self, idx, games, rounds, catalogue=None):
        """``(num, den)``, int64[n, k] each: per game, each catalogue metric's numerator and
        denominator."""
        cat = self.CATALOGUE if catalogue is None else catalogue
        return catalogue_values(self.game_quantities(idx, games, rounds), cat, len(idx))

    # ---- scenarios ------------------------------------------------------------------------------
    def n_seats(self, sc) -> int:
        return len(sc["players"])

    def policy_names(self) -> list:
        return list(self.POLICIES.names)

    def payload(self, sc) -> dict:
        """Resolved scenario data (plain, picklable): a worker rebuilds the scenario from it."""
        return sc.to_dict()

    def from_payload(self, data: dict):
        """The scenario back from :meth:`payload`'s data (a saved result's, when resuming)."""
        return self.from_dict(dict(data), name=data.get("name") or "inline")

    def with_overrides(self, sc, overrides: dict, name: str):
        """``sc`` with ``overrides`` (a nested mapping, e.g. from ``--set``) applied and
        validated like YAML; errors read ``--set key.path: ...`` (the loader's,
        :meth:`simcore.family.scenario.ScenarioLoader.with_overrides`)."""
        if self.SCENARIOS is not None:
            return self.SCENARIOS.with_overrides(sc, overrides, name)
        from simcore.family.scenario.files import deep_merge
        merged = deep_merge(sc.to_dict(), overrides)
        merged["name"] = name
        try:
            return self.from_dict(merged, name=name)
        except InputError as exc:
            _, _, rest = str(exc).partition(": ")   # drop the "<scenario>" placeholder file name
            raise type(exc)(f"--set {rest or exc}") from None

    def with_players(self, sc, text: str | None, option: str = "--players"):
        """``sc`` with its seats from a ``--players`` string (``greedy,value``,
        ``value:call=0.8,greedy``; one entry seats everyone), validated like YAML seats."""
        if not text:
            return sc
        from simcore.family.players import parse_players
        data = sc.to_dict()
        data["players"] = parse_players(text, n_seats=self.n_seats(sc), option=option,
                                        names=self.policy_names())
        try:
            return self.from_dict(data, name=sc.name)
        except InputError as exc:   # a parameter out of range: the option, not the file, said it
            raise InputError(f"{option} {text}: {str(exc).split(': ', 1)[-1]}") from None

    def seats(self, sc) -> list:
        """The seated policies and their parameters (defaults filled in)."""
        return [{"seat": i, "policy": s["policy"], "params": dict(s.get("params") or {})}
                for i, s in enumerate(sc["players"])]

    def run_defaults(self, sc) -> tuple:
        """(games, seed, workers) the scenario's ``run:`` section asks for."""
        return sc.get("run.games"), sc.get("run.seed"), sc.get("run.workers")

    def rules_data(self, data: dict) -> dict:
        """The rules of a resolved scenario: everything but the ``RUNNER_KEYS`` (what the rules
        hash in provenance.json covers)."""
        return {k: v for k, v in data.items() if k not in self.RUNNER_KEYS}

    def engine_inputs(self, sc) -> tuple:
        """What the compiled engine is given for ``sc`` (arrays and hashable values): the
        conformance check wants every rule key to change it. Default: the simulator's arrays."""
        sim = self.simulator(sc)
        return tuple(v for k, v in sorted(vars(sim).items()) if isinstance(v, np.ndarray))

    def rule_choices(self, key: str) -> tuple:
        """The values an enum rule key may take (the conformance check tries another one), from
        the family's ``SCHEMA``."""
        return getattr(self._schema_fields.get(key), "choices", None) or ()

    def numeric_rule(self, key: str):
        """``(integer, minimum, maximum)`` of a numeric rule key (bounds None where open), or
        None when ``key`` is not a number rule (``solve`` and ``sweep`` read it). From the
        family's ``SCHEMA``; ``NUMERIC_RULES`` adds keys a family without one declares."""
        if key in self.NUMERIC_RULES:
            return self.NUMERIC_RULES[key]
        f = self._schema_fields.get(key)
        if f is None or f.kind not in ("int", "float"):
            return None
        return f.kind == "int", f.min, f.max

    @functools.cached_property
    def _schema_fields(self) -> dict:
        from simcore.family.scenario.schema import Field, iter_fields
        schema = self.SCENARIOS.SCHEMA if self.SCENARIOS is not None else {}
        return dict(iter_fields(schema, Field))

    def metrics_off(self, sc) -> list:
        """Catalogue metrics that ``sc``'s rules switch off (compare lists them once)."""
        return []

    def scenario_yaml(self, sc, title: str) -> str:
        """The resolved scenario as YAML with each value's tag and meaning (loads back)."""
        import yaml
        return f"# {title}\n" + yaml.safe_dump(sc.to_dict(), sort_keys=False)

    # ---- chunks ---------------------------------------------------------------------------------
    @functools.cached_property
    def _simulators(self) -> dict:
        return {}

    def simulator_for(self, data: dict) -> chunks.Simulator:
        """The simulator of a resolved scenario's data, built once per process."""
        return chunks.cached_simulator(
            self._simulators, data,
            lambda d: self.simulator(self.from_dict(d, name=d.get("name") or "inline")))

    def chunk_stats(self, task):
        """Play games ``task.start .. task.stop - 1`` of every variant and return their sums
        (pure: game i of a variant depends on (seed, i) alone; see
        :func:`simcore.family.chunks.chunk_stats`)."""
        return chunks.chunk_stats(task, self.simulator_for, len(self.CATALOGUE),
                                  self.game_values, self.HISTOGRAMS, self.extras,
                                  self.luck_controls if self.LUCK_CONTROLS else None,
                                  self.LUCK_CONTROLS)

    # Names of the per-game luck controls the engine measures (issue 32; docs/statistics.md):
    # each has expectation exactly 0 whatever the bots do. None: the family measures no luck,
    # and its estimates are the plain ones.
    LUCK_CONTROLS: tuple = ()

    def luck_controls(self, idx, games, rounds):
        """float64[n, len(LUCK_CONTROLS)]: per game, each luck control (mean exactly 0)."""
        raise NotImplementedError

    @property
    def HISTOGRAMS(self) -> dict:
        """name -> (what is counted, per what, bins) of the histograms a chunk keeps (the
        simulator's)."""
        return self.SIMULATOR.HISTOGRAMS

    def extras(self, extras: dict, idx, num, batch, data: dict, first_chunk: bool,
               den=None) -> None:
        """One variant's histograms (``HISTOGRAMS``), example games per metric, (chunk 0)
        score trajectories, the ``BREAKDOWN_METRICS`` by each of ``BREAKDOWNS`` and the
        ``point_sources``' sums, appended to ``extras``."""
        from simcore.stats import domains
        if self.BREAKDOWNS and den is not None:
            names = [m.name for m in self.CATALOGUE]
            js = [names.index(m) for m in self.BREAKDOWN_METRICS]
            codes = self.breakdown_codes(idx, batch.games, batch.rounds)
            extras.setdefault("strata", []).append(
                {b: domains.ratio_sums(num[:, js], den[:, js], codes[b], len(labels)).tolist()
                 for b, (_, labels) in self.BREAKDOWNS.items()})
        sources = self.point_sources(idx, batch, data)
        if sources is not None:
            rows, x, fired, wins, total = sources
            zero = np.zeros(len(idx), np.int64)
            extras.setdefault("points", []).append({
                "fired": domains.ratio_sums(fired, np.repeat(wins[:, None], x.shape[1], 1),
                                            zero, 1)[0].tolist(),
                "per_win": domains.ratio_sums(x, np.repeat(wins[:, None], x.shape[1], 1), zero,
                                              1)[0].tolist(),
                "of_all": domains.ratio_sums(x, np.repeat(total[:, None], x.shape[1], 1), zero,
                                             1)[0].tolist(),
                "rows": rows if first_chunk else None})
        sim = self.SIMULATOR
        for name, values in sim.histogram_values(batch).items():
            extras["hist"][name].append(chunks.bincount(values, self.HISTOGRAMS[name][2]))
        extras["examples"].append(chunks.examples(idx, num))
        if first_chunk:
            extras["trajectories"].append(sim.trajectories(idx, batch, data))

    def game_codes(self) -> dict:
        """What the per-game table's integer codes mean: column -> {code: name}, from
        ``GAME_CODES`` (column -> names, code = position) plus the winner's -1."""
        out = {"winner": {-1: "tie (nobody)"}}
        for column, names in self.GAME_CODES.items():
            out[column] = dict(enumerate(names))
        return out

    def breakdown_codes(self, idx, games, rounds) -> dict:
        """Per ``BREAKDOWNS`` name, each game's part (int64[n], 0 .. parts - 1)."""
        return {}

    def point_sources(self, idx, batch, data: dict):
        """The yaku value table's sources of points, or None: ``(rows, x, fired, wins,
        total)`` with ``rows`` a list of ``{"name", "kind" (yaku/bonus), "points", "on"}``,
        ``x`` and ``fired`` int64[n, len(rows)] the points each source added in each game's
        wins and the wins it scored in, ``wins`` and ``total`` int64[n] each game's wins and
        points scored (before any multiplier)."""
        return None

    def run_games(self, sc, games: int, seed: int, workers: int = 0, debug: bool = False,
                  progress=None):
        """The records of games 0..games-1 of ``sc`` (memory grows with ``games``)."""
        return chunks.run_games(sc, games, seed, workers, debug, progress, self.chunk_stats)

    def rounds_played(self, sums, v: int = 0) -> int:
        """Rounds in ``sums`` (variant v), for rounds/s: the numerator of ``ROUNDS_METRIC``."""
        j = [m.name for m in self.CATALOGUE].index(self.ROUNDS_METRIC)
        from simcore.stats.luck import plain
        return int(plain(sums).s[j, 2 * v])   # a count, not a luck-corrected estimate

    # ---- result directories and reports ---------------------------------------------------------
    def game_table(self, batch, first_game: int) -> dict:
        """The per-game table of a chunk's records: column name -> compact integer array."""
        return common.game_table(batch, first_game, self.game_fields(), self.GAME_DTYPES,
                                 self.GAME_DTYPE_DEFAULT)

    def round_table(self, batch) -> dict:
        """The per-round table of a chunk's records (``--records``)."""
        return common.round_table(batch, self.round_fields(), self.ROUND_DTYPES,
                                  self.ROUND_DTYPE_DEFAULT)

    def game_fields(self) -> tuple:
        """Column names of a game record (the kernel's)."""
        return tuple(self.SIMULATOR.GAME_FIELDS)

    def round_fields(self) -> tuple:
        """Column names of a round record (the kernel's)."""
        return tuple(self.SIMULATOR.ROUND_FIELDS)

    def values_from_tables(self, games_cols: dict, rounds_cols: dict):
        """Per-game numerators and denominators from a chunk's saved tables (what pairs two
        saved runs game by game)."""
        return common.values_from_tables(games_cols, rounds_cols, self.game_fields(),
                                         self.round_fields(), self.game_values)

    def luck_from_tables(self, games_cols: dict, rounds_cols: dict):
        """The luck controls (:meth:`luck_controls`) from a chunk's saved tables; None where the
        family measures none or the tables predate them."""
        if not self.LUCK_CONTROLS or any(f not in rounds_cols for f in self.round_fields()):
            return None
        return common.values_from_tables(games_cols, rounds_cols, self.game_fields(),
                                         self.round_fields(), self.luck_controls)

    def summarize_variant(self, sc, seed, sums, reached=None, v: int = 0) -> dict:
        """One variant's summary: every catalogue metric with its interval, yaku and end-reason
        shares (:func:`simcore.family.summary.summarize`)."""
        from .summary import summarize
        return summarize(self, sc, seed, sums, reached, v)

    def summary_text(self, summary: dict) -> str:
        from .summary import summary_table
        return summary_table(self, summary)

    def metric_display_names(self, sc) -> dict:
        """``{catalogue metric name: the name a summary shows}`` where a scenario renames one
        (a yaku slot it fills); none by default."""
        return {}

    def hidden_in_summary(self, sc) -> list:
        """Catalogue metrics a summary leaves out while they never counted (slots ``sc`` does
        not use); none by default."""
        return []

    def metric_groups(self, metric_names) -> dict:
        """The report's groups, by role: ``headline``, ``seats`` (seat shares and finishing
        order), ``ends`` (end reasons), ``yaku`` (yaku and bonuses); each a list of names."""
        names = list(metric_names)
        seats = [n for n in names if n.startswith("seat")]
        ends = [n for n in names if n.startswith("end_")]
        yaku = [n for n in names if n.startswith("yaku_") or n.endswith("_bonus_share")]
        rest = [n for n in names if n not in ends and n not in yaku and n not in seats]
        return {"headline": rest, "seats": seats, "ends": ends, "yaku": yaku}

    def replay_command(self, scenario_ref: str, seed: int, game: int) -> str:
        return f"momojan-sim replay {scenario_ref} --seed {seed} --game {game}"

    # ---- what the bots read ---------------------------------------------------------------------
    def is_point_value(self, key: str) -> bool:
        """Whether a dotted rule key is a point value only (see ``POINT_VALUE_PREFIXES``)."""
        return key.startswith(self.POINT_VALUE_PREFIXES)

    def response_probes(self, sc) -> tuple[list, list]:
        """(the :class:`simcore.family.metrics.Probe` list of the point values this family's
        value-reading bots aim for under ``sc``, [(key, why it is not probed)]): issue 30's
        response table. A family whose bots read no point value has none."""
        return [], []

    def play_note(self, scenarios) -> str | None:
        """One line when the rules that differ between the variants are point values only and
        no seated policy reads point values: the bots' decisions cannot change, only the
        scores."""
        if len(scenarios) < 2:
            return None
        changed = common.changed_rules(scenarios, self.rules_data)
        if not changed or not all(self.is_point_value(k) for k in changed):
            return None
        if not self.point_values_only(scenarios):
            return None
        policies = sorted({s["policy"] for sc in scenarios for s in sc["players"]})
        specs = self.policy_specs()
        if any(specs[p].reads_point_values for p in policies):
            return self._reads_note(changed, policies, specs)
        return (f"note: the rules that differ ({common.key_list(changed)}) are point values, "
                f"and no seated policy ({', '.join(policies)}) reads point values: every round "
                f"is played the same; differences come only through the scores "
                f"({self.score_effects()})")

    def _reads_note(self, changed, policies, specs) -> str | None:
        """Per differing point value, whether a seated policy reads it (None when every one
        is read): a change no bot reads reaches play only through the scores."""
        unread = sorted(k for k in changed if not any(specs[p].reads_rule(k) for p in policies))
        if not unread:
            return None
        read = {k: [p for p in policies if specs[p].reads_rule(k)] for k in sorted(changed)}
        seen = [f"{k} (by {', '.join(ps)})" for k, ps in read.items() if ps]
        return (f"note: no seated policy ({', '.join(policies)}) reads "
                f"{common.key_list(unread)}: those changes reach play only through the scores "
                f"({self.score_effects()})" + (f"; read: {'; '.join(seen[:6])}" if seen else ""))

    def point_values_only(self, scenarios) -> bool:
        """False where a scenario makes point values change the flow of play after all."""
        return True

    def score_effects(self) -> str:
        return f"when {self.GAME_WORDS[1]} end"

    # ---- hand commands --------------------------------------------------------------------------
    def waits_text(self, hand_text: str, sc) -> str:
        return self.waits_table([self.waits_json(hand_text, sc)])

    def waits_table(self, reports) -> str:
        return common.waits_table(reports)

    def score_text(self, hand_text: str, sc, **opts) -> str:
        import json
        return json.dumps(self.score_json(hand_text, sc, **opts), indent=1, ensure_ascii=False)

    # ---- compiling ------------------------------------------------------------------------------
    def has_compile_plan(self) -> bool:
        """Whether the family compiles ahead (a cold start can be split between workers)."""
        return bool(self.KERNEL_FUNCTIONS)

    def kernels_cached(self) -> bool:
        """Whether numba's on-disk cache holds the games kernel for this machine and source (else
        the first chunk compiles it). True for a family with nothing to compile."""
        if not self.KERNEL_FUNCTIONS:
            return True
        import importlib
        module, _, name = self.KERNEL_FUNCTIONS[0].rpartition(".")
        return common.kernels_cached(getattr(importlib.import_module(module), name))

    def play_for_compile(self) -> None:
        """Play two games of the default scenario: compiles the kernel (one for every scenario
        and bot: rules and seats are arrays)."""
        if self.DEFAULT_SCENARIO:
            self.simulator(self.load(self.DEFAULT_SCENARIO)).play(np.arange(2), seed=1)

    def compile_helpers(self, _arg=None) -> int:
        """A second worker's share of a cold start (:mod:`simcore.nb.compile_plan`): the kernel's
        helpers, last-needed first, into numba's cache."""
        from simcore.nb.compile_plan import compile_reversed
        return compile_reversed(self.module.rpartition(".")[0], first=self.COMPILE_FIRST)
