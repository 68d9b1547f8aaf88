"""The kernels compile ahead of their first use: at install (setup.py) and by hand
(``python -m simcore.precompile``). The wheel test (tests/test_install.py) checks that an install
carries the compiled kernel and that its first run loads it."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from setuptools.errors import OptionError

from simcore import families, precompile, scenario_files

REPO = Path(__file__).resolve().parents[1]


def _setup_module():
    spec = importlib.util.spec_from_file_location("momojan_setup", REPO / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # not __main__: setup() does not run
    return module


@pytest.mark.parametrize("value, args", [(None, []), ("", []), ("default", []), ("all", ["--all"]),
                                         (" ALL ", ["--all"]), ("none", None)])
def test_install_precompile_choice(monkeypatch, value, args):
    if value is None:
        monkeypatch.delenv("MOMOJAN_SIM_PRECOMPILE", raising=False)
    else:
        monkeypatch.setenv("MOMOJAN_SIM_PRECOMPILE", value)
    assert _setup_module()._precompile_args() == args


def test_install_precompile_bad_value_is_named(monkeypatch):
    monkeypatch.setenv("MOMOJAN_SIM_PRECOMPILE", "yes")
    with pytest.raises(OptionError, match=r"MOMOJAN_SIM_PRECOMPILE='yes': expected one of "
                                          r"default, all, none"):
        _setup_module()._precompile_args()


def test_cold_families_names_those_not_cached(monkeypatch):
    fam = families.get("momojan")
    monkeypatch.setattr(fam, "kernels_cached", lambda: False)
    assert precompile.cold_families(["momojan"]) == [fam.__name__]
    monkeypatch.setattr(fam, "kernels_cached", lambda: True)
    assert precompile.cold_families(["momojan"]) == []


def test_kernels_cached_is_numbas_own_check(tmp_path):
    """Not a file's age: numba's index for this source and CPU (an empty cache dir is cold)."""
    code = ("import simcore.momojan.family as f, simcore.ptrump.family as p; "
            "print(f.kernels_cached(), p.kernels_cached())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path)}).stdout
    assert out.split() == ["False", "False"]


def test_main_on_a_cached_family_compiles_nothing(monkeypatch, capsys):
    monkeypatch.setattr(precompile, "cold_families", lambda names: [])
    assert precompile.main(["momojan"]) == 0
    assert "already compiled" in capsys.readouterr().err


def test_main_unknown_family_is_exit_2(capsys):
    assert precompile.main(["mahjong"]) == 2
    assert "unknown game family 'mahjong'" in capsys.readouterr().err


def test_a_failed_compile_is_said_not_raised(monkeypatch):
    said = []
    monkeypatch.setattr(precompile, "_python", lambda code, log: subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.exit('boom')"], stderr=log, text=True))
    assert precompile.compile_families(["simcore.momojan.family"], say=said.append) is False
    assert any("boom" in s for s in said)


def test_bundled_dir_without_the_package_mapping(monkeypatch):
    """The build compiles from a source tree where scenarios/ is not yet simcore.scenarios."""
    def missing(name):
        raise ModuleNotFoundError(name)
    monkeypatch.setattr(scenario_files.importlib.resources, "files", missing)
    assert scenario_files.bundled_dir() == REPO / "scenarios"
