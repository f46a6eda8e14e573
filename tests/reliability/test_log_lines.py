"""Expected races are logged as one line, not as a traceback that looks like a bug."""

from __future__ import annotations

from django.contrib.sessions.exceptions import SessionInterrupted
from django.core.exceptions import BadRequest
from django.core.handlers.exception import response_for_exception
from django.test import RequestFactory


def test_a_session_deleted_by_a_sign_out_in_another_tab_logs_one_line_and_answers_400(caplog):
    # The fuzz met it (a sign-out while a puzzle post of the same session was under way):
    # Django answers 400 and logged three chained tracebacks for it.
    request = RequestFactory().post("/puzzles/1/")
    exc = SessionInterrupted("The request's session was deleted before the request completed.")
    response = response_for_exception(request, exc)  # what the handler does with it
    assert response.status_code == 400
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert "session was deleted" in record.getMessage()
    assert record.exc_info is None and not record.exc_text


def test_other_errors_keep_their_traceback(caplog):
    request = RequestFactory().post("/puzzles/1/")
    response = response_for_exception(request, BadRequest("Something else."))
    assert response.status_code == 400
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.exc_info is not None
