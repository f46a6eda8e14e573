"""Sign-up form: Django's own, plus names that would clash with our pages or each other."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: Paths under /accounts/ that a profile URL (/accounts/<username>/) must not shadow.
RESERVED_NAMES = {"login", "logout", "signup", "ratings", "admin", "computer", "staff"}


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        fields = self.fields
        fields["username"].help_text = _("Up to 150 letters, digits and @ . + - _ — others see it.")
        fields["password1"].help_text = _(
            "At least 8 characters, not only digits, not a well-known password, "
            "and not close to your name."
        )
        fields["password2"].label = _("Password again")
        fields["password2"].help_text = _("Type it once more, to catch a slip.")

    def clean_username(self) -> str | None:
        # Django's own check already refuses names that differ only in case
        # (it then returns None, having recorded the error).
        username = super().clean_username()
        if username and username.lower() in RESERVED_NAMES:
            raise ValidationError(_("That name is reserved. Please choose another."))
        return username


class SigninForm(AuthenticationForm):
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _(
            "That name and password do not match an account. Both are case-sensitive."
        ),
        "inactive": _("This account is switched off."),
    }
