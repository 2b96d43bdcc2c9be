//! `arena match`, `arena merge` and `arena speedup`: the lab's matches ([`lab::Match`]),
//! merges ([`lab::merge`]) and effective speedups ([`lab::speedup`]) with what the program
//! says before, during and after them.

use std::path::{Path, PathBuf};

use lab::jsonl::Opened;
use lab::matches::{Match, MatchReport, MatchSettings};
use lab::merge::Merged;
use plyforge::agent::Kind;
use plyforge::duration::show_duration;
use plyforge::GameAdapter;

use crate::bars::Bars;
use crate::draw::{paint, Paint};
use crate::fail::{out, outln, Fail};

/// Bold on a terminal that takes it.
pub(crate) fn bold(text: &str) -> String {
    paint(text, Paint::Bold)
}

/// Runs `arena match`: says what will be played, plays it with a bar (each game printed
/// unless `quiet`), prints the table.
pub(crate) fn run_match<A: GameAdapter>(o: &MatchSettings, quiet: bool) -> Result<(), Fail> {
    let m = Match::<A>::new(o)?;
    announce(&m);
    let report = m.run(&mut Bars::<A>::for_match(quiet))?;
    print_report(&report, o.record.as_ref());
    Ok(())
}

/// Says what is about to happen: the engines, the openings, the shard, the match file, the
/// games at once (with a warning when they need more cores than there are).
fn announce<A: GameAdapter>(m: &Match<A>) {
    let (o, plan) = (m.settings(), m.plan());
    let time = match o.clock {
        Some(c) => format!("a {} clock a side", show_duration(c)),
        None => format!("{} per move", show_duration(o.time)),
    };
    outln!(
        "{} match, {}{} games, {time} unless the spec says otherwise",
        bold(A::TITLE),
        if plan.sprt.is_some() { "at most " } else { "" },
        plan.games,
    );
    for (i, s) in plan.specs.iter().enumerate() {
        outln!("  engine {}: {}", i + 1, s.text);
    }
    if o.engines.is_empty() && o.specs.is_empty() {
        outln!("  (the game's default match; --engine SPEC, twice, chooses the engines)");
    }
    if let (Some(path), lab::book::Starts::Book { positions, .. }) =
        (&o.book, plan.openings.starts())
    {
        outln!(
            "  openings: {} ({} positions, {} order){}",
            path.display(),
            positions.len(),
            match o.book_order {
                lab::book::Order::Sequential => "sequential",
                lab::book::Order::Random => "random",
            },
            if plan.openings.plies() > 0 {
                format!(", then {} random plies", plan.openings.plies())
            } else {
                String::new()
            }
        );
    }
    if o.book.is_none() && plan.openings.distinct() {
        outln!(
            "  openings: {} seeded random plies from the start, no two alike (longer once the \
             shorter are used up)",
            plan.openings.plies()
        );
    }
    if let Some(s) = o.shard {
        outln!(
            "  shard {s}: {} of the {} games",
            plan.schedule.games_for(o.shard).len(),
            plan.games
        );
    }
    if let Some(path) = &o.out {
        let id = &plan.header.match_id;
        match m.opened() {
            Some(Opened::Resumed(n)) if n > 0 => outln!(
                "  games to {} (match {id}; {n} games there already)",
                path.display()
            ),
            Some(Opened::NothingToResume) => outln!(
                "  games to {} (match {id}; no such file to resume: a new one)",
                path.display()
            ),
            _ => outln!("  games to {} (match {id})", path.display()),
        }
    }
    cores(o, m);
}

/// The games at once, and a warning when they need more cores than there are.
fn cores<A: GameAdapter>(o: &MatchSettings, m: &Match<A>) {
    let threads_per_game = m
        .plan()
        .specs
        .iter()
        .filter(|s| matches!(s.kind, Kind::Search(_)))
        .map(|s| s.threads.unwrap_or(o.threads))
        .max()
        .unwrap_or(1);
    let threads = |n: usize| format!("{n} thread{}", if n == 1 { "" } else { "s" });
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if o.concurrency > 1 {
        outln!(
            "  {} games at once, each using up to {} while an engine thinks",
            o.concurrency,
            threads(threads_per_game)
        );
    }
    if o.concurrency * threads_per_game > cores {
        crate::errln!(
            "warning: --concurrency {} x {} per engine needs {} cores, and {} \
             are available: games share cores, so timed engines think less than asked",
            o.concurrency,
            threads(threads_per_game),
            o.concurrency * threads_per_game,
            cores
        );
    }
}

/// The table: this match's games (for a shard, with its siblings' when it looked).
fn print_report(r: &MatchReport, record: Option<&PathBuf>) {
    let f = r.figures();
    outln!();
    outln!(
        "{} games in {} ({} plies, {:.1} per game)",
        f.games,
        show_duration(r.elapsed),
        f.plies,
        f.plies as f64 / f.games.max(1) as f64
    );
    if r.earlier > 0 || r.from_siblings > 0 {
        outln!(
            "  of which played now {}, earlier (in the file) {}, by other shards {}",
            r.played,
            r.earlier,
            r.from_siblings
        );
    }
    if let Some(speed) = r.speed() {
        outln!("{speed}");
    }
    out!("{}", r.table(&bold));
    if let Some(path) = record {
        outln!("games written to {}", path.display());
    }
}

/// Runs `arena merge`: the match files of a match's shards as one table (and one file).
pub(crate) fn merge(files: &[PathBuf], out: Option<&PathBuf>) -> Result<(), Fail> {
    let m = lab::merge::merge(files)?;
    describe(&m, files.len());
    let f = m.figures();
    outln!();
    let ms: f64 = m.games.values().map(|g| g.wall_ms).sum();
    outln!(
        "{} games ({} plies, {:.1} per game; {:.1} s of game time)",
        f.games,
        f.plies,
        f.plies as f64 / f.games.max(1) as f64,
        ms / 1000.0
    );
    out!("{}", m.table(&bold));
    if let Some(path) = out {
        m.write(path)?;
        outln!("merged match written to {}", path.display());
    }
    Ok(())
}

/// Runs `arena speedup`: engine 1's Elo against engine 2 in the threads' match file and in
/// each time-odds file (`FACTOR=FILE`), and the factor of time whose odds score as the
/// threads do ([`lab::speedup::effective`]).
pub(crate) fn speedup(threads: &Path, odds: &[String]) -> Result<(), Fail> {
    let threads_elo = engine_one(threads, "the threads")?;
    let mut measured = Vec::new();
    for o in odds {
        let (factor, file) = o
            .split_once('=')
            .and_then(|(f, p)| Some((f.trim().parse::<f64>().ok()?, p)))
            .filter(|(f, _)| f.is_finite() && *f > 1.0)
            .ok_or_else(|| {
                Fail::usage(format!(
                    "--odds {o:?}: FACTOR=FILE, a factor above 1 (1.5=odds.jsonl)"
                ))
            })?;
        let elo = engine_one(Path::new(file), &format!("{factor}x the time"))?;
        measured.push(lab::speedup::TimeOdds { factor, elo });
    }
    match lab::speedup::effective(&threads_elo, &measured) {
        Some(e) => outln!(
            "effective speedup {:.2}x (95%: {:.2}x to {}){}",
            e.factor,
            e.low,
            if e.high.is_finite() {
                format!("{:.2}x", e.high)
            } else {
                "no bound".to_string()
            },
            if e.beyond {
                ": beyond the factors measured, the last line extended"
            } else {
                ""
            }
        ),
        None => outln!("effective speedup: none to read (the time odds gained no Elo)"),
    }
    Ok(())
}

/// Engine 1's results against engine 2 in the match file `path` (`what` it measures),
/// printed, and its Elo.
fn engine_one(path: &Path, what: &str) -> Result<lab::elo::Elo, Fail> {
    let m = lab::merge::merge(&[path.to_path_buf()])?;
    let f = m.figures();
    let (w, d, l) = f
        .h2h
        .first()
        .and_then(|row| row.get(1))
        .copied()
        .ok_or_else(|| Fail::usage(format!("{}: not a match of two engines", path.display())))?;
    let e = lab::elo::elo(w, d, l)
        .ok_or_else(|| Fail::usage(format!("{}: no games", path.display())))?;
    outln!(
        "{what:<16} {}: {} against {}: +{w} ={d} -{l}  Elo {} ({} to {})",
        path.display(),
        m.header.engines.first().map_or("?", |s| s.as_str()),
        m.header.engines.get(1).map_or("?", |s| s.as_str()),
        lab::elo::show(e.diff),
        lab::elo::show(e.low),
        lab::elo::show(e.high)
    );
    Ok(e)
}

/// The match, its engines, and what was odd in its files.
fn describe(m: &Merged, files: usize) {
    let header = &m.header;
    outln!(
        "{} match {}: {} games from {} file{}",
        bold(m.kind.title()),
        header.match_id,
        m.games.len(),
        files,
        if files == 1 { "" } else { "s" }
    );
    for (i, s) in header.engines.iter().enumerate() {
        outln!("  engine {}: {}", i + 1, s);
    }
    outln!("  settings: {}", header.settings);
    if m.duplicates > 0 {
        outln!("  {} games found twice or more, counted once", m.duplicates);
    }
    if m.differing > 0 {
        outln!(
            "  {} of them differ between files (engines that are not deterministic, \
             such as timed ones): the first file's game is kept",
            m.differing
        );
    }
    if m.cut_short > 0 {
        outln!(
            "  {} files end in a line cut short (a process killed while writing): left out",
            m.cut_short
        );
    }
    if m.missing() > 0 && header.sprt.is_none() {
        outln!(
            "  {} games of the match are in none of these files",
            m.missing()
        );
    }
}
