"""How the server is hosted: public mode, and who counts as a member of the host's team."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from core.errors import CodedError, ErrorCode
from core.project.checks import ProjectError
from core.project.load import CONFIG_FILE, playground_table

__all__ = [
    "MEMBERS_ENV",
    "PUBLIC_ENV",
    "Hosting",
    "hosting_or_closed",
    "members_only",
    "read_hosting",
    "sign_in_unavailable",
    "store_refusal",
]

PUBLIC_ENV = "PLAYGROUND_PUBLIC"
# Addresses or whole domains ("@example.com"), comma-separated: for hosts whose settings are
# environment variables only (Community Cloud's secrets); playground.toml's `members` wins.
MEMBERS_ENV = "PLAYGROUND_MEMBERS"
_TRUE, _FALSE = frozenset({"1", "true", "yes", "on"}), frozenset({"", "0", "false", "no", "off"})


@dataclass(frozen=True)
class Hosting:
    """Public mode and its allow-list, as the host configured them.

    In public mode, what the host configured (a store, writes to it, a project model or
    graph) is for signed-in members only; everyone else gets the seed order, the demo store
    and their own uploads.
    """

    public: bool = False
    members: tuple[str, ...] = ()  # lower-cased addresses, or "@domain" for a whole domain
    public_from: str = "default"  # "environment", "playground.toml" or "default"

    def admits(self, email: str | None, verified: object = None) -> bool:
        """Whether a signed-in visitor with `email` is one of the members.

        An address the provider says is not verified (`email_verified` false) never is: the
        allow-list trusts the provider's word for whose address it is.

        Example:
            >>> hosting = Hosting(True, ("ana@example.com", "@team.example"))
            >>> [hosting.admits(e) for e in ("Ana@Example.com", "bo@team.example", "x@x.example")]
            [True, True, False]
            >>> hosting.admits("bo@team.example", verified=False), hosting.admits(None)
            (False, False)
        """
        if not email or verified is False or email.count("@") != 1:
            return False
        email = email.strip().lower()
        domain = "@" + email.split("@", 1)[1]
        return any(member in (email, domain) for member in self.members)


def read_hosting(env: Mapping[str, str], cwd: Path | str) -> Hosting:
    """Public mode and members: `public = true` and `members = [...]` in playground.toml's
    [playground] table, else PLAYGROUND_PUBLIC and PLAYGROUND_MEMBERS.

    Raises `ProjectError` (`bad_config_file`) for a setting of the wrong type or value; a
    caller serving the public should then treat the server as public with no members.

    Example:
        >>> read_hosting({"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MEMBERS": "@Team.example"}, ".")
        Hosting(public=True, members=('@team.example',), public_from='environment')
        >>> read_hosting({}, "/nonexistent").public
        False
    """
    table = playground_table(Path(cwd) / CONFIG_FILE)
    public, source = table.get("public"), CONFIG_FILE
    if public is None:
        public, source = _flag(env.get(PUBLIC_ENV, "")), "environment"
        source = source if public else "default"
    if not isinstance(public, bool):
        raise ProjectError(
            ErrorCode.BAD_CONFIG_FILE,
            f"{CONFIG_FILE}: write public = true or public = false (without quotes).",
        )
    members = table.get("members")
    if members is None:
        members = [m for m in env.get(MEMBERS_ENV, "").split(",") if m.strip()]
    return Hosting(public, _members(members), source)


def _flag(value: str) -> bool:
    word = value.strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise ProjectError(
        ErrorCode.BAD_CONFIG_FILE,
        f"{PUBLIC_ENV} is neither 1 nor 0; set {PUBLIC_ENV}=1 for a public demo.",
    )


def _members(members: object) -> tuple[str, ...]:
    ok = isinstance(members, list) and all(
        isinstance(m, str) and m.strip().count("@") == 1 and not m.strip().endswith("@")
        for m in members
    )
    if not ok:
        raise ProjectError(
            ErrorCode.BAD_CONFIG_FILE,
            f'{CONFIG_FILE}: write members = ["ana@example.com", "@example.com"] (addresses, '
            "or a whole domain after an @); the same, comma-separated, in "
            f"{MEMBERS_ENV}.",
        )
    assert isinstance(members, list)  # for the type checker: `ok` said so
    return tuple(dict.fromkeys(m.strip().lower() for m in members))


def hosting_or_closed(env: Mapping[str, str], cwd: Path | str) -> tuple[Hosting, str | None]:
    """`read_hosting`, failing closed: a setting that cannot be read makes the server public
    with no members, and its message is returned for the server log.

    Example:
        >>> hosting_or_closed({"PLAYGROUND_PUBLIC": "maybe"}, "/nonexistent")[0]
        Hosting(public=True, members=(), public_from='an unreadable setting')
    """
    try:
        return read_hosting(env, cwd), None
    except ProjectError as error:
        return Hosting(True, (), "an unreadable setting"), str(error)


_SETTINGS = {
    "flag": "the --store flag",
    CONFIG_FILE: f"store in {CONFIG_FILE}",
    "environment": "PLAYGROUND_STORE",
}


def store_refusal(hosting: Hosting, sign_in: bool, store_from: str | None) -> CodedError | None:
    """Why a server must refuse to serve at all, or None: public, a store configured (from
    `store_from`: "flag", "playground.toml", "environment"), and no sign-in, so the store
    could reach only everyone or no one.

    Example:
        >>> error = store_refusal(Hosting(public=True), False, "environment")
        >>> str(error.code), "(PLAYGROUND_STORE)" in error.message
        ('public_store_without_sign_in', True)
        >>> store_refusal(Hosting(public=True), True, "environment") is None
        True
    """
    if not hosting.public or sign_in or store_from is None:
        return None
    return CodedError(
        ErrorCode.PUBLIC_STORE_WITHOUT_SIGN_IN,
        "This server is public and has a checkpoint store configured "
        f"({_SETTINGS.get(store_from, store_from)}), but no sign-in: a store is never served "
        "to anonymous visitors. Remove that setting, or add an [auth] section to "
        f".streamlit/secrets.toml (st.login) and list the members in {CONFIG_FILE} "
        '(members = ["you@example.com", "@example.com"]).',
    )


def members_only(what: str) -> CodedError:
    """What a visitor who is not a signed-in member is told when `what` (the server's
    store, its graph...) is asked for in public mode.

    Example:
        >>> str(members_only("The server's store"))[:50]
        "[members_only] The server's store is for the host'"
    """
    return CodedError(
        ErrorCode.MEMBERS_ONLY,
        f"{what} is for the host's signed-in team members on this public server; sign in "
        "with an address on its members list, or use the demo store and your own uploads.",
    )


def sign_in_unavailable() -> CodedError:
    """What a visitor is told when Streamlit cannot start the sign-in the host set up."""
    return CodedError(
        ErrorCode.SIGN_IN_UNAVAILABLE,
        "Sign-in is not available on this server right now (the server log says why); the "
        "public demo works without it.",
    )
