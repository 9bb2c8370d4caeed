"""Plain SQL for the reads nearly every request makes (who is asking, a round's seats) and the
writes every save makes (its hand, its change, the game's version): the statements are written
once per database from the models' tables, their values read back as the ORM reads them (its
own converters, model instances made as `Model.from_db` makes them) and written as it writes
them (each field's `pre_save` and `get_db_prep_save`). The ORM spent longer building these
statements, on every request, than the database spent answering them."""

from functools import cache

from django.db import connection
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.signals import post_init, pre_init
from django.dispatch.dispatcher import NO_RECEIVERS


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model) -> str:
    return quote(model._meta.db_table)


def col(model, name: str) -> str:
    return quote(model._meta.get_field(name).column)


def columns(model, alias: str) -> str:
    """Every column of `model`'s rows, as the ORM selects them, from the table named `alias`."""
    return ", ".join(f"{alias}.{quote(field.column)}" for field in model._meta.concrete_fields)


def value(model, name: str, raw):
    """A value read from `model`'s column `name`, as the ORM would give it (a SQLite date and
    time as an aware datetime, JSON parsed, and so on)."""
    for converter, expression in _converters(connection.vendor, model, name):
        raw = converter(raw, expression, connection)
    return raw


def instance(model, row, start: int = 0):
    """The `model` instance read from `row`'s columns from `start` on (as many as `columns`
    selects), and where the next model's columns begin."""
    converters = _row_converters(connection.vendor, model)
    end = start + len(model._meta.concrete_fields)
    values = list(row[start:end])
    for i, found in converters:
        for converter, expression in found:
            values[i] = converter(values[i], expression, connection)
    return made(model, values), end


def made(model, values: list):
    """The `model` instance of a row read from the database (every concrete column, in order),
    as `Model.from_db` makes it: its values and its state (not adding, this database). Where
    nothing could tell the two apart (no receiver of the model's init signals, no `__init__` of
    its own, no field set through a descriptor of its own), without the model's `__init__`: a
    call for each field and two signals, on every instance of every request."""
    if _heard(pre_init, model) or _heard(post_init, model) or not _plain(model):
        return model.from_db(connection.alias, None, values)
    instance = model.__new__(model)
    instance.__dict__.update(zip(_attnames(model), values, strict=True))
    state = instance._state = ModelState()
    state.adding, state.db = False, connection.alias
    return instance


def _heard(signal, model) -> bool:
    """Some receiver may hear `signal` sent for `model`: as `Signal.send` decides before it
    looks (a sender it has not been sent for yet counts as heard: `from_db` sends it then)."""
    return bool(signal.receivers) and signal.sender_receivers_cache.get(model) is not NO_RECEIVERS


@cache
def _plain(model) -> bool:
    """`Model.__init__` sets each field's value as a plain attribute of the instance, and does
    nothing more: the model has no `__init__` of its own, and no field's attribute on it is a
    data descriptor (one with `__set__`, a file's) but a foreign key's id, whose `__set__` only
    forgets a related instance cached (a new instance has none)."""
    if any("__init__" in vars(cls) for cls in model.__mro__[: model.__mro__.index(Model)]):
        return False
    descriptors = [getattr(model, field.attname, None) for field in model._meta.concrete_fields]
    return not any(
        hasattr(found, "__set__") and not isinstance(found, ForeignKeyDeferredAttribute)
        for found in descriptors
    )


@cache
def _attnames(model) -> tuple[str, ...]:
    return tuple(field.attname for field in model._meta.concrete_fields)


def save(instance) -> None:
    """Write `instance`'s row as `Model.save()` does for these models (no signals are sent: the
    project's models have no receivers): its every column updated by its primary key, or the
    row inserted (its new primary key set) where it has none yet or its row is gone."""
    model = type(instance)
    adding = instance.pk is None
    if not adding:
        fields = _fields(model)
        values = _prepared(instance, fields, False) + [instance.pk]
        with connection.cursor() as cursor:
            cursor.execute(_set_sql(connection.vendor, model, _names(model)), values)
            adding = cursor.rowcount == 0
    if adding:
        new_key = instance.pk is None
        values = _prepared(instance, _fields(model, new_key), True)
        with connection.cursor() as cursor:
            cursor.execute(_insert_sql(connection.vendor, model, new_key), values)
            if new_key:
                instance.pk = cursor.fetchone()[0]
    instance._state.adding, instance._state.db = False, connection.alias


def update(model, pk, **values) -> None:
    """Set these columns of `model`'s row `pk`, as `objects.filter(pk=pk).update(...)` does
    for plain values."""
    names = tuple(values)
    prepared = [
        model._meta.get_field(name).get_db_prep_save(value, connection)
        for name, value in values.items()
    ]
    with connection.cursor() as cursor:
        cursor.execute(_set_sql(connection.vendor, model, names), [*prepared, pk])


def _prepared(instance, fields, add: bool) -> list:
    return [field.get_db_prep_save(field.pre_save(instance, add), connection) for field in fields]


@cache
def _fields(model, without_pk: bool = True) -> tuple:
    """The fields `save` writes: every concrete one but the primary key (with it, `without_pk`
    false: an insert of a row whose key is known)."""
    return tuple(
        field for field in model._meta.concrete_fields if not (without_pk and field.primary_key)
    )


@cache
def _names(model) -> tuple[str, ...]:
    """The fields an update by `save` sets: every one but the primary key."""
    return tuple(field.name for field in _fields(model))


@cache
def _insert_sql(vendor: str, model, without_pk: bool) -> str:
    fields = _fields(model, without_pk)
    names = ", ".join(quote(field.column) for field in fields)
    marks = ", ".join(["%s"] * len(fields))
    returning = f" RETURNING {quote(model._meta.pk.column)}" if without_pk else ""
    return f"INSERT INTO {table(model)} ({names}) VALUES ({marks}){returning}"


@cache
def _set_sql(vendor: str, model, names: tuple) -> str:
    sets = ", ".join(f"{col(model, name)} = %s" for name in names)
    return f"UPDATE {table(model)} SET {sets} WHERE {quote(model._meta.pk.column)} = %s"


def fetch_all(sql: str, params) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


@cache
def _row_converters(vendor: str, model) -> tuple:
    """Each column's converters, for the columns that have any (by their place in the row)."""
    fields = model._meta.concrete_fields
    found = ((i, _converters(vendor, model, field.name)) for i, field in enumerate(fields))
    return tuple((i, converters) for i, converters in found if converters)


@cache
def _converters(vendor: str, model, name: str) -> tuple:
    field = model._meta.get_field(name)
    expression = field.get_col(model._meta.db_table)
    found = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
    return tuple((converter, expression) for converter in found)
