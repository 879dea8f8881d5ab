"""core.presets: one contract test over every preset in the gallery."""

import pytest

from core.presets import PRESETS
from core.report import validate_text


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_produces_exactly_its_expected_error_types(name):
    report = validate_text(PRESETS[name].text)
    assert report.syntax_error is None
    assert tuple(error.type for error in report.errors) == PRESETS[name].expect
