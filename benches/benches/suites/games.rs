//! `<game>/...`: move generation, perft, evaluation and fixed-depth search, per game.

use plyforge::{chaosclock, chexers, jumpy3, search, throne};
use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput};
use search::{Evaluator, Limits, MoveList};

use benches::games::{engine, BenchGame};
use benches::perft;

fn suite<G: BenchGame>(c: &mut Criterion) {
    let positions = G::positions();
    let name = G::NAME;
    let depths = G::DEPTHS;
    let mut g = c.benchmark_group(name);

    // Every position's legal moves, each played (copy-make).
    let moves: u64 = positions.iter().map(|e| perft(&e.position, 1)).sum();
    g.throughput(Throughput::Elements(moves));
    g.bench_function("movegen", |b| {
        b.iter(|| {
            let mut n = 0;
            for e in &positions {
                let mut list = MoveList::new();
                black_box(&e.position).legal_moves(&mut list);
                for &m in &list {
                    let mut child = e.position.clone();
                    child.play(m);
                    n ^= black_box(child.key());
                }
            }
            n
        })
    });

    // The quick mode's perft depth keeps a sample short.
    let perft_depth = depths.perft_quick;
    let leaves: u64 = positions
        .iter()
        .map(|e| perft(&e.position, perft_depth))
        .sum();
    g.throughput(Throughput::Elements(leaves));
    g.bench_function(format!("perft/d{}", perft_depth), |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|e| perft(black_box(&e.position), perft_depth))
                .sum::<u64>()
        })
    });

    let eval = G::eval();
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("eval", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|e| eval.evaluate(black_box(&e.position))[0])
                .fold(0i64, |a, v| a + v as i64)
        })
    });

    for threads in [1, 2] {
        for e in &positions {
            g.bench_function(
                format!("search-{threads}t/d{}/{}", depths.bench, e.label),
                |b| {
                    b.iter_batched_ref(
                        || {
                            // Allocate the table outside the measurement, then empty it.
                            let mut s = engine::<G>(threads);
                            s.run(&e.position, &[], Limits::depth(1), |_| {});
                            s.clear();
                            s
                        },
                        |s| {
                            s.run(&e.position, &[], Limits::depth(depths.bench), |_| {})
                                .nodes
                        },
                        BatchSize::PerIteration,
                    )
                },
            );
        }
    }
    g.finish();
}

/// The Jumpy3 suite.
pub fn jumpy3(c: &mut Criterion) {
    suite::<jumpy3::Position>(c);
}

/// The Chexers suite.
pub fn chexers(c: &mut Criterion) {
    suite::<chexers::Position>(c);
}

/// The Throne suite.
pub fn throne(c: &mut Criterion) {
    suite::<throne::Position>(c);
}

/// The Chaos Clock suite.
pub fn chaosclock(c: &mut Criterion) {
    suite::<chaosclock::Position>(c);
}
