import pytest


@pytest.mark.django_db
def test_home_says_what_the_app_is(client):
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "Three Thirteen" in text
    assert "13-card Rummy" in text
    assert '<meta name="viewport"' in text
