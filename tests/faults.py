"""What the fault tests share: gunicorn serving the test database as production runs it, a
loopback proxy that loses a share of the answers on their way back (the request is served,
the phone never hears), a helper that kills a busy worker every second, and phones that save
their own hand continuously and resend what got no answer, as the page's offline queue does
(the same entry, or one changed meanwhile, with the version it started from and its key)."""

import contextlib
import functools
import http.client
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from games.answers import REFUSED, status_read

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_env(settings_dict: dict) -> dict:
    """The environment that points production settings at the test's own database."""
    if settings_dict["ENGINE"].endswith("sqlite3"):
        return {"SQLITE_PATH": str(settings_dict["NAME"])}
    user, password = settings_dict.get("USER") or "", settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{password}@" if password else f"{user}@" if user else ""
    host, port = settings_dict.get("HOST") or "127.0.0.1", settings_dict.get("PORT") or 5432
    return {"DATABASE_URL": f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"}


def production_env(settings_dict: dict, secret_key: str) -> dict:
    """The environment of `manage.py` as production runs it (DEBUG=0), on the database of
    `settings_dict` and a SECRET_KEY (the test's own keeps the sessions it made good)."""
    return (
        os.environ
        | database_env(settings_dict)
        | {
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "DEBUG": "0",
            "SECRET_KEY": secret_key,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "LOG_LEVEL": os.environ.get("TEST_SERVER_LOG_LEVEL", "CRITICAL"),
        }
    )


# The README's production command: gunicorn with uvicorn workers on the site's ASGI application.
PRODUCTION = [
    "-m",
    "gunicorn",
    "scorekeeper.asgi",
    "--worker-class",
    "scorekeeper.workers.QuietUvicornWorker",
]


# What the site's pages never load: the admin's hundred files and django-htmx's other builds of
# htmx, 600 kB that Brotli takes seconds of CPU over when collectstatic compresses them.
UNUSED_STATIC = ["admin", "htmx-2.js", "htmx-4*", "htmax-4*", "htmx-2-compat-4*", "hx-*"]


@functools.cache
def collected_static() -> str:
    """The static files the pages load, collected once as production's `collectstatic` does
    (hashed names, their manifest, compressed), for servers that draw whole pages."""
    folder = tempfile.mkdtemp(prefix="scorekeeper-static-")
    env = os.environ | {"DEBUG": "0", "SECRET_KEY": "collect", "STATIC_ROOT": folder}
    command = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    command += [f"--ignore={pattern}" for pattern in UNUSED_STATIC]
    subprocess.run(command, cwd=ROOT, env=env, check=True)
    return folder


class Server:
    """gunicorn as production runs it (uvicorn workers, the ASGI application) on the test
    database (DEBUG=0); with `pages`, its static files collected, so whole pages are drawn."""

    def __init__(self, settings_dict: dict, secret_key: str, workers: int = 3, pages=False):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = production_env(settings_dict, secret_key)
        if pages:
            env["STATIC_ROOT"] = collected_static()
        command = [sys.executable, *PRODUCTION]
        command += ["--workers", str(workers), "--bind", f"127.0.0.1:{self.port}"]
        command += ["--log-level", "critical", "--timeout", "20", "--graceful-timeout", "1"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not self.answers():
            time.sleep(0.05)

    def answers(self) -> bool:
        """The server answers a cheap request (a page of the group, signed out: the way to the
        login page, drawn from no template)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
        try:
            connection.request("GET", "/players/")
            return connection.getresponse().status == 302
        except OSError:
            return False
        finally:
            connection.close()

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in children.read_text().split()]
        except OSError:
            return []

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def cpu_time(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return -1


class Killer(threading.Thread):
    """Sends SIGKILL to a gunicorn worker every `every` seconds, the busiest since the last
    kill where one is busier, and times how soon the server answers again after each."""

    def __init__(self, server: Server, every: float = 1.0):
        super().__init__(daemon=True)
        self.server, self.every = server, every
        self.kills = 0
        self.recoveries: list[float] = []
        self.stopping = threading.Event()

    def run(self):
        seen: dict[int, int] = {}
        while not self.stopping.wait(self.every):
            workers = self.server.workers()
            if not workers:
                continue
            now = {pid: cpu_time(pid) for pid in workers}
            busiest = max(workers, key=lambda pid: now[pid] - seen.get(pid, 0))
            seen = now
            try:
                os.kill(busiest, signal.SIGKILL)
            except ProcessLookupError:
                continue
            self.kills += 1
            killed = time.monotonic()
            while not self.server.answers() and time.monotonic() - killed < 10:
                time.sleep(0.01)
            self.recoveries.append(time.monotonic() - killed)


class LossyProxy(threading.Thread):
    """Forwards each connection to the server; for a share of them, once the server's whole
    answer is in, closes the phone's side without passing it on: the save was served, and the
    phone never hears of it."""

    def __init__(self, upstream: int, lose: float, seed: int = 7):
        super().__init__(daemon=True)
        self.upstream, self.lose = upstream, lose
        self.random = random.Random(seed)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.lost = 0
        self.lock = threading.Lock()

    def run(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                lose = self.random.random() < self.lose
            threading.Thread(target=self.forward, args=(client, lose), daemon=True).start()

    def forward(self, client: socket.socket, lose: bool):
        try:
            server = socket.create_connection(("127.0.0.1", self.upstream), timeout=20)
        except OSError:
            client.close()
            return
        with client, server:
            request = read_message(client)
            if request is None:
                return
            server.sendall(request)
            answer = read_message(server)
            if answer is None:
                return  # the worker died: the phone hears nothing either
            if lose:
                with self.lock:
                    self.lost += 1
                return
            client.sendall(answer)

    def close(self):
        self.listener.close()


def read_message(sock: socket.socket) -> bytes | None:
    """One HTTP/1.1 request or answer with a Content-Length (or none, for a GET)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    wanted = int(length.group(1)) if length else 0
    while len(body) < wanted:
        chunk = sock.recv(65536)
        if not chunk:
            return None
        body += chunk
    return head + b"\r\n\r\n" + body


@dataclass
class Sent:
    cards: str
    version: int  # the version the entry started from
    key: str


@dataclass
class Phone:
    """One phone entering its own seat's hand again and again."""

    port: int
    session: str
    path: str  # the seat's hand URL
    pool: list[str]  # the cards only this seat is ever given
    seed: int
    version: int = 0
    pending: Sent | None = None
    sent: list[Sent] = field(default_factory=list)
    acknowledged: list[Sent] = field(default_factory=list)
    resent: int = 0
    unanswered: int = 0
    conflicts: int = 0
    errors: list[int] = field(default_factory=list)

    def __post_init__(self):
        self.random = random.Random(self.seed)
        self.csrf = secrets.token_hex(16)

    def new_entry(self) -> Sent:
        cards = " ".join(sorted(self.random.sample(self.pool, 3)))
        return Sent(cards, self.version, secrets.token_hex(16))

    def step(self) -> None:
        """One sending: what got no answer again (half the time changed meanwhile, as a player
        tapping while the page waits), or a new entry."""
        if self.pending is not None:
            self.resent += 1
            if self.random.random() < 0.5:
                changed = self.new_entry()
                self.pending = Sent(changed.cards, self.pending.version, self.pending.key)
        else:
            self.pending = self.new_entry()
        self.send(self.pending)

    def send(self, entry: Sent) -> None:
        self.sent.append(entry)
        body = urlencode(
            {
                "outcome": "cards",
                "cards": entry.cards,
                "version": entry.version,
                "save_key": entry.key,
                "save": "1",
                # Three cards of a suit may make a run: the player has said they are cards
                # left, so a hand that melds completely is saved rather than asked about.
                "answer": "cards",
            }
        )
        headers = {
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
            "X-CSRFToken": self.csrf,
            "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded",
            "Connection": "close",
        }
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
            connection.request("POST", self.path, body, headers)
            response = connection.getresponse()
            text = response.read().decode()
            connection.close()
        except (OSError, http.client.HTTPException):
            self.unanswered += 1
            return  # kept, sent again
        # A refusal is answered 200 to the page's script, its status in X-Refused.
        status = status_read(response.status, response.getheader(REFUSED))
        if status == 200:
            self.version = int(response.getheader("X-Hand-Version"))
            self.acknowledged.append(entry)
            self.pending = None
        elif status == 409:
            self.conflicts += 1
            found = re.search(r'name="version" value="(\d+)"', text)
            self.version = int(found.group(1)) if found else self.version
            self.pending = None
        else:
            self.errors.append(status)
            if status < 500:
                self.pending = None


def relay(source: socket.socket, sink: socket.socket, seen=None) -> None:
    """Pass what `source` sends on to `sink` as it comes (each piece to `seen` first), until
    either side closes; then close both ways."""
    try:
        while data := source.recv(65536):
            if seen is not None:
                seen(data)
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


class Balancer(threading.Thread):
    """A load balancer that is not sticky: each new connection goes to the next server in turn,
    its bytes piped both ways as they come (a stream's events too)."""

    def __init__(self, upstreams: list[int]):
        super().__init__(daemon=True)
        self.upstreams, self.turn = upstreams, 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"

    def run(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = self.upstreams[self.turn % len(self.upstreams)]
            self.turn += 1
            threading.Thread(target=self.pipe, args=(client, upstream), daemon=True).start()

    def pipe(self, client: socket.socket, upstream: int):
        try:
            server = socket.create_connection(("127.0.0.1", upstream), timeout=20)
        except OSError:
            client.close()
            return
        server.settimeout(None)
        back = threading.Thread(target=relay, args=(server, client), daemon=True)
        back.start()
        relay(client, server)
        back.join()
        client.close()
        server.close()

    def close(self):
        self.listener.close()
