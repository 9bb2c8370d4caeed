import pytest

from tests.conftest import screenshot

pytestmark = pytest.mark.browser


def test_home_page_on_a_phone(phone):
    phone.goto("/")
    assert phone.get_by_role("heading", level=1).inner_text().startswith("Score card games")
    screenshot(phone, "home")
