"""Types stored under a server's module name for a graph file read as the user's own, safely."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import ormsgpack
import pytest
from langgraph.checkpoint.serde.jsonplus import (
    EXT_CONSTRUCTOR_SINGLE_ARG,
    EXT_DELTA_SNAPSHOT,
    EXT_METHOD_SINGLE_ARG,
    JsonPlusSerializer,
)

from core.lg_compat import build_serde_allowlist
from core.lg_compat import msgpack_encode as _msgpack_enc
from core.stores.aliases import module_aliases, rewrite_modules, server_module_names

# A user's graph file, as langgraph dev imports it (under "__graph") and as the playground
# does (under its own name): a dataclass holding models, each holding a list of models.
USER_GRAPH = """
import dataclasses
from datetime import datetime
from pydantic import BaseModel, Field

CALLED = []


def side_effect(arg):
    CALLED.append(arg)


class Line(BaseModel):
    sku: str = Field(pattern=r"^[A-Z]{3}-[0-9]{3}$")
    qty: int = Field(ge=1, le=10)


class Order(BaseModel):
    lines: list[Line]
    placed: datetime


@dataclasses.dataclass
class Basket:
    orders: list[Order]


class State(BaseModel):
    basket: Basket | None = None
    lines: list[Line] = []
"""
PLACED = "2026-01-02T03:04:05"


def _load(name: str, file: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def graph_file(tmp_path: Path) -> Path:
    file = tmp_path / "proj" / "src" / "agent" / "graph.py"
    file.parent.mkdir(parents=True)
    file.write_text(USER_GRAPH)
    return file


@pytest.fixture
def user(graph_file, monkeypatch) -> ModuleType:
    """The user's module as the playground imports it."""
    return _load("shop_graph", graph_file, monkeypatch)


def _server_written(graph_file: Path, value_of, monkeypatch) -> tuple[str, bytes]:
    """What the server stores: the same file imported as "__graph", serialized by LangGraph;
    the "__graph" module is gone again before anything is read back."""
    with monkeypatch.context() as server:
        served = _load("__graph", graph_file, server)
        stored = JsonPlusSerializer().dumps_typed(value_of(served))
    assert "__graph" not in sys.modules
    return stored


def _basket(module: ModuleType):
    line = module.Line(sku="ABC-123", qty=2)
    order = module.Order(lines=[line, module.Line(sku="XYZ-001", qty=1)], placed=PLACED)
    return {"basket": module.Basket(orders=[order]), "lines": [line], "notes": ["__graph"]}


def _strict(models: list[type]) -> JsonPlusSerializer:
    return JsonPlusSerializer(
        pickle_fallback=False,
        allowed_json_modules=None,
        allowed_msgpack_modules=build_serde_allowlist(schemas=models),
    )


def test_every_spelling_of_the_graph_path_names_the_file_after_each_parent():
    assert server_module_names("/x/proj/src/agent/graph.py") == {
        "__graph",
        "__agent__graph",
        "agent__graph",
        "__src__agent__graph",
        "src__agent__graph",
        "__proj__src__agent__graph",
        "proj__src__agent__graph",
        "__x__proj__src__agent__graph",
        "x__proj__src__agent__graph",
    }


def test_aliases_map_each_server_name_of_the_users_file_to_its_real_module(user, graph_file):
    names = server_module_names(str(graph_file))
    assert {"__graph", "__agent__graph", "agent__graph"} <= names
    assert module_aliases([user.State]) == dict.fromkeys(names, "shop_graph")


def test_a_name_two_user_files_could_both_have_is_left_out(tmp_path, monkeypatch):
    for shop in ("north", "south"):
        (tmp_path / shop).mkdir()
        (tmp_path / shop / "graph.py").write_text(USER_GRAPH)
    north = _load("north_graph", tmp_path / "north" / "graph.py", monkeypatch)
    south = _load("south_graph", tmp_path / "south" / "graph.py", monkeypatch)
    aliases = module_aliases([north.State, south.State])
    assert "__graph" not in aliases
    assert (aliases["north__graph"], aliases["__south__graph"]) == ("north_graph", "south_graph")
    assert set(aliases.values()) == {"north_graph", "south_graph"}


def test_server_written_nested_models_are_read_by_langgraphs_strict_decoder_as_the_users(
    user, graph_file, monkeypatch
):
    type_, stored = _server_written(graph_file, _basket, monkeypatch)
    strict = _strict([user.State])
    assert strict.loads_typed((type_, rewrite_modules(stored, module_aliases([user.State])))) == (
        _basket(user)
    )
    # without the rewrite the allow-list refuses "__graph": only the raw arguments remain
    line = {"sku": "ABC-123", "qty": 2}
    assert strict.loads_typed((type_, stored)) == {
        "basket": {
            "orders": [
                {
                    "lines": [line, {"sku": "XYZ-001", "qty": 1}],
                    "placed": user.Order(lines=[], placed=PLACED).placed,
                }
            ]
        },
        "lines": [line],
        "notes": ["__graph"],
    }


def test_a_value_naming_no_alias_is_returned_as_the_same_bytes_object(user, graph_file):
    aliases = module_aliases([user.State])
    plain = JsonPlusSerializer().dumps_typed(
        {"status": "new", "lines": [user.Line(sku="ABC-123", qty=1)]}
    )[1]
    text_only = ormsgpack.packb({"notes": ["__graph", "agent__graph"]})  # the bytes, no module
    delta = ormsgpack.packb(ormsgpack.Ext(EXT_DELTA_SNAPSHOT, ormsgpack.packb(["__graph"])))
    for payload in (plain, text_only, delta):
        assert rewrite_modules(payload, aliases) is payload


def test_only_the_module_is_renamed_and_every_other_value_is_packed_back_equal(user):
    aliases = {"__graph": "shop_graph"}
    other = {1: b"\x00raw", 2.5: [None, True, -(2**63), 2**64 - 1, 0.1], "k": {"nested": []}}
    stored = ormsgpack.packb(
        [other, ormsgpack.Ext(5, _msgpack_enc(("__graph", "Line", other, "model_validate_json")))],
        option=ormsgpack.OPT_NON_STR_KEYS,
    )
    named = []

    def hook(code, data):
        named.append((code, ormsgpack.unpackb(data, option=ormsgpack.OPT_NON_STR_KEYS)))

    rewritten = rewrite_modules(stored, aliases)
    assert ormsgpack.unpackb(rewritten, ext_hook=hook, option=ormsgpack.OPT_NON_STR_KEYS) == [
        other,
        None,
    ]
    assert named == [(5, ["shop_graph", "Line", other, "model_validate_json"])]


def test_a_crafted_value_under_an_alias_is_still_refused_by_the_allow_list(user):
    aliases = module_aliases([user.State])
    assert set(aliases.values()) == {"shop_graph"}  # only the user's own module is a target
    crafted = ormsgpack.packb(
        [
            ormsgpack.Ext(EXT_CONSTRUCTOR_SINGLE_ARG, _msgpack_enc(("__graph", "side_effect", 1))),
            ormsgpack.Ext(EXT_METHOD_SINGLE_ARG, _msgpack_enc(("__graph", "Line", 2, "__new__"))),
            ormsgpack.Ext(EXT_CONSTRUCTOR_SINGLE_ARG, _msgpack_enc(("__os", "system", "true"))),
            ormsgpack.Ext(EXT_CONSTRUCTOR_SINGLE_ARG, _msgpack_enc(("os", "system", "true"))),
        ]
    )
    read = _strict([user.State]).loads_typed(("msgpack", rewrite_modules(crafted, aliases)))
    assert (read, user.CALLED) == ([1, 2, "true", "true"], [])
    assert "__os" not in sys.modules


def test_a_deep_or_malformed_value_is_left_to_the_normal_decoder(user):
    aliases = {"__graph": "shop_graph"}
    deep = _msgpack_enc(("__graph", "Line", {"sku": "ABC-123", "qty": 1}, "model_validate_json"))
    deep = ormsgpack.packb(ormsgpack.Ext(5, deep))
    for _ in range(2000):
        deep = ormsgpack.packb(ormsgpack.Ext(EXT_DELTA_SNAPSHOT, deep))
    nested_lists = b"\x91" * 100_000 + b"\xa7__graph"
    malformed = b"\xc1\xa7__graph"
    for payload in (deep, nested_lists, malformed):
        assert rewrite_modules(payload, aliases) is payload


@pytest.mark.server  # runs langgraph-api's own graph loader (in a subprocess: it reads env)
def test_every_name_langgraph_api_gives_the_file_is_one_we_expect(graph_file):
    proj = graph_file.parents[2]
    spellings = ["./src/agent/graph.py", "src/agent/graph.py", "../proj/src/agent/graph.py"]
    loader = textwrap.dedent(f"""
        import json, os, sys
        from langgraph_api.graph import GraphSpec, _graph_from_spec
        for path in {[*spellings, str(graph_file)]!r}:
            try:
                _graph_from_spec(GraphSpec(id="g", path=path, variable="State"))
            except Exception:  # not a graph: the file was imported, under its name, first
                pass
        files = {{n: os.path.abspath(getattr(m, "__file__", None) or "-") for n, m in sys.modules.items()}}
        names = [name for name, file in files.items() if file == {str(graph_file)!r}]
        print(json.dumps(sorted(names)))
    """)
    env = {**os.environ, "REDIS_URI": "fake", "DATABASE_URI": ":memory:"}
    env |= {"MIGRATIONS_PATH": "__inmem", "LANGGRAPH_RUNTIME_EDITION": "inmem"}
    done = subprocess.run(
        [sys.executable, "-c", loader], cwd=proj, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    absolute = "__" + str(graph_file).strip("/").replace("/", "__").removesuffix(".py")
    # "../proj/src/..." is named as "./proj/src/..." is: leading dots are stripped
    assert json.loads(done.stdout.splitlines()[-1]) == sorted(
        ["__src__agent__graph", "src__agent__graph", "__proj__src__agent__graph", absolute]
    )
    assert set(json.loads(done.stdout.splitlines()[-1])) <= server_module_names(str(graph_file))
