"""The quick start's one command: `manage.py serve` brings the database up to date, then is
replaced by the production server (gunicorn with uvicorn workers on the ASGI application, so
the live table's streams are held). The benchmark `bench_push_phones --quick-start` runs it for
real, with three phones."""

import sys

import pytest
from django.core.management import call_command

from tests.faults import PRODUCTION


@pytest.fixture
def exec_calls(monkeypatch):
    calls = []
    monkeypatch.setattr("os.execv", lambda path, argv: calls.append((path, argv)))
    return calls


@pytest.mark.django_db
def test_serve_migrates_then_becomes_the_production_server(exec_calls, monkeypatch):
    migrated = []
    monkeypatch.setattr(
        "games.management.commands.serve.call_command",
        lambda name, **options: migrated.append(name),
    )
    call_command("serve", verbosity=0)
    assert migrated == ["migrate"]
    [(path, argv)] = exec_calls
    assert path == sys.executable
    assert argv == [sys.executable, *PRODUCTION, "--bind", "0.0.0.0:8000", "--workers", "2"]


@pytest.mark.django_db
def test_serve_takes_a_port_alone_as_runserver_does(exec_calls, monkeypatch):
    monkeypatch.setattr("games.management.commands.serve.call_command", lambda *a, **k: None)
    call_command("serve", "8123", "--workers", "3", verbosity=0)
    [(_, argv)] = exec_calls
    assert argv[-4:] == ["--bind", "0.0.0.0:8123", "--workers", "3"]
