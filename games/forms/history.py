"""Looking back: a night's date, the filters of the leaderboard and the history, the group's
time zone, and an export file to import."""

from django import forms

from ..import_schema import MAX_FILE_BYTES
from ..models import GAME_KINDS, Player
from ..time_zones import known_time_zones


class NightForm(forms.Form):
    date = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}))


KIND_FILTER = [("", "Every game")] + GAME_KINDS


class LeaderboardFilter(forms.Form):
    kind = forms.ChoiceField(choices=KIND_FILTER, required=False, label="Game")
    start = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    end = forms.DateField(
        required=False, label="To", widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise forms.ValidationError("The start date is after the end date.")
        return data


class TimeZoneForm(forms.Form):
    time_zone = forms.ChoiceField(required=False, label="Show times in")

    def __init__(self, *args, phone_zone="", **kwargs):
        super().__init__(*args, **kwargs)
        own = f"Each phone's own{f' (this one: {phone_zone})' if phone_zone else ''}"
        zones = sorted(z for z in known_time_zones() if "/" in z or z == "UTC")
        self.fields["time_zone"].choices = [("", own)] + [(z, z.replace("_", " ")) for z in zones]
        self.fields[
            "time_zone"
        ].help_text = (
            "Every time shown (the changes of a round, saves from another phone) is in this zone."
        )


class NightSearch(forms.Form):
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, empty_label="Anyone", label="Player"
    )
    kind = forms.ChoiceField(choices=KIND_FILTER, required=False, label="Game")

    def __init__(self, *args, group=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(group=group)


class ImportForm(forms.Form):
    file = forms.FileField(label="Export file (JSON)")

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(f"The file is larger than {MAX_FILE_BYTES // 2**20} MB.")
        return upload
