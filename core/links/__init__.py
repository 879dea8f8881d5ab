"""Share-link state parsed by one strict model per page; a bad field is dropped and named."""

from core.links.base import DroppedField, ShareLink
from core.links.trace import Fork, TraceLink
from core.links.validate import EDITORS, VIEWS, ValidateLink

__all__ = ["EDITORS", "VIEWS", "DroppedField", "Fork", "ShareLink", "TraceLink", "ValidateLink"]
