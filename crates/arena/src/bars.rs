//! The progress bars of `match`, `tune` and `train`: an [`Observer`] of the lab's runs that draws a
//! bar of games or iterations, prints each finished game (unless quiet), and says what a
//! worker waits for.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use lab::matchfile::{Ending, GameLine};
use lab::{Observer, Progress};
use plyforge::params::{show_number, Param};
use plyforge::GameAdapter;

use crate::draw::{paint, Paint};
use crate::fail::outln;

/// A progress bar over `len` of `unit` (`games`, `iterations`); its message is cut to the
/// terminal's width.
fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
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

/// The line a finished game of a match prints (without `--quiet`).
fn game_text<A: GameAdapter>(line: &GameLine, games: u64) -> String {
    let seats: Vec<String> = line
        .seats
        .iter()
        .enumerate()
        .map(|(p, &s)| format!("{}={}", A::player_letter(p), s + 1))
        .collect();
    let who = match line.ending {
        Ending::Win(seat) => format!(" (engine {})", line.seats[seat] + 1),
        Ending::Loss(seat) => format!(" (engine {} lost)", line.seats[seat] + 1),
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

/// The values as `name=value` pairs for the bar.
fn values_text(params: &[Param], theta: &[f64]) -> String {
    params
        .iter()
        .zip(theta)
        .map(|(p, &v)| {
            let v = if p.integer {
                format!("{v:.1}")
            } else {
                show_number(v)
            };
            format!("{}={v}", p.name)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where progress goes when stderr is not a terminal (a log file, a pipe): lines on stdout,
/// at most one every [`PLAIN_EVERY`] (and the last), so that a log shows a run as it goes.
struct Plain {
    total: u64,
    unit: &'static str,
    last: Option<Instant>,
}

/// How often a line of progress is printed when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

impl Plain {
    /// Prints `text` if the last line is [`PLAIN_EVERY`] old (or `always`).
    fn line(&mut self, always: bool, text: impl FnOnce() -> String) {
        if always || self.last.map_or(true, |t| t.elapsed() >= PLAIN_EVERY) {
            self.last = Some(Instant::now());
            outln!("{}", text());
        }
    }
}

/// The bar of a match or a tuning run of game `A`.
pub(crate) struct Bars<A: GameAdapter> {
    bar: Option<ProgressBar>,
    /// Progress as lines, when stderr is not a terminal (no bar is drawn then).
    plain: Option<Plain>,
    /// Print each game of a match.
    games: bool,
    /// A tuning run's parameters (the bar shows their values).
    params: Vec<Param>,
    /// How long a waiting worker has said it waits.
    said: Duration,
    game: std::marker::PhantomData<A>,
}

impl<A: GameAdapter> Bars<A> {
    /// A match's bar; each game printed unless `quiet`.
    pub(crate) fn for_match(quiet: bool) -> Self {
        Bars {
            bar: None,
            plain: None,
            games: !quiet,
            params: Vec::new(),
            said: Duration::ZERO,
            game: std::marker::PhantomData,
        }
    }

    /// A tuning run's bar, with its parameters' values.
    pub(crate) fn for_tuning(params: &[Param]) -> Self {
        Bars {
            params: params.to_vec(),
            ..Bars::for_match(true)
        }
    }
}

impl<A: GameAdapter> Observer for Bars<A> {
    fn progress(&mut self, event: Progress<'_>) {
        match event {
            Progress::Begin { total, unit } => {
                self.said = Duration::ZERO;
                if std::io::stderr().is_terminal() {
                    self.bar = Some(progress_bar(total, unit));
                } else {
                    self.plain = Some(Plain {
                        total,
                        unit,
                        last: None,
                    });
                }
            }
            Progress::Game { line, of } => {
                if let Some(plain) = &mut self.plain {
                    if self.games {
                        outln!("{}", game_text::<A>(line, of));
                    } else if self.params.is_empty() {
                        let n = line.game + 1;
                        plain.line(n == of, || format!("games: {n}/{of} played"));
                    }
                }
                if let Some(bar) = &self.bar {
                    if self.games {
                        let text = game_text::<A>(line, of);
                        bar.suspend(|| outln!("{text}"));
                    }
                    if self.params.is_empty() {
                        bar.inc(1);
                    }
                }
            }
            Progress::Decided { pairs } => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!(
                        "SPRT decided after {pairs} pairs: finishing the games under way"
                    ));
                }
            }
            Progress::Iteration { done, values } => {
                self.said = Duration::ZERO;
                if let Some(plain) = &mut self.plain {
                    let total = plain.total;
                    plain.line(done == total, || {
                        format!(
                            "iterations: {done}/{total}  {}",
                            values_text(&self.params, values)
                        )
                    });
                }
                if let Some(bar) = &self.bar {
                    bar.set_message(values_text(&self.params, values));
                    bar.set_position(done);
                }
            }
            Progress::Waiting {
                workers,
                of,
                what,
                since,
            } => self.waiting(workers, of, what, since),
            Progress::Played { done } => {
                if let Some(plain) = &mut self.plain {
                    let (total, unit) = (plain.total, plain.unit);
                    plain.line(done == total, || format!("{unit}: {done}/{total}"));
                }
                if let Some(bar) = &self.bar {
                    bar.set_position(done);
                }
            }
            Progress::Epoch { done, train, held } => {
                let held = held.map_or("none held out".to_string(), |h| format!("{h:.4} held out"));
                let text = format!("loss {train:.4} trained, {held}");
                if let Some(plain) = &mut self.plain {
                    let total = plain.total;
                    plain.line(done == total, || format!("epochs: {done}/{total}  {text}"));
                }
                if let Some(bar) = &self.bar {
                    bar.set_position(done);
                    bar.set_message(text);
                }
            }
            Progress::End => {
                if let Some(bar) = self.bar.take() {
                    bar.finish_and_clear();
                }
                self.plain = None;
            }
            _ => {}
        }
    }
}

impl<A: GameAdapter> Bars<A> {
    /// Which workers a worker waits for, on the bar, and once a minute as a line (a worker
    /// that is not running holds every other one here).
    fn waiting(&mut self, workers: &[u64], of: u64, what: &str, since: Duration) {
        let text = format!(
            "waiting for worker {} ({what})",
            workers
                .iter()
                .map(|w| format!("{w}/{of}"))
                .collect::<Vec<_>>()
                .join(", "),
        );
        if let Some(bar) = &self.bar {
            bar.set_message(text.clone());
        }
        if since >= self.said + Duration::from_secs(60) {
            self.said += Duration::from_secs(60);
            let shown = plyforge::duration::show_duration(since);
            match &self.bar {
                Some(bar) => bar.suspend(|| crate::errln!("{text} for {shown}")),
                None => crate::errln!("{text} for {shown}"),
            }
        }
    }
}
