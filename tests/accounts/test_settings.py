"""Account settings: password, email address and its confirmation, password resets."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import Client

from dotsboxes.accounts import addresses
from dotsboxes.accounts.models import Profile

pytestmark = pytest.mark.django_db
PASSWORD = "plenty-of-boxes-42"
NEW_PASSWORD = "chains-and-loops-77"


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "http://testserver"


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def link_in(message) -> str:
    return re.search(r"http://testserver(/\S+)", message.body)[1]


def verified(user) -> bool:
    user.refresh_from_db()
    return addresses.is_verified(user)


def change_email(client: Client, address: str, password: str = PASSWORD):
    return client.post("/accounts/settings/email", {"address": address, "password": password})


def test_the_settings_page_needs_sign_in_and_shows_the_forms(client, alice):
    response = client.get("/accounts/settings/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    page = signed_in(alice).get("/accounts/settings/").content.decode()
    assert "Change password" in page and "Change address" in page
    assert "No email address" in page


def test_a_new_address_is_unconfirmed_until_the_link_in_its_mail_is_used(
    alice, django_capture_on_commit_callbacks
):
    client = signed_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = change_email(client, "alice@example.com")
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com" and not verified(alice)
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    link = link_in(message)
    anyone = Client()  # the link works in any browser: it proves the mailbox, not the session
    assert "alice@example.com" in anyone.get(link).content.decode()
    assert not verified(alice)  # opening the link (a mail scanner) confirms nothing
    page = anyone.post(link).content.decode()
    assert "is confirmed" in page and verified(alice)
    again = anyone.post(link)  # single use
    assert again.status_code == 400 and "already used" in again.content.decode()


def test_only_the_newest_link_works(alice, django_capture_on_commit_callbacks):
    client = signed_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        change_email(client, "alice@example.com")
        client.post("/accounts/settings/email/resend")
    first, second = (link_in(m) for m in mail.outbox)
    assert Client().post(first).status_code == 400
    assert Client().post(second).status_code == 200 and verified(alice)


def test_a_confirmation_link_expires(alice, settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        change_email(signed_in(alice), "alice@example.com")
    link = link_in(mail.outbox[0])
    settings.EMAIL_CONFIRM_SECONDS = -1  # every link is older than that
    response = Client().post(link)
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert not verified(alice)


def test_a_link_for_a_former_address_no_longer_confirms(alice, django_capture_on_commit_callbacks):
    client = signed_in(alice)
    with django_capture_on_commit_callbacks(execute=True):
        change_email(client, "old@example.com")
        change_email(client, "new@example.com")
    old_link = link_in(mail.outbox[0])
    assert Client().post(old_link).status_code == 400
    assert not verified(alice)


def test_a_forged_link_is_refused(alice):
    Profile.objects.create(user=alice, email_key="k" * 32)
    alice.email = "alice@example.com"
    alice.save()
    value = signing.b64_encode(f"{alice.pk}:alice@example.com:{'k' * 32}".encode()).decode()
    forged = signing.TimestampSigner(salt="another-salt").sign(value)
    response = Client().post(f"/accounts/email/confirm/{forged}/")
    assert response.status_code == 400 and not verified(alice)


def test_changing_a_confirmed_address_tells_the_old_one_and_needs_the_password(
    alice, django_capture_on_commit_callbacks
):
    alice.email = "old@example.com"
    alice.save()
    Profile.objects.create(user=alice, email_verified=True)
    client = signed_in(alice)
    response = change_email(client, "new@example.com", password="not-it")
    assert response.status_code == 400 and "not your current password" in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "old@example.com" and mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        change_email(client, "new@example.com")
    notice, link = mail.outbox
    assert notice.to == ["old@example.com"] and "new@example.com" in notice.body
    assert link.to == ["new@example.com"]
    assert not verified(alice)


def test_changing_the_password_keeps_this_browser_signed_in(alice):
    client = signed_in(alice)
    other = signed_in(alice)
    data = {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    assert client.post("/accounts/settings/password", data).status_code == 400
    data["old_password"] = PASSWORD
    assert client.post("/accounts/settings/password", data).status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert client.get("/accounts/settings/").status_code == 200
    assert other.get("/accounts/settings/").status_code == 302  # signed out elsewhere


def confirmed(user, address: str) -> None:
    user.email = address
    user.save()
    Profile.objects.update_or_create(user=user, defaults={"email_verified": True})


def test_a_reset_answers_the_same_page_for_known_unknown_and_unconfirmed_addresses(alice):
    bob = get_user_model().objects.create_user("bob", password=PASSWORD, email="bob@example.com")
    Profile.objects.create(user=bob)  # typed, never confirmed: might be a stranger's
    confirmed(alice, "alice@example.com")
    pages = []
    for address in ("alice@example.com", "nobody@example.com", "bob@example.com"):
        response = Client().post("/accounts/password/reset/", {"email": address}, follow=True)
        # Each browser has its own CSRF token: everything else must be the same.
        token = r'(csrftoken": |csrfmiddlewaretoken" value=)"[^"]+"'
        page = re.sub(token, "", response.content.decode())
        pages.append((response.redirect_chain, response.status_code, page))
    assert pages[0] == pages[1] == pages[2]
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_a_reset_link_sets_a_new_password_once(alice):
    confirmed(alice, "Alice@Example.com")
    Client().post("/accounts/password/reset/", {"email": "alice@example.com"})
    (message,) = mail.outbox
    link = link_in(message)
    browser = Client()
    form_page = browser.get(link, follow=True)  # Django moves the token into the session
    url = form_page.redirect_chain[-1][0]
    data = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    done = browser.post(url, data)
    assert done.status_code == 302 and done["Location"] == "/accounts/password/reset/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    again = Client().get(link, follow=True).content.decode()
    assert "expired or was already used" in again


def test_a_reset_link_expires(alice, settings):
    confirmed(alice, "alice@example.com")
    Client().post("/accounts/password/reset/", {"email": "alice@example.com"})
    link = link_in(mail.outbox[0])
    settings.PASSWORD_RESET_TIMEOUT = -1
    assert "expired or was already used" in Client().get(link, follow=True).content.decode()


def test_resets_are_throttled_per_mail_address_whatever_the_browser(alice, rate_limits):
    confirmed(alice, "alice@example.com")
    statuses = []
    for n in range(7):
        browser = Client(REMOTE_ADDR=f"10.0.0.{n}")
        statuses.append(browser.post("/accounts/password/reset/", {"email": "alice@example.com"}))
    assert [r.status_code for r in statuses] == [302] * 5 + [429] * 2
    assert len(mail.outbox) == 5
    assert "Too many tries" in statuses[-1].content.decode()


def test_the_sign_in_page_links_to_the_reset(client):
    assert 'href="/accounts/password/reset/"' in client.get("/accounts/login/").content.decode()


def test_new_account_names_cannot_pose_as_closed_accounts(client):
    from dotsboxes.accounts.models import ReservedName

    ReservedName.objects.create(name="gone")
    for name in ("Gone", "closed-7", "settings"):
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        response = client.post("/accounts/signup/", data)
        assert "That name is reserved" in response.content.decode(), name


@pytest.mark.parametrize("confirmed_address", [False, True])
def test_the_account_pages_read_in_chinese_with_no_english_left(alice, confirmed_address):
    from tests.i18n.english import english_words

    alice.email = "alice@example.com"
    alice.save()
    Profile.objects.create(user=alice, email_verified=confirmed_address)
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}
    client = signed_in(alice)
    token = addresses.make_token(alice, Profile.objects.get(user=alice))
    for path in (
        "/accounts/settings/",
        "/accounts/settings/close",
        "/accounts/password/reset/",
        "/accounts/password/reset/sent/",
        "/accounts/password/reset/done/",
        "/accounts/password/reset/MQ/set-password/",
        f"/accounts/email/confirm/{token}/",
        "/notifications/",
    ):
        response = client.get(path, **zh)
        # The address is the player's own text, in no language.
        page = response.content.decode().replace("alice@example.com", "")
        assert response.status_code in (200, 400), path
        # Her name is hers, and zip is a file format's name in every language.
        assert english_words(page, allowed={"alice", "zip"}) == [], path


def test_typing_the_confirmed_address_again_keeps_it_confirmed(alice):
    confirmed(alice, "alice@example.com")
    response = change_email(signed_in(alice), "Alice@Example.com")
    assert response.status_code == 302 and mail.outbox == []
    assert verified(alice)
