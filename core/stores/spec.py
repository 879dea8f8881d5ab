"""A store spec read once: what kind of store it names, what may be shown of it, what to open."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qsl, unquote, urlsplit

__all__ = ["StoreSpec", "parse_store_spec", "store_label"]

Kind = Literal["none", "sqlite", "postgres", "jdbc", "server", "unknown"]

# postgresql://, postgres://, any case, SQLAlchemy's +driver suffix, JDBC's jdbc: prefix
_PG_URL = re.compile(r"^(jdbc:)?postgres(?:ql)?(?:\+[a-z0-9_]+)?://", re.IGNORECASE)
_PG_KEYWORDS = re.compile(r"^[a-z_]+\s*=", re.IGNORECASE)  # libpq: "host=... password=..."
_SQLITE_URL = re.compile(r"^sqlite(?:\+[a-z0-9_]+)?:///", re.IGNORECASE)
_SERVER_URL = re.compile(r"^https?://", re.IGNORECASE)
_ANY_URL = re.compile(r"^([a-z][a-z0-9+.\-]{0,19})://", re.IGNORECASE)
_UNPARSED_DSN = "postgresql://(a DSN that cannot be parsed)"
_HOST = re.compile(r"[A-Za-z0-9._~%:\-]*(,[A-Za-z0-9._~%:\-]*)*")  # names, IPs, sockets' paths no
_PORT = re.compile(r"[0-9]*(,[0-9]*)*")


@dataclass(frozen=True)
class StoreSpec:
    """A store spec, parsed: `label` is the only part of it a message, log, page or link
    may show; `target` is what to open (it may hold a password: never shown)."""

    kind: Kind
    label: str
    target: str


def store_label(spec: str) -> str:
    """What may be said about a store: the file, user@host:port/db, or the server's URL.

    Example:
        >>> store_label("postgresql+psycopg://app:s3cret@db:5432/shop")
        'postgresql://app@db:5432/shop'
        >>> store_label("host=db.internal port=6543 user=app password=s3cret dbname=shop")
        'postgresql://app@db.internal:6543/shop'
        >>> store_label("sqlite:///runs/checkpoints.sqlite"), store_label("mysql://u:pw@db/x")
        ('runs/checkpoints.sqlite', 'a mysql:// URL')
    """
    return parse_store_spec(spec).label


def parse_store_spec(spec: str) -> StoreSpec:
    """Read `spec` (a SQLite path or URL, a PostgreSQL URL in any common form or a libpq
    keyword string, a LangGraph server's http(s) URL); never raises.

    What cannot be parsed is labelled by a placeholder, never as given.

    Example:
        >>> parse_store_spec("  PostgreSQL://app:x@secret@db/shop ").label
        'postgresql://app@db:5432/shop'
        >>> parse_store_spec("jdbc:postgresql://db:5432/shop?user=app&password=pw").kind
        'jdbc'
    """
    text = spec.strip()
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
        return StoreSpec("unknown", f"a {other.group(1).lower()}:// URL", text)
    if "://" in text:
        return StoreSpec("unknown", "a URL of an unknown kind", text)
    return StoreSpec("sqlite", text, text)


def _postgres_url(text: str) -> StoreSpec:
    jdbc = text[:5].lower() == "jdbc:"
    rest = text[_PG_URL.match(text).end() :]  # type: ignore[union-attr]
    # user:password@ ends at the last "@" (a password may hold "@", "/" or "?"), unless that
    # "@" is in the query's key=value text (?application_name=a@b)
    at = rest.rfind("@")
    while at >= 0 and (query_at := rest.rfind("?", 0, at)) >= 0 and "=" in rest[query_at:at]:
        at = rest.rfind("@", 0, query_at)
    userinfo, hosts = (rest[:at], rest[at + 1 :]) if at >= 0 else ("", rest)
    hosts, _, query = hosts.partition("?")
    hosts, _, dbname = hosts.partition("/")
    user, _, password = userinfo.partition(":")
    try:
        params = dict(parse_qsl(query, keep_blank_values=True))
    except ValueError:
        return StoreSpec("jdbc" if jdbc else "postgres", _UNPARSED_DSN, text)
    params = {"user": unquote(user), "password": unquote(password), **params}
    names, ports = _hosts(hosts)
    if not _HOST.fullmatch(names) or not _PORT.fullmatch(ports):
        # not a host list: the text was split in the wrong place, so it may hold a secret
        return StoreSpec("jdbc" if jdbc else "postgres", _UNPARSED_DSN, text)
    given = {"host": names, "port": ports, "dbname": unquote(dbname)}
    params |= {key: value for key, value in given.items() if value}  # else the query's
    label = _pg_label(params)
    target = _conninfo({k: v for k, v in params.items() if v})
    return StoreSpec("jdbc" if jdbc else "postgres", label, target)


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
        return StoreSpec("postgres", _UNPARSED_DSN, text)
    return StoreSpec("postgres", _pg_label(params), text)


def _pg_label(params: dict[str, str]) -> str:
    user = f"{params['user']}@" if params.get("user") else ""
    host, port = params.get("host") or "localhost", params.get("port") or "5432"
    return f"postgresql://{user}{host}:{port}/{params.get('dbname') or ''}"


def _conninfo(params: dict[str, str]) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo("", **params)


def _server(text: str) -> StoreSpec:
    try:
        url = urlsplit(text)
        port = f":{url.port}" if url.port else ""
    except ValueError:
        return StoreSpec("server", "a LangGraph server URL that cannot be parsed", text)
    host = url.hostname or ""
    host = f"[{host}]" if ":" in host else host
    path = url.path.rstrip("/")
    return StoreSpec("server", f"{url.scheme.lower()}://{host}{port}{path}", text)
