"""A URLconf of its own, for the test that `{% url %}` follows the URLconf in force."""

from django.http import HttpResponse
from django.urls import path

urlpatterns = [path("elsewhere/<int:pk>/", lambda request, pk: HttpResponse(), name="game")]
