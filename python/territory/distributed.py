"""Bulk runs on any ``concurrent.futures.Executor``: a Dask cluster's
``Client.get_executor()``, a ``ProcessPoolExecutor`` or a ``ThreadPoolExecutor``.

A run of N games is split into shards of game indices ``[start, stop)``. Each shard is
one call of a pure, picklable, top-level function ``fn(*args, start, stop)`` (for random
playouts: ``playouts.playout_shard(game, params, seed, threads, keep_games, start,
stop)``), so what crosses the wire is a small spec in and numpy arrays (or tallies) out.
Because game ``i`` of a run depends only on the run's seed and ``i``, the shards can run
anywhere, in any order, any number of times, and ``combine`` of the parts in index order
is identical to the local run.

Plugging a bulk call in (one line)::

    if executor is not None:
        return distributed.run_sharded(executor, my_shard, (game, params, seed, threads),
                                       games, combine=MyResults.concat,
                                       shard_size=shard_size, progress=progress)

where ``my_shard(game, params, seed, threads, start, stop)`` is a module-level function
returning the part for games ``[start, stop)`` and ``combine`` takes the parts in index
order. See docs/scale-out.md.

Dask is imported only by :func:`executor_for` (the CLI's ``--scheduler``), never by
``import territory``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import itertools
import math
import os
import sys
import time
from typing import Any, Callable, ContextManager, Iterator, Sequence, TypeVar

__all__ = [
    "ShardError",
    "run_sharded",
    "shard_ranges",
    "default_shard_size",
    "executor_slots",
    "executor_for",
    "add_scheduler_option",
    "DASK_EXTRA",
]

T = TypeVar("T")

#: What to install for ``--scheduler``.
DASK_EXTRA = 'pip install "territory-games[dask]"'
#: Shards per executor slot by default: a smooth progress bar and balanced workers.
SHARDS_PER_SLOT = 8
#: The largest default shard: bounds a shard's memory (a random-playout game is 26 bytes
#: of arrays) and time (a second or a few of random games), so progress stays live and a
#: worker's death costs little. Bulk calls whose games cost more pass a smaller
#: ``max_shard`` to :func:`run_sharded`.
MAX_SHARD = 1 << 16


class ShardError(RuntimeError):
    """A shard of a distributed run failed; ``start`` and ``stop`` are its game indices
    and the original error is chained as ``__cause__``."""

    def __init__(self, start: int, stop: int, games: int, error: BaseException) -> None:
        self.start, self.stop, self.games = start, stop, games
        super().__init__(
            f"shard of games [{start}, {stop}) of a run of {games} failed: {type(error).__name__}: {error}"
        )


def _cpu_count() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def executor_slots(executor: Any) -> int:
    """How many shards ``executor`` runs at once: the total worker threads of a Dask
    cluster, ``max_workers`` of a standard pool, else the number of cores here."""
    client = getattr(executor, "_client", None)  # distributed.cfexecutor.ClientExecutor
    if client is not None and hasattr(client, "nthreads"):
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # a client that cannot answer: fall back on a guess
            return _cpu_count()
    workers = getattr(executor, "_max_workers", None)
    if isinstance(workers, int) and not isinstance(workers, bool) and workers > 0:
        return workers
    return _cpu_count()


def default_shard_size(games: int, slots: int, max_shard: int = MAX_SHARD) -> int:
    """About ``SHARDS_PER_SLOT`` shards per slot, at most ``max_shard`` games each."""
    return max(1, min(max_shard, math.ceil(games / (max(1, slots) * SHARDS_PER_SLOT))))


def shard_ranges(games: int, shard_size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges of at most ``shard_size`` games covering ``range(games)``."""
    return [(start, min(start + shard_size, games)) for start in range(0, games, shard_size)]


def in_batches(
    run: Callable[[int, int], T],
    total: int,
    *,
    first: int,
    smallest: int = 1,
    largest: int = 1 << 20,
    slow: float = 0.4,
    fixed: int | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> Iterator[T]:
    """The local counterpart of :func:`run_sharded`: yields ``run(start, stop)`` for
    consecutive ranges covering ``[0, total)``, in order. Batches start at ``first``
    games and double while one takes under 0.1 s, halve when one takes over ``slow``
    seconds (within ``smallest .. largest``), so that ``progress(done, total,
    seconds)`` comes a few times a second at little cost; ``fixed`` keeps every
    batch that size. Game i depends only on i, so batch sizes never change results."""
    began = time.perf_counter()
    done, batch = 0, fixed or first
    while done < total:
        size = min(batch, total - done)
        tick = time.perf_counter()
        part = run(done, done + size)
        elapsed = time.perf_counter() - tick
        done += size
        yield part
        if fixed is None:
            if elapsed < 0.1:
                batch = min(batch * 2, largest)
            elif elapsed > slow:
                batch = max(batch // 2, smallest)
        if progress is not None:
            progress(done, total, time.perf_counter() - began)


def run_sharded(
    executor: Any,
    fn: Callable[..., T],
    args: Sequence[Any],
    games: int,
    *,
    combine: Callable[[list[T]], Any] | None = None,
    each: Callable[[T], None] | None = None,
    shard_size: int | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    max_shard: int = MAX_SHARD,
) -> Any:
    """Runs ``fn(*args, start, stop)`` on ``executor`` for shards ``[start, stop)``
    covering games ``0 .. games - 1`` and returns ``combine(parts)``, the parts in index
    order whatever order the shards finish in.

    ``executor``: any ``concurrent.futures.Executor`` (a Dask ``Client`` is turned into
    its executor). ``fn`` must be picklable (a module-level function) and pure: its part
    depends only on its arguments, so a shard re-run after a worker died gives the same
    part. ``shard_size``: games per shard (default: about ``SHARDS_PER_SLOT`` shards per
    worker thread, at most ``max_shard``). ``progress(done, games, seconds)`` is called as
    shards finish. At most ``2 * slots + 2`` shards are submitted at a time (slots: the
    executor's worker threads), the next as one finishes. A shard that raises makes this
    raise :class:`ShardError` naming its range, with the error chained (``SystemExit``
    included: a shard cannot end the caller's process); on that, on
    Ctrl-C (KeyboardInterrupt) or any other exception, the shards not yet finished are
    cancelled first.

    ``each`` (instead of ``combine``) streams: it is given each part in index order as
    soon as the parts before it are in, and none is kept (the return is None), so
    memory stays flat for any number of games: at most ``4 * slots + 4`` parts are in
    flight or waiting for an earlier one.
    """
    if (combine is None) == (each is None):
        raise ValueError("give run_sharded one of combine and each")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise ValueError(f"games must be a non-negative int, got {games!r}")
    if shard_size is not None and (isinstance(shard_size, bool) or not isinstance(shard_size, int) or shard_size < 1):
        raise ValueError(f"shard_size must be None or a positive int, got {shard_size!r}")
    if hasattr(executor, "get_executor") and not isinstance(executor, cf.Executor):
        executor = executor.get_executor()  # a dask.distributed.Client
    if not hasattr(executor, "submit"):
        raise TypeError(f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}")
    slots = executor_slots(executor)
    size = shard_size or default_shard_size(games, slots, max_shard)
    # Shards in flight at once: every worker thread busy with one more queued behind it.
    # Bounded, so that cancelling is quick and the scheduler is not flooded; parts that
    # finished before an earlier one wait, bounded too.
    window = 2 * slots + 2
    began = time.perf_counter()
    pending: dict[cf.Future[T], tuple[int, int]] = {}
    waiting: dict[int, tuple[int, T]] = {}  # start -> (stop, part), after the next in order
    ordered: list[T] = []
    next_start = done = 0
    todo = ((start, min(start + size, games)) for start in range(0, games, size))
    try:
        while True:
            room = min(window - len(pending), 2 * window - len(pending) - len(waiting))
            for start, stop in itertools.islice(todo, max(0, room)):
                pending[executor.submit(fn, *args, start, stop)] = (start, stop)
            if not pending:
                break
            finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
            for future in sorted(finished, key=lambda f: pending[f][0]):
                start, stop = pending.pop(future)
                try:
                    waiting[start] = (stop, future.result())
                except (Exception, SystemExit) as error:  # a shard's sys.exit() is its failure too
                    raise ShardError(start, stop, games, error) from error
                while next_start in waiting:
                    next_start, part = waiting.pop(next_start)
                    if each is not None:
                        each(part)
                    else:
                        ordered.append(part)
                done += stop - start
                if progress is not None:
                    progress(done, games, time.perf_counter() - began)
    except BaseException:
        if isinstance(executor, _dask_executor_types()):
            _quiet_dask_logs()  # cancelling shards in flight makes Dask log tracebacks
        for future in pending:
            future.cancel()
        raise
    return None if combine is None else combine(ordered)


def add_scheduler_option(parser: argparse.ArgumentParser) -> None:
    """Adds ``--scheduler`` to a bulk command's parser (read it with :func:`executor_for`)."""
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="run on Dask: the address of a running scheduler (tcp://host:8786), or local:N "
             f"for a cluster of N worker processes on this machine (needs {DASK_EXTRA})",
    )


def executor_for(scheduler: str | None) -> ContextManager[Any]:
    """A context manager giving the executor for a ``--scheduler`` value: ``None`` for
    none (run locally), ``local:N`` for a Dask ``LocalCluster`` of N worker processes
    started for the run (each with ``max(1, cores // N)`` threads, so cores are not
    oversubscribed, and closed on exit), or a scheduler address to connect to.

    Checks the value, that Dask is installed and that the scheduler answers (or starts the
    cluster) at once: raises ``ValueError`` for a malformed value or a scheduler that
    cannot be reached, ``ImportError`` saying what to install when Dask is missing.
    """
    if scheduler is None:
        return contextlib.nullcontext(None)
    workers = None
    if scheduler.startswith("local:"):
        count = scheduler[len("local:"):]
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"--scheduler local:N needs a number of workers N >= 1, got {scheduler!r}")
        workers = int(count)
    elif not scheduler.strip():
        raise ValueError("--scheduler needs an address like tcp://host:8786 or local:N")
    try:
        import distributed
    except ImportError as error:
        raise ImportError(f"--scheduler needs Dask: {DASK_EXTRA}") from error
    return _dask_executor(distributed, scheduler, workers)


def _dask_executor(distributed: Any, address: str, workers: int | None) -> ContextManager[Any]:
    import logging

    stack = contextlib.ExitStack()
    try:
        if workers is None:
            try:
                client = stack.enter_context(distributed.Client(address, timeout=10))
            except (OSError, ValueError, TypeError) as error:
                raise ValueError(f"cannot connect to the Dask scheduler at {address!r}: {error}") from error
        else:
            # Ctrl-C goes to the whole process group: the worker processes start with
            # SIGINT ignored, so that only this process stops (and closes the cluster).
            # Their logs are silenced below CRITICAL: torn down with this process, they
            # log each lost heartbeat with a traceback, while a shard's own failure
            # reaches this process as its exception (ShardError) anyway.
            with _sigint_ignored():
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=max(1, _cpu_count() // workers),
                    processes=True, dashboard_address=None, silence_logs=logging.CRITICAL,
                ))
            client = stack.enter_context(distributed.Client(cluster))
        executor = client.get_executor()
        # Closed first on exit: cancels the shards still out (Ctrl-C) before the client.
        stack.callback(executor.shutdown, wait=False)
    except BaseException:
        stack.close()
        raise
    return _Running(stack, executor)


class _Running:
    """Gives ``executor`` on entry; closes ``stack`` (client, cluster) on exit."""

    def __init__(self, stack: contextlib.ExitStack, executor: Any) -> None:
        self.stack, self.executor = stack, executor

    def __enter__(self) -> Any:
        return self.executor

    def __exit__(self, *exc_info: Any) -> None:
        if exc_info[0] is not None:
            # Interrupted (Ctrl-C) or failed: the client and cluster are torn down with
            # shards in flight, and Dask and tornado log each broken connection with a
            # traceback. Those say nothing the one-line error does not.
            _quiet_dask_logs()
        self.stack.__exit__(*exc_info)


def _quiet_dask_logs() -> None:
    """Silences Dask's and tornado's logs for a run being torn down (Ctrl-C or a failure):
    each broken connection or cancelled key is logged with a traceback that says nothing
    the one-line error does not."""
    import logging

    # Dask's configuration gives some children levels of their own (tornado.application
    # logs at ERROR although tornado is CRITICAL), so each known logger is set too.
    names = [name for name in logging.Logger.manager.loggerDict
             if name.split(".")[0] in ("distributed", "tornado")]
    for name in ("distributed", "tornado", *names):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _dask_executor_types() -> tuple[type, ...]:
    """Dask's executor classes, if Dask is imported (never imported here for this)."""
    module = sys.modules.get("distributed.cfexecutor")
    return (module.ClientExecutor,) if module is not None else ()


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (processes started then inherit that), then restored."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
