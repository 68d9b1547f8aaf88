"""The generic policy kit: what a policy declares, and a family's registry of its bots.

Every family keeps its bots in ``policies/<family>/`` and lists them once in a
:class:`Registry`. The registry gives names (what a seat's ``policy:`` says), ids (what the
compiled engine receives) and the params row of each seat; the family's ``decide`` branches on
named id constants (``P_RANDOM = POLICIES.id("random")``) that numba folds, and a test checks the
branches against the registry's order.

The contract between an engine and its bots (every family):

- a policy is an njit function ``policy(obs, mask, params, rng, tables, ra) -> action``: the
  deciding seat's view, a bool mask of the legal actions, the seat's params row (float64, in
  declared order), the seat's own RNG stream of the round, the family's read-only tables and
  its rules array; it returns one legal action;
- the engine asks the seat's policy at each of its decisions with at least two legal actions; with
  exactly one the engine may play it without asking (P-style does; MOMOJAN asks every time, so a
  ``random`` seat draws even then): which of the two a family does is part of its records and
  stays fixed;
- the id :data:`SCRIPTED` (tests only, never a registered name) is a seat that plays the actions
  listed in its params row: ``params[0]`` is a cursor that the policy advances, ``params[1:]``
  the actions; an entry of -1, or the end of the row, lets a bot the family's ``decide`` names
  decide that one (MOMOJAN's ``baseline``, Sparrow's ``greedy``), and an entry of :data:`ASK`
  stops the game there: the kernel raises
  :class:`HumanToPlay`, leaving that decision's view and legal actions in the state
  (``simcore.play``: a human seat replays its decisions so far, then is asked).
"""

from __future__ import annotations

from typing import Mapping, NamedTuple

import numpy as np

from simcore.family.params import Param, check_declaration, param_vector

SCRIPTED = -1   # the scripted test seat's policy id, in every family
ASK = -3        # a scripted entry: stop here, a human seat is to decide (simcore.play; emoji
                # uses -2 for its default discard)
RESTRICTED = -4  # the family's best bot under a restriction (simcore.nb.restrict; mechanics)
RESERVED_IDS = (SCRIPTED, RESTRICTED)   # the kit's ids, never a registered name
SEARCH = "search"   # the name of the search bot (:func:`search_spec`) in every family that has it


class Mechanic(NamedTuple):
    """One kind of decision a family declares for ``mechanics`` (simcore.studies.mechanics):
    ``name`` (a word, e.g. ``never_call``), ``doc`` (what the restricted player does),
    ``kind`` (:data:`simcore.nb.restrict.NEVER` or ``ALWAYS``), up to three action ranges
    ``((lo, hi), ...)`` and, for ALWAYS, the ``shift`` from a chosen action to its forced
    counterpart (a discard to the same discard with riichi)."""

    name: str
    doc: str
    kind: int
    ranges: tuple
    shift: int = 0   # ALWAYS: the forced action is the bot's choice plus this, where legal

    def row(self) -> list:
        """The restricted seat's params row."""
        from simcore.nb.restrict import N_RANGES
        flat = [v for lo_hi in self.ranges for v in lo_hi]
        return [float(self.kind), float(self.shift), *map(float, flat),
                *[0.0] * (2 * N_RANGES - len(flat))]


class HumanToPlay(Exception):
    """Raised by a kernel at a scripted seat's :data:`ASK` entry: the state holds the decision's
    view (``obs``) and legal actions (``mask``)."""


class PolicySpec(NamedTuple):
    """What the registry knows of a policy besides its kernel."""

    name: str                  # what a seat's ``policy:`` says
    doc: str                   # one line, for listings
    params: tuple[Param, ...]  # the parameters it reads, in the order of its params row
    # Whether its decisions read point values from the rules (yaku points, bonuses, dora, the
    # doubling threshold): when no seated policy does, a change of point values alone leaves
    # every decision of a round unchanged (run/compare/sweep say so).
    reads_point_values: bool = False
    # Which point values (dotted rule-key prefixes) its decisions read, where it declares them;
    # empty with reads_point_values: not declared (taken as all of them)
    reads: tuple = ()
    # Prefixes inside ``reads`` its decisions leave out (a yaku it cannot plan for)
    ignores: tuple = ()

    def reads_rule(self, key: str) -> bool:
        """Whether its decisions read the point value ``key``."""
        return (self.reads_point_values and (not self.reads or key.startswith(self.reads))
                and not (self.ignores and key.startswith(self.ignores)))


def search_spec(bots, rollout: str, sims: int = 8, margin: float = 2.0,
                reads_point_values: bool = True) -> PolicySpec:
    """The ``search`` bot's declaration for a family whose other bots are ``bots`` (their
    names, in registry order; ``search`` goes after them): determinized Monte Carlo over the
    family's own engine, ``rollout`` the default bot of the rollouts (:mod:`simcore.nb.search`,
    docs/bots.md)."""
    ids = ", ".join(f"{i} {n}" for i, n in enumerate(bots))
    return PolicySpec(
        name=SEARCH, doc="plays each candidate action forward with the engine on redealt "
        "unseen cards (rollouts by another bot); takes the rollout bot's choice unless another "
        "is clearly better",
        reads_point_values=reads_point_values, params=(
            Param("sims", "int", sims, "simulations per candidate action at each searched "
                  "decision (more: stronger and slower)", 1, 4096, tune=(2, 64)),
            Param("rollout", "int", list(bots).index(rollout), f"the bot that plays every seat "
                  f"in the simulations, by number: {ids}", 0, len(bots) - 1),
            Param("margin", "float", margin, "play another action than the rollout bot's only "
                  "when its mean gain is above this many standard errors (0: the best mean)",
                  0.0, 10.0),
            Param("temperature", "float", 0.0, "0: the best mean outcome; above: an action "
                  "drawn with weight exp(mean / temperature), in the outcome's units", 0.0, 1e6),
            Param("min_legal", "int", 2, "search only decisions with at least this many legal "
                  "actions (the rollout bot takes the others)", 2, 10_000),
        ))


class Registry:
    """A family's bots: names, ids (positions), specs and params rows."""

    def __init__(self, specs, max_params: int, best: str = "", mechanics: tuple = ()):
        self.specs = tuple(specs)
        self.max_params = max_params
        # the strongest heuristic bot, and the kinds of its decision (:class:`Mechanic`)
        # `mechanics` takes away or forces one at a time (a Family's BEST_BOT and MECHANICS)
        self.best, self.mechanics = best, tuple(mechanics)
        self.names = tuple(s.name for s in self.specs)
        self.ids = {name: i for i, name in enumerate(self.names)}
        self.by_name = {s.name: s for s in self.specs}
        for spec in self.specs:
            check_declaration(spec.name, spec.params)
            if len(spec.params) > max_params:
                raise ValueError(f"policy {spec.name}: more than {max_params} parameters")

    def id(self, name: str) -> int:
        """The id the engine receives for policy ``name`` (its position)."""
        return self.ids[name]

    def param_row(self, policy: str, values: Mapping) -> list[float]:
        """The ``params`` values the engine passes to ``policy``: declared order, defaults
        filled."""
        return param_vector(self.by_name[policy].params, values)

    def seat_arrays(self, seats, rows: int):
        """``(policy ids int64[rows], params float64[rows, max_params])`` of a scenario's seats
        (rows beyond the seats stay 0)."""
        ids = np.zeros(rows, np.int64)
        params = np.zeros((rows, self.max_params), np.float64)
        for i, s in enumerate(seats):
            ids[i] = self.ids[s["policy"]]
            vals = self.param_row(s["policy"], s.get("params") or {})
            params[i, :len(vals)] = vals
        return ids, params
