"""The network of ``territory.model.Model`` in JAX, for training (docs/learning.md).

Layers are equinox's (``eqx.nn.Linear``; ``eqx.nn.Conv2d`` for a model's convolutional
trunk, ``Trunk``), the optimiser optax's (Adam with decoupled weight decay), gradients
JAX's: ``Trainer.step`` takes one jitted gradient step on a minibatch, with or without a
trunk. ``to_jax(model)`` makes the equinox module from a model's weights and
``to_weights(module)`` gives them back in the layout the engine reads (numpy's
``(inputs, outputs)``; equinox stores ``(outputs, inputs)``; convolutions are
``(filters, channels, 3, 3)`` in both), so a trained model is saved by ``Model.save`` and
evaluated by the engine as before. ``forward`` is JAX's forward
pass (the tests check the engine's outputs against it).

This module imports JAX, so only training, its tests and the benches import it; the
``train`` extra installs it (``pip install "territory-games[train]"``).
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

import numpy as np

try:
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax  # type: ignore[import-untyped, unused-ignore]
except ImportError as error:  # pragma: no cover - the message is what is tested
    raise ImportError(
        'training needs JAX, optax and equinox: pip install "territory-games[train]" '
        f'(or pip install "jax[cpu]" optax equinox); {error}'
    ) from error

from territory.model import Model

__all__ = ["MLP", "Trunk", "to_jax", "to_weights", "forward", "Trainer", "LOSSES", "cross_entropy"]

#: The names of the losses ``Trainer.step`` returns, in order.
LOSSES = ("policy_loss", "value_loss", "margin_loss", "ownership_loss")


class Trunk(eqx.Module):
    """A convolutional trunk (``Model``'s, docs/learning.md): a 3x3 convolution of the
    observation planes to ``filters`` channels, then residual blocks of two 3x3
    convolutions (ReLU after the first, the block's input added before the ReLU after
    the second), each convolution with zero padding and a bias."""

    convs: list[eqx.nn.Conv2d]
    planes: int = eqx.field(static=True)
    height: int = eqx.field(static=True)
    width: int = eqx.field(static=True)

    def __call__(self, x: Any) -> Any:
        """The first dense layer's input for one input vector: the trunk's output planes
        flattened, then the input values past the planes (the features)."""
        cells = self.planes * self.height * self.width
        h = jax.nn.relu(self.convs[0](x[:cells].reshape(self.planes, self.height, self.width)))
        for k in range(1, len(self.convs), 2):
            t = jax.nn.relu(self.convs[k](h))
            h = jax.nn.relu(self.convs[k + 1](t) + h)
        return jnp.concatenate([h.reshape(-1), x[cells:]])


class MLP(eqx.Module):
    """Two hidden ReLU layers, then the heads: policy logits, value (tanh), and the
    optional score margin (linear, points) and ownership (tanh, one value per cell);
    optionally a convolutional ``trunk`` in front."""

    hidden1: eqx.nn.Linear
    hidden2: eqx.nn.Linear
    policy: eqx.nn.Linear
    value: eqx.nn.Linear
    margin: Optional[eqx.nn.Linear]
    ownership: Optional[eqx.nn.Linear]
    trunk: Optional[Trunk] = None

    def __call__(self, x: Any) -> tuple[Any, Any, Any, Any]:
        """(logits, value, margin or None, ownership or None) of one input vector."""
        if self.trunk is not None:
            x = self.trunk(x)
        h = jax.nn.relu(self.hidden2(jax.nn.relu(self.hidden1(x))))
        margin = None if self.margin is None else self.margin(h)[0]
        ownership = None if self.ownership is None else jnp.tanh(self.ownership(h))
        return self.policy(h), jnp.tanh(self.value(h)[0]), margin, ownership


def _linear(w: np.ndarray, b: np.ndarray) -> eqx.nn.Linear:
    layer = eqx.nn.Linear(w.shape[0], w.shape[1], key=jax.random.PRNGKey(0))
    return eqx.tree_at(lambda m: (m.weight, m.bias), layer, (jnp.asarray(w.T), jnp.asarray(b)))


def _conv(w: np.ndarray, b: np.ndarray) -> eqx.nn.Conv2d:
    layer = eqx.nn.Conv2d(w.shape[1], w.shape[0], 3, padding=1, key=jax.random.PRNGKey(0))
    return eqx.tree_at(lambda m: (m.weight, m.bias), layer, (jnp.asarray(w), jnp.asarray(b).reshape(-1, 1, 1)))


def to_jax(model: Model) -> MLP:
    """The equinox module with ``model``'s weights."""
    w = model.weights
    trunk = None
    if model.filters:
        _, height, width = (int(n) for n in model.meta["observation_shape"])
        convs = [_conv(w[f"c{k}w"], w[f"c{k}b"]) for k in range(2 * model.blocks + 1)]
        trunk = Trunk(convs=convs, planes=model.trunk_planes, height=height, width=width)
    return MLP(
        hidden1=_linear(w["w1"], w["b1"]), hidden2=_linear(w["w2"], w["b2"]),
        policy=_linear(w["wp"], w["bp"]), value=_linear(w["wv"], w["bv"]),
        margin=_linear(w["wm"], w["bm"]) if "wm" in w else None,
        ownership=_linear(w["wo"], w["bo"]) if "wo" in w else None,
        trunk=trunk,
    )


def to_weights(module: MLP) -> dict[str, np.ndarray]:
    """The module's weights by ``Model`` name, float32 in the engine's layout."""
    layers = {"1": module.hidden1, "2": module.hidden2, "p": module.policy, "v": module.value,
              "m": module.margin, "o": module.ownership}
    weights = {}
    for suffix, layer in layers.items():
        if layer is not None:
            weights["w" + suffix] = np.ascontiguousarray(np.asarray(layer.weight, np.float32).T)
            weights["b" + suffix] = np.array(layer.bias, np.float32)
    for k, conv in enumerate(module.trunk.convs if module.trunk is not None else []):
        weights[f"c{k}w"] = np.array(conv.weight, np.float32)
        weights[f"c{k}b"] = np.array(conv.bias, np.float32).reshape(-1)
    return weights


@eqx.filter_jit
def _forward(module: MLP, x: Any) -> tuple[Any, Any, Any, Any]:
    return jax.vmap(module)(x)


def forward(module: MLP, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, Optional[np.ndarray], Optional[np.ndarray]]:
    """(logits (n, actions), values (n,), margins (n,) or None, ownership (n, cells) or
    None) of inputs of shape (n, inputs), as numpy arrays."""
    out = _forward(module, jnp.asarray(obs, jnp.float32))
    return tuple(None if a is None else np.asarray(a) for a in out)  # type: ignore[return-value]


def cross_entropy(logits: Any, policy: Any, mask: Any) -> Any:
    """The policy loss: the cross-entropy of the targets ``policy`` with the softmax of
    ``logits`` over the legal actions (``mask``), the batch's mean."""
    log_probs = jnp.where(mask, jax.nn.log_softmax(jnp.where(mask, logits, -1e9)), 0.0)
    return -(policy * log_probs).sum(axis=1).mean()


def _loss(module: MLP, batch: tuple[Any, ...], margin_weight: float, ownership_weight: float, margin_scale: float,
          policy_loss_of: Callable[[Any, Any, Any], Any] = cross_entropy) -> tuple[Any, Any]:
    x, policy, mask, z, margin, owner = batch
    logits, values, margins, ownership = jax.vmap(module)(x)
    policy_loss = policy_loss_of(logits, policy, mask)
    value_loss = ((values - z) ** 2).mean()
    zero = jnp.zeros(())
    margin_loss = zero if margins is None else (((margins - margin) / margin_scale) ** 2).mean()
    ownership_loss = zero if ownership is None else ((ownership - owner) ** 2).mean()
    total = policy_loss + value_loss + margin_weight * margin_loss + ownership_weight * ownership_loss
    return total, jnp.stack([policy_loss, value_loss, margin_loss, ownership_loss])


@functools.lru_cache(maxsize=None)
def _optimiser(lr: float, weight_decay: float, decay_steps: int = 0) -> Any:
    # One object per setting, so that jitted steps of later trainers reuse the compiled code.
    schedule = optax.cosine_decay_schedule(lr, decay_steps) if decay_steps > 0 else lr
    return optax.adamw(schedule, weight_decay=weight_decay, eps=1e-8)


@eqx.filter_jit
def _step(module: MLP, state: Any, batch: tuple[Any, ...], optimiser: Any, weights: tuple[float, float, float],
          policy_loss_of: Callable[[Any, Any, Any], Any] = cross_entropy) -> tuple[MLP, Any, Any]:
    grads, losses = eqx.filter_grad(_loss, has_aux=True)(module, batch, *weights, policy_loss_of)
    updates, state = optimiser.update(grads, state, eqx.filter(module, eqx.is_array))
    return eqx.apply_updates(module, updates), state, losses


@eqx.filter_jit
def _losses(module: MLP, batch: tuple[Any, ...], weights: tuple[float, float, float],
            policy_loss_of: Callable[[Any, Any, Any], Any] = cross_entropy) -> Any:
    return _loss(module, batch, *weights, policy_loss_of)[1]


def _batch(inputs: np.ndarray, policy: np.ndarray, mask: np.ndarray, values: np.ndarray,
           margins: Optional[np.ndarray], ownership: Optional[np.ndarray]) -> tuple[Any, ...]:
    n = len(inputs)
    return (jnp.asarray(inputs, jnp.float32), jnp.asarray(policy, jnp.float32), jnp.asarray(mask, bool),
            jnp.asarray(values, jnp.float32),
            jnp.asarray(np.zeros(n, np.float32) if margins is None else margins, jnp.float32),
            jnp.asarray(np.zeros((n, 1), np.float32) if ownership is None else ownership, jnp.float32))


class Trainer:
    """Gradient steps on a model: optax's ``adamw`` (Adam with decoupled weight decay),
    the loss policy cross-entropy (softmax over the legal actions) + value squared error
    + ``margin_weight`` x squared error of the margin over ``margin_scale`` points +
    ``ownership_weight`` x mean squared error of the ownership over the cells (each head
    term only where the model has the head). With ``decay_steps``, the learning rate
    falls from ``lr`` to 0 along a cosine over that many steps (and stays 0 after).
    ``policy_loss(logits, policy, mask)`` replaces the policy's cross-entropy
    (``cross_entropy``) where another loss is wanted."""

    def __init__(self, model: Model, lr: float, weight_decay: float, margin_weight: float = 0.0,
                 ownership_weight: float = 0.0, margin_scale: float = 1.0, decay_steps: int = 0,
                 policy_loss: Callable[[Any, Any, Any], Any] = cross_entropy) -> None:
        self.module = to_jax(model)
        self.optimiser = _optimiser(float(lr), float(weight_decay), int(decay_steps))
        self.state = self.optimiser.init(eqx.filter(self.module, eqx.is_array))
        self.steps = 0
        self.loss_weights = (float(margin_weight), float(ownership_weight), float(margin_scale))
        self.policy_loss = policy_loss

    def step(self, inputs: np.ndarray, policy: np.ndarray, mask: np.ndarray, values: np.ndarray,
             margins: Optional[np.ndarray] = None, ownership: Optional[np.ndarray] = None) -> np.ndarray:
        """One gradient step on a minibatch (inputs, visit distributions, legal masks,
        value targets, margins, ownership); returns its losses (``LOSSES``: those of
        heads the model lacks are 0) before the step."""
        batch = _batch(inputs, policy, mask, values, margins, ownership)
        self.module, self.state, losses = _step(self.module, self.state, batch, self.optimiser, self.loss_weights,
                                                self.policy_loss)
        self.steps += 1
        return np.asarray(losses)

    def losses(self, inputs: np.ndarray, policy: np.ndarray, mask: np.ndarray, values: np.ndarray,
               margins: Optional[np.ndarray] = None, ownership: Optional[np.ndarray] = None) -> np.ndarray:
        """The losses (``LOSSES``) of the current weights on a batch, without a step."""
        return np.asarray(_losses(self.module, _batch(inputs, policy, mask, values, margins, ownership),
                                  self.loss_weights, self.policy_loss))

    def weights(self) -> dict[str, np.ndarray]:
        """The trained weights, for ``Model``."""
        return to_weights(self.module)
