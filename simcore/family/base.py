"""What a game family writes: its declarations and the hooks the harness calls.

pgx's ``Env`` and OpenSpiel's ``GameType`` are the models: a family is a subclass of
:class:`Family` that declares what the game is and writes a handful of methods. Everything the
harness does with a family (playing chunks, tables, summaries, notes, compiling) is a function of
the layer that does it, taking the family: :mod:`simcore.family.chunks`, :mod:`.tables`,
:mod:`.summary`, :mod:`.compiling`, :mod:`.players`, :mod:`simcore.studies.notes`; a scenario's
services are its loader's (``SCENARIOS``, :class:`simcore.family.scenario.ScenarioLoader`).
``simcore/<name>/family.py`` ends with ``FAMILY = TheFamily()`` and the registry
(:mod:`simcore.family.registry`) names its module. ``tests/fake_family.py`` is a small whole one.

What a family must write: ``SCENARIOS`` (its loader), ``SIMULATOR`` (its
:class:`simcore.family.chunks.Simulator`), ``METRICS`` with ``game_quantities``, ``POLICIES``
(its bots, a :class:`simcore.family.policy.Registry` in ``policies/<name>/``),
``metrics_off`` and ``build_replay`` (or ``replay``). The other hooks (``scenario_yaml``;
``waits_json``, ``score_json``, ``score_text``: hands on the command line) have a default a
family overrides where its game has the thing (docs/families.md).

What this implementation simplifies: seat metrics are generated for ``SEATS[1]`` seats (the most
a scenario of the family may have); a scenario with fewer seats shows only its own.
"""

from __future__ import annotations

import importlib

from simcore.family.chunks import Simulator
from simcore.family.metrics import with_seat_metrics


def family_at(module: str):
    """The family object a module defines as ``FAMILY`` (what a pickled family becomes again
    in a worker process or on a Ray node)."""
    return importlib.import_module(module).FAMILY


class Family:
    """One game family: the declarations below, and the hooks after them."""

    # ---- the game ------------------------------------------------------------------------------
    NAME: str = ""                    # registry name, `game:` in a scenario file
    TITLE: str = ""                   # shown in reports
    DEFAULT_SCENARIO: str | None = None   # what `waits`, `score`, `metrics --game` use
    SEATS: tuple = (2, 2)             # fewest and most seats a scenario may have
    GAME_WORDS: tuple = ("game", "games")     # one unit of play and its plural, in summaries
    ROUND_WORDS: tuple = ("round", "rounds")  # one deal within it (riichi2p: hands)
    SCENARIOS = None                  # its scenario loader (simcore.family.scenario)
    SIMULATOR: type = Simulator       # its engine's Simulator subclass
    POLICIES = None                   # its bots: a simcore.family.policy.Registry
    # ---- its metrics (CATALOGUE: METRICS with the seat metrics at SEAT_METRICS_AT, made for
    # each subclass when it is defined) -----------------------------------------------------------
    METRICS: tuple = ()               # simcore.family.metrics.Metric
    SEAT_METRICS_AT: int = 0
    HEADLINE: str = ""                # what --target-ci and plan default to [METRICS[0]]
    ROUNDS_METRIC: str = ""           # whose per-game numerator is rounds played (rounds/s)
    SWEEP_METRICS: tuple = ()         # what a sweep tabulates unless told otherwise
    # where an imbalance comes from: name -> (what it is, part labels) of breakdown_codes'
    # per-game codes, and the metrics shown in each part
    BREAKDOWNS: dict = {}
    BREAKDOWN_METRICS: tuple = ()
    # the rules that act on a breakdown's part, as (breakdown, part label) -> rule keys: what
    # `solve` names when no value of the rule solved reaches the target (empty: the part only)
    BREAKDOWN_RULES: dict = {}
    # names of the per-game luck controls the engine measures (docs/statistics.md): each has
    # expectation exactly 0 whatever the bots do; none: the plain estimates
    LUCK_CONTROLS: tuple = ()
    # ---- its records (simcore.family.tables) ---------------------------------------------------
    GAME_DTYPES: dict = {}            # per-game column -> Parquet dtype
    GAME_DTYPE_DEFAULT: str = "int32"
    ROUND_DTYPES: dict = {}           # per-round column -> dtype (others int8)
    GAME_CODES: dict = {}             # per-game column -> the names of its codes 0, 1, ...
    # ---- restricted play (simcore.studies.mechanics): the bot it restricts and the kinds of
    # decision (policy.Mechanic), by default its Registry's ``best`` and ``mechanics``
    BEST_BOT: str = ""
    MECHANICS: tuple = ()
    # ---- compiling (simcore.family.compiling): the games loop first, then what a second worker
    # compiles first; the ``search`` bot's kernel, compiled apart on first use ("": none)
    KERNEL_FUNCTIONS: tuple = ()
    COMPILE_FIRST: tuple = ()
    SEARCH_KERNEL: str = ""
    # ---- its rules -----------------------------------------------------------------------------
    # dotted prefixes of the rule keys that are point values only (simcore.studies.notes)
    POINT_VALUE_PREFIXES: tuple = ()
    # dotted prefix -> the condition, in words, under which it takes effect (the conformance
    # check does not ask such keys to reach the engine)
    CONDITIONAL_KEYS: dict = {}
    # (hand, score options or None) the conformance check asks `waits` (and `score`) about
    EXAMPLE_HANDS: tuple = ()
    # how show's YAML is laid out: simcore.family.scenario.annotated.Annotation's options
    ANNOTATION: dict = {}

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        sim = cls.SIMULATOR   # the defaults of KERNEL_FUNCTIONS and SEARCH_KERNEL
        cls.BEST_BOT = cls.BEST_BOT or getattr(cls.POLICIES, "best", "")
        cls.MECHANICS = cls.MECHANICS or getattr(cls.POLICIES, "mechanics", ())
        cls.KERNEL_FUNCTIONS = cls.KERNEL_FUNCTIONS or getattr(sim, "KERNEL_FUNCTIONS", ())
        cls.SEARCH_KERNEL = cls.SEARCH_KERNEL or getattr(sim, "SEARCH_KERNEL", "")
        if cls.METRICS and not cls.HEADLINE:
            cls.HEADLINE = cls.METRICS[0].name
        if cls.METRICS and not cls.ROUNDS_METRIC:
            cls.ROUNDS_METRIC = next((m.name for m in cls.METRICS if m.numerator == "rounds"
                                      and m.kind == "per_game"), "")
        cls.CATALOGUE = with_seat_metrics(cls.METRICS, cls.SEAT_METRICS_AT, cls.SEATS[1],
                                          cls.GAME_WORDS, cls.ROUND_WORDS)

    def __reduce__(self):
        # a worker (fork, spawn or a Ray node) imports the family instead of unpickling state
        return family_at, (type(self).__module__,)

    def __repr__(self) -> str:
        return f"<family {self.NAME}>"

    # ---- what every family writes --------------------------------------------------------------
    def game_quantities(self, idx, games, rounds) -> dict:
        """Per-game integer quantities (name -> int64[n]) that the catalogue's numerators and
        denominators name, from a chunk's records, the seat metrics' included
        (:func:`simcore.family.metrics.seat_quantities`)."""
        raise NotImplementedError

    def engine_inputs(self, sc) -> tuple:
        """What the compiled engine is given for ``sc`` (its rules arrays): the conformance
        check wants every rule key to change it. Default: the simulator's ``kernel_inputs``."""
        return self.SIMULATOR(sc).kernel_inputs(False)

    def metrics_off(self, sc) -> list:
        """Catalogue metrics that ``sc``'s rules switch off (compare lists them once)."""
        raise NotImplementedError

    def scenario_yaml(self, sc, title: str) -> str:
        """The resolved scenario as YAML with each value's tag and meaning (loads back); by
        default each schema Field's, laid out as ``ANNOTATION`` says (column, tag labels,
        legend)."""
        from simcore.family.scenario.annotated import Annotation
        return Annotation(self.SCENARIOS.SCHEMA, self.POLICIES.by_name,
                          **self.ANNOTATION).yaml(sc.to_dict(), title)

    def replay(self, sc, seed: int, game: int, sim=None, record=None):
        """The :class:`simcore.family.replay.Replay` of game ``game`` of ``seed`` (the same game
        ``run`` played): rounds of tagged lines; by default ``build_replay(sc, seed, game,
        events, batch)`` of the simulator's event log. ``sim``: a simulator of ``sc`` to play it
        on (one that seats a scripted player: a game a designer played, simcore.studies.play);
        ``record``: its ``(events, batch)`` instead (a game in progress, its rounds so far)."""
        sim = sim or self.SIMULATOR(sc)
        events, batch = record if record is not None else sim.replay_events(seed, game)
        return self.build_replay(sc, seed, game, events, batch)

    def build_replay(self, sc, seed: int, game: int, events, batch):
        """The replay from the engine's event log (int64 rows) and the game's records."""
        raise NotImplementedError

    def waits_json(self, hand_text: str, sc) -> dict:
        raise NotImplementedError

    def score_json(self, hand_text: str, sc, **opts) -> dict:
        raise NotImplementedError

    def score_text(self, hand_text: str, sc, **opts) -> str:
        raise NotImplementedError

    # ---- what a family writes where its game has it --------------------------------------------
    def luck_controls(self, idx, games, rounds):
        """float64[n, len(LUCK_CONTROLS)]: per game, each luck control (mean exactly 0)."""
        raise NotImplementedError

    def breakdown_codes(self, idx, games, rounds) -> dict:
        """Per ``BREAKDOWNS`` name, each game's part (int64[n], 0 .. parts - 1)."""
        return {}

    def point_sources(self, idx, batch, data: dict):
        """The yaku value table's sources of points, or None: ``(rows, x, fired, wins,
        total)``; ``rows`` a list of ``{"name", "kind" (yaku/bonus), "points", "on"}``, ``x``
        and ``fired`` int64[n, len(rows)] the points each source added in each game's wins and
        the wins it scored in, ``wins`` and ``total`` int64[n] each game's wins and points."""
        return None

    def yaku_reach(self, idx, batch, data: dict):
        """How often a hand was within reach of each of ``point_sources``' rows, or None:
        ``(measured, reached, completed, hands)``; ``measured`` bool per row (False where the
        family has no reach for it, as a bonus counted by cards), ``reached`` and ``completed``
        int64[n, len(rows)] per game the hands (a seat's round) that were at some point tenpai
        with a wait that would score the row, and of those the hands that won with it, ``hands``
        int64[n] each game's hands played. A won hand counts as reached for what it scored, so
        ``completed <= reached``."""
        return None

    # a human seat (``play``): the module whose ``seat_view(sim, seat, obs, mask, events) ->
    # (lines, actions)`` draws a decision: text lines from the seat's observation (and the public
    # events so far: discards a view lacks), ``(action id, label)`` of the legal actions in
    # ``mask``; ``sim``: the simulator (its tables). "": the family cannot be played
    SEAT_VIEW = ""

    def histogram_marks(self, sc, name: str) -> list:
        """(x, label) lines the report draws on histogram ``name`` (a threshold of the rules)."""
        return []

    def metric_display_names(self, sc) -> dict:
        """``{catalogue metric name: the name a summary shows}`` where ``sc`` renames one."""
        return {}

    def hidden_in_summary(self, sc) -> list:
        """Catalogue metrics a summary leaves out while they never counted."""
        return []

    def response_probes(self, sc) -> tuple[list, list]:
        """(the :class:`simcore.family.metrics.Probe` list of the point values the family's
        value-reading bots aim for under ``sc``, [(key, why it is not probed)])."""
        return [], []

    def is_point_value(self, key: str) -> bool:
        """Whether a dotted rule key is a point value only (``POINT_VALUE_PREFIXES``)."""
        return key.startswith(self.POINT_VALUE_PREFIXES)

    def point_values_only(self, scenarios) -> bool:
        """False where a scenario makes point values change the flow of play after all."""
        return True

    def score_effects(self) -> str:
        """How point values reach the metrics, in words (simcore.studies.notes)."""
        return f"when {self.GAME_WORDS[1]} end"
