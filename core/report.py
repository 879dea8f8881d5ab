"""Public path `core.report`: the model-alone verdict (it lives in core.validate)."""

from __future__ import annotations

from core.validate.report import FieldError, Report, gate_disagrees, validate_text, validate_value

__all__ = ["FieldError", "Report", "gate_disagrees", "validate_text", "validate_value"]
