//! `arena train`: the lab's training run ([`lab::train`]) with bars, then what it reached:
//! the losses, the files, and the network's speed in a search beside the game's own
//! evaluation's.

use std::time::Duration;

use lab::train::generations::GenerationSettings;
use lab::train::{TrainReport, TrainSettings, Training};
use plyforge::agent::SearchEngine;
use plyforge::duration::show_duration;
use plyforge::learned::{Evaluation, Network};
use plyforge::search::{Limits, Record};
use plyforge::GameAdapter;

use crate::bars::Bars;
use crate::fail::{outln, Fail};

/// What `arena train` was asked to do.
#[derive(Clone, Debug)]
pub(crate) enum TrainCommand {
    /// One training run.
    Once(TrainSettings),
    /// Generations of runs, each judged by a match.
    Generations(GenerationSettings),
}

/// Runs `arena train` for game `A`.
pub(crate) fn train<A: GameAdapter>(c: &TrainCommand) -> Result<(), Fail> {
    match c {
        TrainCommand::Once(s) => once::<A>(s),
        TrainCommand::Generations(g) => generations::<A>(g),
    }
}

/// Generations, with a line for each.
fn generations<A: GameAdapter>(g: &GenerationSettings) -> Result<(), Fail> {
    outln!(
        "train {}: {} generations of {} self-play games, each judged by {} games at most at {} a move (SPRT {} {})",
        A::NAME,
        g.generations,
        g.train.games,
        g.gate_games,
        show_duration(g.gate_time),
        g.gate_sprt.0,
        g.gate_sprt.1
    );
    let done = lab::train::generations::run::<A>(g, &mut Bars::<A>::for_match(true))?;
    for r in &done {
        outln!(
            "generation {:>2}: {} games, score {:.3}, {} -> {}",
            r.number,
            r.games,
            r.score,
            r.verdict,
            if r.kept { "kept" } else { "dropped" }
        );
    }
    match done.iter().rev().find(|r| r.kept) {
        Some(r) => outln!(
            "best: generation {} (copied to {})",
            r.number,
            g.train
                .out
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string())
        ),
        None => outln!(
            "no generation beat the evaluation it started from (the engine's eval=, else the \
             game's own): nothing written to --out"
        ),
    }
    Ok(())
}

/// One training run.
fn once<A: GameAdapter>(s: &TrainSettings) -> Result<(), Fail> {
    // Before the run opens its files.
    let earlier = s.has_earlier_run();
    let t = Training::<A>::new(s)?;
    let net = match &s.sparse {
        Some(sp) => format!(
            "sparse width {}, {} {}{}",
            sp.width,
            sp.perspectives,
            if sp.perspectives == 1 {
                "view"
            } else {
                "views"
            },
            sp.l2.map_or(String::new(), |l| format!(", l2 {l}"))
        ),
        None => format!(
            "hidden {:?}{}",
            s.hidden,
            if s.terms {
                ", with the evaluation's terms"
            } else {
                ""
            }
        ),
    };
    outln!(
        "train {}: {} self-play games ({}), target {} (lambda {}), {net}, {} epochs{}",
        A::NAME,
        s.games,
        s.engine_text(),
        s.target.name(),
        s.lambda(),
        s.epochs,
        match (s.resume, earlier) {
            (true, true) => ", resumed",
            (true, false) => ", nothing to resume: a new run",
            _ => "",
        }
    );
    let report = t.run(&mut Bars::<A>::for_match(true))?;
    show(&report);
    speed::<A>(&report)?;
    Ok(())
}

/// The run's figures.
fn show(r: &TrainReport) {
    let without = match r.without_result {
        0 => String::new(),
        n => format!(" ({n} more left out: ended by a fault of nobody known, no result)"),
    };
    outln!(
        "games: {} self-play, {} recorded{without}; positions: {} trained, {} held out",
        r.games,
        r.recorded,
        r.positions.0,
        r.positions.1
    );
    for (i, (t, h)) in r.losses.iter().enumerate() {
        if i == 0 || i + 1 == r.losses.len() || (i + 1) % 5 == 0 {
            let held = h.map_or("none held out".to_string(), |h| format!("{h:.5} held out"));
            outln!("epoch {:>3}  loss {t:.5} trained  {held}", i + 1);
        }
    }
    let weights = match &r.net {
        Network::Dense(n) => n.params(),
        Network::Sparse(n, _) => n.shape().params().unwrap_or(0),
    };
    outln!(
        "network: {} ({weights} weights); time: {:.1} s playing, {:.1} s training",
        r.net.describe(),
        r.seconds.0,
        r.seconds.1
    );
    if let Some(t) = r.throughput {
        outln!("trainer: {t:.0} positions/s (the epochs run here, one pass over the training positions each)");
    }
    if let Some(fit) = &r.draw_fit {
        outln!("draw (only wins count): learned {fit}");
    }
    for f in &r.files {
        outln!("wrote {}", f.display());
    }
}

/// Nodes per second of the game's recommended engine from the start, one thread, half a
/// second, with the network and with the game's default evaluation.
fn speed<A: GameAdapter>(r: &TrainReport) -> Result<(), Fail> {
    let net = r
        .net
        .evaluation::<A>()
        .map_err(|e| Fail::usage(e.to_string()))?;
    let record = Record::new(A::start());
    let limits = Limits::default().with_movetime(Some(Duration::from_millis(500)));
    let mut nps = Vec::new();
    for eval in [net, Evaluation::Own(A::default_eval())] {
        let config = A::engine_config().with_threads(1);
        let mut engine = SearchEngine::<A>::try_new(config, eval)?;
        let report = engine.think(&record, limits, |_| {});
        nps.push(report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9));
    }
    outln!(
        "speed from the start (1 thread, 0.5 s): {:.0} nodes/s with the network, {:.0} with the default evaluation ({:.2}x)",
        nps[0],
        nps[1],
        nps[0] / nps[1].max(1e-9)
    );
    Ok(())
}
