//! The number of legal moves without listing them (for `crate::trace`).

use super::Migong;
use crate::game::Game;
use crate::trace::LegalCount;

impl LegalCount for Migong {
    fn legal_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let set = self.remaining[self.mover_color().index()];
        let total = self.placement_count(set) + usize::from(self.pie_available());
        total.max(1) // no move: a pass
    }
}
