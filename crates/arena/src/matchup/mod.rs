//! `arena match`: engine specifications play each other from openings with the seats
//! rotated, several games at once; a progress bar while they play, a table with Elo (and
//! for two engines the pentanomial, normalised Elo and the SPRT) at the end; every game
//! written to a file that a killed match resumes from and that `arena merge` combines
//! across the shards of one match.
//!
//! The rooms: [`schedule`] (which games, which seats, which shard), [`book`] (where each
//! opening starts), `game` (one game and its adjudication), [`matchfile`] (the match file),
//! [`sprt`] (the test) — these and `book` public, for the fuzz targets and tests —
//! `summary` (figures and table), `merge` (`arena merge`), and this file, which runs a
//! match.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use plyforge::agent::{Kind, Spec};
use plyforge::duration::{parse_duration, show_duration};
use plyforge::search::rng::XorShift64Star as Rng;
use plyforge::search::{Limits, Record};
use plyforge::GameAdapter;

use crate::draw::{paint, Paint};
use crate::fail::{outln, Fail};

pub mod book;
pub(crate) mod game;
pub mod matchfile;
pub(crate) mod merge;
pub mod schedule;
pub mod sprt;
pub(crate) mod summary;

use book::Starts;
use game::Adjudication;
use matchfile::{GameLine, Header, Line};
use schedule::{seatings, Schedule, Shard};
use sprt::Sprt;

/// The options of `arena match`.
pub(crate) struct MatchOptions {
    /// Engine specs as given.
    pub engines: Vec<String>,
    /// Number of games (the most, with a test); `None`: 10, or 10,000 with a test.
    pub games: Option<usize>,
    /// Default time per move.
    pub time: String,
    /// Default threads.
    pub threads: usize,
    /// A start position for every game (or `random` / `fair`: one per opening).
    pub position: Option<String>,
    /// Random opening plies per opening.
    pub opening: Option<usize>,
    /// Seed.
    pub seed: u64,
    /// Record file (text).
    pub record: Option<PathBuf>,
    /// No per-game lines.
    pub quiet: bool,
    /// Games at once.
    pub concurrency: usize,
    /// Opening book.
    pub book: Option<PathBuf>,
    /// How the book is walked.
    pub book_order: book::Order,
    /// `--sprt ELO0 ELO1`.
    pub sprt: Option<(f64, f64)>,
    /// `--alpha`.
    pub alpha: f64,
    /// `--beta`.
    pub beta: f64,
    /// The match file.
    pub out: Option<PathBuf>,
    /// Continue the match of `out`.
    pub resume: bool,
    /// This process's slice.
    pub shard: Option<Shard>,
    /// Adjudication rules.
    pub adjudication: Adjudication,
}

/// Table size of a match engine whose spec does not set one: many engines live at once.
const MATCH_TT_MIB: usize = 16;

/// The most games of a test without `--games`.
const SPRT_GAMES: usize = 10_000;

/// How often a shard of a test looks at its siblings' files.
const WATCH_EVERY: Duration = Duration::from_secs(5);

/// FNV-1a, 64 bits: the match id is the hash of the settings' text (stable across machines
/// and versions of Rust, unlike `std`'s hasher).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A spec as an engine of a match, where many engines live at once: the table size it sets,
/// else [`MATCH_TT_MIB`] (or less, if the game recommends less).
pub(crate) fn with_match_table<A: GameAdapter>(mut spec: Spec) -> Spec {
    if spec.tt_mib.is_none() {
        spec.tt_mib = Some(MATCH_TT_MIB.min(A::engine_config().tt_mib.max(1)));
    }
    spec
}

/// The parsed engine specifications (table size capped for matches).
fn parse_specs<A: GameAdapter>(texts: &[String]) -> Result<Vec<Spec>, Fail> {
    let texts: Vec<String> = if texts.is_empty() {
        A::default_match().iter().map(|s| s.to_string()).collect()
    } else {
        texts.to_vec()
    };
    let mut specs = Vec::new();
    for t in &texts {
        let s = Spec::parse::<A>(t)
            .map_err(|e| Fail::usage(format!("--engine {t:?}: {}", e.reason())))?;
        specs.push(with_match_table::<A>(s));
    }
    Ok(specs)
}

/// Everything that decides which games a match plays and how, as text: the match id is its
/// hash. Concurrency, the shard, the output files and `--quiet` are not in it (they do not
/// change the games).
#[allow(clippy::too_many_arguments)]
fn settings_text<A: GameAdapter>(
    o: &MatchOptions,
    specs: &[Spec],
    games: u64,
    time: Duration,
    opening: usize,
    book_hash: Option<u64>,
    sprt: Option<Sprt>,
) -> String {
    let mut s = format!(
        "game={} engines={:?} games={} time={}us threads={} seed={} opening={}",
        A::NAME,
        specs.iter().map(|s| s.text.as_str()).collect::<Vec<_>>(),
        games,
        time.as_micros(),
        o.threads,
        o.seed,
        opening,
    );
    if let Some(p) = &o.position {
        s.push_str(&format!(" position={:?}", p.trim()));
    }
    if let Some(h) = book_hash {
        let order = match o.book_order {
            book::Order::Sequential => "sequential",
            book::Order::Random => "random",
        };
        s.push_str(&format!(" book={h:016x} book-order={order}"));
    }
    let a = &o.adjudication;
    if let Some(m) = a.max_plies {
        s.push_str(&format!(" max-plies={m}"));
    }
    if let Some(r) = a.resign {
        s.push_str(&format!(" resign={},{}", r.moves, r.score));
    }
    if let Some(d) = a.draw {
        s.push_str(&format!(" draw={},{},{}", d.from_ply, d.moves, d.score));
    }
    if let Some(t) = sprt {
        s.push_str(&format!(
            " sprt={},{} alpha={} beta={}",
            t.elo0, t.elo1, t.alpha, t.beta
        ));
    }
    s
}

/// The games already in a match file being resumed, and where its complete lines end.
struct Resumed {
    games: BTreeMap<u64, GameLine>,
    complete: u64,
}

/// Reads a match file to resume: the header must be this match's (and this shard's).
fn read_resumed(path: &Path, header: &Header) -> Result<Option<Resumed>, Fail> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Fail::runtime(format!("--out {}: {e}", path.display()))),
    };
    let (lines, complete) = matchfile::parse_text(&text)
        .map_err(|(n, e)| Fail::usage(format!("--resume: {} line {n}: {e}", path.display())))?;
    if lines.is_empty() {
        return Ok(Some(Resumed {
            games: BTreeMap::new(),
            complete: 0,
        }));
    }
    let mut games = BTreeMap::new();
    for (n, line) in lines {
        match line {
            Line::Header(h) => {
                if h.match_id != header.match_id {
                    return Err(Fail::usage(format!(
                        "--resume: {} holds match {} ({}), but these options make match {} ({})",
                        path.display(),
                        h.match_id,
                        h.settings,
                        header.match_id,
                        header.settings
                    )));
                }
                if h.shard != header.shard {
                    let show = |s: Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
                    return Err(Fail::usage(format!(
                        "--resume: {} was written by shard {}, not {}",
                        path.display(),
                        show(h.shard),
                        show(header.shard)
                    )));
                }
            }
            Line::Game(g) => {
                if g.match_id != header.match_id {
                    return Err(Fail::usage(format!(
                        "--resume: {} line {n} belongs to match {}, not {}",
                        path.display(),
                        g.match_id,
                        header.match_id
                    )));
                }
                games.entry(g.game).or_insert(g);
            }
        }
    }
    Ok(Some(Resumed {
        games,
        complete: complete as u64,
    }))
}

/// The match file: created with its header, or opened to append after its last complete line.
fn open_out(
    path: &Path,
    header: &Header,
    resumed: &Option<Resumed>,
) -> Result<BufWriter<File>, Fail> {
    open_lines(
        path,
        &matchfile::header_json(header),
        resumed.as_ref().map(|r| r.complete),
    )
}

/// A JSON-lines file (a match file, a tune file): created with `header` as its first line,
/// or, when it has `complete` bytes of complete lines (a resumed file), cut back to them
/// (a line a kill cut short goes) and opened to append.
pub(crate) fn open_lines(
    path: &Path,
    header: &str,
    complete: Option<u64>,
) -> Result<BufWriter<File>, Fail> {
    let fail = |e: std::io::Error| Fail::runtime(format!("--out {}: {e}", path.display()));
    if let Some(len) = complete.filter(|&n| n > 0) {
        let mut f = OpenOptions::new().write(true).open(path).map_err(fail)?;
        f.set_len(len).map_err(fail)?;
        f.seek(SeekFrom::End(0)).map_err(fail)?;
        return Ok(BufWriter::new(f));
    }
    let mut w = BufWriter::new(File::create(path).map_err(fail)?);
    writeln!(w, "{header}")
        .and_then(|()| w.flush())
        .map_err(fail)?;
    Ok(w)
}

/// A shard of a test reads the other files of its directory (its siblings on a shared
/// volume) for games of the same match, so that it stops when the test is decided on all
/// the shards' games together. (`arena tune`'s workers read each other's files the same way.)
pub(crate) struct Siblings {
    dir: PathBuf,
    own: PathBuf,
    offsets: HashMap<PathBuf, u64>,
    last: Option<Instant>,
    every: Duration,
}

impl Siblings {
    /// The siblings of file `own` (the other `.jsonl` files of its directory), looked at
    /// at most once every `every`.
    pub(crate) fn new(own: &Path, every: Duration) -> Siblings {
        let dir = match own.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Siblings {
            dir,
            own: own.file_name().map(PathBuf::from).unwrap_or_default(),
            offsets: HashMap::new(),
            last: None,
            every,
        }
    }

    /// Hands each new complete line of the sibling files to `each` (at most every
    /// `every`; a line cut short is read when it is complete).
    pub(crate) fn poll(&mut self, mut each: impl FnMut(&str)) {
        if self.last.is_some_and(|t| t.elapsed() < self.every) {
            return;
        }
        self.last = Some(Instant::now());
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.file_name().map(PathBuf::from) == Some(self.own.clone())
                || path.extension().and_then(|e| e.to_str()) != Some("jsonl")
            {
                continue;
            }
            let offset = self.offsets.get(&path).copied().unwrap_or(0);
            let Ok(mut f) = File::open(&path) else {
                continue;
            };
            let mut bytes = Vec::new();
            if f.seek(SeekFrom::Start(offset)).is_err() || f.read_to_end(&mut bytes).is_err() {
                continue;
            }
            let text = String::from_utf8_lossy(&bytes);
            let mut used = 0;
            for chunk in text.split_inclusive('\n') {
                if !chunk.ends_with('\n') {
                    break;
                }
                used += chunk.len();
                each(chunk.trim());
            }
            self.offsets.insert(path, offset + used as u64);
        }
    }

    /// New games of match `match_id` in the sibling files.
    fn poll_games(&mut self, match_id: &str, into: &mut BTreeMap<u64, GameLine>) {
        self.poll(|line| {
            if let Ok(Line::Game(g)) = matchfile::parse_line(line) {
                if g.match_id == match_id {
                    into.entry(g.game).or_insert(g);
                }
            }
        });
    }
}

/// Looks a game up in `a`, then in `b`.
fn either<'a>(
    a: &'a BTreeMap<u64, GameLine>,
    b: &'a BTreeMap<u64, GameLine>,
) -> impl Fn(u64) -> Option<&'a GameLine> + 'a {
    move |g| a.get(&g).or_else(|| b.get(&g))
}

/// A game in the old text record format of `--record`.
fn record_text(line: &GameLine, index: u64, letters: &dyn Fn(usize) -> &'static str) -> String {
    let names: Vec<String> = line
        .engines
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{}: {}", letters(p), s))
        .collect();
    let mut text = format!(
        "# game {} | start: {} | result: {} | {} | opening: {} plies\n",
        index + 1,
        line.start,
        line.result,
        names.join(", "),
        line.opening_moves.len()
    );
    for mv in line.opening_moves.iter().chain(&line.moves) {
        text.push_str(mv);
        text.push('\n');
    }
    text
}

/// What a match plays, from its options: the specifications, the schedule, the starts and
/// the opening plies, the test and the match file's header (every option checked here).
struct Plan<A: GameAdapter> {
    specs: Vec<Spec>,
    sprt: Option<Sprt>,
    games: u64,
    time: Duration,
    fallback: Limits,
    schedule: Schedule,
    starts: Starts<A>,
    opening: usize,
    header: Header,
}

/// Checks the options of `arena match` and works out its [`Plan`].
fn plan<A: GameAdapter>(o: &MatchOptions) -> Result<Plan<A>, Fail> {
    let specs = parse_specs::<A>(&o.engines)?;
    let cycle = seatings(A::PLAYERS, specs.len());
    if cycle.is_empty() {
        return Err(Fail::usage(format!(
            "{} needs {} engine specifications (--engine SPEC, given {})",
            A::TITLE,
            if A::PLAYERS == 3 { "2 or 3" } else { "2" },
            specs.len()
        )));
    }
    let sprt = match o.sprt {
        None => None,
        Some(_) if A::PLAYERS != 2 => {
            return Err(Fail::usage(format!(
                "--sprt: {} has three players: no game pairs with the seats swapped and no \
                 single Elo difference to test (the table ranks the engines instead)",
                A::TITLE
            )))
        }
        Some((e0, e1)) => Some(Sprt::new(e0, e1, o.alpha, o.beta).map_err(Fail::usage)?),
    };
    if sprt.is_none() && (o.alpha != 0.05 || o.beta != 0.05) {
        return Err(Fail::usage("--alpha and --beta go with --sprt"));
    }
    if A::PLAYERS != 2 && (o.adjudication.resign.is_some() || o.adjudication.draw.is_some()) {
        return Err(Fail::usage(format!(
            "--resign and --draw judge two-player games by the engines' scores; {} has three \
             players (--max-plies applies)",
            A::TITLE
        )));
    }
    let games = o
        .games
        .unwrap_or(if sprt.is_some() { SPRT_GAMES } else { 10 }) as u64;
    if games == 0 {
        return Err(Fail::usage("--games must be at least 1"));
    }
    if o.concurrency == 0 || o.concurrency > 1024 {
        return Err(Fail::usage(format!(
            "--concurrency {}: between 1 and 1024",
            o.concurrency
        )));
    }
    if o.resume && o.out.is_none() {
        return Err(Fail::usage(
            "--resume continues the match of --out FILE: give it",
        ));
    }
    let time = parse_duration(&o.time).map_err(|e| Fail::usage(format!("--time: {e}")))?;
    let fallback = Limits::movetime(time.max(Duration::from_millis(1)));
    let schedule = Schedule { cycle, games };
    if o.book.is_some() && o.position.is_some() {
        return Err(Fail::usage(
            "--book and --position both give the start: choose one",
        ));
    }
    let (starts, book_hash) = match &o.book {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| Fail::usage(format!("--book {}: {e}", path.display())))?;
            (
                Starts::<A>::book(path, o.book_order, o.seed, schedule.openings())?,
                Some(fnv1a(&bytes)),
            )
        }
        None => (
            Starts::<A>::from_position(o.position.as_deref(), o.seed)?,
            None,
        ),
    };
    let opening = o
        .opening
        .unwrap_or(if starts.is_fixed() || starts.is_book() {
            0
        } else {
            A::default_opening_plies()
        });
    let settings = settings_text::<A>(o, &specs, games, time, opening, book_hash, sprt);
    let header = Header {
        match_id: format!("{:016x}", fnv1a(settings.as_bytes())),
        game: A::NAME.to_string(),
        engines: specs.iter().map(|s| s.text.clone()).collect(),
        games,
        cycle: schedule.per_opening(),
        sprt,
        shard: o.shard,
        settings,
    };

    Ok(Plan {
        specs,
        sprt,
        games,
        time,
        fallback,
        schedule,
        starts,
        opening,
        header,
    })
}

/// Says what is about to happen: the engines, the openings, the shard, the match file, the
/// games at once (with a warning when they need more cores than there are).
fn announce<A: GameAdapter>(o: &MatchOptions, plan: &Plan<A>, earlier: usize) {
    let Plan {
        specs,
        sprt,
        games,
        time,
        schedule,
        starts,
        opening,
        header,
        ..
    } = plan;
    let (games, time, opening) = (*games, *time, *opening);
    if sprt.is_some() {
        outln!(
            "{} match, at most {} games, {} per move unless the spec says otherwise",
            paint(A::TITLE, Paint::Bold),
            games,
            show_duration(time)
        );
    } else {
        outln!(
            "{} match, {} games, {} per move unless the spec says otherwise",
            paint(A::TITLE, Paint::Bold),
            games,
            show_duration(time)
        );
    }
    for (i, s) in specs.iter().enumerate() {
        outln!("  engine {}: {}", i + 1, s.text);
    }
    if let Some(path) = &o.book {
        if let Starts::Book { positions, .. } = &starts {
            outln!(
                "  openings: {} ({} positions, {} order){}",
                path.display(),
                positions.len(),
                match o.book_order {
                    book::Order::Sequential => "sequential",
                    book::Order::Random => "random",
                },
                if opening > 0 {
                    format!(", then {opening} random plies")
                } else {
                    String::new()
                }
            );
        }
    }
    if let Some(s) = o.shard {
        outln!(
            "  shard {s}: {} of the {games} games",
            schedule.games_for(o.shard).len()
        );
    }
    if let Some(path) = &o.out {
        if earlier > 0 {
            outln!(
                "  games to {} (match {}; {} games there already)",
                path.display(),
                header.match_id,
                earlier
            );
        } else {
            outln!("  games to {} (match {})", path.display(), header.match_id);
        }
    }
    let threads_per_game = specs
        .iter()
        .filter(|s| matches!(s.kind, Kind::Search(_)))
        .map(|s| s.threads.unwrap_or(o.threads))
        .max()
        .unwrap_or(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if o.concurrency > 1 {
        outln!(
            "  {} games at once, each using up to {} thread{} while an engine thinks",
            o.concurrency,
            threads_per_game,
            if threads_per_game == 1 { "" } else { "s" }
        );
    }
    if o.concurrency * threads_per_game > cores {
        eprintln!(
            "arena: warning: --concurrency {} x {} thread{} per engine needs {} cores, and {} \
             are available: games share cores, so timed engines think less than asked",
            o.concurrency,
            threads_per_game,
            if threads_per_game == 1 { "" } else { "s" },
            o.concurrency * threads_per_game,
            cores
        );
    }
}

/// The line a finished game prints (without `--quiet`).
fn game_text<A: GameAdapter>(line: &GameLine, games: u64) -> String {
    let seats: Vec<String> = line
        .seats
        .iter()
        .enumerate()
        .map(|(p, &s)| format!("{}={}", A::player_letter(p), s + 1))
        .collect();
    let who = match line.ending {
        matchfile::Ending::Win(seat) => format!(" (engine {})", line.seats[seat] + 1),
        _ => String::new(),
    };
    let adjudicated = line
        .adjudicated
        .as_ref()
        .map_or(String::new(), |a| format!(" [adjudicated: {a}]"));
    format!(
        "game {:>3}/{}  seats {}  {}{}{}  {} plies",
        line.game + 1,
        games,
        seats.join(" "),
        paint(&line.result, Paint::Bold),
        who,
        adjudicated,
        line.opening_moves.len() + line.moves.len()
    )
}

/// One game of the match by its index, on a thread's engines.
pub(crate) type PlayOne<'a, A> =
    dyn Fn(&mut game::Engines<A>, u64) -> Result<GameLine, Fail> + Sync + 'a;

/// Plays the games `jobs` (in this order, `concurrency` at a time, each thread with engines
/// of its own for `engines` seats) and hands each finished game to `handle` on this thread,
/// in the order they finish; no new game starts once `stop` is set.
pub(crate) fn play_jobs<A: GameAdapter>(
    concurrency: usize,
    jobs: &[u64],
    engines: usize,
    stop: &AtomicBool,
    play_one: &PlayOne<'_, A>,
    handle: &mut dyn FnMut(Result<GameLine, Fail>),
) {
    if concurrency == 1 {
        // One at a time, on this thread: nothing is played after the test stops.
        let mut seats = game::Engines::new(engines);
        for &g in jobs {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            handle(play_one(&mut seats, g));
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<GameLine, Fail>>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.min(jobs.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut seats = game::Engines::new(engines);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&g) = jobs.get(i) else {
                        break;
                    };
                    if tx.send(play_one(&mut seats, g)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            handle(result);
        }
    });
}

/// The runner's speed: games per second and where each game's time went.
fn speed_line(
    elapsed: Duration,
    played: u64,
    concurrency: usize,
    think_ms: f64,
    setup_ms: f64,
) -> String {
    let secs = elapsed.as_secs_f64().max(1e-9);
    let per = |x: f64| x / played as f64;
    // Each of the `concurrency` threads had the match's wall time to share among its
    // games; what the engines did not use of it went to the runner (or to waiting for a
    // core).
    let slot_ms = secs * 1000.0 * concurrency.min(played as usize).max(1) as f64;
    format!(
        "speed: {:.2} games/s with {} at once; per game: engines searching {:.2} ms, \
         getting ready {:.2} ms (tables new or cleared), the rest {:.2} ms (the runner, \
         and waiting for a core)",
        played as f64 / secs,
        concurrency,
        per(think_ms),
        per(setup_ms),
        per(slot_ms - think_ms - setup_ms).max(0.0)
    )
}

/// Runs `arena match`.
///
/// Long by design: after the plan and the announcement it is the life of one match's
/// mutable state (the match file, the record file, the games so far, the test's tracker,
/// the siblings' games, the counters), which the handler of finished games updates and the
/// table at the end reads; split further, each piece would take most of that state by
/// `&mut`.
pub(crate) fn run_match<A: GameAdapter>(o: &MatchOptions) -> Result<(), Fail> {
    let plan = plan::<A>(o)?;
    let (schedule, header) = (&plan.schedule, &plan.header);
    let files = open_files(o, header)?;
    let mut tally = MatchState::new(o, &plan, files);
    let jobs = tally.pending(o, schedule);
    let earlier = tally.earlier;
    announce(o, &plan, earlier);
    // The openings of the games to play, built once per opening (by whichever game needs
    // it first: fair starts are solved, so this is work worth sharing).
    let openings: HashMap<u64, OnceLock<Record<A::Pos>>> = jobs
        .iter()
        .map(|&g| (schedule.opening_of(g), OnceLock::new()))
        .collect();
    let build_opening = |o_index: u64| -> Record<A::Pos> {
        let mut record = Record::<A::Pos>::new(plan.starts.start(o_index));
        let mut rng = Rng::seeded(o.seed.wrapping_mul(1_000_003).wrapping_add(o_index));
        book::play_opening::<A>(&mut record, plan.opening, &mut rng);
        record
    };
    let setup = game::Setup {
        match_id: &header.match_id,
        specs: &plan.specs,
        fallback: plan.fallback,
        threads: o.threads,
        seed: o.seed,
        adjudication: o.adjudication,
    };
    let bar = progress_bar(jobs.len());
    let started = Instant::now();
    let stop = AtomicBool::new(tally.decided);
    let play_one = |engines: &mut game::Engines<A>, g: u64| {
        let op = schedule.opening_of(g);
        let from = openings[&op].get_or_init(|| build_opening(op));
        game::play::<A>(&setup, engines, g, op, schedule.seats_of(g), from)
    };
    play_jobs::<A>(
        o.concurrency,
        &jobs,
        plan.specs.len(),
        &stop,
        &play_one,
        &mut |result| tally.finished::<A>(o, &plan, result, &stop, &bar),
    );
    bar.finish_and_clear();
    tally.close()?;
    report::<A>(o, &plan, tally, started.elapsed());
    Ok(())
}

/// The files of a match: the match file (new, or resumed with the games it holds) and the
/// text record.
struct Files {
    resumed: Option<Resumed>,
    out: Option<BufWriter<File>>,
    record: Option<BufWriter<File>>,
}

fn open_files(o: &MatchOptions, header: &Header) -> Result<Files, Fail> {
    let resumed = match &o.out {
        Some(path) if o.resume => read_resumed(path, header)?,
        Some(path) => {
            if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
                return Err(Fail::usage(format!(
                    "--out {}: the file exists (--resume continues its match; or remove it)",
                    path.display()
                )));
            }
            None
        }
        None => None,
    };
    let out = match &o.out {
        Some(path) => Some(open_out(path, header, &resumed)?),
        None => None,
    };
    let record = match &o.record {
        Some(path) => {
            Some(BufWriter::new(File::create(path).map_err(|e| {
                Fail::runtime(format!("--record {}: {e}", path.display()))
            })?))
        }
        None => None,
    };
    Ok(Files {
        resumed,
        out,
        record,
    })
}

/// The progress bar of a match of `games` games.
fn progress_bar(games: usize) -> ProgressBar {
    progress_bar_of(games, "games")
}

/// A progress bar over `len` of `unit` (`games`, `iterations`); its message is cut to the
/// terminal's width.
pub(crate) fn progress_bar_of(len: usize, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{spinner}} [{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {unit}  {{wide_msg}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The games of a match as they finish: written to the files, counted, and fed to the test.
struct MatchState {
    /// Every game of this match's file (the earlier ones and those played now).
    all: BTreeMap<u64, GameLine>,
    /// Games in the file before this run.
    earlier: usize,
    /// The match id.
    match_id: String,
    /// For a shard of a test: the other shards' files, and their games.
    siblings: Option<Siblings>,
    foreign: BTreeMap<u64, GameLine>,
    /// The test's stop, on the games at hand (this file's and, for a shard, its siblings').
    tracker: Option<summary::TestTracker>,
    /// The test was decided before this run played a game.
    decided: bool,
    out: Option<BufWriter<File>>,
    record: Option<BufWriter<File>>,
    played: u64,
    setup_ms: f64,
    think_ms: f64,
    /// The first failure; the match stops at it.
    error: Option<Fail>,
}

impl MatchState {
    fn new<A: GameAdapter>(o: &MatchOptions, plan: &Plan<A>, files: Files) -> MatchState {
        let all: BTreeMap<u64, GameLine> = files.resumed.map(|r| r.games).unwrap_or_default();
        let siblings = match (&o.out, o.shard, plan.sprt) {
            (Some(path), Some(_), Some(_)) => Some(Siblings::new(path, WATCH_EVERY)),
            _ => None,
        };
        MatchState {
            earlier: all.len(),
            all,
            match_id: plan.header.match_id.clone(),
            siblings,
            foreign: BTreeMap::new(),
            tracker: plan.sprt.map(summary::TestTracker::new),
            decided: false,
            out: files.out,
            record: files.record,
            played: 0,
            setup_ms: 0.0,
            think_ms: 0.0,
            error: None,
        }
    }

    /// The games still to play (of this shard, not in the file, before a decided test's
    /// stop).
    fn pending(&mut self, o: &MatchOptions, schedule: &Schedule) -> Vec<u64> {
        if let Some(w) = self.siblings.as_mut() {
            w.poll_games(&self.match_id, &mut self.foreign);
        }
        let stop_before = self
            .tracker
            .as_mut()
            .and_then(|t| t.advance(schedule, either(&self.all, &self.foreign)));
        self.decided = stop_before.is_some();
        schedule
            .games_for(o.shard)
            .into_iter()
            .filter(|g| !self.all.contains_key(g))
            .filter(|&g| stop_before.map_or(true, |k| schedule.opening_of(g) < k))
            .collect()
    }

    /// What is done with each finished game, in the order they finish.
    fn finished<A: GameAdapter>(
        &mut self,
        o: &MatchOptions,
        plan: &Plan<A>,
        result: Result<GameLine, Fail>,
        stop: &AtomicBool,
        bar: &ProgressBar,
    ) {
        let fail = |e: Fail, error: &mut Option<Fail>| {
            stop.store(true, Ordering::Relaxed);
            error.get_or_insert(e);
        };
        let line = match result {
            Ok(line) => line,
            Err(e) => return fail(e, &mut self.error),
        };
        if let Some(f) = self.out.as_mut() {
            if let Err(e) = writeln!(f, "{}", matchfile::game_json(&line)).and_then(|()| f.flush())
            {
                fail(
                    Fail::runtime(format!("writing the match file: {e}")),
                    &mut self.error,
                );
            }
        }
        if let Some(f) = self.record.as_mut() {
            let text = record_text(&line, line.game, &A::player_letter);
            if let Err(e) = f.write_all(text.as_bytes()) {
                fail(
                    Fail::runtime(format!("writing the record file: {e}")),
                    &mut self.error,
                );
            }
        }
        if !o.quiet {
            let text = game_text::<A>(&line, plan.games);
            bar.suspend(|| outln!("{text}"));
        }
        self.played += 1;
        self.setup_ms += line.setup_ms;
        self.think_ms += line.time_ms.iter().sum::<f64>();
        self.all.insert(line.game, line);
        if let Some(w) = self.siblings.as_mut() {
            w.poll_games(&self.match_id, &mut self.foreign);
        }
        if let (Some(t), false) = (self.tracker.as_mut(), stop.load(Ordering::Relaxed)) {
            if let Some(k) = t.advance(&plan.schedule, either(&self.all, &self.foreign)) {
                stop.store(true, Ordering::Relaxed);
                bar.set_message(format!(
                    "SPRT decided after {k} pairs: finishing the games under way"
                ));
            }
        }
        bar.inc(1);
    }

    /// Flushes the record file; the first failure of the run, if any.
    fn close(&mut self) -> Result<(), Fail> {
        if let Some(mut f) = self.record.take() {
            f.flush()
                .map_err(|e| Fail::runtime(format!("writing the record file: {e}")))?;
        }
        self.error.take().map_or(Ok(()), Err)
    }
}

/// The table: this match's games (for a shard, with its siblings' when it looked).
fn report<A: GameAdapter>(o: &MatchOptions, plan: &Plan<A>, tally: MatchState, elapsed: Duration) {
    let ctx = summary::Context {
        engines: &plan.header.engines,
        players: A::PLAYERS,
        schedule: &plan.schedule,
        sprt: plan.sprt,
    };
    let mut table_games = tally.all;
    let mut from_siblings = 0;
    for (g, l) in tally.foreign {
        if let std::collections::btree_map::Entry::Vacant(v) = table_games.entry(g) {
            v.insert(l);
            from_siblings += 1;
        }
    }
    let f = summary::figures(&ctx, &table_games);
    outln!();
    outln!(
        "{} games in {} ({} plies, {:.1} per game)",
        f.games,
        show_duration(elapsed),
        f.plies,
        f.plies as f64 / f.games.max(1) as f64
    );
    let (played, earlier) = (tally.played, tally.earlier);
    if earlier > 0 || from_siblings > 0 {
        outln!(
            "  of which played now {played}, earlier (in the file) {earlier}, by other shards {from_siblings}"
        );
    }
    if played > 0 {
        outln!(
            "{}",
            speed_line(
                elapsed,
                played,
                o.concurrency,
                tally.think_ms,
                tally.setup_ms
            )
        );
    }
    summary::print(&ctx, &f);
    if let Some(path) = &o.record {
        outln!("games written to {}", path.display());
    }
}
