"""The names of Django's that tournament/prepared.py relies on and Django does not document: each
one is still there (a Django upgrade that drops or renames one fails here, not in the hall), and
each is listed beside the Django pin in pyproject.toml."""

import re
from pathlib import Path

import pytest
from django.db import connection
from django.db.models import query as query_module
from django.db.models import sql
from django.db.models.fields import Field
from django.db.models.sql.compiler import SQLCompiler, SQLInsertCompiler

from tournament.models import GameEntry, Scoresheet

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"

MODULE_NAMES = [
    (query_module, "ModelIterable"),
    (query_module, "ValuesListIterable"),
    (query_module, "FlatValuesListIterable"),
    (query_module, "get_related_populators"),
    (query_module.RelatedPopulator, "populate"),
    (sql.InsertQuery, "insert_values"),
    (sql.UpdateQuery, "add_update_values"),
    (sql.Query, "chain"),
    (sql.Query, "clear_ordering"),
    (sql.Query, "extra_select"),
    (sql.Query, "annotation_select"),
    (sql.Query, "get_compiler"),
    (SQLCompiler, "get_converters"),
    (SQLInsertCompiler, "returning_fields"),
    (Scoresheet, "_prepare_related_fields_for_save"),
    (Field, "generated"),
]


def _comment() -> str:
    """The comment beside the Django pin."""
    text = PYPROJECT.read_text()
    return "\n".join(re.findall(r"^\s*#(.*)$", text[: text.index('"django>=')], re.MULTILINE))


@pytest.mark.parametrize(("owner", "name"), MODULE_NAMES, ids=[name for _owner, name in MODULE_NAMES])
def test_a_name_of_django_is_there_and_listed(owner, name):
    assert hasattr(owner, name), f"Django has no {owner.__name__}.{name} any more: see pyproject.toml"
    assert name in _comment()


@pytest.mark.django_db
def test_the_attributes_of_querysets_queries_and_compilers_are_there():
    queryset = Scoresheet.objects.select_related("match").select_for_update().filter(pk=1)
    query = queryset.query
    compiler = query.get_compiler(using="default")
    compiler.as_sql()
    instance_names = [
        (queryset, ["_iterable_class", "_prefetch_related_lookups", "_known_related_objects"]),
        (query, ["select_for_update"]),
        (sql.UpdateQuery(Scoresheet), ["related_updates"]),
        (compiler, ["col_count", "select", "klass_info", "annotation_col_map"]),
        (Scoresheet(), ["_state"]),
        (GameEntry._meta, ["local_concrete_fields", "auto_field", "parents"]),
        (connection, ["in_atomic_block"]),
        (connection.ops, ["last_insert_id"]),
        (connection.features, ["can_return_columns_from_insert"]),
    ]
    comment = _comment()
    for owner, names in instance_names:
        for name in names:
            assert hasattr(owner, name), f"Django has no {type(owner).__name__}.{name} any more"
            assert name in comment, f"{name} is not listed beside the Django pin in pyproject.toml"
    assert compiler.klass_info["model"] is Scoresheet and compiler.klass_info["select_fields"]
