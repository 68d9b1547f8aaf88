"""One call that writes a complete result directory and draws its report, for work that does
not stream chunks through :func:`simcore.studies.study.run_study` (a notebook's own study).

Its own module so that :mod:`simcore.studies.results` (the format) never imports the report, which reads
result directories through it.
"""

from __future__ import annotations

from simcore.studies.results import ResultDir, default_dir



def save_result(family, kind: str, scenarios, seed: int, games: int, summary: dict, *,
                out: str | None = None, options: dict | None = None, workers: int = 0,
                seconds: float | None = None, rounds: int = 0, labels=None,
                report: bool = True) -> str:
    """Write a complete result directory in one go and return its path.

    ``out`` (None: ``results/<first scenario's name>-<UTC time>``), ``kind`` ("tournament",
    ...), the scenarios played (their resolved YAML, rules hashes and seats go to the directory
    and provenance.json), the ``summary`` (JSON data: summary.json), ``seconds`` and ``rounds``
    (rounds/s in provenance.json). The report (report.md/.html) is drawn when ``report`` and
    the kind has a renderer; bad paths raise :class:`simcore.errors.InputError` before writing.
    """
    path = out or default_dir(f"{kind}-{scenarios[0].name}" if kind != "run"
                              else scenarios[0].name)
    rd = ResultDir.create(path, family, kind, scenarios, seed, games, dict(options or {}),
                          workers, labels=labels)
    rd.games_done, rd.rounds = games, rounds
    rd.finish({"kind": kind, **summary}, seconds or 0.0, workers)
    if report:
        try:
            from simcore.report.html import render
            render(path, verify=False)   # written just now: not hashed again
        except Exception:  # noqa: BLE001  the numbers are saved; the report can be redrawn
            pass
    return path
