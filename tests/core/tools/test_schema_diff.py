"""core.tools.schema_diff: every rewrite between two hand-written schemas, in order."""

from core.tools.schema_diff import Rewrite, diff_schemas


def test_the_diff_notices_a_change_it_was_not_told_about():
    before = {"type": "object", "properties": {"a": {"type": "string", "title": "A"}}}
    after = {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "additionalProperties": False,
    }
    assert diff_schemas(before, after) == [
        Rewrite("type_changed", "/properties/a", "'string' -> 'integer'"),
        Rewrite("title_dropped", "/properties/a", "title 'A' removed"),
        Rewrite("additional_properties_closed", "/", "(absent) -> false"),
    ]


def test_shape_changes_are_undone_before_keywords_are_compared():
    item = {"type": "object", "properties": {"sku": {"type": "string", "minLength": 3}}}
    before = {
        "$defs": {"Item": {**item, "title": "Item"}},
        "type": "object",
        "properties": {
            "item": {"$ref": "#/$defs/Item"},
            "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "kind": {"const": "order"},
        },
    }
    inlined = {
        "type": "object",
        "properties": {"sku": {"type": "string", "description": "minLength=3"}},
    }
    after = {
        "type": "object",
        "properties": {
            "item": inlined,
            "note": {"type": "string", "nullable": True},
            "kind": {"enum": ["order"]},
        },
        "required": ["item", "note", "kind"],
    }
    assert diff_schemas(before, after) == [
        Rewrite("defs_inlined", "/", "$defs removed: Item"),
        Rewrite("ref_inlined", "/properties/item", "$ref #/$defs/Item replaced by its definition"),
        Rewrite("constraint_to_description", "/properties/item/properties/sku", "minLength=3"),
        Rewrite("title_dropped", "/properties/item", "title 'Item' removed"),
        Rewrite("nullable", "/properties/note", "anyOf [X, null] became X with nullable: true"),
        Rewrite("default_dropped", "/properties/note", "default None removed"),
        Rewrite("const_to_enum", "/properties/kind", "const 'order' -> enum ['order']"),
        Rewrite("required_added", "/", "now required: item, note, kind"),
    ]


def test_a_union_that_lost_members_counts_them_in_the_form_each_number_takes():
    before = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    after = {"anyOf": [{"type": "string"}]}
    assert diff_schemas(before, after) == [
        Rewrite("members_changed", "/anyOf", "2 members -> 1 member")
    ]


def test_a_ref_wrapped_in_anyof_says_why():
    before = {"properties": {"a": {"$ref": "#/$defs/A", "description": "d"}}}
    after = {"properties": {"a": {"anyOf": [{"$ref": "#/$defs/A"}], "description": "d"}}}
    assert diff_schemas(before, after) == [
        Rewrite(
            "ref_wrapped",
            "/properties/a",
            "$ref #/$defs/A moved into anyOf: it had sibling keywords",
        )
    ]


def test_identical_schemas_have_no_rewrites():
    schema = {"type": "object", "properties": {"a": {"type": "integer", "minimum": 0}}}
    assert diff_schemas(schema, {**schema}) == []
