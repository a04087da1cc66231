//! The number of legal moves without listing them (for `crate::trace`).

use super::Tabik;
use crate::game::Game;
use crate::trace::LegalCount;

impl LegalCount for Tabik {
    fn legal_count(&self) -> usize {
        if self.is_over() {
            return 0;
        }
        let empty = self.empty();
        let total = 2 * self.open_east(empty).count()
            + 2 * self.open_north(empty).count()
            + self.swappable_east().count()
            + self.swappable_north().count()
            + usize::from(self.pie_available());
        total.max(1) // no move: a pass
    }
}
