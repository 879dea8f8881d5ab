"""A store spec read once: what kind of store it names, what may be shown of it, what to open."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal
from urllib.parse import parse_qsl, unquote, urlsplit

from core.words import article

__all__ = ["StoreSpec", "mask_secrets", "parse_store_spec", "store_label"]

Kind = Literal["none", "sqlite", "postgres", "jdbc", "server", "unknown"]

# postgresql://, postgres://, any case, SQLAlchemy's +driver suffix, JDBC's jdbc: prefix
_PG_URL = re.compile(r"^(jdbc:)?postgres(?:ql)?(?:\+[a-z0-9_]+)?://", re.IGNORECASE)
_PG_KEYWORDS = re.compile(r"^[a-z_]+\s*=", re.IGNORECASE)  # libpq: "host=... password=..."
_SQLITE_URL = re.compile(r"^sqlite(?:\+[a-z0-9_]+)?:///", re.IGNORECASE)
_SERVER_URL = re.compile(r"^https?://", re.IGNORECASE)
_ANY_URL = re.compile(r"^([a-z][a-z0-9+.\-]{0,19})://", re.IGNORECASE)
_QUERY_KEY = re.compile(r"([a-z_]+)=", re.IGNORECASE)
_UNPARSED_DSN = "postgresql://(a DSN that cannot be parsed)"
_UNPARSED_SERVER = "a LangGraph server URL that cannot be parsed"
# what a label hidden whole still says: the kind of store
_HIDDEN = {"postgres": "a PostgreSQL DSN", "jdbc": "a PostgreSQL DSN", "sqlite": "a SQLite path",
           "server": "a LangGraph server URL"}  # fmt: skip
_ENCODE = (
    "percent-encode the password (@ : / ? # & as %40 %3A %2F %3F %23 %26) or write "
    "host=... user=... password='...' dbname=..."
)
_HOST = re.compile(r"[A-Za-z0-9._~%:\-]*(,[A-Za-z0-9._~%:\-]*)*")  # names, IPs, sockets' paths no
_PORT = re.compile(r"[0-9]*(,[0-9]*)*")
# key=value whose value may be a secret, in a libpq string or a URL's query: quoted, or up to
# the next space (an "&" written as it is may be part of the password)
_SECRET_VALUE = re.compile(
    r"(?:pass\w*|pwd|\w*secret\w*|\w*key)\s*=\s*('(?:[^'\\]|\\.)*'?|\S*)", re.IGNORECASE
)
_DELIMITERS = re.compile(r"""[&?=/:@#;,\s'"\\\[\]]+""")  # where a grammar splits a spec
_FRAGMENT = 4  # this many characters of a password, shown, are a leak (fewer: a guess)


@dataclass(frozen=True)
class StoreSpec:
    """A store spec, parsed: `label` is the only part of it a message, log, page or link
    may show; `target` is what to open (it may hold a password: never shown); `problem`,
    when not empty, why it cannot be opened as given (it quotes no part of it)."""

    kind: Kind
    label: str
    target: str
    problem: str = ""


def store_label(spec: str) -> str:
    """What may be said about a store: the file, user@host:port/db, or the server's URL.

    Never raises, and never shows a piece of a password, whatever `spec` holds.

    Example:
        >>> store_label("postgresql+psycopg://app:s3cret@db:5432/shop")
        'postgresql://app@db:5432/shop'
        >>> store_label("host=db.internal port=6543 user=app password=s3cret dbname=shop")
        'postgresql://app@db.internal:6543/shop'
        >>> store_label("sqlite:///runs/checkpoints.sqlite"), store_label("mysql://u:pw@db/x")
        ('runs/checkpoints.sqlite', 'a mysql:// URL')
        >>> store_label("http://app:tok3n/x@langgraph:2024")  # a "/" in a password
        'a LangGraph server URL that cannot be parsed'
    """
    return parse_store_spec(spec).label


def parse_store_spec(spec: str) -> StoreSpec:
    """Read `spec` (a SQLite path or URL, a PostgreSQL URL in any common form or a libpq
    keyword string, a LangGraph server's http(s) URL); never raises.

    What cannot be parsed is labelled by a placeholder, never as given, and carries a
    `problem`; so is a label that would hold a piece of a possible password (4 characters
    or more of it that the rest of `spec` does not also hold), whichever way it is read.

    Example:
        >>> parse_store_spec("  PostgreSQL://app:x@secret@db/shop ").label
        'postgresql://app@db:5432/shop'
        >>> parse_store_spec("jdbc:postgresql://db:5432/shop?user=app&password=pw").kind
        'jdbc'
        >>> parse_store_spec("postgresql://db/x?user=app&password=ab&Q9zK=c").problem.split(";")[0]
        "its query holds a parameter libpq does not know (a password's & or ?, for one)"
    """
    text = spec.strip()
    try:
        parsed = _parse(text)
    except Exception:  # noqa: BLE001 - a reading not foreseen here is refused by name, never
        # a traceback: a driver's or the parser's own text may quote the password
        parsed = StoreSpec("unknown", "", text, f"it cannot be read as a store; {_ENCODE}.")
    if not parsed.label or _fragments(parsed.label, text):
        # the text was read so that part of a password stands where a host or path goes
        shown = _HIDDEN.get(parsed.kind, "a store spec")
        parsed = replace(parsed, label=f"{shown} (not shown: part of it may be a password)")
    return parsed


def mask_secrets(message: str, spec: str) -> str:
    """`message` as it may be said where `spec` is given: each possible password of `spec`
    it quotes, whole or a part of it between the characters URLs and libpq strings split
    on (& ? = / : @ and the like), as `***` (parts of 4 or more characters that are not
    also elsewhere in `spec`).

    For text the playground does not write itself: a driver's error quotes what it was given.

    Example:
        >>> mask_secrets('invalid connection option "Q9zK2"', "postgresql://db?password=a&Q9zK2=1")
        'invalid connection option "***"'
        >>> mask_secrets("postgresql://postgres@db:5432/x", "postgresql://postgres:postgres@db/x")
        'postgresql://postgres@db:5432/x'
    """
    text = spec.strip()
    for start, end in _secret_spans(text):
        before, after = text[:start], text[end:]
        for secret in {text[start:end], unquote(text[start:end])}:
            # a driver quotes what its grammar split off (the name after an "&"), not any
            # 4 characters: those are in paths and numbers too ("t-47" of "pytest-47")
            parts = {secret, *_DELIMITERS.split(secret)}
            for part in sorted(parts, key=len, reverse=True):
                if len(part) >= _FRAGMENT and part not in before and part not in after:
                    message = message.replace(part, "***")
    return message


def _parse(text: str) -> StoreSpec:
    if not text:
        return StoreSpec("none", "(no store)", "")
    if _PG_URL.match(text):
        return _postgres_url(text)
    if _PG_KEYWORDS.match(text):
        return _postgres_keywords(text)
    if _SERVER_URL.match(text):
        return _server(text)
    if (sqlite := _SQLITE_URL.match(text)) is not None:
        path = text[sqlite.end() :]
        return StoreSpec("sqlite", path, path)
    if (other := _ANY_URL.match(text)) is not None:
        return StoreSpec("unknown", f"{article(other.group(1).lower() + '://')} URL", text)
    if "://" in text:
        return StoreSpec("unknown", "a URL of an unknown kind", text)
    if _secret_spans(text):  # user:password@ or password= without a form read here
        return StoreSpec("unknown", "", text)
    return StoreSpec("sqlite", text, text)


def _postgres_url(text: str) -> StoreSpec:
    kind: Kind = "jdbc" if text[:5].lower() == "jdbc:" else "postgres"
    userinfo, hosts = _split_userinfo(text[_PG_URL.match(text).end() :])  # type: ignore[union-attr]
    hosts, _, query = hosts.partition("?")
    hosts, _, dbname = hosts.partition("/")
    user, _, password = userinfo.partition(":")
    names, ports = _hosts(hosts)
    if not _HOST.fullmatch(names) or not _PORT.fullmatch(ports):
        # not a host list: the text was split in the wrong place, so it may hold a secret
        return StoreSpec(kind, _UNPARSED_DSN, text, f"the DSN cannot be parsed; {_ENCODE}.")
    pairs = parse_qsl(query, keep_blank_values=True)
    params = {"user": unquote(user), "password": unquote(password), **dict(pairs)}
    given = {"host": names, "port": ports, "dbname": unquote(dbname)}
    params |= {key: value for key, value in given.items() if value}  # else the query's
    label = _pg_label(params)
    if any(key not in _libpq_keywords() for key, _ in pairs):
        # libpq's own error quotes the unknown name: a piece of the password after its "&"
        why = "its query holds a parameter libpq does not know (a password's & or ?, for one)"
        return StoreSpec(kind, label, text, f"{why}; {_ENCODE}.")
    target = _conninfo({k: v for k, v in params.items() if v})
    return StoreSpec(kind, label, target)


def _split_userinfo(rest: str) -> tuple[str, str]:
    """`user:password@hosts...` -> (user:password, hosts...): the credentials end at the last
    "@" (a password may hold "@", "/" or "?"), unless that "@" is in a query's value
    (?application_name=a@b, a name libpq knows)."""
    at = rest.rfind("@")
    while at >= 0 and (query_at := rest.rfind("?", 0, at)) >= 0:
        key = _QUERY_KEY.match(rest, query_at + 1, at)
        if key is None or key.group(1) not in _libpq_keywords():
            break
        at = rest.rfind("@", 0, query_at)
    return (rest[:at], rest[at + 1 :]) if at >= 0 else ("", rest)


@cache
def _libpq_keywords() -> frozenset[str]:
    from psycopg import pq

    return frozenset(option.keyword.decode() for option in pq.Conninfo.get_defaults())


def _hosts(hosts: str) -> tuple[str, str]:
    """`h1:5432,[::1]:5433` -> ("h1,::1", "5432,5433"): libpq's host and port lists."""
    names, ports = [], []
    for part in hosts.split(","):
        name, port = part, ""
        if part.startswith("[") and "]" in part:
            name, _, after = part[1:].partition("]")
            port = after.removeprefix(":")
        elif ":" in part:
            name, _, port = part.rpartition(":")
        names.append(unquote(name))
        ports.append(port)
    return ",".join(names).strip(","), ",".join(ports).strip(",")


def _postgres_keywords(text: str) -> StoreSpec:
    from psycopg.conninfo import conninfo_to_dict

    try:
        params = {k: str(v) for k, v in conninfo_to_dict(text).items()}
    except Exception:  # noqa: BLE001 - the driver's message may quote the DSN, password included
        why = r"the libpq string cannot be parsed; quote a value: password='it\'s 2 words'"
        return StoreSpec("postgres", _UNPARSED_DSN, text, f"{why}.")
    return StoreSpec("postgres", _pg_label(params), text)


def _pg_label(params: dict[str, str]) -> str:
    user = f"{params['user']}@" if params.get("user") else ""
    host, port = params.get("host") or "localhost", params.get("port") or "5432"
    return f"postgresql://{user}{host}:{port}/{params.get('dbname') or ''}"


def _conninfo(params: dict[str, str]) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo("", **params)


def _server(text: str) -> StoreSpec:
    scheme, _, rest = text.partition("://")
    at = rest.rfind("@")
    if at >= 0 and any(mark in rest[:at] for mark in "/?#"):
        # a password holding "/", "?" or "#", or an "@" in the path: either reading could
        # show a piece of a password as the host or the path
        return StoreSpec("server", _UNPARSED_SERVER, text)
    try:
        url = urlsplit(f"{scheme}://{rest[at + 1 :]}")  # without user:password@
        port = f":{url.port}" if url.port else ""
    except ValueError:
        return StoreSpec("server", _UNPARSED_SERVER, text)
    host = url.hostname or ""
    host = f"[{host}]" if ":" in host else host
    path = url.path.rstrip("/")
    return StoreSpec("server", f"{url.scheme.lower()}://{host}{port}{path}", text)


def _secret_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` may hold a password, read every way it could be: from the first ":"
    after the scheme to the last "@" (user:password@, whichever "@" ends it), and the value
    of each password=, secret= or key= pair."""
    scheme = text.find("://")
    colon, at = text.find(":", scheme + 3 if scheme >= 0 else 0), text.rfind("@")
    spans = [(colon + 1, at)] if 0 <= colon < at else []
    spans += [match.span(1) for match in _SECRET_VALUE.finditer(text)]
    if scheme >= 0:  # in a URL's query a value runs to the next "&", spaces and all
        spans += [(m.start(1), _query_end(text, m.start(1))) for m in _SECRET_VALUE.finditer(text)]
    return [(start, end) for start, end in spans if end - start >= _FRAGMENT]


def _query_end(text: str, start: int) -> int:
    """Where a URL query's value that starts at `start` ends: its "&", its "#", or the end."""
    ends = [at for at in (text.find("&", start), text.find("#", start)) if at >= 0]
    return min(ends, default=len(text))


def _fragments(shown: str, text: str) -> list[str]:
    """The pieces of `text`'s possible passwords that `shown` holds: each at least
    `_FRAGMENT` characters long and found nowhere else in `text` (a user named as their
    password is still shown as the user)."""
    found = []
    for start, end in _secret_spans(text):
        before, after = text[:start], text[end:]
        for secret in {text[start:end], unquote(text[start:end])}:
            for first in range(len(secret) - _FRAGMENT + 1):
                piece = secret[first : first + _longest_shown(secret, first, shown)]
                # a longer piece is elsewhere in the text less often: the longest decides
                if len(piece) >= _FRAGMENT and piece not in before and piece not in after:
                    found.append(piece)
    return found


def _longest_shown(secret: str, first: int, shown: str) -> int:
    """The length of the longest piece of `secret` from `first` on that `shown` holds."""
    low, high = 0, len(secret) - first  # secret[first:first + low] is in shown
    while low < high:
        middle = (low + high + 1) // 2
        if secret[first : first + middle] in shown:
            low = middle
        else:
            high = middle - 1
    return low
