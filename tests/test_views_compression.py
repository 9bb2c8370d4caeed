"""Pages travel compressed: a phone on a slow network loads a round page in a few KB, and the
live table's conditional requests still answer 304 through the compression."""

import gzip

import pytest

from tests.test_views_live import shown_etag

pytestmark = pytest.mark.django_db


def test_a_round_page_is_sent_gzipped_to_a_browser_that_accepts_it(signed_in, member, make_game):
    game = make_game(member, kind="rummy13", names=("Ann", "Bob", "Cid", "Dee"))
    url = f"/games/{game.pk}/rounds/1/"
    plain = signed_in.get(url)
    packed = signed_in.get(url, headers={"accept-encoding": "gzip"})
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    page = gzip.decompress(packed.content).decode()
    assert "Save Dee&#x27;s hand" in page or "Save Dee's hand" in page
    assert len(packed.content) * 5 < len(plain.content), (len(packed.content), len(plain.content))


def test_the_live_table_still_answers_304_through_the_compression(signed_in, member, make_game):
    game = make_game(member)
    etag = shown_etag(signed_in, f"/games/{game.pk}/rounds/1/")
    live = f"/games/{game.pk}/rounds/1/live/"
    first = signed_in.get(live, headers={"if-none-match": etag, "accept-encoding": "gzip"})
    assert first.status_code == 304
    changed = signed_in.get(live, headers={"if-none-match": '"other"', "accept-encoding": "gzip"})
    assert changed.status_code == 200
    # The ETag as the compressed answer gave it (weak) still matches.
    again = signed_in.get(
        live, headers={"if-none-match": changed["ETag"], "accept-encoding": "gzip"}
    )
    assert again.status_code == 304
