"""Django's WSGI handler served from the event loop on a fixed pool of threads, with one hand-off
each way a request: the body is read on the loop, the whole WSGI call (the view, the answer's
status, headers and body) runs on a page thread, and comes back as one result.

a2wsgi, which this replaces, crosses threads for the request, for `start_response`, for each
chunk of the body and for the empty last one, and for each read of the request's body: four to
five hand-offs a request, each a futex wake and an epoll round on the loop (issue 45). A body
too large to hold on the loop (a hand's photo: BODY_ON_LOOP) is still read by the page thread
chunk by chunk, as it comes; an answer too large to hold (ANSWER_HELD: none of the site's pages,
a large file) is sent in parts of that size, one hand-off each."""

import asyncio
import contextvars
import io
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

BODY_ON_LOOP = 2**20  # bytes of a request's body read on the loop, before the page's thread
ANSWER_HELD = 2**20  # bytes of an answer gathered on the page's thread before they are sent
TOO_LARGE = b"The request is too large."


@dataclass
class Answer:
    """A page's answer as its WSGI call made it: the rest of its body, if any, is still to be
    read from `rest` on a page thread."""

    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes
    rest: object = None  # an iterator of the WSGI iterable, past ANSWER_HELD
    closing: object = None  # the WSGI iterable, closed once `rest` is read

    def header(self, name: bytes) -> bytes:
        for key, value in self.headers:
            if key == name:
                return value
        return b""


class Pages:
    """A WSGI application on `threads` threads, each keeping its own database connection."""

    def __init__(self, wsgi_app, threads: int):
        self.app = wsgi_app
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="pages")

    async def answer(self, scope, receive) -> Answer | None:
        """The page's answer to the request of `scope`; None when the phone went before its
        request was read."""
        loop = asyncio.get_running_loop()
        length = _content_length(scope)
        if length is not None and length > BODY_ON_LOOP:
            body = _BodyFromLoop(loop, receive)
        else:
            data = await _read_body(receive)
            if data is None:
                return None
            if len(data) > BODY_ON_LOOP:
                return Answer(413, [(b"content-type", b"text/plain; charset=utf-8")], TOO_LARGE)
            body = io.BytesIO(data)
        environ = build_environ(scope, body)
        context = contextvars.copy_context()
        return await loop.run_in_executor(self.executor, context.run, self.call, environ)

    def call(self, environ: dict) -> Answer:
        """On a page thread: the whole WSGI call, its body gathered (up to ANSWER_HELD)."""
        started: list = []
        written: list[bytes] = []

        def start_response(status, headers, exc_info=None):
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return written.append

        iterable = self.app(environ, start_response)
        rest = None
        try:
            chunks, size = written, 0
            chunks_of = iter(iterable)
            for chunk in chunks_of:
                if chunk:
                    chunks.append(chunk)
                    size += len(chunk)
                if size >= ANSWER_HELD:
                    rest = chunks_of
                    break
        finally:
            if rest is None and hasattr(iterable, "close"):
                iterable.close()
        status, headers = started
        answer = Answer(
            int(status.split(" ", 1)[0]),
            [
                (k.strip().lower().encode("latin-1"), v.strip().encode("latin-1"))
                for k, v in headers
            ],
            b"".join(chunks),
        )
        if rest is not None:
            answer.rest, answer.closing = rest, iterable
        return answer

    async def rest_of(self, answer: Answer):
        """The parts of a large answer's body past what was gathered, each read on a page
        thread; the WSGI iterable closed there at the end."""
        loop = asyncio.get_running_loop()
        try:
            while part := await loop.run_in_executor(self.executor, _next_part, answer.rest):
                yield part
        finally:
            closing = getattr(answer.closing, "close", None)
            if closing is not None:
                await loop.run_in_executor(self.executor, closing)


def _next_part(chunks_of) -> bytes:
    part, size = [], 0
    for chunk in chunks_of:
        part.append(chunk)
        size += len(chunk)
        if size >= ANSWER_HELD:
            break
    return b"".join(part)


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _read_body(receive) -> bytes | None:
    """The request's body read on the loop, up to a byte past BODY_ON_LOOP; None when the phone
    went first."""
    parts, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        if chunk and size <= BODY_ON_LOOP:
            parts.append(chunk)
            size += len(chunk)
        if not message.get("more_body", False):
            return parts[0] if len(parts) == 1 else b"".join(parts)


class _BodyFromLoop(io.RawIOBase):
    """A large body (a photo), read by the page thread from the loop as the view asks for it."""

    def __init__(self, loop, receive):
        self.loop, self.receive = loop, receive
        self.buffer, self.done = bytearray(), False

    def readable(self) -> bool:
        return True

    def _more(self) -> None:
        message = asyncio.run_coroutine_threadsafe(self.receive(), self.loop).result()
        if message["type"] == "http.disconnect":
            self.done = True
        else:
            self.buffer += message.get("body", b"")
            self.done = not message.get("more_body", False)

    def read(self, size: int = -1) -> bytes:
        while not self.done and (size < 0 or len(self.buffer) < size):
            self._more()
        size = len(self.buffer) if size < 0 else min(size, len(self.buffer))
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def readinto(self, target) -> int:
        data = self.read(len(target))
        target[: len(data)] = data
        return len(data)

    def readline(self, size: int = -1) -> bytes:
        while not self.done and b"\n" not in self.buffer:
            if 0 <= size <= len(self.buffer):
                break
            self._more()
        end = self.buffer.find(b"\n") + 1 or len(self.buffer)
        return self.read(end if size < 0 else min(size, end))


def build_environ(scope, body) -> dict:
    """The WSGI environ of an ASGI request (as a2wsgi builds it, PEP 3333)."""
    script_name = scope.get("root_path", "").encode("utf8").decode("latin1")
    path_info = scope["path"].encode("utf8").decode("latin1")
    if path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server, port = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope["query_string"].decode("ascii"),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "SERVER_NAME": server,
        "SERVER_PORT": str(port or 0),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client is not None:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for name, value in scope.get("headers", ()):
        name = name.decode("latin1")
        if name == "content-length":
            key = "CONTENT_LENGTH"
        elif name == "content-type":
            key = "CONTENT_TYPE"
        else:
            key = "HTTP_" + name.upper().replace("-", "_")
        value = value.decode("latin1")
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ
