"""The report of a result directory: report.md, a self-contained report.html whose images
render in a real browser (headless Chromium), and `momojan-sim report DIR` redraws it."""

import base64
import json
import os
import re
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from simcore.cli import main


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("MOMOJAN_REQUIRE_BROWSER_TEST"):
        pytest.fail("headless Chromium is required here (.ci/run installs it) but not found")
    pytest.skip("headless Chromium is not installed (Debian: apt-get install -y chromium; "
                ".ci/run installs it)")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("r") / "run"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "600", "--workers", "1",
                                  "--seed", "2", "--out", str(d), "--quiet", "--records"])
    assert r.exit_code == 0, r.output
    return d


def test_report_files_and_no_network(run_dir):
    html = (run_dir / "report.html").read_text()
    md = (run_dir / "report.md").read_text()
    imgs = re.findall(r"<img [^>]*src='([^']*)'", html)
    assert len(imgs) >= 6
    for src in imgs:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in html and "https://" not in html   # nothing to fetch
    for name in re.findall(r"\]\(figures/([^)]+)\)", md):
        assert (run_dir / "figures" / name).is_file()
    # every headline metric that happened names a replay command of a game that shows it
    assert "momojan-sim replay " in html and "--game" in html
    assert "fair 50.00%" in html


def test_no_report_then_the_report_command_draws_it(tmp_path):
    d = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "new_edition", "--games", "20", "--workers", "1",
                                  "--out", str(d), "--no-report"])
    assert r.exit_code == 0, r.output
    assert f"no report: `momojan-sim report {d}` draws it" in r.output
    assert (d / "summary.json").is_file() and not list(d.glob("report.*"))
    r = CliRunner().invoke(main, ["report", str(d)])
    assert r.exit_code == 0, r.output
    assert (d / "report.html").is_file() and (d / "report.md").is_file()
    assert list((d / "figures").glob("*.png"))
    r = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert r.exit_code == 2 and r.output.startswith("momojan-sim: error: ")
    assert "not a result directory" in r.output and len(r.output.splitlines()) == 1


@pytest.mark.parametrize("args", [
    ["compare", "new_edition", "no_ron_bonus", "--games", "20"],
    ["sweep", "new_edition", "--set", "scoring.ron_bonus=0", "--games", "20"],
    ["tournament", "new_edition", "--policies", "random,baseline", "--games", "4"],
])
def test_no_report_keeps_every_kind_of_result_without_figures(args, tmp_path):
    d = tmp_path / "out"
    r = CliRunner().invoke(main, [*args, "--workers", "1", "--out", str(d), "--no-report"])
    assert r.exit_code == 0, r.output
    assert f"no report: `momojan-sim report {d}` draws it" in r.output
    assert (d / "summary.json").is_file()
    assert not list(d.glob("report.*")) and not (d / "figures").exists()


@pytest.mark.browser
def test_report_renders_in_headless_chromium(run_dir, tmp_path):
    browser = _chromium()
    page = tmp_path / "page.html"
    # the report plus a probe that records every image's natural width once the page loaded
    probe = ("<script>window.addEventListener('load',()=>{document.body.setAttribute("
             "'data-widths',[...document.images].map(i=>i.complete?i.naturalWidth:0).join(','))"
             "});</script>")
    page.write_text((run_dir / "report.html").read_text().replace("</body>", probe + "</body>"))
    common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--virtual-time-budget=5000", "--window-size=1100,1800"]
    dom = subprocess.run(common + ["--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120)
    m = re.search(r'data-widths="([^"]*)"', dom.stdout)
    assert m, dom.stderr[-2000:]
    widths = [int(w) for w in m.group(1).split(",")]
    assert len(widths) >= 6 and all(w > 0 for w in widths), widths
    shot = tmp_path / "shot.png"
    subprocess.run(common + [f"--screenshot={shot}", (run_dir / "report.html").as_uri()],
                   capture_output=True, timeout=120)
    import matplotlib.image as mpimg
    px = mpimg.imread(str(shot))
    assert px.shape[0] >= 1000 and px.shape[1] >= 1000
    # not a blank page: many distinct colours (the header, the plots)
    flat = (px[..., :3] * 255).astype(int).reshape(-1, 3)
    assert len({tuple(c) for c in flat[::97]}) > 50


def test_compare_and_sweep_reports(tmp_path):
    d = tmp_path / "cmp"
    r = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--games", "400",
                                  "--workers", "1", "--out", str(d), "--quiet", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["kind"] == "compare"
    html = (d / "report.html").read_text()
    assert "What changes from a to b" in (d / "report.md").read_text() or "forest" in html
    assert (d / "figures" / "forest.png").is_file()
    assert "Games that show the differences" in html and "--variant 1" in html
    # every metric's a and b beside their own intervals, in the report and in the text
    row = json.loads(r.stdout)["metrics"]["mean_winning_points"]
    own = "{:.3f} [{:.3f}, {:.3f}]"
    every = (d / "report.md").read_text().split("### Every metric")[1]
    line = next(x for x in every.splitlines() if x.startswith("| mean_winning_points |"))
    assert own.format(row["a"], *row["a_ci"]) in line and own.format(row["b"], *row["b_ci"]) in line
    text = CliRunner().invoke(main, ["compare", "new_edition", "no_ron_bonus", "--games", "400",
                                     "--workers", "1", "--no-save", "--quiet"]).stdout
    line = next(x for x in text.splitlines() if x.startswith("mean_winning_points "))
    assert line.split()[1:7] == [f"{row['a']:.3f}", f"[{row['a_ci'][0]:.3f},",
                                 f"{row['a_ci'][1]:.3f}]", f"{row['b']:.3f}",
                                 f"[{row['b_ci'][0]:.3f},", f"{row['b_ci'][1]:.3f}]"]
    d = tmp_path / "swp"
    plain = tmp_path / "plain_seats.yaml"  # seats that read no point values: the note is said
    plain.write_text("extends: new_edition\nname: plain_seats\nplayers:\n"
                     "  - {policy: baseline}\n  - {policy: baseline}\n")
    r = CliRunner().invoke(main, ["sweep", str(plain), "--set", "scoring.ron_bonus=0,2",
                                  "--games", "400", "--workers", "1", "--out", str(d), "--quiet"])
    assert r.exit_code == 0, r.output
    assert (d / "figures" / "sweep_mean_winning_points.png").is_file()
    shown = CliRunner().invoke(main, ["show", str(d)])
    assert shown.exit_code == 0 and "sweep of plain_seats: 2 variants, 400 games" in shown.stdout
    assert "scoring.ron_bonus=2" in shown.stdout and "note: the rules that differ" in shown.stdout
    shown = CliRunner().invoke(main, ["show", str(tmp_path / "cmp")])
    assert shown.exit_code == 0 and "compare new_edition (a) with no_ron_bonus (b)" in shown.stdout
