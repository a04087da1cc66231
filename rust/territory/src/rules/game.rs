//! What every game shares: seats, colours, errors and the [`Game`] trait.

use std::fmt;
use std::sync::Arc;

use rand::{Rng, RngExt};

use crate::rules::board::Board;
pub use crate::rules::error::{IllegalMove, InvalidMove, MoveError, Reason};

/// The error of [`Game::check`] and [`Game::play`] for a game: the shared reasons and the
/// game's own.
pub type MoveErrorOf<G> = MoveError<<G as Game>::Invalid, <G as Game>::Illegal>;
/// The error of [`Game::parse_move`] for a game: the shared reasons and the game's own.
pub type InvalidMoveOf<G> = InvalidMove<<G as Game>::Invalid>;
use crate::rules::playout::PlayoutResult;

/// One of the two players' seats. Seat 0 starts with the first colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Seat {
    First = 0,
    Second = 1,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The seat with index 0 or 1.
    ///
    /// # Panics
    /// If `index` is not 0 or 1.
    pub fn new(index: usize) -> Seat {
        match index {
            0 => Seat::First,
            1 => Seat::Second,
            _ => panic!("seat index {index} is not 0 or 1"),
        }
    }

    /// The seat that makes action number `ply` (0-based) when turns alternate strictly.
    pub fn of_ply(ply: usize) -> Seat {
        Seat::new(ply % 2)
    }

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// A pair of values, one per seat (or per colour), indexed by [`Seat`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct BySeat<T>(pub [T; 2]);

impl<T> std::ops::Index<Seat> for BySeat<T> {
    type Output = T;
    fn index(&self, seat: Seat) -> &T {
        &self.0[seat.index()]
    }
}

impl<T> std::ops::IndexMut<Seat> for BySeat<T> {
    fn index_mut(&mut self, seat: Seat) -> &mut T {
        &mut self.0[seat.index()]
    }
}

/// A colour, named by its role: `First` moves first (Blue in Migong, Black in Nume and
/// Tabik), `Second` is the other (Yellow, White).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    First = 0,
    Second = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::First, Color::Second];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn other(self) -> Color {
        match self {
            Color::First => Color::Second,
            Color::Second => Color::First,
        }
    }
}

/// A game parameter outside what the game allows (made by [`crate::rules::params::Param::check`]):
/// "size must be an int from 2 to 16, got 17".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The parameter's name as the Python API spells it.
    pub parameter: &'static str,
    /// What is allowed: "an int from 2 to 16".
    pub allowed: String,
    /// The value given, written like a Python literal (callers that hold the value in
    /// their own language, like the Python bindings, may show it their way).
    pub got: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} must be {}, got {}",
            self.parameter, self.allowed, self.got
        )
    }
}

impl std::error::Error for ConfigError {}

/// A group on the board, as reported to users (not used in hot loops): the fields every
/// game has, and the extras a game declares by name (docs/conventions.md, "Groups").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupInfo {
    pub color: Color,
    /// Cell indices, ascending.
    pub cells: Vec<usize>,
    /// The size the rules count: stones, or a game's own measure of a group.
    pub size: usize,
    /// The game's own fields of a group, by name, in the order the game gives them;
    /// none for a game without any.
    pub extras: Vec<(&'static str, GroupValue)>,
}

/// The value of one of a game's own fields of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupValue {
    /// A count or a measure (an int in Python).
    Count(u64),
    /// A list of numbers, in cell order (a tuple of ints in Python).
    Numbers(Vec<u32>),
}

impl GroupInfo {
    /// A group with no extras: add them with [`GroupInfo::with`].
    pub fn new(color: Color, cells: Vec<usize>, size: usize) -> Self {
        GroupInfo {
            color,
            cells,
            size,
            extras: Vec::new(),
        }
    }

    /// This group with the extra field `name` set to `value` (added last).
    pub fn with(mut self, name: &'static str, value: GroupValue) -> Self {
        debug_assert!(self.extra(name).is_none(), "{name} given twice");
        self.extras.push((name, value));
        self
    }

    /// The extra field `name`, None if the game gives none of that name.
    pub fn extra(&self, name: &str) -> Option<&GroupValue> {
        self.extras.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

/// How a finished game's winner follows from its scores: the one rule each game picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinRule {
    /// The higher score wins; at equal scores (only 0-0 can tie) the seat that made the
    /// last move loses (Migong, Tabik).
    HigherWinsLastMoverLosesTies,
    /// The lower score wins (komi is part of the score); equal scores draw (Nume).
    LowerWinsTiesDraw,
}

impl WinRule {
    /// Whether the lower score is the better one.
    pub fn lower_score_wins(self) -> bool {
        self == WinRule::LowerWinsTiesDraw
    }

    /// The rule's name for Python: "higher score wins" or "lower score wins".
    pub fn name(self) -> &'static str {
        match self {
            WinRule::HigherWinsLastMoverLosesTies => "higher score wins",
            WinRule::LowerWinsTiesDraw => "lower score wins",
        }
    }

    /// The winner of a finished game with these scores, or `None` for a draw.
    pub fn winner<S: PartialOrd>(
        self,
        scores: BySeat<S>,
        last_mover: Option<Seat>,
    ) -> Option<Seat> {
        let [first, second] = &scores.0;
        let higher = if first > second {
            Some(Seat::First)
        } else if second > first {
            Some(Seat::Second)
        } else {
            None
        };
        match self {
            // No game ends without a non-pass action; Seat::First is only a fallback.
            WinRule::HigherWinsLastMoverLosesTies => {
                Some(higher.unwrap_or_else(|| last_mover.map_or(Seat::First, Seat::other)))
            }
            WinRule::LowerWinsTiesDraw => higher.map(Seat::other),
        }
    }
}

/// The rules of one game, played on a mutable state with undo.
///
/// Every game implements the required methods; checked play, outcome and the random
/// policy used by playouts are provided on top of them.
pub trait Game: Clone + Send + Sync + fmt::Debug {
    /// A move, including the pie `swap` and `pass` where the game has them. Moves carry
    /// cell indices, not names: [`Game::move_text`] writes one as text.
    type Move: Copy + Eq + fmt::Debug + Send + Sync;
    /// A seat's score (integers in Migong and Tabik, half-points in Nume).
    type Score: Copy + PartialOrd + fmt::Debug + Into<f64>;
    /// The game's own reasons a text or move value is not a move of the game
    /// ([`InvalidMove::Game`]; [`std::convert::Infallible`] when it has none).
    type Invalid: Reason;
    /// The game's own reasons a move is not legal in a position ([`IllegalMove::Game`]).
    type Illegal: Reason;

    /// Lower-case name: "migong", "nume" or "tabik".
    const NAME: &'static str;
    /// Names of [`Color::First`] and [`Color::Second`].
    const COLOR_NAMES: [&'static str; 2];

    /// The seat to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// The colour a seat plays now.
    fn color_of(&self, seat: Seat) -> Color;
    /// Appends the legal moves, in ascending action order, to `out`.
    fn legal_moves_into(&self, out: &mut Vec<Self::Move>);
    /// Why `mv` cannot be played here, if it cannot: [`MoveError::Invalid`] when it is not
    /// a move of this game with these parameters (checked first), else
    /// [`MoveError::Illegal`]. `Ok` exactly for the moves of [`Game::legal_moves_into`].
    fn check(&self, mv: Self::Move) -> Result<(), MoveErrorOf<Self>>;
    /// Plays a move known to be legal (from [`Game::check`] or the move generator).
    fn play_unchecked(&mut self, mv: Self::Move);
    /// Takes back the last action; `None` at the start.
    fn undo(&mut self) -> Option<Self::Move>;
    /// Goes back to the start position, keeping allocations.
    fn reset(&mut self);
    /// The actions played so far.
    fn history(&self) -> &[Self::Move];
    /// The seat of the last action that was not a pass.
    fn last_mover(&self) -> Option<Seat>;
    /// Each seat's score in the current position.
    fn scores(&self) -> BySeat<Self::Score>;
    /// Reads a move string (canonical, or another accepted spelling), without looking at
    /// the position: an error means the text is not a move of this game with these
    /// parameters at all.
    fn parse_move(&self, text: &str) -> Result<Self::Move, InvalidMoveOf<Self>>;
    /// Writes a move's canonical string (what [`Game::parse_move`] reads back).
    fn fmt_move(&self, mv: Self::Move, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// Size of the integer action space.
    fn num_actions(&self) -> usize;
    /// The action number of a move, if it has one.
    fn action_of(&self, mv: Self::Move) -> Option<usize>;
    /// The move with an action number, if the number is in range.
    fn move_of(&self, action: usize) -> Option<Self::Move>;
    /// The board: cell indices, names, positions and neighbours.
    fn geometry(&self) -> &Board;
    /// The groups on the board, ordered by first member.
    fn groups(&self) -> Vec<GroupInfo>;
    /// The cells a move places on or moves, in the order its text names them (empty for
    /// moves that touch no cell: `pass`, `swap`, Nume's komi-phase moves).
    fn move_cells(&self, mv: Self::Move) -> Vec<usize>;

    /// How the winner follows from the final scores.
    const WIN_RULE: WinRule;
    /// The game's `pass` move, if it has one.
    const PASS: Option<Self::Move>;
    /// The game's pie `swap` move, if it has one.
    const PIE_SWAP: Option<Self::Move>;

    /// Whether a move is the pie `swap`.
    fn is_pie_swap(mv: Self::Move) -> bool {
        Self::PIE_SWAP == Some(mv)
    }

    /// Whether a move is a `pass`.
    fn is_pass(mv: Self::Move) -> bool {
        Self::PASS == Some(mv)
    }

    /// A 64-bit position key (Zobrist): equal for equal positions (board, side to move,
    /// pieces left, pie, pass and komi-phase state, colours), whatever the move order;
    /// different otherwise with overwhelming probability. Kept up to date on every move
    /// (after [`Game::random_playout`], which may skip the updates, it is recomputed
    /// when next needed).
    fn key(&self) -> u64;

    /// The winner once the game is over (`None` while it runs, or for a draw).
    fn winner(&self) -> Option<Seat> {
        self.outcome().1
    }

    /// The most actions (passes and the pie swap included) a game with these parameters
    /// can last, from the start; each game's `docs/games/<game>.md` derives its bound. Loops
    /// that play a game out check it, so a rule bug that made a game endless fails fast.
    fn max_game_length(&self) -> usize;

    /// Makes room in the state's move lists for the longest game
    /// ([`Game::max_game_length`]), so that no later move reallocates: a clone keeps no
    /// spare capacity, so copies made to be played on call this after cloning.
    fn reserve_moves(&mut self) {}

    /// A legal move drawn uniformly from the legal moves, or `None` once over.
    ///
    /// Games override this to draw without listing the moves; the draw must stay
    /// uniform over exactly the list of [`Game::legal_moves_into`].
    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        if moves.is_empty() {
            None
        } else {
            Some(moves[rng.random_range(0..moves.len())])
        }
    }

    /// Plays on to the end, each move drawn by [`Game::random_move`] from `rng`, and says
    /// what happened ([`crate::rules::playout::play_out`]).
    ///
    /// Games override this with a loop that knows their rules (what it need not check
    /// again, the key updates nobody reads during a playout); the moves, the draws and
    /// the final state must stay exactly those of this default.
    ///
    /// # Panics
    /// If the game runs past [`Game::max_game_length`]: a rule bug, not bad input.
    fn random_playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> PlayoutResult {
        crate::rules::playout::play_out_observed(self, rng, |_, _| {})
    }

    /// A move as text, for `format!` and `to_string()`: cell names come from this game's
    /// board.
    fn move_text(&self, mv: Self::Move) -> MoveText<'_, Self> {
        MoveText { game: self, mv }
    }

    /// Number of cells on the board.
    fn num_cells(&self) -> usize {
        self.geometry().len()
    }

    /// Name of a cell index.
    fn cell_name(&self, cell: usize) -> String {
        self.geometry().name(cell).to_string()
    }

    fn is_over(&self) -> bool {
        self.to_move().is_none()
    }

    /// Scores and winner together, scoring the position once.
    #[inline(always)]
    fn outcome(&self) -> (BySeat<Self::Score>, Option<Seat>) {
        let scores = self.scores();
        let winner = if self.is_over() {
            Self::WIN_RULE.winner(scores, self.last_mover())
        } else {
            None
        };
        (scores, winner)
    }

    /// The legal moves in ascending action order.
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// Checks and plays a move; on error the state is unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), MoveErrorOf<Self>> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Parses, checks and plays a move string; on error the state is unchanged.
    fn play_str(&mut self, text: &str) -> Result<Self::Move, MoveErrorOf<Self>> {
        let mv = self.parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Counts the leaves of the game tree `depth` actions deep.
    fn perft(&mut self, depth: u32) -> u64 {
        self.perft_until(depth, &crate::rules::run::Stop::new())
            .expect("a stop never set")
    }

    /// [`Game::perft`], stopping with [`Interrupted`](crate::rules::run::Interrupted)
    /// once `stop` is set (checked at every interior node: microseconds apart).
    ///
    /// # Errors
    /// If `stop` is set before the count ends.
    fn perft_until(
        &mut self,
        depth: u32,
        stop: &crate::rules::run::Stop,
    ) -> Result<u64, crate::rules::run::Interrupted> {
        if depth == 0 {
            return Ok(1);
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return Ok(moves.len() as u64);
        }
        stop.check()?;
        let mut nodes = 0;
        for mv in moves {
            self.play_unchecked(mv);
            let below = self.perft_until(depth - 1, stop);
            self.undo();
            nodes += below?;
        }
        Ok(nodes)
    }
}

/// A move with the game that names its cells: displays as the move's canonical string.
pub struct MoveText<'a, G: Game> {
    game: &'a G,
    mv: G::Move,
}

impl<G: Game> fmt::Display for MoveText<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.fmt_move(self.mv, f)
    }
}

/// `to.clone_from(from)` for shared parts of a state (boards, set-up positions), leaving
/// the reference count alone when both already share one: searches copy their root back
/// on every iteration, and on several threads the count's cache line would bounce
/// between cores.
pub(crate) fn share_from<T: ?Sized>(to: &mut Arc<T>, from: &Arc<T>) {
    if !Arc::ptr_eq(to, from) {
        to.clone_from(from);
    }
}

/// [`share_from`] for an optional shared part.
pub(crate) fn share_option_from<T: ?Sized>(to: &mut Option<Arc<T>>, from: &Option<Arc<T>>) {
    match (to, from) {
        (Some(to), Some(from)) => share_from(to, from),
        (to, from) => to.clone_from(from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_rules_say_which_score_is_better() {
        assert!(WinRule::LowerWinsTiesDraw.lower_score_wins());
        assert!(!WinRule::HigherWinsLastMoverLosesTies.lower_score_wins());
        assert_eq!(WinRule::LowerWinsTiesDraw.name(), "lower score wins");
        assert_eq!(WinRule::HigherWinsLastMoverLosesTies.name(), "higher score wins");
    }

    #[test]
    fn cells_are_named_by_the_geometry() {
        let tabik = crate::Tabik::new(crate::TabikConfig { size: 4, pie: true }).unwrap();
        let names: Vec<String> = (0..tabik.num_cells()).map(|c| tabik.cell_name(c)).collect();
        assert_eq!(names.len(), 16);
        assert_eq!(
            (
                names[0].as_str(),
                names[1].as_str(),
                names[4].as_str(),
                names[15].as_str()
            ),
            ("a1", "b1", "a2", "d4")
        );
    }

    #[test]
    fn win_rules() {
        use WinRule::*;
        let last = Some(Seat::First);
        assert_eq!(
            HigherWinsLastMoverLosesTies.winner(BySeat([0, 0]), last),
            Some(Seat::Second)
        );
        assert_eq!(
            HigherWinsLastMoverLosesTies.winner(BySeat([0, 0]), Some(Seat::Second)),
            Some(Seat::First)
        );
        assert_eq!(
            HigherWinsLastMoverLosesTies.winner(BySeat([1, 3]), last),
            Some(Seat::Second)
        );
        assert_eq!(
            HigherWinsLastMoverLosesTies.winner(BySeat([3, 1]), last),
            Some(Seat::First)
        );
        assert_eq!(
            LowerWinsTiesDraw.winner(BySeat([1.5, 3.0]), last),
            Some(Seat::First)
        );
        assert_eq!(
            LowerWinsTiesDraw.winner(BySeat([3.0, 1.5]), last),
            Some(Seat::Second)
        );
        assert_eq!(LowerWinsTiesDraw.winner(BySeat([2.0, 2.0]), last), None);
    }
}
