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
``ValuesListIterable``). ``insert`` does the same for ``Model.objects.create`` and ``Update``
for ``QuerySet.update``.

Only the shapes the hot paths need are taken, and anything else is refused when the query is
first compiled: plain parameters (no ``__in`` lists, whose number of values varies), no
``extra()``, no prefetching. The SQL is the ORM's own, so quoting, ``FOR UPDATE OF`` and the
database's dialect are too. (django-prepared-queries did this until Django 2; nothing kept up
does it for Django 5.)

It uses names Django does not promise to keep (pyproject.toml lists them beside the Django pin;
tests/tournament/test_prepared.py looks each one up). With the setting ``PREPARED_QUERIES`` off
every call goes through the plain ORM instead (the same queryset, ``create()``, ``update()``),
with the same results."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Expression, Model, QuerySet
from django.db.models.query import (
    FlatValuesListIterable,
    ModelIterable,
    ValuesListIterable,
    get_related_populators,
)
from django.db.models.sql import InsertQuery, UpdateQuery
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


def _slots(sql: str, params: list, other_sql: str, other_params: list, marks: list, others: list):
    """Where each value of a call goes among the parameters of the SQL, found from the two
    compilations with other marker values; refused where the SQL itself depends on them."""
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
    return tuple(slots)


def _checked(values: tuple, kinds: tuple[type, ...]) -> None:
    if len(values) != len(kinds):
        raise TypeError(f"Prepared query takes {len(kinds)} values, {len(values)} given")
    for value, kind in zip(values, kinds, strict=True):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise TypeError(f"Prepared query: {value!r} is not {kind.__name__}")


def _filled(params: tuple, slots: tuple, values: tuple, kinds: tuple[type, ...]) -> list:
    filled = list(params)
    for value, kind, found in zip(values, kinds, slots, strict=True):
        for slot in found:
            typed = type(filled[slot])
            filled[slot] = value if typed is kind else typed(value)
    return filled


def _in_transaction(for_update: bool, connection) -> None:
    # As the ORM on PostgreSQL, also on SQLite (whose ORM lets it pass: it has no FOR UPDATE).
    if for_update and not connection.in_atomic_block:
        raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")


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
    slots = _slots(sql, params, other_sql, other_params, marks, others)
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
        slots=slots,
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
        _checked(values, self.kinds)
        connection = connections[using]
        if not settings.PREPARED_QUERIES:  # the plain ORM
            queryset = self.build(*values).using(using)
            _in_transaction(queryset.query.select_for_update, connection)
            return list(queryset)
        compiled = self.compiled(using)
        _in_transaction(compiled.for_update, connection)
        params = _filled(compiled.params, compiled.slots, values, self.kinds)
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
    if not settings.PREPARED_QUERIES:  # the plain ORM, as Model.objects.create()
        obj.save(force_insert=True, using=using)
        return obj
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


class _Value(Expression):
    """Where a value set by an ``Update`` goes: a parameter, filled in by each call."""

    def __init__(self, index: int, output_field) -> None:
        super().__init__(output_field=output_field)
        self.index = index

    def as_sql(self, compiler, connection):
        return "%s", [_Set(self.index)]


@dataclass(frozen=True)
class _Set:
    index: int


@dataclass(frozen=True)
class _CompiledUpdate:
    sql: str
    params: tuple
    slots: tuple[tuple[int, ...], ...]  # where each key of the rows goes among the parameters
    sets: tuple[tuple[int, object], ...]  # (position, field) of each value set


class Update:
    """An UPDATE of a hot path, as ``QuerySet.update`` runs it, compiled once per thread and
    database: ``build`` gives the queryset of the rows from the call's keys (of the types
    ``kinds``, int or str), the ``fields`` take the call's values (each prepared for the
    database by its field, as ``update()`` does) and ``fixed`` the same values or expressions
    every time (``F("version") + 1``).

    >>> close = Update(lambda sheet: Call.objects.filter(sheet_id=sheet), int, fields=("status",))
    >>> close(sheet.pk, status="closed")  # the number of rows changed
    """

    def __init__(
        self,
        build: Callable[..., QuerySet],
        *kinds: type,
        fields: tuple[str, ...] = (),
        fixed: dict | None = None,
    ) -> None:
        self.build = build
        self.kinds = kinds
        self.fields = fields
        self.fixed = dict(fixed or {})
        self._local = threading.local()

    def _query(self, queryset: QuerySet) -> UpdateQuery:
        meta = queryset.model._meta
        values = {name: _Value(index, meta.get_field(name)) for index, name in enumerate(self.fields)}
        query = queryset.query.chain(UpdateQuery)
        query.add_update_values({**self.fixed, **values})
        query.clear_ordering(force=True)
        if query.related_updates:
            raise ValueError("Update takes fields of the model's own table only")
        return query

    def compiled(self, alias: str = DEFAULT_DB_ALIAS) -> _CompiledUpdate:
        known = getattr(self._local, "compiled", None)
        if known is None:
            known = self._local.compiled = {}
        found = known.get(alias)
        if found is None:
            marks, others = _marks(self.kinds, 0), _marks(self.kinds, 1)
            query = self._query(self.build(*marks))
            sql, params = query.get_compiler(using=alias).as_sql()
            other_sql, other_params = self._query(self.build(*others)).get_compiler(using=alias).as_sql()
            slots = _slots(sql, list(params), other_sql, list(other_params), marks, others)
            sets = tuple(
                (position, query.model._meta.get_field(self.fields[param.index]))
                for position, param in enumerate(params)
                if isinstance(param, _Set)
            )
            if len(sets) != len(self.fields):
                raise ValueError("Update: a value set went into the query as something else")
            found = known[alias] = _CompiledUpdate(sql, tuple(params), slots, sets)
        return found

    def _checked(self, keys: tuple, values: dict) -> None:
        _checked(keys, self.kinds)
        if set(values) != set(self.fields):
            raise TypeError(f"Update sets {', '.join(self.fields)}, not {', '.join(values)}")

    def _params(self, compiled: _CompiledUpdate, keys: tuple, values: dict, connection) -> list:
        self._checked(keys, values)
        params = _filled(compiled.params, compiled.slots, keys, self.kinds)
        for position, field in compiled.sets:
            params[position] = field.get_db_prep_save(values[field.name], connection=connection)
        return params

    def __call__(self, *keys, using: str = DEFAULT_DB_ALIAS, **values) -> int:
        """Update the rows of ``keys``; the number of rows changed."""
        return self.many([(keys, values)], using=using)

    def many(self, calls: list[tuple[tuple, dict]], using: str = DEFAULT_DB_ALIAS) -> int:
        """Several updates, (keys, values) each, as one statement executed for all of them."""
        if not calls:
            return 0
        if not settings.PREPARED_QUERIES:  # the plain ORM
            changed = 0
            for keys, values in calls:
                self._checked(keys, values)
                changed += self.build(*keys).using(using).update(**self.fixed, **values)
            return changed
        compiled = self.compiled(using)
        connection = connections[using]
        rows = [self._params(compiled, keys, values, connection) for keys, values in calls]
        with connection.cursor() as cursor:
            if len(rows) == 1:
                cursor.execute(compiled.sql, rows[0])
            else:
                cursor.executemany(compiled.sql, rows)
            return cursor.rowcount
