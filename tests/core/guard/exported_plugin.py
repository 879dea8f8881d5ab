"""A pytest plugin for test_export.py's subprocess: the guard's own tests, run on an exported
state_guard.py (named by STATE_GUARD_UNDER_TEST) in place of core.guard's classes."""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any

__all__ = ["UNDER_TEST_ENV", "pytest_configure"]

UNDER_TEST_ENV = "STATE_GUARD_UNDER_TEST"
# where the tests import each name from -> the name in the exported module
_SWAPPED = {
    "core.guard": ("GuardedSaver", "InvalidStateError"),
    "core.guard.plans": ("PlanMigration",),
    "core.migrate.plan": ("PlanError",),
    "core.errors": ("CodedError",),
}


def pytest_configure(config: Any) -> None:
    """Load the exported module, and make the names the tests import be its own: before any
    test module is imported, so `from core.guard import GuardedSaver` gets the exported one."""
    spec = importlib.util.spec_from_file_location("state_guard", os.environ[UNDER_TEST_ENV])
    assert spec is not None and spec.loader is not None
    exported = importlib.util.module_from_spec(spec)
    sys.modules["state_guard"] = exported
    spec.loader.exec_module(exported)
    for module, names in _SWAPPED.items():
        home = importlib.import_module(module)
        for name in names:
            setattr(home, name, getattr(exported, name))
