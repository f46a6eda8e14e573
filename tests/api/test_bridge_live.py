"""The bridge as its owners run it: ``python -m dotsboxes.bot`` subprocesses with our own
engine, against a live uvicorn server, playing a whole game through the API."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import pytest

from tests.rooms.live import ROOT, asgi_servers, server_env, worker_ports

pytestmark = pytest.mark.django_db(transaction=True)

MAKE_BOTS = """
from django.contrib.auth import get_user_model
from dotsboxes.api import services, tokens
for name in ("alphabot", "betabot"):
    user = get_user_model().objects.create_user(name, password="a long passphrase 42")
    services.bot_account_create(user=user)
    print("TOKEN", name, tokens.token_create(user=user)[1])
"""

RESULT = """
import json
from dotsboxes.games.models import Game
game = Game.objects.get()
moves = game.moves
print("RESULT", json.dumps({
    "status": game.status, "result": game.result, "moves": moves.count(),
    "computer": moves.filter(by_computer=True).count(),
    "scores": [game.blue_score, game.red_score], "blue": game.blue_name, "red": game.red_name,
}))
"""


def manage_shell(env: dict, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def bridge(env: dict, url: str, token: str, log) -> subprocess.Popen:
    command = [
        *(sys.executable, "-m", "dotsboxes.bot", "--url", url, "--token", token),
        *("--engine", f"{sys.executable} -m dotsboxes.engine", "--games", "1", "-v"),
    ]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def test_two_bridges_with_our_engine_play_a_2x2_game_to_the_end(
    django_db_setup, django_db_blocker, tmp_path
):
    with django_db_blocker.unblock():
        env = server_env(tmp_path, API_POLL_SECONDS="0.1", ROOMS_TICK_SECONDS="0.2")
    made = [line.split()[1:] for line in manage_shell(env, MAKE_BOTS).splitlines()]
    tokens = dict(words for words in made if len(words) == 2 and words[0].endswith("bot"))
    with asgi_servers(env, worker_ports(1)[:1], ["uvicorn"]) as (url,):
        with open(tmp_path / "bridge-revoked.log", "w") as log:
            refused = bridge(env, url, "dbx_revoked-or-never-made", log)
            assert refused.wait(timeout=30) == 2  # 401: the bridge stops and says why
        assert "401" in (tmp_path / "bridge-revoked.log").read_text()
        logs = [open(tmp_path / f"bridge-{name}.log", "w") for name in tokens]  # noqa: SIM115
        bridges = [
            bridge(env, url, tokens[name], log) for name, log in zip(tokens, logs, strict=True)
        ]
        try:
            request = urllib.request.Request(
                url + "/api/challenge/betabot",
                data=json.dumps({"width": 2, "height": 2, "side": "blue"}).encode(),
                headers={
                    "Authorization": f"Bearer {tokens['alphabot']}",
                    "Content-Type": "application/json",
                },
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 201
            for process in bridges:
                assert process.wait(timeout=120) == 0
        finally:
            for process in bridges:
                if process.poll() is None:
                    process.kill()
            for log in logs:
                log.close()
        found = [line for line in manage_shell(env, RESULT).splitlines() if line[:7] == "RESULT "]
        result = json.loads(found[0][7:])
    output = "\n".join((tmp_path / f"bridge-{name}.log").read_text() for name in tokens)
    assert result["status"] == "finished", output
    assert result["moves"] == 12 and result["computer"] == 0  # every edge came from a bridge
    assert sum(result["scores"]) == 4 and result["result"] in ("blue", "red", "tie")
    assert (result["blue"], result["red"]) == ("alphabot", "betabot")
    assert "accepted challenge" in output and "over" in output
