"""An evening of play, measured (`bench_table_pace --soak MINUTES`): the same phones at the
table's pace minute after minute, and what grows meanwhile: the workers' memory, response
times, the database."""

import asyncio
import time
from pathlib import Path

SETTLE = 5  # minutes: what grows after these counts as growth (imports, caches filled)
LABELS = {"unchanged poll": "poll 304", "changed poll": "poll 200"}


def workers_of(master: int) -> list[int]:
    """gunicorn's worker processes: the children of its master."""
    found = []
    for path in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = path.read_text()
        except OSError:
            continue
        if int(text.rsplit(")", 1)[1].split()[1]) == master:
            found.append(int(path.parent.name))
    return sorted(found)


def resident_kib(pid: int) -> int:
    """A process's resident memory (VmRSS), in KiB; 0 when it has ended."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def database_bytes(sqlite_path: str | None, postgres: str | None) -> int:
    """The database's size on disk: the SQLite file with its WAL, or pg_database_size."""
    if postgres:
        import psycopg

        with psycopg.connect(postgres) as connection:
            row = connection.execute("SELECT pg_database_size(current_database())").fetchone()
            return row[0]
    return sum(
        Path(name).stat().st_size
        for name in (sqlite_path, f"{sqlite_path}-wal")
        if Path(name).exists()
    )


async def soak(phones, tally, run_phone, server_pid, minutes, kinds, pct, size) -> None:
    """Run `phones` for `minutes`, printing a row a minute and the growth at the end.

    `run_phone(phone, stop, seed)` plays one phone until `stop`; `tally` counts every answer
    (its `take()` hands over the minute's counts); `size()` reads the database's bytes.
    """
    import random

    print(
        f"\nSoak: {len(phones)} phones for {minutes} min; p95 in ms; RSS of each worker in MiB; "
        "database = file + WAL",
        flush=True,
    )
    header = " ".join(f"{LABELS.get(kind, kind):>9}" for kind in kinds)
    print(
        f"{'min':>3} {'UTC':>8} {'load':>4} {'req/s':>5} {header} {'saves':>5} {'err':>4}  "
        f"{'RSS MiB':<14} {'db KiB':>8}"
    )
    stop = time.perf_counter() + minutes * 60
    rng = random.Random(25)
    tally.take()
    tally.recording = True
    running = asyncio.gather(*(run_phone(p, stop, rng.random()) for p in phones))
    rows = []
    started = time.perf_counter()
    for minute in range(1, minutes + 1):
        await asyncio.sleep(max(0.0, started + minute * 60 - time.perf_counter()))
        counted = tally.take()
        workers = workers_of(server_pid)
        memory = {pid: resident_kib(pid) for pid in workers}
        db = size()
        row = {"minute": minute, "memory": memory, "db": db, "saves": counted.saves}
        row["p95"] = {kind: pct(counted.times[kind], 0.95) for kind in kinds}
        rows.append(row)
        p95 = " ".join(f"{row['p95'][kind]:>9.0f}" for kind in kinds)
        rss = ",".join(f"{kib / 1024:.0f}" for kib in memory.values())
        errors = ", ".join(f"{n} {k}:{st}" for (k, st), n in sorted(counted.error_kinds.items()))
        load = Path("/proc/loadavg").read_text().split()[0]  # the machine is shared: say how busy
        print(
            f"{minute:>3} {time.strftime('%H:%M:%S', time.gmtime())} {float(load):>4.1f} "
            f"{counted.requests / 60:>5.0f} {p95} {counted.saves:>5} {counted.errors:>4}  "
            f"{rss:<14} {db / 1024:>8.0f}" + (f"  {errors}" if errors else ""),
            flush=True,
        )
    await running
    report_growth(rows, kinds)


def report_growth(rows: list[dict], kinds: list[str]) -> None:
    """Memory and p95 at the end against the end of minute SETTLE; bytes per save after it."""
    if len(rows) <= SETTLE:
        print(f"\n(growth is measured after minute {SETTLE}: run longer)")
        return
    base, last = rows[SETTLE - 1], rows[-1]
    print(f"\nGrowth from the end of minute {SETTLE} to the end of minute {last['minute']}:")
    for pid, kib in last["memory"].items():
        before = base["memory"].get(pid)
        if before:
            print(
                f"  worker {pid}: {before / 1024:.1f} -> {kib / 1024:.1f} MiB "
                f"({(kib - before) / before * 100:+.1f}%)"
            )
        else:
            print(f"  worker {pid}: began after minute {SETTLE} (a restarted worker)")
    total_before = sum(base["memory"].values())
    total_after = sum(last["memory"].values())
    print(
        f"  all workers: {total_before / 1024:.1f} -> {total_after / 1024:.1f} MiB "
        f"({(total_after - total_before) / total_before * 100:+.1f}%)"
    )
    saves = sum(row["saves"] for row in rows[SETTLE:])
    added = last["db"] - base["db"]
    print(
        f"  database: {added / 1024:+.0f} KiB over {saves} saves: "
        f"{added / max(saves, 1):.0f} B a save"
    )
    for kind in kinds:
        early = [row["p95"][kind] for row in rows[SETTLE : SETTLE + 5]]
        late = [row["p95"][kind] for row in rows[-5:]]
        print(
            f"  p95 {kind}: {sorted(early)[len(early) // 2]:.0f} ms (minutes {SETTLE + 1}-"
            f"{SETTLE + len(early)}, median) -> {sorted(late)[len(late) // 2]:.0f} ms "
            f"(last {len(late)})"
        )
