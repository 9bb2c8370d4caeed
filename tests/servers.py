"""What the tests with servers of their own share, beside tests/faults.py's gunicorn: a throwaway
PostgreSQL on loopback (as .ci/run starts one), `manage.py` run as production runs it, tables
made there, and a phone's request."""

import http.client
import json
import secrets
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from glob import glob
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlencode

from games.answers import REFUSED, status_read
from tests.faults import ROOT, free_port


def postgres_bin() -> Path | None:
    """The newest PostgreSQL server binaries installed (Debian's layout), or None."""
    found = sorted(glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


@contextmanager
def postgres(**settings):
    """A PostgreSQL server of its own on a free loopback port, run as the postgres user (the
    tests run as root), with `settings` (max_connections=3…); yields Django's settings for it
    without a database NAME. Its folder is one the postgres user can reach (pytest's are
    root's only)."""
    binaries = postgres_bin()
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    shutil.chown(folder, "postgres")
    port = free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_postgres, binaries / "initdb", "-D", folder / "data", "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {folder} -c fsync=off"
    options += "".join(f" -c {name}={value}" for name, value in settings.items())
    control = [*as_postgres, binaries / "pg_ctl", "-D", folder / "data", "-l", folder / "log"]
    subprocess.run([*control, "-w", "-o", options, "start"], check=True, capture_output=True)
    _RESTARTS[port] = [*control, "-w", "-m", "fast", "-o", options, "restart"]
    try:
        yield {
            "ENGINE": "django.db.backends.postgresql",
            "HOST": "127.0.0.1",
            "PORT": port,
            "USER": "postgres",
        }
    finally:
        subprocess.run([*control, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


_RESTARTS: dict[int, list] = {}


def restart_postgres(port: int) -> None:
    """Restart the server `postgres()` started on `port` (its clients' connections drop)."""
    subprocess.run(_RESTARTS[port], check=True, capture_output=True)


def manage(env: dict, *arguments: str) -> str:
    """`manage.py` in a process of its own; what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


TABLES = """
import json
from django.conf import settings
from django.test import Client
from tests import factories
user = factories.member("ann")
client = Client()
client.force_login(user)
games = []
for _ in range({count}):
    game = factories.game(user)
    seats = [seat.pk for seat in game.seats.order_by("position")]
    games.append({{"pk": game.pk, "seats": seats}})
print(json.dumps({{"session": client.cookies[settings.SESSION_COOKIE_NAME].value, "games": games}}))
"""


def make_tables(env: dict, count: int) -> dict:
    """`count` games of Three Thirteen for three, started by one member; their seats and the
    member's session (a signed cookie the server reads with the same SECRET_KEY)."""
    return json.loads(manage(env, "shell", "-c", TABLES.format(count=count)).splitlines()[-1])


class Answer(NamedTuple):
    status: int
    headers: dict
    body: str


def send(port: int, session: str, method: str, path: str, fields: dict | None = None) -> Answer:
    """A request as the round page sends it (htmx, the CSRF header, the member's session), on
    a connection of its own."""
    csrf = secrets.token_hex(16)  # a 32-character secret is its own token
    headers = {
        "Cookie": f"sessionid={session}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "HX-Request": "true",
        "Connection": "close",
    }
    if fields is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, urlencode(fields) if fields else None, headers)
        response = connection.getresponse()
        body = response.read().decode()
        headers = {k.lower(): v for k, v in response.getheaders()}
        # A refusal is answered 200 to the page's script, its own status in X-Refused (as the
        # page reads it: games/answers.py).
        return Answer(status_read(response.status, response.getheader(REFUSED)), headers, body)
    finally:
        connection.close()


def post_save(port: int, session: str, path: str, fields: dict) -> tuple[int, str]:
    """A save as the round page sends it: its status and body."""
    answer = send(port, session, "POST", path, fields)
    return answer.status, answer.body


class PushServer:
    """The site's ASGI application (streams and all) under uvicorn, in a thread of the test's
    process, on the test database: what production serves, for the browser tests of the live
    table. Static files as the live server serves them."""

    def __init__(self):
        import socket
        import threading

        import uvicorn
        from django.contrib.staticfiles.handlers import StaticFilesHandler
        from django.core.wsgi import get_wsgi_application

        from games.live.asgi import LiveApplication

        self.app = LiveApplication(StaticFilesHandler(get_wsgi_application()))
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, lifespan="on", log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]})
        self.thread.start()
        while not self.server.started and self.thread.is_alive():
            self.thread.join(0.02)

    def streams(self) -> int:
        """How many streams the server holds open now."""
        return sum(len(streams) for streams in list(self.app.hub.topics.values()))

    def holding(self, count: int, timeout: float = 5) -> bool:
        """Wait until the server holds `count` streams (a stream's first event is sent before
        the hub takes it on)."""
        import time

        deadline = time.monotonic() + timeout
        while self.streams() != count and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.streams() == count

    def stop(self) -> None:
        self.app.loop.call_soon_threadsafe(self.app.hub.drain)
        self.server.should_exit = True
        self.thread.join(15)
