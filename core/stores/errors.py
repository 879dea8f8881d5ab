"""Why a checkpoint store cannot be read: one error type, stable codes, what to do."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["StoreCode", "StoreError"]


class StoreCode(StrEnum):
    """The stable codes a `StoreError` carries (scripts match on these, not on messages)."""

    NO_STORE = "no_store"  # neither STORE nor PLAYGROUND_STORE given
    BAD_SPEC = "bad_store_spec"  # not a path, sqlite:/// URL or postgresql:// DSN
    MISSING = "store_missing"  # the SQLite file does not exist
    EMPTY = "store_empty"  # a zero-byte file
    NOT_A_DATABASE = "not_a_database"  # a file SQLite cannot open (text, corrupt)
    NOT_A_CHECKPOINT_STORE = "not_a_checkpoint_store"  # no `checkpoints` table
    UNREACHABLE = "store_unreachable"  # Postgres down, refused, wrong host/port
    LOGIN_REFUSED = "store_login_refused"  # Postgres rejected the user or password
    ENCRYPTED = "store_encrypted"  # encrypted values and no key (or no way to decrypt)
    WRONG_KEY = "store_wrong_key"  # LANGGRAPH_AES_KEY does not decrypt it, or is no AES key
    UNREADABLE = "store_unreadable"  # anything else the driver raised while reading


class StoreError(Exception):
    """A store the playground cannot read; `code` is stable, `message` says what to do.

    The message names the file or host:port, never a password.

    Example:
        >>> error = StoreError(StoreCode.MISSING, "/tmp/x.sqlite does not exist; check the path.")
        >>> str(error)
        '[store_missing] /tmp/x.sqlite does not exist; check the path.'
    """

    def __init__(self, code: StoreCode, message: str) -> None:
        self.code, self.message = code, message
        super().__init__(f"[{code}] {message}")

    def __repr__(self) -> str:
        return f"StoreError({str(self.code)!r}, {self.message!r})"
