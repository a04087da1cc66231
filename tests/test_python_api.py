"""Rough edges of the Python API: short reprs of results, records from files and their
positions, PNG pictures, observations and masks written in place, byte observations in
VecEnv, and VecEnv's errors (another thread, arrays resized under it)."""

from __future__ import annotations

import io
import threading
import time

import numpy as np
import pytest

import territory
from territory import RecordError, StateInUseError

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# --- repr of results ----------------------------------------------------------------------


def assert_short(text: str, *needles: str) -> None:
    assert len(text.splitlines()) <= 4 and len(text) < 700, text
    for needle in needles:
        assert needle in text, (needle, text)


def test_results_reprs_are_short_summaries():
    playouts = territory.random_playouts("tabik", 5000, seed=1, size=4)
    assert_short(repr(playouts), "PlayoutResults(", "games=5000", "seat 0 win rate", "winner: int8 (5000,)")
    match = territory.play_match("tabik", ["random", "random"], 400, seed=2, size=3)
    assert_short(repr(match), "MatchResults(", "games=400", "agent 0 RandomAgent() wins", "agent_winner: int8 (400,)")
    evaluation = territory.evaluate("tabik", games=50, seed=3, size=3)
    assert_short(repr(evaluation), "Evaluation(", "games=50", "metrics: dict of")
    openings = territory.openings("tabik", games_per_opening=4, seed=1, size=2)
    assert_short(repr(openings), "Openings(", "moves: list of")


# --- records ------------------------------------------------------------------------------


@pytest.fixture
def game_file(tmp_path):
    state = territory.replay_playout("nume", 0, 5, square=3)
    path = tmp_path / "game.txt"
    path.write_text(state.to_record())
    return state, path


def test_load_reads_text_paths_and_open_files(game_file):
    state, path = game_file
    assert territory.load(path) == state  # a pathlib.Path
    assert territory.load(str(path)) == state  # a str without a line break names a file
    assert territory.load(path.read_text()) == state  # with one it is the text
    with open(path) as text_file:
        assert territory.load(text_file) == state
    with open(path, "rb") as binary_file:
        assert territory.load(binary_file) == state
    assert territory.load(io.StringIO(path.read_text())) == state
    with pytest.raises(RecordError, match="cannot read 'no-such-file.txt'"):
        territory.load("no-such-file.txt")
    with pytest.raises(RecordError, match="not a UTF-8"):
        territory.load(io.BytesIO(b"\xff\xfe"))
    with pytest.raises(RecordError, match="a record is its text, a file name or an open file"):
        territory.load(17)


def test_positions_walks_every_position_of_a_record(game_file):
    state, path = game_file
    states = territory.record.positions(path)
    assert len(states) == len(state.history) + 1
    assert states[0] == territory.Nume(square=3) and states[-1] == state
    for i, s in enumerate(states):
        assert s.history == state.history[:i]
    states[1].undo()  # independent copies
    assert states[2].history == state.history[:2]
    with pytest.raises(RecordError, match="line 3"):
        territory.record.positions("game = tabik\nmoves:\n1. zz\n")


# --- PNG ----------------------------------------------------------------------------------


def test_png_pictures(tmp_path):
    pytest.importorskip("resvg_py", reason="the png extra (resvg-py) is not installed")
    state = territory.Migong()
    state.play(state.legal_moves()[0])
    data = state.png(size=200)
    assert data.startswith(PNG_MAGIC)
    assert int.from_bytes(data[16:20], "big") == 200  # the width asked for
    path = tmp_path / "p.png"
    assert state.png(path) == path.read_bytes()
    from territory.reference.tabik import Tabik as RefTabik

    assert RefTabik(size=3).png().startswith(PNG_MAGIC)


def test_png_without_the_extra_says_what_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "resvg_py", None)
    with pytest.raises(ImportError, match=r"territory-games\[png\]"):
        territory.Tabik().png()


# --- observations and masks in place ------------------------------------------------------


@pytest.mark.parametrize("cls", [territory.Tabik, territory.Migong, territory.Nume])
def test_observation_and_legal_mask_fill_a_given_array(cls):
    s = cls()
    for _ in range(5):
        s.play_random(0.3)
    obs = np.full(s.observation_shape, 7.0, dtype=np.float32)
    mask = np.ones(s.num_actions, dtype=bool)
    assert s.observation(out=obs) is obs and s.legal_mask(out=mask) is mask
    np.testing.assert_array_equal(obs, s.observation())
    np.testing.assert_array_equal(mask, s.legal_mask())
    assert s.observation(1, out=obs) is obs
    np.testing.assert_array_equal(obs, s.observation(1))


def test_observation_out_is_checked():
    s = territory.Tabik(size=4)
    shape = s.observation_shape
    for bad, message in [
        (np.zeros(shape, dtype=np.float64), "dtype float32, got float64"),
        (np.zeros((1, *shape[1:]), dtype=np.float32), r"shape \(8, 4, 4\), got \(1, 4, 4\)"),
        (np.zeros((shape[0], shape[1], 2 * shape[2]), dtype=np.float32)[:, :, ::2], "C-contiguous"),
        ([0.0] * 128, "numpy array"),
    ]:
        with pytest.raises(ValueError, match=message):
            s.observation(out=bad)
    frozen = np.zeros(shape, dtype=np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        s.observation(out=frozen)
    with pytest.raises(ValueError, match=r"dtype bool"):
        s.legal_mask(out=np.zeros(s.num_actions, dtype=np.uint8))
    with pytest.raises(ValueError, match=r"shape \(\d+,\)"):
        s.legal_mask(out=np.zeros(3, dtype=bool))


# --- VecEnv -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["tabik", "migong"])
def test_vecenv_byte_observations_match_the_float_ones(game):
    floats = territory.VecEnv(game, 32, seed=1, threads=1)
    bytes_ = territory.VecEnv(game, 32, seed=1, threads=1, obs_dtype=np.uint8)
    f, _ = floats.reset()
    b, _ = bytes_.reset()
    assert b.dtype == np.uint8 and b.shape == f.shape and b.nbytes * 4 == f.nbytes
    for _ in range(40):
        actions = floats.sample_actions()
        f, _, _, fm = floats.step(actions)
        b, _, _, bm = bytes_.step(actions)
        np.testing.assert_array_equal(b.view(np.int8).astype(np.float32), f)
        np.testing.assert_array_equal(bm, fm)


@pytest.mark.parametrize("game", ["tabik", "nume", "migong"])
def test_vecenv_packed_masks_unpack_to_the_bool_ones(game):
    plain = territory.VecEnv(game, 16, seed=2, threads=1)
    packed = territory.VecEnv(game, 16, seed=2, threads=1, packed_masks=True)
    _, mask = plain.reset()
    _, bits = packed.reset()
    assert bits.dtype == np.uint8 and bits.shape == (16, (plain.num_actions + 7) // 8)
    for _ in range(30):
        unpacked = np.unpackbits(bits, axis=-1, count=plain.num_actions, bitorder="little").astype(bool)
        np.testing.assert_array_equal(unpacked, mask)
        actions = plain.sample_actions()
        _, _, _, mask = plain.step(actions)
        _, _, _, bits = packed.step(actions)


def test_migong_bytes_per_step_fall_more_than_4x():
    plain = territory.VecEnv("migong", 1)
    small = territory.VecEnv("migong", 1, obs_dtype="uint8", packed_masks=True)
    before = sum(a.nbytes for a in plain.reset())
    after = sum(a.nbytes for a in small.reset())
    assert before == 24_966 and after == 5_234 and before / after > 4.7


def test_vecenv_obs_dtype_is_checked():
    assert territory.VecEnv("tabik", 2, obs_dtype="float32").reset()[0].dtype == np.float32
    with pytest.raises(ValueError, match="Nume's planes hold fractions|nume's planes hold fractions"):
        territory.VecEnv("nume", 2, obs_dtype="uint8")
    with pytest.raises(ValueError, match="obs_dtype must be 'float32' or 'uint8'"):
        territory.VecEnv("tabik", 2, obs_dtype="float16")


def test_nume_observations_stay_in_the_documented_range():
    """Numbers and komi up to 2^31 are scaled and capped at 2 (docs/games/nume.md, "Observation")."""
    big = 2**31 - 1
    s = territory.Nume.from_position(f"3/1w(0)1/b({big})2 0 - {big}.5w bw", square=3, komi=big + 0.5, komi_to="white")
    for seat in (0, 1):
        planes = s.observation(seat)
        assert planes.min() >= -1 and planes.max() <= 2
        assert planes.max() == 2  # the capped values reach the cap
    env = territory.VecEnv(s, 4)
    obs, _ = env.reset()
    assert obs.min() >= -1 and obs.max() <= 2


def test_vecenv_used_from_two_threads_raises_state_in_use():
    env = territory.VecEnv("migong", 512, seed=0, threads=1)
    env.reset()
    errors: list[BaseException] = []
    stop = time.monotonic() + 20

    def hammer():
        while not errors and time.monotonic() < stop:
            try:
                env.step(env.sample_actions())
            except BaseException as error:  # noqa: BLE001 - collected for the assertion
                errors.append(error)

    threads = [threading.Thread(target=hammer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors, "two threads never overlapped"
    assert all(isinstance(e, StateInUseError) for e in errors), errors
    assert "VecEnv" in str(errors[0])


def test_vecenv_arrays_resized_in_place_give_a_clear_error():
    env = territory.VecEnv("tabik", 8, seed=0, size=4)
    obs, mask = env.reset()
    mask.resize((1, 1), refcheck=False)
    with pytest.raises(RuntimeError, match="resized"):
        env.step(env.sample_actions())
    env2 = territory.VecEnv("tabik", 8, seed=0, size=4)
    obs, _ = env2.reset()
    obs.resize((1,), refcheck=False)
    with pytest.raises(RuntimeError, match="resized"):
        env2.reset()


@pytest.mark.parametrize("game", sorted(territory.GAMES))
def test_group_fields_are_the_games_own_and_the_same_in_the_reference(game):
    """A group has the shared fields and those its game declares (Migong's ``wedges``,
    Nume's ``numbers`` and ``price``), the same names from engine and reference; any other
    name raises AttributeError naming the fields it has."""
    from territory import reference

    native, ref = territory.new_game(game), reference.GAMES[game]()
    for _ in range(6):
        if native.is_over:
            break
        move = native.legal_moves()[len(native.legal_moves()) // 2]
        native.play(move)
        ref.play(move)
    groups, ref_groups = native.groups(), ref.groups()
    assert groups == ref_groups and groups
    for group, ref_group in zip(groups, ref_groups):
        assert set(group.extras) == set(ref_group.extras)
        for name, value in group.extras.items():
            assert getattr(group, name) == value == getattr(ref_group, name)
        with pytest.raises(AttributeError, match="no field 'colour'.*color"):
            group.colour
