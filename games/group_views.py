"""A group's members: switching between groups, renaming, owners, removing and leaving."""

from django import forms
from django.contrib import messages
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST, require_safe

from .access import TableRequest, member_required, owner_required, switch_group
from .models import Group, Membership


class GroupNameForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ["name"]
        labels = {"name": "Group name"}
        error_messages = {"name": {"required": "Give the group a name."}}

    def clean_name(self):
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the group a name.")
        return name


def _members_context(request: TableRequest, rename_form=None):
    group = request.group
    return {
        "group": group,
        "me": request.membership,
        "memberships": group.memberships.select_related("user"),
        "rename_form": rename_form or GroupNameForm(instance=group),
    }


@member_required
@require_safe
def members(request: TableRequest):
    return render(request, "games/members.html", _members_context(request))


@member_required
@require_POST
def switch(request: TableRequest):
    """Choose the current group among the login's own groups; any other id is not found."""
    chosen = next((m for m in request.memberships if str(m.group_id) == request.POST.get("group")),
                  None)  # fmt: skip
    if chosen is None:
        messages.error(request, "You are not a member of that group.")
        return redirect("members")
    switch_group(request, chosen.group)
    messages.success(request, f"Now at {chosen.group.name}.")
    return redirect("home")


@owner_required
@require_POST
def rename(request: TableRequest):
    form = GroupNameForm(request.POST, instance=request.group)
    if not form.is_valid():
        return render(request, "games/members.html", _members_context(request, form), status=422)
    form.save()
    messages.success(request, f"The group is now called {request.group.name}.")
    return redirect("members")


def _membership_for(request: TableRequest, membership_id) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("user"), pk=membership_id, group=request.group
    )


@owner_required
@require_POST
def make_owner(request: TableRequest, membership_id):
    membership = _membership_for(request, membership_id)
    membership.role = Membership.OWNER
    membership.save(update_fields=["role"])
    messages.success(request, f"{membership.user.username} is now an owner.")
    return redirect("members")


@owner_required
@require_POST
def remove_member(request: TableRequest, membership_id):
    with transaction.atomic():
        membership = _membership_for(request, membership_id)
        Membership.objects.select_for_update().filter(group=request.group).exists()
        if membership.is_last_owner():
            messages.error(request, "The group's last owner cannot be removed: make another "
                                    "member an owner first.")  # fmt: skip
            return redirect("members")
        membership.delete()
    messages.success(request, f"{membership.user.username} is no longer in the group.")
    if membership.user_id == request.user.pk:
        return redirect("home")
    return redirect("members")


@member_required
@require_POST
def leave(request: TableRequest):
    with transaction.atomic():
        Membership.objects.select_for_update().filter(group=request.group).exists()
        if request.membership.is_last_owner():
            messages.error(request, "You are the group's last owner: make another member an "
                                    "owner before you leave.")  # fmt: skip
            return redirect("members")
        request.membership.delete()
    messages.success(request, f"You left {request.group.name}.")
    return redirect("home")
