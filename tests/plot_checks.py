"""What a test can see of a drawn figure or page: text that overlaps other text, text that runs
off a figure, images that did not render. Used by the report tests (matplotlib figures, caught
as the report draws them) and by the browser test (the pages in headless Chromium)."""

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

from matplotlib.text import Text


def _drawn_texts(fig):
    """Every text the figure draws: its plain texts, and the labels of ticks in view."""
    out, tick_labels = [], set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                tick_labels.update((id(tick.label1), id(tick.label2)))
                loc = tick.get_loc()
                if (loc is None or not lo - 1e-9 <= loc <= hi + 1e-9 or not ax.get_visible()
                        or not axis.get_visible()):
                    continue
                out += [lab for lab in (tick.label1, tick.label2) if lab.get_visible()]
    out += [t for t in fig.findobj(Text) if id(t) not in tick_labels and t.get_visible()
            and (t.axes is None or t.axes.get_visible())]
    return [t for t in out if t.get_text().strip()]


def text_problems(fig, inside: bool, tol: float = 1.0) -> list:
    """Pairs of texts that overlap by more than ``tol`` pixels both ways, and (``inside``: a
    figure saved as it is, not cropped to its contents) texts that run off the figure."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(r)) for t in _drawn_texts(fig)]
    bad = []
    for i, (ta, a) in enumerate(boxes):
        for tb, b in boxes[i + 1:]:
            if min(a.x1, b.x1) - max(a.x0, b.x0) > tol and min(a.y1, b.y1) - max(a.y0, b.y0) > tol:
                bad.append(f"overlap: {ta!r} / {tb!r}")
        if inside and (a.x0 < -tol or a.x1 > fig.bbox.x1 + tol or a.y0 < -tol
                       or a.y1 > fig.bbox.y1 + tol):
            bad.append(f"off the figure: {ta!r}")
    return bad


class FigureSpy:
    """Wraps ``simcore.report.html._png``: each figure a report draws is checked (and kept, by
    its title) before it becomes a PNG."""

    def __init__(self, module):
        self.module, self.orig = module, module._png
        self.figures: dict = {}   # title -> list of the checks' problems
        self.axes: dict = {}      # title -> the axes of the first figure of that title
        self.drawn: list = []     # (title, axes) of every figure, in order

    def __call__(self, fig, tight=True):
        ax0 = fig.axes[0]
        title = (fig._suptitle.get_text() if fig._suptitle else
                 ax0.get_title(loc="left") or ax0.get_title())
        self.figures.setdefault(title, []).extend(text_problems(fig, inside=not tight))
        self.axes.setdefault(title, fig.axes)
        self.drawn.append((title, fig.axes))
        return self.orig(fig, tight)


PROBE = """<script>window.addEventListener('load', () => {
  const rects = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let node, k = 0;
  while ((node = walker.nextNode())) {
    if (!node.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects())
      if (r.width > 0.5 && r.height > 0.5)
        rects.push([k, r.left, r.top, r.right, r.bottom, node.textContent.trim().slice(0, 40)]);
    k++;
  }
  const bad = [];
  for (let i = 0; i < rects.length; i++) for (let j = i + 1; j < rects.length; j++) {
    const a = rects[i], b = rects[j];
    if (a[0] !== b[0] && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 2
        && Math.min(a[4], b[4]) - Math.max(a[2], b[2]) > 2) bad.push(a[5] + ' / ' + b[5]);
  }
  const wide = document.documentElement.scrollWidth > window.innerWidth + 2;
  document.body.setAttribute('data-probe', JSON.stringify({overlaps: bad.slice(0, 10),
    widths: [...document.images].map(i => i.complete ? i.naturalWidth : 0),
    texts: rects.length, wider_than_window: wide}));
});</script>"""

BROWSER = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--virtual-time-budget=5000"]


def chromium() -> str | None:
    return next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)


def page_probe(browser: str, page: Path, work: Path, width: int = 1100) -> dict:
    """Open ``page`` (a copy with the probe, in ``work``) in headless Chromium: its text boxes
    that overlap, its images' natural widths (0: not rendered), its text count."""
    copy = work / f"probe-{page.parent.name}-{page.name}"
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
                    encoding="utf-8")
    # the copy sits elsewhere: relative links (replays/...) are not followed, images are inline
    dom = subprocess.run([browser, *BROWSER, f"--window-size={width},1400", "--dump-dom",
                          copy.as_uri()], capture_output=True, text=True, timeout=180)
    m = re.search(r'data-probe="([^"]*)"', dom.stdout)
    assert m, dom.stderr[-2000:]
    return json.loads(html.unescape(m.group(1)))


def screenshot(browser: str, page: Path, out: Path, width: int = 1100, height: int = 1400):
    subprocess.run([browser, *BROWSER, f"--window-size={width},{height}",
                    f"--screenshot={out}", page.as_uri()], capture_output=True, timeout=180)
    return out
