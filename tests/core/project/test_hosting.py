"""Public mode and members as the host sets them: playground.toml first, then the environment."""

from __future__ import annotations

import pytest

from core.project.checks import ProjectError
from core.project.hosting import Hosting, hosting_or_closed, read_hosting, store_refusal
from core.redact import redact


def _config(tmp_path, text: str):
    (tmp_path / "playground.toml").write_text("[playground]\n" + text)
    return tmp_path


@pytest.mark.parametrize(
    ("toml", "env", "expected"),
    [
        ("", {}, Hosting(False, (), "default")),
        ("", {"PLAYGROUND_PUBLIC": "1"}, Hosting(True, (), "environment")),
        ("", {"PLAYGROUND_PUBLIC": " Yes "}, Hosting(True, (), "environment")),
        ("", {"PLAYGROUND_PUBLIC": "0"}, Hosting(False, (), "default")),
        ("public = true\n", {"PLAYGROUND_PUBLIC": "0"}, Hosting(True, (), "playground.toml")),
        ("public = false\n", {"PLAYGROUND_PUBLIC": "1"}, Hosting(False, (), "playground.toml")),
        (
            'public = true\nmembers = ["Ana@Example.com", "@Team.example", "ana@example.com"]\n',
            {"PLAYGROUND_MEMBERS": "x@y.example"},
            Hosting(True, ("ana@example.com", "@team.example"), "playground.toml"),
        ),
        (
            "",
            {"PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MEMBERS": " a@b.example, ,@c.example "},
            Hosting(True, ("a@b.example", "@c.example"), "environment"),
        ),
    ],
)
def test_public_mode_and_members_come_from_playground_toml_then_the_environment(
    tmp_path, toml, env, expected
):
    assert read_hosting(env, _config(tmp_path, toml)) == expected


@pytest.mark.parametrize(
    ("toml", "env", "said"),
    [
        ('public = "yes"\n', {}, "write public = true or public = false"),
        ("", {"PLAYGROUND_PUBLIC": "maybe"}, "PLAYGROUND_PUBLIC is neither 1 nor 0"),
        ('members = "ana@example.com"\n', {}, "write members = ["),
        ('members = ["ana"]\n', {}, "write members = ["),
        ('members = ["ana@"]\n', {}, "write members = ["),
        ("public = \n", {}, "cannot be read as TOML"),
    ],
)
def test_a_setting_that_cannot_be_read_makes_the_server_public_with_no_members(
    tmp_path, toml, env, said
):
    where = _config(tmp_path, toml)
    with pytest.raises(ProjectError) as raised:
        read_hosting(env, where)
    assert raised.value.code == "bad_config_file" and said in raised.value.message
    assert hosting_or_closed(env, where) == (
        Hosting(True, (), "an unreadable setting"),
        str(raised.value),
    )


@pytest.mark.parametrize(
    ("email", "verified", "member"),
    [
        ("ana@example.com", None, True),
        ("ANA@example.com", True, True),
        ("ana@example.com", False, False),
        ("bo@team.example", None, True),
        ("bo@sub.team.example", None, False),  # a domain entry is that domain, not its children
        ("bo@team.example.evil", None, False),
        ("ana@example.com@evil.example", None, False),
        ("", None, False),
        (None, None, False),
    ],
)
def test_members_are_whole_addresses_or_whole_domains_and_verified_when_the_provider_says(
    email, verified, member
):
    hosting = Hosting(True, ("ana@example.com", "@team.example"))
    assert hosting.admits(email, verified) is member


@pytest.mark.parametrize(
    ("hosting", "sign_in", "store_from", "refused"),
    [
        (Hosting(True), False, "flag", "(the --store flag)"),
        (Hosting(True), False, "playground.toml", "(store in playground.toml)"),
        (Hosting(True), False, "environment", "(PLAYGROUND_STORE)"),
        (Hosting(True), True, "environment", None),
        (Hosting(True), False, None, None),
        (Hosting(False), False, "environment", None),
    ],
)
def test_only_a_public_server_with_a_store_and_no_sign_in_refuses(
    hosting, sign_in, store_from, refused
):
    error = store_refusal(hosting, sign_in, store_from)
    assert (error and error.message.split(": ")[0].split("configured ")[1]) == (
        refused and f"{refused}, but no sign-in"
    )


@pytest.mark.parametrize(
    "password", ["hunter2", "p@ss:w/rd", "a'b\"c", "x y z", "Q9zK2&x?y#z", "%40%3A"]
)
def test_redact_cuts_every_url_password_and_key_value_secret(password):
    texts = [
        f"could not connect with postgresql://app:{password}@db:5432/shop",
        f"host=db user=app password={password!r} dbname=shop",
        f"api_key: {password}",
    ]
    for text in texts:
        assert password not in redact(text)
    assert redact("the key LONGSECRET leaked", known=["LONGSECRET"]) == "the key *** leaked"
