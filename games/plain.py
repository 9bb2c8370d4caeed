"""Plain SQL for the reads nearly every request makes (who is asking, a round's seats): the
statements are written once per database from the models' tables, and their values read back
as the ORM reads them (its own converters, model instances made as `Model.from_db` makes
them). The ORM spent longer building these queries, on every request, than the database
spent answering them."""

from functools import cache

from django.db import connection


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
    return model.from_db(connection.alias, None, values), end


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
