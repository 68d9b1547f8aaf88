"""Two-player riichi scenario files: load, resolve ``extends:``, validate, freeze.

A scenario is YAML matching :data:`simcore.riichi2p.schema.SCHEMA` and saying ``game:
riichi2p``; the options are the spec's, flat, under the spec's names (``red_fives: true``). The
loader is the kit's (:class:`simcore.family.scenario.ScenarioLoader`); what is riichi2p's is its
checker's leaf kinds (two seats, start points, multiples of 100), the dependent-key warning
(spec §12: a key whose parent is off changes nothing) and the values not built yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InputError, shown as _kind
from ..family.scenario import ScenarioLoader, check_seat as _check_seat
from simcore.family.scenario.files import ScenarioBase
from simcore.family.standard import StandardChecker
from . import schema as _schema
from .schema import DEPENDS, GAME, SCHEMA, Field

DEFAULT_SCENARIO = "riichi2p"
N_SEATS = 2
# values in the spec's table that this engine does not play yet: key -> (value, why)
NOT_BUILT = {
    "tenpai_declaration": ("choose", "choose (a tenpai player may declare noten) is not built "
                           "yet (docs/riichi2p.md); use auto"),
}


class ScenarioError(InputError):
    """A scenario file that cannot be used; the message starts ``FILE: key.path: ...``."""


class _Checker(StandardChecker):
    error, game, title, policies = ScenarioError, GAME, "two-player riichi", "policies.riichi2p"
    seats, seats_why = (N_SEATS, N_SEATS), ""

    def leaf(self, path: str, f: Field, v: Any):
        if f.kind == "points":
            if isinstance(v, bool) or not isinstance(v, int) or v < (f.min or 0) or \
                    v > f.max or v % 100:
                self.fail(path, f"expected a multiple of 100 from {f.min or 0} to {f.max}, "
                          f"got {_kind(v)}")
            return v
        if f.kind == "start_points":
            if not isinstance(v, list) or len(v) != 2 or not all(
                    isinstance(x, int) and not isinstance(x, bool) and 0 < x <= 10 ** 9
                    and x % 100 == 0 for x in v):
                self.fail(path, f"expected a list of two positive multiples of 100 (the "
                          f"first dealer's first), got {_kind(v)}")
            return list(v)
        return super().leaf(path, f, v)


def policy_specs() -> dict:
    from policies.riichi2p import POLICIES
    return POLICIES.by_name


def check_seat(name: Any, params: dict, fail) -> tuple[str, dict]:
    return _check_seat(policy_specs(), name, params, fail)


@dataclass(frozen=True)
class Scenario(ScenarioBase):
    """A validated, fully resolved riichi2p scenario. ``data`` is a read-only mapping."""

    @property
    def n_players(self) -> int:
        return N_SEATS


class Scenarios(ScenarioLoader):
    GAME, DEFAULT_SCENARIO, ERROR = GAME, DEFAULT_SCENARIO, ScenarioError
    # its files' `game:` is the family's name, not a rule
    RUNNER_KEYS = (*ScenarioLoader.RUNNER_KEYS, "game")
    CHECKER, SCHEMA, SCENARIO = _Checker, SCHEMA, Scenario
    WORST_CASES = staticmethod(_schema.worst_cases)   # simcore.family.scenario.bounds
    NO_EFFECT = DEPENDS

    def prepare(self, raw: dict, checker, explicit) -> dict:
        if "game" not in raw:
            checker.fail("game", f"missing: a two-player riichi scenario says `game: {GAME}`")
        return raw

    def consistency(self, data: dict, fail) -> None:
        for key, (value, why) in NOT_BUILT.items():
            if data.get(key) == value:
                fail(key, why)
        self.reachable_riichi(data, fail)

    def reachable_riichi(self, data: dict, fail) -> None:
        """A riichi minimum the game can never meet, set away from the spec's value, is refused
        (the spec's own 2 tiles and 1,000 points stand even where a short wall or low start
        points make them unreachable: that is the [R] rule at work, and the spec allows
        ``live_wall`` 1..96; the check reads the data alone, so a scenario rebuilt from its
        saved dict passes or fails alike):
        a seat declares riichi after its own draw, when at most ``live_wall - 1`` live tiles are
        left (the dealer's first draw; kans only shorten the wall, §3.3), and no seat ever
        holds more than the two start points together (payments are damage only, the pool is
        the players' own deposits, and the noten payment is a transfer, §9.5, §10.2)."""
        most_left = data["live_wall"] - 1
        if _set(data, "riichi_min_wall") and data["riichi_min_wall"] > most_left:
            fail("riichi_min_wall", f"{data['riichi_min_wall']} live tiles can never be left at "
                 f"a riichi: with live_wall: {data['live_wall']} at most {most_left} are left "
                 f"after a draw (so riichi could never be declared)")
        most_points = sum(data["start_points"])
        if _set(data, "riichi_min_points") and data["riichi_min_points"] > most_points:
            fail("riichi_min_points", f"{data['riichi_min_points']} points can never be held: "
                 f"no seat holds more than the start points together ({most_points}), so riichi "
                 f"could never be declared")


def _set(data: dict, key: str) -> bool:
    """The key holds a value other than the spec's."""
    return data[key] != SCHEMA[key].default


LOADER = Scenarios()


# show's YAML (Family.ANNOTATION): each leaf followed by its tag and meaning
ANNOTATION = dict(column=44, tag_labels={"R": "[R]", "I": "[I]", "X": "[X] reconstructed",
                                          "G": "[R] guessed default", "T": "[tool]"},
                  legend="# Tags: [R] stated by the source, [I] our reading (an option), "
                         "[X] reconstructed, [R] guessed default: the source's option "
                         "whose default colour is lost, [tool] how the tool runs it")
