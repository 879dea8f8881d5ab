"""Refuse invalid states before a checkpoint saver stores them; migrate old ones on read."""

from core.guard.refusal import InvalidStateError
from core.guard.saver import GuardedSaver, OnInvalid

__all__ = ["GuardedSaver", "InvalidStateError", "OnInvalid"]
