"""Groups of friends and how logins join them: memberships, invitations, removals."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models, transaction
from django.urls import reverse
from django.utils import timezone

from .errors import Refused


class Group(models.Model):
    """A table of friends: everything its members create belongs to it."""

    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="table_groups"
    )
    # An IANA zone ("Europe/Paris") every time is shown in; blank: each phone's own zone.
    time_zone = models.CharField(max_length=64, blank=True, default="")

    def __str__(self):
        return self.name

    @classmethod
    def found(cls, user, name: str) -> "Group":
        """A new group with `user` as its owner, as signing up makes one."""
        group = cls.objects.create(name=name)
        Membership.objects.create(user=user, group=group, role=Membership.OWNER)
        return group

    def owners(self):
        return self.memberships.filter(role=Membership.OWNER)


class Membership(models.Model):
    """A login's place in one group; a login may be in several."""

    OWNER, MEMBER = "owner", "member"
    ROLES = [(OWNER, "Owner"), (MEMBER, "Member")]

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=ROLES, default=MEMBER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "group"], name="one_membership_per_group")
        ]

    def __str__(self):
        return f"{self.user} in {self.group}"

    @property
    def is_owner(self) -> bool:
        return self.role == self.OWNER

    def is_last_owner(self) -> bool:
        return self.is_owner and not self.group.owners().exclude(pk=self.pk).exists()


class Removal(models.Model):
    """A login an owner removed from a group, and when: links made before then cannot bring
    them back (only a new invitation can)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="removals"
    )
    removed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "group"], name="removal_user_group")]

    def __str__(self):
        return f"{self.user} removed from {self.group}"

    @classmethod
    def keeps_out(cls, user, group_id, link_made) -> bool:
        """The login was removed from the group after the link was made."""
        return cls.objects.filter(user=user, group_id=group_id, removed_at__gte=link_made).exists()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def in_a_week():
    return timezone.now() + INVITATION_LIFE


INVITATION_LIFE = timedelta(days=7)
REMOVED = (
    "You were removed from this group after this link was made: ask an owner for a new invitation."
)


class InvitationQuerySet(models.QuerySet):
    def open_for(self, group):
        """The group's links that may still be used: not revoked, not expired, not used up."""
        links = self.filter(group=group, revoked_at__isnull=True, expires_at__gt=timezone.now())
        return links.filter(
            models.Q(max_uses__isnull=True) | models.Q(uses__lt=models.F("max_uses"))
        )


class Invitation(models.Model):
    """A link to join a group, until it is revoked, expires or is used up."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(default=in_a_week)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"Invitation to {self.group}"

    def get_absolute_url(self):
        return reverse("invitation", args=[self.token])

    def problem(self) -> str | None:
        """Why this link can no longer be used, or None while it can."""
        if self.revoked_at:
            return "This invitation was revoked by the group's owner."
        if self.expires_at <= timezone.now():
            return "This invitation has expired."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This invitation has been used as many times as it allowed."
        return None

    def accept(self, user) -> tuple[Membership, bool]:
        """Join `user` to the group; True when they were not a member before. A member opening
        the link again uses nothing. Raises Refused when the link can no longer be used."""
        with transaction.atomic():
            link = Invitation.objects.select_for_update().get(pk=self.pk)
            existing = Membership.objects.filter(user=user, group_id=link.group_id).first()
            if existing:
                return existing, False
            problem = link.problem()
            if problem:
                raise Refused(problem)
            if Removal.keeps_out(user, link.group_id, link.created_at):
                raise Refused(REMOVED)
            link.uses += 1
            link.save(update_fields=["uses"])
            self.uses = link.uses
            return Membership.objects.create(user=user, group_id=link.group_id), True
