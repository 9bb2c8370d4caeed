"""Phones at the table's pace against the app as production runs it (gunicorn, DEBUG=0, on a
SQLite file or PostgreSQL), in steps of more and more phones on this machine.

The tables are made through HTTP only, as people make them: a player signs up and starts a
game of 13-card Rummy for five; the other four phones join it by its guest link. Each phone
sends what the round page sends in Chromium (read from Chromium's own requests, two phones at a
table: the page, its stream, one ask of the live URL each time the stream speaks, a scoring
request once taps pause, the save):
- it loads its round page, opens the game's stream (`Accept: text/event-stream`, held open,
  opened again a second after it drops) and, each time the stream tells a version, asks the
  round's live URL once with the ETag it last saw (If-None-Match); a change the stream carries
  (a save's, drawn where it was made) it takes without asking when it shows the version before,
  is neither asking nor saving, and no save of its own answered since is newer than the
  change (X-Game-Version), as the page does;
- every ~20 s taps its hand (13 cards, 150 ms apart), which sends one scoring request once the
  taps pause (250 ms), and saves it a second later (POST with the version it has); its own
  stream's word then brings the round's summary.
With --poll the phone does what the page before the stream did: no stream, the live URL asked
every 2 s, and the round's summary asked again after each save (HX-Trigger). With --per-tap a
scoring request on every tap (13 a hand), as before issue 18.

For each step it prints the requests a second, p50 and p95 of each kind of request, errors
(5xx, refused connections, answers over 10 s), the server's CPU time per request (of
gunicorn's processes, from /proc), and how long a save takes to show on the table's other
phones: from the save sent to the moment each of them holds the live answer that shows it.
Then, with one phone alone (its stream open, its requests 50 ms apart as a phone spaces them),
per request of each kind: the server's user and system CPU, its threads' voluntary and
involuntary context switches, and (under `strace -f -c`, a pass of its own; `--no-strace` leaves
it out) its syscalls with the five most made; and the bytes of an unchanged and a changed ask
(headers and body, both ways). `--steps ''` runs the one-phone step alone.

    uv run python -m bench.bench_table_pace                      # SQLite file
    uv run python -m bench.bench_table_pace --postgres postgres://postgres@127.0.0.1:5432/pace
    uv run python -m bench.bench_table_pace --app /tmp/old-checkout --poll      # before
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
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

from bench import soak
from bench.serving import ROOT, ensure_database, free_port
from games.answers import status_read
from tests.faults import PRODUCTION  # the README's production command

PHONES_A_TABLE = 5
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
POLL_EVERY = 2.0
SAVE_EVERY = 20.0
BETWEEN_TAPS = 0.15
PAUSE = 0.25  # the page asks once the taps pause this long
TIMEOUT = 10.0
KINDS = ["unchanged ask", "changed ask", "scoring", "save", "summary", "stream"]
RETRY = 1.0  # s: EventSource opens a dropped stream again after the server's `retry`
SPREAD = 0.15  # s: the page asks within this of its stream's word (static/js/live.js)
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
        for attempt in range(2):  # a kept connection the server closed meanwhile: once more,
            try:  # on a new one, as a browser does
                if idle and not attempt:
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
        # A refusal is answered 200 to the page's script, its own status in X-Refused (as the
        # page reads it: games/answers.py).
        status = status_read(status, headers.get("x-refused", [None])[0])
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
        # The token the page it shows sends with its scripts' posts (base.html's hx-headers:
        # the secret masked, 64 characters, as Chromium sends it); the secret before any page.
        self.token = ""
        self.round_url = self.live_url = self.hand_url = ""
        self.etag, self.version = "", 0
        self.idle: list = []  # its connections kept alive
        self.cards: list[str] = []  # the cards its hands are dealt from
        self.stream_url = ""
        self.table: Table | None = None
        self.asking = False
        self.again = False  # the stream spoke while asking: ask once more
        self.posting = False  # its save under way
        self.held: list[bytes] = []  # changes its stream carried while its save was under way
        self.posts = 0  # its posts answered (scoring, saves), as live.js counts them
        self.posts_at_etag = 0  # ... when the state it shows (etag) was set
        self.made_version = 0  # the latest game version its own saves made (X-Game-Version)

    def headers(self, **extra) -> dict:
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        return {"Cookie": cookie, "Accept-Encoding": "gzip, deflate, br", **extra}

    def keep_cookies(self, answer: Answer) -> None:
        for line in answer.headers.get("set-cookie", []):
            name, _, rest = line.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        if self.cookies["csrftoken"] != self.csrf:  # logging in gives a new one
            self.csrf, self.token = self.cookies["csrftoken"], ""

    async def get(self, path, **headers) -> Answer:
        answer = await self.client.request("GET", path, self.headers(**headers), idle=self.idle)
        self.keep_cookies(answer)
        return answer

    async def post(self, path, fields: dict, htmx=False) -> Answer:
        headers = self.headers(
            **{
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.token or self.csrf,
            }
        )
        if htmx:
            headers["HX-Request"] = "true"
        answer = await self.client.request("POST", path, headers, encode(fields), idle=self.idle)
        self.keep_cookies(answer)
        return answer

    def show(self, page: str, seat_index: int) -> None:
        """What the round page tells the phone: its live URL and ETag, its hand's form."""
        self.live_url = re.search(r'data-live-url="([^"]+)"', page).group(1)
        stream = re.search(r'data-live-stream="([^"]+)"', page)  # none before the stream
        self.stream_url = stream.group(1) if stream else ""
        self.etag = re.search(r'data-live-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
        self.hand_url = re.findall(r'<form method="post" action="([^"]+/seats/\d+/)"', page)[
            seat_index
        ]
        self.round_url = self.hand_url.split("seats/")[0]
        token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page)
        self.token = token.group(1) if token else ""


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
    table = Table()
    for phone in phones:
        phone.table = table
    shoe = DECK * 2  # the game's two decks, shared out so the round's hands never hold a card
    for seat, phone in enumerate(phones):  # more often than the decks have it
        phone.cards = shoe[seat::PHONES_A_TABLE]
        page = await phone.get(f"/games/{game}/rounds/1/")
        assert page.status == 200, page.status
        phone.show(page.body, seat)
    table.version = version_of(phones[0].etag)
    return phones


class Table:
    """A table's saves, by the game version each made, and when each phone showed them."""

    def __init__(self):
        self.version = 0  # the game's, as its phones last heard
        self.sent: dict[int, tuple[Phone, float]] = {}  # version: (the saving phone, sent at)
        self.shown: dict[int, list[tuple[Phone, float]]] = defaultdict(list)

    def delays(self, since: float) -> list[float]:
        """Seconds from each save sent (after `since`) to each other phone holding it."""
        found = []
        for version, (saver, sent) in self.sent.items():
            if sent >= since:
                found += [t - sent for phone, t in self.shown[version] if phone is not saver]
        return found


def version_of(etag: str) -> int:
    head = etag.removeprefix("W/").strip('"').split(".")[0]
    return int(head) if head.isdigit() else 0


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


async def ask(phone: Phone, tally: Tally) -> None:
    """Ask the live URL with the ETag shown (static/js/live.js): one at a time, once more if the
    stream spoke meanwhile."""
    if phone.asking:
        phone.again = True
        return
    phone.asking = True
    try:
        while True:
            phone.again = False
            answer = await phone.get(phone.live_url, **{"If-None-Match": phone.etag})
            kind = "unchanged ask" if answer.status == 304 else "changed ask"
            tally.count(kind, answer, expected=(200, 304))
            if answer.status == 200:
                before, phone.etag = version_of(phone.etag), answer.headers["etag"][0]
                phone.posts_at_etag = phone.posts
                if phone.table is not None:
                    now = time.perf_counter()
                    for version in range(before + 1, version_of(phone.etag) + 1):
                        phone.table.shown[version].append((phone, now))
            if not phone.again:
                return
    finally:
        phone.asking = False


async def follow(phone: Phone, tally: Tally, stop: float) -> None:
    """Hold the game's stream as EventSource does: each event but a ping asks the live URL;
    a dropped stream is opened again after RETRY seconds."""
    while time.perf_counter() < stop:
        opened = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", phone.client.port), TIMEOUT
            )
        except (OSError, TimeoutError):
            tally.count("stream", Answer(0, {}, "", 0, 0, 0))
            await asyncio.sleep(RETRY)
            continue
        headers = phone.headers(Accept="text/event-stream", **{"Cache-Control": "no-cache"})
        lines = [f"GET {phone.stream_url} HTTP/1.1", f"Host: 127.0.0.1:{phone.client.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
            status, _ = parse_head(head)
            first = True
            buffer = b""
            while time.perf_counter() < stop:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break  # the server closed the stream (it stops): open it again
                buffer += await reader.readexactly(size + 2)
                while b"\n\n" in buffer:
                    event, buffer = buffer.split(b"\n\n", 1)
                    if first:
                        took = time.perf_counter() - opened
                        tally.count("stream", Answer(status, {}, "", took, 0, 0))
                        first = False
                    if b"event: ping" in event:
                        continue
                    if b"event: change" in event and phone.posting and not phone.asking:
                        phone.held.append(event)  # taken up when the save is answered
                        continue
                    if carried(phone, event):
                        continue
                    # Word of a change: asked within SPREAD, as live.js does.
                    asyncio.get_running_loop().call_later(
                        random.uniform(0, SPREAD), asyncio.create_task, ask(phone, tally)
                    )
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(RETRY)


def carried(phone: Phone, event: bytes) -> bool:
    """A change the stream carries, taken as live.js takes it: when the phone shows the version
    it changes and neither asks nor posts meanwhile. False: the phone asks instead."""
    if b"event: change" not in event:
        return False
    data = [line[6:] for line in event.decode().split("\n") if line.startswith("data: ")]
    start, _, etag = data[0].partition(" ")
    if not etag or start != str(version_of(phone.etag)) or phone.asking or phone.posting:
        return False
    if phone.posts != phone.posts_at_etag and version_of(etag) < phone.made_version:
        return False  # its own save, answered since, is newer than this change: asked about
    before, phone.etag = version_of(phone.etag), etag
    if phone.table is not None:
        now = time.perf_counter()
        for version in range(before + 1, version_of(etag) + 1):
            phone.table.shown[version].append((phone, now))
    return True


async def enter_hand(phone: Phone, tally: Tally, rng: random.Random, per_tap: bool, push) -> None:
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
    sent = time.perf_counter()
    phone.posting = True
    try:
        answer = await phone.post(phone.hand_url, fields, htmx=True)
    finally:
        phone.posting = False
        phone.posts += 1
    tally.count("save", answer, expected=(200, 409))
    made = answer.headers.get("x-game-version", ["0"])[0]
    if made.isdigit():
        phone.made_version = max(phone.made_version, int(made))
    if answer.status == 200 and phone.table is not None:
        # Each save is one version of the game; a table's saves seldom cross (one in ~4 s).
        phone.table.version += 1
        phone.table.sent[phone.table.version] = (phone, sent)
    # The changes heard meanwhile, in order, as live.js takes them up: each carried if it
    # follows on from what the phone shows; the first that does not is asked about.
    held, phone.held = phone.held, []
    if held and (phone.asking or not all(carried(phone, event) for event in held)):
        asyncio.create_task(ask(phone, tally))
    version = re.search(r'name="version" value="(\d+)"', answer.body)
    if answer.status == 200:
        phone.version += 1
        if tally.recording:
            tally.saves += 1
    elif version:
        phone.version = int(version.group(1))
    if "round-changed" in answer.headers.get("hx-trigger", [""])[0] and not push:
        # With its stream, the page asks its live URL at the stream's word instead.
        summary = await phone.get(phone.round_url, **{"HX-Request": "true"})
        tally.count("summary", summary)


async def score(phone: Phone, tally: Tally, fields: dict) -> None:
    tally.count("scoring", await phone.post(phone.hand_url, fields, htmx=True))
    phone.posts += 1


async def run_phone(phone, tally, stop, rng, per_tap, push=True) -> None:
    await asyncio.sleep(rng.uniform(0, POLL_EVERY))
    next_save = time.perf_counter() + rng.uniform(2, SAVE_EVERY)
    saving = None
    following = asyncio.create_task(follow(phone, tally, stop)) if push else None
    while time.perf_counter() < stop:
        started = time.perf_counter()
        if started >= next_save and (saving is None or saving.done()):
            saving = asyncio.create_task(enter_hand(phone, tally, rng, per_tap, push))
            next_save = started + rng.uniform(0.75 * SAVE_EVERY, 1.25 * SAVE_EVERY)
        if not push:
            await ask(phone, tally)
        await asyncio.sleep(
            max(0.0, (POLL_EVERY if not push else 0.25) - (time.perf_counter() - started))
        )
    if saving is not None:
        await saving
    if following is not None:
        following.cancel()


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


async def step(phones, server_pid, seconds, per_tap, seed, push=True) -> dict:
    tally = Tally()
    rng = random.Random(seed)
    stop = time.perf_counter() + WARM_UP + seconds
    running = asyncio.gather(
        *(run_phone(p, tally, stop, random.Random(rng.random()), per_tap, push) for p in phones)
    )
    await asyncio.sleep(WARM_UP)
    tally.recording = True
    since = time.perf_counter()
    before = server_cpu(server_pid)
    client_before = time.process_time()
    started = time.perf_counter()
    await running
    elapsed = time.perf_counter() - started
    client = time.process_time() - client_before
    cpu, database = cpu_between(before, server_cpu(server_pid))
    tables = {id(p.table): p.table for p in phones if p.table is not None}.values()
    delays = [d * 1000 for table in tables for d in table.delays(since)]
    return {
        "tally": tally,
        "elapsed": elapsed,
        "cpu": cpu,
        "db": database,
        "client": client,
        "delays": delays,
    }


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
    delays = result["delays"]
    print(
        f"{'':>15}a save shown on the table's other phones: p50 {pct(delays, 0.5):.0f} ms, "
        f"p95 {pct(delays, 0.95):.0f} ms, max {max(delays, default=float('nan')):.0f} ms "
        f"({len(delays)} times, from the save sent to the live answer that shows it)"
    )
    for (kind, status), times in sorted(tally.error_kinds.items()):
        print(f"{'':>15}{times} {kind}: {status or 'no answer (refused, or over 10 s)'}")


SPACED = 0.05  # s between one phone's requests in the one-phone step, as a phone spaces them
ALONE_TIMES = 200  # requests of each kind timed (no tracer attached)
TRACED_TIMES = 60  # requests of each kind under strace, for the syscalls
IDLE_SECONDS = 10.0  # the server watched with the phone's stream open and nothing asked


def server_tasks(pid: int) -> list[Path]:
    """/proc folders of every thread of gunicorn's master and workers."""
    found = []
    for process in [pid, *children(pid)]:
        found += list(Path(f"/proc/{process}/task").glob("[0-9]*"))
    return found


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(n) for n in text.split()]


def server_counts(pid: int) -> dict:
    """User and system CPU seconds, voluntary and involuntary context switches of the server's
    processes (all their threads, gunicorn's master included), by thread."""
    tick = os.sysconf("SC_CLK_TCK")
    counts = {}
    for task in server_tasks(pid):
        try:
            stat = (task / "stat").read_text().rsplit(")", 1)[1].split()
            status = (task / "status").read_text()
        except OSError:
            continue
        switches = dict(
            line.split(":\t") for line in status.splitlines() if "ctxt_switches" in line
        )
        counts[str(task)] = (
            int(stat[11]) / tick,
            int(stat[12]) / tick,
            int(switches["voluntary_ctxt_switches"]),
            int(switches["nonvoluntary_ctxt_switches"]),
        )
    return counts


def cpu_by_thread(before: dict, after: dict, root: int) -> dict[str, float]:
    """CPU seconds (user + system) between two readings: of the workers' event loops (each
    worker's main thread), of their other threads (the page threads, the hub's), and of
    gunicorn's master."""
    used = {"loop": 0.0, "threads": 0.0, "master": 0.0}
    for task, values in after.items():
        was = before.get(task, (0, 0, 0, 0))
        process, tid = task.split("/")[2], task.rsplit("/", 1)[1]
        kind = "master" if process == str(root) else "loop" if tid == process else "threads"
        used[kind] += values[0] - was[0] + values[1] - was[1]
    return used


def counts_between(before: dict, after: dict) -> tuple[float, float, int, int]:
    """(user s, system s, voluntary, involuntary) between two readings (a thread begun meanwhile
    counts from zero; one that ended is left out)."""
    used = [0.0, 0.0, 0, 0]
    for task, values in after.items():
        was = before.get(task, (0, 0, 0, 0))
        for i in range(4):
            used[i] += values[i] - was[i]
    return tuple(used)


class Tracer:
    """strace -c attached to every thread of the server's processes: syscalls by name."""

    def __init__(self, pid: int):
        self.out = Path(tempfile.mkstemp(suffix=".strace")[1])
        command = ["strace", "-f", "-c", "-q", "-o", str(self.out)]
        for process in [pid, *children(pid)]:
            command += ["-p", str(process)]
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        tasks = server_tasks(pid)
        for _ in range(100):  # attached: every thread has a tracer
            if all(_traced(task) for task in tasks):
                break
            time.sleep(0.05)

    def stop(self) -> dict[str, int]:
        self.process.send_signal(2)
        self.process.wait(timeout=30)
        calls = {}
        for line in self.out.read_text().splitlines():
            fields = line.split()  # % time, seconds, usecs/call, calls, [errors,] syscall
            if len(fields) in (5, 6) and fields[3].isdigit() and fields[-1] != "total":
                calls[fields[-1]] = int(fields[3])
        self.out.unlink()
        return calls


def _traced(task: Path) -> bool:
    try:
        status = (task / "status").read_text()
    except OSError:
        return True
    return any(
        line.startswith("TracerPid:") and line.split()[1] != "0" for line in status.splitlines()
    )


async def hold_stream(phone: Phone) -> None:
    """The phone's stream, held open and read (as its page holds it) until cancelled."""
    reader, writer = await asyncio.open_connection("127.0.0.1", phone.client.port)
    headers = phone.headers(Accept="text/event-stream", **{"Cache-Control": "no-cache"})
    lines = [f"GET {phone.stream_url} HTTP/1.1", f"Host: 127.0.0.1:{phone.client.port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    try:
        while await reader.read(65536):
            pass
    finally:
        writer.close()


async def alone(client: Client, phone: Phone, server_pid: int, push: bool, trace: bool) -> None:
    """One phone by itself, its stream open, its requests SPACED apart as a phone spaces them:
    per request of each kind the server's CPU (user and system), its threads' voluntary and
    involuntary context switches, and (under strace, a pass of its own) its syscalls; then the
    bytes of an unchanged and a changed ask."""
    first = await phone.get(phone.live_url, **{"If-None-Match": phone.etag})
    if first.status == 200:
        phone.etag = first.headers["etag"][0]
    hands = [phone.cards[:13], phone.cards[1:14]]

    async def unchanged_ask(i):
        return await phone.get(phone.live_url, **{"If-None-Match": phone.etag}), 304

    async def changed_ask(i):  # one save behind
        behind = f'"{version_of(phone.etag) - 1}.x"'
        return await phone.get(phone.live_url, **{"If-None-Match": behind}), 200

    async def scoring(i):
        fields = {"outcome": "cards", "cards": " ".join(hands[i % 2]), "version": phone.version}
        return await phone.post(phone.hand_url, fields, htmx=True), 200

    async def save(i):
        fields = {"outcome": "cards", "cards": " ".join(hands[i % 2]), "version": phone.version}
        answer = await phone.post(phone.hand_url, fields | {"save": "1"}, htmx=True)
        shown = re.search(r'name="version" value="(\d+)"', answer.body)
        if answer.status == 409 and shown:  # its hand moved on in the steps before: from there
            phone.version = int(shown.group(1))
            return await save(i)
        phone.version += 1
        return answer, 200

    async def summary(i):
        headers = {"HX-Request": "true", "HX-Target": "round-status", "HX-Trigger": "round-status"}
        return await phone.get(phone.round_url, **headers), 200

    async def round_page(i):
        return await phone.get(phone.round_url), 200

    async def run(kind, times):
        answer = None
        if kind is changed_ask:
            # One save behind: the phone saves first (its stream open, as a phone's is), so the
            # change it asks for is a save's, as after word of a save (without steps before it,
            # the table's last change is a guest joining, which no phone asks about).
            await save(0)
            phone.etag = (await phone.get(phone.live_url)).headers["etag"][0]
        for i in range(times):
            answer, expected = await kind(i)
            assert answer.status == expected, (kind.__name__, answer.status, answer.body[:300])
            await asyncio.sleep(SPACED)
        if kind is save:  # the phone's ETag is behind its own saves now
            phone.etag = (await phone.get(phone.live_url)).headers["etag"][0]
        return answer

    streaming = asyncio.create_task(hold_stream(phone)) if push and phone.stream_url else None
    await asyncio.sleep(0.5)
    kinds = [unchanged_ask, changed_ask, scoring, save, summary, round_page]
    print(
        f"\nOne phone alone, its stream open, requests {SPACED * 1000:.0f} ms apart: per request "
        f"(mean of {ALONE_TIMES}) the server's CPU in ms (app = gunicorn's processes, user + "
        "system; db = PostgreSQL's), its threads' context switches (voluntary + involuntary)"
        + (f", and syscalls (strace -f -c, {TRACED_TIMES} more requests)" if trace else "")
    )
    # The server with the phone's stream open and nothing asked: what it does on its own.
    before = server_counts(server_pid)
    await asyncio.sleep(IDLE_SECONDS)
    user, system, voluntary, involuntary = counts_between(before, server_counts(server_pid))
    per_second = (user + system) / IDLE_SECONDS * 1000
    print(
        f"  {'idle':>14}: app {per_second:6.2f} ms of CPU a second, switches"
        f" {(voluntary + involuntary) / IDLE_SECONDS:5.1f} a second (over {IDLE_SECONDS:.0f} s)"
    )
    for kind in kinds:
        before, db_before = server_counts(server_pid), server_cpu(server_pid)
        answer = await run(kind, ALONE_TIMES)
        after = server_counts(server_pid)
        user, system, voluntary, involuntary = counts_between(before, after)
        threads = cpu_by_thread(before, after, server_pid)
        _, database = cpu_between(db_before, server_cpu(server_pid))
        n = ALONE_TIMES
        name = kind.__name__.replace("_", " ")
        print(
            f"  {name:>14}: app {(user + system) / n * 1000:6.2f} = user {user / n * 1000:6.2f}"
            f" + sys {system / n * 1000:5.2f}  db {database / n * 1000:5.2f}  switches"
            f" {(voluntary + involuntary) / n:5.1f} = {voluntary / n:5.1f} + {involuntary / n:5.1f}"
            f"  ({answer.received} bytes back)"
        )
        print(
            f"{'':>18}by thread: event loops {threads['loop'] / n * 1000:5.2f}, other threads"
            f" {threads['threads'] / n * 1000:5.2f}, master {threads['master'] / n * 1000:5.2f}"
        )
        if trace:
            tracer = Tracer(server_pid)
            await run(kind, TRACED_TIMES)
            calls = tracer.stop()
            total = sum(calls.values()) / TRACED_TIMES
            top = sorted(calls.items(), key=lambda item: -item[1])[:5]
            named = ", ".join(f"{call} {count / TRACED_TIMES:.1f}" for call, count in top)
            print(f"{'':>18}syscalls {total:6.1f}: {named}")
    if streaming is not None:
        streaming.cancel()
    answer, _ = await unchanged_ask(0)
    print(f"  bytes of an unchanged ask: {answer.sent} sent, {answer.received} received")
    answer, _ = await changed_ask(0)
    print(
        f"  bytes of a changed ask, one save behind: {answer.sent} sent, {answer.received} received"
    )


def serve_app(app: Path, env: dict, workers: int, threads: int) -> tuple[subprocess.Popen, int]:
    """The README's production command (gunicorn with the site's uvicorn workers on the ASGI
    application, WEB_THREADS threads each); a checkout from before it, gunicorn's sync or
    gthread workers."""
    port = free_port()
    command = [sys.executable]
    if (app / "scorekeeper" / "workers.py").is_file():
        command += PRODUCTION
        env = env | {"WEB_THREADS": str(threads)}
    elif (app / "games" / "live").is_dir():  # before the site's own worker: uvicorn-worker's
        command += ["-m", "gunicorn", "scorekeeper.asgi"]
        command += ["--worker-class", "uvicorn_worker.UvicornWorker"]
        env = env | {"WEB_THREADS": str(threads)}
    else:
        command += ["-m", "gunicorn", "scorekeeper.wsgi"]
        if threads > 1:
            command += ["--worker-class", "gthread", "--threads", str(threads)]
    command += ["--workers", str(workers)]
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
    parser.add_argument("--steps", default="500,1000", help="phones of each step ('': none)")
    parser.add_argument(
        "--no-strace", action="store_true", help="one phone alone without counting its syscalls"
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="threads a worker (WEB_THREADS)")
    parser.add_argument("--poll", action="store_true", help="ask every 2 s, no stream (before)")
    parser.add_argument("--per-tap", action="store_true", help="a scoring request each tap")
    parser.add_argument("--app", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--soak", type=int, metavar="MINUTES", help="one step this long, watched")
    parser.add_argument("--phones", type=int, default=100, help="phones of the soak")
    args = parser.parse_args()
    steps = [args.phones] if args.soak else [int(n) for n in args.steps.split(",") if n]
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
    tables = max(1, -(-max(steps, default=0) // PHONES_A_TABLE))
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
    entry += "; asking every 2 s (no stream)" if args.poll else "; a stream each"
    print(
        f"\ngunicorn, {args.workers} workers of {args.threads} thread(s), DEBUG=0, {database}; "
        f"{os.cpu_count()} cores "
        f"shared with this client; {entry}; {args.seconds:.0f} s a step"
    )
    if args.soak:
        tally = Tally()

        async def play(phone, stop, seed):
            await run_phone(phone, tally, stop, random.Random(seed), args.per_tap, not args.poll)

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
        result = await step(
            phones[:count], server_pid, args.seconds, args.per_tap, number, not args.poll
        )
        print_step(count, result)
    trace = not args.no_strace and shutil.which("strace") is not None
    await alone(client, phones[0], server_pid, not args.poll, trace)


if __name__ == "__main__":
    main()
