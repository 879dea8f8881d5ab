"""The stored states a migration reads: each thread's latest (or every) checkpoint, any store.

They are read in core.stores (`core.stores.stored`, and `core.stores.reader.stored_states`
for any store): the same walk as the audit's."""

from __future__ import annotations

# Re-exported (X as X): this module is where they were first.
from core.stores.reader import stored_states as stored_states
from core.stores.stored import TOO_DEEP as TOO_DEEP
from core.stores.stored import StoredState as StoredState

__all__ = ["TOO_DEEP", "StoredState", "stored_states"]
