"""Signing up, changing a password, the group and its people: every form of the group's
pages, and the name a guest's phone gives itself."""

from django import forms
from django.contrib.auth.forms import PasswordChangeForm, UserCreationForm
from django.core.validators import MaxLengthValidator

from ..models import NAME_LENGTH, Group, Player, normalise_name

PASSWORD_LENGTH = 128


class BoundedPasswords:
    """A password is hashed, not stored, but hashing a huge one is work for nothing."""

    password_fields: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.password_fields:
            field = self.fields[name]
            field.max_length = PASSWORD_LENGTH
            field.validators.append(MaxLengthValidator(PASSWORD_LENGTH))
            field.widget.attrs["maxlength"] = str(PASSWORD_LENGTH)


class SignupForm(BoundedPasswords, UserCreationForm):
    password_fields = ("password1", "password2")


class ChangePasswordForm(BoundedPasswords, PasswordChangeForm):
    password_fields = ("old_password", "new_password1", "new_password2")


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=NAME_LENGTH, label="Name")

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group = group

    def clean_name(self):
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Write a name.")
        if Player.objects.filter(group=self.group, name__iexact=name).exists():
            raise forms.ValidationError(f"{name} is already one of your players.")
        return name


class GroupNameForm(forms.ModelForm):
    class Meta:
        model = Group
        fields = ["name"]
        labels = {"name": "Group name"}
        error_messages = {"name": {"required": "Give the group a name."}}

    def clean_name(self):
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("Give the group a name.")
        return name


class InvitationForm(forms.Form):
    days = forms.IntegerField(label="Valid for (days)", min_value=1, max_value=30, initial=7)
    max_uses = forms.IntegerField(
        label="How many people may use it",
        min_value=1,
        max_value=500,
        required=False,
        help_text="Leave empty for no limit.",
    )


DEVICE_LENGTH = 40


class DeviceForm(forms.Form):
    """A guest's phone names itself: its saves are recorded as "guest on" that name."""

    device = forms.CharField(
        label="Name this phone",
        max_length=DEVICE_LENGTH,
        help_text="Everyone sees who saved each hand: yours show as “guest on Bob's phone”.",
        error_messages={"required": "Type a name for this phone, e.g. Bob's phone."},
    )

    def clean_device(self):
        device = normalise_name(self.cleaned_data["device"])
        if not device:
            raise forms.ValidationError("Type a name for this phone, e.g. Bob's phone.")
        return device
