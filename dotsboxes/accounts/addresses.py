"""A player's email address: changed, confirmed by a signed link, and only then mailed.

The link carries ``<user id>:<address>:<key>`` signed with Django's
``TimestampSigner`` (the ``SECRET_KEY``, a salt of its own, and the time it was
made).  It is refused when it is older than ``EMAIL_CONFIRM_SECONDS``, when the
account's address is no longer the one it names, and when the profile's
``email_key`` has changed since: the key changes whenever a link is sent and when
one is used, so only the newest link works, and only once.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from .models import Profile

logger = logging.getLogger(__name__)
SALT = "dotsboxes.accounts.email-confirm"


def confirm_seconds() -> int:
    return int(settings.EMAIL_CONFIRM_SECONDS)


def site_url() -> str:
    return str(settings.SITE_URL).rstrip("/")


def profile_of(user) -> Profile:
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def is_verified(user) -> bool:
    """True if ``user`` has an address and confirmed it."""
    if not user.email:
        return False
    return Profile.objects.filter(user=user, email_verified=True).exists()


def _signer() -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=SALT)


def make_token(user, profile: Profile) -> str:
    value = f"{user.pk}:{user.email}:{profile.email_key}"
    return _signer().sign(signing.b64_encode(value.encode()).decode())


@dataclass(frozen=True)
class Checked:
    """A link that may be used now: whose it is and the address it confirms."""

    user: object
    address: str


class BadLink(ValueError):
    """The link is expired, used, replaced by a newer one, or not ours."""


def check_token(token: str) -> Checked:
    """The account and address of a usable link; :class:`BadLink` otherwise."""
    try:
        raw = _signer().unsign(token, max_age=confirm_seconds())
        user_id, address, key = signing.b64_decode(raw.encode()).decode().split(":", 2)
    except signing.SignatureExpired as exc:
        expired = _("This link has expired. Send yourself a new one from your settings.")
        raise BadLink(expired) from exc
    except (signing.BadSignature, ValueError, UnicodeDecodeError) as exc:
        raise BadLink(_("This link is not valid. Copy the whole link from the mail.")) from exc
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    profile = Profile.objects.filter(user_id=user_id).first()
    current = user is not None and profile is not None and user.email == address
    if not (current and key and profile.email_key == key):
        raise BadLink(
            _(
                "This link was already used or replaced by a newer one. "
                "Your settings show your address."
            )
        )
    return Checked(user, address)


def _mail(template: str, subject: str, address: str, context: dict) -> None:
    body = render_to_string(template, {**context, "site": site_url()})
    send_mail(subject, body, None, [address])


def send_confirmation(user) -> None:
    """Mail a fresh link to ``user``'s address; every earlier link stops working."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get_or_create(user=user)[0]
        profile.email_key = secrets.token_hex(16)
        profile.save(update_fields=["email_key"])
    link = site_url() + reverse("accounts:email_confirm", args=[make_token(user, profile)])
    transaction.on_commit(
        lambda: _mail(
            "accounts/mail/confirm.txt",
            _("Confirm your email address at dotsboxes"),
            user.email,
            {"user": user, "link": link, "hours": confirm_seconds() // 3600},
        )
    )


def email_change(*, user, address: str) -> None:
    """Set ``user``'s address to ``address`` (unverified), mail it a link, and tell the
    old address, if it was confirmed, that the account moved away from it."""
    address = address.strip()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get_or_create(user=user)[0]
        old, was_verified = user.email, profile.email_verified
        user.email = address
        user.save(update_fields=["email"])
        profile.email_verified = False
        profile.email_key = ""
        profile.save(update_fields=["email_verified", "email_key"])
        if old and was_verified and old.casefold() != address.casefold():
            transaction.on_commit(
                lambda: _mail(
                    "accounts/mail/changed.txt",
                    _("Your email address at dotsboxes was changed"),
                    old,
                    {"user": user, "new": address},
                )
            )
        if address:
            send_confirmation(user)


def email_confirm(*, token: str) -> Checked:
    """Use a link: the address it names is confirmed.  Raises :class:`BadLink`."""
    with transaction.atomic():
        checked = check_token(token)
        profile = Profile.objects.select_for_update().get(user=checked.user)
        checked = check_token(token)  # again, with the row locked: a double click uses it once
        profile.email_verified = True
        profile.email_key = ""
        profile.save(update_fields=["email_verified", "email_key"])
    logger.info("email confirmed for user %s", checked.user.pk)
    return checked
