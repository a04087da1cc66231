//! Fast scoring: a union-find over runs of same-coloured wedges of each piece (a run is
//! a maximal cyclic stretch of one colour) instead of over single wedges.

use super::{GroupSize, Migong, CELLS, STEPS, WEDGES};
use crate::rules::scoring::Tally;

/// Per pattern: the run of each wedge, the number of runs, each run's length, and
/// which runs are yellow (bit per run).
struct Runs {
    of_wedge: [[u8; 6]; 64],
    count: [u8; 64],
    len: [[u8; 6]; 64],
    yellow: [u8; 64],
    /// The runs' lengths and colours (1 for yellow) as whole rows of 8 nodes (0 past
    /// the last run), copied in at once.
    len8: [[u16; 8]; 64],
    yellow8: [[u8; 8]; 64],
    /// `of_wedge` as a row of 8 (0 past wedge 5).
    of_wedge8: [[u16; 8]; 64],
}

/// The yellow bit of wedge `i % 6` of pattern `p`.
const fn colour(p: usize, i: usize) -> usize {
    (p >> (i % 6)) & 1
}

static RUNS: Runs = {
    let mut runs = Runs {
        of_wedge: [[0; 6]; 64],
        count: [0; 64],
        len: [[0; 6]; 64],
        yellow: [0; 64],
        len8: [[0; 8]; 64],
        yellow8: [[0; 8]; 64],
        of_wedge8: [[0; 8]; 64],
    };
    let mut p = 0;
    while p < 64 {
        // Start at a wedge whose colour differs from the one before it (any for a
        // one-coloured piece), so no run wraps past the start.
        let mut start = 0;
        while start < 6 && colour(p, start) == colour(p, start + 5) {
            start += 1;
        }
        if start == 6 {
            start = 0;
        }
        let mut run = 0;
        let mut k = 0;
        while k < 6 {
            let i = (start + k) % 6;
            if k > 0 && colour(p, i) != colour(p, i + 5) {
                run += 1;
            }
            runs.of_wedge[p][i] = run as u8;
            runs.of_wedge8[p][i] = run as u16;
            runs.len[p][run] += 1;
            runs.len8[p][run] += 1;
            runs.yellow[p] |= (colour(p, i) as u8) << run;
            runs.yellow8[p][run] = colour(p, i) as u8;
            k += 1;
        }
        runs.count[p] = run as u8 + 1;
        p += 1;
    }
    runs
};

/// Room for the nodes (at most one per wedge) and a whole piece past the last: a power
/// of two, so that masked indices need no bounds checks.
const NODES: usize = 1024;

/// Marks "no piece" in the table of wedge nodes.
const NO_NODE: u16 = u16::MAX;

/// A row of the table of wedge nodes that stays empty: the cells that are not there
/// (past the rim, the central border) point to it.
const NOWHERE: usize = 127;

/// `EARLIER[cell][i]`: the neighbour of `cell` in direction NE, NW, W (i = 0, 1, 2), which
/// comes before it in the board's order, or `NOWHERE`.
static EARLIER: [[u8; 3]; CELLS] = {
    let mut earlier = [[NOWHERE as u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut i = 0;
        while i < 3 {
            let n = STEPS[cell][i + 1];
            if n != super::NO_CELL {
                earlier[cell][i] = n;
            }
            i += 1;
        }
        cell += 1;
    }
    earlier
};

/// The root of node `x` in the forest `parent`, halving the path on the way.
#[inline(always)]
fn find(parent: &mut [u16; NODES], mut x: usize) -> usize {
    loop {
        let up = parent[x & (NODES - 1)] as usize;
        if up == x {
            return x;
        }
        let grand = parent[up & (NODES - 1)];
        parent[x & (NODES - 1)] = grand;
        x = grand as usize;
    }
}

/// The groups so far: a union-find forest over the nodes whose roots are the smallest
/// ids of their groups and hold the groups' sizes.
/// The arrays are borrowed, each filled on its own: one zeroed block of all of them
/// would be filled by `rep stosb` (a count of one instruction per byte under callgrind).
struct Forest<'a> {
    parent: &'a mut [u16; NODES],
    size: &'a mut [u16; NODES],
    /// Each node's colour (1 for yellow): its group's.
    yellow: &'a mut [u8; NODES],
    /// At least the largest size of a group.
    largest: u16,
}

impl Forest<'_> {
    /// Joins the groups of nodes `a` and `b` (the smaller root stays, with the sum of
    /// the sizes).
    #[inline(always)]
    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (find(self.parent, a), find(self.parent, b));
        if ra != rb {
            let (low, high) = (ra.min(rb) & (NODES - 1), ra.max(rb) & (NODES - 1));
            self.parent[high] = low as u16;
            let sum = self.size[low] + self.size[high];
            self.size[low] = sum;
            self.largest = self.largest.max(sum);
        }
    }

    /// Takes one piece off the group of root `x` (two runs of one piece in it).
    #[cold]
    fn shrink(&mut self, x: usize) {
        self.size[x & (NODES - 1)] -= 1;
    }
}

impl Migong {
    /// Per colour, the largest group size it holds (see `scoring`).
    pub(super) fn held(&self) -> [u32; 2] {
        match self.config.group_size {
            GroupSize::Extent => self.held_sized::<{ CELLS + 1 }, false>(),
            GroupSize::Wedges => self.held_sized::<{ WEDGES + 1 }, true>(),
        }
    }

    // Called once per game: kept out of line, so inlining it into a playout loop does
    // not crowd that loop's registers (measured: 1,300 fewer instructions per game).
    #[inline(never)]
    fn held_sized<const MAX: usize, const BY_WEDGES: bool>(&self) -> [u32; 2] {
        // Node ids: the runs of the placed pieces, numbered cell by cell. Each piece's
        // runs are joined to those they touch in the cells before it (west and the row
        // above). A run counts 1 piece, or its wedges.
        // `wedge_node[cell][d]`: the node of wedge d of the piece on `cell`.
        let mut wedge_node = [[NO_NODE; 8]; 128];
        let (mut parent, mut size, mut yellow) = ([0; NODES], [0; NODES], [0; NODES]);
        let mut forest = Forest {
            parent: &mut parent,
            size: &mut size,
            yellow: &mut yellow,
            // A lone run is at most 6 wedges.
            largest: if BY_WEDGES { 6 } else { 1 },
        };
        // Pieces of 4 or 6 runs (the first node, the number of runs): the only ones whose
        // runs can meet again in one group (runs alternate in colour), counted once then.
        let mut several = [(0u16, 0u8); 128];
        let mut several_len = 0usize;
        let mut nodes = 0usize;
        for cell in 0..CELLS {
            let Some(p) = self.pieces[cell] else {
                continue;
            };
            let p = p.0 as usize & 63;
            let count = RUNS.count[p] as usize;
            // The piece's nodes as one row of 8 (those past its runs are overwritten by
            // the next piece's): each its own root, with its size and colour.
            let row = nodes..nodes + 8;
            forest.parent[row.clone()]
                .copy_from_slice(&std::array::from_fn::<u16, 8, _>(|j| (nodes + j) as u16));
            let sizes = if BY_WEDGES { &RUNS.len8[p] } else { &[1; 8] };
            forest.size[row.clone()].copy_from_slice(sizes);
            forest.yellow[row].copy_from_slice(&RUNS.yellow8[p]);
            let own: [u16; 8] = std::array::from_fn(|d| nodes as u16 + RUNS.of_wedge8[p][d]);
            wedge_node[cell] = own;
            // Wedge d (NE, NW, W) touches wedge d + 3 (SW, SE, E) of the piece there.
            for (d, back) in [(1, 4), (2, 5), (3, 0)] {
                let b = wedge_node[EARLIER[cell][d - 1] as usize & 127][back];
                if b != NO_NODE {
                    forest.join(own[d] as usize, b as usize);
                }
            }
            several[several_len & 127] = (nodes as u16, count as u8);
            several_len += (!BY_WEDGES && count >= 4) as usize;
            nodes += count;
        }
        for &(first, count) in &several[..several_len.min(128)] {
            let first = first as usize;
            let mut root = |run: usize| find(forest.parent, first + run);
            let (r0, r1, r2, r3) = (root(0), root(1), root(2), root(3));
            let (r4, r5) = if count == 6 {
                (root(4), root(5))
            } else {
                (NODES, NODES)
            };
            // One piece counts once in a group: a run of one colour that shares its root
            // with an earlier run of that colour is taken off again.
            for (late, earlier) in [(r2, r0), (r3, r1)] {
                if late == earlier {
                    forest.shrink(late);
                }
            }
            if count == 6 {
                for (late, earlier, between) in [(r4, r0, r2), (r5, r1, r3)] {
                    if late == earlier || late == between {
                        forest.shrink(late);
                    }
                }
            }
        }
        let mut tally = Tally::<MAX>::new();
        tally.raise_largest(forest.largest as usize);
        // The roots only (a parent is never above its node: a root is its own).
        for x in 0..nodes.min(NODES) {
            if parent[x] as usize == x {
                tally.add_unsized(yellow[x] as usize, size[x] as usize);
            }
        }
        tally.held()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::game::Game;
    use crate::rules::scoring::Tally;

    /// The wedge union-find's tally, which `groups` also uses.
    fn held_by_wedges(game: &Migong) -> [u32; 2] {
        let mut tally = Tally::<{ WEDGES + 1 }>::new();
        let by_wedges = game.config.group_size == GroupSize::Wedges;
        game.for_each_group(|color, _, wedges, extent| {
            tally.add(color, if by_wedges { wedges } else { extent })
        });
        tally.held()
    }

    #[test]
    fn runs_cover_each_pattern() {
        for p in 0..64usize {
            let count = RUNS.count[p] as usize;
            assert_eq!(RUNS.len[p][..count].iter().sum::<u8>(), 6);
            let yellow_runs = (0..count).filter(|&run| RUNS.yellow[p] >> run & 1 == 1);
            let yellow_wedges = (0..6).filter(|&i| p >> i & 1 == 1);
            assert_eq!(
                yellow_runs
                    .map(|run| RUNS.len[p][run] as usize)
                    .sum::<usize>(),
                yellow_wedges.count()
            );
            for i in 0..6 {
                assert_eq!(
                    RUNS.yellow[p] >> RUNS.of_wedge[p][i] & 1,
                    (p >> i & 1) as u8
                );
                let same = (p >> i & 1) == (p >> ((i + 1) % 6) & 1);
                let joined = RUNS.of_wedge[p][i] == RUNS.of_wedge[p][(i + 1) % 6];
                assert_eq!(joined, same, "pattern {p} wedge {i}");
            }
        }
    }

    /// The tallies hold the largest group any board could have, beyond what play reaches
    /// (each set has one all-yellow piece at most): here one yellow group of every cell's
    /// piece, 126 pieces and 756 wedges.
    #[test]
    fn one_group_of_every_piece_is_counted() {
        for (group_size, size) in [(GroupSize::Extent, CELLS), (GroupSize::Wedges, WEDGES)] {
            let config = super::super::MigongConfig { group_size, ..Default::default() };
            let mut game = Migong::new(config).unwrap();
            game.pieces = [Some(super::super::Piece(63)); CELLS];
            assert_eq!(game.held(), [0, size as u32], "{group_size:?}");
            assert_eq!(held_by_wedges(&game), [0, size as u32], "{group_size:?}");
        }
    }

    #[test]
    fn run_scoring_matches_wedge_scoring() {
        for group_size in [GroupSize::Extent, GroupSize::Wedges] {
            for border in [
                super::super::Border::Alternate,
                super::super::Border::AllBlue,
            ] {
                let config = super::super::MigongConfig {
                    pie: true,
                    border,
                    group_size,
                };
                let start = Migong::new(config).unwrap();
                for index in 0..40 {
                    let mut game = crate::rules::playout::replay(&start, 11, index);
                    // Every prefix, so positions with few pieces are checked too.
                    while game.undo().is_some() {
                        assert_eq!(game.held(), held_by_wedges(&game));
                    }
                }
            }
        }
    }
}
