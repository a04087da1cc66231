//! Criterion benchmarks: uniform random playouts inside the engine, one thread.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use territory::rules::playout::{game_rng, play_out, restart};
use territory::{Game, Migong, MigongConfig, Nume, NumeConfig, Tabik, TabikConfig};

fn bench_game<G: Game>(c: &mut Criterion, name: &str, start: G) {
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(1));
    let mut game = start.clone();
    let mut index = 0u64;
    group.bench_function(name, |b| {
        b.iter(|| {
            restart(&mut game, &start);
            index += 1;
            play_out(&mut game, &mut game_rng(1, index))
        })
    });
    group.finish();
}

fn playouts(c: &mut Criterion) {
    bench_game(c, "tabik_8x8", Tabik::new(TabikConfig::default()).unwrap());
    bench_game(c, "migong", Migong::new(MigongConfig::default()).unwrap());
    bench_game(c, "nume_hex4", Nume::new(NumeConfig::default()).unwrap());
    bench_game(
        c,
        "nume_square9",
        Nume::new(NumeConfig {
            square: Some(9),
            ..NumeConfig::default()
        })
        .unwrap(),
    );
}

criterion_group!(benches, playouts);
criterion_main!(benches);
