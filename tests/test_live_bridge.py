"""The bridge from the event loop to the page threads (games.live.bridge): one hand-off each way a
request, and every kind of request and answer the site has still served whole. Read over real
HTTP from the ASGI application under uvicorn, with a small WSGI application in Django's place."""

import hashlib
import http.client
import socket
import threading

import pytest
import uvicorn

from games.live import bridge
from games.live.asgi import LiveApplication
from games.live.streams import HOLDER


def echo(environ, start_response):
    """What the request said: its method, path, query, body's length and hash, the thread the
    call ran on and whether a stream holder was there; `/large` answers 3 MiB in 64 KiB chunks."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    if environ["PATH_INFO"] == "/large":
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        return (bytes([i % 251]) * 2**16 for i in range(48))
    if environ["PATH_INFO"] == "/fails":
        raise RuntimeError("a page that fails")
    said = "\n".join(
        [
            environ["REQUEST_METHOD"],
            environ["PATH_INFO"],
            environ["QUERY_STRING"],
            str(len(body)),
            hashlib.sha256(body).hexdigest(),
            threading.current_thread().name,
            str(HOLDER.get() is not None),
            environ.get("HTTP_X_PHONE", ""),
        ]
    ).encode()
    write = start_response("201 Created", [("Content-Type", "text/plain"), ("X-Said", "yes")])
    write(b"written:")
    return [said[:10], b"", said[10:]]


@pytest.fixture
def server():
    app = LiveApplication(echo, threads=1)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, lifespan="on", log_level="critical")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]})
    thread.start()
    while not running.started and thread.is_alive():
        thread.join(0.02)
    submitted = []
    submit = app.pages.executor.submit
    app.pages.executor.submit = lambda *a, **k: submitted.append(a) or submit(*a, **k)
    yield sock.getsockname()[1], submitted
    running.should_exit = True
    thread.join(15)


def ask(port, method, path, body=None, headers=None, chunked=False):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body, headers or {}, encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_a_post_is_answered_whole_with_one_hand_off_to_a_page_thread(server):
    port, submitted = server
    body = b"cards=7H+8H+9H&save=1"
    status, headers, answer = ask(port, "POST", "/seat/?round=2", body, {"X-Phone": "Ann's"})
    assert status == 201 and headers["x-said"] == "yes"
    lines = answer.removeprefix(b"written:").decode().split("\n")
    assert lines[:5] == [
        "POST",
        "/seat/",
        "round=2",
        str(len(body)),
        hashlib.sha256(body).hexdigest(),
    ]
    assert lines[5].startswith("pages") and lines[6:] == ["True", "Ann's"]
    assert len(submitted) == 1  # the call, and nothing else, went to the page thread


def test_a_photo_larger_than_the_loop_holds_is_read_by_the_page_thread_as_it_comes(server):
    port, submitted = server
    photo = bytes(range(256)) * (3 * 2**20 // 256 + 7)
    status, _, answer = ask(port, "POST", "/photo/", photo)
    lines = answer.removeprefix(b"written:").decode().split("\n")
    assert status == 201 and lines[3:5] == [str(len(photo)), hashlib.sha256(photo).hexdigest()]


def test_a_body_of_unsaid_length_too_large_to_hold_is_refused_not_failed(server):
    port, submitted = server
    parts = (b"x" * 2**16 for _ in range(2**20 // 2**16 + 2))
    status, _, answer = ask(port, "POST", "/photo/", parts, chunked=True)
    assert status == 413 and answer == bridge.TOO_LARGE
    assert not submitted  # never handed to a page thread


def test_an_answer_larger_than_held_comes_in_parts_and_whole(server):
    port, _ = server
    status, _, answer = ask(port, "GET", "/large")
    assert status == 200 and len(answer) == 48 * 2**16
    assert answer == b"".join(bytes([i % 251]) * 2**16 for i in range(48))


def test_a_page_that_fails_answers_500_and_the_next_is_served(server):
    port, _ = server
    assert ask(port, "GET", "/fails")[0] == 500
    assert ask(port, "GET", "/after")[0] == 201


def test_the_environ_is_the_one_pep_3333_asks_for():
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/games/é/",
        "root_path": "",
        "query_string": b"a=1",
        "http_version": "1.1",
        "server": ("127.0.0.1", 8000),
        "client": ("10.0.0.2", 5555),
        "headers": [
            (b"content-type", b"text/plain"),
            (b"cookie", b"a=1"),
            (b"cookie", b"b=2"),
        ],
    }
    environ = bridge.build_environ(scope, None)
    assert environ["PATH_INFO"] == "/games/é/".encode().decode("latin1")
    assert environ["CONTENT_TYPE"] == "text/plain" and environ["HTTP_COOKIE"] == "a=1,b=2"
    assert environ["REMOTE_ADDR"] == "10.0.0.2" and environ["SERVER_PORT"] == "8000"
