"""One scenario loader for every family: find a file, read its YAML, follow ``extends:``, check
it against the family's schema, freeze it.

A family's scenario module is then its schema, its checker's own leaf kinds, its cross-key checks
and (where its rules need one) a step before the schema check; it subclasses
:class:`ScenarioLoader`, sets the class attributes and exposes the loader's methods as its
module's ``load``, ``from_dict``, ``validate``... Every problem is one :class:`InputError` line
naming the file that set the key and the key path (``x.yaml: riichi.min_stock: expected ...``).

What this implementation simplifies: keys are checked in schema order and the first problem
stops the check (``validate`` with several files reports each file's first problem).
"""

from __future__ import annotations

import functools
from pathlib import Path

from simcore.errors import InputError, InputErrors, shown
from simcore.family.scenario import files as scenario_files
from simcore.family.scenario.files import OVERRIDES, deep_merge, freeze, leaf_paths


class ScenarioLoader:
    """The loader of one family's scenarios; a family subclasses it."""

    GAME: str = ""                    # the family's name (its bundled files say so)
    DEFAULT_SCENARIO: str = ""        # what a reference-less load reads
    ERROR: type = InputError          # the family's error class (an InputError)
    CHECKER: type = scenario_files.Checker   # with the family's leaf kinds
    SCHEMA: dict = {}
    SCENARIO: type = scenario_files.ScenarioBase
    # ``worst_cases(data) -> [simcore.family.scenario.bounds.Worst]``: what the engine forms from the
    # scenario's numbers and the storage that bounds it (the family's schema declares it; every
    # family must: tests/harness/test_value_bounds.py)
    WORST_CASES = None
    # dotted key -> (the dotted key it depends on, the values of that key under which it acts[,
    # why, said after the warning]):
    # a key the user's file or --set sets away from its default while the other key makes it
    # moot gets one warning on stderr, after every error (a scenario rebuilt from Python data,
    # as every worker does, says nothing)
    NO_EFFECT: dict = {}
    # top-level keys that say how to run, not what the rules are (left out of the rules hash in
    # provenance.json and of the rule differences); a family whose ``game:`` is a name adds it
    RUNNER_KEYS: tuple = ("name", "description", "extends", "run", "players")

    # ---- what a family may add -------------------------------------------------------------
    def defaults(self) -> dict:
        """Every key of the schema at its default (what ``from_dict`` starts from)."""
        from simcore.family.scenario.schema import Field, defaults
        return defaults(self.SCHEMA, Field)

    def prepare(self, raw: dict, checker, explicit) -> dict:
        """``raw`` before the schema check (a family's presets); ``explicit(key)``: whether the
        key was set where a preset may not override it."""
        return raw

    def consistency(self, data: dict, fail) -> None:
        """Cross-key checks of the validated data; ``fail(key, message)`` refuses it."""

    def check_bounds(self, data: dict, checker) -> None:
        """Every number the engine forms from the validated data fits what stores it
        (:mod:`simcore.family.scenario.bounds`); ``checker.fail(key, message)`` refuses it, naming a
        key the file the user gave set before one of its base's."""
        if self.WORST_CASES is not None:
            from simcore.family.scenario import bounds

            def prefer(key):
                return scenario_files.file_that_set(key, checker.origin, None) == \
                    checker.fallback
            bounds.check(self.WORST_CASES(data), data, self.defaults, checker.fail, prefer)

    def explicit_after(self, origin: dict, files: list):
        """``explicit(key)`` for a file chain (see :meth:`prepare`); None: every key."""
        return None

    # ---- files --------------------------------------------------------------------------------
    @property
    def bundled_dir(self) -> Path:
        return scenario_files.bundled_dir()

    def bundled_names(self) -> list[str]:
        """The bundled scenarios of this family (the folder holds every family's files)."""
        from simcore.family.registry import bundled_names_of
        return bundled_names_of(self.GAME)

    def bundled_descriptions(self) -> list[tuple[str, str]]:
        """(name, one-line description) of every bundled scenario of this family."""
        return [(name, self.load(name).get("description") or "") for name in self.bundled_names()]

    def resolve_path(self, ref: str, relative_to: Path | None = None) -> Path:
        """A scenario reference: an existing path (relative to ``relative_to`` first) or a
        bundled name."""
        return scenario_files.resolve_path(ref, relative_to, self.bundled_dir,
                                           self.bundled_names, self.ERROR)

    def read_yaml(self, path: Path) -> dict:
        return scenario_files.read_yaml(path, self.ERROR, self.DEFAULT_SCENARIO)

    def raw_chain(self, path: Path) -> tuple[dict, dict, list]:
        """The merged raw data of ``path`` and its ``extends`` chain, which file set each key,
        and the chain's files, base first."""
        return scenario_files.raw_chain(path, self.read_yaml, self.resolve_path, self.ERROR)

    # ---- checking -------------------------------------------------------------------------------
    def validate(self, raw, origin: dict | None = None, path: Path | None = None,
                 explicit=None, every_error: bool = False, set_by=None) -> dict:
        """Check raw scenario data against the schema; the complete data with defaults filled
        in. ``origin``: which file set each key (errors name it), ``path`` the file loaded.
        ``every_error``: check every key and raise :class:`simcore.errors.InputErrors` with
        all that are wrong (the cross-key checks run once the keys themselves are right).
        ``set_by(key)``: whether the user set the key (None: no :data:`NO_EFFECT` warning)."""
        checker = self.CHECKER(origin or {}, path or Path("<scenario>"))
        if not isinstance(raw, dict):
            checker.fail("(top)", f"expected a mapping, got {shown(raw)}")
        raw = self.prepare(raw, checker, explicit or (lambda key: True))
        if every_error:
            checker.errors = []
        data = checker.check(raw, self.SCHEMA)
        if not checker.errors:
            try:
                self.consistency(data, checker.fail)
                # the values the engine cannot hold, once the keys agree with each other
                self.check_bounds(data, checker)
            except scenario_files.Recorded:
                pass
        if checker.errors:
            raise InputErrors(checker.errors)
        if set_by is not None:
            self.warn_no_effect(data, set_by)
        return data

    def warn_no_effect(self, data: dict, set_by) -> None:
        """The :data:`NO_EFFECT` warnings of the validated data (see there)."""
        import sys
        defaults = self.defaults()
        for key, (parent, live, *why) in self.NO_EFFECT.items():
            value, ruling = _at(data, key), _at(data, parent)
            if set_by(key) and ruling not in live and value != _at(defaults, key):
                shown_value = str(ruling).lower() if isinstance(ruling, bool) else ruling
                print(f"warning: {key} has no effect while {parent} is {shown_value}"
                      + "".join(f" ({w})" for w in why), file=sys.stderr)

    def load(self, ref: str | Path | None = None, every_error: bool = False):
        """Load a scenario file or bundled name, resolve ``extends:`` and validate it
        (``every_error``: see :meth:`validate`)."""
        path = self.resolve_path(str(ref if ref is not None else self.DEFAULT_SCENARIO))
        raw, origin, files = self.raw_chain(path)
        data = self.validate(raw, origin, path, self.explicit_after(origin, files), every_error,
                             set_by=lambda key: has_key(raw, key))
        # a file that does not name itself is named after its file, not after its extends base
        # (two variants of one base would otherwise both be "new_edition")
        name = (data["name"] if origin.get("name") == path else None) or path.stem
        data["name"] = name
        return self.SCENARIO(name, path, freeze(data))

    def from_dict(self, raw: dict, name: str = "inline"):
        """A scenario from Python data: ``raw`` overrides the defaults."""
        if not isinstance(raw, dict):
            raise self.ERROR(f"<scenario>: (top): expected a mapping, got {shown(raw)}")
        data = self.validate(deep_merge(self.defaults(), raw),
                             explicit=lambda key: has_key(raw, key))
        data["name"] = data["name"] or name
        return self.SCENARIO(data["name"], None, freeze(data))

    def with_overrides(self, sc, overrides: dict, name: str):
        """``sc`` with ``overrides`` (a nested mapping, e.g. from ``--set``) applied and
        validated like YAML; an error names the option: ``--set key.path: ...`` (a key the
        overrides set, or one that fails a cross-key check because of them)."""
        merged = deep_merge(sc.to_dict(), overrides)
        merged["name"] = name
        origin = {k: OVERRIDES for k in leaf_paths(overrides)}
        data = self.validate(merged, origin, OVERRIDES,
                             explicit=lambda key: has_key(overrides, key),
                             set_by=lambda key: has_key(overrides, key))
        data["name"] = name
        return self.SCENARIO(name, None, freeze(data))

    # ---- what the harness reads of a scenario -------------------------------------------------
    def payload(self, sc) -> dict:
        """Resolved scenario data (plain, picklable): a worker rebuilds the scenario from it."""
        return sc.to_dict()

    def from_payload(self, data: dict):
        """The scenario back from :meth:`payload`'s data (a saved result's, when resuming)."""
        return self.from_dict(dict(data), name=data.get("name") or "inline")

    def rules_data(self, data: dict) -> dict:
        """The rules of a resolved scenario: everything but the ``RUNNER_KEYS`` (what the rules
        hash in provenance.json covers)."""
        return {k: v for k, v in data.items() if k not in self.RUNNER_KEYS}

    @staticmethod
    def run_defaults(sc) -> tuple:
        """(games, seed, workers) the scenario's ``run:`` section asks for."""
        return sc.get("run.games"), sc.get("run.seed"), sc.get("run.workers")

    def rule_choices(self, key: str) -> tuple:
        """The values an enum rule key may take (the conformance check tries another one)."""
        return getattr(self._fields.get(key), "choices", None) or ()

    def numeric_rule(self, key: str):
        """``(integer, minimum, maximum)`` of a numeric rule key (bounds None where open), or
        None when ``key`` is not a number rule (``solve`` and ``sweep`` read it)."""
        f = self._fields.get(key)
        if f is None or f.kind not in ("int", "float"):
            return None
        return f.kind == "int", f.min, f.max

    def choice_rule(self, key: str):
        """The values a choice or boolean rule ``key`` allows (an enum's choices in schema
        order; ``(False, True)``), or None when it is neither (``solve`` plays them all)."""
        f = self._fields.get(key)
        if f is None:
            return None
        if f.kind == "enum" and f.choices:
            return tuple(f.choices)
        if f.kind == "bool":
            return (False, True)
        return None

    @functools.cached_property
    def _fields(self) -> dict:
        from simcore.family.scenario.schema import Field, iter_fields
        return dict(iter_fields(self.SCHEMA, Field))


def seats_leaf(checker, path: str, v, specs: dict, seats: tuple, why: str = "") -> list:
    """A ``players:`` list of ``seats[0]`` to ``seats[1]`` seats, each ``{policy, params}``
    checked against the family's bots ``specs`` (``POLICIES.by_name``); ``why`` follows the
    expected count in the message (`` (emoji mahjong is played by four)``). A family's checker
    calls it for its ``players`` leaf."""
    lo, hi = seats
    if not isinstance(v, list) or not lo <= len(v) <= hi:
        got = f"{len(v)} seat{'' if len(v) == 1 else 's'}" if isinstance(v, list) else shown(v)
        count = f"{lo}" if lo == hi else f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"
        checker.fail(path, f"expected a list of {count} seats{why}, got {got}")
    out = []
    for i, seat in enumerate(v):
        p = f"{path}[{i}]"
        checker.seat_mapping(p, seat, " (expected policy, params)")
        params = seat.get("params", {}) or {}
        if not isinstance(params, dict):
            checker.fail(f"{p}.params", f"expected a mapping of parameter names to values, got "
                         f"{shown(params)}")
        name, params = check_seat(specs, seat.get("policy"), params,
                                  lambda key, message, p=p: checker.fail(f"{p}.{key}", message))
        out.append({"policy": name, "params": params})
    return out


def check_seat(specs: dict, name, params: dict, fail) -> tuple:
    """The one place a seat's policy name and params are checked against a family's bots
    (``specs``: name -> simcore.family.policy.PolicySpec): ``fail(key, message)`` with key ``policy``
    or ``params.NAME``. Returns (name, params with defaults filled)."""
    from simcore.family.params import check_params
    names = list(specs)
    if name not in names:
        fail("policy", f"unknown policy {shown(name)}"
             + scenario_files.did_you_mean(name, names, f" (known: {', '.join(names)})"))
    return name, check_params(name, specs[name].params, params,
                              lambda key, message: fail(f"params.{key}", message))


def _at(data: dict, dotted: str):
    """The value at a dotted key of validated data."""
    for k in dotted.split("."):
        data = data[k]
    return data


def has_key(raw: dict, dotted: str) -> bool:
    """Whether ``raw`` sets the dotted key."""
    node = raw
    for k in dotted.split("."):
        if not isinstance(node, dict) or k not in node:
            return False
        node = node[k]
    return True
