"""Where the modules of release 0.1 went (issue 47: the harness in layers), so that imports of
the old names keep working for one release.

``import simcore.results`` (or ``from simcore import results``, ``from simcore.results import
load``) gives the module's new home, :mod:`simcore.studies.results`, the same module object, and
warns once (``DeprecationWarning``) with the new name. Pickles that name an old module load the
same way. ``simcore.stats`` is now a package: its old contents are :mod:`simcore.stats.moments`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

MOVED = {
    'simcore.bits': 'simcore.nb.bits',
    'simcore.borrow': 'simcore.nb.borrow',
    'simcore.hashtable': 'simcore.nb.hashtable',
    'simcore.rng': 'simcore.nb.rng',
    'simcore.family.layout': 'simcore.nb.layout',
    'simcore.compile_plan': 'simcore.nb.compile_plan',
    'simcore.luck_sums': 'simcore.stats.luck_sums',
    'simcore.luck_correction': 'simcore.stats.luck',
    'simcore.proportions': 'simcore.stats.proportions',
    'simcore.verdicts': 'simcore.stats.verdicts',
    'simcore.domains': 'simcore.stats.domains',
    'simcore.backends.raycluster': 'simcore.runners.raycluster',
    'simcore.backends.localcluster': 'simcore.runners.localcluster',
    'simcore.parallel': 'simcore.runners.local',
    'simcore.stop_signals': 'simcore.runners.signals',
    'simcore.families': 'simcore.family.registry',
    'simcore.metrics': 'simcore.family.metrics',
    'simcore.family.common': 'simcore.family.tables',
    'simcore.family.conformance': 'simcore.testing',
    'policies.registry': 'simcore.family.policy',
    'policies.params': 'simcore.family.params',
    'policies.players': 'simcore.family.players',
    'simcore.scenario_files': 'simcore.family.scenario.files',
    'simcore.schema_common': 'simcore.family.scenario.schema',
    'simcore.family.annotated': 'simcore.family.scenario.annotated',
    'simcore.scenario_marks': 'simcore.family.scenario.marks',
    'simcore.rule_diff': 'simcore.family.scenario.diff',
    'simcore.family.bounds': 'simcore.family.scenario.bounds',
    'simcore.results': 'simcore.studies.results',
    'simcore.study_dir': 'simcore.studies.directory',
    'simcore.study': 'simcore.studies.study',
    'simcore.compare': 'simcore.studies.compare',
    'simcore.saved_compare': 'simcore.studies.compare_saved',
    'simcore.pairings': 'simcore.studies.pairings',
    'simcore.sweeps': 'simcore.studies.sweeps',
    'simcore.plan': 'simcore.studies.plan',
    'simcore.solve_study': 'simcore.studies.solve',
    'simcore.solve': 'simcore.studies.solve_design',
    'simcore.tune': 'simcore.studies.tune',
    'simcore.tournament': 'simcore.studies.tournament',
    'simcore.responses': 'simcore.studies.responses',
    'simcore.report_html': 'simcore.report.html',
    'simcore.replays': 'simcore.report.replays',
    'simcore.save': 'simcore.report.save',
    'simcore.cli_output': 'simcore.cli.output',
    'simcore.cli_types': 'simcore.cli.types',
    'simcore.cli_study': 'simcore.cli.study',
    'simcore.cli_solve': 'simcore.cli.solve',
    'simcore.cli_tune': 'simcore.cli.tune',
    'simcore.cli_tournament': 'simcore.cli.tournament',
    'simcore.backends': 'simcore.runners',
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module name and loads it as its new module (the same object)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in MOVED:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        new = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new} (issue 47); the old name goes in the next "
                      f"release", DeprecationWarning, stacklevel=3)
        return importlib.import_module(new)

    def exec_module(self, module):
        pass


def install() -> None:
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())   # before the path finder: an old sub-package
        # (simcore.backends.localcluster) would else load a second copy from the new folder
