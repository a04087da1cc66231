"""Scale-out: bulk runs on a Dask LocalCluster (worker processes), a ProcessPoolExecutor
and thread pools give results identical to the local run, array for array; failures,
Ctrl-C and a worker killed mid-run."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import territory
from interrupting import interrupt
from territory import distributed
from territory.distributed import ShardError, run_sharded
from territory.playouts import FIELDS, playout_shard

SMALL = {"tabik": {"size": 5}, "migong": {}, "nume": {"n": 2}}


def assert_identical(a, b):
    for name in FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert np.array_equal(x, y), name


def summary_without_time(result):
    summary = result.summary()
    del summary["seconds"], summary["games_per_second"]
    return summary


@pytest.fixture(scope="module")
def process_pool():
    with cf.ProcessPoolExecutor(2) as pool:
        yield pool


def test_import_territory_does_not_import_dask():
    code = ("import sys, territory, territory.distributed, territory.cli; "
            "territory.random_playouts('tabik', 10, size=4); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game", sorted(SMALL))
def test_shards_concatenate_to_the_run(game):
    run = territory.random_playouts(game, 500, seed=21, **SMALL[game])
    params = run.params
    parts = [playout_shard(game, params, 21, 1, True, a, b) for a, b in ((0, 1), (1, 170), (170, 499), (499, 500))]
    for name in FIELDS:
        assert np.array_equal(np.concatenate([p[name] for p in parts]), getattr(run, name)), name
    # A shard does not depend on what ran before it or on its thread count.
    again = playout_shard(game, params, 21, 2, True, 170, 499)
    assert all(np.array_equal(again[name], parts[2][name]) for name in FIELDS)


def test_shard_ranges_cover_the_run_exactly():
    assert distributed.shard_ranges(10, 3) == [(0, 3), (3, 6), (6, 9), (9, 10)]
    assert distributed.shard_ranges(0, 5) == []
    assert distributed.default_shard_size(1_000_000, 2) == 62_500
    assert distributed.default_shard_size(1_000_000, 2, max_shard=1000) == 1000
    assert distributed.default_shard_size(10**9, 2) == distributed.MAX_SHARD
    assert distributed.default_shard_size(3, 4) == 1


@pytest.mark.parametrize("game", sorted(SMALL))
def test_dask_cluster_gives_the_local_results(dask_client, game):
    local = territory.random_playouts(game, 3000, seed=5, **SMALL[game])
    executor = dask_client.get_executor()
    for shard_size in (None, 1000, 7 if game == "tabik" else 299, 5000):
        remote = territory.random_playouts(game, 3000, seed=5, executor=executor, shard_size=shard_size, **SMALL[game])
        assert_identical(remote, local)
        assert summary_without_time(remote) == summary_without_time(local)
    streamed = territory.random_playouts(game, 3000, seed=5, executor=executor, shard_size=400, keep_games=False,
                                         threads=2, **SMALL[game])
    assert streamed.winner is None
    assert summary_without_time(streamed) == summary_without_time(local)


def test_a_dask_client_is_taken_for_its_executor(dask_client):
    local = territory.random_playouts("tabik", 1000, seed=8, size=6)
    assert_identical(territory.random_playouts("tabik", 1000, seed=8, size=6, executor=dask_client), local)


@pytest.mark.parametrize("keep_games", [True, False])
def test_process_pool_gives_the_local_results(process_pool, keep_games):
    for game in sorted(SMALL):
        local = territory.random_playouts(game, 2000, seed=9, threads=1, **SMALL[game])
        for shard_size in (None, 333, 2000):
            remote = territory.random_playouts(game, 2000, seed=9, executor=process_pool, shard_size=shard_size,
                                               keep_games=keep_games, **SMALL[game])
            if keep_games:
                assert_identical(remote, local)
            assert summary_without_time(remote) == summary_without_time(local)


class Shuffling(cf.ThreadPoolExecutor):
    """Runs calls after delays that make later shards finish first; records the order."""

    def __init__(self) -> None:
        super().__init__(max_workers=16)
        self.submitted = 0
        self.finished: list[int] = []
        self.lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs):
        delay = 0.02 * (16 - self.submitted % 16)
        self.submitted += 1

        def late():
            time.sleep(delay)
            result = fn(*args, **kwargs)
            with self.lock:
                self.finished.append(args[-2])  # the shard's start
            return result

        return super().submit(late)


def test_shards_finishing_out_of_order_are_merged_in_index_order():
    local = territory.random_playouts("nume", 1600, seed=4, n=3)
    done = []
    with Shuffling() as executor:
        remote = territory.random_playouts("nume", 1600, seed=4, n=3, executor=executor, shard_size=100,
                                           progress=lambda d, t, s: done.append((d, t)))
    assert executor.finished != sorted(executor.finished)  # they really came out of order
    assert sorted(executor.finished) == list(range(0, 1600, 100))
    assert_identical(remote, local)
    assert done == [(100 * (i + 1), 1600) for i in range(16)]


def test_thread_pool_and_any_thread_count():
    local = territory.random_playouts("tabik", 2000, seed=2, size=7)
    with cf.ThreadPoolExecutor(3) as executor:
        for threads in (1, 2, None):
            assert_identical(territory.random_playouts("tabik", 2000, seed=2, size=7, executor=executor,
                                                       threads=threads, shard_size=150), local)


def fail_at(index, start, stop):
    """A shard function that fails on the shard holding game ``index``."""
    if start <= index < stop:
        raise ValueError(f"cannot play game {index}")
    return list(range(start, stop))


def test_a_failing_shard_names_its_range_and_chains_the_error():
    with cf.ThreadPoolExecutor(2) as executor:
        assert run_sharded(executor, fail_at, (-1,), 1000, shard_size=100, combine=lambda parts: sum(parts, [])) == list(range(1000))
        with pytest.raises(ShardError, match=r"shard of games \[300, 400\) of a run of 1000 failed: ValueError: cannot play game 345") as info:
            run_sharded(executor, fail_at, (345,), 1000, shard_size=100, combine=list)
    assert (info.value.start, info.value.stop) == (300, 400)
    assert isinstance(info.value.__cause__, ValueError)


def exit_at(index, start, stop):
    """A shard function that calls sys.exit on the shard holding game ``index``."""
    if start <= index < stop:
        sys.exit(f"no game {index}")
    return list(range(start, stop))


def test_a_shard_calling_sys_exit_is_a_shard_error():
    """A shard's SystemExit escaped run_sharded unwrapped (and would end the caller)."""
    with cf.ThreadPoolExecutor(2) as executor:
        with pytest.raises(ShardError, match=r"shard of games \[100, 200\) of a run of 300 failed: SystemExit: no game 150") as info:
            run_sharded(executor, exit_at, (150,), 300, shard_size=100, combine=list)
    assert isinstance(info.value.__cause__, SystemExit)


def test_a_shard_failing_on_a_dask_worker_raises_shard_error(dask_client, process_pool):
    for executor in (dask_client.get_executor(), process_pool):
        with pytest.raises(ShardError, match=r"size must be an int from 2 to 16") as info:
            run_sharded(executor, playout_shard, ("tabik", {"size": 99}, 0, 1, True), 100, shard_size=50, combine=list)
        assert isinstance(info.value.__cause__, ValueError)
        assert (info.value.start, info.value.stop) in ((0, 50), (50, 100))


def test_bad_arguments_are_refused():
    with cf.ThreadPoolExecutor(1) as executor:
        with pytest.raises(ValueError, match="shard_size"):
            territory.random_playouts("tabik", 10, executor=executor, shard_size=0)
        with pytest.raises(ValueError, match="games"):
            run_sharded(executor, fail_at, (-1,), -1, combine=list)
    with pytest.raises(ValueError, match="shard_size"):
        territory.random_playouts("tabik", 10, shard_size=1.5)
    with pytest.raises(TypeError, match="executor"):
        territory.random_playouts("tabik", 10, executor=object())
    with pytest.raises(ValueError, match="local:N"):
        distributed.executor_for("local:0")


def slow_range(calls, start, stop):
    calls.append(start)
    time.sleep(0.05)
    return stop - start


def test_keyboard_interrupt_cancels_the_outstanding_shards():
    calls: list[int] = []

    def interrupt(done, total, seconds):
        raise KeyboardInterrupt

    executor = cf.ThreadPoolExecutor(1)
    began = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        run_sharded(executor, slow_range, (calls,), 100, shard_size=2, combine=sum, progress=interrupt)
    assert time.perf_counter() - began < 1
    executor.shutdown(wait=True)
    assert len(calls) <= 3  # the first shard, and at most the ones started meanwhile, not 50


def test_keyboard_interrupt_cancels_dask_tasks(dask_client):
    def interrupt(done, total, seconds):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        territory.random_playouts("migong", 20_000, executor=dask_client.get_executor(), shard_size=200,
                                  progress=interrupt)
    deadline = time.monotonic() + 10
    while dask_client.processing() and any(dask_client.processing().values()):
        assert time.monotonic() < deadline, dask_client.processing()
        time.sleep(0.05)


def test_cli_connects_to_a_scheduler(dask_client, tmp_path, capsys):
    from territory.cli import main

    address = dask_client.scheduler.address
    assert main(["simulate", "nume", "--n", "3", "--games", "3000", "--seed", "4", "--json", str(tmp_path / "a.json")]) == 0
    assert main(["simulate", "nume", "--n", "3", "--games", "3000", "--seed", "4", "--json", str(tmp_path / "b.json"),
                 "--scheduler", address]) == 0
    (a,), (b,) = (json.loads((tmp_path / name).read_text()) for name in ("a.json", "b.json"))
    for summary in (a, b):
        del summary["seconds"], summary["games_per_second"]
    assert a == b


def test_cli_scheduler_without_dask_says_what_to_install():
    code = ("import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None; "
            "from territory.cli import main; sys.exit(main(['simulate', 'tabik', '--scheduler', 'local:2']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 2
    assert 'pip install "territory-games[dask]"' in out.stderr


def test_cli_local_cluster(tmp_path):
    json_path = tmp_path / "s.json"
    out = subprocess.run([sys.executable, "-m", "territory", "simulate", "tabik", "--size", "6", "--games", "4000",
                          "--seed", "3", "--scheduler", "local:2", "--json", str(json_path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    (remote,) = json.loads(json_path.read_text())
    local = territory.random_playouts("tabik", 4000, seed=3, size=6).summary()
    for summary in (remote, local):
        summary.pop("format", None)
        del summary["seconds"], summary["games_per_second"]
    assert remote == json.loads(json.dumps(local, default=float))


@pytest.mark.slow
def test_ctrl_c_stops_a_cluster_run_promptly():
    # SIGINT once the progress bar shows (shards are running), to the whole process
    # group as Ctrl-C does: the workers get it too.
    def shards_running(process: subprocess.Popen) -> bool:
        """Reads stderr up to the progress bar's first '['."""
        while (char := process.stderr.read(1)) not in ("[", ""):
            pass
        return char == "["

    ended = interrupt([sys.executable, "-m", "territory", "simulate", "tabik", "--size", "4", "--games", "100000000",
                       "--scheduler", "local:2", "--progress"], when=shards_running, group=True, timeout=30)
    assert ended.returncode == 130 and ended.seconds < 15
    assert "interrupted" in ended.stderr and "Traceback" not in ended.stderr, ended.stderr


def test_a_worker_killed_mid_run_changes_nothing(dask_client):
    """Runs last among the cluster tests: kills one of the two workers while its shard
    runs; the scheduler runs the shard again on the other, and the nanny restarts it."""
    local = territory.random_playouts("migong", 12_000, seed=13)
    pids = dask_client.run(os.getpid)
    killed = []

    def kill_a_busy_worker(done, total, seconds):
        if killed:
            return
        busy = [address for address, keys in dask_client.processing().items() if keys and address in pids]
        assert busy, "no worker has a shard to lose"
        os.kill(pids[busy[0]], signal.SIGKILL)
        killed.append(busy[0])

    remote = territory.random_playouts("migong", 12_000, seed=13, executor=dask_client.get_executor(),
                                       shard_size=1000, progress=kill_a_busy_worker)
    assert killed
    assert_identical(remote, local)
    dask_client.wait_for_workers(2, timeout=60)
    assert set(dask_client.run(os.getpid).values()) != set(pids.values())


@pytest.mark.skipif(sys.platform != "linux", reason="fork start method")
def test_forked_workers_do_not_wait_on_the_parents_thread_pools():
    import multiprocessing

    # The parent has used rayon's global pool and a cached one-thread pool: a forked
    # child inherits them without their threads and must start its own.
    territory.random_playouts("tabik", 100, threads=1, size=5)
    territory.random_playouts("tabik", 100, size=5)
    expected = territory.random_playouts("tabik", 100, threads=1, size=5)
    with cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        for threads in (1, None):
            result = pool.submit(territory.random_playouts, "tabik", 100, threads=threads, size=5).result(timeout=60)
            assert_identical(result, expected)


# --- the other bulk calls: play_match, evaluate, fair_komi, openings ------------------------


def assert_same_match(a, b):
    from territory.agents import MATCH_FIELDS

    for name in MATCH_FIELDS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape and np.array_equal(x, y), name
    assert len(a.actions) == len(b.actions) == a.games
    for x, y in zip(a.actions, b.actions):
        assert x.dtype == y.dtype == np.uint32 and np.array_equal(x, y)
    assert a.agent_wins == b.agent_wins


@pytest.mark.parametrize("agents", [["uct:30", "random"], ["random", "random"]])
def test_play_match_on_executors_gives_the_local_results(dask_client, process_pool, agents):
    local = territory.play_match("tabik", agents, 24, seed=6, size=4)
    assert len({tuple(a.tolist()) for a in local.actions}) == 24  # the games differ
    assert [len(a) for a in local.actions] == local.length.tolist()
    for executor in (dask_client.get_executor(), process_pool):
        done = []
        remote = territory.play_match("tabik", agents, 24, seed=6, size=4, executor=executor, shard_size=5,
                                      progress=lambda d, t, s: done.append(d))
        assert_same_match(local, remote)
        assert done[-1] == 24 and done == sorted(done)


def test_play_match_with_a_python_agent_on_an_executor(process_pool):
    first_move = FirstMove()
    local = territory.play_match("nume", [first_move, "uct:10"], 6, seed=2, n=1)
    remote = territory.play_match("nume", [first_move, "uct:10"], 6, seed=2, n=1, executor=process_pool, shard_size=2)
    assert_same_match(local, remote)
    start = territory.new_game("nume", n=1)
    assert not local.seats_swapped[0] and local.actions[0][0] == start.move_to_action(start.legal_moves()[0])
    assert [len(a) for a in local.actions] == local.length.tolist()


class FirstMove:
    """A picklable Python agent: always the first legal move."""

    def choose(self, state):
        return state.legal_moves()[0]


def test_play_match_shard_errors_name_the_shard(process_pool):
    with pytest.raises(ShardError, match=r"shard of games \[\d+, \d+\) of a run of 4") as info:
        territory.play_match("tabik", [Failing(), "random"], 4, seed=1, size=3, executor=process_pool, shard_size=2)
    assert "AgentError" in str(info.value)


class Failing:
    def choose(self, state):
        raise RuntimeError("no move")


def test_evaluate_on_executors_gives_the_local_results(dask_client, process_pool):
    for agent in ("uct:30", "random"):
        local = territory.evaluate("tabik", agent=agent, games=12, seed=3, size=4)
        for executor in (dask_client.get_executor(), process_pool):
            remote = territory.evaluate("tabik", agent=agent, games=12, seed=3, size=4, executor=executor)
            for name, array in local.traces.items():
                assert np.array_equal(array, remote.traces[name]), (agent, name)
            assert remote.to_dict()["metrics"] == local.to_dict()["metrics"]
    skill = territory.evaluate("tabik", games=2, seed=1, size=3, skill_trace=True, skill_levels=2, skill_games=4)
    remote = territory.evaluate("tabik", games=2, seed=1, size=3, skill_trace=True, skill_levels=2, skill_games=4,
                                executor=dask_client.get_executor())
    assert remote.skill_trace == skill.skill_trace


def test_fair_komi_and_openings_on_executors_give_the_local_results(dask_client, process_pool):
    komi = dict(games=40, seed=2, komi_values=[-2.5, 0.5, 3.5], n=2)
    local = territory.fair_komi(["random", "uct:10"], **komi).to_dict()
    local_openings = territory.openings("tabik", "uct:10", games_per_opening=3, seed=4, size=3).to_dict()
    for executor in (dask_client.get_executor(), process_pool):
        assert territory.fair_komi(["random", "uct:10"], executor=executor, **komi).to_dict()["fits"] == local["fits"]
        remote = territory.openings("tabik", "uct:10", games_per_opening=3, seed=4, size=3, executor=executor)
        assert remote.to_dict()["openings"] == local_openings["openings"]


def test_cli_match_on_a_scheduler(dask_client, tmp_path, capsys):
    from territory.cli import main

    args = ["match", "tabik", "--size", "4", "--agents", "uct:20", "random", "--games", "12", "--seed", "4"]
    assert main(args + ["--json", str(tmp_path / "a.json")]) == 0
    assert main(args + ["--json", str(tmp_path / "b.json"), "--scheduler", dask_client.scheduler.address]) == 0
    a, b = (json.loads((tmp_path / f"{n}.json").read_text())[0] for n in "ab")
    for summary in (a, b):
        del summary["seconds"], summary["games_per_second"]
    assert a == b and a["games"] == 12


@pytest.mark.parametrize("command", [["match", "tabik", "--agents", "random", "random"], ["evaluate", "tabik"], ["komi"],
                                     ["openings", "tabik"], ["train", "tabik", "--out", "unused"]])
def test_bulk_commands_take_a_scheduler(command, capsys):
    from territory.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main([command[0], "--help"])
    assert exit_info.value.code == 0 and "--scheduler" in capsys.readouterr().out
    assert main(command + ["--scheduler", "local:0"]) == 2
    assert "local:N needs a number of workers" in capsys.readouterr().err


def test_self_play_rounds_on_executors_give_the_local_round(dask_client, process_pool):
    from territory.model import Model
    from territory.train import TrainConfig, concat_rounds, self_play, self_play_round, self_play_shard

    start = territory.Tabik(size=4)
    model = Model.new(start, hidden=16, seed=2)
    config = TrainConfig(games=7, iterations=16, threads=1, solve_nodes=3000, search_value_weight=0.5)
    local = self_play_round(model, start, config, 11)
    assert local["solved"].any() and len(local["lengths"]) == 7
    local_examples = self_play(model, start, config, np.random.default_rng(4))
    with cf.ThreadPoolExecutor(3) as threads:
        for executor in (threads, process_pool, dask_client.get_executor()):
            remote = self_play_round(model, start, config, 11, executor)
            assert set(remote) == set(local)
            assert all(remote[k].dtype == local[k].dtype and np.array_equal(remote[k], local[k]) for k in local)
            # Shards of uneven sizes (3, 3, 1 games), finishing in any order.
            uneven = run_sharded(executor, self_play_shard, (model, start, config, 11, 2), 7, combine=concat_rounds,
                                 shard_size=3)
            assert all(np.array_equal(uneven[k], local[k]) for k in local)
            remote_examples = self_play(model, start, config, np.random.default_rng(4), executor)
            assert all(np.array_equal(a, b) for a, b in zip(remote_examples, local_examples))
