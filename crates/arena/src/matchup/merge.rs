//! `arena merge FILE...`: the match files of the shards of one match (or a match resumed
//! several times) combined into one table with the same figures, Elo and SPRT verdict as the
//! match played in one process. Files of different matches are refused (each line names its
//! match); a game found in several files counts once.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use plyforge::GameKind;

use super::matchfile::{self, GameLine, Header, Line};
use super::schedule::{seatings, Schedule};
use super::summary;
use crate::draw::{paint, Paint};
use crate::fail::{outln, Fail};

/// The options of `arena merge`.
pub(crate) struct MergeOptions {
    /// The match files.
    pub files: Vec<PathBuf>,
    /// Write the merged match file here.
    pub out: Option<PathBuf>,
}

/// Runs `arena merge`.
///
/// Long by design: a straight sequence (read every file, check that they are shards of one
/// match, combine, report the conflicts, write, print the table), each step a few lines.
pub(crate) fn merge(o: &MergeOptions) -> Result<(), Fail> {
    if o.files.is_empty() {
        return Err(Fail::usage("arena merge needs at least one match file"));
    }
    let read = read_files(&o.files)?;
    let Some(mut header) = read.header.clone() else {
        return Err(Fail::usage(
            "no match header in these files (the first line of a match file describes its match)",
        ));
    };
    let kind = GameKind::from_name(&header.game)?;
    let schedule = check_schedule(kind, &header, &read.games)?;
    describe(o, kind, &header, &read, &schedule);
    let ctx = summary::Context {
        engines: &header.engines,
        players: kind.players(),
        schedule: &schedule,
        sprt: header.sprt,
    };
    let f = summary::figures(&ctx, &read.games);
    outln!();
    let ms: f64 = read.games.values().map(|g| g.wall_ms).sum();
    outln!(
        "{} games ({} plies, {:.1} per game; {:.1} s of game time)",
        f.games,
        f.plies,
        f.plies as f64 / f.games.max(1) as f64,
        ms / 1000.0
    );
    summary::print(&ctx, &f);
    if let Some(path) = &o.out {
        header.shard = None;
        write_merged(path, &header, &read.games)?;
        outln!("merged match written to {}", path.display());
    }
    Ok(())
}

/// What the match files hold together: the header, each game once, and what was odd.
struct Read {
    header: Option<Header>,
    games: BTreeMap<u64, GameLine>,
    /// Games found more than once.
    duplicates: u64,
    /// Of those, games whose copies differ.
    differing: u64,
    /// Files that end in a line cut short.
    cut_short: u64,
}

/// Reads the files; every line must be of one match.
fn read_files(files: &[PathBuf]) -> Result<Read, Fail> {
    let mut read = Read {
        header: None,
        games: BTreeMap::new(),
        duplicates: 0,
        differing: 0,
        cut_short: 0,
    };
    // The match id of the first line seen, and where.
    let mut id: Option<(String, String)> = None;
    let mut check_id = |got: &str, at: String| -> Result<(), Fail> {
        match &id {
            None => {
                id = Some((got.to_string(), at));
                Ok(())
            }
            Some((want, first)) if want != got => Err(Fail::usage(format!(
                "{at} belongs to match {got}, but {first} to match {want}: these files are \
                 not of one match"
            ))),
            Some(_) => Ok(()),
        }
    };
    for path in files {
        let bytes =
            std::fs::read(path).map_err(|e| Fail::usage(format!("{}: {e}", path.display())))?;
        let text = String::from_utf8_lossy(&bytes);
        let (lines, complete) = matchfile::parse_text(&text)
            .map_err(|(n, e)| Fail::usage(format!("{} line {n}: {e}", path.display())))?;
        if complete < text.len() {
            read.cut_short += 1;
        }
        for (n, line) in lines {
            let at = format!("{} line {n}", path.display());
            match line {
                Line::Header(h) => {
                    check_id(&h.match_id, at)?;
                    read.header.get_or_insert(h);
                }
                Line::Game(g) => {
                    check_id(&g.match_id, at)?;
                    match read.games.get(&g.game) {
                        Some(old) => {
                            read.duplicates += 1;
                            if old.result != g.result || old.moves != g.moves {
                                read.differing += 1;
                            }
                        }
                        None => {
                            read.games.insert(g.game, g);
                        }
                    }
                }
            }
        }
    }
    Ok(read)
}

/// The match's schedule, from its header; every game must fit it.
fn check_schedule(
    kind: GameKind,
    header: &Header,
    games: &BTreeMap<u64, GameLine>,
) -> Result<Schedule, Fail> {
    let cycle = seatings(kind.players(), header.engines.len());
    if cycle.len() as u64 != header.cycle {
        return Err(Fail::usage(format!(
            "the header says {} games per opening; {} with {} engines has {}",
            header.cycle,
            kind.title(),
            header.engines.len(),
            cycle.len()
        )));
    }
    let schedule = Schedule {
        cycle,
        games: header.games,
    };
    for g in games.values() {
        let seats = schedule.seats_of(g.game);
        if g.game >= header.games || g.seats != seats {
            return Err(Fail::usage(format!(
                "game {} does not fit the match's schedule ({} games; its seats {:?}, the \
                 schedule's {:?})",
                g.game + 1,
                header.games,
                g.seats,
                seats
            )));
        }
    }
    Ok(schedule)
}

/// The match, its engines, and what was odd in its files.
fn describe(o: &MergeOptions, kind: GameKind, header: &Header, read: &Read, schedule: &Schedule) {
    outln!(
        "{} match {}: {} games from {} file{}",
        paint(kind.title(), Paint::Bold),
        header.match_id,
        read.games.len(),
        o.files.len(),
        if o.files.len() == 1 { "" } else { "s" }
    );
    for (i, s) in header.engines.iter().enumerate() {
        outln!("  engine {}: {}", i + 1, s);
    }
    outln!("  settings: {}", header.settings);
    if read.duplicates > 0 {
        outln!(
            "  {} games found twice or more, counted once",
            read.duplicates
        );
    }
    if read.differing > 0 {
        outln!(
            "  {} of them differ between files (engines that are not deterministic, \
             such as timed ones): the first file's game is kept",
            read.differing
        );
    }
    if read.cut_short > 0 {
        outln!(
            "  {} files end in a line cut short (a process killed while writing): left out",
            read.cut_short
        );
    }
    let missing = schedule.games - read.games.len() as u64;
    if missing > 0 && header.sprt.is_none() {
        outln!("  {missing} games of the match are in none of these files");
    }
}

/// Writes the merged match file.
fn write_merged(path: &Path, header: &Header, games: &BTreeMap<u64, GameLine>) -> Result<(), Fail> {
    let fail = |e: std::io::Error| Fail::runtime(format!("--out {}: {e}", path.display()));
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(fail)?);
    writeln!(w, "{}", matchfile::header_json(header)).map_err(fail)?;
    for g in games.values() {
        writeln!(w, "{}", matchfile::game_json(g)).map_err(fail)?;
    }
    w.flush().map_err(fail)
}
