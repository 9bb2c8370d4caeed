"""The importer under Hypothesis: a real export, broken in one place (a field removed, a wrong
type, a number out of range, a bad date, deep nesting, a clashing name), is refused with a
message naming that place; nothing is written and no exception escapes."""

import io
import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.history_data import build_history
from games.import_schema import MAX_DEPTH, ImportProblem, read_export
from games.models import Game, GameNight, Group, HandChange, Membership, Player
from games.transfer import export_json, import_json

pytestmark = pytest.mark.django_db

OPTIONAL = {
    "created_at",
    "finished_at",
    "completed_at",
    "updated_at",
    "colour_index",
    "entered_points",
    "old_points",
    "extra",
    "result",
}
DATES = (
    "2026-02-30",
    "2026-11-23T25:00:00+00:00",
    "10000-01-01",
    "9999-12-31T23:30:00-05:00",
    "yesterday",
    "",
)


@pytest.fixture
def exported(member):
    build_history(member.memberships.first().group, nights=2, seed=3)
    return export_json(member.memberships.first().group)


@pytest.fixture
def empty_group(django_user_model):
    user = django_user_model.objects.create_user("zoe", password="x")
    group = Group.objects.create(name="Zoe's table")
    Membership.objects.create(user=user, group=group)
    return group


def places(document, path=()):
    """Every (path, value) of the document, outside the free-form rules object."""
    if isinstance(document, dict):
        for key, value in document.items():
            if key != "rules":
                yield path + (key,), value
                yield from places(value, path + (key,))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield path + (index,), value
            yield from places(value, path + (index,))


def where(path) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "file"


def wrong_type(value):
    if isinstance(value, bool):
        return 1
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {"a": 1}
    if isinstance(value, dict):
        return [1]
    return "seven"  # null where an optional number or moment may stand: text is neither


def nested(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def broken(draw, document):
    spots = list(places(document))
    path, value = draw(st.sampled_from(spots))
    how = draw(st.sampled_from(["remove", "type", "range", "date", "deep"]))
    if how == "remove" and isinstance(path[-1], str) and path[-1] not in OPTIONAL:
        return path, "remove", None
    if how == "range" and isinstance(value, int) and not isinstance(value, bool):
        return path, "set", draw(st.sampled_from([-1, 10**6 + 1, 10**30, -(10**30)]))
    if (
        how == "date"
        and isinstance(path[-1], str)
        and (path[-1] == "date" or path[-1].endswith("at"))
    ):
        return path, "set", draw(st.sampled_from(DATES))
    if how == "deep":
        return path, "set", nested(draw(st.integers(min_value=2, max_value=MAX_DEPTH - 12)))
    return path, "set", wrong_type(value)


def apply(document, change):
    path, action, value = change
    copy = json.loads(json.dumps(document))
    holder = copy
    for part in path[:-1]:
        holder = holder[part]
    if action == "remove":
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return copy


def nothing_written(group):
    return not (
        Player.objects.filter(group=group).exists()
        or GameNight.objects.filter(group=group).exists()
    )


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_file_broken_in_one_place_is_refused_naming_that_place(exported, empty_group, data):
    path, action, value = data.draw(broken(exported))
    document = apply(exported, (path, action, value))
    with transaction.atomic():
        with pytest.raises(ImportProblem) as refusal:
            import_json(empty_group, json.dumps(document).encode())
        transaction.set_rollback(True)  # should one be taken, the next example starts empty
    first = refusal.value.problems[0]
    place = where(path)
    assert first.startswith(place) and first[len(place)] in ":[.", (first, place)
    assert nothing_written(empty_group)


def test_the_unbroken_export_imports_whole(exported, empty_group):
    counts = import_json(empty_group, json.dumps(exported).encode())
    assert counts == {
        "nights": 2,
        "games": 2,
        "hands": len(
            list(
                h
                for n in exported["nights"]
                for g in n["games"]
                for r in g["rounds"]
                for h in r["hands"]
            )
        ),
    }
    again = export_json(empty_group)
    assert again["players"] == exported["players"]
    assert [n["date"] for n in again["nights"]] == [n["date"] for n in exported["nights"]]


@pytest.mark.parametrize("twin", ["ann", " Ann", "Ann  ", "ANN"])
def test_two_players_whose_names_clash_are_refused(exported, empty_group, twin):
    exported["players"][1]["name"] = twin
    with pytest.raises(ImportProblem) as refusal:
        import_json(empty_group, json.dumps(exported).encode())
    assert refusal.value.problems[0].startswith("players[1].name: ")
    assert "listed twice" in refusal.value.problems[0]
    assert nothing_written(empty_group)


def test_padded_names_are_stored_as_the_app_stores_them(exported, empty_group):
    exported["players"][0]["name"] = "  Ann   Marie "
    for night in exported["nights"]:
        for game in night["games"]:
            game["seats"] = ["Ann Marie" if s == "Ann" else s for s in game["seats"]]
    import_json(empty_group, json.dumps(exported).encode())
    assert Player.objects.filter(group=empty_group, name="Ann Marie").exists()


def test_points_out_of_range_name_the_hand(exported, empty_group):
    exported["nights"][1]["games"][0]["rounds"][2]["hands"][1]["points"] = 10001
    with pytest.raises(ImportProblem) as refusal:
        import_json(empty_group, json.dumps(exported).encode())
    assert refusal.value.problems[0] == (
        "nights[1].games[0].rounds[2].hands[1].points: must be between 0 and 10000"
    )


@pytest.mark.parametrize(
    "moment",
    ["9999-12-31T23:30:00-05:00", "0001-01-01T00:10:00+01:00", "9999-12-31T23:59:59-00:01"],
)
def test_a_time_outside_the_databases_years_in_utc_is_refused_naming_it(
    exported, empty_group, moment
):
    exported["nights"][0]["games"][0]["created_at"] = moment
    with pytest.raises(ImportProblem) as refusal:
        import_json(empty_group, json.dumps(exported).encode())
    assert refusal.value.problems[0] == (
        "nights[0].games[0].created_at: is a time outside the years 1 to 9999 in UTC"
    )
    assert nothing_written(empty_group)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 100_000])
def test_a_file_nested_far_too_deep_is_refused_before_parsing(depth):
    with pytest.raises(ImportProblem, match="nests deeper than"):
        read_export(b"[" * depth + b"]" * depth)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\xff\xfe",
        b"null",
        b"[]",
        b"123456789012345678901234567890",
        b'{"format": 1e999}',
        b'"' + b"x" * 1000 + b'"',
        b"{" * 10,
    ],
)
def test_files_that_are_not_exports_are_refused_with_a_message(raw):
    with pytest.raises(ImportProblem) as refusal:
        read_export(raw)
    assert refusal.value.problems


def test_hostile_files_through_the_page_get_a_message_never_a_500(client, empty_group):
    client.force_login(empty_group.memberships.get().user)
    for raw in (
        b"[" * 100_000,
        b'{"format": "scorekeeper", "version": 1, "players": [{"name": '
        b'"A", "colour_index": 99999999999999999999}], "nights": []}',
    ):
        upload = io.BytesIO(raw)
        upload.name = "export.json"
        response = client.post("/group/import/", {"file": upload})
        assert response.status_code == 200
        assert (
            "nests deeper" in response.content.decode()
            or "colour_index" in response.content.decode()
        )
    assert nothing_written(empty_group)
    assert not Game.objects.exists() and not HandChange.objects.exists()
