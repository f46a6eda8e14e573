"""The form a person fills in to challenge a bot from its profile page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dotsboxes.rooms.forms import GameTermsForm
from dotsboxes.text import reject_control_characters


class ChallengeForm(GameTermsForm):
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
