//! Fits the weights of the Chexers evaluation to the results of recorded games: a softmax
//! (multinomial logistic) regression of who won on each player's [`chexers::Terms`], the
//! three-player form of the "Texel" tuning of chess engines. The fit is the starting point
//! that matches then confirm (`docs/chexers-strength.md`).
//!
//! ```sh
//! cargo run --release -p benches --example chexers_fit -- [--near-work N] games.txt [more.txt ...]
//! ```
//!
//! The record files are those of `integrations/comp30024/referee_match.py --record` and of
//! `arena match chexers --record`: a `# ...` header line per game holding `result: winner X`
//! (and, from `arena match`, `start: POSITION`), then one action per line. Drawn games are
//! left out; each position from the 6th ply on counts once, labelled with the game's winner.
//! The log loss of the fit over five folds (each fifth of the games tested on a fit to the
//! others) is printed beside that of the default evaluation's scores (at their best
//! temperature), then the fit to all games: per feature, and as the settings of an engine
//! spec (`eval=default:...`, the step kept at the default's). `--near-work N` sets where the
//! `near` feature starts (the weight `near_work`; default the default weights').
//!
//! The fit measures association, not cause: a feature that comes with winning in these games
//! (mobility, pairs) may not be worth playing for. Matches decide.

use plyforge::chexers;

use benches::softmax::{fit, log_loss, mean_log_loss, Sample};
use chexers::search::{Evaluator, Game};
use chexers::{DefaultEval, Move, Position, Terms, Weights};

/// The features of one player, as the model weighs them.
const NAMES: [&str; 13] = [
    "work",
    "missing",
    "spare",
    "short_below_three",
    "threatened",
    "threatened_next",
    "short_threatened",
    "mobility",
    "pairs",
    "force",
    "hopeless",
    "to_move",
    "near",
];
const F: usize = NAMES.len();

fn features(pos: &Position, player: usize, near_work: i32) -> [f64; F] {
    let t = Terms::of(pos, player);
    let to_move = (pos.to_move() == player) as i32 as f64;
    if t.hopeless {
        let mut x = [0.0; F];
        x[10] = 1.0;
        x[11] = to_move;
        return x;
    }
    [
        t.work as f64,
        t.missing as f64,
        t.spare as f64,
        t.short_below_three as f64,
        t.threatened as f64,
        t.threatened_next as f64,
        t.short_threatened as f64,
        t.mobility as f64,
        t.pairs as f64,
        t.force as f64,
        0.0,
        to_move,
        (near_work - t.work).max(0) as f64,
    ]
}

/// One labelled position: the features and winner, the default evaluation's scores (for
/// the comparison) and the game it comes from (for the folds).
struct Labelled {
    sample: Sample<F>,
    default: [f64; 3],
    game: usize,
}

fn read(
    path: &str,
    near_work: i32,
    games: &mut usize,
    out: &mut Vec<Labelled>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let eval = DefaultEval::default();
    let mut header: Option<(Position, Option<usize>)> = None;
    let mut moves: Vec<Move> = Vec::new();
    let flush = |header: &Option<(Position, Option<usize>)>,
                 moves: &Vec<Move>,
                 out: &mut Vec<Labelled>,
                 games: &mut usize|
     -> Result<(), String> {
        let Some((start, Some(winner))) = header else {
            return Ok(());
        };
        *games += 1;
        let mut p = start.clone();
        for (ply, &m) in moves.iter().enumerate() {
            if ply >= 6 && p.outcome().is_none() {
                let s = eval.evaluate(&p);
                out.push(Labelled {
                    sample: Sample {
                        x: [0, 1, 2].map(|q| features(&p, q, near_work)),
                        winner: *winner,
                    },
                    default: [s[0] as f64, s[1] as f64, s[2] as f64],
                    game: *games,
                });
            }
            if let Some(why) = p.why_illegal(m) {
                return Err(format!("{path}: game {games}: {m}: {why}"));
            }
            p.play(m);
        }
        Ok(())
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('#') {
            flush(&header, &moves, out, games)?;
            moves.clear();
            let start = match line.split(" | ").find_map(|f| f.strip_prefix("start: ")) {
                Some(s) => s
                    .parse::<Position>()
                    .map_err(|e| format!("{path}:{}: {e}", n + 1))?,
                None => Position::start(),
            };
            let winner = line
                .split("result: winner ")
                .nth(1)
                .and_then(|w| w.chars().next())
                .and_then(|c| "rgb".find(c));
            header = Some((start, winner));
        } else {
            let m = line
                .parse::<Move>()
                .map_err(|e| format!("{path}:{}: {e}", n + 1))?;
            moves.push(m);
        }
    }
    flush(&header, &moves, out, games)
}

/// The mean log loss of the default evaluation's scores at temperature `t` (evaluation
/// points per logit unit).
fn default_loss(data: &[&Labelled], t: f64) -> f64 {
    mean_log_loss(data, |l| (l.default.map(|v| v / t), l.sample.winner))
}

/// The temperature at which the default evaluation's scores fit `data` best.
fn temperature(data: &[&Labelled]) -> f64 {
    let (mut best_t, mut best_l) = (0.0, f64::INFINITY);
    for t in (1..=200).map(|i| i as f64 * 25.0) {
        let l = default_loss(data, t);
        if l < best_l {
            (best_t, best_l) = (t, l);
        }
    }
    best_t
}

/// Adam steps of each fit.
const STEPS: u32 = 2000;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut near_work = Weights::default().near_work;
    if let Some(i) = args.iter().position(|a| a == "--near-work") {
        match args.get(i + 1).and_then(|v| v.parse().ok()) {
            Some(n) => near_work = n,
            None => {
                eprintln!("--near-work: expected a whole number");
                std::process::exit(2);
            }
        }
        args.drain(i..i + 2);
    }
    if args.is_empty() || args.iter().any(|a| a.starts_with("--")) {
        eprintln!("usage: chexers_fit [--near-work N] RECORD_FILE...");
        std::process::exit(2);
    }
    let mut games = 0;
    let mut data = Vec::new();
    for p in &args {
        if let Err(e) = read(p, near_work, &mut games, &mut data) {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
    println!("{games} games won, {} positions", data.len());
    if games < 5 {
        eprintln!("too few games won: {games}");
        std::process::exit(2);
    }
    // Five-fold cross-validation by game: each fifth of the games tested on a fit to the rest.
    let (mut fitted_loss, mut default_loss_mean) = (0.0, 0.0);
    for fold in 0..5 {
        let (test, train): (Vec<&Labelled>, Vec<&Labelled>) =
            data.iter().partition(|l| l.game % 5 == fold);
        let samples = |set: &[&Labelled]| set.iter().map(|l| l.sample).collect::<Vec<_>>();
        let w = fit(&samples(&train), STEPS);
        fitted_loss += log_loss(&samples(&test), &w) / 5.0;
        default_loss_mean += default_loss(&test, temperature(&train)) / 5.0;
    }
    let all: Vec<Sample<F>> = data.iter().map(|l| l.sample).collect();
    let raw = fit(&all, STEPS);
    println!(
        "log loss over five folds: uniform {:.4}, default weights {default_loss_mean:.4} (at \
         their best temperature), fitted {fitted_loss:.4}",
        (3.0f64).ln()
    );
    println!("fitted logit per unit of each feature:");
    for k in 0..F {
        println!("  {:<18} {:+.4}", NAMES[k], raw[k]);
    }
    // In evaluation points, one step of work = the default's step.
    let d = Weights::default();
    let unit = -(d.step as f64) / raw[0];
    let pts = |k: usize| (raw[k] * unit).round() as i64;
    println!(
        "{unit:.0} evaluation points per logit unit; to move is worth {}",
        pts(11)
    );
    println!(
        "as an engine spec: eval=default:step={}:missing_steps={}:spare={}:short_piece={}:\
         threatened={}:threatened_next={}:short_threat={}:mobility={}:cohesion={}:material={}:\
         hopeless={}:near={}:near_work={near_work}",
        d.step,
        (raw[1] / raw[0]).round() as i64,
        pts(2),
        -pts(3),
        -pts(4),
        -pts(5),
        -pts(6),
        pts(7),
        pts(8),
        pts(9),
        -pts(10),
        pts(12),
    );
}
