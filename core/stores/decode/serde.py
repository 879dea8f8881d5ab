"""Strict checkpoint deserialization: an explicit allow-list, no pickle, refusals named."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import ormsgpack
from langgraph.checkpoint.serde.base import CipherProtocol, SerializerProtocol
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
from langgraph.checkpoint.serde.event_hooks import SerdeEvent, register_serde_event_listener
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from core.lg_compat import build_serde_allowlist, msgpack_ext_hook
from core.stores.decode.aliases import module_aliases, needles, rewrite_modules
from core.stores.decode.budget import DEFAULT_BUDGET, check_decoded_size
from core.stores.errors import EncryptionRefused, StoreCode
from core.words import count

__all__ = [
    "AES_KEY_ENV",
    "EncryptionRefused",
    "Refused",
    "SharedValues",
    "StrictSerializer",
    "find_refused",
    "strict_serde",
]

AES_KEY_ENV = "LANGGRAPH_AES_KEY"  # LangGraph's own: EncryptedSerializer.from_pycryptodome_aes
_AES_KEY_SIZES = (16, 24, 32)

_BLOCKED = frozenset({"msgpack_blocked", "msgpack_method_blocked"})
_READABLE_TYPES = frozenset({"null", "bytes", "bytearray", "json", "msgpack"})
_MISSING = object()
_collector = threading.local()  # per thread: the refusals of the value being decoded now
_listening = threading.Lock()
_listener_registered = False


class SharedValues:
    """The extension values (messages, model instances) one reader decoded in its current row
    and its previous one, by their exact bytes, for `StrictSerializer.loads_shared`.

    Owned by one reader, which calls `next_row` before each row: memory is two rows' worth.
    For readers over rows that repeat most of each other (a thread's checkpoints, newest
    first: each holds the messages of the one before) whose consumers change nothing they
    are given. A value in which something was refused is never kept, and one row never gets
    one object twice.
    """

    def __init__(self) -> None:
        self.earlier: dict[tuple[int, bytes], Any] = {}
        self.now: dict[tuple[int, bytes], Any] = {}
        self.given: set[int] = set()  # ids of the values returned in this row

    def next_row(self) -> None:
        """The row decoded so far becomes the previous one; the one before is let go."""
        self.earlier, self.now, self.given = self.now, {}, set()


@dataclass(frozen=True)
class Refused:
    """Stands where a stored value was refused: nothing it names was imported or called."""

    what: str  # "os.system", or the storage type ("pickle", "msgpack+aes") of a whole value

    def describe(self) -> str:
        """One sentence a user can act on.

        Example:
            >>> Refused("os.system").describe().split(",")[0]
            'the stored value names os.system'
        """
        if "." in self.what:
            return (
                f"the stored value names {self.what}, which the playground's allow-list refuses "
                "(it was not run); if it is one of your own types, pass the model that declares "
                "it with --model"
            )
        if self.what == "pickle":
            return (
                "the stored value is pickled, which the playground never reads (unpickling "
                "runs code); store it with LangGraph's default msgpack serializer"
            )
        if "+" in self.what:
            return (
                f"the stored value is encrypted ({self.what}); set {AES_KEY_ENV} in the "
                "server's environment to the key the application writes with"
            )
        return f"the stored value is in {self.what!r} format, which the playground does not read"


def _on_event(event: SerdeEvent) -> None:
    found = getattr(_collector, "found", None)
    if found is not None and event["kind"] in _BLOCKED:
        found.append(f"{event['module']}.{event['name']}")


def _listen() -> None:
    global _listener_registered
    with _listening:
        if not _listener_registered:
            register_serde_event_listener(_on_event)
            _listener_registered = True


class _Plain(SerializerProtocol):
    """The strict serializer without encryption: what `EncryptedSerializer` wraps."""

    def __init__(self, outer: StrictSerializer) -> None:
        self._outer = outer

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return self._outer._inner.dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        return self._outer._loads_plain(data)


class _CheckedCipher(CipherProtocol):
    """LangGraph's AES cipher; a failed decryption becomes an `EncryptionRefused`."""

    def __init__(self, cipher: Any) -> None:
        self._cipher = cipher

    def encrypt(self, plaintext: bytes) -> tuple[str, bytes]:
        result: tuple[str, bytes] = self._cipher.encrypt(plaintext)
        return result

    def decrypt(self, ciphername: str, ciphertext: bytes) -> bytes:
        if ciphername != "aes":
            raise EncryptionRefused(
                StoreCode.ENCRYPTED,
                f"it is encrypted with a cipher named {ciphername!r}; the playground reads "
                f"LangGraph's AES encryption (EncryptedSerializer.from_pycryptodome_aes, key "
                f"in {AES_KEY_ENV}) only",
            )
        try:
            plain: bytes = self._cipher.decrypt(ciphername, ciphertext)
        except (ValueError, KeyError, IndexError):  # pycryptodome: "MAC check failed"
            raise EncryptionRefused(
                StoreCode.WRONG_KEY,
                f"it is encrypted and the key in {AES_KEY_ENV} does not decrypt it (wrong "
                "key, or a damaged value); set it to the key the application writes with",
            ) from None
        return plain


class StrictSerializer(SerializerProtocol):
    """Reads only allow-listed types; a refused value becomes a `Refused` marker in place.

    LangGraph's strict `JsonPlusSerializer` already refuses to call what is not on the
    list, but silently puts the raw arguments in its place; this wrapper makes the
    refusal visible where it happened, so one bad value does not hide or stop the rest.

    `aes_key` (LangGraph's convention: the text of `LANGGRAPH_AES_KEY`, 16, 24 or 32
    bytes): encrypted values are decrypted by the cipher of LangGraph's `EncryptedSerializer`
    around this serializer (never the default one), and values written are encrypted. Without
    a key, or with one that does not decrypt, reading an encrypted value raises
    `EncryptionRefused`.

    Each value is decoded within a `budget` (`core.stores.budget`), checked on what its bytes
    declare before anything is built from them (an encrypted one's once decrypted): a value
    over it raises `OverBudget`.
    """

    def __init__(
        self,
        allowed: Iterable[tuple[str, ...]],
        aes_key: str | None = None,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        _listen()
        self.allowed = frozenset(allowed)
        # module names a LangGraph server gave the user's graph files -> the real ones
        self.aliases = dict(aliases or {})
        self._needles = needles(self.aliases)
        self.refusals = 0  # grows with each Refused returned: readers skip the search if not
        self._inner = JsonPlusSerializer(
            pickle_fallback=False, allowed_json_modules=None, allowed_msgpack_modules=self.allowed
        )
        # the allow-listed ext hook JsonPlusSerializer.loads_typed hands to ormsgpack: called
        # directly, an extension value is decoded without being packed again first
        self._hook = msgpack_ext_hook(self._inner) or self._repacked
        self._key_problem: tuple[StoreCode, str] | None = None  # raised at the first value
        self.encrypted: EncryptedSerializer | None = None
        if aes_key:
            self.encrypted = self._encrypted(aes_key.encode())

    def _encrypted(self, key: bytes) -> EncryptedSerializer | None:
        if len(key) not in _AES_KEY_SIZES:
            self._key_problem = (
                StoreCode.WRONG_KEY,
                f"it is encrypted and {AES_KEY_ENV} is {count(len(key), 'byte')} long, not an "
                "AES key (16, 24 or 32 bytes); set it to the key the application writes with",
            )
            return None
        try:
            aes = EncryptedSerializer.from_pycryptodome_aes(serde=_Plain(self), key=key)
        except ImportError:
            self._key_problem = (
                StoreCode.ENCRYPTED,
                "it is encrypted and pycryptodome, which decrypts LangGraph's AES, is not "
                "installed; pip install -r requirements.txt",
            )
            return None
        return EncryptedSerializer(_CheckedCipher(aes.cipher), _Plain(self))

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        if self.encrypted is not None:
            return self.encrypted.dumps_typed(obj)
        return self._inner.dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes], budget: int = DEFAULT_BUDGET) -> Any:
        """A stored value, decrypted first when its type says so; `OverBudget` when what it
        declares would take more than `budget` bytes once decoded (nothing is built then).

        Example:
            >>> serde = strict_serde([])
            >>> maps = ("msgpack", b"\\xdc\\x04\\x00" + b"\\x80" * 1024)  # 1,024 empty maps
            >>> len(serde.loads_typed(maps))
            1024
            >>> serde.loads_typed(maps, budget=16 * 1024)  # doctest: +ELLIPSIS
            Traceback (most recent call last):
            ...
            core.stores.decode.budget.OverBudget: the value would take more than 16,384 bytes ...
        """
        if "+" in data[0]:
            return self._loads_plain(self._decrypted(data), budget=budget)
        return self._loads_plain(data, budget=budget)

    def _decrypted(self, data: tuple[str, bytes]) -> tuple[str, bytes]:
        # EncryptedSerializer.loads_typed's own steps, so that the plain value it decrypts
        # is decoded here, within the caller's budget
        if self.encrypted is None:
            code, message = self._key_problem or (
                StoreCode.ENCRYPTED,
                f"it is encrypted ({data[0]}, LangGraph's EncryptedSerializer) and no key is "
                f"configured; set {AES_KEY_ENV} in the server's environment to the key the "
                "application writes with",
            )
            raise EncryptionRefused(code, message)
        type_, cipher = data[0].split("+", 1)
        return type_, self.encrypted.cipher.decrypt(cipher, data[1])

    def loads_shared(
        self, data: tuple[str, bytes], shared: SharedValues, budget: int = DEFAULT_BUDGET
    ) -> Any:
        """`loads_typed`, except that an extension value (a message, a model instance) whose
        exact bytes `shared` holds from this row or the previous one is not decoded again:
        that value is returned, the same object (`SharedValues`). An encrypted value is
        decoded as by `loads_typed`.

        Example:
            >>> from core.order import LineItem
            >>> serde = strict_serde([LineItem])
            >>> line = serde.dumps_typed({"line": LineItem(sku="ABC-1", qty=1, unit_price=1)})
            >>> shared = SharedValues()
            >>> first = serde.loads_shared(line, shared)
            >>> shared.next_row()
            >>> second = serde.loads_shared(line, shared)
            >>> shared.next_row()
            >>> shared.next_row()
            >>> third = serde.loads_shared(line, shared)
            >>> first["line"] is second["line"], third["line"] is second["line"]
            (True, False)
        """
        if "+" in data[0]:
            return self.loads_typed(data, budget)
        return self._loads_plain(data, shared, budget)

    def _loads_plain(
        self,
        data: tuple[str, bytes],
        shared: SharedValues | None = None,
        budget: int = DEFAULT_BUDGET,
    ) -> Any:
        type_, payload = data
        if type_ not in _READABLE_TYPES:
            return self._refuse(type_)
        check_decoded_size(type_, payload, budget)  # what it declares, before it is built
        if type_ != "msgpack":
            return self._inner.loads_typed(data)
        if self._needles:
            payload = rewrite_modules(payload, self.aliases, self._needles)
        hook = self._ext if shared is None else partial(self._shared_ext, shared)
        return ormsgpack.unpackb(payload, ext_hook=hook, option=ormsgpack.OPT_NON_STR_KEYS)

    def _shared_ext(self, shared: SharedValues, code: int, data: bytes) -> Any:
        key = (code, data)
        found = shared.now.get(key, _MISSING)
        if found is _MISSING:
            found = shared.earlier.get(key, _MISSING)
        if found is _MISSING or id(found) in shared.given:
            # new, or equal to a value already given in this row: two equal values in one
            # state stay two objects, as without sharing (a reducer may tell them apart)
            found = self._ext(code, data)
            if isinstance(found, Refused):
                return found  # decoded again in each row, so each state counts it
        shared.now.setdefault(key, found)
        shared.given.add(id(found))
        return found

    def _ext(self, code: int, data: bytes) -> Any:
        # Only the outermost extension values reach this hook: LangGraph's own hook decodes
        # each one whole (nested values included) under the allow-list and reports every
        # refusal to the listener, which collects them for this value alone.
        outer, _collector.found = getattr(_collector, "found", None), []
        try:
            value = self._hook(code, data)
            refused = _collector.found
        finally:
            _collector.found = outer
        return self._refuse(refused[0]) if refused else value

    def _repacked(self, code: int, data: bytes) -> Any:
        # LangGraph's public route to the same hook, for a version without the attribute
        packed = ormsgpack.packb(ormsgpack.Ext(code, data))
        return self._inner.loads_typed(("msgpack", packed))

    def _refuse(self, what: str) -> Refused:
        self.refusals += 1
        return Refused(what)


def strict_serde(models: Iterable[type], env: Mapping[str, str] | None = None) -> StrictSerializer:
    """A serializer allowing the given models' types, LangChain messages and LangGraph's own.

    An encrypted store is read with the AES key in `env` (default: the server's
    environment) under LangGraph's name for it, `LANGGRAPH_AES_KEY`. Types a LangGraph
    server recorded under the module name it gave a graph file (`__graph.Line` for
    `./graph.py`) are read as the models' own (`core.stores.aliases`).

    The allow-list is LangGraph's: the one `StateGraph.compile` builds from the state schemas
    under `LANGGRAPH_STRICT_MSGPACK` (each Pydantic model, its nested models, dataclasses
    and enums, and the LangChain message classes), plus the types LangGraph always treats
    as safe. Pickle is never read.

    Example:
        >>> from core.order import AgentState
        >>> serde = strict_serde([AgentState])
        >>> ("core.order", "LineItem") in serde.allowed
        True
        >>> serde.loads_typed(serde.dumps_typed({"amount": 99}))
        {'amount': 99}
    """
    key = (os.environ if env is None else env).get(AES_KEY_ENV) or None
    models = list(models)
    return StrictSerializer(build_serde_allowlist(schemas=models), key, module_aliases(models))


def find_refused(
    value: Any, loc: tuple[str | int, ...] = ()
) -> list[tuple[tuple[str | int, ...], Refused]]:
    """Every `Refused` marker in a decoded value, with its location.

    Example:
        >>> find_refused({"messages": ["hi", Refused("os.system")]})
        [(('messages', 1), Refused(what='os.system'))]
    """
    if isinstance(value, Refused):
        return [(loc, value)]
    if isinstance(value, dict):
        return [hit for k, v in value.items() for hit in find_refused(v, (*loc, k))]
    if isinstance(value, list | tuple):
        return [hit for i, v in enumerate(value) for hit in find_refused(v, (*loc, i))]
    return []
