//! The figures of a match from its games (those just played, those of a resumed file, or
//! those of merged shard files: the same function of the same games gives the same table),
//! and the table that shows them.
//!
//! With `--sprt` the match is the sequence of its pairs in schedule order, and the test is
//! decided on the longest run of complete pairs from the first: the first prefix of `k`
//! pairs whose LLR crosses a bound stops the match, and the match is those `k` pairs. So the
//! verdict, and the games it counts, do not depend on how many games ran at once, on the
//! order they finished in, or on how the match was split into shards.

use std::collections::BTreeMap;

use std::fmt::Write as _;

use crate::elo;
use crate::matchfile::{Ending, GameLine};
use crate::schedule::Schedule;
use crate::sprt::{self, Estimate, Pentanomial, Sprt, Verdict};

/// How the table emphasises its headings and verdicts: `arena` makes them bold on a
/// terminal; [`plain`] leaves them as they are.
pub type Emphasis<'a> = &'a dyn Fn(&str) -> String;

/// No emphasis.
pub fn plain(text: &str) -> String {
    text.to_string()
}

/// `writeln!` into a `String` (which cannot fail).
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {
        let _ = writeln!($out, $($arg)*);
    };
}

/// What a table needs besides the games.
pub struct Context<'a> {
    /// The engine specifications.
    pub engines: &'a [String],
    /// Players per game.
    pub players: usize,
    /// The schedule.
    pub schedule: &'a Schedule,
    /// The test, if asked for.
    pub sprt: Option<Sprt>,
}

/// Where the test stands on the games at hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestState {
    /// Complete pairs from the first, in order.
    pub prefix: u64,
    /// The number of pairs at which the test stopped, if it did.
    pub stopped_at: Option<u64>,
    /// The LLR on the pairs counted.
    pub llr: f64,
    /// The verdict.
    pub verdict: Verdict,
}

/// Results of one engine.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Both won.
    pub both_win: u32,
    /// Both lost.
    pub both_lose: u32,
    /// Seats that finished 1st, 2nd, 3rd.
    pub places: [u32; 3],
}

impl Tally {
    /// Points: a win 1, anything but a loss ½.
    pub fn score(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws + self.both_win + self.both_lose)
    }
    /// Seats held.
    pub fn seats(&self) -> u32 {
        self.places.iter().sum()
    }
    /// The mean place over the seats held.
    pub fn mean_place(&self) -> f64 {
        let n = self.seats();
        if n == 0 {
            return 0.0;
        }
        let sum: u32 = self
            .places
            .iter()
            .enumerate()
            .map(|(i, c)| (i as u32 + 1) * c)
            .sum();
        f64::from(sum) / f64::from(n)
    }
}

/// The figures of a set of games.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Games counted.
    pub games: u64,
    /// Their plies (the openings' included).
    pub plies: u64,
    /// Per engine.
    pub tally: Vec<Tally>,
    /// Head to head: `[i][j]` = (wins, draws, losses) of engine i against engine j.
    pub h2h: Vec<Vec<(u32, u32, u32)>>,
    /// Two engines in a two-player game: pair counts for engine 1.
    pub pentanomial: Option<Pentanomial>,
    /// The test.
    pub test: Option<TestState>,
    /// Games played but not counted (beyond the point where the test stopped).
    pub beyond_stop: u64,
    /// Games adjudicated.
    pub adjudicated: u64,
}

/// Engine 1's half points (0, 1, 2) in a game.
fn half_points(line: &GameLine) -> u32 {
    match line.ending {
        Ending::Win(seat) if line.seats[seat] == 0 => 2,
        Ending::Win(_) => 0,
        Ending::Loss(seat) if line.seats[seat] == 0 => 0,
        Ending::Loss(_) => 2,
        _ => 1,
    }
}

/// The pentanomial index of opening `o` if all its games are at hand (`game` looks a game
/// up by its index).
pub fn pair<'g>(
    game: &impl Fn(u64) -> Option<&'g GameLine>,
    schedule: &Schedule,
    o: u64,
) -> Option<usize> {
    let range = schedule.games_of(o);
    if range.end - range.start != 2 {
        return None;
    }
    let mut sum = 0;
    for g in range {
        sum += half_points(game(g)?);
    }
    Some(sum as usize)
}

/// The test on the complete pairs from the first, advanced as games come in: each pair is
/// looked at once, so a match of many pairs costs one LLR per pair.
#[derive(Clone, Debug)]
pub struct TestTracker {
    sprt: Sprt,
    counts: Pentanomial,
    prefix: u64,
    stopped_at: Option<u64>,
    llr: f64,
    verdict: Verdict,
}

impl TestTracker {
    /// A test before its first pair.
    pub fn new(sprt: Sprt) -> TestTracker {
        TestTracker {
            sprt,
            counts: [0; 5],
            prefix: 0,
            stopped_at: None,
            llr: 0.0,
            verdict: Verdict::Continue,
        }
    }

    /// Takes in the pairs that are now complete after the prefix; returns the number of
    /// pairs at which the test stopped, if it has.
    pub fn advance<'g>(
        &mut self,
        schedule: &Schedule,
        game: impl Fn(u64) -> Option<&'g GameLine>,
    ) -> Option<u64> {
        while self.stopped_at.is_none() && self.prefix < schedule.openings() {
            let Some(i) = pair(&game, schedule, self.prefix) else {
                break;
            };
            self.counts[i] += 1;
            self.prefix += 1;
            self.llr = self.sprt.llr(&self.counts);
            self.verdict = self.sprt.verdict(self.llr);
            if self.verdict != Verdict::Continue {
                self.stopped_at = Some(self.prefix);
            }
        }
        self.stopped_at
    }
}

/// Where the test stands: walks the complete pairs from the first until a bound is crossed.
pub fn test_state(games: &BTreeMap<u64, GameLine>, schedule: &Schedule, s: &Sprt) -> TestState {
    let mut t = TestTracker::new(*s);
    if let Some(k) = t.advance(schedule, |g| games.get(&g)) {
        return TestState {
            prefix: k,
            stopped_at: Some(k),
            llr: t.llr,
            verdict: t.verdict,
        };
    }
    // Not decided: the LLR of every complete pair at hand (a shard's or a partial set's
    // pairs need not be a prefix).
    let all = pentanomial(games, schedule);
    TestState {
        prefix: t.prefix,
        stopped_at: None,
        llr: s.llr(&all),
        verdict: Verdict::Continue,
    }
}

/// Pair counts of every complete pair in `games`.
fn pentanomial(games: &BTreeMap<u64, GameLine>, schedule: &Schedule) -> Pentanomial {
    let mut counts = [0; 5];
    let mut openings: Vec<u64> = games.keys().map(|&g| schedule.opening_of(g)).collect();
    openings.dedup();
    for o in openings {
        if let Some(i) = pair(&|g| games.get(&g), schedule, o) {
            counts[i] += 1;
        }
    }
    counts
}

/// The figures of `games` (keyed by game index).
pub fn figures(ctx: &Context<'_>, games: &BTreeMap<u64, GameLine>) -> Figures {
    let two = ctx.players == 2 && ctx.engines.len() == 2;
    let test = match (two, ctx.sprt) {
        (true, Some(s)) => Some(test_state(games, ctx.schedule, &s)),
        _ => None,
    };
    let stop_games = test
        .and_then(|t| t.stopped_at)
        .map(|k| k * ctx.schedule.per_opening());
    let counted: BTreeMap<u64, GameLine> = games
        .iter()
        .filter(|(&g, _)| stop_games.map_or(true, |s| g < s))
        .map(|(&g, l)| (g, l.clone()))
        .collect();
    let n = ctx.engines.len();
    let mut tally = vec![Tally::default(); n];
    let mut h2h = vec![vec![(0u32, 0u32, 0u32); n]; n];
    let mut plies = 0;
    let mut adjudicated = 0;
    for line in counted.values() {
        plies += (line.opening_moves.len() + line.moves.len()) as u64;
        adjudicated += u64::from(line.adjudicated.is_some());
        let winner = match line.ending {
            Ending::Win(seat) => Some(line.seats[seat]),
            _ => None,
        };
        let loser = match line.ending {
            Ending::Loss(seat) => Some(line.seats[seat]),
            _ => None,
        };
        let mut present = vec![false; n];
        for (seat, &s) in line.seats.iter().enumerate() {
            if s < n {
                present[s] = true;
                let place = line.places.get(seat).copied().unwrap_or(1).clamp(1, 3);
                tally[s].places[place as usize - 1] += 1;
            }
        }
        for s in (0..n).filter(|&s| present[s]) {
            let t = &mut tally[s];
            t.games += 1;
            match (line.ending, winner) {
                (Ending::Win(_), Some(w)) if w == s => t.wins += 1,
                (Ending::Win(_), _) => t.losses += 1,
                (Ending::BothWin, _) => t.both_win += 1,
                (Ending::BothLose, _) => t.both_lose += 1,
                (Ending::Draw, _) => t.draws += 1,
                (Ending::Loss(_), _) if loser == Some(s) => t.losses += 1,
                (Ending::Loss(_), _) => t.draws += 1,
            }
            for other in (0..n).filter(|&j| j != s && present[j]) {
                let e = &mut h2h[s][other];
                match (winner, loser) {
                    (Some(w), _) if w == s => e.0 += 1,
                    (Some(w), _) if w == other => e.2 += 1,
                    (_, Some(l)) if l == other => e.0 += 1,
                    (_, Some(l)) if l == s => e.2 += 1,
                    _ => e.1 += 1,
                }
            }
        }
    }
    Figures {
        games: counted.len() as u64,
        plies,
        tally,
        h2h,
        pentanomial: two.then(|| pentanomial(&counted, ctx.schedule)),
        test,
        beyond_stop: (games.len() - counted.len()) as u64,
        adjudicated,
    }
}

/// A signed figure with one decimal: `+12.3`, `+inf`.
fn signed(x: f64) -> String {
    if x.is_infinite() {
        elo::show(x)
    } else if x.abs() < 0.05 {
        "0.0".to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// The table of `f`, one line after another (each ending in a newline): per engine games,
/// wins, draws, losses and score, Elo head to head, the three-player ranking, the pairs
/// and the test.
pub fn table(ctx: &Context<'_>, f: &Figures, bold: Emphasis<'_>) -> String {
    let mut out = String::new();
    let both = f.tally.iter().any(|t| t.both_win + t.both_lose > 0);
    let width = ctx
        .engines
        .iter()
        .map(|s| s.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let mut header = format!(" #  {:<width$}  games   wins  draws losses", "engine");
    if both {
        header.push_str("  both-win both-lose");
    }
    header.push_str("   score");
    put!(out, "{}", bold(&header));
    for (i, (s, t)) in ctx.engines.iter().zip(&f.tally).enumerate() {
        let mut line = format!(
            "{:>2}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>5}",
            i + 1,
            s,
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
        put!(out, "{line}");
    }
    for (i, row) in f.h2h.iter().enumerate() {
        for (j, &(w, d, l)) in row.iter().enumerate().skip(i + 1) {
            if let Some(e) = elo::elo(w, d, l) {
                put!(
                    out,
                    "Elo engine {} vs engine {}: {} (95% interval {} .. {}), head to head +{} ={} -{}",
                    i + 1,
                    j + 1,
                    bold(&elo::show(e.diff)),
                    elo::show(e.low),
                    elo::show(e.high),
                    w,
                    d,
                    l
                );
            }
        }
    }
    if ctx.players == 3 {
        ranking(&mut out, ctx, f, bold);
    }
    if let Some(p) = f.pentanomial {
        pairs(&mut out, &p);
    }
    if let (Some(t), Some(s)) = (f.test, ctx.sprt) {
        test(&mut out, ctx, &s, &t, f, bold);
    }
    if f.adjudicated > 0 {
        put!(
            out,
            "{} games adjudicated (see --max-plies, --resign, --draw, --clock)",
            f.adjudicated
        );
    }
    out
}

/// The three-player ranking: by average place over the seats each engine held.
fn ranking(out: &mut String, ctx: &Context<'_>, f: &Figures, bold: Emphasis<'_>) {
    let mut order: Vec<usize> = (0..ctx.engines.len()).collect();
    order.sort_by(|&a, &b| {
        let (ta, tb) = (&f.tally[a], &f.tally[b]);
        ta.mean_place()
            .total_cmp(&tb.mean_place())
            .then(tb.score().total_cmp(&ta.score()))
            .then(a.cmp(&b))
    });
    let names: Vec<String> = (0..ctx.engines.len())
        .map(|i| format!("{} ({})", ctx.engines[i], i + 1))
        .collect();
    let width = names.iter().map(|s| s.len()).max().unwrap_or(6).max(6);
    put!(
        out,
        "{}",
        bold(&format!(
            "rank  {:<width$}  seats    1st    2nd    3rd  mean place",
            "engine"
        ))
    );
    for (rank, &i) in order.iter().enumerate() {
        let t = &f.tally[i];
        put!(
            out,
            "{:>4}  {:<width$}  {:>5}  {:>5}  {:>5}  {:>5}  {:>10.2}",
            rank + 1,
            names[i],
            t.seats(),
            t.places[0],
            t.places[1],
            t.places[2],
            t.mean_place()
        );
    }
    put!(
        out,
        "places: the winner 1st; players with the same result share the better place, \
         losers ordered by the game's progress (such as exits)"
    );
}

/// The pairs' pentanomial and the Elo estimates on them.
fn pairs(out: &mut String, p: &Pentanomial) {
    let Some(e) = sprt::estimate(p) else {
        return;
    };
    let Estimate {
        pairs,
        elo,
        elo95,
        nelo,
        nelo95,
        los,
        ..
    } = e;
    let pm = |x: Option<f64>| x.map_or("(no spread)".to_string(), |x| format!("± {x:.1}"));
    put!(
        out,
        "pairs {pairs}: pentanomial [LL, LD, DD+WL, WD, WW] = [{}, {}, {}, {}, {}] for engine 1",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4]
    );
    put!(
        out,
        "engine 1 on pairs: Elo {} {}, nElo {} ± {:.1}, LOS {}",
        signed(elo),
        pm(elo95),
        nelo.map_or("n/a".to_string(), signed),
        nelo95,
        los.map_or("n/a".to_string(), |l| format!("{:.1}%", 100.0 * l))
    );
}

/// The test: its settings, the LLR and the verdict.
fn test(
    out: &mut String,
    ctx: &Context<'_>,
    s: &Sprt,
    t: &TestState,
    f: &Figures,
    bold: Emphasis<'_>,
) {
    let settings = format!(
        "SPRT nElo [{}, {}], alpha {}, beta {}",
        s.elo0, s.elo1, s.alpha, s.beta
    );
    let bounds = format!("({:.2} .. {:.2})", s.lower(), s.upper());
    let verdict = match (t.stopped_at, t.verdict) {
        (Some(k), Verdict::H1) => format!(
            "H1 accepted after {k} pairs: engine 1 is better (by nElo {} or more)",
            s.elo1
        ),
        (Some(k), _) => format!(
            "H0 accepted after {k} pairs: engine 1 is not better by nElo {}",
            s.elo1
        ),
        (None, _) if t.prefix == ctx.schedule.openings() => format!(
            "no decision within the most games ({}): LLR between the bounds",
            ctx.schedule.games
        ),
        (None, _) => format!(
            "undecided: {} of {} pairs complete from the first (the test runs on pairs in \
             order: the other pairs are elsewhere or still to play)",
            t.prefix,
            ctx.schedule.openings()
        ),
    };
    put!(
        out,
        "{settings}: LLR {} {bounds}",
        bold(&format!("{:.2}", t.llr))
    );
    put!(out, "verdict: {}", bold(&verdict));
    if f.beyond_stop > 0 {
        put!(
            out,
            "{} game{} played after the pair that decided the test not counted",
            f.beyond_stop,
            if f.beyond_stop == 1 { "" } else { "s" }
        );
    }
}
