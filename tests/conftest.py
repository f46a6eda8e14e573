"""Shared fixtures for the whole suite."""

from __future__ import annotations

import pytest


@pytest.fixture
def alice(client):
    """A browser session: anonymous players are identified by their session."""
    return client
