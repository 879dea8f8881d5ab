"""Share-link state parsed by one strict model per page; a bad field is dropped and named.

Each page's model lives in its own module (`core.links.trace`, `.validate`, `.retry`,
`.tools`, `.behaviour`), so a page imports only its own lab's registry.
"""

from core.links.base import DroppedField, ShareLink

__all__ = ["DroppedField", "ShareLink"]
