"""The compare command's table (simcore/studies/compare.py ``_table``): columns stay apart for any value
(issue 46: riichi2p's point metrics ran p_adj into the margin, ``0.11911000.000``)."""

import pytest

from simcore.riichi2p.metrics import OWN_METRICS
from simcore.studies.compare import _COLUMNS, _table


def _row(metric, big):
    return {"metric": metric, "a": big * 1.5, "b": big * 1.7, "diff": big * 0.2,
            "a_ci": [big * 1.4, big * 1.6], "b_ci": [big * 1.6, big * 1.8],
            "ci": [-big * 3.1, big * 4.2], "p": 0.11911, "p_adj": 0.11911, "margin": big,
            "margin_relative": False, "verdict": "not defined in b", "narrowing": 123.4,
            "correlation": -0.12, "relative": None, "differing": {"games": 10 ** 7}}


@pytest.mark.parametrize("big", [1.0, 1000.0, 48000.0, 1e9])
def test_the_compare_table_keeps_its_columns_apart_for_large_values(big):
    metrics = {m.name: m for m in OWN_METRICS}
    names = ["mean_winning_pay", "mean_final_margin"]
    text = _table([_row(n, big) for n in names], metrics)
    lines = text.splitlines()
    header = lines[0].split()
    assert header == ["metric", "a", "a", "95%", "b", "b", "95%", "diff", "95%", "interval",
                      "rel", "p", "p_adj", "margin", "verdict", "narrow", "corr", "differ"]
    for line in lines[2:]:
        cells = line.split()
        # every cell is its own word: 15 columns, the three intervals two words each, the
        # verdict four
        assert len(cells) == len(_COLUMNS) + 3 + 3, line
        assert float(cells[1]) == pytest.approx(1.5 * big, rel=1e-3)   # a, then its interval
        assert cells[2] == f"[{1.4 * big:.3f}," and cells[3] == f"{1.6 * big:.3f}]"
        assert cells[11] == cells[12] == "0.1191"        # p and p_adj, apart
        assert float(cells[13]) == pytest.approx(big)    # the margin, apart from p_adj
    # each cell starts under its header's column and the rule is as long as the header
    assert len(lines[1]) == len(lines[0])
    at = lines[0].index("margin") + len("margin")
    assert all(line[at - 1] != " " and line[at] == " " for line in lines[2:])
