"""Replays of any saved or scenario game: what ``replay`` opens, and the HTML pages a report
links to.

``replay TARGET --game N`` takes a scenario (file or bundled name) or a result directory; a
directory gives the scenario exactly as it was played (its saved variants, seats included) and
the seed, so a report's replay line works from any directory. A directory of several variants
needs ``--variant`` (a name or an index).
"""

from __future__ import annotations

import os

from simcore.errors import InputError, cut
from simcore.family.replay import replay_html

REPLAY_DIR = "replays"          # inside a result directory
MAX_PAGES_PER_VARIANT = 40      # the report's example games, first ones first


def _variant_index(names: list, variant: str | None, where: str) -> int:
    if variant is None:
        if len(names) == 1:
            return 0
        raise InputError(f"{where} holds {len(names)} variants ({', '.join(names)}): choose one "
                         f"with --variant NAME or --variant 0..{len(names) - 1}")
    if variant in names:
        return names.index(variant)
    if variant.isascii() and variant.isdigit() and len(variant) < 10 \
            and int(variant) < len(names):   # not "²" (isdigit, but no int)
        return int(variant)
    raise InputError(f"--variant {cut(variant)}: {where} holds {', '.join(names)} "
                     f"(or 0..{len(names) - 1})")


def open_target(ref: str, variant: str | None = None):
    """(family, scenario, seed or None, result dir or None) for ``replay REF``: a scenario or a
    result directory (its saved variant ``variant`` and its seed)."""
    from simcore.family import registry as families
    from simcore.studies.results import (check_run_hash, checked_variants, is_result_dir,
                                         read_provenance, reading)
    if not is_result_dir(ref):
        if variant is not None:
            raise InputError(f"--variant {variant}: only for a result directory ({ref} is a "
                             f"scenario)")
        family, sc = families.load(ref)
        return family, sc, None, None
    prov = read_provenance(ref, "replay")
    where = f"replay {ref}"
    if prov["kind"] == "tournament":
        raise InputError(f"{where}: a tournament's games change seats; replay its scenario "
                         f"with --players and the seed {prov['seed']}")
    if prov["kind"] not in ("run", "compare", "sweep", "solve"):
        raise InputError(f"{where}: a {cut(prov['kind'], 20)} result, whose games are no "
                         f"saved scenario's (a tune plays trials of many seatings); replay "
                         f"its scenario with --players and a seed instead")
    with reading(ref, "replay"):
        family = families.of_result(prov)
        if isinstance(prov.get("variants_sha256"), str):   # format 2 on: its hashes
            check_run_hash(ref, prov, "replay")
        payloads = checked_variants(ref, prov, "replay")
        names = [p.get("name") or f"variant {i}" for i, p in enumerate(payloads)]
        i = _variant_index(names, variant, where)
        sc = family.SCENARIOS.from_payload(payloads[i])
    return family, sc, int(prov["seed"]), ref


IN_DIR_NOTE = "run it inside the result directory (wherever it has been moved)"


def replay_command(game: int, variant: int | None = None) -> str:
    """The replay line a report prints: ``momojan-sim replay . --game N`` (the variant when
    it has several), to run inside the result directory. Not an absolute path into the place
    it was written (issue 46): the line keeps working when the directory is moved or copied,
    since a result directory holds everything a replay needs."""
    cmd = f"momojan-sim replay . --game {game}"
    return cmd + ("" if variant is None else f" --variant {variant}")


def page_name(game: int, variant: int | None = None) -> str:
    return f"{REPLAY_DIR}/" + ("" if variant is None else f"v{variant}-") + f"game-{game}.html"


def write_pages(result_dir: str, family, sc, seed: int, games, variant: int | None = None) -> dict:
    """Write the HTML replay of each of ``games`` (first :data:`MAX_PAGES_PER_VARIANT`) into
    the result directory; returns game -> page path relative to it."""
    from simcore.studies.results import atomic_write
    os.makedirs(os.path.join(result_dir, REPLAY_DIR), exist_ok=True)
    pages = {}
    for g in list(dict.fromkeys(int(x) for x in games))[:MAX_PAGES_PER_VARIANT]:
        rel = page_name(g, variant)
        page = replay_html(family.replay(sc, seed, g), replay_command(g, variant))
        atomic_write(os.path.join(result_dir, rel), page)
        pages[g] = rel
    return pages
