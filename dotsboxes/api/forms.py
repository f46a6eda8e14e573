"""The form a person fills in to challenge a bot from its profile page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dotsboxes.rooms.forms import SIZES
from dotsboxes.rooms.models import Room
from dotsboxes.text import reject_control_characters


class ChallengeForm(forms.Form):
    width = forms.TypedChoiceField(label=_("Width (boxes)"), choices=SIZES, coerce=int, initial=5)
    height = forms.TypedChoiceField(label=_("Height (boxes)"), choices=SIZES, coerce=int, initial=5)
    side = forms.ChoiceField(
        label=_("Your side"),
        choices=[("blue", _("Blue (moves first)")), ("red", _("Red")), ("random", _("Random"))],
        initial="random",
        widget=forms.RadioSelect,
    )
    timer = forms.TypedChoiceField(
        label=_("Turn timer"), choices=Room.Timer.choices, coerce=int, initial=0
    )
    rated = forms.BooleanField(
        label=_("Rated game (a game against a bot is unrated unless you choose this)"),
        required=False,
    )


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name (for you)"),
        max_length=40,
        required=False,
        validators=[reject_control_characters],
    )
