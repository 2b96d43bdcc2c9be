//! Verification: the tuned values against the start values in a match of their own, on
//! fresh openings: an SPRT (fishtest's pentanomial test on normalised Elo) for a two-player
//! game, a fixed number of games with the table for three players. The match is an
//! ordinary [`Match`](crate::Match) with its match file, so a killed verification resumes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::run::{TuneOutcome, TuneSettings};
use crate::book;
use crate::error::Error;
use crate::game::Adjudication;
use crate::matches::MatchSettings;
use crate::matchfile::{self, GameLine, Line};
use crate::schedule::{seatings, Schedule};
use crate::sprt::{self, Pentanomial, Sprt, Verdict};
use crate::summary::pair;

/// The settings of a verification.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifySettings {
    /// The most games (default: 10,000 with a test, 60 without).
    pub games: Option<usize>,
    /// H0 and H1 in normalised Elo.
    pub sprt: (f64, f64),
    /// The match file (default: the tune file's name with `.verify.jsonl`).
    pub out: Option<PathBuf>,
}

impl Default for VerifySettings {
    /// The test [0, 10] on at most 10,000 games (60 games without a test).
    fn default() -> Self {
        VerifySettings {
            games: None,
            sprt: (0.0, 10.0),
            out: None,
        }
    }
}

/// The seed of the verification's openings: other than the tuning run's.
fn verify_seed(seed: u64) -> u64 {
    seed ^ 0x7E51_F1ED
}

/// The verification's match file for a tune file.
pub fn default_path(tune_file: &Path) -> PathBuf {
    let stem = tune_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "tune".to_string());
    tune_file.with_file_name(format!("{stem}.verify.jsonl"))
}

/// The match that verifies a finished run of a game of `players` players: the tuned
/// engine (engine 1) against the start values, on the run's time, threads, starts and
/// concurrency but new openings; its match file resumed if it exists. `None` when the
/// tuned values are the start values (nothing to verify).
pub fn verification(
    o: &TuneSettings,
    v: &VerifySettings,
    r: &TuneOutcome,
    players: usize,
) -> Option<MatchSettings> {
    let (tuned, start) = (r.tuned_spec(), r.start_spec());
    if tuned == start {
        return None;
    }
    let two = players == 2;
    let out = v.out.clone().or_else(|| o.out.as_deref().map(default_path));
    let resume = out.as_ref().is_some_and(|p| p.exists());
    Some(MatchSettings {
        engines: vec![tuned, start],
        specs: Vec::new(),
        games: Some(v.games.unwrap_or(if two { 10_000 } else { 60 })),
        time: o.time,
        threads: o.threads,
        position: o.position.clone(),
        opening: o.opening,
        seed: verify_seed(o.seed),
        record: None,
        concurrency: o.concurrency,
        book: o.book.clone(),
        book_order: book::Order::Random,
        sprt: two.then_some(v.sprt),
        alpha: 0.05,
        beta: 0.05,
        out,
        resume,
        shard: None,
        adjudication: Adjudication::default(),
        clock: None,
    })
}

/// What a verification's match file says, for the picture.
#[derive(Clone, Debug, PartialEq)]
pub struct Verified {
    /// The test's bounds, if it had one.
    pub sprt: Option<Sprt>,
    /// The LLR after each complete pair from the first (until a bound was crossed).
    pub llr: Vec<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// Logistic Elo of the tuned engine and half its 95% interval (on the pairs counted).
    pub elo: Option<(f64, f64)>,
    /// Normalised Elo.
    pub nelo: Option<f64>,
    /// Games in the file.
    pub games: usize,
}

/// Reads a verification's match file.
pub fn read(path: &Path) -> Result<Verified, Error> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::input(&file, None, e))?;
    let (lines, _) =
        matchfile::parse_text(&text).map_err(|(n, e)| Error::input(&file, Some(n), e))?;
    let mut header = None;
    let mut games: BTreeMap<u64, GameLine> = BTreeMap::new();
    for (_, line) in lines {
        match line {
            Line::Header(h) => header = Some(h),
            Line::Entry(g) => {
                games.entry(g.game).or_insert(g);
            }
        }
    }
    let h = header.ok_or_else(|| Error::input(&file, None, "no header"))?;
    let schedule = Schedule {
        cycle: seatings(if h.cycle == 2 { 2 } else { 3 }, h.engines.len()),
        games: h.games,
    };
    let mut counts: Pentanomial = [0; 5];
    let mut llr = Vec::new();
    let mut verdict = Verdict::Continue;
    if h.cycle == 2 {
        let mut o = 0;
        while let Some(i) = pair(&|g| games.get(&g), &schedule, o) {
            counts[i] += 1;
            o += 1;
            if let Some(s) = h.sprt {
                let x = s.llr(&counts);
                llr.push(x);
                verdict = s.verdict(x);
                if verdict != Verdict::Continue {
                    break;
                }
            }
        }
    }
    let est = sprt::estimate(&counts);
    Ok(Verified {
        sprt: h.sprt,
        llr,
        verdict,
        elo: est.as_ref().and_then(|e| e.elo95.map(|w| (e.elo, w))),
        nelo: est.and_then(|e| e.nelo),
        games: games.len(),
    })
}
