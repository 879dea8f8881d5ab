"""Why a checkpoint store cannot be read: one error type, stable codes, what to do."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from core.errors import CodedError, ErrorCode

__all__ = ["EncryptionRefused", "StoreCode", "StoreError", "StoreWarning", "coded"]


class StoreCode(StrEnum):
    """The stable codes a `StoreError` carries (scripts match on these, not on messages)."""

    # The values are the registry's (core.errors.ErrorCode); these are the stores' names.
    NO_STORE = ErrorCode.NO_STORE  # neither STORE nor PLAYGROUND_STORE given
    BAD_SPEC = ErrorCode.BAD_STORE_SPEC  # not a path, sqlite:/// URL or postgresql:// DSN
    MISSING = ErrorCode.STORE_MISSING  # the SQLite file does not exist
    EMPTY = ErrorCode.STORE_EMPTY  # a zero-byte file
    NOT_A_DATABASE = ErrorCode.NOT_A_DATABASE  # a file SQLite cannot open (text, no header)
    CORRUPT = ErrorCode.STORE_CORRUPT  # a damaged SQLite page (quick_check, or met reading)
    NOT_A_CHECKPOINT_STORE = ErrorCode.NOT_A_CHECKPOINT_STORE  # no `checkpoints` table
    UNREACHABLE = ErrorCode.STORE_UNREACHABLE  # Postgres down, refused, wrong host/port
    LOGIN_REFUSED = ErrorCode.STORE_LOGIN_REFUSED  # Postgres rejected the user or password
    ENCRYPTED = ErrorCode.STORE_ENCRYPTED  # encrypted values and no key (or no way to decrypt)
    WRONG_KEY = ErrorCode.STORE_WRONG_KEY  # LANGGRAPH_AES_KEY does not decrypt it / no AES key
    UNREADABLE = ErrorCode.STORE_UNREADABLE  # anything else the driver raised while reading
    NOT_TABLES = ErrorCode.STORE_NOT_TABLES  # a view, virtual table or computed column
    TIMEOUT = ErrorCode.STORE_TIMEOUT  # one read took longer than its time budget
    ROLE_SUPERUSER = ErrorCode.STORE_ROLE_SUPERUSER  # a warning: reading as a superuser
    ROLE_CAN_WRITE = ErrorCode.STORE_ROLE_CAN_WRITE  # a warning: the role may write the tables


class StoreError(CodedError):
    """A store the playground cannot read; `code` is stable, `message` says what to do.

    The message names the file or host:port, never a password.

    Example:
        >>> error = StoreError(StoreCode.MISSING, "/tmp/x.sqlite does not exist; check the path.")
        >>> str(error)
        '[store_missing] /tmp/x.sqlite does not exist; check the path.'
    """

    def __init__(self, code: StoreCode, message: str) -> None:
        super().__init__(ErrorCode(code), message)
        self.code = code  # the stores' own member (StoreCode.MISSING), of the same value

    def __repr__(self) -> str:
        return f"StoreError({str(self.code)!r}, {self.message!r})"


class EncryptionRefused(StoreError):
    """An encrypted value the configured key cannot read: no key, a wrong or malformed key.

    Raised while a store is read (a store is encrypted as a whole: no state of it can be
    validated); `open_store` adds the store's name to the message. The key is never quoted.
    """


class StoreWarning(NamedTuple):
    """A store that is read, with something the user should change (the page and stderr say it).

    Example:
        >>> str(StoreWarning(StoreCode.ROLE_SUPERUSER, "read as a superuser."))
        '[store_role_superuser] read as a superuser.'
    """

    code: StoreCode
    message: str

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


def coded(error: BaseException, label: str) -> StoreError:
    """Any error raised while a store was read, as a coded one: a `StoreError` as it is,
    anything else by its type only (a driver's text may quote a DSN or a stored value).

    Example:
        >>> coded(KeyError("x"), "runs.sqlite").message.split(";")[0]
        'runs.sqlite could not be read (KeyError)'
    """
    if isinstance(error, StoreError):
        return error
    return StoreError(
        StoreCode.UNREADABLE,
        f"{label} could not be read ({type(error).__name__}); check the file or server, or "
        "choose another store.",
    )
