"""The report of a result directory: ``report.md`` (figures in ``figures/``) and a self-contained
``report.html`` (the same figures inline as base64 PNG, no network), drawn with matplotlib (Agg).

Game-agnostic: reads summary.json and provenance.json, and from the family only its metric
catalogue, its metric groups and how to spell a replay command. ``momojan-sim report DIR``
redraws it.
"""

from __future__ import annotations

import base64
import html
import math
import io
import json
import os

from simcore.errors import InputError, shell_word
from simcore.family.summary import metric_groups
from simcore.stats.luck import narrowing_text
from simcore.studies.compare import fmt_p, value_with_ci
from simcore.studies.results import atomic_write, read_provenance

INK = "#1f2430"
MUTED = "#6b7280"
GRID = "#e5e7eb"
ACCENT = "#2563eb"
FAIR = "#d97706"
GOOD = "#16a34a"
BAD = "#dc2626"
VERDICT_COLOURS = {"different": "#dc2626", "equivalent": "#16a34a", "inconclusive": "#9ca3af",
                   "never happened": "#d1d5db", "not tested": "#d1d5db",
                   "identical": "#d1d5db"}
SEAT_COLOURS = ("#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2")
MAX_EXAMPLES = 3
MAX_REPLAY_PAGES = 40   # HTML replays written per variant (the first example games)


def seat_colour(seat: int) -> str:
    """Seat ``seat``'s colour in every plot (cycled past the sixth seat)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def family_of(prov: dict):
    """The family a result was played with (:func:`simcore.family.registry.of_result`)."""
    from simcore.family.registry import of_result
    return of_result(prov)


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------

def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({
        "font.size": 10, "axes.edgecolor": GRID, "axes.labelcolor": INK, "text.color": INK,
        "xtick.color": MUTED, "ytick.color": INK, "axes.spines.top": False,
        "axes.spines.right": False, "axes.grid": True, "grid.color": GRID, "grid.linewidth": 0.8,
        "axes.axisbelow": True, "figure.dpi": 100, "savefig.dpi": 110,
        "axes.titleweight": "bold", "axes.titlesize": 11, "axes.titlelocation": "left"})
    return plt


def _png(fig, tight: bool = True) -> bytes:
    """PNG bytes; ``tight`` crops to what was drawn (a second full draw: a figure that sets its
    own margins and keeps its text inside skips it)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight" if tight else None, facecolor="white")
    _plt().close(fig)
    return buf.getvalue()


def _scale(metric):
    return (100.0, "%") if metric.is_rate else (1.0, "")


def _fit_before(label, right, renderer, gap_px=20.0):
    """Shorten ``label`` (with an ellipsis) until it ends ``gap_px`` before ``right`` begins: a
    long description must not run into the figures beside it, nor off the figure."""
    limit = right.get_window_extent(renderer).x0 - gap_px
    text = label.get_text()
    if label.get_window_extent(renderer).x1 <= limit:
        return
    lo, hi = 0, len(text)   # the longest prefix that fits
    while lo < hi:
        mid = (lo + hi + 1) // 2
        label.set_text(text[:mid].rstrip() + "…")
        if label.get_window_extent(renderer).x1 <= limit:
            lo = mid
        else:
            hi = mid - 1
    label.set_text(text[:lo].rstrip() + "…")


RATE_SPAN_MAX = 106.0   # percentage points: -3% to 103% (the strips' clamp keeps 0..100 inside)


def _strip_spans(rows, cat):
    """Each strip's width, so that widths compare: every rate strip spans the same number of
    percentage points, every other strip the same share of its value; the widest interval
    fills 40% of its strip, and a rate strip spans at most the whole 0-100% with a margin
    (``RATE_SPAN_MAX``: the intervals of a run of a game or two are nearly that wide)."""
    def hw(m):
        return (m["ci"][1] - m["ci"][0]) / 2
    rates = [hw(m) * 100 for n, m in rows if cat[n].is_rate]
    rel = [hw(m) / abs(m["value"]) for n, m in rows if not cat[n].is_rate and m["value"]]
    rate_span = min(max(rates, default=0) * 5, RATE_SPAN_MAX) or 1.0
    rel_span = max(rel, default=0) * 5 or 0.1
    out = {}
    for n, m in rows:
        if cat[n].is_rate:
            out[n] = rate_span
        else:
            out[n] = abs(m["value"]) * rel_span or max(hw(m) * 5, 1e-9)
    return out, rate_span


def _half_width(m, metric) -> str:
    hw = (m["ci"][1] - m["ci"][0]) / 2
    return f"± {100 * hw:.2f} pp" if metric.is_rate else f"± {hw:.3f}"


def fig_intervals(rows, cat, title):
    """One strip per metric: the value, its 95% interval and half-width, the fair value where
    there is one. Widths compare (see :func:`_strip_spans`), so a narrow bar is a precise
    number; a fair value beyond the strip is an arrow at its edge. Metrics that never happened
    (0 with an interval of 0) are left out."""
    plt = _plt()
    rows = [(n, m) for n, m in rows if m.get("value") is not None and m["ci"][0] is not None
            and not (m["value"] == 0 and m["ci"][1] == 0)]
    if not rows:
        return None
    spans, rate_span = _strip_spans(rows, cat)
    h = 0.78 * len(rows) + 1.1
    fig, axes = plt.subplots(len(rows), 1, figsize=(7.6, h), squeeze=False)
    renderer = fig.canvas.get_renderer()
    fig.subplots_adjust(left=0.03, right=0.97, top=1 - 0.95 / h, bottom=0.3 / h, hspace=1.35)
    for ax, (name, m) in zip(axes[:, 0], rows):
        c = cat[name]
        k, unit = _scale(c)
        v, (lo, hi) = m["value"] * k, (m["ci"][0] * k, m["ci"][1] * k)
        ref = m.get("reference")
        inside = m.get("contains_reference", True)
        colour = ACCENT if inside else BAD
        span = spans[name] * (1 if c.is_rate else k)
        left, right = (lo + hi) / 2 - span / 2, (lo + hi) / 2 + span / 2
        if c.is_rate:   # a share stays within 0..100% (and a dot at 0 stays whole)
            left, right = (-0.03 * span, 0.97 * span) if left < 0 else \
                (100 - 0.97 * span, 100 + 0.03 * span) if right > 100 else (left, right)
        if ref is not None:
            r = ref * k
            if left <= r <= right:
                ax.axvline(r, color=FAIR, lw=1.6, ls="--")
            else:
                edge = right if r > right else left
                ax.annotate(f"fair {_fmt(ref, c)}", xy=(edge, 0), xytext=(-6 if r > right
                                                                         else 6, 0),
                            textcoords="offset points", ha="right" if r > right else "left",
                            va="center", fontsize=8, color=FAIR,
                            arrowprops=None)
                ax.plot([edge], [0], ">" if r > right else "<", color=FAIR, ms=7)
        ax.plot([lo, hi], [0, 0], color=colour, lw=7, alpha=0.3, solid_capstyle="butt")
        ax.plot([v], [0], "o", color=colour, ms=8)
        ax.set_xlim(left, right)
        ax.set_yticks([])
        ax.set_ylim(-1, 1)
        ax.grid(axis="y", visible=False)
        for side in ("left", "top", "right"):
            ax.spines[side].set_visible(False)
        label = ax.text(0.0, 1.08, c.description, transform=ax.transAxes, ha="left",
                        va="bottom", fontsize=9.5, fontweight="bold", color=INK)
        shown = (f"{_fmt(m['value'], c)} {_half_width(m, c)}  [{_fmt(m['ci'][0], c)}, "
                 f"{_fmt(m['ci'][1], c)}]" + (f"   fair {_fmt(ref, c)}" if ref is not None
                                              else ""))
        figures = ax.text(1.0, 1.08, shown, transform=ax.transAxes, ha="right", va="bottom",
                          fontsize=9, color=colour if ref is not None else MUTED)
        _fit_before(label, figures, renderer)
        ax.tick_params(axis="x", labelsize=8, length=2)
        ax.locator_params(axis="x", nbins=6)
        if unit:
            ax.xaxis.set_major_formatter(lambda x, _: f"{x:g}%")
    fig.suptitle(title, x=0.03, y=1 - 0.12 / h, ha="left", fontweight="bold", fontsize=12)
    kinds = {cat[n].is_rate for n, _ in rows}
    scale = []
    if True in kinds:
        scale.append(f"rate strips span {rate_span:.3g} pp")
    if False in kinds:
        scale.append("the others the same share of their value")
    fig.text(0.03, 1 - 0.5 / h, "One scale: " + ", ".join(scale) + " (a shorter bar: a more "
             "precise number)", fontsize=8, color=MUTED, ha="left", va="top")
    return _png(fig, tight=False)  # margins set above, text kept inside: one draw, not two


def fig_shares(rows, cat, title, colour=ACCENT, names=None, points=None, log=False):
    """Horizontal bars of shares with their 95% intervals, largest first; ``points`` (name ->
    the rule's points) written beside each bar; ``log``: a logarithmic axis, for shares from
    0.1% to 100% side by side. Shares that never happened are left out."""
    names, points = names or {}, points or {}
    plt = _plt()
    rows = sorted([(n, m) for n, m in rows if m.get("value") and m["ci"][0] is not None],
                  key=lambda r: r[1]["value"])   # (no interval: a run of one game)
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7.2, 0.32 * len(rows) + 1.0))
    ys = range(len(rows))
    vals = [100 * m["value"] for _, m in rows]
    lo = [100 * (m["value"] - max(m["ci"][0], m["value"] / 50 if log else 0)) for _, m in rows]
    hi = [100 * (m["ci"][1] - m["value"]) for _, m in rows]
    ax.barh(list(ys), vals, color=colour, alpha=0.85, height=0.65)
    ax.errorbar(vals, list(ys), xerr=[lo, hi], fmt="none", ecolor=INK, elinewidth=1, capsize=2)
    ax.set_yticks(list(ys), [names.get(n) or _short(n) for n, _ in rows], fontsize=9)
    ax.grid(axis="y", visible=False)
    top = max(100 * m["ci"][1] for _, m in rows)
    for y, v, (n, m) in zip(ys, vals, rows):
        text = f"{v:.1f}%" if v >= 0.1 else f"{v:.2f}%"
        if n in points:
            p = points[n]
            text += f" · {p}" + ("" if isinstance(p, str) else " point" if p == 1 else " points")
        x = v + hi[y]
        ax.text(x * 1.08 if log else x + top * 0.02, y, "  " + text if log else text,
                va="center", fontsize=8, color=MUTED)
    if log:
        ax.set_xscale("log")
        ax.set_xlim(min(vals) / 2, top * 5)
        ax.set_xlabel("share of wins (log scale)", fontsize=8)
        ax.xaxis.set_major_formatter(lambda x, _: f"{x:g}%" if x <= 100 else "")
    else:
        ax.set_xlim(0, top * 1.15)
        ax.xaxis.set_major_formatter(lambda x, _: f"{x:g}%")
    ax.set_title(title)
    fig.tight_layout()
    return _png(fig)


def fig_hist(dists: list, names: list, title: str, xlabel: str, marks=()):
    """Bars of a distribution (several variants side by side as steps), integer ticks. The
    last bin holds every larger value: it is drawn apart and labelled "N+" when it holds
    any. ``marks``: (x, label) lines, e.g. where points start being doubled."""
    plt = _plt()
    from matplotlib.ticker import MaxNLocator
    fig, ax = plt.subplots(figsize=(7.2, 2.9))
    tail = any(d["counts"][-1] for d in dists)
    last = max(max((j for j, c in enumerate(d["counts"][:-1]) if c), default=0) for d in dists)
    tail_x = last + 2
    for i, (d, name) in enumerate(zip(dists, names)):
        counts = d["counts"]
        total = sum(counts) or 1
        xs = list(range(last + 1))
        share = [100 * c / total for c in counts[:last + 1]]
        colour = ACCENT if len(dists) == 1 else seat_colour(i)
        if len(dists) == 1:
            ax.bar(xs, share, color=colour, width=0.85, alpha=0.85)
        else:
            ax.step(xs, share, where="mid", lw=2, color=colour, label=name)
        if tail:
            ax.bar([tail_x + (0 if len(dists) == 1 else 0.3 * i)], [100 * counts[-1] / total],
                   width=0.85 if len(dists) == 1 else 0.3, color=colour, alpha=0.85,
                   hatch="//", edgecolor="white")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=10))
    if tail:
        ticks = [t for t in ax.get_xticks() if 0 <= t <= last]
        step = ticks[1] - ticks[0] if len(ticks) > 1 else 1
        # room for the "N+" label: a tick closer to it than most of a step is left out (48
        # beside 64+ two bars away read "4864+")
        ticks = [t for t in ticks if tail_x - t >= 0.75 * step]
        ax.set_xticks(ticks + [tail_x], [f"{t:g}" for t in ticks]
                      + [f"{d['last_bin_is_at_least']}+"])
    for x, label in marks:
        if x <= last + 1:
            ax.axvline(x - 0.5, color=FAIR, ls="--", lw=1.2)
            ax.text(x - 0.3, 0.97, label, transform=ax.get_xaxis_transform(), fontsize=8,
                    color=FAIR, va="top", ha="left")
    if len(dists) > 1:
        ax.legend(frameon=False, fontsize=8)
    ax.yaxis.set_major_formatter(lambda x, _: f"{x:g}%")
    ax.set_xlim(-0.8, (tail_x if tail else last) + 0.8)
    ax.set_xlabel(xlabel + (f" (the hatched bar: {dists[0]['last_bin_is_at_least']} or more)"
                            if tail else ""))
    ax.set_ylabel(f"share of {dists[0]['per']}")
    ax.set_title(title)
    fig.tight_layout()
    return _png(fig)


def fig_trajectories(trajs):
    plt = _plt()
    from matplotlib.ticker import MaxNLocator
    n = min(len(trajs), 6)
    if n == 0:
        return None
    cols = 3
    rows = -(-n // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(7.6, 2.1 * rows + 0.4), squeeze=False,
                             sharey=True)
    for ax, t in zip(axes.flat, trajs[:n]):
        sc = t["scores"]
        for seat in range(len(sc[0])):
            ax.plot(range(len(sc)), [r[seat] for r in sc], "-o", ms=3, lw=1.8,
                    color=seat_colour(seat), label=f"seat {seat}")
        ax.set_title(f"game {t['game']}", fontsize=9)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.tick_params(labelsize=8)
        ax.set_xlabel("round", fontsize=8)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes[0, 0].legend(frameon=False, fontsize=7)
    fig.suptitle("Score trajectories of the first games", x=0.01, ha="left",
                 fontweight="bold", fontsize=11)
    fig.tight_layout()
    return _png(fig)


def fig_forest(rows, cat, title):
    """Differences in units of each metric's equivalence margin (the shaded band is +-1
    margin), 95% intervals coloured by verdict."""
    plt = _plt()
    # a relative margin (a share of a's value) in the metric's own unit, for one scale
    rows = [dict(r, margin=r["margin"] * (r["a"] if r.get("margin_relative") else 1.0))
            for r in rows if r["ci"][0] is not None]
    rows = [r for r in rows if r["margin"] and r["margin"] > 0]
    if not rows:
        return None
    rows = sorted(rows, key=lambda r: (r["verdict"] != "different", abs(r["diff"] / r["margin"])))
    rows = rows[::-1]
    fig, ax = plt.subplots(figsize=(7.6, 0.3 * len(rows) + 1.3))
    ax.axvspan(-1, 1, color="#dcfce7", alpha=0.7, lw=0)
    ax.axvline(0, color=MUTED, lw=1)
    for y, r in enumerate(rows):
        m = r["margin"]
        c = VERDICT_COLOURS.get(r["verdict"], MUTED)
        ax.plot([r["ci"][0] / m, r["ci"][1] / m], [y, y], color=c, lw=2.5)
        ax.plot([r["diff"] / m], [y], "o", color=c, ms=5)
    # symmetric log beyond 2 margins: the +-1 margin band stays readable next to large effects
    ax.set_xscale("symlog", linthresh=2)
    lim = max(3.0, max(max(abs(r["ci"][0]), abs(r["ci"][1])) / r["margin"] for r in rows) * 1.3)
    ax.set_xlim(-lim, lim)
    labels = [f"{r['metric']}  {_fmt_diff(r['diff'], cat[r['metric']])}" for r in rows]
    ax.set_yticks(range(len(rows)), labels, fontsize=8)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("difference b - a in units of the metric's equivalence margin (green band: "
                  "within the margin; logarithmic beyond 2 margins)", fontsize=8)
    from matplotlib.lines import Line2D
    used = [v for v in VERDICT_COLOURS if any(r["verdict"] == v for r in rows)]
    ax.legend([Line2D([0], [0], color=VERDICT_COLOURS[v], lw=3) for v in used], used,
              frameon=False, fontsize=8, loc="lower right")
    ax.set_title(title)
    fig.tight_layout()
    return _png(fig)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def fig_sweep(variants, name, metric, grid, base_values=None, fair=None):
    """One metric across a sweep's variants, value with 95% interval coloured by the verdict
    against the base. One key with numeric values: a numeric axis, the base at its own value
    of the key (``base_values``); two keys: one line per value of the second key over the
    first (the base apart, in grey); otherwise one point per variant. The fair value dashed."""
    plt = _plt()
    from matplotlib.ticker import MaxNLocator
    k, _ = _scale(metric)
    base_values = base_values or {}
    keys = [g[0] for g in grid]
    numeric = len(grid) in (1, 2) and all(_is_number(v) for v in grid[0][1]) \
        and _is_number(base_values.get(keys[0]) if keys else None)
    fig, ax = plt.subplots(figsize=(3.8, 2.7))
    pts = [(v, v["metrics"].get(name)) for v in variants]
    pts = [(v, m) for v, m in pts if m and m.get("value") is not None and m["ci"][0] is not None]

    def bar(x, m, colour, marker="o", label=None):
        y = m["value"] * k
        ax.errorbar([x], [y], yerr=[[y - m["ci"][0] * k], [m["ci"][1] * k - y]], fmt=marker,
                    color=colour, capsize=3, ms=5, label=label)

    if fair is not None:
        ax.axhline(fair * k, color=FAIR, lw=1, ls="--", label=f"fair {_fmt(fair, metric)}")
    if numeric and len(grid) == 2:
        second = grid[1][1]
        n2 = len(second)
        width = (max(grid[0][1]) - min(grid[0][1]) or 1) * 0.012
        for j, val in enumerate(second):
            line = sorted(((v["settings"][keys[0]], m) for v, m in pts
                           if v["settings"] and v["settings"].get(keys[1]) == val),
                          key=lambda t: t[0])
            colour = seat_colour(j)
            off = (j - (n2 - 1) / 2) * width   # side by side, so intervals do not hide
            ax.plot([x + off for x, _ in line], [m["value"] * k for _, m in line],
                    color=colour, lw=1.2, label=f"{keys[1]} = {val}")
            for x, m in line:
                bar(x + off, m, colour, "o" if m.get("verdict") == "different" else "s")
        for v, m in pts:
            if not v["settings"]:
                bar(base_values[keys[0]], m, MUTED, "D",
                    label=f"base ({keys[1]} = {base_values.get(keys[1], '?')})")
        ax.set_xlabel(f"{keys[0]} (circle: different from the base)", fontsize=7)
        if all(isinstance(x, int) for x in grid[0][1]):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    elif numeric:
        for v, m in pts:
            base = not v["settings"]
            x = base_values[keys[0]] if base else v["settings"][keys[0]]
            bar(x, m, MUTED if base else VERDICT_COLOURS.get(m.get("verdict"), ACCENT),
                "D" if base else "o")
            if base:
                ax.axhline(m["value"] * k, color=MUTED, lw=1, ls=":")
                ax.annotate("base", (x, m["ci"][1] * k), textcoords="offset points",
                            xytext=(0, 3), ha="center", fontsize=7, color=MUTED)
        ax.set_xlabel(keys[0], fontsize=8)
        if all(isinstance(x, int) for x in grid[0][1]):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        for i, (v, m) in enumerate(pts):
            base = not v["settings"]
            bar(i, m, MUTED if base else VERDICT_COLOURS.get(m.get("verdict"), ACCENT))
            if base:
                ax.axhline(m["value"] * k, color=MUTED, lw=1, ls=":")
        ax.set_xticks(range(len(pts)), [("base" if not v["settings"] else v["label"])
                                        for v, _ in pts], rotation=30, ha="right", fontsize=7)
    if metric.is_rate:
        ax.yaxis.set_major_formatter(lambda x, _: f"{x:g}%")
    if ax.get_legend_handles_labels()[0]:   # below the axes: inside it covers points
        ax.legend(fontsize=6.5, frameon=False, loc="upper center", ncol=2,
                  bbox_to_anchor=(0.5, -0.28))
    ax.set_title(name, fontsize=9)
    ax.tick_params(labelsize=8)
    fig.tight_layout()
    return _png(fig)


def _render_solve_choice(doc, s, metric):
    """A solve over a choice rule: the ranking, its chart and its table."""
    from simcore.studies.solve_choice import _fd, vs_shown
    from simcore.studies.solve_design import fmt_value
    doc.p(f"Solve {s['param']} for {s['metric']} = {fmt_value(metric, s['target'])} "
          f"({s['target_source']}) in {s['scenario']}: a choice rule, each of its "
          f"{len(s['choices'])} values played on the same deals, {s['games']:,} games each.")
    doc.p(s["verdict"])
    doc.fig("solve", fig_choices(s, metric), f"{s['metric']} under each value of {s['param']}")
    rows = []
    for r in sorted(s["choices"], key=lambda r: r.get("rank", 99)):
        if r["metric"] is None:
            continue
        vs = r.get("vs_scenario")
        rows.append([str(r.get("rank", "-")), str(r["value"]), fmt_value(metric, r["metric"]),
                     f"[{fmt_value(metric, r['ci'][0])}, {fmt_value(metric, r['ci'][1])}]",
                     _fd(r["distance"], metric),
                     "target inside" if r["target_inside"] else "",
                     "(the scenario's own)" if r["value"] == s["scenario_value"] else
                     vs_shown(vs, metric)])
    doc.table(["rank", s["param"], s["metric"], "95% interval", "distance", "target",
               "vs the scenario's (paired)"], rows)
    doc.p(f"Method: {s['method']}.", "muted")


def fig_choices(s, metric):
    """A choice solve: each value's metric with its 95% interval, the target as a line."""
    plt = _plt()
    k, _ = _scale(metric)
    rows = [r for r in sorted(s["choices"], key=lambda r: r.get("rank", 99))
            if r["metric"] is not None]
    fig, ax = plt.subplots(figsize=(6.4, 0.9 + 0.45 * len(rows)))
    for i, r in enumerate(rows):
        c = GOOD if r["target_inside"] else ACCENT
        ax.errorbar([r["metric"] * k], [i], xerr=[[(r["metric"] - r["ci"][0]) * k],
                                                  [(r["ci"][1] - r["metric"]) * k]],
                    fmt="o", color=c, ms=5, capsize=3)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([str(r["value"]) + (" (scenario)" if r["value"] == s["scenario_value"]
                                           else "") for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(s["target"] * k, color=BAD, ls="--", lw=1, label="target")
    ax.set_xlabel(metric.name + (" (%)" if metric.is_rate else f" ({metric.unit})"), fontsize=8)
    if metric.is_rate:
        ax.xaxis.set_major_formatter(lambda x, _: f"{x:g}%")
    ax.legend(fontsize=7, frameon=False, loc="best")
    ax.tick_params(labelsize=8)
    fig.tight_layout()
    return _png(fig)


def _render_design(doc, s, cat):
    """A design: the verdict, each confirmed rule set against every target, and each target
    against the rule values the search tried."""
    from simcore.studies.design import _label
    from simcore.studies.solve_design import fmt_value
    p = s["plan"]
    doc.p(f"Design of {s['scenario']}: {len(s['targets'])} targets over {len(s['rules'])} "
          f"rules. Search: {len(s['trials'])} rule sets x {p['search_games']:,} games on the "
          f"same deals ({s['sampler']}); narrowing: {len(s['narrowed'])} x "
          f"{p['narrow_games']:,} games on deals of their own; confirmation on fresh deals, "
          f"{p['confirm_games']:,} games each; {s['games']:,} games in all.")
    doc.p(s["verdict"])
    rows = []
    for r in s["confirmed"]["rule_sets"]:
        for c, tg in zip(r["targets"], s["targets"]):
            m = cat[c["metric"]]
            ci = f"[{fmt_value(m, c['ci'][0])}, {fmt_value(m, c['ci'][1])}]"
            rows.append([_label(r["params"]), c["metric"], fmt_value(m, c["value"]), ci,
                         tg["text"], c["status"]])
    doc.h(3, "Confirmed on fresh deals")
    doc.table(["rule set", "metric", "estimate", "95% interval", "target", "status"], rows)
    doc.p("meets surely: the whole 95% interval inside the target; meets: the estimate inside, "
          "the interval reaching out; a target relative to today is judged by the paired "
          "difference from the scenario on the same deals.", "muted")
    doc.h(3, "Each target against the rules tried")
    for i, tg in enumerate(s["targets"]):
        doc.fig(f"design_{tg['metric']}", fig_design(s, i, cat[tg["metric"]]),
                f"{tg['metric']} against the rules tried")


def fig_design(s, i, metric):
    """Target ``i``: its metric for every rule set the search tried, one panel per rule, the
    target's band shaded, the confirmed rule sets ringed."""
    plt = _plt()
    k, _ = _scale(metric)
    tg = s["targets"][i]
    rules = s["rules"]
    today = s["today"].get(tg["metric"])
    lo, hi = tg["lo"], tg["hi"]
    if tg["kind"] == "value":
        c = today if tg["centre"] == "today" else tg["centre"]
        lo, hi = (None, None) if c is None else (c - tg["tolerance"], c + tg["tolerance"])
    else:
        lo = today if lo == "today" else lo
        hi = today if hi == "today" else hi
    confirmed = {r["number"] for r in s["confirmed"]["rule_sets"]}
    fig, axes = plt.subplots(1, len(rules), figsize=(3.2 * len(rules) + 0.6, 2.8),
                             squeeze=False)
    for ax, rule in zip(axes[0], rules):
        key = rule["key"]
        cats = [str(c) for c in rule["choices"]] if rule["choices"] else None
        xs, ys, ring = [], [], []
        for t in s["trials"]:
            y = t["metrics"].get(tg["metric"])
            if y is None:
                continue
            x = t["params"][key]
            xs.append(cats.index(str(x)) if cats else x)
            ys.append(y * k)
            ring.append(t["number"] in confirmed)
        ax.scatter(xs, ys, s=14, color=ACCENT, alpha=0.6, lw=0)
        ax.scatter([x for x, r in zip(xs, ring) if r], [y for y, r in zip(ys, ring) if r],
                   s=60, facecolors="none", edgecolors=GOOD, lw=1.4, label="confirmed")
        y0, y1 = ax.get_ylim()
        ax.axhspan(lo * k if lo is not None else y0, hi * k if hi is not None else y1,
                   color=GOOD, alpha=0.12, lw=0, label="target")
        ax.set_ylim(y0, y1)
        if cats:
            ax.set_xticks(range(len(cats)))
            ax.set_xticklabels(cats, fontsize=7, rotation=20)
        elif rule["integer"]:
            from matplotlib.ticker import MaxNLocator
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(key, fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0][0].set_ylabel(metric.name + (" (%)" if metric.is_rate else f" ({metric.unit})"),
                          fontsize=8)
    axes[0][-1].legend(fontsize=7, frameon=False, loc="best")
    fig.suptitle(f"{tg['metric']}: target {tg['text']} (search games)", fontsize=8)
    fig.tight_layout()
    return _png(fig)


def fig_solve(s, metric):
    """A solve: the metric against the rule (pilot in grey, the design with 95% intervals, the
    interpolant), the target, and the solution's 95% interval as a band."""
    plt = _plt()
    from matplotlib.ticker import MaxNLocator
    k, _ = _scale(metric)
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    if s.get("ci"):
        for lo, hi in s["pieces"]:
            ax.axvspan(lo, hi, color=ACCENT, alpha=0.15, lw=0)
    pv = [(x, m, ci) for x, m, ci in zip(s["pilot"]["values"], s["pilot"]["metric"],
                                          s["pilot"]["ci"]) if m is not None and ci]
    if pv:
        ax.errorbar([p[0] for p in pv], [p[1] * k for p in pv],
                    yerr=[[(p[1] - p[2][0]) * k for p in pv], [(p[2][1] - p[1]) * k for p in pv]],
                    fmt="o", mfc="white", color=MUTED, ms=4, capsize=2, lw=0.8,
                    label=f"pilot ({s['pilot']['games']:,} games each)")
    d = [r for r in s["design"] if r["metric"] is not None]
    xs, ys = [r["value"] for r in d], [r["metric"] * k for r in d]
    ax.plot(xs, ys, color=ACCENT, lw=1)
    for r in d:
        c = GOOD if r["compatible"] else ACCENT
        ax.errorbar([r["value"]], [r["metric"] * k], yerr=[[(r["metric"] - r["ci"][0]) * k],
                                                            [(r["ci"][1] - r["metric"]) * k]],
                    fmt="o", color=c, ms=5, capsize=3)
    ax.plot([], [], "o", color=ACCENT, label=f"design ({s['games']:,} games each)")
    if any(r["compatible"] for r in d):
        ax.plot([], [], "o", color=GOOD, label="compatible with the target")
    ax.axhline(s["target"] * k, color=BAD, ls="--", lw=1, label="target")
    if s.get("estimate") is not None:
        ax.axvline(s["estimate"], color=ACCENT, ls=":", lw=1)
    handles, _ = ax.get_legend_handles_labels()
    if s.get("ci"):
        from matplotlib.patches import Patch
        handles.append(Patch(color=ACCENT, alpha=0.15, label="95% interval of the solution"))
    if s["integer"]:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(s["param"], fontsize=8)
    ax.set_ylabel(metric.name + (" (%)" if metric.is_rate else f" ({metric.unit})"), fontsize=8)
    if metric.is_rate:
        ax.yaxis.set_major_formatter(lambda x, _: f"{x:g}%")
    ax.legend(handles=handles, fontsize=7, frameon=False, loc="best")
    ax.tick_params(labelsize=8)
    fig.tight_layout()
    return _png(fig)


# ---------------------------------------------------------------------------------------------
# Text helpers
# ---------------------------------------------------------------------------------------------

def _fmt(x, metric) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if metric.is_rate else f"{x:.3f}"


def _fmt_diff(x, metric, unit: bool = True) -> str:
    """A difference with its unit (``unit``): percentage points (pp) for rates, else the
    metric's."""
    if x is None:
        return "-"
    text = f"{100 * x:+.2f}" if metric.is_rate else f"{x:+.3f}"
    return (f"{text} pp" if metric.is_rate else f"{text} {metric.unit}") if unit else text


def _short(name: str) -> str:
    for pre, suf in (("yaku_", "_share"), ("end_", "_rate"), ("", "_share")):
        if name.startswith(pre) and name.endswith(suf):
            return name[len(pre):-len(suf)].replace("_", " ")
    return name.replace("_", " ")


# ---------------------------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------------------------

class _Doc:
    """Builds the HTML and the Markdown side by side; figures go inline and to figures/."""

    def __init__(self, path):
        self.path = path
        self.html: list = []
        self.md: list = []
        self.figs: dict = {}
        self.replay_pages: dict = {}   # variant -> {game: page}
        self.no_replay: set = set()

    def h(self, level, text):
        self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")
        self.md += ["", "#" * level + " " + text, ""]

    def p(self, text, cls=""):
        self.html.append(f"<p class='{cls}'>{html.escape(text)}</p>")
        self.md += [text, ""]

    def fig(self, name, png, alt):
        if png is None:
            return
        self.figs[name] = png
        b64 = base64.b64encode(png).decode("ascii")
        self.html.append(f"<figure><img alt='{html.escape(alt)}' "
                         f"src='data:image/png;base64,{b64}'></figure>")
        self.md += [f"![{alt}](figures/{name}.png)", ""]

    def table(self, head, rows, raw_cols=(), nowrap_cols=()):
        self.html.append("<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>"
                                                          for h in head) + "</tr></thead><tbody>")
        for r in rows:
            cells = []
            for i, c in enumerate(r):
                cells.append(f"<td{' class=nw' if i in nowrap_cols else ''}>"
                             f"{c if i in raw_cols else html.escape(str(c))}</td>")
            self.html.append("<tr>" + "".join(cells) + "</tr>")
        self.html.append("</tbody></table>")
        self.md += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r in rows:
            self.md.append("| " + " | ".join(_md_cell(c) for c in r) + " |")
        self.md.append("")

    def raw(self, html_text, md_text=""):
        self.html.append(html_text)
        if md_text:
            self.md += [md_text, ""]

    def replay_cell(self, fam, prov, variant, games) -> str:
        """Example games of a metric: the first one's replay command (run inside the result
        directory, wherever it is) and each game as a link to its HTML replay in
        ``replays/``."""
        from simcore.report.replays import IN_DIR_NOTE, replay_command
        games = [int(g) for g in games[:MAX_EXAMPLES]]
        if not games:
            return "–"
        several = len(prov["variants"]) > 1
        v = (variant or 0) if several else None
        pages = self._pages(fam, prov, variant or 0, games, v)
        links = ", ".join(f"<a href='{pages[g]}'>game {g}</a>" if g in pages else f"game {g}"
                          for g in games)
        return (f"<code title='{IN_DIR_NOTE}'>"
                f"{html.escape(replay_command(games[0], v))}</code>"
                f"<br><span class='muted'>{links}</span>")

    def _pages(self, fam, prov, variant, games, v) -> dict:
        from simcore.report.replays import page_name, write_pages
        done = self.replay_pages.setdefault(variant, {})
        todo = [g for g in games if g not in done]
        if todo and len(done) < MAX_REPLAY_PAGES and variant not in self.no_replay:
            try:
                sc = self._scenario(fam, variant)
                done.update(write_pages(self.path, fam, sc, int(prov["seed"]),
                                        todo[:MAX_REPLAY_PAGES - len(done)], v))
            except (NotImplementedError, OSError):  # a family without replays; a full disk
                self.no_replay.add(variant)
        return {g: done[g] for g in games if g in done and page_name(g, v) == done[g]}

    def marks(self, fam, variant, histogram) -> list:
        """The family's (x, label) marks on a histogram of ``variant`` (e.g. where doubling
        starts); none when the scenario cannot be read back."""
        try:
            return fam.histogram_marks(self._scenario(fam, variant), histogram)
        except (OSError, ValueError, KeyError, IndexError, InputError):
            return []

    def _scenario(self, fam, variant):
        if not hasattr(self, "_payloads"):
            with open(os.path.join(self.path, "variants.json"), encoding="utf-8") as f:
                self._payloads = json.load(f)
        return fam.SCENARIOS.from_payload(self._payloads[variant])


def _md_cell(c) -> str:
    import re
    text = re.sub(r"<code>(.*?)</code>", r"`\1`", str(c)).replace("<br>", " · ")
    text = re.sub(r"<a href='([^']*)'>(.*?)</a>", r"[\2](\1)", text)
    text = re.sub(r"<[^>]+>", "", text)
    return html.unescape(text).replace("|", "\\|")


CSS = """
body{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
 color:#1f2430;background:#f6f7f9;margin:0;line-height:1.45}
main{max-width:980px;margin:0 auto;padding:28px 24px 60px}
header{background:linear-gradient(120deg,#1e3a8a,#2563eb);color:white;padding:26px 0 22px}
header .in{max-width:980px;margin:0 auto;padding:0 24px}
header h1{margin:0 0 6px;font-size:26px} header p{margin:0;opacity:.88;font-size:14px}
h2{font-size:19px;margin:34px 0 10px;border-bottom:2px solid #e5e7eb;padding-bottom:6px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:12px;margin:18px 0}
.card{background:white;border-radius:10px;padding:14px 16px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.card .k{font-size:12px;color:#6b7280;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:24px;font-weight:700;margin:2px 0} .card .ci{font-size:12px;color:#6b7280}
.card .ok{color:#16a34a;font-size:12px;font-weight:600} .card .bad{color:#dc2626;font-size:12px;font-weight:600}
figure{background:white;border-radius:10px;padding:12px;margin:14px 0;box-shadow:0 1px 3px rgba(0,0,0,.08)}
figure img{max-width:100%;display:block;margin:0 auto}
table{border-collapse:collapse;width:100%;background:white;font-size:13px;border-radius:10px;
 overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.08);margin:10px 0}
th{background:#f1f5f9;text-align:left;font-weight:600;padding:7px 10px}
td{padding:6px 10px;border-top:1px solid #eef0f3;vertical-align:top} td.nw{white-space:nowrap}
code{background:#f1f5f9;padding:1px 5px;border-radius:4px;font-size:12px}
.muted{color:#6b7280;font-size:13px} .grid2{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.pill{display:inline-block;padding:1px 8px;border-radius:9px;color:white;font-size:12px}
"""


def _render_run(doc, s, prov, fam, cat, variant=None):
    """The sections of one variant's summary (``s``: summarize output + extras)."""
    metrics = s["metrics"]
    groups = metric_groups(metrics)
    head, seats, ends, yaku = (groups[k] for k in ("headline", "seats", "ends", "yaku"))
    words = fam.GAME_WORDS[1]   # "games", "matches"
    # cards: the first few headline metrics
    cards = []
    for name in head[:4]:
        m = metrics[name]
        if m.get("value") is None:
            continue
        c = cat[name]
        verdict = ""
        if "reference" in m:
            verdict = (f"<div class='ok'>fair {_fmt(m['reference'], c)} inside the interval</div>"
                       if m["contains_reference"] else
                       f"<div class='bad'>fair {_fmt(m['reference'], c)} OUTSIDE the interval"
                       f"</div>")
        cards.append(f"<div class='card'><div class='k'>{html.escape(c.description)}</div>"
                     f"<div class='v'>{_fmt(m['value'], c)}</div><div class='ci'>"
                     + ("no interval (one game)" if m["ci"][0] is None else
                        f"95% interval {_fmt(m['ci'][0], c)} – {_fmt(m['ci'][1], c)}")
                     + f" · of {m['n']:,} {m['per']}</div>{verdict}</div>")
    doc.raw("<div class='cards'>" + "".join(cards) + "</div>")
    doc.fig("headline" + _sfx(variant), fig_intervals([(n, metrics[n]) for n in head], cat,
                                                      "Headline metrics: value and 95% "
                                                      "interval (dashed: the fair value)"),
            "headline metrics with intervals")
    doc.h(3, "Every headline metric, with games that show it")
    rows = []
    examples = s.get("examples", {})
    never = [n for n in head if _all_zero(metrics[n])]
    for n in head:
        if n in never:
            continue
        m, c = metrics[n], cat[n]
        fair = ""
        if "reference" in m:
            fair = (f"{_fmt(m['reference'], c)}: " + ("inside" if m["contains_reference"]
                                                       else "<b>OUTSIDE</b>"))
        cmds = doc.replay_cell(fam, prov, variant, examples.get(n, []))
        luck = m.get("luck_narrowing")
        rows.append([n, c.description, _fmt(m["value"], c),
                     ("none (one game)" if m["ci"][0] is None else
                      f"[{_fmt(m['ci'][0], c)}, {_fmt(m['ci'][1], c)}]")
                     + (f" ({narrowing_text(luck)})" if luck else ""),
                     f"{m['n']:,} {m['per']}", fair, cmds])
    doc.table(["metric", "what", "value", "95% interval", "of", "fair value", "example games"],
              rows, raw_cols=(5, 6))
    if any(metrics[n].get("luck_narrowing") for n in head):
        doc.p("Luck-corrected: the luck of the draws, measured in the engine, is subtracted "
              "(it has mean 0, so nothing is biased) and the interval is the delta method's "
              "on what is left (README: luck correction).", "muted")
    if never:
        doc.p("Zero in every game, so left out (a rule that is off, or a count that cannot "
              "happen here): " + ", ".join(never) + ".", "muted")
    if seats:
        doc.fig("seats" + _sfx(variant),
                fig_intervals([(n, metrics[n]) for n in seats], cat,
                              "Seats: wins and finishing order (dashed: the fair value)"),
                "seat shares with intervals")
    dist = s.get("distributions", {})
    if dist:
        doc.h(3, "Distributions")
        for name, d in dist.items():
            doc.fig(f"hist_{name}" + _sfx(variant),
                    fig_hist([d], [s.get("scenario", "")], d["what"].capitalize(), d["what"],
                             doc.marks(fam, variant or 0, name)), d["what"])
    if ends:
        doc.fig("ends" + _sfx(variant), fig_shares([(n, metrics[n]) for n in ends], cat,
                                                   f"How {words} end (share of {words}, 95% "
                                                   f"intervals)", "#0d9488"), "end reasons")
    if yaku:
        doc.fig("yaku" + _sfx(variant), fig_shares([(n, metrics[n]) for n in yaku], cat,
                                                   "Yaku and bonuses (share of wins, 95% "
                                                   "intervals; their points beside)", "#7c3aed",
                                                   s.get("yaku_names"),
                                                   _points_by_metric(s.get("yaku_table")),
                                                   log=True), "yaku frequencies")
        shown = s.get("yaku_names") or {}
        never = [shown.get(n) or _short(n) for n in yaku if not metrics[n].get("value")]
        if never:
            doc.p("Never fired in these games: " + ", ".join(never) + ".", "muted")
    if s.get("breakdown"):
        _render_breakdown(doc, s["breakdown"], cat, words)
    if s.get("yaku_table"):
        _render_yaku_table(doc, s["yaku_table"], s.get("examples", {}), fam, prov, variant)
    if s.get("trajectories"):
        doc.fig("trajectories" + _sfx(variant), fig_trajectories(s["trajectories"]),
                "score trajectories")


def _render_breakdown(doc, breakdown, cat, words):
    """Each breakdown metric in each part of the games, with the part's share."""
    doc.h(3, "Where an imbalance comes from")
    doc.p(f"Each metric within the {words} that ended a given way, lasted a given number of "
          f"rounds, or ended with a given score gap; the part's share of {words} first. 95% "
          f"intervals (delta method within the part; none under 10 {words}).", "muted")
    for name, b in breakdown.items():
        metrics = list(b["parts"][0]["metrics"]) if b["parts"] else []
        rows = []
        for p in b["parts"]:
            sh = p["share"]
            row = [p["label"], f"{100 * sh['value']:.1f}% [{100 * sh['ci'][0]:.1f}, "
                               f"{100 * sh['ci'][1]:.1f}]"]
            for m in metrics:
                e, c = p["metrics"][m], cat[m]
                row.append(_fmt(e["value"], c) + (
                    " (too few)" if e["ci"][0] is None else
                    f" [{_fmt(e['ci'][0], c)}, {_fmt(e['ci'][1], c)}]"))
            rows.append(row)
        doc.h(4, f"By {b['what']}")
        doc.table([b["what"], f"share of {words}", *metrics], rows)


def fig_points(table):
    """Points each yaku and bonus adds per win (log scale, 95% intervals), the rule's points
    written beside each bar; yaku above, bonuses below."""
    plt = _plt()
    rows = [r for r in table if r["points_per_win"]["value"]]
    rows.sort(key=lambda r: (r["kind"] != "yaku", -r["points_per_win"]["value"]))
    fig, ax = plt.subplots(figsize=(6.4, 0.28 * len(rows) + 1.0))
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        e = r["points_per_win"]
        colour = "#7c3aed" if r["kind"] == "yaku" else "#0d9488"
        ax.barh(y, e["value"], color=colour, alpha=0.8, height=0.6)
        if e["ci"][0] is not None:
            ax.plot([max(e["ci"][0], 1e-5), e["ci"][1]], [y, y], color=INK, lw=1)
        ax.text(e["ci"][1] if e["ci"][1] else e["value"], y, f"  {r['points']}" + ("" if isinstance(r["points"], str) else
                                  " point" if r["points"] == 1 else " points")
                + (" · rare" if r["rare"] else ""), va="center", fontsize=7, color=MUTED)
    ax.set_yticks(ys, [r["name"] for r in rows], fontsize=7)
    ax.set_xscale("log")
    from simcore.stats.domains import value_unit
    ax.set_xlabel(f"{value_unit(table)} added per win (log scale; purple: yaku, teal: bonuses)",
                  fontsize=8)
    ax.set_title("What each yaku and bonus is worth", fontsize=9)
    lo = min(r["points_per_win"]["value"] for r in rows) if rows else 1e-3
    ax.set_xlim(lo / 2, (max(r["points_per_win"]["ci"][1] or 1 for r in rows) if rows else 1) * 8)
    ax.tick_params(labelsize=7)
    fig.tight_layout()
    return _png(fig)


def _all_zero(m) -> bool:
    """A metric that was 0 in every game, its interval 0 wide: not applicable here."""
    return m.get("value") == 0 and m.get("ci") is not None and m["ci"][1] == 0


def _points_by_metric(table) -> dict:
    """metric name -> the rule's points, from a summary's yaku value table."""
    out = {}
    for r in table or []:
        for key in (f"yaku_{r['name']}_share", f"{r['name']}_bonus_share", f"{r['name']}_share"):
            out[key] = r["points"]
    return out


def _render_yaku_table(doc, table, examples, fam, prov, variant):
    doc.h(3, "Yaku value table")
    doc.fig("points" + _sfx(variant), fig_points(table), "points added per win")
    rows = []
    off = [r["name"] for r in table if not r["on"] and not r["wins_scored"]]
    for r in sorted(table, key=lambda r: (r["kind"] != "yaku",
                                          -(r["points_per_win"]["value"] or 0))):
        if r["name"] in off:
            continue

        def cell(e, pct=True):
            if e["value"] is None:
                return "–"
            f = (lambda x: f"{100 * x:.2f}%") if pct else (lambda x: f"{x:.3f}")
            return f(e["value"]) + ("" if e["ci"][0] is None else
                                    f" [{f(e['ci'][0])}, {f(e['ci'][1])}]")
        flags = ", ".join(f for f, on in (("on, never scored", r["never"]),
                                          ("rarer than 1 in 1,000 wins", r["rare"])) if on)
        keys = (f"yaku_{r['name']}_share", f"{r['name']}_bonus_share", f"{r['name']}_share")
        cmd = doc.replay_cell(fam, prov, variant,
                              next((examples[k] for k in keys if examples.get(k)), []))
        rows.append([r["name"], r["kind"], str(r["points"]), cell(r["share_of_wins"]), cell(r["points_per_win"], False),
                     cell(r["share_of_points"]), html.escape(flags), cmd])
    from simcore.stats.domains import value_unit
    unit = value_unit(table)
    doc.table(["source", "kind", "points", "share of wins", f"{unit} per win",
               f"share of all {unit}", "flags", "example"], rows, raw_cols=(7,))
    if off:
        doc.p("Off in this scenario (not in the table): " + ", ".join(off) + ".", "muted")
    doc.p(f"Per win: the {unit} it adds to an average win (for a fixed value, its share of "
          f"wins times its value); share of all: of all the {unit} of the wins. 95% intervals, "
          "the game as the unit.", "muted")
    _render_reach(doc, table, off, variant)


def _render_reach(doc, table, off, variant):
    """Is a yaku worth chasing: per yaku, the hands within reach of it and the share of those
    reaches completed, as a plot and a table (where the family measures reach)."""
    rows = [r for r in table if "within_reach" in r and r["name"] not in off]
    if not rows:
        return
    doc.h(4, "Is it worth chasing?")
    doc.fig("reach" + _sfx(variant), fig_reach(rows), "hands within reach and reaches completed")

    def cell(e):
        if e["value"] is None:
            return "–"
        return f"{100 * e['value']:.2f}%" + ("" if e["ci"][0] is None else
                                              f" [{100 * e['ci'][0]:.2f}, {100 * e['ci'][1]:.2f}]")
    doc.table(["yaku", "points", "hands within reach", "reaches completed", "reading"],
              [[r["name"], str(r["points"]), cell(r["within_reach"]), cell(r["reach_completed"]),
                r["reach_reading"] or ""]
               for r in sorted(rows, key=lambda r: -(r["within_reach"]["value"] or 0))])
    doc.p("Within reach: the hands (a seat's round) that were at some point tenpai with a wait "
          "that would score it (a won hand counts for what it scored); completed: of those, the "
          "hands that won with it. Seldom in reach: dead weight because the hands do not get "
          "there; seldom completed: they get there and the bots do not finish it. Measured in a "
          "sample of the games (one in " + str(_reach_every()) + "), 95% intervals, the game as "
          "the unit.", "muted")


def _reach_every() -> int:
    from simcore.nb.reach import REACH_EVERY
    return REACH_EVERY


def fig_reach(rows):
    """Each yaku's share of hands within reach (x, log scale) against the share of those
    reaches completed (y), 95% intervals both ways; the two readings' regions shaded."""
    from simcore.stats.domains import SELDOM_COMPLETED, SELDOM_REACHED
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    pts = [r for r in rows if r["within_reach"]["value"] and r["reach_completed"]["value"] is not None]
    lo = min([r["within_reach"]["value"] for r in pts] + [SELDOM_REACHED]) / 2
    ax.axvspan(lo, SELDOM_REACHED, color="#fde68a", alpha=0.35, lw=0)
    ax.axhspan(0, SELDOM_COMPLETED, color="#fecaca", alpha=0.35, lw=0)
    ax.text(lo * 1.1, 0.97, "seldom in reach", fontsize=7, color=MUTED, va="top")
    ax.text(1.0, SELDOM_COMPLETED / 2, "seldom completed  ", fontsize=7, color=MUTED,
            va="center", ha="right")
    never = [r["name"] for r in rows if not r["within_reach"]["value"]]
    if never:   # no point on a log scale: named in the band instead
        ax.text(lo * 1.1, 0.9, "never in reach:\n" + "\n".join(never), fontsize=7, color=INK,
                va="top")
    ax.set_xscale("log")
    ax.set_xlim(lo, 1.0)
    ax.set_ylim(0, 1.0)
    placed = []   # label boxes in points from the axes' corner: a label moves down past these
    width, height = (fig.get_size_inches() * 72)
    for r in sorted(pts, key=lambda r: -r["reach_completed"]["value"]):
        x, y = r["within_reach"], r["reach_completed"]
        colour = "#7c3aed" if r["kind"] == "yaku" else "#0d9488"
        xerr = None if x["ci"][0] is None else [[x["value"] - max(x["ci"][0], lo)],
                                                 [x["ci"][1] - x["value"]]]
        yerr = None if y["ci"][0] is None else [[y["value"] - y["ci"][0]],
                                                 [y["ci"][1] - y["value"]]]
        ax.errorbar(x["value"], y["value"], xerr=xerr, yerr=yerr, fmt="o", ms=4,
                    color=colour, ecolor=INK, elinewidth=0.8, capsize=0)
        label = f"{r['name']} ({r['points']})"
        px = (math.log(x["value"]) - math.log(lo)) / -math.log(lo) * width
        py = y["value"] * height
        w, dy = 3.6 * len(label), 3
        while any(abs(px - qx) < max(w, qw) and abs(py + dy - qy) < 8 for qx, qy, qw in placed):
            dy -= 8
        placed.append((px, py + dy, w))
        ax.annotate(label, (x["value"], y["value"]), fontsize=7, xytext=(4, dy),
                    textcoords="offset points", color=INK)
    ax.set_xlabel("share of hands within reach (log scale)", fontsize=8)
    ax.set_ylabel("share of reaches completed", fontsize=8)
    ax.set_title("Is a yaku worth chasing? (name, points; purple: yaku, teal: bonuses)",
                 fontsize=9)
    ax.tick_params(labelsize=7)
    fig.tight_layout()
    return _png(fig)


def _sfx(v):
    return "" if v is None else f"_v{v}"


class _Catalogue(dict):
    """The family's metrics by name; a name only an older result has (MOMOJAN's always-zero
    ``seat2_win_share`` before seat metrics came from the harness) gets a plain description
    instead of stopping the report."""

    def __missing__(self, name):
        from simcore.family.metrics import Metric
        return Metric(name, "game_rate", "", "", f"{name} (a metric of an older version)", 0.01)


def render(path: str, verify: bool = True) -> tuple[str, str]:
    """Write ``report.md`` (+ ``figures/``) and ``report.html`` of a result directory.
    ``verify``: check its chunks and tables against their hashes first (``report DIR``); the
    command that has just written them passes False (it would re-read and hash every file)."""
    prov = read_provenance(path, "report")
    sp = os.path.join(path, "summary.json")
    if not os.path.isfile(sp):
        from simcore.studies.results import RESUMABLE
        kind = prov.get("kind", "run")
        if prov.get("status") == "complete":   # a QA trial: called incomplete
            raise InputError(f"report {path}: its summary.json is missing; " + (
                f"momojan-sim {kind} --resume {shell_word(path)} writes it again from the "
                f"saved chunks" if kind in RESUMABLE else f"a {kind} has no --resume"))
        raise InputError(f"report {path}: the {kind} is incomplete (no summary.json); "
                         + (f"finish it with momojan-sim {kind} --resume {shell_word(path)}"
                            if kind in RESUMABLE else f"{kind} has no --resume"))
    with open(sp, encoding="utf-8") as f:
        s = json.load(f)
    # a summary that is not this result's, or files damaged since they were written, are
    # refused (one line, exit 2), not drawn as if they were the result (issue 46)
    from simcore.studies.results import check_summary, verify_files
    check_summary(path, prov, s, "report")
    if verify:
        verify_files(path, prov, "report")
    fam = family_of(prov)
    from simcore.family.metrics import by_name
    cat = _Catalogue(by_name(fam.CATALOGUE))
    kind = prov["kind"]
    doc = _Doc(path)
    names = [v["label"] for v in prov["variants"]]
    if kind == "compare" and len(names) > 1:
        title = f"{names[0]} vs {names[1]}"
    elif kind == "sweep":
        title = f"sweep of {prov['variants'][0]['name']}"
    elif kind == "solve" and s.get("param"):
        title = f"solve {s['param']} in {s['scenario']}"
    elif kind == "tune" and s.get("policy"):
        title = f"tune of {s['policy']} against {s['against']} under {s['scenario']}"
    elif kind == "design" and s.get("scenario"):
        title = f"design of {s['scenario']}: {len(s['targets'])} targets"
    elif kind == "tournament" and s.get("scenario"):
        title = f"tournament under {s['scenario']}: {', '.join(s.get('entrants', []))}"
    else:
        title = names[0] if kind == "run" else f"{kind}: {names[0]}"
    when = prov.get("finished_utc") or prov.get("started_utc")
    games = s.get("games", prov.get("games"))
    rate = prov.get("rounds_per_s")
    per = (f"{len(s['trials'])} trials x {games:,} games per seating" if kind == "tune"
           and s.get("trials") else f"{games:,} games" if len(prov["variants"]) == 1
           else f"{games:,} games per variant")
    sub = (f"{kind} · {per} · seed {prov['seed']} · {when} · "
           f"{prov.get('workers')} worker{'' if prov.get('workers') == 1 else 's'} on "
           f"{prov.get('cores')} cores"
           + (f" · {rate:,.0f} {fam.ROUND_WORDS[1]}/s" if rate else ""))
    if kind == "run":
        _render_run(doc, s, prov, fam, cat)
    elif kind == "compare":
        _render_compare(doc, s, prov, fam, cat)
    elif kind == "sweep":
        _render_sweep(doc, s, prov, fam, cat)
    elif kind == "solve" and "verdict" in s:
        _render_solve(doc, s, prov, fam, cat)
    elif kind == "tournament" and "ratings" in s:
        _render_tournament(doc, s)
    elif kind == "tune" and "fresh" in s:
        _render_tune(doc, s)
    elif kind == "design" and "verdict" in s:
        _render_design(doc, s, cat)
    else:
        doc.raw("<pre>" + html.escape(json.dumps(s, indent=1)[:20000]) + "</pre>")
    _provenance_section(doc, prov)
    page = ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width,initial-scale=1'>"
            f"<title>{html.escape(fam.TITLE)} · {html.escape(title)}</title><style>{CSS}</style>"
            f"</head><body><header><div class='in'><h1>{html.escape(title)}</h1><p>"
            f"{html.escape(sub)}</p></div></header><main>" + "\n".join(doc.html)
            + "</main></body></html>\n")
    figdir = os.path.join(path, "figures")
    os.makedirs(figdir, exist_ok=True)
    for name, png in doc.figs.items():
        atomic_write(os.path.join(figdir, f"{name}.png"), png)
    md = "\n".join([f"# {title}", "", sub, *doc.md]) + "\n"
    atomic_write(os.path.join(path, "report.md"), md)
    atomic_write(os.path.join(path, "report.html"), page)
    return os.path.join(path, "report.html"), os.path.join(path, "report.md")


def _render_compare(doc, s, prov, fam, cat):
    a, b = s["a"], s["b"]
    counts = {}
    for r in s["metrics"].values():
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    pills = " ".join(f"<span class='pill' style='background:{VERDICT_COLOURS.get(v, MUTED)}'>"
                     f"{n} {html.escape(v)}</span>" for v, n in counts.items())
    doc.raw(f"<p>{html.escape(b)} (b) against {html.escape(a)} (a), "
            f"{'paired: the same deals where the decks agree' if s['paired'] else 'independent'}"
            f"; Holm-adjusted at alpha = {s['alpha']}. {pills}</p>",
            f"{b} (b) against {a} (a), {'paired' if s['paired'] else 'independent'}; "
            f"verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items()))
    if s.get("note"):
        doc.p(s["note"], "muted")
    if s.get("tuned"):
        from simcore.studies.tune import tuned_variant_text
        doc.p("Play adapted to each variant (compare --tuned): "
              + "; ".join(tuned_variant_text(t) for t in s["tuned"]) + ".")
    from simcore.studies.compare import fair_sentence, rules_differ_lines
    if "rules_differ" in s:
        doc.h(3, "Rules that differ")
        lines = rules_differ_lines([(d["key"], d["a"], d["b"]) for d in s["rules_differ"]],
                                   limit=60)
        doc.table(["rule", "a", "b"], [[d["key"], json.dumps(d["a"], ensure_ascii=False),
                                          json.dumps(d["b"], ensure_ascii=False)]
                                         for d in s["rules_differ"][:60]])
        if len(lines) > 61:
            doc.p(lines[-1].strip(), "muted")
        elif not s["rules_differ"]:
            doc.p(lines[0], "muted")
    rows = [dict(r, metric=n) for n, r in s["metrics"].items()]
    doc.fig("forest", fig_forest(rows, cat, "What changes from a to b (95% intervals, "
                                            "coloured by verdict)"), "forest plot")
    from simcore.studies.compare import sentence
    diff = [r for r in rows if r["verdict"] == "different"]
    if diff:
        doc.h(3, "Different")
        for r in sorted(diff, key=lambda r: r["p"]):
            doc.p(sentence(r, cat[r["metric"]], b))
    fair = [fair_sentence(r, cat[r["metric"]], b) for r in rows if r.get("fair")]
    if fair:
        doc.h(3, "Closer to fair?")
        for f in fair:
            doc.p(f)
    variants = s.get("per_variant", [])
    own = [(r, [(v.get("metrics") or {}).get(r["metric"]) for v in variants[:2]])
           for r in rows if (r.get("fair") or {}).get("value") is not None]
    own = [(r, pv) for r, pv in own if all(x and x.get("value") is not None for x in pv)]
    if own:
        doc.h(3, "Each variant for itself")

        def cell(x, c):
            where = ("fair inside" if x.get("contains_reference") else "<b>fair OUTSIDE</b>") \
                if "contains_reference" in x else "no interval"
            ci = "" if x["ci"][0] is None else f" [{_fmt(x['ci'][0], c)}, {_fmt(x['ci'][1], c)}]"
            return f"{_fmt(x['value'], c)}{ci}: {where}"
        doc.table(["metric", "fair", f"a: {a}", f"b: {b}"],
                  [[r["metric"], _fmt(r["fair"]["value"], cat[r["metric"]]),
                    cell(pv[0], cat[r["metric"]]), cell(pv[1], cat[r["metric"]])]
                   for r, pv in own], raw_cols=(2, 3))
    unsettled = [(r["metric"], r.get("games_to_settle"), r.get("settles_to")) for r in rows
                 if r["verdict"] == "inconclusive"]
    if unsettled:
        doc.p("Inconclusive (more games would tell; the games per variant that would settle "
              "each if the difference seen is the true one, 80% power): " + ", ".join(
                  f"{n} ({'about ' + format(k, ',') + ', ' + str(to) if k else 'no estimate'})"
                  for n, k, to in unsettled) + ".", "muted")
    if s.get("off_in_both"):
        doc.p("Off in both variants (not compared): " + ", ".join(s["off_in_both"]), "muted")
    if diff and variants:
        doc.h(3, "Games that show the differences")
        ex_rows = []
        for r in sorted(diff, key=lambda r: r["p"]):
            cells = [r["metric"]]
            for v, pv in enumerate(variants[:2]):
                cells.append(doc.replay_cell(fam, prov, v,
                                             pv.get("examples", {}).get(r["metric"], [])))
            ex_rows.append(cells)
        doc.table(["metric", f"a: {a}", f"b: {b}"], ex_rows, raw_cols=(1, 2))
    table = []
    never = [r["metric"] for r in rows if r["verdict"] == "never happened"]
    for r in rows:
        if r["metric"] in never:
            continue
        c = cat[r["metric"]]
        # the interval in the difference's numbers, its unit once, in the b - a column
        ci = "-" if r["ci"][0] is None else f"[{_fmt_diff(r['ci'][0], c, False)}, " \
                                            f"{_fmt_diff(r['ci'][1], c, False)}]"
        table.append([r["metric"], value_with_ci(r, "a", c), value_with_ci(r, "b", c),
                      _fmt_diff(r["diff"], c), ci, fmt_p(r["p_adj"]),
                      f"<span class='pill' style='background:"
                      f"{VERDICT_COLOURS.get(r['verdict'], MUTED)}'>{r['verdict']}</span>"])
    doc.h(3, "Every metric")
    doc.table(["metric", "a [95%]", "b [95%]", "b - a", "95% interval", "p (Holm)", "verdict"],
              table, raw_cols=(6,), nowrap_cols=(1, 2, 4, 5))
    if never:
        doc.p("Never happened under either variant (left out): " + ", ".join(never) + ".",
              "muted")
    variants = s.get("per_variant", [])
    if variants and variants[0].get("distributions"):
        doc.h(3, "Distributions")
        for name, d in variants[0]["distributions"].items():
            marks = doc.marks(fam, 0, name)
            doc.fig(f"hist_{name}", fig_hist([v["distributions"][name] for v in variants],
                                             [v["name"] for v in variants],
                                             d["what"].capitalize(), d["what"],
                                             marks if marks == doc.marks(fam, 1, name) else ()),
                    d["what"])


def _shown_anywhere(variants, name) -> bool:
    """A sweep metric worth a plot and rows: not absent or zero in every variant."""
    return any((v["metrics"].get(name) or {}).get("value") for v in variants)


def _render_sweep(doc, s, prov, fam, cat):
    grid = s.get("grid") or []
    doc.p(f"{len(s['variants']) - 1} variants of {s['base']}, each against the base on common "
          f"random numbers; Holm-adjusted at alpha = {s['alpha']}. Points: value with 95% "
          f"interval, coloured by the verdict of the difference from the base (grey dotted: "
          f"the base).")
    if s.get("note"):
        doc.p(s["note"], "muted")
    names = [n for n in s["variants"][0]["metrics"] if _shown_anywhere(s["variants"], n)]
    base_values, seats = {}, None
    try:
        base = doc._scenario(fam, 0)
        base_values = {key: base.get(key) for key, _ in grid}
        seats = len(base["players"])
    except (OSError, ValueError, KeyError, IndexError, InputError):
        pass
    figs = []
    for n in names:
        png = fig_sweep(s["variants"], n, cat[n], grid, base_values, cat[n].fair(seats))
        doc.figs[f"sweep_{n}"] = png
        figs.append((n, png))
    doc.raw("<div class='grid2'>" + "".join(
        f"<figure><img alt='{html.escape(n)}' src='data:image/png;base64,"
        f"{base64.b64encode(p).decode()}'></figure>" for n, p in figs) + "</div>",
        "\n\n".join(f"![{n}](figures/sweep_{n}.png)" for n, _ in figs))
    rows = []
    for v in s["variants"]:
        for n, m in v["metrics"].items():
            if n not in names:
                continue
            c = cat[n]
            rows.append([v["label"], n, _fmt(m["value"], c),
                         f"[{_fmt(m['ci'][0], c)}, {_fmt(m['ci'][1], c)}]",
                         _fmt_diff(m.get("diff"), c) if "diff" in m else "",
                         m.get("verdict", "(base)")])
    doc.table(["variant", "metric", "value", "95% interval", "diff", "verdict"], rows)


def _render_solve(doc, s, prov, fam, cat):
    from simcore.studies.solve_design import fmt_value
    metric = cat[s["metric"]]
    if s.get("rule_kind") == "choice":
        return _render_solve_choice(doc, s, metric)
    doc.p(f"Solve {s['param']} for {s['metric']} = {fmt_value(metric, s['target'])} "
          f"({s['target_source']}) in {s['scenario']}, over [{s['range'][0]}, "
          f"{s['range'][1]}]. A pilot of {len(s['pilot']['values'])} values "
          f"({s['pilot']['games']:,} games each, its own seed) placed the design: "
          f"{len(s['design'])} values, {s['games']:,} games each on the same deals.")
    doc.p(s["verdict"])
    doc.fig("solve", fig_solve(s, metric), f"{s['metric']} against {s['param']}")
    near = {r["value"] for r in s["nearest"]}
    doc.table([s["param"], s["metric"], "95% interval", "target"],
              [[("→ " if r["value"] in near else "") + str(r["value"]),
                fmt_value(metric, r["metric"]),
                f"[{fmt_value(metric, r['ci'][0])}, {fmt_value(metric, r['ci'][1])}]",
                "compatible" if r["compatible"] else ""] for r in s["design"]])
    doc.p(f"→ the allowed values next to the estimate; compatible: that value's own 95% "
          f"interval holds the target. Method: {s['method']}. {s['games_total']:,} games in "
          f"all.", "muted")


def _render_tournament(doc, s):
    doc.p(f"{s.get('format', 'duplicate tournament')}; {s.get('games_per_seating')} games per "
          f"seating, {s.get('games_per_pair')} comparisons per pair, seed {s['seed']}.")
    doc.h(3, "Ratings (Bradley-Terry, Elo scale, 95% interval)")
    doc.table(["entrant", "rating", "95% interval"],
              [[r["entrant"], f"{r['rating']:.1f}", f"[{r['ci'][0]:.1f}, {r['ci'][1]:.1f}]"]
               for r in s["ratings"]])
    doc.h(3, "Win rate of row against column (finishing ahead; level = 1/2)")
    names = s["entrants"]
    rows = []
    for a in names:
        cells = [a]
        for b in names:
            w = s["win_rate"][a][b]
            cells.append("–" if w is None or w["value"] is None else
                         f"{w['value']:.3f} [{w['ci'][0]:.2f}, {w['ci'][1]:.2f}]")
        rows.append(cells)
    doc.table([""] + names, rows)


def fig_tune(s):
    """A tune: each trial's win share on the tuning deals with the running best, and the tuned
    and default policies on the fresh deals with their 95% intervals."""
    plt = _plt()
    from matplotlib.ticker import MaxNLocator
    fig, ax = plt.subplots(figsize=(7.8, 3.2))
    shares = [100 * t["win_share"] for t in s["trials"]]
    xs = list(range(1, len(shares) + 1))
    best = [max(shares[:i]) for i in xs]
    ax.plot(xs, shares, "o", color="0.6", ms=4, label="trial (tuning deals)")
    ax.step(xs, best, where="post", color=ACCENT, label="best so far")
    for f, label, colour in ((s["fresh"], "tuned, fresh deals", ACCENT),
                             (s.get("fresh_default"), "default, fresh deals", "0.3")):
        if f:
            lo, hi = (100 * x for x in f["ci"])
            ax.axhspan(lo, hi, color=colour, alpha=0.15, lw=0)
            ax.axhline(100 * f["win_share"], color=colour, ls="--", lw=1, label=label)
    ax.axhline(50, color="0.5", lw=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("trial")
    ax.set_ylabel(f"win share against {s['against']} (%)")
    # beside the axes: inside, it sat on the 50% line and the default's
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
    return _png(fig)


def _render_tune(doc, s):
    from simcore.studies.tune import tune_text
    for line in tune_text(s).splitlines():
        doc.p(line)
    doc.fig("tune", fig_tune(s), "win share per trial and on fresh deals")
    names = list(s["trials"][0]["params"]) if s["trials"] else []
    doc.table(["trial", *names, "win share"],
              [[str(t["number"] + 1), *(str(t["params"][n]) for n in names),
                f"{100 * t['win_share']:.2f}%"] for t in s["trials"]])


def _provenance_section(doc, prov):
    doc.h(2, "Provenance")
    rows = [["command", f"<code>{html.escape(prov['command_line'])}</code>"],
            ["tool", f"{prov['tool']} {prov['version']}"
                     + (f", commit {prov['git_commit']}" if prov.get("git_commit") else "")],
            ["seed / games", f"{prov['seed']} / {prov.get('games_played'):,}"],
            ["started / finished (UTC)", f"{prov['started_utc']} / {prov.get('finished_utc')}"],
            ["machine", f"{prov.get('cores')} cores, {prov.get('workers')} workers, "
                        f"{prov.get('platform')}"]]
    for v in prov["variants"]:
        seats = ", ".join(f"seat {x['seat']}: {x['policy']}"
                          + (f" {json.dumps(x['params'])}" if x["params"] else "")
                          for x in v["seats"])
        rows.append([f"{v['label']}", f"rules sha256 <code>{v['rules_sha256'][:16]}…</code>; "
                                      f"{html.escape(seats)}; file <code>{v['file']}</code>"])
    doc.table(["", ""], rows, raw_cols=(1,))
