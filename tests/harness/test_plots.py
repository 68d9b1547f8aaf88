"""Issue 31 item 4: plots that read right. Every figure of a run, compare, 1-key and 2-key sweep
and three-player report is caught as it is drawn and checked for overlapping text (and text off
the figure); then each named property: comparable interval strips with their half-widths, the
yaku chart on a log scale with points, the doubling mark and the honest last bin, integer ticks
for counts, sweeps on a numeric axis with the base at its own value and one line per value of
a second key, rounds/s over every variant, the fair share 1/n, all-zero rows left out. The pages
themselves are opened in headless Chromium by test_pages_render_in_headless_chromium."""

import json
import os

import pytest
from click.testing import CliRunner

from simcore.cli import main
import simcore.report.html as report_html
from plot_checks import FigureSpy, chromium, page_probe, screenshot

COMMANDS = {
    "run": ["run", "new_edition", "--games", "600", "--seed", "2"],
    "run_old": ["run", "old_edition", "--games", "300", "--seed", "4"],
    # for its rounds (the compare's header): "run" draws new_edition's report already
    "run_new": ["run", "new_edition", "--games", "300", "--seed", "4", "--no-report"],
    "compare": ["compare", "old_edition", "new_edition", "--games", "300", "--seed", "4"],
    "sweep1": ["sweep", "new_edition", "--set", "scoring.ron_bonus=0,2,3", "--games", "200"],
    "sweep2": ["sweep", "new_edition", "--set", "scoring.ron_bonus=0,2", "--set",
               "ante.base=2,3", "--games", "200"],
}
# a three-player report (P-style: the second tier, which compiles that family)
THREE = {"three": ["run", "ptrump_3p", "--games", "200"]}


def _draw(tmp_path_factory, commands):
    """(result dirs by name, the figure spy that saw every figure of their reports)."""
    root = tmp_path_factory.mktemp("plots")
    spy = FigureSpy(report_html)
    report_html._png = spy
    dirs = {}
    try:
        for name, args in commands.items():
            d = root / name
            r = CliRunner().invoke(main, [*args, "--workers", "1", "--out", str(d), "--quiet"])
            assert r.exit_code == 0, r.output
            dirs[name] = d
    finally:
        report_html._png = spy.orig
    return dirs, spy


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    return _draw(tmp_path_factory, COMMANDS)


@pytest.fixture(scope="module")
def drawn_three(tmp_path_factory):
    return _draw(tmp_path_factory, THREE)


@pytest.mark.second_tier
@pytest.mark.plays("ptrump")
def test_no_figure_has_overlapping_text(drawn, drawn_three):
    (_, spy), (_, three) = drawn, drawn_three
    assert len(spy.drawn) + len(three.drawn) >= 30 and len(spy.figures) + len(three.figures) >= 15
    bad = {t: p for t, p in {**spy.figures, **three.figures}.items() if p}
    assert not bad, bad


def _axes(spy, start):
    return next(a for t, a in spy.axes.items() if t.startswith(start))


def _texts(axes):
    return [t.get_text() for ax in axes for t in ax.texts]


def test_interval_strips_compare_and_show_their_half_widths(drawn):
    dirs, spy = drawn
    axes = _axes(spy, "Headline metrics")
    shown = _texts(axes)
    assert sum("±" in t for t in shown) == len(axes)
    s = json.loads((dirs["run"] / "summary.json").read_text())
    from simcore.family import registry as families
    cat = {m.name: m for m in families.get("momojan").CATALOGUE}
    from simcore.family.summary import metric_groups
    rates = [n for n in metric_groups(s["metrics"])["headline"] if cat[n].is_rate and s["metrics"][n]["value"]]
    spans = {round(ax.get_xlim()[1] - ax.get_xlim()[0], 6) for ax in axes
             if "%" in ax.texts[-1].get_text()}
    assert len(rates) >= 5 and len(spans) == 1   # every rate strip on one scale


def test_yaku_chart_is_logarithmic_with_points(drawn):
    _, spy = drawn
    ax = _axes(spy, "Yaku and bonuses")[0]
    assert ax.get_xscale() == "log"
    labels = [t.get_text() for t in ax.texts]
    assert any("· 2 points" in t for t in labels) and any("· 1 point" in t for t in labels)
    names = [t.get_text() for t in ax.get_yticklabels()]
    assert "dora bonus" in names and not any(n.endswith("share") for n in names)


def test_points_histogram_marks_doubling_and_its_last_bin():
    spy = FigureSpy(report_html)
    report_html._png = spy
    try:
        counts = [0, 5, 9, 4, 0, 0, 0, 0, 3, 0, 2]   # the last bin: 10 or more
        d = {"counts": counts, "per": "wins", "what": "points", "last_bin_is_at_least": 10}
        report_html.fig_hist([d], ["x"], "Points", "points", [(8, "x2 from a subtotal of 4")])
        report_html.fig_hist([dict(d, counts=counts[:-1] + [0])], ["x"], "Points, no tail",
                             "points")
    finally:
        report_html._png = spy.orig
    ax = spy.axes["Points"][0]
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[-1] == "10+" and "x2 from a subtotal of 4" in _texts([ax])
    assert "10 or more" in ax.get_xlabel()
    ax = spy.axes["Points, no tail"][0]
    assert "or more" not in ax.get_xlabel()
    assert not any(t.get_text().endswith("+") for t in ax.get_xticklabels())


def test_the_last_bins_label_keeps_clear_of_the_ticks_before_it():
    """A report's points per win (new_edition, 4,000 games): wins up to 48 points and a few of
    64 or more; the tick 48 sat two bars from "64+" and the two read "4864+"."""
    spy = FigureSpy(report_html)
    report_html._png = spy
    try:
        counts = [0] * 65
        for x, c in ((1, 40), (2, 130), (3, 190), (4, 170), (5, 140), (6, 95), (14, 60),
                     (16, 40), (18, 20), (20, 8), (48, 1), (64, 2)):
            counts[x] = c
        d = {"counts": counts, "per": "wins", "what": "points", "last_bin_is_at_least": 64}
        report_html.fig_hist([d], ["x"], "Points, far tail", "points")
    finally:
        report_html._png = spy.orig
    assert not spy.figures["Points, far tail"], spy.figures["Points, far tail"]
    ax = spy.axes["Points, far tail"][0]
    labels = [(t.get_position()[0], t.get_text()) for t in ax.get_xticklabels()]
    assert labels[-1][1] == "64+"
    step = labels[1][0] - labels[0][0]
    assert labels[-1][0] - labels[-2][0] >= 0.75 * step


def test_counts_have_integer_ticks(drawn):
    _, spy = drawn
    for title in ("Rounds per game", "Points paid per win", "Score trajectories"):
        for ax in _axes(spy, title):
            if not ax.get_visible() or not ax.has_data():
                continue
            for x in ax.get_xticks():
                lo, hi = ax.get_xlim()
                if lo <= x <= hi:
                    assert float(x).is_integer(), (title, x)
    assert "x2 from a subtotal of 7" in _texts(_axes(spy, "Points paid per win"))


def test_sweeps_on_a_numeric_axis_with_the_base_at_its_value(drawn):
    _, spy = drawn
    one = [a for t, a in spy.drawn if t == "mean_winning_points"]
    assert one
    # the 1-key sweep (the first drawn): the base (ron_bonus 1 in new_edition) sits at x = 1
    ax = one[0][0]
    assert ax.get_xlabel() == "scoring.ron_bonus"
    base = [t for t in ax.texts if t.get_text() == "base"]
    assert base and base[0].xy[0] == 1


def test_two_key_sweep_draws_one_line_per_value(drawn, tmp_path):
    dirs, _ = drawn
    spy = FigureSpy(report_html)
    report_html._png = spy
    try:
        report_html.render(str(dirs["sweep2"]))
    finally:
        report_html._png = spy.orig
    ax = spy.axes["mean_rounds_per_game"][0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["ante.base = 2", "ante.base = 3", "base (ante.base = 1)"]
    assert ax.get_legend().get_window_extent().y1 < ax.get_window_extent().y0   # below
    assert ax.get_xlabel().startswith("scoring.ron_bonus")
    fair = spy.axes["first_dealer_win_rate"][0].get_legend().get_texts()
    assert "fair 50.00%" in [t.get_text() for t in fair]


def test_header_rounds_per_second_counts_every_variant(drawn):
    dirs, _ = drawn
    prov = json.loads((dirs["compare"] / "provenance.json").read_text())
    one = [json.loads((dirs[n] / "summary.json").read_text())["rounds"]
           for n in ("run_old", "run_new")]
    assert prov["rounds_played"] == sum(one)
    # the steady rate: each worker's chunks after its first (start-up excluded), both
    # variants' rounds; none when no worker played a second chunk
    assert prov["rounds_per_s"] is None or prov["rounds_per_s"] > 0


@pytest.mark.plays("ptrump")
def test_three_seats_are_fair_at_one_third(drawn_three):
    _, spy = drawn_three
    three = [a for t, a in spy.drawn if t.startswith("Seats")][-1]
    checked = 0
    for ax in three:
        checked += 1
        label, shown = ax.texts[0].get_text(), ax.texts[1].get_text()
        if "won by seat" in label:   # a seat's share of the matches: 1/3 each
            assert "fair 33.33%" in shown, (label, shown)
        elif "ahead of" in label:    # one seat ahead of another: 1/2
            assert "fair 50.00%" in shown, (label, shown)
        else:
            checked -= 1
    assert checked >= 6


def test_all_zero_and_off_rows_are_left_out(drawn):
    dirs, _ = drawn
    md = (dirs["run"] / "report.md").read_text()
    assert "| kan_per_round |" not in md   # kan is off in new_edition: 0 in every game
    assert "left out (a rule that is off, or a count that cannot happen here): kan_per_round" in md
    table = md.split("Yaku value table")[1]
    assert "| honitsu |" not in table and "Off in this scenario (not in the table): " in table
    assert "| oshimai |" in table   # on but never scored: a finding, kept
    md = (dirs["compare"] / "report.md").read_text()
    every = md.split("### Every metric")[1]
    assert "never happened |" not in every and "Never happened under either variant" in every


@pytest.mark.browser
def test_pages_render_in_headless_chromium(drawn, tmp_path):
    """The report, a compare report, a 2-key sweep report and an HTML replay in a real browser:
    every image rendered, no text box over another, nothing wider than the window. With
    MOMOJAN_SCREENSHOTS=DIR the screenshots are kept there (docs/screenshots/ holds them)."""
    browser = chromium()
    if browser is None:
        if os.environ.get("MOMOJAN_REQUIRE_BROWSER_TEST"):
            pytest.fail("headless Chromium is required here (.ci/run installs it)")
        pytest.skip("headless Chromium is not installed (Debian: apt-get install -y chromium)")
    dirs, _ = drawn
    replay = sorted((dirs["run"] / "replays").glob("game-*.html"))[0]
    pages = {"report": dirs["run"] / "report.html", "compare": dirs["compare"] / "report.html",
             "sweep_2_keys": dirs["sweep2"] / "report.html", "replay": replay}
    keep = os.environ.get("MOMOJAN_SCREENSHOTS")
    import matplotlib.image as mpimg
    for name, page in pages.items():
        got = page_probe(browser, page, tmp_path)
        assert not got["overlaps"], (name, got["overlaps"])
        assert all(w > 0 for w in got["widths"]), (name, got["widths"])
        assert not got["wider_than_window"], name
        assert got["texts"] > 50
        if name != "replay":
            assert len(got["widths"]) >= 3, name
        out = screenshot(browser, page, (tmp_path if not keep else
                                         __import__("pathlib").Path(keep)) / f"{name}.png")
        px = mpimg.imread(str(out))
        flat = (px[..., :3] * 255).astype(int).reshape(-1, 3)
        assert len({tuple(c) for c in flat[::97]}) > 20, name   # not a blank page


def test_a_rate_strip_never_spans_more_than_the_whole_range():
    """A run of a game or two has rate intervals nearly 0..100% wide: five half-widths would
    make a strip of about 250 pp, most of it outside any rate. It spans 0..100% with a margin."""
    from types import SimpleNamespace
    cat = {"wide": SimpleNamespace(is_rate=True), "narrow": SimpleNamespace(is_rate=True)}
    rows = [("wide", {"value": 0.5, "ci": [0.01, 0.99]}),
            ("narrow", {"value": 0.5, "ci": [0.49, 0.51]})]
    spans, rate_span = report_html._strip_spans(rows, cat)
    assert rate_span == report_html.RATE_SPAN_MAX == spans["wide"] == spans["narrow"]
    precise = [("narrow", {"value": 0.5, "ci": [0.49, 0.51]})]
    assert report_html._strip_spans(precise, cat)[1] == pytest.approx(5.0)
