"""The form to announce a tournament."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils.translation import gettext_lazy as _

from dotsboxes import clock
from dotsboxes.text import reject_control_characters

from .models import NAME_MAX, TIMERS, Tournament

SIZES = [(n, f"{n}") for n in range(2, 10)]


class CreateTournamentForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=NAME_MAX, validators=[reject_control_characters]
    )
    kind = forms.ChoiceField(
        label=_("Format"),
        choices=[
            (Tournament.Kind.ARENA, _("Arena: play as many games as you can in the time")),
            (Tournament.Kind.SWISS, _("Swiss: a fixed number of rounds")),
        ],
        initial=Tournament.Kind.ARENA,
        widget=forms.RadioSelect,
    )
    width = forms.TypedChoiceField(label=_("Width (boxes)"), choices=SIZES, coerce=int, initial=5)
    height = forms.TypedChoiceField(label=_("Height (boxes)"), choices=SIZES, coerce=int, initial=5)
    timer = forms.TypedChoiceField(
        label=_("Time control"), choices=TIMERS, coerce=int, initial=TIMERS[1][0]
    )
    rated = forms.BooleanField(label=_("Rated games"), required=False, initial=True)
    starts_in = forms.IntegerField(
        label=_("Starts in (minutes)"), min_value=0, max_value=60 * 24 * 60, initial=10
    )
    duration = forms.IntegerField(
        label=_("Arena: duration (minutes)"),
        min_value=5,
        max_value=7 * 24 * 60,
        initial=30,
        required=False,
    )
    rounds = forms.IntegerField(
        label=_("Swiss: rounds"), min_value=1, max_value=15, initial=3, required=False
    )
    allow_bots = forms.BooleanField(label=_("Bot accounts may join"), required=False)

    def clean(self) -> dict:
        data = super().clean()
        kind = data.get("kind")
        if kind == Tournament.Kind.ARENA and not data.get("duration"):
            self.add_error("duration", _("An arena needs a duration."))
        if kind == Tournament.Kind.SWISS and not data.get("rounds"):
            self.add_error("rounds", _("A Swiss needs a number of rounds."))
        return data

    def starts_at(self):
        return clock.now() + timedelta(minutes=self.cleaned_data["starts_in"])
