//! The pinned checksums of seeded random playouts (`tests/data/<game>.playouts.json` for
//! every game of the registry, written by `tests/pin_playouts.py` through the Python
//! package) recomputed by the
//! engine alone, so that every platform that runs `cargo test` (aarch64 and Windows under
//! emulation included: `.ci/cross`) checks the same results without Python.
//!
//! The digest is the one `pin_playouts.py` computes: SHA-256 over each result field's
//! name and its values as little-endian bytes (winner int8, length and passes uint32,
//! swapped bool as one byte, scores float64 seat by seat), then the move strings of the
//! first and the last game's replay, joined by spaces.

use std::path::PathBuf;

use sha2::{Digest, Sha256};
use territory::rules::params::{Config, Configurable, Value};
use territory::rules::playout::{self, PlayoutResult};
use territory::{with_game, Game, GameKind};

/// Every game's pinned runs, by key (read at run time, like the perft files, so that a new
/// game adds its file and touches no shared one).
fn pinned() -> serde_json::Map<String, serde_json::Value> {
    let mut all = serde_json::Map::new();
    for kind in GameKind::ALL {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data")
            .join(format!("{}.playouts.json", kind.name()));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let runs: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
        assert!(!runs.is_empty(), "{} pins no run", path.display());
        all.extend(runs);
    }
    all
}

/// One pinned run: `game {params as JSON} games=N seed=S`.
struct Run {
    kind: GameKind,
    params: serde_json::Map<String, serde_json::Value>,
    games: usize,
    seed: u64,
}

fn parse(key: &str) -> Run {
    let (game, rest) = key.split_once(' ').expect("a game name first");
    let (params, rest) = rest.split_once(" games=").expect("games=");
    let (games, seed) = rest.split_once(" seed=").expect("seed=");
    Run {
        kind: GameKind::from_name(game).expect("a game of the registry"),
        params: serde_json::from_str(params).expect("parameters as a JSON object"),
        games: games.parse().expect("a number of games"),
        seed: seed.parse().expect("a seed"),
    }
}

fn value(json: &serde_json::Value) -> Value<'_> {
    match json {
        serde_json::Value::Null => Value::None,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i.into()),
            None => Value::Float(n.as_f64().expect("a number")),
        },
        serde_json::Value::String(s) => Value::Str(s),
        other => panic!("no parameter takes {other}"),
    }
}

fn checksum<G: Game + Configurable>(run: &Run) -> String {
    let params = <G::Config as Config>::PARAMS;
    for name in run.params.keys() {
        assert!(
            params.iter().any(|p| p.name == name),
            "{} has no parameter {name}",
            G::NAME
        );
    }
    let values: Vec<Value<'_>> = params
        .iter()
        .map(|p| run.params.get(p.name).map_or(p.default, value))
        .collect();
    let config =
        <G::Config as Config>::from_values(&values).expect("pinned parameters are allowed");
    let start = G::with_config(config).expect("a game");

    let mut results = vec![PlayoutResult::default(); run.games];
    playout::run(
        &start,
        run.seed,
        0,
        &mut results,
        Some(2),
        &Default::default(),
    )
    .expect("two threads");
    let mut digest = Sha256::new();
    let mut field = |name: &str, bytes: Vec<u8>| {
        digest.update(name.as_bytes());
        digest.update(bytes);
    };
    field("winner", results.iter().map(|r| r.winner as u8).collect());
    field(
        "length",
        results
            .iter()
            .flat_map(|r| r.length.to_le_bytes())
            .collect(),
    );
    field(
        "passes",
        results
            .iter()
            .flat_map(|r| r.passes.to_le_bytes())
            .collect(),
    );
    field("swapped", results.iter().map(|r| r.swapped as u8).collect());
    field(
        "scores",
        results
            .iter()
            .flat_map(|r| r.scores)
            .flat_map(f64::to_le_bytes)
            .collect(),
    );
    for index in [0, run.games as u64 - 1] {
        let game = playout::replay(&start, run.seed, index);
        let moves: Vec<String> = game
            .history()
            .iter()
            .map(|&m| game.move_text(m).to_string())
            .collect();
        digest.update(moves.join(" ").as_bytes());
    }
    format!("{:x}", digest.finalize())
}

#[test]
fn seeded_playouts_match_the_pinned_checksums() {
    let pinned = pinned();
    assert!(pinned.len() >= 40, "only {} pinned runs", pinned.len());
    let mut wrong = Vec::new();
    for (key, expected) in &pinned {
        let run = parse(key);
        let got = with_game!(run.kind, G => checksum::<G>(&run));
        if Some(got.as_str()) != expected.as_str() {
            wrong.push(format!("{key}: got {got}, pinned {expected}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} runs changed:\n{}",
        wrong.len(),
        pinned.len(),
        wrong.join("\n")
    );
}
