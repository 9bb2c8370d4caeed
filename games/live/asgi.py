"""The site's ASGI application: the pages through Django's WSGI handler on a fixed pool of
threads (`bridge`: one hand-off each way a request), and the streams on the event loop.

Why not Django's own ASGI handler: it runs each request's view on a thread made for that
request, so a database connection can't outlive the request (Django's advice under ASGI is
CONN_MAX_AGE=0: a new connection for every request), and it spools a request body over 2.5 MB
to a file on disk, where a hand's photo must stay in memory. On a fixed pool each thread keeps
its connection as a threaded WSGI worker does, and a body is read from memory."""

import asyncio
import contextlib
import os
import signal
import threading

from django.db import connections

from .bridge import Pages
from .hub import Hub
from .streams import HOLDER, Holder

THREADS = int(os.environ.get("WEB_THREADS", "1"))


class LiveApplication:
    def __init__(self, wsgi_app, threads: int = THREADS):
        self.threads = threads
        self.pages = Pages(wsgi_app, threads)
        self.hub = Hub()

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            await self.lifespan(receive, send)
        elif scope["type"] == "http":
            await self.http(scope, receive, send)

    async def http(self, scope, receive, send):
        holder = Holder()
        token = HOLDER.set(holder)
        try:
            answer = await self.pages.answer(scope, receive)
        finally:
            HOLDER.reset(token)
        if answer is None:  # the phone went before its request was read
            return
        streaming = (
            holder.opened is not None
            and answer.status == 200
            and answer.header(b"content-type").startswith(b"text/event-stream")
            and not answer.header(b"content-encoding")
        )
        headers = answer.headers
        if streaming:  # kept open (no length, no end) for the hub to go on
            headers = [(k, v) for k, v in headers if k != b"content-length"]
        await send({"type": "http.response.start", "status": answer.status, "headers": headers})
        more = streaming or answer.rest is not None
        await send({"type": "http.response.body", "body": answer.body, "more_body": more})
        if answer.rest is not None:
            async for part in self.pages.rest_of(answer):
                await send({"type": "http.response.body", "body": part, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        if streaming:
            await self.hub.serve(holder.opened, receive, send)

    async def lifespan(self, receive, send):
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.loop = asyncio.get_running_loop()
                self.on_stop(self.loop)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.hub.drain()
                await asyncio.get_running_loop().run_in_executor(None, self.close)
                await send({"type": "lifespan.shutdown.complete"})
                return

    def close(self) -> None:
        """Stopped: each thread closes its database connections (one task on each thread: none
        returns before all have started), and the threads end."""
        self.hub.close()
        all_there = threading.Barrier(self.threads)

        def close_own():
            connections.close_all()
            all_there.wait(timeout=10)

        executor = self.pages.executor
        for closing in [executor.submit(close_own) for _ in range(self.threads)]:
            closing.result()
        executor.shutdown(wait=True)

    def on_stop(self, loop) -> None:
        """When the server is told to stop, close the streams at once rather than wait for
        their phones to go: the server waits for open responses before it exits, and each phone
        opens its stream again on another worker."""
        for number in (signal.SIGTERM, signal.SIGINT):
            before = signal.getsignal(number)
            if not callable(before):
                continue

            def stopping(signum, frame, before=before):
                loop.call_soon_threadsafe(self.hub.drain)
                before(signum, frame)

            with contextlib.suppress(ValueError):  # not the main thread (a test's server)
                signal.signal(number, stopping)
