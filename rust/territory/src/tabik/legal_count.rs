//! The number of legal moves without listing them (for `crate::trace`).

use super::Tabik;
use crate::game::Game;
use crate::trace::LegalCount;

impl LegalCount for Tabik {
    fn legal_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        self.choices().count().max(1) // no move: a pass
    }
}
