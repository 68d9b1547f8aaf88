"""Emoji mahjong scenario files: load, resolve ``extends:``, validate, freeze.

A scenario is YAML matching :data:`simcore.emoji.schema.SCHEMA` and saying ``game: emoji``. The
loader is the kit's (:class:`simcore.family.scenario.ScenarioLoader`); what is emoji's is its
checker's leaf kinds (four seats, numbers, multipliers or ``off``, the honour order, ``turns``)
and the cross-key checks, among them the source's maximum (spec §8.4, ``calibration``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simcore.family.scenario import files as scenario_files
from ..errors import InputError, shown as _kind
from ..family.scenario import ScenarioLoader, check_seat as _check_seat
from simcore.family.scenario.files import ScenarioBase
from simcore.family.standard import StandardChecker
from .schema import GAME, SCHEMA, Field, worst_cases

DEFAULT_SCENARIO = "emoji"
N_SEATS = 4
HONOURS = ("cat", "fish", "bird")


class ScenarioError(InputError):
    """A scenario file that cannot be used; the message starts ``FILE: key.path: ...``."""


class _Checker(StandardChecker):
    error, game, title, policies = ScenarioError, GAME, "emoji mahjong", "policies.emoji"
    seats, seats_why = (N_SEATS, N_SEATS), " (emoji mahjong is played by four)"

    def leaf(self, path: str, f: Field, v: Any):
        if f.kind in ("number", "multiplier"):
            if f.kind == "multiplier" and (v is False or v == "off"):
                return "off"
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v \
                    or v in (float("inf"), float("-inf")) or v < (f.min or 0) \
                    or (f.kind == "multiplier" and v <= 0):
                what = "a multiplier > 0 or off" if f.kind == "multiplier" else \
                    f"a number >= {f.min or 0}"
                self.fail(path, f"expected {what}, got {_kind(v)}")
            return float(v) if f.kind == "multiplier" else v
        if f.kind == "honours":
            if not isinstance(v, list) or sorted(map(str, v)) != sorted(HONOURS):
                self.fail(path, f"expected the three honours in some order (cat, fish, bird), "
                          f"got {_kind(v)}")
            return list(v)
        if f.kind == "supersedes":
            from .scoring import YAKU
            if not isinstance(v, dict):
                self.fail(path, f"expected a mapping of yaku to lists of yaku, got {_kind(v)}")
            out = {}
            for name, implied in v.items():
                if name not in YAKU:
                    self.fail(f"{path}.{name}", "unknown yaku" + scenario_files.known_hint(
                        str(name), YAKU, "yaku", "the yaku are the keys of scoring.yaku"))
                if not isinstance(implied, list) or not all(y in YAKU for y in implied):
                    self.fail(f"{path}.{name}", f"expected a list of yaku, got {_kind(implied)}")
                if name in implied:
                    self.fail(f"{path}.{name}", "a yaku cannot supersede itself")
                out[name] = list(implied)
            cycle = supersedes_cycle(out)
            if cycle:
                self.fail(f"{path}.{cycle[0]}", f"a cycle ({' -> '.join(cycle)}): a yaku "
                          f"cannot supersede, directly or through others, one that supersedes "
                          f"it (a win holding both would drop both)")
            return out
        if f.kind == "turns":
            if v == "auto":
                return v
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 15:
                self.fail(path, f"expected auto or a whole number 1-15, got {_kind(v)}")
            return v
        return super().leaf(path, f, v)


def supersedes_cycle(table: dict) -> list | None:
    """A cycle of ``scoring.supersedes`` (yaku -> the yaku it supersedes) as the yaku along it,
    the first repeated at the end (``[a, b, a]``), or None."""
    state: dict = {}   # 1: on the current path, 2: done

    def visit(node, path):
        state[node] = 1
        for nxt in table.get(node, ()):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for start in table:
        if start not in state:
            found = visit(start, [start])
            if found:
                return found
    return None


def policy_specs() -> dict:
    from policies.emoji import POLICIES
    return POLICIES.by_name


def check_seat(name: Any, params: dict, fail) -> tuple[str, dict]:
    """A seat's policy and params against this family's bots (the kit's
    :func:`simcore.family.scenario.check_seat`)."""
    return _check_seat(policy_specs(), name, params, fail)


def _check_consistency(d: dict, fail) -> None:
    sc = d["scoring"]
    nak = sc["nakayoshi"]
    if sc["yaku"][nak] != 1.5:
        fail(f"scoring.yaku.{nak}", f"{_kind(sc['yaku'][nak])}, but scoring.nakayoshi: {nak} "
             f"says it is the source's なかよし x1.5")
    if sc["calibration"] == "source_max":
        from .calibration import source_max_problem
        problem = source_max_problem(d)
        if problem:
            fail("scoring.yaku", problem + " (scoring.calibration: free skips the check)")


@dataclass(frozen=True)
class Scenario(ScenarioBase):
    """A validated, fully resolved emoji scenario. ``data`` is a read-only nested mapping."""

    @property
    def n_players(self) -> int:
        return N_SEATS


class Scenarios(ScenarioLoader):
    GAME, DEFAULT_SCENARIO, ERROR = GAME, DEFAULT_SCENARIO, ScenarioError
    # its files' `game:` is the family's name, not a rule
    RUNNER_KEYS = (*ScenarioLoader.RUNNER_KEYS, "game")
    CHECKER, SCHEMA, SCENARIO = _Checker, SCHEMA, Scenario
    WORST_CASES = staticmethod(worst_cases)
    # spec §16: under dora_next: global the next kind id mod 30 names every dora, the honours'
    NO_EFFECT = {"wall.honor_cycle": ("wall.dora_next", ("per_suit",),
                                      "the dora is the next kind id mod 30, honours included")}

    def prepare(self, raw: dict, checker, explicit) -> dict:
        if "game" not in raw:
            checker.fail("game", f"missing: an emoji mahjong scenario says `game: {GAME}`")
        return raw

    def consistency(self, data: dict, fail) -> None:
        _check_consistency(data, fail)


LOADER = Scenarios()


# show's YAML (Family.ANNOTATION): each leaf followed by its tag and meaning
ANNOTATION = dict(column=50, tag_labels={"R": "[R]", "I": "[I]", "X": "[X] reconstructed",
                                          "V": "[V] variant", "T": "[tool]"},
                  legend="# Tags: [R] stated by the source, [I] our reading (an option), "
                         "[X] reconstructed (the value is not public), [tool] how the tool "
                         "runs it (not a rule)")
