"""Do the bots respond to the point values a designer tunes? (issue 30, item 2)

For each :class:`Probe` a family names (a point value its value-reading bots aim for, how to raise
it, and the metric that counts it: ``scoring.yaku.ittsu.points`` +3 against
``yaku_ittsu_share``), the scenario is played against the same with only that value raised, on
the same deals (a paired compare), and the row says whether the frequency rose (verdict
``different`` with a positive difference). A value the bots do not plan for is listed by the family
with its reason instead (:meth:`simcore.family.base.Family.response_probes`).
"""

from __future__ import annotations

from simcore.family.metrics import Probe  # noqa: F401  (declared with the metrics it names)


def probe_rows(fam, sc, probes, games: int, seed: int, workers: int = 1, progress=None) -> list:
    """One row per probe: the metric's value under the scenario and with the value raised, the
    paired difference's 95% interval, the compare's verdict and whether it rose."""
    from simcore.family.scenario.files import nested
    from simcore.studies.compare import scenario_pair_rows
    from simcore.studies.study import run_study
    rows = []
    for i, p in enumerate(probes):
        raised = fam.SCENARIOS.with_overrides(sc, nested(p.key, p.raised), f"{sc['name']} {p.key}={p.raised}")
        res = run_study(fam, [sc, raised], seed, games, workers)
        pair, _off = scenario_pair_rows(fam, res.sums, sc, raised, [p.metric])
        row = pair[0] if pair else {"a": None, "b": None, "diff": None, "ci": (None, None),
                                    "verdict": "switched off"}
        rows.append({"key": p.key, "raised": p.raised, "metric": p.metric, "what": p.what,
                     "before": row["a"], "after": row["b"], "diff": row["diff"],
                     "ci": list(row["ci"]), "verdict": row["verdict"],
                     "rose": row["verdict"] == "different" and (row["diff"] or 0) > 0})
        if progress:
            progress(i + 1, len(probes), rows[-1])
    return rows


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def probe_table(rows, not_planned=()) -> str:
    """The rows as a markdown table, then the values not probed with their reasons."""
    out = ["| point value raised | metric | before | after | difference [95%] | verdict |",
           "|---|---|---:|---:|---:|---|"]
    for r in rows:
        lo, hi = r["ci"]
        diff = "-" if r["diff"] is None else f"{100 * r['diff']:+.2f} pp"
        if lo is not None:
            diff += f" [{100 * lo:+.2f}, {100 * hi:+.2f}]"
        verdict = r["verdict"] + (", up" if r["rose"] else "")
        out.append(f"| {r['what']} | {r['metric']} | {_pct(r['before'])} | {_pct(r['after'])} "
                   f"| {diff} | {verdict} |")
    if not_planned:
        out += ["", "Not probed (the bots do not plan for them):", ""]
        out += [f"- `{key}`: {why}" for key, why in not_planned]
    return "\n".join(out)
