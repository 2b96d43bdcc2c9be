//! Merging: the match files of the shards of one match (or a match resumed several times)
//! combined into one set of games, which give the same figures, Elo and SPRT verdict as the
//! match played in one process ([`MatchReport`](crate::MatchReport)'s table, through
//! [`Merged::table`]). Files of different matches are refused (each line names its match); a
//! game found in several files counts once.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use plyforge::GameKind;

use crate::error::Error;
use crate::jsonl;
use crate::matchfile::{self, GameLine, Header, Line};
use crate::schedule::{seatings, Schedule};
use crate::summary::{self, Context, Emphasis, Figures};

/// The games of match files merged, and what was odd in the files.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The match's game.
    pub kind: GameKind,
    /// The match's header (of the whole match: no shard).
    pub header: Header,
    /// The match's schedule.
    pub schedule: Schedule,
    /// Each game once, by index.
    pub games: BTreeMap<u64, GameLine>,
    /// Games found more than once.
    pub duplicates: u64,
    /// Of those, games whose copies differ (the first file's is kept).
    pub differing: u64,
    /// Files that end in a line cut short.
    pub cut_short: u64,
}

impl Merged {
    /// What the figures and the table need besides the games.
    pub fn context(&self) -> Context<'_> {
        Context {
            engines: &self.header.engines,
            players: self.kind.players(),
            schedule: &self.schedule,
            sprt: self.header.sprt,
        }
    }

    /// The figures of the games.
    pub fn figures(&self) -> Figures {
        summary::figures(&self.context(), &self.games)
    }

    /// The table, headings emphasised by `bold`.
    pub fn table(&self, bold: Emphasis<'_>) -> String {
        summary::table(&self.context(), &self.figures(), bold)
    }

    /// Games of the match in none of the files.
    pub fn missing(&self) -> u64 {
        self.schedule.games.saturating_sub(self.games.len() as u64)
    }

    /// Writes the merged match file (the whole match's header, then each game once).
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let fail = |e: std::io::Error| Error::output("--out", path, e);
        let mut w = std::io::BufWriter::new(jsonl::create(path, "--out")?);
        writeln!(w, "{}", matchfile::header_json(&self.header)).map_err(fail)?;
        for g in self.games.values() {
            writeln!(w, "{}", matchfile::game_json(g)).map_err(fail)?;
        }
        w.flush().map_err(fail)
    }
}

/// Reads and merges match files: every line must be of one match, the first header found
/// is the match's, and every game must fit its schedule. The game must be registered
/// ([`plyforge::register`]).
pub fn merge(files: &[PathBuf]) -> Result<Merged, Error> {
    if files.is_empty() {
        return Err(Error::settings("arena merge needs at least one match file"));
    }
    let read = read_files(files)?;
    let Some(mut header) = read.header else {
        return Err(Error::settings(
            "no match header in these files (the first line of a match file describes its match)",
        ));
    };
    let kind = GameKind::from_name(&header.game)?;
    let schedule = check_schedule(kind, &header, &read.games)?;
    header.shard = None;
    Ok(Merged {
        kind,
        header,
        schedule,
        games: read.games,
        duplicates: read.duplicates,
        differing: read.differing,
        cut_short: read.cut_short,
    })
}

/// What the match files hold together: the header, each game once, and what was odd.
struct Read {
    header: Option<Header>,
    games: BTreeMap<u64, GameLine>,
    duplicates: u64,
    differing: u64,
    cut_short: u64,
}

/// Reads the files; every line must be of one match.
fn read_files(files: &[PathBuf]) -> Result<Read, Error> {
    let mut read = Read {
        header: None,
        games: BTreeMap::new(),
        duplicates: 0,
        differing: 0,
        cut_short: 0,
    };
    // The match id of the first line seen, and where.
    let mut id: Option<(String, String)> = None;
    let mut check_id = |got: &str, at: String| -> Result<(), Error> {
        match &id {
            None => {
                id = Some((got.to_string(), at));
                Ok(())
            }
            Some((want, first)) if want != got => Err(Error::settings(format!(
                "{at} belongs to match {got}, but {first} to match {want}: these files are \
                 not of one match"
            ))),
            Some(_) => Ok(()),
        }
    };
    for path in files {
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| Error::input(&file, None, e))?;
        let text = String::from_utf8_lossy(&bytes);
        let (lines, complete) =
            matchfile::parse_text(&text).map_err(|(n, e)| Error::input(&file, Some(n), e))?;
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
                Line::Entry(g) => {
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
) -> Result<Schedule, Error> {
    let cycle = seatings(kind.players(), header.engines.len());
    if cycle.len() as u64 != header.cycle {
        return Err(Error::settings(format!(
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
            return Err(Error::settings(format!(
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
