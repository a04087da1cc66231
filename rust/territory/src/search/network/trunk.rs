//! The convolutional trunk a network may have in front of its first layer
//! ([`Network::with_trunk`], docs/learning.md).
//!
//! The trunk reads the first `planes * height * width` input values as the observation
//! planes (plane by plane, each row by row, as the games write them): a 3x3 convolution
//! (zero padding, stride 1) to `filters` channels with a bias and ReLU, then `blocks`
//! residual blocks, each a 3x3 convolution with bias and ReLU, a second 3x3 convolution
//! with bias, the block's input added and ReLU. Its `filters * height * width` outputs, in
//! the same layout, then the input values past the planes (the game's features, if the
//! network reads them) are what the first dense layer reads.
//!
//! The convolutions work on planes with a border of zeros (a row above and below, a
//! column on each side), so that a tap of a 3x3 kernel reads contiguous values for
//! contiguous outputs: the outputs of a plane are one run, from the first row's first
//! cell to the last row's last, worked out in tiles of two channels by 32 positions
//! whose sums stay in vector registers while every input plane and tap is added. The
//! pad columns inside the run get values too, zeroed before the next convolution reads
//! them. Each output adds its products in one order (input channel, then tap), with no
//! fused multiply-add, so every CPU path gives the same bits. The trunk works in the two
//! buffers of [`super::Scratch`], which the dense layers refill afterwards: its output in
//! the second, its padded planes in the first.

use super::{add_scaled, check_weight, Network, NetworkError};

/// The weights of a convolutional trunk, in numpy's row-major layout.
#[derive(Clone, Copy, Debug)]
pub struct TrunkWeights<'a> {
    /// The observation's planes, board height and board width.
    pub planes: usize,
    pub height: usize,
    pub width: usize,
    /// The output channels of every convolution.
    pub filters: usize,
    /// The residual blocks after the first convolution.
    pub blocks: usize,
    /// `(weight, bias)` of each convolution in order, named `c0w`, `c0b`, `c1w`, ... in
    /// errors: the first (`(filters, planes, 3, 3)` and `(filters,)`), then the two of
    /// each block (`(filters, filters, 3, 3)` and `(filters,)`).
    pub convs: &'a [(&'a [f32], &'a [f32])],
}

/// A trunk, its weights checked.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Trunk {
    planes: usize,
    height: usize,
    width: usize,
    filters: usize,
    blocks: usize,
    /// The input values past the planes, handed on after the trunk's output.
    features: usize,
    convs: Vec<(Vec<f32>, Vec<f32>)>,
}

impl Trunk {
    /// The trunk of `w` in front of a first layer of `first_inputs` rows.
    fn new(w: TrunkWeights<'_>, first_inputs: usize) -> Result<Trunk, NetworkError> {
        let TrunkWeights { planes, height, width, filters, blocks, convs } = w;
        if planes == 0 || height == 0 || width == 0 || filters == 0 {
            return Err(NetworkError(format!(
                "a trunk needs at least one plane, row, column and filter, got {planes}, {height}, \
                 {width} and {filters}"
            )));
        }
        let too_large = || {
            let shape = format!("{planes} planes of {height}x{width} and {filters} filters");
            NetworkError(format!("a trunk of {shape} is too large"))
        };
        let cells = height.checked_mul(width).ok_or_else(too_large)?;
        let outputs = cells.checked_mul(filters).ok_or_else(too_large)?;
        let (padded, inputs) = ((height + 2).checked_mul(width + 2), cells.checked_mul(planes));
        let channels = planes.max(filters);
        let work = padded.and_then(|p| p.checked_mul(channels)).and_then(|n| n.checked_mul(4));
        let weights = filters.checked_mul(channels).and_then(|n| n.checked_mul(9));
        if inputs.is_none() || weights.is_none() || work.is_none() {
            return Err(too_large());
        }
        let expected = blocks.checked_mul(2).and_then(|n| n.checked_add(1));
        if expected != Some(convs.len()) {
            return Err(NetworkError(format!(
                "a trunk of {blocks} blocks has one convolution and two a block; got {} \
                 (weight and bias pairs)",
                convs.len()
            )));
        }
        if first_inputs < outputs {
            return Err(NetworkError(format!(
                "weight w1 has {first_inputs} rows; a trunk of {filters} filters on a \
                 {height}x{width} board gives {outputs} values"
            )));
        }
        for (k, (weight, bias)) in convs.iter().enumerate() {
            let inputs = if k == 0 { planes } else { filters };
            let sizes = format!("{filters} filters of 3x3 on {inputs} channels");
            check_weight(&format!("c{k}w"), weight, filters * inputs * 9, &sizes)?;
            check_weight(&format!("c{k}b"), bias, filters, &format!("{filters} filters"))?;
        }
        Ok(Trunk {
            planes,
            height,
            width,
            filters,
            blocks,
            features: first_inputs - outputs,
            convs: convs.iter().map(|(w, b)| (w.to_vec(), b.to_vec())).collect(),
        })
    }

    /// The network's input length: the planes, then the values past them.
    fn inputs(&self) -> usize {
        self.planes * self.height * self.width + self.features
    }

    /// The values of a padded plane, and of its rows.
    #[inline(always)]
    fn padded(&self) -> (usize, usize) {
        let row = self.width + 2;
        ((self.height + 2) * row, row)
    }

    /// Writes the first layer's input for the network input `obs` into `out` and returns
    /// it, with `work` as working memory.
    #[inline(always)]
    fn run<'a>(&self, obs: &[f32], work: &mut Vec<f32>, out: &'a mut Vec<f32>) -> &'a [f32] {
        let (size, row) = self.padded();
        let (width, cells) = (self.width, self.height * self.width);
        let (planes_len, channels_len) = (self.planes * size, self.filters * size);
        work.clear();
        work.resize(planes_len + 3 * channels_len + 4 * SLACK, 0.0);
        let (x, rest) = work.split_at_mut(planes_len + SLACK);
        let (a, rest) = rest.split_at_mut(channels_len + SLACK);
        let (t, u) = rest.split_at_mut(channels_len + SLACK);
        let planes = obs[..self.planes * cells].chunks_exact(cells);
        for (plane, padded) in planes.zip(x.chunks_exact_mut(size)) {
            let rows = padded[row + 1..].chunks_mut(row);
            for (source, target) in plane.chunks_exact(width).zip(rows) {
                target[..width].copy_from_slice(source);
            }
        }
        let mut convs = self.convs.iter();
        let mut next = || convs.next().expect("one convolution, then two a block");
        let (w, b) = next();
        self.conv(x, w, b, a);
        self.relu(a);
        for _ in 0..self.blocks {
            let (w, b) = next();
            self.conv(a, w, b, t);
            self.relu(t);
            let (w, b) = next();
            self.conv(t, w, b, u);
            for (a, &u) in a.iter_mut().zip(u.iter()) {
                *a = (*a + u).max(0.0);
            }
            self.clear_pads(a);
        }
        out.clear();
        for plane in a.chunks_exact(size) {
            for cells in plane[row + 1..].chunks(row).take(self.height) {
                out.extend_from_slice(&cells[..width]);
            }
        }
        out.extend_from_slice(&obs[self.planes * self.height * width..]);
        out
    }

    /// `out = b + w * x`, a 3x3 convolution of the padded planes of `x` (weights `w`
    /// of shape `(out channels, x's planes, 3, 3)`) into those of `out`, over each
    /// plane's run (see the module's text), in tiles of two output channels by [`TILE`]
    /// (then 8) positions added up in registers ([`Tiles::pair`]). A tile reaching past
    /// the run reads up to 7 values past the last plane, so `x` has [`SLACK`] more; the
    /// values it works out there are not stored.
    #[inline(always)]
    fn conv(&self, x: &[f32], w: &[f32], b: &[f32], out: &mut [f32]) {
        let (size, row) = self.padded();
        let (first, run) = (row + 1, (self.height - 1) * row + self.width);
        let shifts: [usize; 9] = std::array::from_fn(|tap| tap / 3 * row + tap % 3);
        let inputs = w.len() / (9 * b.len());
        let tiles = Tiles { x, size, shifts, inputs };
        for o in (0..b.len()).step_by(2) {
            // The last of an odd number of channels is worked out twice, stored once.
            let next = (o + 1).min(b.len() - 1);
            let kernels = |c: usize| &w[c * inputs * 9..][..inputs * 9];
            let (w0, w1) = (kernels(o), kernels(next));
            let tail = &mut out[o * size + first..];
            let (out, rest) = tail.split_at_mut(size.min(tail.len()));
            let mut second = (next > o).then_some(rest);
            let mut p = 0;
            while p < run {
                let n = (run - p).min(TILE);
                let mut store = |a: &[f32], c: &[f32]| {
                    out[p..p + a.len()].copy_from_slice(a);
                    if let Some(second) = second.as_deref_mut() {
                        second[p..p + c.len()].copy_from_slice(c);
                    }
                };
                p += if n == TILE {
                    let (a, c) = tiles.pair::<TILE>([w0, w1], b[o], b[next], p);
                    store(&a, &c);
                    TILE
                } else {
                    let (a, c) = tiles.pair::<8>([w0, w1], b[o], b[next], p);
                    let n = n.min(8);
                    store(&a[..n], &c[..n]);
                    n
                };
            }
        }
    }

    /// ReLU on padded planes, their pad columns zeroed.
    #[inline(always)]
    fn relu(&self, planes: &mut [f32]) {
        for v in planes.iter_mut() {
            *v = v.max(0.0);
        }
        self.clear_pads(planes);
    }

    /// Zeroes the pad columns inside each padded plane's run: between one row's last
    /// cell and the next row's first.
    #[inline(always)]
    fn clear_pads(&self, planes: &mut [f32]) {
        let (size, row) = self.padded();
        for plane in planes.chunks_exact_mut(size) {
            for y in 1..self.height {
                plane[y * row + self.width + 1] = 0.0;
                plane[(y + 1) * row] = 0.0;
            }
        }
    }
}

/// Output positions a tile of a convolution adds up in registers (then 8 at a time at
/// the end of a run).
const TILE: usize = 32;

/// Values past each padded buffer, so that a tile may read past a run's end.
const SLACK: usize = 8;

/// The input of a convolution, for [`Tiles::pair`].
struct Tiles<'a> {
    /// Padded planes, then [`SLACK`] values.
    x: &'a [f32],
    /// The values of a padded plane.
    size: usize,
    /// Where each of the nine taps reads, from the output's position in the run.
    shifts: [usize; 9],
    /// The planes of `x`.
    inputs: usize,
}

impl Tiles<'_> {
    /// Positions `p .. p + N` of the runs of two output channels, of weights `w`
    /// (`(x's planes, 3, 3)` each) and biases `b0`, `b1`: each output is its bias plus
    /// its products in order of input plane, then tap. Two named accumulators rather
    /// than an array of them, so that the compiler keeps them in vector registers.
    #[inline(always)]
    fn pair<const N: usize>(
        &self,
        w: [&[f32]; 2],
        b0: f32,
        b1: f32,
        p: usize,
    ) -> ([f32; N], [f32; N]) {
        let (mut a0, mut a1) = ([b0; N], [b1; N]);
        for i in 0..self.inputs {
            let plane = &self.x[i * self.size + p..];
            let (k0, k1) = (&w[0][i * 9..i * 9 + 9], &w[1][i * 9..i * 9 + 9]);
            for (tap, &shift) in self.shifts.iter().enumerate() {
                let source: &[f32; N] = plane[shift..shift + N].try_into().expect("N values");
                add_scaled(&mut a0, k0[tap], source);
                add_scaled(&mut a1, k1[tap], source);
            }
        }
        (a0, a1)
    }
}

impl Network {
    /// The network with a convolutional trunk in front of its first layer (see
    /// [`TrunkWeights`] and the module `trunk`): the network then reads
    /// `planes * height * width` observation values through the trunk, then the values
    /// its first layer has rows for past the trunk's `filters * height * width` outputs
    /// (the game's features), as they are; [`Network::inputs`] is that input's length.
    ///
    /// # Errors
    /// If a size is zero or too large, the number of convolutions is not one and two a
    /// block, an array has the wrong length or holds a NaN or an infinity, the first
    /// layer has fewer rows than the trunk gives values, or the network has a trunk
    /// already.
    pub fn with_trunk(mut self, weights: TrunkWeights<'_>) -> Result<Network, NetworkError> {
        if self.trunk.is_some() {
            return Err(NetworkError("the network has a trunk already".into()));
        }
        let trunk = Trunk::new(weights, self.inputs)?;
        self.inputs = trunk.inputs();
        self.trunk = Some(trunk);
        Ok(self)
    }

    /// The trunk's filters and residual blocks, `None` without a trunk.
    pub fn trunk_shape(&self) -> Option<(usize, usize)> {
        self.trunk.as_ref().map(|t| (t.filters, t.blocks))
    }

    /// What the first layer reads of the network input `obs`: `obs` itself without a
    /// trunk, else the trunk's output then the features, written to `out` (with `work`
    /// as working memory).
    #[inline(always)]
    pub(super) fn first_input<'a>(
        &self,
        obs: &'a [f32],
        work: &mut Vec<f32>,
        out: &'a mut Vec<f32>,
    ) -> &'a [f32] {
        match &self.trunk {
            None => obs,
            Some(trunk) => trunk.run(obs, work, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::network::{Scratch, Weights};

    type Conv<'a> = (&'a [f32], &'a [f32]);

    /// 3x3 weights with `value` at row `ky`, column `kx` (the input cell `ky - 1` rows
    /// below and `kx - 1` columns right of the output's), zero elsewhere.
    fn tap(ky: usize, kx: usize, value: f32) -> [f32; 9] {
        let mut w = [0.0; 9];
        w[ky * 3 + kx] = value;
        w
    }

    /// The trunk of `convs` on one plane of `height` x `width`, `n` feature values after it.
    fn trunk(height: usize, width: usize, filters: usize, convs: &[Conv<'_>], n: usize) -> Trunk {
        let w = TrunkWeights { planes: 1, height, width, filters, blocks: convs.len() / 2, convs };
        Trunk::new(w, filters * height * width + n).unwrap()
    }

    /// The output of [`by_hand`]'s trunk, then its feature.
    const WANT: [f32; 19] = [
        2.0, 0.0, 0.0, 6.0, 1.0, 0.0, 4.0, 2.0, 3.0,
        0.0, 0.0, 0.0, 0.0, 4.0, 1.0, 0.0, 4.0, 2.0,
        0.5,
    ];

    fn run(trunk: &Trunk, obs: &[f32]) -> Vec<f32> {
        let (mut work, mut out) = (vec![f32::NAN; 3], vec![f32::NAN; 5]);
        trunk.run(obs, &mut work, &mut out).to_vec()
    }

    /// One plane of 3x3, 2 filters, 1 block: weights of taps worked out by hand.
    fn by_hand() -> (Vec<f32>, Vec<Vec<f32>>) {
        // The first convolution: filter 0 copies the plane (the middle tap), filter 1
        // adds up each cell's 3x3 neighbourhood (all ones), bias -1.
        let c0w = [tap(1, 1, 1.0), [1.0; 9]].concat();
        let c0b = vec![0.0, -1.0];
        // The block's first: filter 0 copies channel 1; filter 1 is 0.5 less channel 0.
        let c1w = [[0.0; 9], tap(1, 1, 1.0), tap(1, 1, -1.0), [0.0; 9]].concat();
        let c1b = vec![0.0, 0.5];
        // Its second: filter 0 takes channel 0's right neighbour, filter 1 twice channel
        // 1's cell above, less 1.
        let c2w = [tap(1, 2, 1.0), [0.0; 9], [0.0; 9], tap(0, 1, 2.0)].concat();
        let c2b = vec![0.0, -1.0];
        let obs = vec![1.0, -1.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.5];
        (obs, vec![c0w, c0b, c1w, c1b, c2w, c2b])
    }

    #[test]
    fn a_trunk_by_hand() {
        let (obs, w) = by_hand();
        let convs = [(&w[0][..], &w[1][..]), (&w[2][..], &w[3][..]), (&w[4][..], &w[5][..])];
        let trunk = trunk(3, 3, 2, &convs, 1);
        assert_eq!(trunk.inputs(), 10);
        // The plane x = [[1, -1, 0], [2, 0, 0], [0, 0, 3]], then the feature 0.5.
        // The first convolution, ReLU: a0 = relu(x) = [[1, 0, 0], [2, 0, 0], [0, 0, 3]];
        // a1 = relu(neighbourhood sums - 1), the sums with zeros outside the board
        // [[2, 2, -1], [2, 5, 2], [2, 5, 3]] (a corner adds 4 cells, an edge 6):
        // a1 = [[1, 1, 0], [1, 4, 1], [1, 4, 2]].
        // The block's first, ReLU: t0 = a1,
        // t1 = relu(0.5 - a0) = [[0, .5, .5], [0, .5, .5], [.5, .5, 0]].
        // Its second: u0 = t0's right neighbours (0 past the last column) = [[1, 0, 0],
        // [4, 1, 0], [4, 2, 0]]; u1 = 2 t1's cells above (0 above the first row) - 1 =
        // [[-1, -1, -1], [-1, 0, 0], [-1, 0, 0]].
        // Added to the block's input, ReLU: relu(u0 + a0) = [[2, 0, 0], [6, 1, 0], [4, 2, 3]],
        // relu(u1 + a1) = [[0, 0, 0], [0, 4, 1], [0, 4, 2]]; then the feature.
        let want = WANT;
        assert_eq!(run(&trunk, &obs), want);
        // The same again in the same buffers (the pads zeroed again).
        let (mut work, mut out) = (Vec::new(), Vec::new());
        trunk.run(&obs, &mut work, &mut out);
        work.iter_mut().for_each(|v| *v = 9.0);
        assert_eq!(trunk.run(&obs, &mut work, &mut out), want);
        // Without the block: the first convolution's output alone.
        let first = super::tests::trunk(3, 3, 2, &convs[..1], 0);
        let a0 = [1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 3.0];
        let a1 = [1.0, 1.0, 0.0, 1.0, 4.0, 1.0, 1.0, 4.0, 2.0];
        assert_eq!(run(&first, &obs[..9]), [a0, a1].concat());
    }

    #[test]
    fn zero_padding_at_every_edge_of_a_board_wider_than_high() {
        // x = [[1, 2, 3], [4, 5, 6]]. Filter 0: the cell above and right, plus 10 times
        // the cell below and left: [[0 + 10 * 0, 0 + 10 * 4, 0 + 10 * 5], [2 + 0, 3 + 0, 0 + 0]].
        // Filter 1: the cell left, less the cell right: [[0 - 2, 1 - 3, 2 - 0], [0 - 5,
        // 4 - 6, 5 - 0]], ReLU.
        let w0: Vec<f32> = tap(0, 2, 1.0).iter().zip(tap(2, 0, 10.0)).map(|(a, b)| a + b).collect();
        let w1: Vec<f32> = tap(1, 0, 1.0).iter().zip(tap(1, 2, -1.0)).map(|(a, b)| a + b).collect();
        let (w, b) = ([w0, w1].concat(), [0.0, 0.0]);
        let trunk = trunk(2, 3, 2, &[(&w, &b)], 0);
        let got = run(&trunk, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(got, [0.0, 40.0, 50.0, 2.0, 3.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 5.0]);
        // A single cell: every tap but the middle one reads a zero.
        let ones = [1.0; 9];
        assert_eq!(run(&super::tests::trunk(1, 1, 1, &[(&ones, &[0.5])], 0), &[2.0]), [2.5]);
    }

    #[test]
    fn the_residual_add_takes_the_blocks_input() {
        // One plane of 1x2, one filter: the first convolution copies the plane; the
        // block's convolutions give 0 and then the bias -3, so the block's output is
        // relu(x - 3): the block's input comes back through the add.
        let (copy, zero) = (tap(1, 1, 1.0), [0.0; 9]);
        let convs: [(&[f32], &[f32]); 3] = [(&copy, &[0.0]), (&zero, &[0.0]), (&zero, &[-3.0])];
        assert_eq!(run(&trunk(1, 2, 1, &convs, 0), &[5.0, 2.0]), [2.0, 0.0]);
    }

    /// A fixed sequence of values from `x`: each next is the fraction of `x * times +
    /// plus`, given less `less`; the closure returns the next `n` of them.
    fn draws(mut x: f32, times: f32, plus: f32, less: f32) -> impl FnMut(usize) -> Vec<f32> {
        move |n| {
            (0..n)
                .map(|_| {
                    x = (x * times + plus).fract();
                    x - less
                })
                .collect()
        }
    }

    /// A network with `trunk` in front of a first layer of `rows` rows, every weight
    /// drawn from a fixed sequence.
    fn network(
        trunk: TrunkWeights<'_>,
        rows: usize,
        hidden: usize,
        actions: usize,
    ) -> Result<Network, NetworkError> {
        let mut make = draws(0.7, 3.3, 0.17, 0.5);
        let (w1, b1) = (make(rows * hidden), make(hidden));
        let (w2, b2) = (make(hidden * hidden), make(hidden));
        let (wp, bp, wv, bv) = (make(hidden * actions), make(actions), make(hidden), make(1));
        let w = Weights { w1: &w1, b1: &b1, w2: &w2, b2: &b2, wp: &wp, bp: &bp, wv: &wv, bv: &bv };
        Network::new(rows, hidden, actions, w)?.with_trunk(trunk)
    }

    #[test]
    fn a_network_with_a_trunk_reads_the_planes_then_the_features() {
        let (obs, w) = by_hand();
        let convs = [(&w[0][..], &w[1][..]), (&w[2][..], &w[3][..]), (&w[4][..], &w[5][..])];
        let tw =
            TrunkWeights { planes: 1, height: 3, width: 3, filters: 2, blocks: 1, convs: &convs };
        // 18 trunk outputs and 1 feature: the first layer's rows; 9 planes' values and 1
        // feature: the network's input.
        let net = network(tw, 19, 1, 2).unwrap();
        assert_eq!((net.inputs(), net.trunk_shape()), (10, Some((2, 1))));
        // The same network without the trunk, given the trunk's output by hand.
        let want = WANT;
        let mut mlp = net.clone();
        mlp.trunk = None;
        mlp.inputs = 19;
        let (mut a, mut b) = ([0.0; 2], [0.0; 2]);
        let mut scratch = Scratch::default();
        let va = net.evaluate(&obs, &mut scratch, &mut a);
        let vb = mlp.evaluate(&want, &mut scratch, &mut b);
        assert_eq!((va.to_bits(), a.map(f32::to_bits)), (vb.to_bits(), b.map(f32::to_bits)));
        let heads = net.evaluate_heads(&obs, &mut scratch, &mut a, &mut []);
        assert_eq!(heads.value.to_bits(), vb.to_bits(), "the heads read the last hidden layer");
        assert_eq!(mlp.trunk_shape(), None);
    }

    /// The trunk by its definition, cell by cell, the products added in the engine's
    /// order (input channel, then tap; a tap off the board reads 0).
    fn by_definition(tw: TrunkWeights<'_>, obs: &[f32]) -> Vec<f32> {
        let (h, w, f) = (tw.height as isize, tw.width as isize, tw.filters);
        let conv = |x: &[f32], (weights, bias): (&[f32], &[f32])| {
            let channels = x.len() / (h * w) as usize;
            let mut out = vec![0.0f32; f * (h * w) as usize];
            for (o, &b) in bias.iter().enumerate() {
                for y in 0..h {
                    for z in 0..w {
                        let mut acc = b;
                        for i in 0..channels {
                            for tap in 0..9 {
                                let (yy, zz) = (y + tap as isize / 3 - 1, z + tap as isize % 3 - 1);
                                let inside = (0..h).contains(&yy) && (0..w).contains(&zz);
                                let cell = || i * (h * w) as usize + (yy * w + zz) as usize;
                                let v = if inside { x[cell()] } else { 0.0 };
                                acc += weights[(o * channels + i) * 9 + tap] * v;
                            }
                        }
                        out[o * (h * w) as usize + (y * w + z) as usize] = acc;
                    }
                }
            }
            out
        };
        let relu = |v: Vec<f32>| v.into_iter().map(|v| v.max(0.0)).collect::<Vec<f32>>();
        let cells = tw.planes * (h * w) as usize;
        let mut a = relu(conv(&obs[..cells], tw.convs[0]));
        for block in 0..tw.blocks {
            let t = relu(conv(&a, tw.convs[2 * block + 1]));
            let u = conv(&t, tw.convs[2 * block + 2]);
            a = a.iter().zip(u).map(|(a, u)| (a + u).max(0.0)).collect();
        }
        a.extend_from_slice(&obs[cells..]);
        a
    }

    #[test]
    fn both_cpu_paths_give_the_same_bits_with_a_trunk() {
        // 3 planes of 6x7 (rows of 7: a run of 52, a tile of 32 then ones of 8), 5
        // filters (tiles of two channels, then one), 2 blocks, 3 features; a sparse input
        // with one plane of zeros.
        let (planes, height, width, filters, features) = (3, 6, 7, 5, 3);
        let mut make = draws(0.2, 3.7, 0.1, 0.45);
        let sizes = |k: usize| match k {
            0 => filters * planes * 9,
            k if k % 2 == 1 => filters,
            _ => filters * filters * 9,
        };
        let w: Vec<Vec<f32>> = (0..10).map(|k| make(sizes(k))).collect();
        let convs: Vec<(&[f32], &[f32])> = w.chunks(2).map(|p| (&p[0][..], &p[1][..])).collect();
        let tw = TrunkWeights { planes, height, width, filters, blocks: 2, convs: &convs[..5] };
        let net = network(tw, filters * height * width + features, 11, 7).unwrap();
        let cells = height * width;
        let value = |i: usize| match i {
            i if (cells..2 * cells).contains(&i) || i % 3 == 1 => 0.0,
            i => 1.0 + (i % 5) as f32 / 4.0,
        };
        let obs: Vec<f32> = (0..planes * cells + features).map(value).collect();
        // The trunk gives the values of its definition, to the bit.
        let trunk = net.trunk.as_ref().unwrap();
        let (mut work, mut out) = (Vec::new(), Vec::new());
        let want = by_definition(tw, &obs);
        assert_eq!(trunk.run(&obs, &mut work, &mut out), want);
        assert!(want.iter().filter(|&&v| v > 0.0).count() > want.len() / 4, "a trunk of zeros");
        let (mut a, mut b) = (vec![0.0; 7], vec![0.0; 7]);
        let va = net.evaluate(&obs, &mut Scratch::default(), &mut a);
        let vb = net.layers(&obs, &mut Scratch::default(), &mut b);
        assert_eq!(va.to_bits(), vb.to_bits());
        assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert!(a.iter().any(|&v| v != a[0]), "the logits differ: {a:?}");
    }

    #[test]
    fn refuses_wrong_sizes_and_non_finite_weights() {
        let (w, b, w2) = ([0.0f32; 18], [0.0f32; 2], [0.0f32; 36]);
        let convs = [(&w[..], &b[..]), (&w2[..], &b[..]), (&w2[..], &b[..])];
        let tw =
            TrunkWeights { planes: 1, height: 2, width: 2, filters: 2, blocks: 1, convs: &convs };
        let err = |tw: TrunkWeights<'_>, rows| network(tw, rows, 2, 3).unwrap_err().to_string();
        assert!(network(tw, 9, 2, 3).is_ok());
        assert_eq!(network(tw, 8, 2, 3).unwrap().inputs(), 4, "no features");
        let rows = "weight w1 has 7 rows; a trunk of 2 filters on a 2x2 board gives 8 values";
        assert_eq!(err(tw, 7), rows);
        assert_eq!(
            err(TrunkWeights { blocks: 2, ..tw }, 8),
            "a trunk of 2 blocks has one convolution and two a block; got 3 (weight and bias pairs)"
        );
        assert_eq!(
            err(TrunkWeights { filters: 0, ..tw }, 8),
            "a trunk needs at least one plane, row, column and filter, got 1, 2, 2 and 0"
        );
        let bad = [(&w[..], &b[..]), (&w[..], &b[..]), (&w2[..], &b[..])];
        let with = |convs| TrunkWeights { convs, ..tw };
        let c1w = "weight c1w has 18 values; 2 filters of 3x3 on 2 channels need 36";
        assert_eq!(err(with(&bad), 8), c1w);
        let bad = [(&w[..], &b[..]), (&w2[..], &b[..]), (&w2[..], &b[..1])];
        assert_eq!(err(with(&bad), 8), "weight c2b has 1 values; 2 filters need 2");
        let three = [0.0f32; 27];
        let bad = [(&three[..], &b[..]), (&w2[..], &b[..]), (&w2[..], &b[..])];
        let c0w = "weight c0w has 27 values; 2 filters of 3x3 on 1 channels need 18";
        assert_eq!(err(with(&bad), 8), c0w);
        let nan = [0.0, f32::NAN];
        let bad = [(&w[..], &nan[..]), (&w2[..], &b[..]), (&w2[..], &b[..])];
        assert_eq!(err(with(&bad), 8), "weight c0b holds a value that is not finite");
        let huge = TrunkWeights { height: usize::MAX / 2, ..tw };
        assert!(err(huge, 8).ends_with("is too large"), "{}", err(huge, 8));
        let twice = network(tw, 8, 2, 3).unwrap().with_trunk(tw).unwrap_err();
        assert_eq!(twice.to_string(), "the network has a trunk already");
    }
}
