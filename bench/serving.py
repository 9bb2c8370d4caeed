"""What the benchmarks share: the app set up as production runs it (DEBUG=0, gunicorn, a SQLite
file or PostgreSQL), members with sessions, and a phone's keep-alive HTTP connection."""

import http.client
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from games.answers import REFUSED, status_read
from tests.faults import PRODUCTION  # the README's production command

ROOT = Path(__file__).resolve().parent.parent


def configure(postgres: str | None = None) -> dict:
    """Production settings in this process's environment, on a new SQLite file or `postgres`
    (whose database is created when the server does not have it yet); Django set up."""
    env = {
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + secrets.token_hex(24),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
    }
    if postgres:
        env["DATABASE_URL"] = postgres
        ensure_database(postgres)
    else:
        env["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    import django
    from django.core.management import call_command

    django.setup()
    if postgres:
        call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    return env


def ensure_database(url: str) -> None:
    """Create the PostgreSQL database of `url` if the server does not have it yet."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as server:
        if not server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            server.execute(f'CREATE DATABASE "{name}"')


def serve(env: dict, workers: int = 2, *extra: str) -> tuple[subprocess.Popen, int]:
    """gunicorn as production runs it on a free port, once it accepts connections."""
    port = free_port()
    command = [sys.executable, *PRODUCTION, "--workers", str(workers)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "error", *extra]
    server = subprocess.Popen(command, cwd=ROOT, env=os.environ | env)
    accepting(port)
    return server, port


def serve_quick_start(env: dict) -> tuple[subprocess.Popen, int]:
    """The README's quick start (`manage.py serve`: migrate, then gunicorn with uvicorn
    workers) on a free port, with DEBUG as a fresh checkout has it (on), once it accepts
    connections. `env`'s database and secret key stay, so the benchmark's sessions hold."""
    port = free_port()
    quick = {key: value for key, value in (os.environ | env).items() if key != "DEBUG"}
    command = [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "-v0"]
    server = subprocess.Popen(command, cwd=ROOT, env=quick, stdout=subprocess.DEVNULL)
    accepting(port, tries=300)  # its migrate first
    return server, port


def accepting(port: int, tries: int = 100) -> None:
    """Wait (tries of 0.1 s) until a server accepts connections on `port`."""
    for _ in range(tries):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def member(username: str):
    """A login that owns a new group (as signing up makes one), and its session key."""
    from django.contrib.auth.models import User

    from games.models import Group

    user = User.objects.create_user(username, password=None)
    Group.found(user, f"{username}'s table")
    return user, session_of(user)


def session_of(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


class Phone:
    """One phone: its own keep-alive connection, the member's session and a CSRF token."""

    def __init__(self, port: int, session: str):
        self.port = port
        self.csrf = secrets.token_hex(16)  # a 32-character secret is its own token
        self.cookie = f"sessionid={session}; csrftoken={self.csrf}"
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, data: dict) -> tuple[int, float]:
        body = urlencode(data)
        headers = {
            "Cookie": self.cookie,
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        start = time.perf_counter()
        try:
            self.connection.request("POST", path, body, headers)
            response = self.connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            return 599, time.perf_counter() - start
        # A refusal is answered 200 to the page's script, its own status in X-Refused (as the
        # page reads it: games/answers.py).
        return status_read(
            response.status, response.getheader(REFUSED)
        ), time.perf_counter() - start


def race(calls) -> list[int]:
    """Every call at once, each on its own thread: their statuses."""
    barrier = threading.Barrier(len(calls))
    results = [0] * len(calls)

    def run(index):
        barrier.wait()
        results[index] = calls[index]()[0]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")
