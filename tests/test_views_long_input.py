"""Ten thousand characters in every text field of every form: a form error, never a 500 and
never a stored value longer than its column (SQLite would store it; PostgreSQL would fail)."""

import inspect

import pytest
from django import forms as django_forms
from django.apps import apps
from django.contrib.auth.forms import SetPasswordForm
from django.db import models

from games import forms
from tests.helpers import hand_url

pytestmark = pytest.mark.django_db

LONG = "x" * 10_000


def form_classes():
    return [
        cls
        for _, cls in inspect.getmembers(forms, inspect.isclass)
        if issubclass(cls, django_forms.BaseForm) and cls.__module__ == forms.__name__
    ]


def build(cls, data, game):
    if issubclass(cls, SetPasswordForm):
        return cls(game.created_by, data)
    signature = inspect.signature(cls.__init__).parameters
    extra = {}
    if "group" in signature:
        extra["group"] = game.group
    if "game" in signature:
        extra["game"] = game
    return cls(data, **extra)


def test_every_text_field_of_every_form_is_bounded(member, make_game):
    game = make_game(member)
    for cls in form_classes():
        form = build(cls, {}, game)
        data = {
            name: LONG
            for name, field in form.fields.items()
            if isinstance(field, django_forms.CharField)
        }
        form = build(cls, data, game)
        for name, field in form.fields.items():
            if isinstance(field, django_forms.CharField):
                assert field.max_length is not None, f"{cls.__name__}.{name} has no limit"
                assert field.max_length <= 1000, f"{cls.__name__}.{name}"
        assert not form.is_valid() or not data, cls.__name__


def stored_text_fits_its_column():
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.CharField) and field.max_length:
                longest = max(
                    (
                        len(value or "")
                        for value in model.objects.values_list(field.name, flat=True)
                    ),
                    default=0,
                )
                assert longest <= field.max_length, f"{model.__name__}.{field.name}"


def test_every_form_of_the_site_refuses_long_text_with_a_message(signed_in, member, make_game):
    game = make_game(member)
    seat = game.seats.first()
    posts = {
        "/players/": {"name": LONG},
        "/games/new/": {"kind": "three-thirteen", "players": LONG, "date": "2026-11-22"},
        hand_url(game, 1, seat): {
            "outcome": "cards",
            "cards": LONG,
            "save": "1",
            "tap": LONG,
            "untap": LONG,
        },
        f"/nights/{game.night_id}/": {"date": LONG},
    }
    for url, data in posts.items():
        response = signed_in.post(url, data)
        assert response.status_code in (200, 422), url
        assert "at most" in response.content.decode() or "Enter a valid" in (
            response.content.decode()
        ), url
    stored_text_fits_its_column()


def test_signing_up_with_a_long_name_is_refused(client):
    response = client.post("/signup/", {"username": LONG, "password1": LONG, "password2": LONG})
    assert response.status_code == 200
    assert "at most 150 characters" in response.content.decode()
    stored_text_fits_its_column()
