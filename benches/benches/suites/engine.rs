//! `engine/<case>/<threads>t`: fixed-depth searches of synthetic trees.

use criterion::{BatchSize, Criterion};
use plyforge::search;
use search::Limits;

use benches::cases::engine_cases;

/// The cases one ply shallower than the report's, so that a sample stays short.
pub fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("engine");
    for case in engine_cases() {
        let root = case.root();
        let depth = case.depth.saturating_sub(1).max(1);
        for threads in [1, 2] {
            g.bench_function(format!("{}/d{depth}/{threads}t", case.name), |b| {
                b.iter_batched_ref(
                    || {
                        // Allocate the table outside the measurement, then empty it.
                        let mut e = case.engine(threads);
                        e.run(&root, &[], Limits::depth(1), |_| {});
                        e.clear();
                        e
                    },
                    |e| e.run(&root, &[], Limits::depth(depth), |_| {}).nodes,
                    BatchSize::PerIteration,
                )
            });
        }
    }
    g.finish();
}
