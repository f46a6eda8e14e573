"""Forms for creating and joining rooms."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from dotsboxes.text import reject_control_characters

from .identity import NAME_MAX, clean_name
from .models import Room

SIZES = [(n, f"{n}") for n in range(1, 10)]


class NameField(forms.CharField):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(
            max_length=NAME_MAX,
            label=_("Your display name"),
            help_text=_("Shown to your opponent and to spectators."),
            error_messages={"required": _("Choose a display name.")},
            validators=[reject_control_characters],
            **kwargs,
        )

    def clean(self, value: object) -> str:
        value = clean_name(super().clean(value) or "")
        if self.required and not value:
            raise forms.ValidationError(_("Choose a display name."))
        return value


class GameTermsForm(forms.Form):
    """The terms of an online game: its size, the asker's side and the turn timer
    (a room's host and a person challenging a bot both choose them)."""

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


class CreateRoomForm(GameTermsForm):
    visibility = forms.ChoiceField(
        label=_("Who can find it"),
        choices=[
            ("public", _("Public: listed in the lobby")),
            ("private", _("Private: invite link only")),
        ],
        initial="public",
        widget=forms.RadioSelect,
    )
    rated = forms.BooleanField(label=_("Rated game (both players signed in)"), required=False)
    name = NameField(required=False)

    def __init__(self, *args: object, signed_in: bool, default_name: str = "", **kwargs: object):
        super().__init__(*args, **kwargs)
        if signed_in:
            del self.fields["name"]
        else:
            del self.fields["rated"]
            self.fields["name"].required = True
            self.fields["name"].initial = default_name


class JoinForm(forms.Form):
    name = NameField()
