//! The learned policy and value network, evaluated in the engine (docs/learning.md).
//!
//! A multilayer perceptron on a position's flattened observation planes: two hidden
//! layers with ReLU, a policy head (one logit per action) and a value head (tanh, the
//! value in [-1, 1] for the seat to move), optionally behind a convolutional trunk
//! ([`Network::with_trunk`]: 3x3 convolutions and residual blocks on the planes). The
//! weights are trained in Python (`territory.model.Model`) and handed over as plain
//! arrays in numpy's layout (row-major, `(inputs, outputs)`); the engine only evaluates,
//! one position at a time, so searches need no round trip to Python.
//!
//! Two optional heads read the same last hidden layer: a score-margin head (linear, the
//! final score margin for the seat to move, in points) and an ownership head (tanh, one
//! value per cell: +1 the cell ends with the colour the seat to move plays, -1 with the
//! other), for analysis ([`Network::evaluate_heads`]); searches use the policy and value.
//!
//! Observations are mostly zeros (planes of stones and flags) and a ReLU layer's output
//! is about half zeros, so each dense layer adds up the weight rows of its non-zero
//! inputs only: a few tens of thousands of multiply-adds per position without a trunk.

use std::fmt;

use crate::observe::Learn;

/// Why weights do not make a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// The weights of a network, in numpy's row-major layout.
#[derive(Clone, Copy, Debug)]
pub struct Weights<'a> {
    /// `(inputs, hidden)` and `(hidden,)`.
    pub w1: &'a [f32],
    pub b1: &'a [f32],
    /// `(hidden, hidden)` and `(hidden,)`.
    pub w2: &'a [f32],
    pub b2: &'a [f32],
    /// `(hidden, actions)` and `(actions,)`: the policy head.
    pub wp: &'a [f32],
    pub bp: &'a [f32],
    /// `(hidden, 1)` and `(1,)`: the value head.
    pub wv: &'a [f32],
    pub bv: &'a [f32],
}

/// The optional heads' weights, in numpy's row-major layout.
#[derive(Clone, Copy, Debug, Default)]
pub struct Heads<'a> {
    /// `(hidden, 1)` and `(1,)`: the score-margin head (linear).
    pub margin: Option<(&'a [f32], &'a [f32])>,
    /// `(hidden, cells)` and `(cells,)`: the ownership head (tanh).
    pub ownership: Option<(&'a [f32], &'a [f32])>,
}

/// What [`Network::evaluate_heads`] gives beside the logits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outputs {
    /// The value for the seat to move, in [-1, 1].
    pub value: f32,
    /// The predicted final score margin for the seat to move, if the network has the head.
    pub margin: Option<f32>,
    /// Whether the ownership values were written (the network has the head).
    pub ownership: bool,
}

/// A policy and value network for positions of `inputs` input values and `actions` actions.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    inputs: usize,
    hidden: usize,
    actions: usize,
    /// Cells of the ownership head (0: no head).
    cells: usize,
    margin: Option<(Vec<f32>, f32)>,
    wo: Vec<f32>,
    bo: Vec<f32>,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    wp: Vec<f32>,
    bp: Vec<f32>,
    wv: Vec<f32>,
    bv: f32,
    trunk: Option<trunk::Trunk>,
}

/// Checks that weight `name` has `len` values, all finite; `sizes` says what needs
/// that many ("4 hidden units").
fn check_weight(name: &str, values: &[f32], len: usize, sizes: &str) -> Result<(), NetworkError> {
    if values.len() != len {
        return Err(NetworkError(format!(
            "weight {name} has {} values; {sizes} need {len}",
            values.len()
        )));
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Err(NetworkError(format!("weight {name} holds a value that is not finite")));
    }
    Ok(())
}

/// Working memory of [`Network::evaluate`], reused from call to call.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    h1: Vec<f32>,
    h2: Vec<f32>,
}

impl Network {
    /// A network from its weights, checked against the sizes (every weight finite).
    ///
    /// # Errors
    /// If an array has the wrong length or holds a NaN or an infinity.
    pub fn new(inputs: usize, hidden: usize, actions: usize, w: Weights<'_>) -> Result<Network, NetworkError> {
        if inputs == 0 || hidden == 0 || actions == 0 {
            return Err(NetworkError(format!(
                "a network needs at least one input, hidden unit and action, got {inputs}, {hidden} and {actions}"
            )));
        }
        let expected = [
            ("w1", w.w1, inputs * hidden),
            ("b1", w.b1, hidden),
            ("w2", w.w2, hidden * hidden),
            ("b2", w.b2, hidden),
            ("wp", w.wp, hidden * actions),
            ("bp", w.bp, actions),
            ("wv", w.wv, hidden),
            ("bv", w.bv, 1),
        ];
        let sizes = format!("{inputs} inputs, {hidden} hidden units and {actions} actions");
        for (name, values, len) in expected {
            check_weight(name, values, len, &sizes)?;
        }
        Ok(Network {
            inputs,
            hidden,
            actions,
            cells: 0,
            margin: None,
            wo: Vec::new(),
            bo: Vec::new(),
            w1: w.w1.to_vec(),
            b1: w.b1.to_vec(),
            w2: w.w2.to_vec(),
            b2: w.b2.to_vec(),
            wp: w.wp.to_vec(),
            bp: w.bp.to_vec(),
            wv: w.wv.to_vec(),
            bv: w.bv[0],
            trunk: None,
        })
    }

    /// The network with the optional heads of `heads` (an ownership head has its bias's cells).
    ///
    /// # Errors
    /// If an array's length does not fit the hidden size, or it holds a NaN or an infinity.
    pub fn with_heads(mut self, heads: Heads<'_>) -> Result<Network, NetworkError> {
        let h = self.hidden;
        let sizes = format!("{h} hidden units");
        let check = |name: &str, values: &[f32], len: usize| check_weight(name, values, len, &sizes);
        if let Some((wm, bm)) = heads.margin {
            check("wm", wm, h)?;
            check("bm", bm, 1)?;
            self.margin = Some((wm.to_vec(), bm[0]));
        }
        if let Some((wo, bo)) = heads.ownership {
            let cells = bo.len();
            if cells == 0 {
                return Err(NetworkError("weight bo is empty: an ownership head needs at least one cell".into()));
            }
            check("wo", wo, h * cells)?;
            check("bo", bo, cells)?;
            self.cells = cells;
            self.wo = wo.to_vec();
            self.bo = bo.to_vec();
        }
        Ok(self)
    }

    /// Whether the network has a score-margin head.
    pub fn has_margin(&self) -> bool {
        self.margin.is_some()
    }

    /// The cells of the ownership head, 0 without one.
    pub fn ownership_cells(&self) -> usize {
        self.cells
    }

    /// The number of input values read.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// What the network reads of `game`'s positions: `Some(false)` the observation
    /// planes, `Some(true)` the planes then the game's features
    /// ([`Learn::network_input`]), `None` neither (another game or other parameters).
    pub fn reads_features<G: Learn>(&self, game: &G) -> Option<bool> {
        if game.num_actions() != self.actions {
            None
        } else if self.inputs == game.network_input_len(false) {
            Some(false)
        } else if game.feature_len() > 0 && self.inputs == game.network_input_len(true) {
            Some(true)
        } else {
            None
        }
    }

    /// The number of actions given a logit.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// The number of hidden units in each hidden layer.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Writes the logits of `obs` (of length [`Network::inputs`]) into `logits` (of
    /// length [`Network::actions`]) and returns its value for the seat to move.
    ///
    /// # Panics
    /// If a slice has the wrong length.
    pub fn evaluate(&self, obs: &[f32], scratch: &mut Scratch, logits: &mut [f32]) -> f32 {
        assert_eq!(obs.len(), self.inputs, "an observation of the network's size");
        assert_eq!(logits.len(), self.actions, "one logit per action");
        crate::rules::cpu::dispatch_vector(
            #[inline(always)]
            || self.layers(obs, scratch, logits),
        )
    }

    /// [`Network::evaluate`], and the optional heads: the margin, and the ownership
    /// values written into `ownership` (of length [`Network::ownership_cells`]; left
    /// alone without the head).
    ///
    /// # Panics
    /// If a slice has the wrong length.
    pub fn evaluate_heads(&self, obs: &[f32], scratch: &mut Scratch, logits: &mut [f32], ownership: &mut [f32]) -> Outputs {
        assert_eq!(ownership.len(), self.cells, "one ownership value per cell");
        let value = self.evaluate(obs, scratch, logits);
        let h2 = &scratch.h2;
        let margin = self
            .margin
            .as_ref()
            .map(|(wm, bm)| h2.iter().zip(wm).map(|(a, b)| a * b).sum::<f32>() + bm);
        if self.cells > 0 {
            ownership.copy_from_slice(&self.bo);
            for (k, &x) in h2.iter().enumerate() {
                if x != 0.0 {
                    add_scaled(ownership, x, &self.wo[k * self.cells..(k + 1) * self.cells]);
                }
            }
            for v in ownership.iter_mut() {
                *v = v.tanh();
            }
        }
        Outputs { value, margin, ownership: self.cells > 0 }
    }

    #[inline(always)]
    fn layers(&self, obs: &[f32], scratch: &mut Scratch, logits: &mut [f32]) -> f32 {
        let h = self.hidden;
        dense_relu(self.first_input(obs, &mut scratch.h1, &mut scratch.h2), &self.w1, &self.b1, &mut scratch.h1);
        dense_relu(&scratch.h1, &self.w2, &self.b2, &mut scratch.h2);
        logits.copy_from_slice(&self.bp);
        for (k, &x) in scratch.h2.iter().enumerate() {
            if x != 0.0 {
                add_scaled(logits, x, &self.wp[k * self.actions..(k + 1) * self.actions]);
            }
        }
        let v: f32 = scratch.h2[..h].iter().zip(&self.wv).map(|(a, b)| a * b).sum();
        (v + self.bv).tanh()
    }
}

/// `out = max(0, b + x W)`, adding only the rows of `W` whose input is not zero.
#[inline(always)]
fn dense_relu(x: &[f32], w: &[f32], b: &[f32], out: &mut Vec<f32>) {
    let width = b.len();
    out.clear();
    out.extend_from_slice(b);
    for (i, &xi) in x.iter().enumerate() {
        if xi != 0.0 {
            add_scaled(out, xi, &w[i * width..(i + 1) * width]);
        }
    }
    for v in out.iter_mut() {
        *v = v.max(0.0);
    }
}

#[inline(always)]
fn add_scaled(out: &mut [f32], scale: f32, row: &[f32]) {
    for (o, &r) in out.iter_mut().zip(row) {
        *o += scale * r;
    }
}

mod trunk;

pub use trunk::TrunkWeights;

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Network {
        // 2 inputs, 2 hidden, 3 actions.
        let w1 = [1.0, -1.0, 0.5, 2.0];
        let b1 = [0.0, 0.5];
        let w2 = [1.0, 0.0, 0.0, 1.0];
        let b2 = [0.0, -0.25];
        let wp = [1.0, 2.0, 3.0, -1.0, 0.0, 1.0];
        let bp = [0.1, 0.2, 0.3];
        let wv = [0.5, -0.5];
        let bv = [0.0];
        let w = Weights { w1: &w1, b1: &b1, w2: &w2, b2: &b2, wp: &wp, bp: &bp, wv: &wv, bv: &bv };
        Network::new(2, 2, 3, w).unwrap()
    }

    #[test]
    fn reports_its_shape() {
        let net = tiny();
        assert_eq!((net.inputs(), net.hidden(), net.actions()), (2, 2, 3));
        assert_eq!((net.has_margin(), net.ownership_cells()), (false, 0), "no optional heads");
    }

    #[test]
    fn evaluates_by_hand() {
        let net = tiny();
        let mut logits = [0.0; 3];
        let mut scratch = Scratch::default();
        // h1 = relu([0,0.5] + 1*[1,-1] + 2*[0.5,2]) = [2, 3.5]
        // h2 = relu([0,-0.25] + [2, 3.5]) = [2, 3.25]
        // logits = [0.1,0.2,0.3] + 2*[1,2,3] + 3.25*[-1,0,1] = [-1.15, 4.2, 9.55]
        // value = tanh(2*0.5 - 3.25*0.5) = tanh(-0.625)
        let v = net.evaluate(&[1.0, 2.0], &mut scratch, &mut logits);
        for (got, want) in logits.iter().zip([-1.15, 4.2, 9.55]) {
            assert!((got - want).abs() < 1e-5, "{logits:?}");
        }
        assert!((v - (-0.625f32).tanh()).abs() < 1e-6);
    }

    #[test]
    fn both_cpu_paths_give_the_same_bits() {
        // Random-looking weights and a sparse observation, evaluated on the dispatched
        // path (AVX2 here when the CPU has it) and on the plain one.
        let (inputs, hidden, actions) = (37, 19, 23);
        let mut x = 0.3f32;
        let mut next = move || {
            x = (x * 3.7 + 0.1).fract();
            x - 0.5
        };
        let mut make = |n: usize| (0..n).map(|_| next()).collect::<Vec<f32>>();
        let (w1, b1, w2, b2) = (make(inputs * hidden), make(hidden), make(hidden * hidden), make(hidden));
        let (wp, bp, wv, bv) = (make(hidden * actions), make(actions), make(hidden), make(1));
        let w = Weights { w1: &w1, b1: &b1, w2: &w2, b2: &b2, wp: &wp, bp: &bp, wv: &wv, bv: &bv };
        let net = Network::new(inputs, hidden, actions, w).unwrap();
        let obs: Vec<f32> = (0..inputs).map(|i| if i % 3 == 0 { 1.0 } else { 0.0 }).collect();
        let (mut a, mut b) = (vec![0.0; actions], vec![0.0; actions]);
        let va = net.evaluate(&obs, &mut Scratch::default(), &mut a);
        let vb = net.layers(&obs, &mut Scratch::default(), &mut b);
        assert_eq!(va.to_bits(), vb.to_bits());
        assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
    }

    #[test]
    fn heads_by_hand() {
        // h2 = [2, 3.25] (evaluates_by_hand); margin = 2*1 + 3.25*(-2) + 0.5 = -4;
        // ownership = tanh([0, 1, -1] + 2*[1, 0, 0.5] + 3.25*[0, -1, 0.25])
        // = tanh([2, -2.25, 0.8125]): three cells, so that each hidden unit's row of wo
        // is found by its index times the cells (with two, `(k + 1) * 2` is `(k + 1) + 2`).
        let (wm, bm, wo, bo) = ([1.0, -2.0], [0.5], [1.0, 0.0, 0.5, 0.0, -1.0, 0.25], [0.0, 1.0, -1.0]);
        let net = tiny().with_heads(Heads { margin: Some((&wm, &bm)), ownership: Some((&wo, &bo)) }).unwrap();
        assert!(net.has_margin());
        assert_eq!(net.ownership_cells(), 3);
        let (mut logits, mut own) = ([0.0; 3], [0.0; 3]);
        let out = net.evaluate_heads(&[1.0, 2.0], &mut Scratch::default(), &mut logits, &mut own);
        assert!((out.value - (-0.625f32).tanh()).abs() < 1e-6);
        assert!((out.margin.unwrap() + 4.0).abs() < 1e-5, "{out:?}");
        assert!(out.ownership);
        let expected = [2f32.tanh(), (-2.25f32).tanh(), 0.8125f32.tanh()];
        assert!(own.iter().zip(expected).all(|(o, e)| (o - e).abs() < 1e-6), "{own:?}");
        let plain = tiny().evaluate_heads(&[1.0, 2.0], &mut Scratch::default(), &mut logits, &mut []);
        assert_eq!((plain.margin, plain.ownership), (None, false));
        let err = tiny().with_heads(Heads { margin: Some((&wm[..1], &bm)), ..Heads::default() }).unwrap_err();
        assert_eq!(err.to_string(), "weight wm has 1 values; 2 hidden units need 2");
        let err = tiny().with_heads(Heads { ownership: Some((&wo[..3], &bo)), ..Heads::default() }).unwrap_err();
        assert!(err.to_string().contains("weight wo has 3 values"), "{err}");
        let nan = [f32::NAN];
        let err = tiny().with_heads(Heads { margin: Some((&wm, &nan)), ..Heads::default() }).unwrap_err();
        assert_eq!(err.to_string(), "weight bm holds a value that is not finite");
    }

    #[test]
    fn refuses_wrong_sizes_and_non_finite_weights() {
        let z = [0.0f32; 8];
        let w = Weights { w1: &z[..4], b1: &z[..2], w2: &z[..4], b2: &z[..2], wp: &z[..6], bp: &z[..3], wv: &z[..2], bv: &z[..1] };
        assert!(Network::new(2, 2, 3, w).is_ok());
        let err = Network::new(2, 2, 4, w).unwrap_err().to_string();
        assert!(err.contains("weight wp has 6 values"), "{err}");
        let nan = [f32::NAN; 2];
        let err = Network::new(2, 2, 3, Weights { b1: &nan, ..w }).unwrap_err().to_string();
        assert_eq!(err, "weight b1 holds a value that is not finite");
    }
}
