"""Factories for the app's records, as homeschool's tests make theirs (factory_boy): a login, a
group with its owner, a member joining a group, a game started as the new-game form starts one.
Tests import them; fixtures in conftest.py only call them."""

import factory
from django.contrib.auth import get_user_model
from factory.django import DjangoModelFactory

from games.models import Game, Group, Membership

PASSWORD = "Table-talk-42"


class UserFactory(DjangoModelFactory):
    """A login whose password is PASSWORD."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def saved(user, create, extracted, **kwargs):
        if create:
            user.save()


class GroupFactory(DjangoModelFactory):
    class Meta:
        model = Group

    name = factory.Sequence(lambda n: f"Table {n}")


class MembershipFactory(DjangoModelFactory):
    """A login in a group, as a plain member unless `role` says otherwise."""

    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    group = factory.SubFactory(GroupFactory)


def member(username: str = "ann"):
    """A login with its own group, as signing up makes one (`Group.found`)."""
    user = UserFactory(username=username)
    Group.found(user, f"{username}'s table")
    return user


def join(group: Group, user, role: str = Membership.MEMBER) -> Membership:
    """`user` joins `group` (as an invitation would let them)."""
    return MembershipFactory(group=group, user=user, role=role)


def game(user, kind: str = "three-thirteen", names=("Ann", "Bob", "Cid"), **rules) -> Game:
    """A game of `user`'s first group started as the new-game form starts one, its first round
    open."""
    return Game.objects.start(
        group=user.memberships.first().group,
        kind=kind,
        players=list(names),
        rules=rules,
        user=user,
    )
