//! Perft counts from `tests/data/<game>.perft` (format in `tests/perft.py`), computed by
//! the engine's `Game::perft`; the reference computed the same counts (checked by
//! `pytest -k perft`).

mod common;

use std::path::PathBuf;

use common::Params;
use territory::Game;

struct Entry {
    id: String,
    params: String,
    moves: Vec<String>,
    counts: Vec<(u32, u64)>,
}

fn read(game: &str) -> Vec<Entry> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(format!("{game}.perft"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut entries: Vec<Entry> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        if key == "id" {
            entries.push(Entry {
                id: value.to_string(),
                params: String::new(),
                moves: Vec::new(),
                counts: Vec::new(),
            });
            continue;
        }
        let entry = entries.last_mut().expect("an id line first");
        match key {
            "params" => entry.params = value.to_string(),
            "moves" => {
                entry.moves = value
                    .split(';')
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(String::from)
                    .collect()
            }
            "perft" => {
                let (depth, count) = value.split_once(' ').expect("perft <depth> <count>");
                entry
                    .counts
                    .push((depth.parse().unwrap(), count.parse().unwrap()));
            }
            _ => panic!("{}: unknown line {line:?}", path.display()),
        }
    }
    assert!(!entries.is_empty(), "{} has no entries", path.display());
    entries
}

fn check<G: Game>(game: &str, start: impl Fn(&Params) -> G) {
    for entry in read(game) {
        let mut state = start(&Params::parse(&entry.params));
        for mv in &entry.moves {
            state
                .play_str(mv)
                .unwrap_or_else(|e| panic!("{}: cannot play {mv}: {e}", entry.id));
        }
        assert!(!entry.counts.is_empty(), "{}: no perft lines", entry.id);
        for &(depth, count) in &entry.counts {
            assert_eq!(state.perft(depth), count, "{} perft {depth}", entry.id);
        }
        assert_eq!(
            state.history().len(),
            entry.moves.len(),
            "perft changed the position"
        );
    }
}

#[test]
fn tabik_perft() {
    check("tabik", Params::tabik);
}

#[test]
fn nume_perft() {
    check("nume", Params::nume);
}

#[test]
fn migong_perft() {
    check("migong", Params::migong);
}
