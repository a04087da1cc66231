"""A small policy and value network, stored for the engine (docs/learning.md).

``Model`` is a multilayer perceptron on a game's observation planes (flattened): two
hidden layers with ReLU, then a policy head (one logit per action), a value head (tanh,
the value in [-1, 1] for the seat to move) and, optionally, a score-margin head (linear:
the final score margin for the seat to move, in points) and an ownership head (tanh, one
value per cell: +1 the cell ends with the colour the seat to move plays, -1 with the
other's). Optionally a convolutional trunk reads the planes first (``Model.new(...,
filters=32, blocks=2)``): a 3x3 convolution to ``filters`` channels, then ``blocks``
residual blocks of two 3x3 convolutions, every one with zero padding, a bias and ReLU;
the perceptron reads its output, then the features. The engine evaluates it
(``Model.network()``); ``forward`` is the same network in numpy, for the batched
protocol (``territory.puct.run_search``). Training is in JAX (``territory.train``,
``territory.network_jax``: the ``train`` extra), imported only there.

A model is saved as one ``.npz`` file: its weights (float16, to keep the shipped files
small; loaded as float32) and a JSON ``meta`` entry (format version, game, parameters,
observation shape, number of actions, how it was trained). ``Model.load`` takes a path or
the name of a model shipped with the package (``shipped_models()``: ``"migong"``,
``"nume-3"``, ``"nume-4"``, ``"tabik-4"``, ``"tabik-6"``, ``"tabik-8"``). Files of format 1 (before the optional heads; no
``format`` in ``meta``) load as they are; a file of a later format is refused, saying so.
A model without a trunk is written as format 2, which territory before the trunk reads.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any, ContextManager, Optional, Union

import numpy as np

__all__ = ["Model", "shipped_models", "single_threaded_blas", "trunk_names"]

#: The weights of a model, in order: two hidden layers, the policy head, the value head.
NAMES = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
#: The optional heads' weights: the score margin (``wm`` (hidden, 1), ``bm`` (1,)) and
#: the ownership of the cells (``wo`` (hidden, cells), ``bo`` (cells,)).
HEAD_NAMES = ("wm", "bm", "wo", "bo")
#: The newest model file format (``meta["format"]``): 1 the eight weights of NAMES
#: (files without the entry), 2 with the optional heads of HEAD_NAMES, 3 with a
#: convolutional trunk (``trunk_names``; ``meta["filters"]`` and ``meta["blocks"]``).
#: A model without a trunk is written as format 2.
FORMAT = 3
#: The format of a model without a trunk.
MLP_FORMAT = 2


def trunk_names(blocks: int) -> list[str]:
    """The weights of a convolutional trunk of ``blocks`` residual blocks, in order:
    ``c0w`` (filters, planes, 3, 3) and ``c0b`` (filters,), the first convolution's, then
    ``c{k}w`` (filters, filters, 3, 3) and ``c{k}b`` (filters,) for k = 1 to 2 x blocks,
    the blocks' two convolutions each."""
    return [f"c{k}{part}" for k in range(2 * blocks + 1) for part in "wb"]

MODELS_DIR = Path(__file__).parent / "models"


def shipped_models() -> list[str]:
    """The names of the models shipped with the package (``Model.load(name)``)."""
    return sorted(p.stem for p in MODELS_DIR.glob("*.npz"))


class Model:
    """A policy and value network for one game and parameter set."""

    def __init__(self, weights: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        missing = [n for n in NAMES if n not in weights]
        if missing:
            raise ValueError(f"a model needs the weights {', '.join(NAMES)}; missing {', '.join(missing)}")
        for wn, bn in (("wm", "bm"), ("wo", "bo")):
            if (wn in weights) != (bn in weights):
                raise ValueError(f"a model's head needs both {wn} and {bn}, or neither")
        self.meta = dict(meta)
        #: The convolutional trunk's filters (0: no trunk) and residual blocks.
        self.filters, self.blocks = _trunk_shape(self.meta)
        trunk = trunk_names(self.blocks) if self.filters else []
        missing = [n for n in trunk if n not in weights]
        if missing:
            raise ValueError(f"a model with a trunk of {self.blocks} blocks needs the weights {', '.join(trunk)}; "
                             f"missing {', '.join(missing)}")
        self.weights = {n: _engine_array(weights[n]) for n in NAMES + HEAD_NAMES + tuple(trunk) if n in weights}
        format_ = self.meta.get("format", 1)
        if isinstance(format_, bool) or not isinstance(format_, int) or format_ < 1:
            raise ValueError(f"the model's meta has format {format_!r}, not a model file format (1 to {FORMAT})")
        if format_ > FORMAT:
            raise ValueError(f"the model is of file format {format_}, written by a newer territory: this one reads "
                             f"formats 1 to {FORMAT} (upgrade the package)")
        #: Values of the game's features read after the observation planes (0: none).
        self.feature_len = int(self.meta.get("feature_len", 0))
        self.input_size = int(np.prod(self.meta["observation_shape"])) + self.feature_len
        self.num_actions = int(self.meta["num_actions"])
        w = self.weights
        if self.filters:
            _check_trunk_planes(self.meta, self.feature_len)
        self._check_trunk()
        if self.filters and w["w1"].ndim == 2 and w["w1"].shape[0] != self.first_size:
            _, height, width = self.meta["observation_shape"]
            raise ValueError(f"the model's weight w1 has {w['w1'].shape[0]} rows; its trunk's {self.filters} filters "
                             f"on {height}x{width} and {self.feature_len} features need {self.first_size}")
        if (w["w1"].ndim != 2 or w["w1"].shape[0] != self.first_size or w["wp"].ndim != 2
                or w["wp"].shape[1] != self.num_actions):
            raise ValueError("the model's weights do not match its observation shape and actions")
        hidden = w["w2"].shape[-1]
        if ("wm" in w and w["wm"].shape != (hidden, 1)) or ("wo" in w and (w["wo"].ndim != 2 or w["wo"].shape[0] != hidden)):
            raise ValueError("the model's head weights do not match its hidden layer")

    @property
    def first_size(self) -> int:
        """The inputs of the first dense layer (the rows of ``w1``): the trunk's outputs
        (filters x height x width) then the features, or the model's inputs without a
        trunk."""
        if not self.filters:
            return self.input_size
        _, height, width = self.meta["observation_shape"]
        cells = int(height) * int(width)
        return self.filters * cells + self.input_size - self.trunk_planes * cells

    @property
    def trunk_planes(self) -> int:
        """The planes the trunk reads from the start of the input: the observation's,
        then as many of the features' leading planes as ``meta["trunk_planes"]`` says
        (Tabik writes its 12 feature planes first); the rest of the input goes to the
        first dense layer beside the trunk's output."""
        return int(self.meta.get("trunk_planes", self.meta["observation_shape"][0]))

    def _check_trunk(self) -> None:
        planes = self.trunk_planes
        for k, name in enumerate(trunk_names(self.blocks) if self.filters else []):
            conv, part = divmod(k, 2)
            want = (self.filters,) if part else (self.filters, planes if conv == 0 else self.filters, 3, 3)
            if self.weights[name].shape != want:
                raise ValueError(f"the model's trunk weight {name} has shape {self.weights[name].shape}, not {want} "
                                 f"({self.filters} filters on {planes} planes)")

    @property
    def has_margin(self) -> bool:
        """Whether the model has a score-margin head."""
        return "wm" in self.weights

    @property
    def ownership_cells(self) -> int:
        """The cells of the model's ownership head (0: none)."""
        return int(self.weights["bo"].shape[0]) if "bo" in self.weights else 0

    def __setstate__(self, state: dict[str, Any]) -> None:
        # Unpickled weights may be unaligned views of a message buffer (Dask's
        # serialisation), which the engine cannot read.
        self.__dict__.update(state)
        self.weights = {n: _engine_array(w) for n, w in self.weights.items()}

    @classmethod
    def new(cls, state: Any, hidden: int = 128, seed: int = 0, features: bool = False, margin: bool = False,
            ownership: bool = False, filters: int = 0, blocks: int = 0, trunk_planes: Optional[int] = None,
            **meta: Any) -> "Model":
        """A model with random weights (He initialisation, seeded) for the game of
        ``state`` (a native state: its game, parameters and shapes); with ``features``
        it reads the game's features (``state.features()``) after the observation
        planes; ``margin`` and ``ownership`` give it those heads; ``filters`` > 0 a
        convolutional trunk of that many filters and ``blocks`` residual blocks (0: the
        perceptron reads the planes themselves), which reads ``trunk_planes`` planes
        (the observation's, the default, then the features' first planes)."""
        shape = tuple(state.observation_shape)
        feature_len = len(state.features()) if features else 0
        filters, blocks = _trunk_shape({"filters": filters, "blocks": blocks})
        inputs, actions = int(np.prod(shape)) + feature_len, int(state.num_actions)
        if trunk_planes is not None and not filters:
            raise ValueError(f"trunk_planes {trunk_planes!r} needs a trunk: give filters")
        planes_meta = {} if trunk_planes is None else {"trunk_planes": trunk_planes}
        if planes_meta:
            _check_trunk_planes({"observation_shape": list(shape), **planes_meta}, feature_len)
        planes = int(planes_meta.get("trunk_planes", shape[0]))
        if filters:
            cells = int(shape[1]) * int(shape[2])
            inputs = filters * cells + inputs - planes * cells
        rng = np.random.default_rng(seed)

        def layer(n_in: int, n_out: int, scale: float = 1.0) -> np.ndarray:
            return (rng.standard_normal((n_in, n_out)) * scale * np.sqrt(2.0 / n_in)).astype(np.float32)

        weights = {
            "w1": layer(inputs, hidden), "b1": np.zeros(hidden, np.float32),
            "w2": layer(hidden, hidden), "b2": np.zeros(hidden, np.float32),
            "wp": layer(hidden, actions, 0.1), "bp": np.zeros(actions, np.float32),
            "wv": layer(hidden, 1, 0.1), "bv": np.zeros(1, np.float32),
        }
        if margin:
            weights.update(wm=layer(hidden, 1, 0.1), bm=np.zeros(1, np.float32))
        if ownership:
            cells = len(state.ownership())
            weights.update(wo=layer(hidden, cells, 0.1), bo=np.zeros(cells, np.float32))
        trunk = {}
        for k in range(2 * blocks + 1) if filters else ():
            channels = planes if k == 0 else filters
            # He initialisation over the 9 x channels inputs of each output; the
            # second convolution of a block starts small, so a block starts near the identity.
            scale = 0.5 if k % 2 == 0 and k > 0 else 1.0
            trunk[f"c{k}w"] = (rng.standard_normal((filters, channels, 3, 3)) * scale
                               * np.sqrt(2.0 / (9 * channels))).astype(np.float32)
            trunk[f"c{k}b"] = np.zeros(filters, np.float32)
        weights.update(trunk)
        info = {"format": FORMAT if filters else MLP_FORMAT, "game": state.game, "params": dict(state.params),
                "observation_shape": list(shape), "num_actions": actions, "hidden": hidden,
                "feature_len": feature_len, **({"filters": filters, "blocks": blocks} if filters else {}), **planes_meta,
                **meta}
        return cls(weights, info)

    @classmethod
    def load(cls, source: Union[str, os.PathLike]) -> "Model":
        """A model from a ``.npz`` file, or the name of a shipped model."""
        path = Path(source)
        if not path.exists() and str(source) in shipped_models():
            path = MODELS_DIR / f"{source}.npz"
        if not path.exists():
            raise ValueError(f"no model file {str(source)!r} (shipped models: {', '.join(shipped_models()) or 'none'})")
        if path.is_dir():
            raise ValueError(f"{str(path)!r} is a directory, not a model file")
        not_model = f"{str(path)!r} is not a model file (a .npz of weights and meta, as Model.save writes)"
        try:
            with np.load(path, allow_pickle=False) as data:
                if not hasattr(data, "files") or "meta" not in data.files:
                    raise ValueError(not_model)
                weights = {n: data[n] for n in data.files if n in NAMES + HEAD_NAMES or _TRUNK_NAME.fullmatch(n)}
                meta = json.loads(str(data["meta"]))
            model = cls(weights, meta)
        except OSError as error:
            raise ValueError(f"cannot read the model {str(path)!r}: {error.strerror or error}") from None
        except Exception as error:  # numpy, zipfile and json say in many ways that this is no model
            if str(error) == not_model:
                raise ValueError(not_model) from None
            if "written by a newer territory" in str(error):
                raise ValueError(f"{str(path)!r}: {error}") from None
            if "pickle" in str(error):  # numpy's advice to load it unsafely is no advice here
                raise ValueError(not_model) from None
            raise ValueError(f"{not_model}, or a damaged one: {type(error).__name__}: {error}"[:400]) from None
        bad = [n for n, w in model.weights.items() if not np.isfinite(w).all()]
        if bad:
            raise ValueError(f"the model {str(path)!r} is damaged: weights {', '.join(bad)} are not all finite numbers")
        return model

    def save(self, path: Union[str, os.PathLike]) -> None:
        """Writes the model to ``path`` (``.npz``) atomically: a file already there is
        replaced only once the new one is complete."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp.npz")
        arrays: dict[str, Any] = {n: w.astype(np.float16) for n, w in self.weights.items()}
        np.savez_compressed(tmp, meta=np.array(json.dumps(self.meta)), **arrays)
        os.replace(tmp, path)

    def copy(self) -> "Model":
        return Model({n: w.copy() for n, w in self.weights.items()}, self.meta)

    def mismatch(self, state: Any) -> Optional[str]:
        """Why the model cannot play ``state`` (another game, the pie rule on where the
        model was trained without it or the other way round, other observations or
        actions), or None."""
        game, params = self.meta.get("game"), self.meta.get("params", {})
        if game is not None and game != state.game:
            return "another game"
        if "pie" in params and "pie" in state.params and bool(params["pie"]) != bool(state.params["pie"]):
            return f"the pie rule {'on' if params['pie'] else 'off'} in training, {'on' if state.params['pie'] else 'off'} here"
        if (list(state.observation_shape) != list(self.meta["observation_shape"])
                or state.num_actions != self.num_actions or self.feature_len not in (0, len(state.features()))):
            return (f"observations {tuple(self.meta['observation_shape'])} and {self.num_actions} actions in training, "
                    f"{tuple(state.observation_shape)} and {state.num_actions} here")
        return None

    def fits(self, state: Any) -> bool:
        """Whether the model plays ``state``'s game (``mismatch`` is None)."""
        return self.mismatch(state) is None

    def check_fits(self, state: Any) -> None:
        why = self.mismatch(state)
        if why is not None:
            shown = ", ".join(f"{k}={v!r}" for k, v in self.meta.get("params", {}).items())
            here = ", ".join(f"{k}={v!r}" for k, v in state.params.items())
            raise ValueError(f"the model was trained for {self.meta.get('game')} ({shown}), not for {state.game} "
                             f"({here}): {why}")

    def inputs(self, state: Any) -> np.ndarray:
        """The model's input for ``state``, from the point of view of the seat to move:
        the flattened observation planes, then the game's features if the model reads
        them."""
        planes = state.observation().ravel()
        return np.concatenate([planes, state.features()]) if self.feature_len else planes

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(logits (n, num_actions), values (n,)) for inputs of shape (n, ...) (the
        observations, or ``inputs(state)`` rows), float32, in numpy."""
        w = self.weights
        x = np.asarray(obs, dtype=np.float32).reshape(len(obs), self.input_size)
        if self.filters:
            x = self.trunk_forward(x)
        h1 = np.maximum(x @ w["w1"] + w["b1"], 0)
        h2 = np.maximum(h1 @ w["w2"] + w["b2"], 0)
        return h2 @ w["wp"] + w["bp"], np.tanh(h2 @ w["wv"] + w["bv"])[:, 0]

    def trunk_forward(self, x: np.ndarray) -> np.ndarray:
        """The first dense layer's inputs (n, first_size) for inputs ``x`` (n,
        input_size) of a model with a trunk: the trunk's output planes flattened, then
        the features."""
        w = self.weights
        _, height, width = (int(n) for n in self.meta["observation_shape"])
        planes = self.trunk_planes
        n, cells = len(x), planes * height * width
        h = np.maximum(_conv3x3(x[:, :cells].reshape(n, planes, height, width), w["c0w"], w["c0b"]), 0)
        for block in range(self.blocks):
            k = 2 * block + 1
            t = np.maximum(_conv3x3(h, w[f"c{k}w"], w[f"c{k}b"]), 0)
            h = np.maximum(_conv3x3(t, w[f"c{k + 1}w"], w[f"c{k + 1}b"]) + h, 0)
        return np.concatenate([h.reshape(n, -1), x[:, cells:]], axis=1)

    def network(self) -> Any:
        """The engine's copy of the weights (``territory._core.Network``), which runs
        whole searches, self-play games and matches in Rust, and evaluates the optional
        heads for analysis. A copy: later changes to ``weights`` need a new one."""
        from territory import _core

        w = self.weights
        heads: dict[str, Any] = {n: _engine_array(w[n]) for n in HEAD_NAMES if n in w}
        if self.filters:
            convs = [(w[f"c{k}w"], w[f"c{k}b"]) for k in range(2 * self.blocks + 1)]
            heads.update(trunk=convs, board=tuple(int(n) for n in self.meta["observation_shape"][1:]))
        return _core.Network(*(_engine_array(w[n]) for n in NAMES), **heads)

    def size(self) -> int:
        """The number of weights."""
        return sum(w.size for w in self.weights.values())

    def architecture(self) -> str:
        """The network's layers in words: the trunk, if any, and the hidden layers."""
        hidden = f"2 hidden layers of {self.weights['w2'].shape[0]}"
        if not self.filters:
            return hidden
        planes = f" on {self.trunk_planes} planes" if "trunk_planes" in self.meta else ""
        return f"a trunk of {self.filters} filters and {self.blocks} residual blocks{planes}, {hidden}"

    def __repr__(self) -> str:
        return f"Model({self.meta.get('game')} {self.meta.get('params')}, {self.architecture()}, {self.size()} weights)"


#: The largest trunk a model may have (far beyond what the engine evaluates in useful
#: time; a bound for files that are not what they say).
MAX_FILTERS, MAX_BLOCKS = 4096, 1024
#: The name of a trunk weight (``trunk_names``).
_TRUNK_NAME = re.compile(r"c(0|[1-9][0-9]*)[wb]")


def _check_trunk_planes(meta: dict[str, Any], feature_len: int) -> None:
    """Refuses a ``meta["trunk_planes"]`` below the observation's planes or beyond the
    input (the observation and ``feature_len`` feature values)."""
    planes, height, width = (int(n) for n in meta["observation_shape"])
    trunk_planes = meta.get("trunk_planes", planes)
    most = planes + feature_len // (height * width)
    if isinstance(trunk_planes, bool) or not isinstance(trunk_planes, int) or not planes <= trunk_planes <= most:
        raise ValueError(f"a trunk reads the observation's {planes} planes and at most the {most - planes} whole "
                         f"planes of the {feature_len} feature values after them: trunk_planes {trunk_planes!r} "
                         f"is not from {planes} to {most}")


def _trunk_shape(meta: dict[str, Any]) -> tuple[int, int]:
    """(filters, blocks) of a model's ``meta`` (0, 0 without a trunk), checked."""
    filters, blocks = meta.get("filters", 0), meta.get("blocks", 0)
    for name, value, most in (("filters", filters, MAX_FILTERS), ("blocks", blocks, MAX_BLOCKS)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value <= most:
            raise ValueError(f"a trunk's {name} must be an integer from 0 to {most}, got {value!r}")
    if blocks and not filters:
        raise ValueError(f"a trunk of {blocks} blocks needs filters (at least 1), got 0")
    return int(filters), int(blocks)


def _conv3x3(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 convolution (cross-correlation, as the engine's and JAX's) of ``x`` (n,
    channels, height, width) with zero padding and stride 1, weights ``w`` (filters,
    channels, 3, 3), bias ``b`` (filters,): (n, filters, height, width), float32."""
    n, channels, height, width = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    taps = np.stack([padded[:, :, ky:ky + height, kx:kx + width] for ky in range(3) for kx in range(3)], axis=2)
    out = np.tensordot(taps, w.reshape(len(w), channels, 9), axes=([1, 2], [1, 2]))  # (n, height, width, filters)
    return (out.transpose(0, 3, 1, 2) + b[:, None, None]).astype(np.float32)


def _engine_array(a: Any) -> np.ndarray:
    """``a`` as float32, C-contiguous and aligned: the layout the engine reads (a copy
    only when ``a`` has another)."""
    return np.require(a, dtype=np.float32, requirements=["C_CONTIGUOUS", "ALIGNED"])


def load_model(model: Union[str, os.PathLike, Model, None]) -> Optional[Model]:
    """A ``Model`` as it is, or loaded from a path or shipped name."""
    if model is None or isinstance(model, Model):
        return model
    return Model.load(model)


def single_threaded_blas() -> ContextManager[Any]:
    """A context in which numpy's BLAS runs on one thread, if ``threadpoolctl`` is
    installed (the ``train`` extra). The network's matrices are small: on a busy
    machine BLAS threads waiting for each other made a batch of 64 evaluations about
    70 times slower (44 ms instead of 0.6 ms), and one thread also keeps a seeded
    training run the same from run to run."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")
