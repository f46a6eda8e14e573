"""Job queues compared: pick-up latency and a worker killed mid-job (a script, not a test).

    nice python tests/bench/queues.py latency dramatiq [--worker-timeout-ms 100]
    nice python tests/bench/queues.py latency rq
    nice python tests/bench/queues.py kill dramatiq [--tuned]
    nice python tests/bench/queues.py kill rq [--wait 90]
    nice python tests/bench/queues.py latency celery     # pip install celery first
    nice python tests/bench/queues.py kill celery [--tuned]

Both run against ``BENCH_REDIS_URL`` (default ``redis://127.0.0.1:6379/9``), which
is flushed first, with workers started as separate processes of this script.

``latency`` enqueues 200 empty jobs, one every 10-40 ms (so this measures the
queue picking a job up, not jobs waiting behind each other), one worker with one
thread; each job writes ``time.time()`` at its start to Redis.  Pick-up latency is
that minus the time just before the enqueue; median, p95 and p99 are printed.

``kill`` starts two workers, enqueues one job that sleeps 3 s, SIGKILLs the
worker (its whole process group) that started it, and waits for the job to start
again in the other one: the time from the kill to the second start is printed,
or that it never came within ``--wait`` seconds.  ``--tuned`` gives dramatiq's
Redis broker the settings ``dotsboxes.jobs`` uses (2 s heartbeat timeout,
maintenance on every command); RQ has no such knob short of its fixed 60 s on
top of the job monitoring interval, so it runs with its defaults and a 1 s
maintenance interval.  Celery runs with ``acks_late`` and
``reject_on_worker_lost``, prefork pool of one, prefetch multiplier 1;
``--tuned`` sets its Redis visibility timeout to 2 s (default: one hour).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import time

import redis

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/9")
STARTS = "bench:starts"  # list of "<job id> <pid> <time.time()>"


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


# -- the job, the same for every queue ---------------------------------------------------


def job(job_id: str, seconds: float = 0.0) -> None:
    """Note when (and in which process) the job started, then work ``seconds``."""
    redis.Redis.from_url(URL).rpush(STARTS, f"{job_id} {os.getpid()} {time.time()!r}")
    if seconds:
        time.sleep(seconds)


# -- dramatiq ----------------------------------------------------------------------------


def dramatiq_broker(tuned: bool):
    import dramatiq
    from dramatiq.brokers.redis import MAINTENANCE_SCALE, RedisBroker

    options = {"heartbeat_timeout": 2000, "maintenance_chance": MAINTENANCE_SCALE} if tuned else {}
    broker = RedisBroker(url=URL, namespace="bench", **options)
    dramatiq.set_broker(broker)
    return broker, dramatiq.actor(job, queue_name="bench", max_retries=0, actor_name="job")


def dramatiq_worker(tuned: bool, worker_timeout_ms: int) -> None:
    import dramatiq

    broker, _actor = dramatiq_broker(tuned)
    worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=worker_timeout_ms)
    worker.start()
    signal.signal(signal.SIGTERM, lambda *_: (worker.stop(), sys.exit(0)))
    while True:
        time.sleep(1)


def dramatiq_enqueue(tuned: bool):
    _broker, actor = dramatiq_broker(tuned)
    return lambda job_id, seconds=0.0: actor.send(job_id, seconds)


# -- rq ----------------------------------------------------------------------------------


def rq_worker() -> None:
    from rq import Queue, SimpleWorker, Worker

    connection = redis.Redis.from_url(URL)
    queues = [Queue("bench", connection=connection)]
    # RQ_SIMPLE=1: no work-horse forked per job (RQ's SimpleWorker).
    kind = SimpleWorker if os.environ.get("RQ_SIMPLE") else Worker
    kind(queues, connection=connection, maintenance_interval=1).work(with_scheduler=False)


def rq_enqueue(tuned: bool):
    from rq import Queue

    queue = Queue("bench", connection=redis.Redis.from_url(URL))
    # By name: RQ refuses functions of ``__main__`` (the worker imports the module).
    return lambda job_id, seconds=0.0: queue.enqueue("tests.bench.queues.job", job_id, seconds)


# -- celery (not a dependency: pip install celery to run these) -------------------------


def celery_app(tuned: bool):
    from celery import Celery

    app = Celery("bench", broker=URL)
    app.conf.update(
        task_acks_late=True,  # acknowledge after the job, as the other two do
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_connection_retry_on_startup=True,
        # Celery's Redis transport delivers an unacknowledged message again once
        # it is older than the visibility timeout (default one hour).
        broker_transport_options={"visibility_timeout": 2} if tuned else {},
    )
    app.task(name="bench.job")(job)
    return app


def celery_worker(tuned: bool) -> None:
    app = celery_app(tuned)
    app.worker_main(["worker", "-c", "1", "-Q", "bench", "--loglevel", "WARNING", "-O", "fair"])


def celery_enqueue(tuned: bool):
    app = celery_app(tuned)
    return lambda job_id, seconds=0.0: app.send_task(
        "bench.job", args=(job_id, seconds), queue="bench"
    )


ENQUEUE = {"dramatiq": dramatiq_enqueue, "rq": rq_enqueue, "celery": celery_enqueue}


# -- the two measurements ----------------------------------------------------------------


def start_worker(library: str, tuned: bool, worker_timeout_ms: int) -> subprocess.Popen:
    command = [sys.executable, __file__, "worker", library, "--worker-timeout-ms"]
    command.append(str(worker_timeout_ms))
    if tuned:
        command.append("--tuned")
    return subprocess.Popen(command, start_new_session=True)


def starts(client: redis.Redis) -> list[tuple[str, int, float]]:
    rows = [row.decode().split() for row in client.lrange(STARTS, 0, -1)]
    return [(job_id, int(pid), float(at)) for job_id, pid, at in rows]


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return False


def latency(library: str, tuned: bool, worker_timeout_ms: int, jobs: int = 200) -> None:
    client = redis.Redis.from_url(URL)
    client.flushdb()
    enqueue = ENQUEUE[library](tuned)
    worker = start_worker(library, tuned, worker_timeout_ms)
    try:
        enqueue("warm-up")
        assert wait_for(lambda: client.llen(STARTS) == 1, 30), "the worker never started"
        client.delete(STARTS)
        sent: dict[str, float] = {}
        for n in range(jobs):
            job_id = f"j{n}"
            sent[job_id] = time.time()
            enqueue(job_id)
            time.sleep(random.uniform(0.010, 0.040))
        assert wait_for(lambda: client.llen(STARTS) == jobs, 60), "jobs went missing"
        ms = [(at - sent[job_id]) * 1000 for job_id, _pid, at in starts(client)]
        print(
            f"{library}{' tuned' if tuned else ''} pick-up latency, {jobs} jobs"
            + (f", worker_timeout {worker_timeout_ms} ms" if library == "dramatiq" else "")
            + f": median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms,"
            f" p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
        )
    finally:
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()


def kill(library: str, tuned: bool, wait: float) -> None:
    client = redis.Redis.from_url(URL)
    client.flushdb()
    enqueue = ENQUEUE[library](tuned)
    workers = [start_worker(library, tuned, 100) for _ in range(2)]
    try:
        time.sleep(3)  # both workers up and polling
        enqueue("slow", 3.0)
        assert wait_for(lambda: client.llen(STARTS) == 1, 30), "the job never started"
        _job, pid, _at = starts(client)[0]
        victim = next(w for w in workers if w.pid == pid or _child_of(pid, w.pid))
        time.sleep(0.5)  # mid-job
        killed_at = time.time()
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()
        if wait_for(lambda: client.llen(STARTS) == 2, wait):
            again = starts(client)[1][2] - killed_at
            print(f"{library}{' tuned' if tuned else ''}: delivered again {again:.2f} s after kill")
        else:
            print(f"{library}{' tuned' if tuned else ''}: not delivered again within {wait:.0f} s")
    finally:
        for worker in workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()


def _child_of(pid: int, parent: int) -> bool:
    """RQ (work-horse) and celery (prefork pool) run a job in the worker's child process."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1]) == parent
    except FileNotFoundError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["latency", "kill", "worker"])
    parser.add_argument("library", choices=["dramatiq", "rq", "celery"])
    parser.add_argument("--tuned", action="store_true")
    parser.add_argument("--worker-timeout-ms", type=int, default=1000)
    parser.add_argument("--wait", type=float, default=90)
    args = parser.parse_args()
    if args.what == "worker":
        if args.library == "dramatiq":
            dramatiq_worker(args.tuned, args.worker_timeout_ms)
        elif args.library == "celery":
            celery_worker(args.tuned)
        else:
            rq_worker()
    elif args.what == "latency":
        latency(args.library, args.tuned, args.worker_timeout_ms)
    else:
        kill(args.library, args.tuned, args.wait)


if __name__ == "__main__":
    main()
