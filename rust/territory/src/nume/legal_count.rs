//! The number of legal moves without listing them (for `crate::trace`).

use super::{Nume, Phase};
use crate::game::Game;
use crate::trace::LegalCount;

impl LegalCount for Nume {
    fn legal_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let n = self.n_cells();
        match self.phase {
            Phase::ChooseKomi => 2 * (n + 1),
            Phase::ChooseSide => 2,
            Phase::Stones => {
                let (joining, starting) = self.placements();
                joining.count() + (n + 1) * starting.count()
            }
        }
    }
}
