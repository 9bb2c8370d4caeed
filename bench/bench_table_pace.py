"""Phones at the table's pace against the app as production runs it (gunicorn, DEBUG=0, on a
SQLite file or PostgreSQL), in steps of more and more phones on this machine.

The tables are made through HTTP only, as people make them: a player signs up and starts a
game of 13-card Rummy for five; the other four phones join it by its guest link. Each phone
loads its round page once, then, as the page does:
- polls the round's live URL every 2 s with the ETag it last saw (If-None-Match);
- every ~20 s taps its hand (13 cards, 150 ms apart), which sends one scoring request once the
  taps pause (250 ms), saves it a second later (POST with the version it has), and asks the
  round's summary again when the save says so (HX-Trigger).
With --per-tap the phone sends what the page before issue 18 sent instead: a scoring request
on every tap (13 a hand), each one reaching the server even when the page aborted it.

For each step it prints the requests a second, p50 and p95 of each kind of request, errors
(5xx, refused connections, answers over 10 s) and the server's CPU time per request (of
gunicorn's processes, from /proc). Then, with one phone alone, the CPU of an unchanged poll
and the bytes of an unchanged and a changed poll (headers and body, both ways).

    uv run python -m bench.bench_table_pace                      # SQLite file
    uv run python -m bench.bench_table_pace --postgres postgres://postgres@127.0.0.1:5432/pace
    uv run python -m bench.bench_table_pace --app /tmp/old-checkout --per-tap   # before
    nice uv run python -m bench.bench_table_pace --soak 60 > soak.txt        # an evening

`--soak MINUTES` keeps `--phones` phones (100) at that pace for MINUTES instead of the steps.
Each minute it prints p95 of each kind of request, errors, every gunicorn worker's resident
memory (VmRSS in /proc) and the database's size; at the end, how much the workers' memory grew
after the first five minutes, and the bytes the database gained per save.

`--app` serves another checkout of the project (its own migrations and code): the benchmark
talks to it over HTTP only. Not a test: it prints figures.
"""

import argparse
import asyncio
import gzip
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

from bench import soak
from bench.serving import ROOT, ensure_database, free_port

PHONES_A_TABLE = 5
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
POLL_EVERY = 2.0
SAVE_EVERY = 20.0
BETWEEN_TAPS = 0.15
PAUSE = 0.25  # the page asks once the taps pause this long
TIMEOUT = 10.0
KINDS = ["unchanged poll", "changed poll", "scoring", "save", "summary"]
RUMMY_OPTIONS = {
    "r_decks": "2",
    "r_jokers": "2",
    "r_wild_rank": "",
    "r_all_joker_melds": "yes",
    "r_max_count": "",
    "r_format": "open",
    "r_pool_limit": "101",
    "r_first_drop": "20",
    "r_middle_drop": "40",
    "r_wrong_declaration": "80",
}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = [f"{rank}{suit}" for suit in "CDHS" for rank in RANKS]


class Answer:
    __slots__ = ("status", "headers", "body", "took", "sent", "received")

    def __init__(self, status, headers, body, took, sent, received):
        self.status, self.headers, self.body = status, headers, body
        self.took, self.sent, self.received = took, sent, received


class Client:
    """HTTP/1.1 as a phone's browser speaks it: connections kept alive and used again (each
    phone has its own, as a browser has its own per site); one a request when the server
    closes them (gunicorn's sync workers do)."""

    def __init__(self, port: int):
        self.port = port
        self.timeout = TIMEOUT

    async def request(self, method, path, headers=None, body=b"", idle=None) -> Answer:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if body:
            lines.append(f"Content-Length: {len(body)}")
        data = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        idle = [] if idle is None else idle  # the phone's open connections not in use
        start = time.perf_counter()
        for attempt in range(2):  # a kept connection the server closed meanwhile: once more
            try:
                if idle:
                    reader, writer = idle.pop()
                else:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection("127.0.0.1", self.port), self.timeout
                    )
                writer.write(data)
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.timeout)
                status, headers = parse_head(head)
                length = int(headers.get("content-length", ["0"])[0])
                content = await asyncio.wait_for(reader.readexactly(length), self.timeout)
                break
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
                if attempt:
                    return Answer(0, {}, "", time.perf_counter() - start, len(data), 0)
        took = time.perf_counter() - start
        if "close" in headers.get("connection", [""])[0].lower():
            writer.close()
        else:
            idle.append((reader, writer))
        if headers.get("content-encoding") == ["gzip"]:
            content = gzip.decompress(content)
        text = content.decode("utf-8", "replace")
        return Answer(status, headers, text, took, len(data), len(head) + length)


def parse_head(head: bytes) -> tuple[int, dict]:
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = defaultdict(list)
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name:
            headers[name.strip().lower()].append(value.strip())
    return status, headers


def encode(fields: dict) -> bytes:
    from urllib.parse import urlencode

    return urlencode(fields).encode()


class Phone:
    """One phone: its cookies (a session, a CSRF secret) and the round page it shows."""

    def __init__(self, client: Client, name: str):
        self.client, self.name = client, name
        self.csrf = secrets.token_hex(16)  # a 32-character secret is its own token
        self.cookies = {"csrftoken": self.csrf}
        self.round_url = self.live_url = self.hand_url = ""
        self.etag, self.version = "", 0
        self.idle: list = []  # its connections kept alive
        self.cards: list[str] = []  # the cards its hands are dealt from

    def headers(self, **extra) -> dict:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Cookie": cookie, "Accept-Encoding": "gzip, deflate, br", **extra}

    def keep_cookies(self, answer: Answer) -> None:
        for line in answer.headers.get("set-cookie", []):
            name, _, rest = line.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        self.csrf = self.cookies["csrftoken"]  # logging in gives a new one

    async def get(self, path, **headers) -> Answer:
        answer = await self.client.request("GET", path, self.headers(**headers), idle=self.idle)
        self.keep_cookies(answer)
        return answer

    async def post(self, path, fields: dict, htmx=False) -> Answer:
        headers = self.headers(
            **{"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": self.csrf}
        )
        if htmx:
            headers["HX-Request"] = "true"
        answer = await self.client.request("POST", path, headers, encode(fields), idle=self.idle)
        self.keep_cookies(answer)
        return answer

    def show(self, page: str, seat_index: int) -> None:
        """What the round page tells the phone: its live URL and ETag, its hand's form."""
        self.live_url = re.search(r'data-live-url="([^"]+)"', page).group(1)
        self.etag = re.search(r'data-live-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
        self.hand_url = re.findall(r'<form method="post" action="([^"]+/seats/\d+/)"', page)[
            seat_index
        ]
        self.round_url = self.hand_url.split("seats/")[0]


async def set_up_table(client: Client, index: int) -> list[Phone]:
    """A player signs up and starts a game for five; four phones join by the guest link."""
    owner = Phone(client, f"pace{index}-{secrets.token_hex(3)}")
    password = "Shuffle-" + secrets.token_hex(6)
    answer = await owner.post(
        "/signup/", {"username": owner.name, "password1": password, "password2": password}
    )
    assert answer.status == 302, (answer.status, answer.body[:300])
    answer = await owner.post(
        "/games/new/",
        {"kind": "rummy13", "players": ", ".join(NAMES), "date": date.today().isoformat()}
        | RUMMY_OPTIONS,
    )
    assert answer.status == 302, (answer.status, answer.body[:500])
    game = re.search(r"/games/(\d+)/", answer.headers["location"][0]).group(1)
    answer = await owner.post(f"/games/{game}/guests/", {})
    page = (await owner.get(answer.headers["location"][0])).body
    link = re.search(rf"/games/{game}/guest/[\w-]+/", page).group(0)
    phones = [owner]
    for seat in range(1, PHONES_A_TABLE):
        guest = Phone(client, f"{owner.name}-guest{seat}")
        await guest.get(link)
        answer = await guest.post(link, {"device": f"{NAMES[seat]}'s phone"})
        assert answer.status == 302, (answer.status, answer.body[:300])
        phones.append(guest)
    shoe = DECK * 2  # the game's two decks, shared out so the round's hands never hold a card
    for seat, phone in enumerate(phones):  # more often than the decks have it
        phone.cards = shoe[seat::PHONES_A_TABLE]
        page = await phone.get(f"/games/{game}/rounds/1/")
        assert page.status == 200, page.status
        phone.show(page.body, seat)
    return phones


class Tally:
    def __init__(self):
        self.recording = False  # from the end of the step's warm-up
        self.times = defaultdict(list)
        self.errors = 0
        self.requests = 0
        self.error_kinds = defaultdict(int)  # (kind, status): how many
        self.saves = 0  # saves answered "saved"

    def take(self) -> "Tally":
        """What was counted since the last take, and a fresh count from now."""
        taken = Tally()
        taken.recording = self.recording
        taken.times, self.times = self.times, defaultdict(list)
        taken.error_kinds, self.error_kinds = self.error_kinds, defaultdict(int)
        taken.errors, self.errors = self.errors, 0
        taken.requests, self.requests = self.requests, 0
        taken.saves, self.saves = self.saves, 0
        return taken

    def count(self, kind: str, answer: Answer, expected=(200,)) -> None:
        if not self.recording:
            return
        self.requests += 1
        if answer.status == 0 or answer.status >= 500 or answer.status not in expected:
            self.errors += 1
            self.error_kinds[kind, answer.status] += 1
            return
        self.times[kind].append(answer.took * 1000)


async def poll(phone: Phone, tally: Tally) -> None:
    answer = await phone.get(phone.live_url, **{"If-None-Match": phone.etag})
    kind = "unchanged poll" if answer.status == 304 else "changed poll"
    tally.count(kind, answer, expected=(200, 304))
    if answer.status == 200:
        phone.etag = answer.headers["etag"][0]


async def enter_hand(phone: Phone, tally: Tally, rng: random.Random, per_tap: bool) -> None:
    """Tap 13 cards 150 ms apart, let the page score them, save, and ask the summary again."""
    cards = rng.sample(phone.cards, 13)
    tasks = []
    for count in range(1, 14):
        await asyncio.sleep(BETWEEN_TAPS)
        if per_tap:  # the page before: a request each tap, an aborted one still served
            fields = {"outcome": "cards", "cards": " ".join(cards[: count - 1])}
            fields |= {"tap": cards[count - 1], "version": phone.version}
            tasks.append(asyncio.create_task(score(phone, tally, fields)))
    if not per_tap:
        await asyncio.sleep(PAUSE)
        fields = {"outcome": "cards", "cards": " ".join(cards), "version": phone.version}
        tasks.append(asyncio.create_task(score(phone, tally, fields)))
    await asyncio.gather(*tasks)
    await asyncio.sleep(1.0)  # the player looks, then presses Save
    fields = {"outcome": "cards", "cards": " ".join(cards), "version": phone.version, "save": "1"}
    answer = await phone.post(phone.hand_url, fields, htmx=True)
    tally.count("save", answer, expected=(200, 409))
    version = re.search(r'name="version" value="(\d+)"', answer.body)
    if answer.status == 200:
        phone.version += 1
        if tally.recording:
            tally.saves += 1
    elif version:
        phone.version = int(version.group(1))
    if "round-changed" in answer.headers.get("hx-trigger", [""])[0]:
        summary = await phone.get(phone.round_url, **{"HX-Request": "true"})
        tally.count("summary", summary)


async def score(phone: Phone, tally: Tally, fields: dict) -> None:
    tally.count("scoring", await phone.post(phone.hand_url, fields, htmx=True))


async def run_phone(phone, tally, stop, rng, per_tap) -> None:
    await asyncio.sleep(rng.uniform(0, POLL_EVERY))
    next_save = time.perf_counter() + rng.uniform(2, SAVE_EVERY)
    saving = None
    while time.perf_counter() < stop:
        started = time.perf_counter()
        if started >= next_save and (saving is None or saving.done()):
            saving = asyncio.create_task(enter_hand(phone, tally, rng, per_tap))
            next_save = started + rng.uniform(0.75 * SAVE_EVERY, 1.25 * SAVE_EVERY)
        await poll(phone, tally)
        await asyncio.sleep(max(0.0, POLL_EVERY - (time.perf_counter() - started)))
    if saving is not None:
        await saving


def server_cpu(pid: int) -> dict[int, tuple[str, float]]:
    """CPU seconds of gunicorn's master and workers ("app"), and of the database server's
    processes ("db": PostgreSQL's; SQLite works inside the workers), by process."""
    found = {}
    tick = os.sysconf("SC_CLK_TCK")
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = path.read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        process, parent = int(path.parent.name), int(fields[1])
        used = (int(fields[11]) + int(fields[12])) / tick
        if process == pid or parent == pid:
            found[process] = ("app", used)
        elif name == "postgres":
            found[process] = ("db", used)
    return found


def cpu_between(before: dict, after: dict) -> tuple[float, float]:
    """CPU seconds the app and the database used between two readings (a process that began
    meanwhile counts from zero, one that ended is left out)."""
    used = {"app": 0.0, "db": 0.0}
    for process, (kind, seconds) in after.items():
        used[kind] += seconds - before.get(process, (kind, 0.0))[1]
    return used["app"], used["db"]


WARM_UP = 5.0  # s: the phones of a step catch up with the saves made since they last looked


async def step(phones, server_pid, seconds, per_tap, seed) -> dict:
    tally = Tally()
    rng = random.Random(seed)
    stop = time.perf_counter() + WARM_UP + seconds
    running = asyncio.gather(
        *(run_phone(p, tally, stop, random.Random(rng.random()), per_tap) for p in phones)
    )
    await asyncio.sleep(WARM_UP)
    tally.recording = True
    before = server_cpu(server_pid)
    client_before = time.process_time()
    started = time.perf_counter()
    await running
    elapsed = time.perf_counter() - started
    client = time.process_time() - client_before
    cpu, database = cpu_between(before, server_cpu(server_pid))
    return {"tally": tally, "elapsed": elapsed, "cpu": cpu, "db": database, "client": client}


def pct(values, share):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def print_step(count, result):
    tally = result["tally"]
    rate = tally.requests / result["elapsed"]
    cells = []
    for kind in KINDS:
        times = tally.times[kind]
        cells.append(f"{pct(times, 0.5):5.0f}/{pct(times, 0.95):5.0f}")
    per_request = result["cpu"] / max(tally.requests, 1) * 1000
    server, db, client = (result[k] / result["elapsed"] * 100 for k in ("cpu", "db", "client"))
    print(
        f"{count:>6} {rate:>7.0f}  "
        + "  ".join(f"{c:>11}" for c in cells)
        + f"  {tally.errors:>6} {per_request:>7.2f}  {server:>4.0f}% {db:>4.0f}% {client:>4.0f}%"
    )
    shares = ", ".join(f"{len(tally.times[kind])} {kind}" for kind in KINDS)
    print(f"{'':>15}answers counted: {shares}")
    for (kind, status), times in sorted(tally.error_kinds.items()):
        print(f"{'':>15}{times} {kind}: {status or 'no answer (refused, or over 10 s)'}")


async def alone(client: Client, phone: Phone, server_pid: int) -> None:
    """One phone by itself: an unchanged poll's server CPU, and the bytes of each kind of poll."""
    polls = 400
    first = await phone.get(phone.live_url, **{"If-None-Match": phone.etag})
    if first.status == 200:
        phone.etag = first.headers["etag"][0]
    before = server_cpu(server_pid)
    for _ in range(polls):
        answer = await phone.get(phone.live_url, **{"If-None-Match": phone.etag})
        assert answer.status == 304, answer.status
    cpu, database = (used / polls * 1000 for used in cpu_between(before, server_cpu(server_pid)))
    print(
        f"\nOne phone alone: an unchanged poll (304) costs {cpu:.2f} ms of the app's CPU "
        f"(gunicorn's processes) and {database:.2f} ms of the database server's (mean of {polls})"
    )
    print(f"  bytes of an unchanged poll: {answer.sent} sent, {answer.received} received")
    version = phone.etag.removeprefix("W/").strip('"').split(".")[0]
    if version.isdigit():  # the phone's version is in its ETag: ask as one a save behind
        behind = await phone.get(phone.live_url, **{"If-None-Match": f'"{int(version) - 1}.x"'})
        sizes = f"{behind.sent} sent, {behind.received} received"
        print(f"  bytes of a changed poll, one save behind: {sizes}")
    every = await phone.get(phone.live_url, **{"If-None-Match": '"stale"'})
    print(f"  bytes of a changed poll, nothing known: {every.sent} sent, {every.received} received")


def serve_app(app: Path, env: dict, workers: int, threads: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi", "--workers", str(workers)]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    command += ["--bind", f"127.0.0.1:{port}", "--log-level", "error", "--timeout", "60"]
    server = subprocess.Popen(command, cwd=app, env=os.environ | env)
    import socket

    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return server, port


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (its database is emptied)")
    parser.add_argument("--steps", default="20,100,250,500")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="gthread workers when more than 1")
    parser.add_argument("--per-tap", action="store_true", help="a scoring request each tap")
    parser.add_argument("--app", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--soak", type=int, metavar="MINUTES", help="one step this long, watched")
    parser.add_argument("--phones", type=int, default=100, help="phones of the soak")
    args = parser.parse_args()
    steps = [args.phones] if args.soak else [int(n) for n in args.steps.split(",")]
    env = {
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + secrets.token_hex(24),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "AXES_FAILURE_LIMIT": "100000",
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    if args.postgres:
        ensure_database(args.postgres)
        env["DATABASE_URL"] = args.postgres
        database = "PostgreSQL"
    else:
        env["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "pace.sqlite3")
        database = "SQLite (file, WAL)"
    args.sqlite_path = env.get("SQLITE_PATH")
    manage = [sys.executable, "manage.py"]
    if args.postgres:
        subprocess.run(
            [*manage, "flush", "--noinput"], cwd=args.app, env=os.environ | env, check=True
        )
    subprocess.run([*manage, "migrate", "-v0"], cwd=args.app, env=os.environ | env, check=True)
    subprocess.run(
        [*manage, "collectstatic", "--noinput", "-v0"],
        cwd=args.app,
        env=os.environ | env,
        check=True,
    )
    server, port = serve_app(args.app, env, args.workers, args.threads)
    try:
        asyncio.run(bench(args, steps, server.pid, port, database))
    finally:
        server.terminate()
        server.wait(timeout=20)


async def bench(args, steps, server_pid, port, database):
    client = Client(port)
    tables = -(-max(steps) // PHONES_A_TABLE)
    print(f"Setting up {tables} tables of {PHONES_A_TABLE} phones through HTTP…", flush=True)
    phones = []
    client.timeout = 60.0  # a signup sent twice is refused: on a busy machine, wait for it
    for start in range(0, tables, 10):
        made = await asyncio.gather(
            *(set_up_table(client, i) for i in range(start, min(start + 10, tables)))
        )
        phones += [phone for table in made for phone in table]
    client.timeout = TIMEOUT
    entry = "a scoring request every tap" if args.per_tap else "one scoring request a settled hand"
    print(
        f"\ngunicorn, {args.workers} workers of {args.threads} thread(s), DEBUG=0, {database}; "
        f"{os.cpu_count()} cores "
        f"shared with this client; {entry}; {args.seconds:.0f} s a step"
    )
    if args.soak:
        tally = Tally()

        async def play(phone, stop, seed):
            await run_phone(phone, tally, stop, random.Random(seed), args.per_tap)

        def size():
            return soak.database_bytes(args.sqlite_path, args.postgres)

        await soak.soak(phones, tally, play, server_pid, args.soak, KINDS, pct, size)
        return
    print("milliseconds as p50/p95")
    header = "  ".join(f"{kind:>11}" for kind in KINDS)
    print(
        f"{'phones':>6} {'req/s':>7}  {header}  {'errors':>6} {'cpu/req':>7}  "
        "app   db client (CPU, % of a core)"
    )
    for number, count in enumerate(steps):
        result = await step(phones[:count], server_pid, args.seconds, args.per_tap, number)
        print_step(count, result)
    await alone(client, phones[0], server_pid)


if __name__ == "__main__":
    main()
