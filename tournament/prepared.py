"""The queries of the hot paths, compiled by the ORM once and then run as SQL (issue 16).

Django builds the SQL of a queryset anew every time it is evaluated. For the small queries of a
table phone's entry or poll that is most of their cost: on the hall's two-core laptop a sheet's
games read through the ORM take 1.2 ms, the same SQL run again 0.2 ms, rows made into objects
included. Hundreds of such queries a second (500 tables' phones) then fill a core with building
the same SQL over and over.

``Prepared`` builds a queryset once per thread and database, with marker values where the
caller's values go, and keeps what the ORM derived from it: the SQL, where each marker landed
among the parameters, the columns, the related objects ``select_related`` fills in, and the
converters the database's values go through. Each call then runs that SQL with its own values
and turns the rows into objects exactly as the ORM's own iterables do (``ModelIterable``,
``ValuesListIterable``). ``insert`` does the same for ``Model.objects.create``.

Only the shapes the hot paths need are taken, and anything else is refused when the query is
first compiled: plain parameters (no ``__in`` lists, whose number of values varies), no
``extra()``, no prefetching. The SQL is the ORM's own, so quoting, ``FOR UPDATE OF`` and the
database's dialect are too. (django-prepared-queries did this until Django 2; nothing kept up
does it for Django 5.)"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql import InsertQuery
from django.db.transaction import TransactionManagementError


def _marks(kinds: tuple[type, ...], round: int) -> list:
    """Marker values for a compilation: two rounds with other values tell where each value goes
    and that nothing else in the query was made from it (a list, a value plus one). Integers
    lie within every integer column's range (the ORM drops a comparison with a value outside
    it) and far above the counts of a tournament."""
    marks: list = []
    for index, kind in enumerate(kinds):
        if kind is int:
            marks.append(31001 + 2 * index + round)
        elif kind is str:
            marks.append(f"\x1eprepared value {index}.{round}\x1e")
        else:
            raise TypeError(f"Prepared takes int and str values, not {kind.__name__}")
    return marks


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, ...], ...]  # where each value goes among the parameters
    columns: int  # the selected columns (the SQL may select more, for its ordering)
    converters: tuple  # (position, converters, expression) for each converted column
    iterable: type
    model: type[Model] | None
    init_list: tuple[str, ...]
    model_span: tuple[int, int]
    populators: tuple
    annotations: tuple[tuple[str, int], ...]
    for_update: bool


def _sql(queryset: QuerySet, alias: str):
    compiler = queryset.query.get_compiler(using=alias)
    sql, params = compiler.as_sql()
    return compiler, sql, list(params)


def _compile(build: Callable[..., QuerySet], kinds: tuple[type, ...], alias: str) -> _Compiled:
    marks, others = _marks(kinds, 0), _marks(kinds, 1)
    queryset = build(*marks)
    query = queryset.query
    if queryset._prefetch_related_lookups or query.extra_select or queryset._known_related_objects:
        raise ValueError("Prepared takes no prefetch_related(), extra() or related managers")
    iterable = queryset._iterable_class
    if iterable not in (ModelIterable, ValuesListIterable, FlatValuesListIterable):
        raise ValueError(f"Prepared does not take {iterable.__name__} querysets")
    if iterable is not ModelIterable and query.annotation_select:
        raise ValueError("Prepared takes values_list() of fields only")
    compiler, sql, params = _sql(queryset, alias)
    _compiler, other_sql, other_params = _sql(build(*others), alias)
    if other_sql != sql or len(other_params) != len(params):
        raise ValueError("Prepared: the query's SQL depends on its values")
    slots = []
    for mark, other in zip(marks, others, strict=True):
        found = tuple(
            i
            for i, (param, again) in enumerate(zip(params, other_params, strict=True))
            # isinstance: psycopg's typed integers (Int2, Int4) where PostgreSQL needs the type
            if isinstance(param, type(mark)) and param == mark and again == other
        )
        if not found:
            raise ValueError(f"Prepared: the value {mark!r} went into the query as something else")
        slots.append(found)
    taken = {slot for found in slots for slot in found}
    if any(a != b for i, (a, b) in enumerate(zip(params, other_params, strict=True)) if i not in taken):
        raise ValueError("Prepared: a parameter of the query is made from a value (a list?)")
    columns = compiler.col_count
    converters = compiler.get_converters([s[0] for s in compiler.select[0:columns]])
    model, init_list, span, populators, annotations = None, (), (0, columns), (), ()
    if iterable is ModelIterable:
        klass_info = compiler.klass_info
        model = klass_info["model"]
        fields = klass_info["select_fields"]
        span = (fields[0], fields[-1] + 1)
        init_list = tuple(f[0].target.attname for f in compiler.select[span[0] : span[1]])
        populators = tuple(get_related_populators(klass_info, compiler.select, alias))
        annotations = tuple(compiler.annotation_col_map.items())
    return _Compiled(
        sql=sql,
        params=tuple(params),
        slots=tuple(slots),
        columns=columns,
        converters=tuple((pos, tuple(c), expression) for pos, (c, expression) in converters.items()),
        iterable=iterable,
        model=model,
        init_list=init_list,
        model_span=span,
        populators=populators,
        annotations=annotations,
        for_update=bool(query.select_for_update),
    )


class Prepared:
    """A queryset of a hot path, built by ``build`` from the values of each call (of the types
    ``kinds``, int or str) and compiled once per thread and database.

    >>> games = Prepared(lambda sheet: GameEntry.objects.filter(scoresheet_id=sheet).order_by("number"), int)
    >>> games(sheet.pk)  # a list of GameEntry, as list(the queryset) gives it
    """

    def __init__(self, build: Callable[..., QuerySet], *kinds: type) -> None:
        self.build = build
        self.kinds = kinds
        self._local = threading.local()

    def compiled(self, alias: str = DEFAULT_DB_ALIAS) -> _Compiled:
        # Per thread: the converters belong to the thread's own connection.
        known = getattr(self._local, "compiled", None)
        if known is None:
            known = self._local.compiled = {}
        found = known.get(alias)
        if found is None:
            found = known[alias] = _compile(self.build, self.kinds, alias)
        return found

    def __call__(self, *values, using: str = DEFAULT_DB_ALIAS) -> list:
        if len(values) != len(self.kinds):
            raise TypeError(f"Prepared query takes {len(self.kinds)} values, {len(values)} given")
        compiled = self.compiled(using)
        connection = connections[using]
        if compiled.for_update and not connection.in_atomic_block:
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = list(compiled.params)
        for value, kind, slots in zip(values, self.kinds, compiled.slots, strict=True):
            if not isinstance(value, kind) or isinstance(value, bool):
                raise TypeError(f"Prepared query: {value!r} is not {kind.__name__}")
            for slot in slots:
                typed = type(params[slot])
                params[slot] = value if typed is kind else typed(value)
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = cursor.fetchall()
        columns = compiled.columns
        if compiled.converters:
            converted = []
            for fetched in rows:
                row = list(fetched[:columns])
                for position, converters, expression in compiled.converters:
                    value = row[position]
                    for converter in converters:
                        value = converter(value, expression, connection)
                    row[position] = value
                converted.append(row)
            rows = converted
        if compiled.iterable is FlatValuesListIterable:
            return [row[0] for row in rows]
        if compiled.iterable is ValuesListIterable:
            return [tuple(row[:columns]) for row in rows]
        model = compiled.model
        assert model is not None
        start, end = compiled.model_span
        objects = []
        for row in rows:
            obj = model.from_db(using, compiled.init_list, row[start:end])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotations:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects

    def first(self, *values, using: str = DEFAULT_DB_ALIAS):
        """The first object, or None (the queryset should be limited to one row)."""
        found = self(*values, using=using)
        return found[0] if found else None


@dataclass(frozen=True)
class _Insert:
    sql: str
    fields: tuple
    returning: bool


_inserts = threading.local()


def _insert_of(obj: Model, alias: str) -> _Insert:
    known = getattr(_inserts, "compiled", None)
    if known is None:
        known = _inserts.compiled = {}
    model = type(obj)
    found = known.get((model, alias))
    if found is None:
        meta = model._meta
        fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field and not f.generated]
        query = InsertQuery(model)
        query.insert_values(fields, [obj])
        compiler = query.get_compiler(using=alias)
        connection = connections[alias]
        returning = bool(connection.features.can_return_columns_from_insert)
        compiler.returning_fields = [meta.pk] if returning else None
        [(sql, _params)] = compiler.as_sql()
        found = known[(model, alias)] = _Insert(sql, tuple(fields), returning)
    return found


def insert(obj: Model, using: str = DEFAULT_DB_ALIAS) -> Model:
    """Save a new object (``obj.pk`` unset) as ``Model.objects.create`` would: defaults and
    ``auto_now_add`` filled in, values prepared for the database, the new id set on it; with
    its INSERT compiled once per thread and database. No signals are sent (nothing here
    listens to these models' saves)."""
    if obj.pk is not None or type(obj)._meta.parents:
        raise ValueError("insert() takes a new object of a model without parents")
    obj._prepare_related_fields_for_save(operation_name="save")  # as save(): no unsaved relations
    compiled = _insert_of(obj, using)
    connection = connections[using]
    params = [field.get_db_prep_save(field.pre_save(obj, True), connection) for field in compiled.fields]
    meta = type(obj)._meta
    with connection.cursor() as cursor:
        cursor.execute(compiled.sql, params)
        if compiled.returning:
            (pk,) = cursor.fetchone()
        else:
            pk = connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column)
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = using
    return obj
