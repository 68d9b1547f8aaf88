"""``compare A B --pairings``: one comparison per bot pairing, on the same deals, and the metrics
whose verdict depends on the pairing (issue 9, item 7).

An effect that exists only between weak bots is not a balance finding. Every pairing plays both
variants in one study (common random numbers across variants *and* pairings), Holm adjusts across
every pairing and metric together, and a metric is flagged when its verdict (with the direction of
a detected difference) is not the same in every pairing.
"""

from __future__ import annotations

from simcore.errors import InputError

SIGNED = {"different"}  # verdicts whose direction matters
NO_VERDICT = {"never happened", "too few differing games", "identical", "not defined in a",
              "not defined in b"}


def parse_pairings(text: str) -> list[tuple[str, str]]:
    """``"greedy:greedy,value:call=0.8:greedy"`` -> [(label, players string), ...].

    Within a pairing, seats are separated by ``:``; a ``name=value`` token is a parameter of the
    seat before it (``value:call=0.8:greedy`` = value with call=0.8 against greedy).
    """
    out = []
    for entry in (e.strip() for e in text.split(",")):
        seats: list[str] = []
        for token in (t.strip() for t in entry.split(":")):
            if "=" in token:
                if not seats:
                    raise InputError(f"--pairings: {entry!r} starts with a parameter, not a policy")
                seats[-1] += ":" + token
            elif token:
                seats.append(token)
        if len(seats) != 2:
            raise InputError(f"--pairings: {entry!r} is not two seats (e.g. value:greedy)")
        out.append((entry, ",".join(seats)))
    if len({label for label, _ in out}) != len(out):
        raise InputError(f"--pairings {text!r}: a pairing is listed twice")
    return out


def verdict_key(row: dict) -> str:
    """The verdict with the direction of a detected difference (``different +``); a difference
    inside the margin (``negligible``) counts as ``equivalent``, as it matters to nobody."""
    v = row["verdict"]
    if row.get("negligible"):
        return "equivalent"
    if v in SIGNED and row["diff"] is not None:
        return f"{v} {'+' if row['diff'] > 0 else '-'}"
    return v


def pairing_table(labels, rows, n_metrics) -> tuple[dict, list]:
    """Rows of ``compare_rows`` (pair-major) -> ({label: {metric: row}}, metrics whose verdict
    changes with the pairing; metrics that never happened in a pairing do not count there)."""
    by_pairing = {}
    for i, label in enumerate(labels):
        by_pairing[label] = {r["metric"]: r for r in rows[i * n_metrics:(i + 1) * n_metrics]}
    metrics = list(by_pairing[labels[0]])
    changes = []
    for m in metrics:
        # no verdict (never happened, too few differing games, ...) does not contradict one
        keys = {verdict_key(by_pairing[lab][m]) for lab in labels} - NO_VERDICT
        if len(keys) > 1:
            changes.append(m)
    return by_pairing, changes


def pairing_json(a, b, games, seed, alpha, paired, by_pairing, changes) -> dict:
    keep = ("a", "b", "diff", "ci", "p", "p_adj", "margin", "margin_relative", "verdict",
            "negligible", "correlation", "per", "unit", "differing")
    return {"a": a, "b": b, "games": games, "seed": seed, "alpha": alpha, "paired": paired,
            "pairings": {lab: {m: {k: r[k] for k in keep} for m, r in rows.items()}
                         for lab, rows in by_pairing.items()},
            "verdict_changes": changes}


def pairing_text(a, b, games, seed, alpha, by_pairing, changes) -> str:
    labels = list(by_pairing)
    head = [f"compare {a} (a) with {b} (b) under {len(labels)} pairings: {games} games each, "
            f"seed {seed}, Holm-adjusted across every pairing and metric at alpha = {alpha}"]
    if changes:
        head.append(f"verdict depends on the pairing for {len(changes)} metrics: "
                    + ", ".join(changes) + " (not a balance finding on its own)")
    else:
        head.append("every metric has the same verdict under every pairing")
    table = {m: [_cell(by_pairing[lab][m]) for lab in labels] for m in by_pairing[labels[0]]}
    width = max(12, *(len(lab) for lab in labels), *(len(c) for cs in table.values() for c in cs))
    lines = ["", "cells: difference b - a [95% interval] and verdict (DIFF different, DIFF~ "
             "different but inside the margin, equiv equivalent, ? inconclusive, few: too few "
             "differing games, same: no game differed, - never happened); rates in pp",
             f"{'metric':<30}" + "".join(f"{lab:>{width + 2}}" for lab in labels) + "  changes"]
    for m, cells in table.items():
        lines.append(f"{m:<30}" + "".join(f"{c:>{width + 2}}" for c in cells)
                     + ("  <- yes" if m in changes else ""))
    return "\n".join(head + lines)


def _cell(r: dict) -> str:
    verdict = f"{_short(r['verdict'])}{'~' if r.get('negligible') else ''}"
    if r["diff"] is None or r["ci"][0] is None:
        return verdict
    if r.get("unit") == "pp":      # rates in percentage points, two decimals
        return f"{100 * r['diff']:+.2f} [{100 * r['ci'][0]:+.2f}, {100 * r['ci'][1]:+.2f}] {verdict}"
    return f"{r['diff']:+.3f} [{r['ci'][0]:+.3f}, {r['ci'][1]:+.3f}] {verdict}"


def _short(verdict: str) -> str:
    return {"different": "DIFF", "equivalent": "equiv", "inconclusive": "?",
            "never happened": "-", "too few differing games": "few", "not defined in a": "n/a",
            "not defined in b": "n/a",
            "identical": "same"}.get(verdict, verdict)
