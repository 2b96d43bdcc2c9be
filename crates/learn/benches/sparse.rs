//! A search's leaf with a sparse network: the accumulator brought to a position that
//! differs from the last one in 2 to 4 features per perspective, then the layers after it.
//! For widths 64, 128 and 256, one perspective and two, each instruction set this
//! processor has, the changes found by the merge walk (`list`) or given (`delta`).
//! Then the trainer's throughput (`sparse-train`).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput};
use plyforge_learn::sparse::kernels::Simd;
use plyforge_learn::sparse::{
    Delta, SparseAccumulator, SparseDataset, SparseNet, SparseShape, SparseTrainer,
};
use plyforge_learn::TrainSettings;

/// Features of the bench's "game" (say 2 sides × 8 kinds × 32 cells).
const FEATURES: usize = 512;
/// Active features per perspective.
const ACTIVE: usize = 24;
/// Positions in a walk.
const WALK: usize = 512;

/// SplitMix64, for a fixed walk.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((u128::from(z ^ (z >> 31)) * n as u128) >> 64) as usize
    }
}

/// One position's change of one perspective: features added and removed.
type Change = (Vec<u32>, Vec<u32>);

/// The changes from `old` to `new` (both sorted).
fn diff(old: &[u32], new: &[u32]) -> Change {
    let added = new
        .iter()
        .filter(|f| old.binary_search(f).is_err())
        .copied()
        .collect();
    let removed = old
        .iter()
        .filter(|f| new.binary_search(f).is_err())
        .copied()
        .collect();
    (added, removed)
}

/// A walk of positions (each perspective's sorted list) that goes out and comes back, so
/// that it repeats without a jump, and each position's changes from the one before.
fn walk(perspectives: usize) -> (Vec<Vec<Vec<u32>>>, Vec<Vec<Change>>) {
    let mut rng = Rng(42);
    let mut lists: Vec<Vec<u32>> = (0..perspectives)
        .map(|_| {
            let mut l: Vec<u32> = Vec::new();
            while l.len() < ACTIVE {
                let f = rng.below(FEATURES) as u32;
                if let Err(i) = l.binary_search(&f) {
                    l.insert(i, f);
                }
            }
            l
        })
        .collect();
    let mut out = vec![lists.clone()];
    for _ in 1..WALK / 2 {
        for l in &mut lists {
            // A move: one feature out, one in; now and then a capture or a promotion too.
            let (outs, ins) = match l.len() {
                n if n < ACTIVE - 4 => (1, 2),
                n if n > ACTIVE + 4 => (2, 1),
                _ => [(1, 1), (2, 1), (1, 2), (2, 2)][rng.below(4)],
            };
            for _ in 0..outs {
                l.remove(rng.below(l.len()));
            }
            let mut added = 0;
            while added < ins {
                let f = rng.below(FEATURES) as u32;
                if let Err(i) = l.binary_search(&f) {
                    l.insert(i, f);
                    added += 1;
                }
            }
        }
        out.push(lists.clone());
    }
    for i in (1..out.len() - 1).rev() {
        out.push(out[i].clone());
    }
    let n = out.len();
    let changes = (0..n)
        .map(|i| {
            let before = &out[(i + n - 1) % n];
            before
                .iter()
                .zip(&out[i])
                .map(|(o, p)| diff(o, p))
                .collect()
        })
        .collect();
    (out, changes)
}

/// A group of `samples` samples of `secs` seconds after a short warm-up.
fn group<'a>(
    c: &'a mut Criterion,
    name: &str,
    samples: usize,
    secs: u64,
) -> criterion::BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(samples)
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(secs));
    group
}

/// The bench's shape: [`FEATURES`] features, 2 outputs, no second hidden layer.
fn shape(width: usize, perspectives: usize) -> SparseShape {
    SparseShape {
        features: FEATURES,
        width,
        perspectives,
        l2: None,
        outputs: 2,
    }
}

/// Measures `leaf(i)` for i = 1, 2, …, n − 1, 0, 1, … (one leaf an iteration).
fn cycle<T>(b: &mut criterion::Bencher<'_>, n: usize, mut leaf: impl FnMut(usize) -> T) {
    let mut i = 0;
    b.iter(|| {
        i += 1;
        if i == n {
            i = 0;
        }
        black_box(leaf(i))
    })
}

/// A search's leaves in depth-first order: a tree of depth 4 and 6 moves a node, each move
/// changing 2 to 4 features of each view.
fn dfs_leaves(perspectives: usize) -> Vec<Vec<Vec<u32>>> {
    fn visit(rng: &mut Rng, lists: &[Vec<u32>], depth: usize, out: &mut Vec<Vec<Vec<u32>>>) {
        if depth == 0 {
            out.push(lists.to_vec());
            return;
        }
        for _ in 0..6 {
            let mut child = lists.to_vec();
            for l in &mut child {
                for _ in 0..1 + rng.below(2) {
                    l.remove(rng.below(l.len()));
                    loop {
                        let f = rng.below(FEATURES) as u32;
                        if let Err(i) = l.binary_search(&f) {
                            l.insert(i, f);
                            break;
                        }
                    }
                }
            }
            visit(rng, &child, depth - 1, out);
        }
    }
    let (start, _) = walk(perspectives);
    let mut out = Vec::new();
    visit(&mut Rng(5), &start[0], 4, &mut out);
    out
}

/// Leaves in depth-first order with 1, 2 and 4 remembered positions a view.
fn slots(c: &mut Criterion) {
    let mut group = group(c, "sparse-slots", 20, 1);
    let leaves = dfs_leaves(2);
    let shape = shape(128, 2);
    let (quant, _) = SparseNet::new("bench", shape, 1).unwrap().quantize();
    for slots in [1, 2, 4] {
        let mut acc = SparseAccumulator::with_slots(slots);
        let mut out = [0.0f32; 2];
        for leaf in &leaves {
            quant.evaluate(leaf, &mut acc, &mut out);
        }
        let s = acc.stats();
        eprintln!(
            "{slots} slots: {:.1} rows a view, {:.1}% refreshed",
            s.rows as f64 / s.views as f64,
            100.0 * s.refreshes as f64 / s.views as f64
        );
        group.bench_function(BenchmarkId::new("dfs/p2/128", slots), |b| {
            cycle(b, leaves.len(), |i| {
                quant.evaluate(&leaves[i], &mut acc, &mut out);
                out
            })
        });
    }
    group.finish();
}

fn leaf(c: &mut Criterion) {
    let mut group = group(c, "sparse-leaf", 20, 1);
    let mut sets = vec![Simd::Portable];
    sets.extend(Simd::avx2());
    // One view and two at widths 64, 128, 256; and one with a second hidden layer of 16.
    let cases = [(1, 64, None), (1, 128, None), (1, 256, None)]
        .into_iter()
        .chain([
            (2, 64, None),
            (2, 128, None),
            (2, 256, None),
            (2, 128, Some(16)),
        ]);
    for (perspectives, width, l2) in cases {
        let (positions, changes) = walk(perspectives);
        let shape = SparseShape {
            l2,
            ..shape(width, perspectives)
        };
        let (mut quant, _) = SparseNet::new("bench", shape, 1).unwrap().quantize();
        for &simd in &sets {
            quant.set_simd(simd);
            let l2 = l2.map_or(String::new(), |l2| format!("/l2-{l2}"));
            let name = format!("{}/p{perspectives}{l2}", simd.name());
            group.bench_function(BenchmarkId::new(format!("list/{name}"), width), |b| {
                let mut acc = SparseAccumulator::new();
                let mut out = [0.0f32; 2];
                cycle(b, positions.len(), |i| {
                    quant.evaluate(&positions[i], &mut acc, &mut out);
                    out
                })
            });
            group.bench_function(BenchmarkId::new(format!("delta/{name}"), width), |b| {
                let mut acc = SparseAccumulator::new();
                let mut out = [0.0f32; 2];
                quant.evaluate(&positions[0], &mut acc, &mut out);
                let deltas: Vec<Vec<Delta<'_>>> = changes
                    .iter()
                    .map(|step| {
                        step.iter()
                            .map(|(a, r)| Delta {
                                added: a,
                                removed: r,
                            })
                            .collect()
                    })
                    .collect();
                cycle(b, positions.len(), |i| {
                    quant.evaluate_after(&deltas[i], &mut acc, &mut out);
                    out
                })
            });
        }
    }
    group.finish();
}

/// Training: epochs over 16384 positions of F = 512, H = 128, P = 2 (24 active features a
/// view), batches of 1024 and 16384, on 1 and 2 threads; throughput in positions.
fn train(c: &mut Criterion) {
    let mut group = group(c, "sparse-train", 10, 4);
    let shape = shape(128, 2);
    let samples = 16384;
    let mut data = SparseDataset::new(shape);
    let mut rng = Rng(7);
    for _ in 0..samples {
        let lists: Vec<Vec<u32>> = (0..2)
            .map(|_| {
                let mut l: Vec<u32> = (0..ACTIVE).map(|_| rng.below(FEATURES) as u32).collect();
                l.sort_unstable();
                l.dedup();
                l
            })
            .collect();
        let t = rng.below(2001) as f32 / 1000.0 - 1.0;
        data.push(&lists, &[t, -t]).unwrap();
    }
    let all: Vec<usize> = (0..samples).collect();
    group.throughput(Throughput::Elements(samples as u64));
    for batch in [1024, 16384] {
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let settings = TrainSettings {
                batch,
                ..TrainSettings::default()
            };
            let mut trainer =
                SparseTrainer::new(SparseNet::new("bench", shape, 1).unwrap(), settings);
            let id = BenchmarkId::new(format!("epoch/b{batch}"), format!("{threads}t"));
            let mut epoch = 0;
            group.bench_function(id, |b| {
                b.iter(|| {
                    epoch += 1;
                    pool.install(|| black_box(trainer.epoch(&data, &all, epoch)))
                })
            });
        }
    }
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    leaf(&mut c);
    slots(&mut c);
    train(&mut c);
    c.final_summary();
}
