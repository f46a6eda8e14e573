"""The account settings page and what it does: password, email address, recovery.

Each form posts to its own URL and comes back to the settings page (no
JavaScript needed); a form with a mistake is shown again on the page with the
others.  Password resets use Django's own views and tokens, with a throttle in
front and only confirmed addresses mailed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from dotsboxes import throttle

from . import addresses
from .forms import EmailChangeForm, PasswordChangeForm, VerifiedPasswordResetForm


def _page(request: HttpRequest, status: int = 200, **forms) -> HttpResponse:
    user = request.user
    context = {
        "email_form": forms.get("email_form") or EmailChangeForm(user),
        "password_form": forms.get("password_form") or PasswordChangeForm(user),
        "verified": addresses.is_verified(user),
        **{k: v for k, v in forms.items() if not k.endswith("_form")},
    }
    return render(request, "accounts/settings.html", context, status=status)


def _throttled(request: HttpRequest, scope: str) -> int:
    return throttle.hit(scope, *throttle.request_keys(request))


@login_required
@require_GET
def settings_page(request: HttpRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
def password_change(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.user, request.POST)
    # Every try counts: this form checks the current password, so it must not be a
    # way round the sign-in lock-out.
    wait = _throttled(request, "password_change")
    if wait:
        form.is_valid()
        form.add_error(None, throttle.message(wait))
        return _page(request, 429, password_form=form)
    if not form.is_valid():
        return _page(request, 400, password_form=form)
    form.save()
    update_session_auth_hash(request, form.user)  # this browser stays signed in, others not
    messages.success(request, _("Your password was changed. Other browsers are signed out."))
    return redirect("accounts:settings")


@login_required
@require_POST
def email_change(request: HttpRequest) -> HttpResponse:
    form = EmailChangeForm(request.user, request.POST)
    wait = _throttled(request, "email")
    if wait:
        form.is_valid()
        form.add_error(None, throttle.message(wait))
        return _page(request, 429, email_form=form)
    if not form.is_valid():
        return _page(request, 400, email_form=form)
    address = form.cleaned_data["address"]
    if address.casefold() == request.user.email.casefold() and addresses.is_verified(request.user):
        # Typed again: keep it confirmed rather than start over.
        messages.info(request, _("That is already your confirmed address."))
        return redirect("accounts:settings")
    addresses.email_change(user=request.user, address=address)
    if address:
        messages.success(
            request,
            _("We sent a link to %(address)s. Click it to confirm the address.")
            % {"address": address},
        )
    else:
        messages.success(request, _("Your email address was removed."))
    return redirect("accounts:settings")


@login_required
@require_POST
def email_resend(request: HttpRequest) -> HttpResponse:
    user = request.user
    wait = _throttled(request, "email")
    if wait:
        return _page(request, 429, resend_error=throttle.message(wait))
    if user.email and not addresses.is_verified(user):
        addresses.send_confirmation(user)
        messages.success(
            request,
            _("We sent a new link to %(address)s. Earlier links no longer work.")
            % {"address": user.email},
        )
    return redirect("accounts:settings")


@require_http_methods(["GET", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button, POST confirms: a mail scanner that opens links confirms nothing."""
    try:
        checked = addresses.check_token(token)
    except addresses.BadLink as exc:
        return render(request, "accounts/email_confirm.html", {"error": str(exc)}, status=400)
    if request.method == "POST":
        wait = _throttled(request, "email_confirm")
        if wait:
            return throttle.too_many(request, wait)
        try:
            checked = addresses.email_confirm(token=token)
        except addresses.BadLink as exc:
            context = {"error": str(exc)}
            return render(request, "accounts/email_confirm.html", context, status=400)
        return render(request, "accounts/email_confirm.html", {"done": checked.address})
    return render(request, "accounts/email_confirm.html", {"address": checked.address})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's view: one answer ("sent") for every address; throttled per person,
    per network address and per mail address (no mail-bombing one inbox)."""

    form_class = VerifiedPasswordResetForm
    template_name = "accounts/password_reset.html"
    email_template_name = "accounts/mail/password_reset.txt"
    subject_template_name = "accounts/mail/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def get_extra_email_context(self) -> dict:
        return {"site": addresses.site_url()}

    extra_email_context = property(get_extra_email_context)

    def form_valid(self, form):
        keys = throttle.request_keys(self.request)
        keys.append("mail:" + form.cleaned_data["email"].casefold())
        wait = throttle.hit("password_reset", *keys)
        if wait:
            form.add_error(None, throttle.message(wait))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")
