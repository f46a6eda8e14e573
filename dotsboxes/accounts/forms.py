"""Sign-up form: Django's own, plus names that would clash with our pages or each other."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError

#: Paths under /accounts/ that a profile URL (/accounts/<username>/) must not shadow.
RESERVED_NAMES = {"login", "logout", "signup", "ratings", "admin", "computer", "staff"}


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields[
            "username"
        ].help_text = "Up to 150 letters, digits and @ . + - _ — other players see this name."

    def clean_username(self) -> str | None:
        # Django's own check already refuses names that differ only in case
        # (it then returns None, having recorded the error).
        username = super().clean_username()
        if username and username.lower() in RESERVED_NAMES:
            raise ValidationError("That name is reserved. Please choose another.")
        return username
