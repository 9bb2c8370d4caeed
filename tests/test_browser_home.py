import time

import pytest

from tests.browser import (
    CSP_REFUSED,
    NO_BROWSER_UI,
    assert_accessible,
    browser_command_line,
    disabled_features,
    screenshot,
)

pytestmark = pytest.mark.browser


def test_home_page_on_a_phone(phone):
    phone.goto("/")
    assert phone.get_by_role("heading", level=1).inner_text().startswith("Score card games")
    screenshot(phone, "home", audit=False)


def test_the_accessibility_audit_finds_what_it_is_for(phone):
    """The audit every screenshot runs fails on a page that breaks WCAG, in either theme."""
    phone.goto("/")
    assert_accessible(phone, "home as it is")
    # A control with no name, which every theme shares.
    phone.evaluate("document.querySelector('main').append(document.createElement('button'))")
    with pytest.raises(AssertionError, match=r"'light': \['button-name"):
        assert_accessible(phone, "a button without a name")
    phone.evaluate("document.querySelector('main button:last-child').remove()")
    # Dark grey on the dark theme's page only: the dark run checks the colours again.
    phone.evaluate(
        "document.styleSheets[0].insertRule("
        "'@media (prefers-color-scheme: dark) { h1 { color: #303030 !important } }')"
    )
    with pytest.raises(AssertionError, match=r"'light': \[\], 'dark': \['color-contrast"):
        assert_accessible(phone, "dark text on the dark theme")


def test_every_phone_is_watched_for_what_the_policy_refuses(phone):
    """The watch every browser test runs under (tests/conftest.py) hears a refusal: here an
    inline handler, which the app's Content-Security-Policy forbids."""
    phone.goto("/")

    def refusal(message):
        return "Content Security Policy" in message.text

    with phone.expect_console_message(refusal) as logged:
        phone.evaluate(
            "document.querySelector('main').insertAdjacentHTML("
            "'beforeend', '<img src=\"/missing.png\" onerror=\"window.ran = 1\">')"
        )
    assert "inline event handler" in logged.value.text
    assert phone.evaluate("window.ran") is None  # refused, not run
    deadline = time.monotonic() + 5
    while not CSP_REFUSED and time.monotonic() < deadline:
        phone.evaluate("0")  # the phone's console events are handed over between calls
    refused = list(CSP_REFUSED)
    CSP_REFUSED.clear()  # what this test caused on purpose
    assert len(refused) == 1 and "inline event handler" in refused[0], refused


def test_the_browser_keeps_playwrights_switches_and_has_no_ui_of_its_own(browser):
    """Chromium obeys only its last --disable-features: that one holds every feature an earlier
    one (Playwright's) turns off, and the address bar's and toolbar's WebUI pages."""
    switches = [set(switch) for switch in disabled_features(browser_command_line())]
    assert len(switches) >= 2, "Playwright passes a --disable-features of its own"
    *earlier, last = switches
    assert set().union(*earlier) <= last
    assert set(NO_BROWSER_UI) <= last
