//! `arena match`: engine specifications play each other with the seats rotated; a progress
//! bar while they play, a table with Elo differences at the end, optionally a record file.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use plyforge::search::{Game, Limits, Outcome, Record};

use crate::draw::{paint, Paint};
use crate::elo;
use crate::fail::{outln, Fail};
use plyforge::agent::{Agent, Spec};
use plyforge::duration::{parse_duration, show_duration};
use plyforge::search::rng::XorShift64Star as Rng;
use plyforge::{legal_moves, read_position, result_text, GameAdapter};

/// The options of `arena match`.
pub(crate) struct Options {
    /// Engine specs as given.
    pub engines: Vec<String>,
    /// Number of games.
    pub games: usize,
    /// Default time per move.
    pub time: String,
    /// Default threads.
    pub threads: usize,
    /// A start position for every game.
    pub position: Option<String>,
    /// Random opening plies per cycle.
    pub opening: Option<usize>,
    /// Seed.
    pub seed: u64,
    /// Record file.
    pub record: Option<PathBuf>,
    /// No per-game lines.
    pub quiet: bool,
}

/// Table size of a match engine whose spec does not set one: many engines live at once.
const MATCH_TT_MIB: usize = 16;

/// The seatings of one cycle: for each game, the spec index in each seat.
pub(crate) fn seatings(players: usize, specs: usize) -> Vec<Vec<usize>> {
    match (players, specs) {
        (2, 2) => vec![vec![0, 1], vec![1, 0]],
        (3, 2) => vec![
            vec![0, 1, 1],
            vec![1, 0, 1],
            vec![1, 1, 0],
            vec![1, 0, 0],
            vec![0, 1, 0],
            vec![0, 0, 1],
        ],
        (3, 3) => vec![
            vec![0, 1, 2],
            vec![0, 2, 1],
            vec![1, 0, 2],
            vec![1, 2, 0],
            vec![2, 0, 1],
            vec![2, 1, 0],
        ],
        _ => Vec::new(),
    }
}

/// Results of one spec.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    both_win: u32,
    both_lose: u32,
}

impl Tally {
    fn score(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws + self.both_win + self.both_lose)
    }
}

/// The opening: `plies` random moves that do not end the game.
fn play_opening<A: GameAdapter>(record: &mut Record<A::Pos>, plies: usize, rng: &mut Rng) {
    for _ in 0..plies {
        let moves: Vec<A::Move> = legal_moves(record.position())
            .into_iter()
            .filter(|&mv| {
                let mut r = record.clone();
                matches!(r.play(mv), Ok(None))
            })
            .collect();
        if moves.is_empty() || record.result().is_some() {
            return;
        }
        let mv = moves[rng.below(moves.len())];
        if record.play(mv).is_err() {
            return;
        }
    }
}

/// Runs `arena match`.
pub(crate) fn run_match<A: GameAdapter>(o: &Options) -> Result<(), Fail> {
    let texts: Vec<String> = if o.engines.is_empty() {
        A::default_match().iter().map(|s| s.to_string()).collect()
    } else {
        o.engines.clone()
    };
    let mut specs = Vec::new();
    for t in &texts {
        let mut s = Spec::parse::<A>(t)
            .map_err(|e| Fail::usage(format!("--engine {t:?}: {}", e.reason())))?;
        if s.tt_mib.is_none() {
            s.tt_mib = Some(MATCH_TT_MIB.min(A::engine_config().tt_mib.max(1)));
        }
        specs.push(s);
    }
    let cycle = seatings(A::PLAYERS, specs.len());
    if cycle.is_empty() {
        return Err(Fail::usage(format!(
            "{} needs {} engine specifications (--engine SPEC, given {})",
            A::TITLE,
            if A::PLAYERS == 3 { "2 or 3" } else { "2" },
            specs.len()
        )));
    }
    if o.games == 0 {
        return Err(Fail::usage("--games must be at least 1"));
    }
    let time = parse_duration(&o.time).map_err(|e| Fail::usage(format!("--time: {e}")))?;
    let fallback = Limits::movetime(time.max(Duration::from_millis(1)));
    let fixed_start = match &o.position {
        Some(p) => Some(read_position::<A>(p)?),
        None => None,
    };
    let opening = o.opening.unwrap_or(if fixed_start.is_some() {
        0
    } else {
        A::default_opening_plies()
    });
    let mut record_file = match &o.record {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                Fail::runtime(format!("--record {}: {e}", path.display()))
            })?))
        }
        None => None,
    };

    outln!(
        "{} match, {} games, {} per move unless the spec says otherwise",
        paint(A::TITLE, Paint::Bold),
        o.games,
        show_duration(time)
    );
    for (i, s) in specs.iter().enumerate() {
        outln!("  engine {}: {}", i + 1, s.text);
    }

    let bar = ProgressBar::new(o.games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));

    let n = specs.len();
    let mut tally = vec![Tally::default(); n];
    // Head to head: [i][j] = (wins, draws, losses) of spec i against spec j.
    let mut h2h = vec![vec![(0u32, 0u32, 0u32); n]; n];
    let started = Instant::now();
    let mut total_plies = 0usize;

    for g in 0..o.games {
        let round = g / cycle.len();
        let seating = &cycle[g % cycle.len()];
        let start = match &fixed_start {
            Some(p) => p.clone(),
            None => A::random_start(o.seed.wrapping_add(round as u64)).unwrap_or_else(A::start),
        };
        let mut record = Record::<A::Pos>::new(start);
        let mut opening_rng =
            Rng::seeded(o.seed.wrapping_mul(1_000_003).wrapping_add(round as u64));
        play_opening::<A>(&mut record, opening, &mut opening_rng);
        let opening_plies = record.moves().len();
        let game_seed = o.seed.wrapping_mul(7919).wrapping_add(g as u64 * 3);
        let mut agents: Vec<Agent<A>> = seating
            .iter()
            .enumerate()
            .map(|(seat, &s)| {
                Agent::new(
                    &specs[s],
                    fallback,
                    Some(o.threads),
                    game_seed + seat as u64,
                )
            })
            .collect();
        while record.result().is_none() {
            let p = record.position().to_move();
            let (mv, _) = agents[p].choose(&record, |_| {});
            let spec = &specs[seating[p]].text;
            let mv = mv.ok_or_else(|| {
                Fail::runtime(format!(
                    "engine {spec:?} found no move in {} (game {})",
                    record.position(),
                    g + 1
                ))
            })?;
            let before = record.position().to_string();
            record.play(mv).map_err(|e| {
                Fail::runtime(format!(
                    "engine {spec:?} chose {mv} in {before} (game {}): {e}",
                    g + 1
                ))
            })?;
            bar.set_message(format!("game {}: ply {}", g + 1, record.moves().len()));
        }
        let result = record.result().expect("the loop ends with a result");
        total_plies += record.moves().len();

        // Tallies.
        let winner_spec = match result {
            Outcome::Win(p) => Some(seating[p]),
            _ => None,
        };
        let mut present = vec![false; n];
        for &s in seating {
            present[s] = true;
        }
        for s in (0..n).filter(|&s| present[s]) {
            let t = &mut tally[s];
            t.games += 1;
            match (result, winner_spec) {
                (Outcome::Win(_), Some(w)) if w == s => t.wins += 1,
                (Outcome::Win(_), _) => t.losses += 1,
                (Outcome::BothWin, _) => t.both_win += 1,
                (Outcome::BothLose, _) => t.both_lose += 1,
                // Draws (and any result without a winner that a game may add).
                _ => t.draws += 1,
            }
            for other in (0..n).filter(|&j| j != s && present[j]) {
                let e = &mut h2h[s][other];
                match winner_spec {
                    Some(w) if w == s => e.0 += 1,
                    Some(w) if w == other => e.2 += 1,
                    _ => e.1 += 1,
                }
            }
        }

        let seats: Vec<String> = seating
            .iter()
            .enumerate()
            .map(|(p, &s)| format!("{}={}", A::player_letter(p), s + 1))
            .collect();
        let who = match result {
            Outcome::Win(p) => format!(" (engine {})", seating[p] + 1),
            _ => String::new(),
        };
        if !o.quiet {
            let line = format!(
                "game {:>3}/{}  seats {}  {}{}  {} plies",
                g + 1,
                o.games,
                seats.join(" "),
                paint(&result_text::<A>(result), Paint::Bold),
                who,
                record.moves().len()
            );
            bar.suspend(|| outln!("{line}"));
        }
        if let Some(f) = record_file.as_mut() {
            let names: Vec<String> = seating
                .iter()
                .enumerate()
                .map(|(p, &s)| format!("{}: {}", A::player_letter(p), specs[s].text))
                .collect();
            let mut text = format!(
                "# game {} | start: {} | result: {} | {} | opening: {} plies\n",
                g + 1,
                record.start(),
                result_text::<A>(result),
                names.join(", "),
                opening_plies
            );
            for mv in record.moves() {
                text.push_str(&mv.to_string());
                text.push('\n');
            }
            f.write_all(text.as_bytes())
                .map_err(|e| Fail::runtime(format!("writing the record file: {e}")))?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(mut f) = record_file {
        f.flush()
            .map_err(|e| Fail::runtime(format!("writing the record file: {e}")))?;
    }

    // The table.
    let both = tally.iter().any(|t| t.both_win + t.both_lose > 0);
    outln!();
    outln!(
        "{} games in {} ({} plies, {:.1} per game)",
        o.games,
        show_duration(started.elapsed()),
        total_plies,
        total_plies as f64 / o.games as f64
    );
    let width = specs.iter().map(|s| s.text.len()).max().unwrap_or(6).max(6);
    let mut header = format!(" #  {:<width$}  games   wins  draws losses", "engine");
    if both {
        header.push_str("  both-win both-lose");
    }
    header.push_str("   score");
    outln!("{}", paint(&header, Paint::Bold));
    for (i, (s, t)) in specs.iter().zip(&tally).enumerate() {
        let mut line = format!(
            "{:>2}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>5}",
            i + 1,
            s.text,
            t.games,
            t.wins,
            t.draws,
            t.losses
        );
        if both {
            line.push_str(&format!("  {:>8}  {:>8}", t.both_win, t.both_lose));
        }
        let pct = if t.games > 0 {
            100.0 * t.score() / f64::from(t.games)
        } else {
            0.0
        };
        line.push_str(&format!("  {pct:>5.1}%"));
        outln!("{line}");
    }
    for (i, row) in h2h.iter().enumerate() {
        for (j, &(w, d, l)) in row.iter().enumerate().skip(i + 1) {
            if let Some(e) = elo::elo(w, d, l) {
                outln!(
                    "Elo engine {} vs engine {}: {} (95% interval {} .. {}), head to head +{} ={} -{}",
                    i + 1,
                    j + 1,
                    paint(&elo::show(e.diff), Paint::Bold),
                    elo::show(e.low),
                    elo::show(e.high),
                    w,
                    d,
                    l
                );
            }
        }
    }
    if let Some(path) = &o.record {
        outln!("games written to {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::seatings;

    #[test]
    fn every_spec_sits_in_every_seat_equally() {
        for (players, specs) in [(2, 2), (3, 2), (3, 3)] {
            let cycle = seatings(players, specs);
            for seat in 0..players {
                let mut count = vec![0; specs];
                for s in &cycle {
                    count[s[seat]] += 1;
                }
                assert!(
                    count.iter().all(|&c| c == count[0]),
                    "{players} {specs}: {count:?}"
                );
            }
            // Every spec plays in every game.
            for s in &cycle {
                for spec in 0..specs {
                    assert!(s.contains(&spec));
                }
            }
        }
        assert!(seatings(2, 3).is_empty());
    }
}
