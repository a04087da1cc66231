//! Typed move errors: the reason is a value, never a string to search.

use territory::{
    Cell, Coord, Excerpt, Game, IllegalMove, InvalidMove, Migong, MigongConfig, MigongIllegal,
    MigongInvalid, MoveError, Nume, NumeConfig, NumeIllegal, NumeInvalid, Tabik, TabikConfig,
    TabikIllegal,
};

fn c(name: &str) -> Coord {
    Coord::parse(name).unwrap()
}

/// The index of a named cell, as moves carry it.
fn cell<G: Game>(game: &G, name: &str) -> Cell {
    game.geometry().cell(c(name)).unwrap()
}

fn tabik(size: usize) -> Tabik {
    Tabik::new(TabikConfig { size, pie: true }).unwrap()
}

#[test]
fn tabik_reasons() {
    let mut g = tabik(16);
    assert!(matches!(
        g.parse_move("zz"),
        Err(InvalidMove::Syntax { game: "Tabik", .. })
    ));
    // Only "-" and "x" join two squares, each a lower-case letter and digits.
    // A side that is not a square is a syntax error even beside a row 0 ("a0-b").
    let malformed = ["b2+b3", "b2=b3", "b2 b3", "b2-B3", "B2-b3", "b2-bb3", "b2-b3c", "a0-b", "b-a0"];
    for text in malformed {
        assert!(matches!(g.parse_move(text), Err(InvalidMove::Syntax { game: "Tabik", .. })), "{text}");
    }
    assert_eq!(g.parse_move("a0-a1"), Err(InvalidMove::RowZero('a')));
    assert_eq!(
        g.parse_move("q16-p16"),
        Err(InvalidMove::OffBoard {
            cell: c("q16"),
            side: Some(16)
        })
    );
    assert!(g.parse_move("o16-p16").is_ok());
    assert_eq!(
        g.play_str("a1-c1"),
        Err(TabikIllegal::NotAdjacent(c("a1"), c("c1")).into())
    );
    assert_eq!(g.play_str("swap"), Err(IllegalMove::SwapNotNow.into()));
    assert!(matches!(
        g.play_str("pass"),
        Err(MoveError::Illegal(IllegalMove::PassNotAllowed {
            legal: 960
        }))
    ));
    g.play_str("a1-a2").unwrap();
    assert_eq!(
        g.play_str("a2-a3"),
        Err(IllegalMove::Occupied(c("a2")).into())
    );
    assert_eq!(
        g.play_str("a1xa2"),
        Err(TabikIllegal::Rod(c("a1"), c("a2")).into())
    );
    assert_eq!(
        g.play_str("a3xa4"),
        Err(TabikIllegal::NoStoneToSwap(c("a3")).into())
    );
    // A move value off the board is invalid, before any legality.
    let g = tabik(8);
    let off = territory::TabikMove::Place {
        black: 200,
        white: 201,
    };
    assert_eq!(
        g.check(off),
        Err(InvalidMove::CellIndex {
            cell: 200,
            cells: 64
        }
        .into())
    );
    assert_eq!(
        g.check(off).unwrap_err().to_string(),
        "cell index 200 is not on the board (its cells are 0 to 63)"
    );
    assert_eq!(g.action_of(off), None);
    assert!(g.move_cells(off).is_empty());
    let swap = territory::TabikMove::StoneSwap {
        first: 63,
        second: 64,
    };
    assert!(g.check(swap).unwrap_err().is_invalid());
    assert_eq!(g.action_of(swap), None);
    assert_eq!(g.move_text(swap).to_string(), "h8x#64");
}

#[test]
fn nume_reasons() {
    let mut g = Nume::new(NumeConfig {
        n: 1,
        ..NumeConfig::default()
    })
    .unwrap();
    let huge = format!("c1={}", "9".repeat(5000));
    let err = g.parse_move(&huge).unwrap_err();
    assert!(matches!(
        err,
        InvalidMove::Game(NumeInvalid::NumberTooLarge(_))
    ));
    assert!(err.to_string().len() < 200, "{err}");
    assert!(matches!(
        g.parse_move("c1=07"),
        Err(InvalidMove::Game(NumeInvalid::Number(_)))
    ));
    assert!(matches!(
        g.parse_move("komi 7.5 white"),
        Err(InvalidMove::Game(NumeInvalid::KomiTooLarge { max: 6, .. }))
    ));
    assert!(matches!(
        g.parse_move("komi 6.5 red"),
        Err(InvalidMove::Game(NumeInvalid::ColorWord(_)))
    ));
    assert_eq!(
        g.parse_move("c3"),
        Err(InvalidMove::OffBoard {
            cell: c("c3"),
            side: None
        })
    );
    assert_eq!(
        g.play_str("komi 2.5 white"),
        Err(NumeIllegal::NotKomiPhase.into())
    );
    assert_eq!(
        g.play_str("c1"),
        Err(NumeIllegal::NumberRequired(c("c1")).into())
    );
    g.play_str("c1=2147483647").unwrap();
    assert_eq!(
        g.play_str("c1=1"),
        Err(IllegalMove::Occupied(c("c1")).into())
    );
    let big = territory::NumeMove::Place {
        cell: cell(&g, "b1"),
        number: Some(u32::MAX),
    };
    assert!(g.check(big).unwrap_err().is_invalid());
    let off = territory::NumeMove::Place {
        cell: 6,
        number: None,
    };
    assert_eq!(
        g.check(off),
        Err(InvalidMove::CellIndex { cell: 6, cells: 6 }.into())
    );
    assert_eq!(g.action_of(off), None);
}

#[test]
fn migong_reasons() {
    let mut g = Migong::new(MigongConfig::default()).unwrap();
    assert_eq!(
        g.parse_move("g7:BBBBBB"),
        Err(MigongInvalid::CentralBorder(c("g7")).into())
    );
    assert!(matches!(
        g.parse_move("h7:BBBBBX"),
        Err(InvalidMove::Game(MigongInvalid::Piece(_)))
    ));
    assert!(matches!(
        g.play_str("h7:BBBBBB"),
        Err(MoveError::Illegal(IllegalMove::Game(
            MigongIllegal::DoesNotFit {
                direction: 3,
                neighbour: None,
                ..
            }
        )))
    ));
    assert!(matches!(
        g.play_str("h7:YYYYYY"),
        Err(MoveError::Illegal(IllegalMove::Game(
            MigongIllegal::NotInSet { .. }
        )))
    ));
    g.play_str("h7:BBBYBB").unwrap();
    let yellow = g
        .legal_moves()
        .into_iter()
        .find(|&m| !g.move_text(m).to_string().starts_with("h8:"))
        .unwrap();
    g.play(yellow).unwrap();
    assert!(matches!(
        g.play_str("h8:BBBYBB"),
        Err(MoveError::Illegal(IllegalMove::Game(
            MigongIllegal::AlreadyUsed { .. }
        )))
    ));
    let bad_piece = territory::MigongMove::Place {
        cell: cell(&g, "h8"),
        piece: territory::games::migong::Piece(200),
    };
    let off = territory::MigongMove::Place {
        cell: 126,
        piece: territory::games::migong::Piece(1),
    };
    assert_eq!(
        g.check(off),
        Err(InvalidMove::CellIndex {
            cell: 126,
            cells: 126
        }
        .into())
    );
    assert_eq!(g.action_of(off), None);
    assert!(g.check(bad_piece).unwrap_err().is_invalid());
}

#[test]
fn excerpt_in_messages() {
    let g = tabik(4);
    let text = "x".repeat(100_000);
    let message = g.parse_move(&text).unwrap_err().to_string();
    assert!(message.contains(&Excerpt::new(&text).to_string()));
    assert!(message.len() < 200, "{message}");
}

/// Move values built in code with every cell index 0..=255: an index off the board is
/// refused by `check` as `CellIndex` (never a panic) and has no action or cells; one on
/// the board prints as a move string that parses back to it.
fn any_cell_index<G: Game>(game: &G, moves: impl Fn(Cell) -> Vec<G::Move>) {
    for cell in 0..=255u8 {
        for mv in moves(cell) {
            let cells = game.num_cells();
            let text = game.move_text(mv).to_string();
            if usize::from(cell) < cells {
                assert!(
                    !matches!(
                        game.check(mv),
                        Err(MoveError::Invalid(InvalidMove::CellIndex { .. }))
                    ),
                    "{text}"
                );
                assert_eq!(game.parse_move(&text), Ok(mv), "{text}");
            } else {
                let refused = Err(InvalidMove::CellIndex {
                    cell: usize::from(cell),
                    cells,
                }
                .into());
                assert_eq!(game.check(mv), refused, "{text}");
                assert_eq!(game.action_of(mv), None, "{text}");
                assert!(text.contains(&format!("#{cell}")), "{text}");
                let mut copy = game.clone();
                assert!(copy.play(mv).is_err());
                assert_eq!(copy.history(), game.history());
            }
        }
    }
}

#[test]
fn move_values_with_any_cell_index() {
    use territory::{MigongMove, NumeMove, TabikMove};
    for size in [2, 5, 8, 9, 16] {
        let mut g = tabik(size);
        g.play_str("a1-a2").unwrap();
        // A placement or stone swap with the cell in either place; the other on the board.
        any_cell_index(&g, |c| {
            vec![
                TabikMove::Place { black: c, white: 0 },
                TabikMove::Place { black: 1, white: c },
                TabikMove::StoneSwap {
                    first: 0,
                    second: c.max(1),
                },
            ]
        });
    }
    for config in [
        NumeConfig::default(),
        NumeConfig {
            n: 8,
            ..NumeConfig::default()
        },
        NumeConfig {
            square: Some(16),
            ..NumeConfig::default()
        },
    ] {
        let g = Nume::new(config).unwrap();
        any_cell_index(&g, |cell| {
            [None, Some(0), Some(7)]
                .map(|number| NumeMove::Place { cell, number })
                .to_vec()
        });
    }
    let g = Migong::new(MigongConfig::default()).unwrap();
    any_cell_index(&g, |cell| {
        [0, 21, 63]
            .map(|p| MigongMove::Place {
                cell,
                piece: territory::games::migong::Piece(p),
            })
            .to_vec()
    });
}

/// Each game's own reasons: the stable code the Python exception carries as `.kind`
/// (docs/games/<game>.md lists them), and the message it shows.
#[test]
fn every_games_reasons_have_their_codes_and_messages() {
    fn check<R: territory::Reason>(cases: Vec<(R, &str, &str)>) {
        for (reason, kind, said) in cases {
            assert_eq!(
                (reason.kind(), reason.to_string().as_str()),
                (kind, said),
                "{reason:?}"
            );
        }
    }
    use territory::games::migong::Piece;
    use territory::Color;
    let (a, b, piece) = (c("b2"), c("b3"), Piece(0b100001));
    check(vec![
        (
            MigongInvalid::CentralBorder(c("g7")),
            "central_border",
            "g7 is the central border, not a cell",
        ),
        (
            MigongInvalid::Piece(Excerpt::new("BBX")),
            "piece",
            "'BBX' is not a piece: six letters B or Y, for wedges E, NE, NW, W, SW, SE",
        ),
    ]);
    check(vec![
        (
            MigongIllegal::NotInSet {
                piece: Piece(0b111111),
                color: Color::First,
            },
            "not_in_set",
            "YYYYYY is not in blue's set: blue's pieces have at least one B wedge",
        ),
        (
            MigongIllegal::AlreadyUsed {
                piece,
                color: Color::Second,
            },
            "already_used",
            "yellow has already used YBBBBY",
        ),
        (
            MigongIllegal::DoesNotFit {
                piece,
                cell: a,
                direction: 1,
                needed: Color::Second,
                neighbour: Some(b),
            },
            "does_not_fit",
            "YBBBBY does not fit on b2: its NE wedge must be Y to match the piece on b3",
        ),
        (
            MigongIllegal::NoFit { piece, cell: a },
            "no_fit",
            "YBBBBY does not fit on b2",
        ),
    ]);
    check(vec![
        (
            NumeInvalid::Number(Excerpt::new("07")),
            "number",
            "'07': the number must be a whole number from 0 to 2147483647 written plainly",
        ),
        (
            NumeInvalid::NumberTooLarge(Excerpt::new("9999999999")),
            "number_too_large",
            "'9999999999': the number is above the largest allowed, 2147483647",
        ),
        (
            NumeInvalid::Komi(Excerpt::new("2")),
            "komi",
            "'2': the komi must be k + 0.5 with k a whole number, like 2.5",
        ),
        (
            NumeInvalid::KomiTooLarge {
                text: Excerpt::new("9.5"),
                max: 6,
            },
            "komi_too_large",
            "'9.5': the komi may be at most 6.5 (the number of cells plus one half)",
        ),
        (
            NumeInvalid::ColorWord(Excerpt::new("red")),
            "color_word",
            "'red': expected 'black' or 'white'",
        ),
    ]);
    check(vec![
        (
            NumeIllegal::BoardFull,
            "board_full",
            "the game is over: the board is full",
        ),
        (
            NumeIllegal::NumberRequired(a),
            "number_required",
            "a stone on b2 starts a new group and must carry a number, like 'b2=3'",
        ),
        (
            NumeIllegal::NumberForbidden(a),
            "number_forbidden",
            "a stone on b2 joins a group of its colour and must carry no number: play 'b2'",
        ),
        (
            NumeIllegal::KomiFirst,
            "komi_first",
            "seat 0 must first choose the komi, like 'komi 2.5 white'",
        ),
        (
            NumeIllegal::SideFirst,
            "side_first",
            "seat 1 must first choose a colour: 'side black' or 'side white'",
        ),
        (
            NumeIllegal::NotKomiPhase,
            "not_komi_phase",
            "komi and side moves only belong to the komi phase",
        ),
    ]);
    check(vec![
        (
            TabikIllegal::NotAdjacent(a, c("d4")),
            "not_adjacent",
            "squares b2 and d4 are not adjacent",
        ),
        (
            TabikIllegal::NoStoneToSwap(a),
            "no_stone_to_swap",
            "square b2 is empty: no stone to swap",
        ),
        (
            TabikIllegal::SameColour(a, b),
            "same_colour",
            "b2 and b3 hold stones of the same colour",
        ),
        (
            TabikIllegal::Rod(a, b),
            "rod",
            "a rod lies between b2 and b3",
        ),
    ]);
}
