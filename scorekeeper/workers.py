"""gunicorn's worker for the site: uvicorn's (uvicorn-worker), whose server wakes once a second
while idle instead of ten times.

uvicorn's main loop ticks every 0.1 s to see whether it should stop, and does anything else only
every tenth tick (the Date header, gunicorn's heartbeat). On this project's two-core machine
each tick cost a worker about 0.5 ms of CPU (an interpreter woken from sleep, its caches cold):
5-6 ms of CPU a second a worker with nothing to do, the larger part of what an idle server
used. Here the loop sleeps a second between ticks, and a signal to stop (SIGTERM, SIGINT)
wakes it at once, so a stop or a restart takes no longer than before. Everything else is
uvicorn-worker's (`_serve` is its own, with QuietServer in place of Server)."""

import asyncio
import contextlib
import sys

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server
from uvicorn_worker import UvicornWorker

TICK = 1.0  # seconds between two looks of an idle server at whether it should stop
TICKS = 10  # uvicorn's ticks in one of these: its once-a-second work is done at each


class QuietServer(Server):
    """uvicorn's Server with a main loop that ticks every TICK seconds, and at once when told
    to stop."""

    stop_now: asyncio.Event | None = None
    loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.stop_now = asyncio.Event()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + TICKS) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop_now.wait(), TICK)
            should_exit = await self.on_tick(counter)

    def handle_exit(self, sig, frame) -> None:
        super().handle_exit(sig, frame)
        if self.stop_now is not None:
            # uvicorn 0.54 installs its handlers with signal.signal: they run in the main
            # thread (the loop's) between two steps, so the event is set through the loop.
            self.loop.call_soon_threadsafe(self.stop_now.set)


class QuietUvicornWorker(UvicornWorker):
    """uvicorn-worker's UvicornWorker, serving with QuietServer."""

    async def _serve(self) -> None:
        self.config.app = self.wsgi
        server = QuietServer(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
