"""What a request of each kind costs the interpreter, counted as the machine cannot change it:
the Python function calls it makes (cProfile's count, the same on any machine for the same
code and data), beside its CPU time in this thread back to back and 50 ms apart (as a phone
spaces its requests; the figure the machine moves).

In-process, through the site's WSGI application as production serves it (`scorekeeper.wsgi`:
the live polls' quick answers in front of Django's handler and middlewares), DEBUG=0, on a
SQLite file of its own. The table is made as the table-pace bench makes its tables: a member
starts a game of 13-card Rummy for five, a guest link is opened; then the member's phone sends
what its round page sends (read from Chromium, as bench_table_pace's phones send it):

- an unchanged ask: its round's live URL with the ETag it shows (304);
- a changed ask: the same one save behind, the change kept as drawn for it (a round page
  follows the game);
- scoring: a hand of 13 as tapped, posted to be scored (htmx);
- save: the hand saved, while a member's round page follows the game (its change drawn);
- summary: the round's summary, as asked after a save (htmx);
- round page: the whole round page.

    uv run python -m bench.bench_request_calls            # 200 of each kind
    uv run python -m bench.bench_request_calls --times 50

`--app PATH` counts another checkout (its own code and migrations, this one's interpreter), to
compare two commits side by side. Not a test: it prints figures."""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPACED = 0.05  # s between two requests, as a phone spaces them


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=200, help="requests of each kind")
    parser.add_argument("--app", type=Path, default=ROOT, help="the checkout to count")
    parser.add_argument(
        "--profile", metavar="KIND", help="also print where one kind's calls go (e.g. scoring)"
    )
    args = parser.parse_args()
    database = Path(tempfile.mkdtemp()) / "calls.sqlite3"
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "DEBUG": "0",
        "SECRET_KEY": "bench-calls-" + "x" * 40,
        "ALLOWED_HOSTS": "testserver,127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SQLITE_PATH": str(database),
        "LOG_LEVEL": "ERROR",
        "BENCH_CALLS_TIMES": str(args.times),
        "BENCH_CALLS_PROFILE": args.profile or "",
    }
    manage = [sys.executable, "manage.py", "migrate", "-v0"]
    subprocess.run(manage, cwd=args.app, env=env, check=True)
    # DEBUG=0 serves the pages' assets through the manifest, as production does.
    subprocess.run(
        [*manage[:-2], "collectstatic", "--noinput", "-v0"], cwd=args.app, env=env, check=True
    )
    # Counted in a process of its own, from the checkout's folder (its code, not this one's).
    code = (
        f"import runpy, sys; sys.path.insert(0, {str(args.app)!r}); "
        f"runpy.run_path({__file__!r}, run_name='bench_request_calls_run')['count']()"
    )
    subprocess.run([sys.executable, "-c", code], cwd=args.app, env=env, check=True)


def count():
    """In the checkout's own process: make the table, then count each kind."""
    import cProfile
    import gzip
    import io
    import pstats
    import re
    from datetime import date
    from urllib.parse import urlencode

    import django

    django.setup()
    from django.test import Client

    from bench.bench_table_pace import DECK, NAMES, PHONES_A_TABLE, RUMMY_OPTIONS
    from games.models import Game
    from scorekeeper.wsgi import application

    times = int(os.environ["BENCH_CALLS_TIMES"])
    profiled = os.environ.get("BENCH_CALLS_PROFILE", "")
    phone = Client()
    password = "Shuffle-calls-42x"
    fields = {"username": "counter", "password1": password, "password2": password}
    assert phone.post("/signup/", fields).status_code == 302
    started = phone.post(
        "/games/new/",
        {"kind": "rummy13", "players": ", ".join(NAMES), "date": date.today().isoformat()}
        | RUMMY_OPTIONS,
    )
    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", started["Location"]).group(1)))
    phone.post(f"/games/{game.pk}/guests/", {})  # a guest link: its phones would see changes
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in phone.cookies.items())
    csrf = phone.cookies["csrftoken"].value
    round_url = f"/games/{game.pk}/rounds/1/"
    live_url = f"{round_url}live/"
    answered: list = []

    def send(method, path, body=b"", **headers):
        environ = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "REMOTE_ADDR": "127.0.0.1",
            "REMOTE_PORT": "50000",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_COOKIE": cookies,
            "HTTP_ACCEPT_ENCODING": "gzip, deflate, br",
        }
        if body:
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
            environ["CONTENT_LENGTH"] = str(len(body))
        environ |= {"HTTP_" + name.upper(): value for name, value in headers.items()}
        answered.clear()
        parts = application(environ, lambda status, head, exc=None: answered.extend([status, head]))
        try:
            content = b"".join(parts)
        finally:
            parts.close()
        head = dict(answered[1])
        if head.get("Content-Encoding") == "gzip":
            content = gzip.decompress(content)
        return int(answered[0].split()[0]), head, content.decode()

    status, _, page = send("GET", round_url)
    assert status == 200, status
    hand_url = re.findall(r'<form method="post" action="([^"]+/seats/\d+/)"', page)[0]
    mine = (DECK * 2)[0::PHONES_A_TABLE]
    hands = [mine[:13], mine[1:14]]
    held = {"version": 0, "i": 0}

    def post(save: bool):
        held["i"] += 1
        fields = {"outcome": "cards", "cards": " ".join(hands[held["i"] % 2])}
        fields["version"] = held["version"]
        if save:
            fields["save"] = "1"
        extra = {"X_CSRFTOKEN": csrf, "HX_REQUEST": "true", "ORIGIN": "http://127.0.0.1:8000"}
        status, head, body = send("POST", hand_url, urlencode(fields).encode(), **extra)
        assert status == 200, (status, body[:300])
        if save:
            held["version"] = int(head["X-Hand-Version"])

    def follow():
        try:
            from games.live.changes import mark_followed
        except ImportError:  # a checkout from before saves drew only where followed
            return
        mark_followed([game.pk])  # a member's round page follows the game: saves draw

    def unchanged_ask():
        status, _, _ = send("GET", live_url, IF_NONE_MATCH=held["etag"])
        assert status == 304, status

    def changed_ask():
        status, _, _ = send("GET", live_url, IF_NONE_MATCH=held["behind"])
        assert status == 200, status

    def summary():
        status, _, _ = send("GET", round_url, HX_REQUEST="true", HX_TARGET="round-status")
        assert status == 200, status

    def round_page():
        status, _, _ = send("GET", round_url)
        assert status == 200, status

    def before_asks():
        follow()
        post(True)  # a save made while followed: its change kept as drawn
        version = Game.objects.get(pk=game.pk).version
        _, head, _ = send("GET", live_url)
        held["etag"] = head["ETag"]
        held["behind"] = f'"{version - 1}.x"'

    kinds = [
        ("unchanged ask", unchanged_ask, before_asks),
        ("changed ask", changed_ask, before_asks),
        ("scoring", lambda: post(False), follow),
        ("save", lambda: post(True), follow),
        ("summary", summary, follow),
        ("round page", round_page, follow),
    ]
    print(
        f"Per request, {times} of each kind (in-process, the production WSGI application, "
        "DEBUG=0, SQLite): Python calls (cProfile), CPU ms in this thread back to back and "
        f"{SPACED * 1000:.0f} ms apart (median)"
    )
    print(f"{'kind':>14}  {'calls':>7}  {'back to back':>12}  {'spaced':>7}")
    for name, request, ready in kinds:
        ready()
        for _ in range(20):
            request()
        ready()
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(times):
            request()
        profile.disable()
        stats = pstats.Stats(profile)
        calls = stats.total_calls / times
        if name == profiled:
            print(f"\nWhere the calls of {times} requests of {name} go:")
            stats.sort_stats("cumulative").print_stats(40)
            stats.sort_stats("tottime").print_stats(25)
            if os.environ.get("BENCH_CALLS_DUMP"):
                stats.dump_stats(os.environ["BENCH_CALLS_DUMP"])
        ready()
        started = time.thread_time()
        for _ in range(times):
            request()
        back_to_back = (time.thread_time() - started) / times * 1000
        ready()
        spaced = []
        for _ in range(times):
            time.sleep(SPACED)
            started = time.thread_time()
            request()
            spaced.append((time.thread_time() - started) * 1000)
        print(
            f"{name:>14}  {calls:7.0f}  {back_to_back:9.3f} ms  {statistics.median(spaced):4.2f} ms"
        )


if __name__ == "__main__":
    main()
