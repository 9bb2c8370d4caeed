"""The installable app: the manifest and its icons, the service worker served from the root,
the offline page, and static files with hashed names, far-future caching and compression."""

import gzip
import struct

import brotli
import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client, override_settings

from games.views.pwa import SHELL
from tests.faults import UNUSED_STATIC

pytestmark = pytest.mark.django_db


def png_size(path) -> tuple[int, int]:
    with open(path, "rb") as image:
        head = image.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_is_served_with_its_type_name_and_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"].startswith("Scorekeeper") and manifest["short_name"] == "Scorekeeper"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0f5132"
    icons = {(icon["sizes"], icon["purpose"]): icon["src"] for icon in manifest["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), src in icons.items():
        assert src.startswith("/static/img/") and src.endswith(".png")
        path = finders.find(src.removeprefix("/static/"))
        assert path, f"{src} is not a static file"
        assert png_size(path) == tuple(int(n) for n in sizes.split("x"))


def test_every_page_links_the_manifest_and_a_touch_icon(client):
    page = client.get("/login/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'rel="apple-touch-icon"' in page


def test_the_service_worker_is_served_from_the_root_as_javascript(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    code = response.content.decode()
    assert 'const OFFLINE_URL = "/offline/";' in code
    for name in SHELL:
        assert f'"/static/{name}"' in code
        assert finders.find(name), f"the app shell names {name}, which is not a static file"
    assert 'self.addEventListener("fetch"' in code


def test_the_service_worker_version_follows_what_it_caches(client, settings):
    first = client.get("/sw.js").content.decode().splitlines()[0]
    settings.STATIC_URL = "/assets/"
    second = client.get("/sw.js").content.decode().splitlines()[0]
    assert first.startswith("const VERSION = ") and first != second


def test_the_offline_page_says_there_is_no_connection_and_holds_no_ones_data(signed_in):
    response = signed_in.get("/offline/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h1>No connection</h1>" in page
    assert "not connected to the internet" in page
    assert "csrf" not in page.lower() and "ann" not in page.lower()


def test_static_files_have_hashed_names_far_future_caching_and_compression(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        # The site's own files and the htmx build its pages load (the others are compressed the
        # same way, for nothing here).
        call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=UNUSED_STATIC)
        client = Client()  # a new handler: WhiteNoise reads the collected files
        page = client.get("/login/").content.decode()
        css = next(
            part.split('"')[0]
            for part in page.split('href="')[1:]
            if part.startswith("/static/css/app.")
        )
        assert css != "/static/css/app.css" and css.endswith(".css")  # app.<hash>.css
        plain = client.get(css)
        body = b"".join(plain.streaming_content)
        plain.close()
        assert plain.status_code == 200 and b".topbar" in body
        assert "immutable" in plain["Cache-Control"]
        assert int(plain["Cache-Control"].split("max-age=")[1].split(",")[0]) >= 365 * 86400
        zipped = client.get(css, HTTP_ACCEPT_ENCODING="gzip")
        assert zipped["Content-Encoding"] == "gzip"
        assert gzip.decompress(b"".join(zipped.streaming_content)) == body
        zipped.close()
        squeezed = client.get(css, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert squeezed["Content-Encoding"] == "br"
        assert brotli.decompress(b"".join(squeezed.streaming_content)) == body
        squeezed.close()
        assert int(squeezed["Content-Length"]) < len(body) / 2
        # The worker and the manifest name the hashed files too.
        assert css in client.get("/sw.js").content.decode()
        icon = client.get("/manifest.webmanifest").json()["icons"][0]["src"]
        shown = client.get(icon)
        shown.close()  # its file, opened by WhiteNoise
        assert icon != "/static/img/icon-192.png" and shown.status_code == 200
