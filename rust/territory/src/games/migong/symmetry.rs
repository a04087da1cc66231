//! Migong's board symmetries for the solver: none, since its borders and home cells are
//! tied to the seats.

use super::Migong;
use crate::search::symmetry::Symmetric;

impl Symmetric for Migong {}
