"""Secrets out of a text before it is shown or logged: URL passwords, key=value secrets."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

__all__ = ["SECRET_ENVS", "redact", "secrets_of"]

# The server's settings that may hold a secret whole (a DSN, a key): their values are cut out
# of any text wherever they appear, whatever their shape.
SECRET_ENVS = (
    "PLAYGROUND_STORE",
    "LANGGRAPH_AES_KEY",
    "LANGGRAPH_API_KEY",
    "LANGSMITH_API_KEY",
    "DATABASE_URL",
)
_HIDDEN = "***"
# scheme://user:password@host — the password runs to the last "@" of the line, so one
# holding "@", ":", "/", a quote or a space is cut whole (more is cut, never less)
_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][\w+.\-]*://[^\s:/@'\"]*:)[^\n]*@")
# libpq's and most drivers' key=value forms: password=..., password='...', api_key: ...
_KEY_VALUE = re.compile(
    r"(?P<head>\b(?:password|passwd|pwd|secret|token|api[_-]?key|client_secret|cookie_secret)"
    r"\s*[=:]\s*)(?:'(?:[^'\\]|\\.)*'?|\"(?:[^\"\\]|\\.)*\"?|[^\s,;&)]+)",
    re.IGNORECASE,
)


def secrets_of(env: Mapping[str, str], names: Iterable[str] = SECRET_ENVS) -> tuple[str, ...]:
    """The values of the secret-holding settings that are set (at least 4 characters).

    Example:
        >>> secrets_of({"LANGGRAPH_API_KEY": "lsv2-abc", "HOME": "/root", "DATABASE_URL": ""})
        ('lsv2-abc',)
    """
    return tuple(v for name in names if len(v := env.get(name, "").strip()) >= 4)


def redact(text: str, known: Iterable[str] = ()) -> str:
    """`text` with every URL password, `password=`-style value and `known` secret replaced by
    `***`. Never raises.

    Example:
        >>> redact("could not connect with postgresql://app:hun@ter2@db:5432/shop")
        'could not connect with postgresql://app:***@db:5432/shop'
        >>> redact("host=db password='a b' user=app", known=["s3cr3t"])
        'host=db password=*** user=app'
        >>> redact("key s3cr3t!", known=["s3cr3t"])
        'key ***!'
    """
    for secret in sorted({s for s in known if s}, key=len, reverse=True):
        text = text.replace(secret, _HIDDEN)
    text = _URL_PASSWORD.sub(lambda m: m["head"] + _HIDDEN + "@", text)
    return _KEY_VALUE.sub(lambda m: m["head"] + _HIDDEN, text)
