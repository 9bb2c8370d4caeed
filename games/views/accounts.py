"""Signing up: a new login with a group of its own."""

from django.contrib import messages
from django.contrib.auth import login
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from ..access import TableRequest
from ..forms import SignupForm
from ..models import Group


def _next_page(request: TableRequest) -> str:
    """Where to go once signed up (an invitation sends here with ?next=): a page of this site."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not next_url.startswith("/") or not url_has_allowed_host_and_scheme(
        next_url, {request.get_host()}, request.is_secure()
    ):
        return ""
    return next_url


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: TableRequest):
    next_url = _next_page(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user = form.save()
            Group.found(user, f"{user.username}'s table")
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if next_url:
            return redirect(next_url)
        messages.success(request, "Welcome! Start your first game: list the players as they sit.")
        return redirect("new_game")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})
