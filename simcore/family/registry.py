"""The game families the harness can run, and which one a scenario belongs to (issue 13).

The harness (``run``, ``compare``, ``sweep``, ``plan``, ``tournament``, result directories,
reports, backends, the CLI) never imports a game package: it asks this registry for a *family*,
the :class:`simcore.family.base.Family` object a family's module defines as ``FAMILY``, and
calls only what that class defines. Registering a family is one line in :data:`FAMILIES`.

Which family a scenario belongs to is read from its raw YAML before any validation: a string
``game:`` names the family (``game: ptrump``); a file without one inherits its ``extends:`` base's;
no string ``game:`` anywhere in the chain means :data:`DEFAULT` (MOMOJAN files use ``game:`` as a
*mapping* of end-of-game rules, which therefore also means MOMOJAN). The family's own ``load``
then validates the file and reports every other problem (missing file, bad YAML, cycles) in its
own words.

What this implementation simplifies: the raw reading follows ``extends`` the way the families
resolve it (relative to the file, then the working directory, then a bundled name) but stops
quietly at anything it cannot read; the family's ``load`` reports that problem.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from simcore.errors import InputError, a_
from simcore.family.scenario.files import bundled_dir, did_you_mean, load_yaml_quietly, path_kind

# name -> the module defining the family's FAMILY object (imported on first use)
FAMILIES = {
    "momojan": "simcore.momojan.family",
    "ptrump": "simcore.ptrump.family",
    "emoji": "simcore.emoji.family",
    "riichi2p": "simcore.riichi2p.family",
    "sparrow": "simcore.sparrow.family",
}
DEFAULT = "momojan"


def register(name: str, module_path: str) -> None:
    """Add (or replace) a family: ``module_path`` is imported when the family is first used.
    Tests register fake families this way."""
    FAMILIES[name] = module_path


def unregister(name: str) -> None:
    FAMILIES.pop(name, None)


def names() -> list[str]:
    return list(FAMILIES)


def packages(name: str) -> tuple[str, str]:
    """``(game package, bots package)`` of a family: where its module lives
    (``simcore.momojan``) and, by convention, ``policies.<last part of it>``. The import-graph
    and conformance tests read them here, so no list of families is written twice."""
    game = FAMILIES[name].rpartition(".")[0]
    return game, "policies." + game.rpartition(".")[2]


def get(name: str):
    """The family called ``name`` (its :class:`~simcore.family.base.Family` object); an unknown
    name is an :class:`InputError`."""
    if name not in FAMILIES:
        raise InputError(f"unknown game family {name!r}{_known(name)}")
    try:
        return importlib.import_module(FAMILIES[name]).FAMILY
    except ModuleNotFoundError as exc:
        if not FAMILIES[name].startswith(str(exc.name)):
            raise   # a module the family imports is missing: a real error, shown in full
        raise InputError(f"game family {name!r} is not available ({FAMILIES[name]} cannot be "
                         f"imported: {exc})") from None


def _known(name) -> str:
    return did_you_mean(name, names(), f" (known: {', '.join(names())})")


# ---------------------------------------------------------------------------------------------
# Which family a scenario file belongs to
# ---------------------------------------------------------------------------------------------

def _resolve(ref: str, relative_to: Path | None = None) -> Path | None:
    """The file a scenario reference names (a path, relative to ``relative_to`` first, or a
    bundled name), or None: the family's loader reports why."""
    for c in ([relative_to / ref] if relative_to is not None else []) + [Path(ref)]:
        if path_kind(c) == "file":
            return c.resolve()
    bundled = bundled_dir() / f"{ref.removesuffix('.yaml')}.yaml"
    if "/" not in ref and path_kind(bundled) == "file":
        return bundled.resolve()
    return None


def _raw(path: Path):
    data = load_yaml_quietly(path)
    return data if isinstance(data, dict) else None


def _chain(path: Path | None):
    """(path, raw data) of a scenario file and then each ``extends`` base, while readable."""
    seen = set()
    while path is not None and path not in seen:
        seen.add(path)
        data = _raw(path)
        if data is None:
            return
        yield path, data
        base = data.get("extends")
        path = _resolve(base, path.parent) if isinstance(base, str) else None


def family_name_of(ref) -> str:
    """The family name a scenario file (path or bundled name) declares, following ``extends``.

    Raises :class:`InputError` (``FILE: game: unknown game family 'x' (known: ...)``) for a
    string ``game:`` that names no registered family.
    """
    from itertools import islice
    chain = list(islice(_chain(_resolve(str(ref))), 200))
    found = None
    for i, (path, data) in enumerate(chain):
        game = data.get("game")
        if isinstance(game, str):
            if game not in FAMILIES:
                raise InputError(f"{path}: game: unknown game family {game!r}{_known(game)}")
            declared = game
        elif game is not None:     # a mapping (MOMOJAN's end-of-game rules): the default family
            declared = DEFAULT
        else:
            continue
        if found is None:
            found = (path, declared)
        elif declared != found[1]:
            # a file of one family extending one of another: name the file that says so,
            # not the base's keys that the other family's schema would then refuse
            raise InputError(f"{found[0]}: game: {found[1]}, but it extends {path.name}, "
                             f"{a_(declared)} scenario (a scenario extends one of its own "
                             f"family)")
    if found is not None and len(chain) > 1 and found[1] != DEFAULT and \
            not any(isinstance(d.get("game"), str) for _, d in chain[1:]):
        base = chain[1][0]
        raise InputError(f"{found[0]}: game: {found[1]}, but it extends {base.name}, "
                         f"{a_(DEFAULT)} scenario (a scenario extends one of its own family)")
    return found[1] if found is not None else DEFAULT


def bundled_names_of(name: str) -> list[str]:
    """The bundled scenarios of family ``name`` (the folder holds every family's files: each
    one's chain declares its own), sorted; a file naming an unknown family belongs to none."""
    out = []
    for p in sorted(bundled_dir().glob("*.yaml")):
        try:
            if family_name_of(p) == name:
                out.append(p.stem)
        except InputError:
            pass
    return out


def family_of(ref):
    """The family of a scenario file or bundled name (see :func:`family_name_of`)."""
    return get(family_name_of(ref))


def load(ref, every_error: bool = False):
    """``(family module, scenario)``: the scenario validated by its own family's loader
    (``every_error``: every wrong key at once, as :class:`simcore.errors.InputErrors`)."""
    fam = family_of(ref)
    return fam, fam.SCENARIOS.load(ref, every_error) if every_error else fam.SCENARIOS.load(ref)


def load_all(refs, what: str = "compare"):
    """The family shared by every reference and their scenarios; scenarios of two families are
    one line: ``compare: A is a momojan scenario and B a ptrump one; ...``."""
    found = [(r, family_name_of(r)) for r in refs]
    (r0, f0), *rest = found
    for r, f in rest:
        if f != f0:
            raise InputError(f"{what}: {r0} is {a_(f0)} scenario and {r} {a_(f)} one; "
                             f"{what} needs scenarios of one game family")
    fam = get(f0)
    return fam, [fam.SCENARIOS.load(r) for r in refs]


def of_result(prov: dict):
    """The family a saved result directory was played with (its provenance.json ``family``;
    results written before families existed are MOMOJAN's)."""
    name = prov.get("family", DEFAULT)
    if name not in FAMILIES:
        raise InputError(f"result of an unknown game family {name!r}{_known(name)}")
    return get(name)


def bundled() -> list[tuple[str, str, str]]:
    """``(scenario name, family name, description)`` of every bundled scenario file, by name
    (the description as the file or the nearest base it extends gives it)."""
    out = []
    for p in sorted(bundled_dir().glob("*.yaml")):
        try:
            fam = family_name_of(p)
        except InputError:
            fam = "?"
        description = next((str(d["description"]) for _, d in _chain(p.resolve())
                            if d.get("description")), "")
        out.append((p.stem, fam, description))
    return out
