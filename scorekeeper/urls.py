from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]

handler500 = "games.views.errors.server_error"
