"""What the round page prints without Django's date and time filters, for their cost on every
page and change drawn (`HandPanel.live_key`, the `clock` filter), is what the filters printed."""

import zoneinfo
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.utils import timezone

from games.models import Hand
from games.panels import HandPanel
from tests.helpers import save, seats
from tests.test_views_reasons import NO_PURE


@pytest.fixture
def rummy(member, make_game, signed_in):
    game = make_game(member, kind="rummy13", names=("Maya", "Priya", "Sam"))
    save(signed_in, game, 1, seats(game)[1], NO_PURE)
    return game


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham"])
@pytest.mark.django_db
def test_a_hands_live_key_is_what_the_template_printed_for_it(rummy, zone):
    """`HandPanel.live_key` replaces `{{ hand.version|default:0 }}.{{ hand.updated_at|date:'Uu'
    }}.{{ hand.points }}` in the round page's hand lines: the same text, in any time zone."""
    hand = Hand.objects.get(round__game=rummy)
    hand.updated_at = hand.updated_at.replace(microsecond=4321)
    round_ = hand.round
    printed = Template(
        "{{ hand.version|default:0 }}.{{ hand.updated_at|date:'Uu' }}.{{ hand.points }}"
    )
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        for shown in (hand, None):
            panel = HandPanel.saved(round_, hand.seat, shown, picker=False)
            assert panel.live_key == printed.render(Context({"hand": shown}))
    assert HandPanel.saved(round_, hand.seat, hand, picker=False).live_key.endswith(
        f"004321.{hand.points}"
    )


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham", "America/St_Johns"])
def test_the_clock_filter_prints_what_djangos_time_filter_printed(zone):
    theirs = Template('{{ when|time:"H:i" }}')
    ours = Template("{% load table %}{{ when|clock }}")
    moments = [timezone.now(), timezone.now().replace(hour=0, minute=5), None, ""]
    moments += [timezone.now() + timedelta(minutes=37 * n) for n in range(40)]
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        for when in moments:
            context = Context({"when": when})
            assert ours.render(context) == theirs.render(context)
