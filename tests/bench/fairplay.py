"""Fair-play flags on synthetic rated games (a script, not a test).

    nice python tests/bench/fairplay.py                  # pool of 60 3 x 3 games, 5 seeds
    python tests/bench/fairplay.py --sweep               # also every FLAG_SPREADS in a list
    python tests/bench/fairplay.py --pool-games 20 --seeds 1   # quicker

How it stays cheap: the solver values every legal edge of every position of a **pool**
of 3 x 3 boxes games (once; kept in ``--pool-file``), and the club level's choice in
each.  A synthetic rated game of a player is then one pool game seen from one side:
at each of that side's positions the player's model picks an edge, and the entry the
analysis would store for it (``exact``, every best edge, boxes lost) is built from the
solver's values directly, as ``dotsboxes.engine.annotate`` builds it.  The figures and
the flag are ``dotsboxes.moderation.fairplay``'s own functions, as on the staff pages.

Players (the models are assumptions; docs/FAIRPLAY.md says which and why):

* **ordinary**: a rating drawn from N(1500, 300); a skill ``s`` that grows with the
  rating (0.1 at 600 to 0.7 at 2400), varied per game by N(0, 0.1) (form).  One in
  ten plays 600 points above their rating (a strong player's new account): the
  accounts most likely to be flagged wrongly.  At each
  position: a best edge with probability ``s``, else any legal edge at random (which
  is sometimes a best one too).
* **engine 100 % / 90 %**: a best edge with that probability, otherwise an ordinary
  player's choice (their own skill).  Their rating is drawn like an ordinary player's:
  a cheater is judged against the band they have climbed to or started from.
* **club**: the club level's edge at every position (an engine used at the club level's
  strength); its match rate is measured on the pool and printed.

Each seed makes 200 ordinary accounts and 20 of each cheating kind, all playing
``--games`` games; after each game every account is assessed against the others
(its rating band).  Printed: false flags (ordinary accounts flagged after any game),
and for each kind of cheater, the share flagged after 5, 10, 15, 20 and 30 games and the
median number of games to the first flag.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from dotsboxes.engine import players, solver
from dotsboxes.moderation import fairplay
from dotsboxes.rules import Board, Player

KINDS = ("ordinary", "engine100", "engine90", "club")


# -- the pool: real positions with every edge's exact value --------------------------------


def build_pool(games: int, width: int, height: int, seed: int, *, progress: bool = False) -> list:
    """``games`` games of mixed play; for each position its mover, edges' values, and the
    club level's choice.  The movers mix proved-best, casual and random edges so the pool
    holds the positions good and weak players reach."""
    rng = random.Random(seed)
    pool = []
    for g in range(games):
        board = Board(width, height)
        positions = []
        while not board.is_over():
            values = solver.move_values(board)
            assert values is not None
            top = max(values.values())
            club = players.choose(board, level="club", seed=g, hard_stop=False)
            positions.append(
                {
                    "ply": len(board.move_stack) + 1,
                    "side": "blue" if board.turn is Player.BLUE else "red",
                    "values": {str(e): v for e, v in values.items()},
                    "club": str(club),
                }
            )
            roll = rng.random()
            if roll < 0.45:
                edge = rng.choice([e for e, v in values.items() if v == top])
            elif roll < 0.75:
                edge = players.choose(board, level="casual", seed=rng.randrange(10**6))
            else:
                edge = rng.choice(list(values))
            board.push(edge)
        pool.append(positions)
        if progress:
            print(f"  pool game {g + 1}/{games}", file=sys.stderr)
    return pool


# -- synthetic players -----------------------------------------------------------------------


def skill_for(rating: float) -> float:
    return min(0.7, max(0.1, 0.1 + 0.6 * (rating - 600) / 1800))


#: Share of ordinary accounts whose rating is far below their play (a strong player's
#: new account, still near the starting rating): the likeliest false flags.
UNDERRATED = 0.1
UNDERRATED_BY = 600


def make_players(rng: random.Random, ordinary: int, cheaters: int) -> list[dict]:
    out = []
    for kind in KINDS:
        for _ in range(ordinary if kind == "ordinary" else cheaters):
            rating = min(2400, max(600, rng.gauss(1500, 300)))
            plays_like = rating
            if kind == "ordinary" and rng.random() < UNDERRATED:
                plays_like = rating + UNDERRATED_BY
            out.append(
                {"kind": kind, "rating": rating, "skill": skill_for(plays_like), "games": []}
            )
    return out


def entry_for(position: dict, edge: str) -> dict:
    values = position["values"]
    top = max(values.values())
    best = [e for e, v in values.items() if v == top]
    return {
        "ply": position["ply"],
        "side": position["side"],
        "edge": edge,
        "exact": True,
        "best": best,
        "lost": (top - values[edge]) // 2,
    }


def play_game(player: dict, pool: list, rng: random.Random, width: int, height: int):
    positions = rng.choice(pool)
    side = rng.choice(("blue", "red"))
    form = min(0.95, max(0.0, player["skill"] + rng.gauss(0, 0.1)))
    rate = {"engine100": 1.0, "engine90": 0.9}.get(player["kind"], 0.0)
    entries = []
    for position in positions:
        if position["side"] != side:
            continue
        values = position["values"]
        top = max(values.values())
        if player["kind"] == "club":
            edge = position["club"]
        elif rng.random() < rate or rng.random() < form:
            edge = rng.choice([e for e, v in values.items() if v == top])
        else:
            edge = rng.choice(list(values))
        entries.append(entry_for(position, edge))
    return fairplay.game_figures(entries, side, width=width, height=height)


# -- the run -----------------------------------------------------------------------------------


def run(
    pool: list, *, seed: int, games: int, ordinary: int, cheaters: int, width: int, height: int
):
    """Per account: its kind and the game counts after which it was flagged."""
    rng = random.Random(seed)
    people = make_players(rng, ordinary, cheaters)
    for person in people:
        person["flags"] = []
        person["games"] = [play_game(person, pool, rng, width, height) for _ in range(games)]
    for n in range(1, games + 1):
        figures = [
            fairplay.combine(p["games"][max(0, n - fairplay.RECENT_GAMES) : n]) for p in people
        ]
        rated = [
            (p["rating"], f.rate)
            for p, f in zip(people, figures, strict=True)
            if f.rate is not None and f.choices >= fairplay.MIN_CHOICES
        ]
        for i, (person, figure) in enumerate(zip(people, figures, strict=True)):
            others = (
                [r for j, r in enumerate(rated) if j != i] if figure.rate is not None else rated
            )
            verdict = fairplay.assess(figure, fairplay.peers_of(person["rating"], others))
            if verdict.flagged:
                person["flags"].append(n)
    return people


def summarise(people: list, games: int) -> dict:
    out = {}
    for kind in KINDS:
        group = [p for p in people if p["kind"] == kind]
        first = [p["flags"][0] for p in group if p["flags"]]
        out[kind] = {
            "accounts": len(group),
            "ever_flagged": len(first),
            "flagged_by": {
                n: sum(1 for f in first if f <= n) for n in (5, 10, 15, 20, 30) if n <= games
            },
            "median_first_flag": statistics.median(first) if first else None,
            "max_first_flag": max(first) if first else None,
        }
    return out


def main() -> None:
    global UNDERRATED
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool-games", type=int, default=60)
    parser.add_argument("--pool-file", default="/tmp/fairplay-pool.json")
    parser.add_argument("--width", type=int, default=3)
    parser.add_argument("--height", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--ordinary", type=int, default=200)
    parser.add_argument("--cheaters", type=int, default=20)
    parser.add_argument("--seed-base", type=int, default=100)
    parser.add_argument(
        "--underrated", type=float, default=UNDERRATED, help="share of underrated accounts"
    )
    parser.add_argument(
        "--sweep", action="store_true", help="every FLAG_SPREADS x ALPHA of a grid, not only ours"
    )
    args = parser.parse_args()
    UNDERRATED = args.underrated

    path = Path(args.pool_file)
    key = f"{args.width}x{args.height}:{args.pool_games}"
    pool = None
    if path.exists():
        stored = json.loads(path.read_text())
        pool = stored["pool"] if stored.get("key") == key else None
    if pool is None:
        started = time.perf_counter()
        pool = build_pool(args.pool_games, args.width, args.height, seed=1, progress=True)
        path.write_text(json.dumps({"key": key, "pool": pool}))
        print(f"pool built in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    positions = [p for game in pool for p in game]
    choice = [p for p in positions if len(set(p["values"].values())) > 1]
    club = sum(1 for p in choice if p["values"][p["club"]] == max(p["values"].values()))
    per_game = len(choice) / len(pool) / 2
    print(
        f"pool: {len(pool)} games of {args.width} x {args.height} boxes, {len(positions)} "
        f"positions, {len(choice)} with a real choice ({per_game:.1f} per player per game); "
        f"the club level plays a best edge in {100 * club / len(choice):.1f} % of them"
    )
    grid = [(fairplay.FLAG_SPREADS, fairplay.ALPHA)]
    if args.sweep:
        grid = [(k, a) for a in (1e-3, 1e-4, 1e-5) for k in (1.0, 1.5, 2.0, 2.5)]
    for spread, alpha in grid:
        fairplay.FLAG_SPREADS, fairplay.ALPHA = spread, alpha
        totals: dict = {}
        for seed in range(args.seeds):
            people = run(
                pool,
                seed=args.seed_base + seed,
                games=args.games,
                ordinary=args.ordinary,
                cheaters=args.cheaters,
                width=args.width,
                height=args.height,
            )
            totals[seed] = summarise(people, args.games)
            ordinary = [p for p in people if p["kind"] == "ordinary"]
            rates = sorted(
                fairplay.combine(p["games"][-fairplay.RECENT_GAMES :]).rate for p in ordinary
            )
            if (spread, alpha) == grid[0]:
                print(
                    f"seed {seed}: ordinary match rates over {fairplay.RECENT_GAMES} games: "
                    f"median {statistics.median(rates):.3f}, max {rates[-1]:.3f}"
                )
        print(
            f"\nFLAG_SPREADS = {spread}, ALPHA = {alpha:g}, seeds {args.seed_base}.."
            f"{args.seed_base + args.seeds - 1} x ({args.ordinary} ordinary + 3 x "
            f"{args.cheaters} cheaters):"
        )
        for kind in KINDS:
            rows = [totals[s][kind] for s in totals]
            flagged = sum(r["ever_flagged"] for r in rows)
            accounts = sum(r["accounts"] for r in rows)
            line = f"  {kind:9s} flagged {flagged}/{accounts}"
            if kind != "ordinary":
                by = {n: sum(r["flagged_by"].get(n, 0) for r in rows) for n in (5, 10, 15, 20, 30)}
                medians = [r["median_first_flag"] for r in rows if r["median_first_flag"]]
                worst = [r["max_first_flag"] for r in rows if r["max_first_flag"]]
                line += " | by game " + ", ".join(
                    f"{n}: {100 * v / accounts:.0f} %" for n, v in by.items() if n <= args.games
                )
                if medians:
                    line += f" | median first flag {statistics.median(medians):g} games"
                    line += f", slowest {max(worst)}"
            print(line)


if __name__ == "__main__":
    main()
