"""Account forms: sign-up (Django's own, plus names that would clash with our pages,
each other or a closed account), sign-in, and the settings page's forms."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import (
    AuthenticationForm,
    PasswordChangeForm,
    PasswordResetForm,
    UserCreationForm,
)
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: Paths under /accounts/ that a profile URL (/accounts/<username>/) must not shadow.
RESERVED_NAMES = {
    "login",
    "logout",
    "signup",
    "ratings",
    "admin",
    "computer",
    "staff",
    "settings",
    "password",
    "email",
    "close",
    "data",
}
#: A closed account is renamed ``closed-<id>``: nobody may sign up with such a name.
CLOSED_PREFIX = "closed-"


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
        from .models import ReservedName

        if username and (
            username.lower() in RESERVED_NAMES
            or username.lower().startswith(CLOSED_PREFIX)
            or ReservedName.holds(username)
        ):
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


class PasswordCheckedForm(forms.Form):
    """A form that asks for the account's current password and checks it."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data.get("password", "")
        if not self.user.check_password(password):
            raise ValidationError(_("That is not your current password."), code="password")
        return password


class EmailChangeForm(PasswordCheckedForm):
    """A new address (empty: no address), with the current password."""

    address = forms.EmailField(label=_("New email address"), required=False, max_length=254)
    field_order = ["address", "password"]

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(user, *args, **kwargs)
        self.fields["address"].help_text = _(
            "We mail a link to it; the address is used only after you click it. "
            "Leave it empty to remove your address."
        )


class PasswordChangeForm(PasswordChangeForm):
    """Django's, with the hints of the sign-up form."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # One of several forms on the settings page: the page must not jump to it.
        self.fields["old_password"].widget.attrs.pop("autofocus", None)
        self.fields["new_password1"].help_text = _(
            "At least 8 characters, not only digits, not a well-known password, "
            "and not close to your name."
        )
        self.fields["new_password2"].label = _("New password again")


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's reset form, mailing confirmed addresses only.

    An address someone typed but never confirmed may belong to a stranger: a
    reset link sent there would hand them the account.  Whoever asks sees the
    same page whatever the address (Django's view redirects to "sent" always).
    """

    def get_users(self, email: str):
        from .models import Profile

        verified = set(
            Profile.objects.filter(
                email_verified=True, user__email__iexact=email, closed_at__isnull=True
            ).values_list("user_id", flat=True)
        )
        return (user for user in super().get_users(email) if user.pk in verified)
