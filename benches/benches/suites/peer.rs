//! `peer/...`: Jumpy3 from the start with the sheet's estimate, this engine against the
//! `minimax` crate, at the same depths (the report's table goes deeper and checks values).

use criterion::{BatchSize, Criterion};
use jumpy3::Position;
use minimax::{IterativeOptions, IterativeSearch, ParallelOptions, ParallelSearch, Strategy};
use plyforge::{jumpy3, search};
use search::Limits;

use crate::jumpy3_peer::{from_position, SheetEval};

use benches::peer::{ours, TABLE_MIB};

fn options() -> IterativeOptions {
    IterativeOptions::new().with_table_byte_size(TABLE_MIB << 20)
}

/// The benches.
pub fn benches(c: &mut Criterion) {
    let start = Position::start();
    let board = from_position(&start);
    let mut g = c.benchmark_group("peer");
    for depth in [12u8, 16] {
        g.bench_function(format!("ours-1t/d{depth}"), |b| {
            b.iter_batched_ref(
                || ours(1),
                |s| {
                    s.run(&start, &[], Limits::depth(depth as u32), |_| {})
                        .score
                },
                BatchSize::PerIteration,
            )
        });
        g.bench_function(format!("minimax-iterative-1t/d{depth}"), |b| {
            b.iter_batched_ref(
                || {
                    let mut s = IterativeSearch::new(SheetEval::default(), options());
                    s.set_max_depth(depth);
                    s
                },
                |s| s.choose_move(&board),
                BatchSize::PerIteration,
            )
        });
        g.bench_function(format!("ours-2t/d{depth}"), |b| {
            b.iter_batched_ref(
                || ours(2),
                |s| {
                    s.run(&start, &[], Limits::depth(depth as u32), |_| {})
                        .score
                },
                BatchSize::PerIteration,
            )
        });
        g.bench_function(format!("minimax-parallel-2t/d{depth}"), |b| {
            b.iter_batched_ref(
                || {
                    let mut s = ParallelSearch::new(
                        SheetEval::default(),
                        options(),
                        ParallelOptions::new().with_num_threads(2),
                    );
                    s.set_max_depth(depth);
                    s
                },
                |s| s.choose_move(&board),
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}
