//! Fast scoring: a union-find over runs of same-coloured wedges of each piece (a run is
//! a maximal cyclic stretch of one colour) instead of over single wedges.

use super::{GroupSize, Migong, CELLS, STEPS, WEDGES};
use crate::rules::game::Color;
use crate::rules::scoring::Tally;

/// Per pattern: the run of each wedge, the number of runs, each run's length, and
/// which runs are yellow (bit per run).
struct Runs {
    of_wedge: [[u8; 6]; 64],
    count: [u8; 64],
    len: [[u8; 6]; 64],
    yellow: [u8; 64],
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
            runs.len[p][run] += 1;
            runs.yellow[p] |= (colour(p, i) as u8) << run;
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

impl Migong {
    /// Per colour, the largest group size it holds (see `scoring`).
    pub(super) fn held(&self) -> [u32; 2] {
        match self.config.group_size {
            GroupSize::Extent => self.held_sized::<{ CELLS + 1 }>(false),
            GroupSize::Wedges => self.held_sized::<{ WEDGES + 1 }>(true),
        }
    }

    // Called once per game: kept out of line, so inlining it into a playout loop does
    // not crowd that loop's registers (measured: 1,300 fewer instructions per game).
    #[inline(never)]
    fn held_sized<const MAX: usize>(&self, by_wedges: bool) -> [u32; 2] {
        // Node ids: the runs of the placed pieces, numbered cell by cell, in a union-find
        // forest whose roots are the smallest ids of their groups. Each piece's runs are
        // joined to those they touch in the cells before it (west and the row above).
        let mut base = [0u16; CELLS];
        let mut parent = [0u16; NODES];
        let mut nodes = 0usize;
        for cell in 0..CELLS {
            base[cell] = nodes as u16;
            let Some(p) = self.pieces[cell] else {
                continue;
            };
            let p = p.0 as usize & 63;
            for (run, up) in parent[nodes..nodes + 6].iter_mut().enumerate() {
                *up = (nodes + run) as u16;
            }
            for d in 1..4 {
                let n = STEPS[cell][d] as usize;
                let Some(q) = self.pieces.get(n).copied().flatten() else {
                    continue;
                };
                let a = nodes + RUNS.of_wedge[p][d] as usize;
                let b = base[n] as usize + RUNS.of_wedge[q.0 as usize & 63][(d + 3) % 6] as usize;
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra.max(rb) & (NODES - 1)] = ra.min(rb) as u16;
            }
            nodes += RUNS.count[p] as usize;
        }
        // Every node straight to its root: a parent is never above its node, and nodes
        // come in ascending order, so each parent already points to its root.
        for x in 0..nodes.min(NODES) {
            parent[x] = parent[parent[x] as usize & (NODES - 1)];
        }
        // Sizes by root: wedges, or distinct pieces (runs of one piece may share a group).
        let mut size = [0u16; NODES];
        let mut yellow = [false; NODES];
        for (cell, piece) in self.pieces.iter().enumerate() {
            let Some(p) = piece else {
                continue;
            };
            let p = p.0 as usize & 63;
            let first = base[cell] as usize;
            let mut seen = [u16::MAX; 6];
            for run in 0..RUNS.count[p] as usize {
                let r = parent[(first + run) & (NODES - 1)];
                seen[run] = r;
                let r = r as usize & (NODES - 1);
                yellow[r] = RUNS.yellow[p] >> run & 1 == 1;
                if by_wedges {
                    size[r] += RUNS.len[p][run] as u16;
                } else if (run < 2 || seen[run - 2] != r as u16)
                    && (run < 4 || seen[run - 4] != r as u16)
                {
                    // Runs alternate in colour, so only runs 2 and 4 back can be in
                    // this run's group already.
                    size[r] += 1;
                }
            }
        }
        let mut tally = Tally::<MAX>::new();
        // Every node, without a branch on which are roots (unpredictable): the others
        // have size 0, which no colour can hold.
        for x in 0..nodes.min(NODES) {
            let color = if yellow[x] {
                Color::Second
            } else {
                Color::First
            };
            tally.add(color, size[x] as usize);
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
