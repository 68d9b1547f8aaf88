"""A study's result directory, from Python as from the CLI: open a new one for scenarios, reopen
an interrupted one to resume, and finish it with its summary.

``run``, ``compare`` and ``sweep`` are thin layers over these (they add only their options'
checks and their output); a notebook resumes a study the same way::

    st = open_study("compare", ["old_edition", "new_edition"], games=20000, out="results/ab")
    sink = st.create()                      # the directory: made when play starts
    res = run_study(st.family, st.scenarios, st.seed, st.games, sink=sink)
    finish_study(st, sink, {...}, res)
    # interrupted? st = resume_study("compare", "results/ab"); run_study(..., sink=st.sink)

What this implementation simplifies: the directory's name is chosen when it is made (the first
scenario's name and the UTC time), not reserved when the study is opened.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simcore.errors import InputError
from simcore.family.players import with_players


@dataclass
class OpenedStudy:
    """What a study plays and where it is saved (``sink``: a reopened directory; a new one is
    made by :meth:`create` when play starts)."""

    kind: str
    family: object
    scenarios: list
    games: int
    seed: int
    workers: int
    options: dict
    out: str | None = None
    save: bool = True
    sink: object = None
    played: list = field(default_factory=list)   # the variants saved (a sweep's grid)
    unsaved: str | None = None   # why the finished study's summary could not be saved

    def create(self, scenarios=None, labels=None):
        """The new result directory for ``scenarios`` (default: the study's), or None when
        nothing is saved; a reopened study returns its directory."""
        from simcore.studies.results import ResultDir, default_dir
        if self.sink is not None or not self.save:
            return self.sink
        scs = self.played = list(scenarios or self.scenarios)
        path = self.out or default_dir(
            f"{self.kind}-" + "-vs-".join(sc.name for sc in scs[:2]) if self.kind == "compare"
            else f"{self.kind}-{self.scenarios[0].name}" if self.kind != "run"
            else scs[0].name)
        self.sink = ResultDir.create(path, self.family, self.kind, scs, self.seed, self.games,
                                     self.options, self.workers, labels)
        return self.sink


def open_study(kind: str, refs, *, games: int | None = None, seed: int | None = None,
               workers: int | None = None, options: dict | None = None,
               players: str | None = None, out: str | None = None,
               save: bool = True) -> OpenedStudy:
    """A new study of the scenarios ``refs`` (one family for all), ``games``/``seed``/``workers``
    defaulting to the first scenario's ``run:`` section; ``out`` (a directory) is checked now
    and made by :meth:`OpenedStudy.create`."""
    from simcore.family import registry as families
    from simcore.family.chunks import chunk_games_for
    fam, loaded = families.load_all(list(refs), kind)
    scenarios = [with_players(fam, sc, players) for sc in loaded]
    d_games, d_seed, d_workers = fam.SCENARIOS.run_defaults(scenarios[0])
    from simcore.stats.luck import enabled
    # every analysis option the result depends on is in its options (provenance.json), the
    # luck correction included: --resume honours them (issue 46)
    st = OpenedStudy(kind, fam, scenarios, games or d_games, d_seed if seed is None else seed,
                     d_workers if workers is None else workers,
                     {**(options or {}), "luck_correction": enabled(),
                      "chunk_games": chunk_games_for(scenarios)}, out, save)
    if save and out:   # refuse a bad directory before anything is played
        from simcore.studies.results import check_out_dir
        check_out_dir(out)
    elif save:         # the default results folder: usable before anything is played
        from simcore.studies.results import check_default_root
        check_default_root()
    return st


def resume_study(kind: str, path: str, workers: int | None = None) -> OpenedStudy:
    """The interrupted study saved in ``path`` (every file checked against its hashes):
    its family, scenarios, games, seed and options, and the reopened directory as ``sink``."""
    from simcore.family import registry as families
    from simcore.studies.results import ResultDir, read_provenance
    fam = families.of_result(read_provenance(path, "--resume"))
    sink = ResultDir.reopen(path, fam, kind)
    if sink.prov["kind"] != kind:
        raise InputError(f"--resume {path}: a {sink.prov['kind']} result (resume it with "
                         f"momojan-sim {sink.prov['kind']} --resume)")
    from simcore.stats.luck import honour_saved
    try:
        honour_saved(sink.prov["options"].get("luck_correction", _luck_of_command_line(
            sink.prov)), f"--resume {path}")
        scenarios = sink.scenarios()
    except BaseException:
        sink.release()
        raise
    return OpenedStudy(kind, fam, scenarios, sink.prov["games"], sink.prov["seed"],
                       workers if workers is not None else 0, sink.prov["options"], path,
                       True, sink, scenarios)


def _luck_of_command_line(prov: dict) -> bool:
    """Whether a directory written before the option was recorded was luck-corrected: its
    command line says (resumed with the correction unless it was started without)."""
    import shlex
    try:
        return "--no-luck-correction" not in shlex.split(prov.get("command_line") or "")
    except ValueError:
        return True


def finish_study(study: OpenedStudy, data: dict, result) -> dict:
    """Write the summary (``data`` plus each variant's histograms and examples) and mark the
    directory complete; the summary as saved. Nothing to do for a study that saves nothing."""
    sink = study.sink
    if sink is None:
        return data
    fam = study.family
    if study.kind == "run":
        summary = {"kind": "run", **data, **sink.extras.to_json(fam, fam.CATALOGUE)}
    else:
        own = data.get("per_variant") or [{} for _ in study.played]   # compare's own values
        summary = {"kind": study.kind, **data, "per_variant": [
            {"name": sc.name, **own[v], **sink.extras.to_json(fam, fam.CATALOGUE, v)}
            for v, sc in enumerate(study.played)]}
    try:
        sink.finish(summary, result.seconds, result.workers)
    except InputError as exc:   # the answer is printed all the same, then this line (exit 2)
        study.unsaved = (f"the {study.kind} finished (printed above) but its summary was not "
                         f"saved: {exc}")
    return summary
