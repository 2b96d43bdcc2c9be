//! The learned evaluation's cost: per game, a sparse network (`plyforge::learned::SparseEval`,
//! untrained, of `arena train --net sparse`'s default shape) against the game's hand-made
//! evaluation, on the leaves of one search and in searches of their own.
//!
//! - **Leaves**: the positions that the game's recommended engine (1 thread) evaluates in a
//!   search from the start with the hand-made evaluation, recorded in their order; then each
//!   evaluation goes over the same leaves in the same order (the fastest of a few passes): a
//!   figure that does not depend on the tree a network's values would grow.
//! - **Searches**: nodes a second of the recommended engine from the start with each
//!   evaluation, for a fixed time: what `arena analyse GAME start --time T` shows (an
//!   untrained network grows another tree than the hand-made evaluation, so the two searches
//!   are not the same nodes).
//!
//! The example games' registrations are the arena's example programs' and Connect Four's
//! crate's (`crates/arena/examples/*/game.rs`, `examples/connect-four/src/lib.rs`),
//! compiled in here as they are.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use plyforge::agent::SearchEngine;
use plyforge::learn::sparse::{SparseNet, SparseShape};
use plyforge::learned::{Evaluation, SparseEval};
use plyforge::search::{Evaluator, Limits, Record, Scores, Search};
use plyforge::GameAdapter;

use crate::{table, Report};

#[allow(dead_code, missing_docs)]
#[path = "../../crates/arena/examples/breakthrough/game.rs"]
pub(crate) mod breakthrough;
#[allow(dead_code, missing_docs)]
#[path = "../../examples/connect-four/src/lib.rs"]
pub(crate) mod connect_four;
#[allow(dead_code, missing_docs)]
#[path = "../../crates/arena/examples/othello/game.rs"]
pub(crate) mod othello;

/// The hand-made evaluation, recording every position it is asked about (up to a limit).
struct Recorder<A: GameAdapter> {
    eval: A::Eval,
    seen: Mutex<Vec<A::Pos>>,
    most: usize,
}

impl<A: GameAdapter> Evaluator<A::Pos> for Recorder<A> {
    fn evaluate(&self, pos: &A::Pos) -> Scores {
        let mut seen = self.seen.lock().expect("one thread");
        if seen.len() < self.most {
            seen.push(pos.clone());
        }
        self.eval.evaluate(pos)
    }
    fn aspiration_window(&self) -> i32 {
        self.eval.aspiration_window()
    }
    fn margin(&self) -> i32 {
        self.eval.margin()
    }
    fn move_hint(&self, pos: &A::Pos, mv: A::Move) -> i32 {
        self.eval.move_hint(pos, mv)
    }
}

/// The leaves of a search of `A` from the start with its hand-made evaluation (at most
/// `most`, from a search of `time`).
fn leaves<A: GameAdapter>(most: usize, time: Duration) -> Vec<A::Pos> {
    let recorder = Recorder::<A> {
        eval: A::default_eval(),
        seen: Mutex::new(Vec::new()),
        most,
    };
    let mut search = Search::new(A::engine_config().with_threads(1), recorder);
    let limits = Limits::default().with_movetime(Some(time));
    search.run(&A::start(), &[], limits, |_| {});
    let seen = search.evaluator().seen.lock().expect("one thread").clone();
    seen
}

/// Nanoseconds a leaf of `eval` over `leaves` (the fastest of `passes`), and a sum of the
/// scores that keeps the work from being optimised away.
fn per_leaf<A: GameAdapter>(eval: &Evaluation<A>, leaves: &[A::Pos], passes: usize) -> (f64, i64) {
    let mut best = f64::INFINITY;
    let mut sum = 0i64;
    for _ in 0..passes.max(1) {
        let t = Instant::now();
        for p in leaves {
            // `black_box`: a hand-made evaluation is a pure function, whose loop the
            // compiler removes when the sum is not used (0 ns a leaf, seen here).
            let scores = std::hint::black_box(eval.evaluate(std::hint::black_box(p)));
            sum = sum.wrapping_add(i64::from(scores[0]));
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / leaves.len().max(1) as f64);
    }
    (best, sum)
}

/// Nodes a second of `A`'s recommended engine (1 thread) from the start with `eval`.
fn nodes_per_second<A: GameAdapter>(eval: Evaluation<A>, time: Duration) -> f64 {
    let config = A::engine_config().with_threads(1);
    let mut engine = SearchEngine::<A>::new(config, eval);
    let limits = Limits::default().with_movetime(Some(time));
    let report = engine.think(&Record::new(A::start()), limits, |_| {});
    report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9)
}

/// The network `A` ships ([`GameAdapter::network`]), if any.
pub(crate) fn shipped<A: GameAdapter>() -> Option<Evaluation<A>> {
    let loaded = plyforge::learned::shipped::<A>()?.expect("the game's shipped network loads");
    Some(
        loaded
            .net
            .evaluation::<A>()
            .expect("checked against its game"),
    )
}

/// The network `A` ships, else the untrained network of `arena train --net sparse`'s
/// default shape; and which of the two.
fn network<A: GameAdapter>() -> (Evaluation<A>, &'static str) {
    if let Some(net) = shipped::<A>() {
        return (net, "shipped");
    }
    let features = A::encoding().expect("a game with an encoding").features;
    let shape = SparseShape {
        features,
        width: 64,
        perspectives: 1,
        l2: None,
        outputs: A::PLAYERS,
    };
    let net = SparseNet::new(A::NAME, shape, 1).expect("the default shape");
    let eval = Evaluation::Sparse(SparseEval::new(net).expect("the game's network"));
    (eval, "untrained, width 64")
}

/// One game's row.
fn row<A: GameAdapter>(quick: bool) -> Vec<String> {
    let (most, record, search, passes) = if quick {
        (
            5_000,
            Duration::from_millis(20),
            Duration::from_millis(30),
            1,
        )
    } else {
        (
            200_000,
            Duration::from_millis(500),
            Duration::from_secs(1),
            3,
        )
    };
    let leaves = leaves::<A>(most, record);
    let own = Evaluation::Own(A::default_eval());
    let (net, kind) = network::<A>();
    let (own_ns, _) = per_leaf(&own, &leaves, passes);
    let (net_ns, _) = per_leaf(&net, &leaves, passes);
    let own_nps = nodes_per_second::<A>(own, search);
    let net_nps = nodes_per_second::<A>(net, search);
    vec![
        A::TITLE.to_string(),
        kind.to_string(),
        leaves.len().to_string(),
        format!("{own_ns:.1}"),
        format!("{net_ns:.1}"),
        format!("{:.2}x", own_ns / net_ns.max(1e-9)),
        format!("{:.2}M", own_nps / 1e6),
        format!("{:.2}M", net_nps / 1e6),
        format!("{:.2}x", net_nps / own_nps.max(1e-9)),
    ]
}

pub(crate) fn section(rep: &mut Report) {
    let rows = vec![
        row::<plyforge::games::Jumpy3>(rep.quick),
        row::<plyforge::games::Chexers>(rep.quick),
        row::<plyforge::games::Throne>(rep.quick),
        row::<plyforge::games::ChaosClock>(rep.quick),
        row::<connect_four::ConnectFour>(rep.quick),
        row::<othello::Othello>(rep.quick),
        row::<breakthrough::Breakthrough>(rep.quick),
    ];
    let md = &mut rep.md;
    let _ = writeln!(md, "## Learned evaluation\n");
    let _ = writeln!(
        md,
        "A sparse network (NNUE's shape over the game's features, the mover's view: the one \
         the game ships, else an untrained one of width 64 without a second layer, as `arena \
         train --net sparse` starts) against the game's hand-made evaluation. **Leaves**: the positions the recommended engine (1 thread) \
         evaluates from the start with the hand-made evaluation ({}), each evaluation over \
         them in their order, nanoseconds a leaf (the fastest of {} passes) and the hand-made \
         one's time over the network's. **Searches**: nodes a second from the start, {} each \
         (a network grows another tree than the hand-made evaluation).\n",
        if rep.quick {
            "at most 5000, from a search of 20 ms"
        } else {
            "at most 200000, from a search of 0.5 s"
        },
        if rep.quick { 1 } else { 3 },
        if rep.quick { "30 ms" } else { "1 s" },
    );
    table(
        md,
        &[
            "game",
            "network",
            "leaves",
            "ns a leaf, own",
            "ns a leaf, network",
            "network's speed",
            "nodes/s, own",
            "nodes/s, network",
            "network's nodes/s",
        ],
        &rows,
    );
}
