//! `arena merge FILE...`: the match files of the shards of one match (or a match resumed
//! several times) combined into one table with the same figures, Elo and SPRT verdict as the
//! match played in one process. Files of different matches are refused (each line names its
//! match); a game found in several files counts once.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use plyforge::GameKind;

use super::record::{self, GameLine, Header, Line};
use super::schedule::{seatings, Schedule};
use super::summary;
use crate::draw::{paint, Paint};
use crate::fail::{outln, Fail};

/// The options of `arena merge`.
pub(crate) struct Options {
    /// The match files.
    pub files: Vec<PathBuf>,
    /// Write the merged match file here.
    pub out: Option<PathBuf>,
}

/// Runs `arena merge`.
pub(crate) fn merge(o: &Options) -> Result<(), Fail> {
    if o.files.is_empty() {
        return Err(Fail::usage("arena merge needs at least one match file"));
    }
    let mut header: Option<(Header, PathBuf)> = None;
    let mut games: BTreeMap<u64, GameLine> = BTreeMap::new();
    let mut duplicates = 0u64;
    let mut differing = 0u64;
    let mut cut_short = 0u64;
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
    for path in &o.files {
        let bytes =
            std::fs::read(path).map_err(|e| Fail::usage(format!("{}: {e}", path.display())))?;
        let text = String::from_utf8_lossy(&bytes);
        let (lines, complete) = record::parse_text(&text)
            .map_err(|(n, e)| Fail::usage(format!("{} line {n}: {e}", path.display())))?;
        if complete < text.len() {
            cut_short += 1;
        }
        for (n, line) in lines {
            let at = format!("{} line {n}", path.display());
            match line {
                Line::Header(h) => {
                    check_id(&h.match_id, at)?;
                    header.get_or_insert((h, path.clone()));
                }
                Line::Game(g) => {
                    check_id(&g.match_id, at)?;
                    match games.get(&g.game) {
                        Some(old) => {
                            duplicates += 1;
                            if old.result != g.result || old.moves != g.moves {
                                differing += 1;
                            }
                        }
                        None => {
                            games.insert(g.game, g);
                        }
                    }
                }
            }
        }
    }
    let Some((mut header, _)) = header else {
        return Err(Fail::usage(
            "no match header in these files (the first line of a match file describes its match)",
        ));
    };
    let kind = GameKind::from_name(&header.game)?;
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

    outln!(
        "{} match {}: {} games from {} file{}",
        paint(kind.title(), Paint::Bold),
        header.match_id,
        games.len(),
        o.files.len(),
        if o.files.len() == 1 { "" } else { "s" }
    );
    for (i, s) in header.engines.iter().enumerate() {
        outln!("  engine {}: {}", i + 1, s);
    }
    outln!("  settings: {}", header.settings);
    if duplicates > 0 {
        outln!("  {duplicates} games found twice or more, counted once");
    }
    if differing > 0 {
        outln!(
            "  {differing} of them differ between files (engines that are not deterministic, \
             such as timed ones): the first file's game is kept"
        );
    }
    if cut_short > 0 {
        outln!("  {cut_short} files end in a line cut short (a process killed while writing): left out");
    }
    let missing = schedule.games - games.len() as u64;
    if missing > 0 && header.sprt.is_none() {
        outln!("  {missing} games of the match are in none of these files");
    }

    let ctx = summary::Context {
        engines: &header.engines,
        players: kind.players(),
        schedule: &schedule,
        sprt: header.sprt,
    };
    let f = summary::figures(&ctx, &games);
    outln!();
    let ms: f64 = games.values().map(|g| g.wall_ms).sum();
    outln!(
        "{} games ({} plies, {:.1} per game; {:.1} s of game time)",
        f.games,
        f.plies,
        f.plies as f64 / f.games.max(1) as f64,
        ms / 1000.0
    );
    summary::print(&ctx, &f);

    if let Some(path) = &o.out {
        let fail = |e: std::io::Error| Fail::runtime(format!("--out {}: {e}", path.display()));
        let mut w = std::io::BufWriter::new(std::fs::File::create(path).map_err(fail)?);
        header.shard = None;
        writeln!(w, "{}", record::header_json(&header)).map_err(fail)?;
        for g in games.values() {
            writeln!(w, "{}", record::game_json(g)).map_err(fail)?;
        }
        w.flush().map_err(fail)?;
        outln!("merged match written to {}", path.display());
    }
    Ok(())
}
