//! `arena play`: people against the engine in the terminal, one line of input per turn.
//! Works with stdin on a pipe (tests drive it) and ends cleanly at the end of input.

use std::io::BufRead;

use plyforge::search::{Game, Limits, Record};

use crate::analyse::show_score;
use crate::draw::{paint, Paint};
use crate::fail::{out, outln, Fail};
use plyforge::agent::{Agent, Spec};
use plyforge::duration::{parse_duration, show_duration};
use plyforge::{
    legal_moves, parse_player, play_text, player_letters, read_start, result_text, result_words,
    GameAdapter,
};

/// The options of `arena play`.
pub(crate) struct PlayOptions {
    /// Sides played by people.
    pub human: Vec<String>,
    /// Engine time per move.
    pub time: String,
    /// Engine depth per move.
    pub depth: Option<u32>,
    /// Engine threads.
    pub threads: usize,
    /// Start position.
    pub position: Option<String>,
    /// Engine spec.
    pub engine: Option<String>,
}

const HELP: &str = "\
Type a move in the game's notation, or one of:
  moves       list the legal moves (numbered; `#N` plays the N-th)
  board       draw the board again
  undo        take back your last move (and the engine's reply)
  help        this text
  quit        leave";

/// Which players are people.
fn humans<A: GameAdapter>(sides: &[String]) -> Result<Vec<bool>, Fail> {
    let mut h = vec![false; A::PLAYERS];
    if sides.is_empty() {
        h[0] = true;
        return Ok(h);
    }
    for s in sides.iter().flat_map(|s| s.split(',')) {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => h.iter_mut().for_each(|x| *x = true),
            "none" => {}
            _ => match parse_player::<A>(s) {
                Some(p) => h[p] = true,
                None => {
                    return Err(Fail::usage(format!(
                        "--human {s:?}: not a side of {} (sides: {}, all, none)",
                        A::TITLE,
                        player_letters::<A>()
                    )))
                }
            },
        }
    }
    Ok(h)
}

fn show_board<A: GameAdapter>(record: &Record<A::Pos>) {
    out!("{}", A::draw(record.position(), &crate::draw::paint));
    outln!("{}", paint(&record.position().to_string(), Paint::Dim));
}

fn side<A: GameAdapter>(p: plyforge::search::Player) -> String {
    format!("{} ({})", A::player_name(p), A::player_letter(p))
}

/// Runs `arena play`.
///
/// Long by design: the interactive loop is one `match` over whose turn it is and what the
/// user typed (a move, `moves`, `undo`, `help`, `quit`), each arm a few lines on the one
/// record.
pub(crate) fn play<A: GameAdapter>(o: &PlayOptions) -> Result<(), Fail> {
    let humans = humans::<A>(&o.human)?;
    let start = match &o.position {
        Some(p) => read_start::<A>(p)?,
        None => A::start(),
    };
    let mut agents = engines::<A>(o, &humans)?;
    let mut record = Record::<A::Pos>::new(start);
    let mut lines = std::io::stdin().lock().lines();

    outln!("{}: you play {}.  Type `help` for commands.", A::TITLE, {
        let mine: Vec<String> = (0..A::PLAYERS)
            .filter(|&p| humans[p])
            .map(side::<A>)
            .collect();
        if mine.is_empty() {
            "no side (the engine plays itself)".to_string()
        } else {
            mine.join(" and ")
        }
    });
    show_board::<A>(&record);
    loop {
        if let Some(result) = record.result() {
            outln!(
                "{}",
                paint(
                    &format!("Game over: {}.", result_words::<A>(result)),
                    Paint::Bold
                )
            );
            outln!("result: {}", result_text::<A>(result));
            return Ok(());
        }
        let p = record.position().to_move();
        if let Some(agent) = agents[p].as_mut() {
            engine_move::<A>(agent, &mut record)?;
            continue;
        }
        out!("{} to move> ", side::<A>(p));
        let line = match lines.next() {
            Some(Ok(line)) => line,
            Some(Err(e)) => return Err(Fail::runtime(format!("reading input: {e}"))),
            None => {
                outln!();
                outln!("End of input: leaving the game unfinished.");
                return Ok(());
            }
        };
        if person::<A>(line.trim(), &mut record, &humans) == AfterLine::Quit {
            outln!("Bye.");
            return Ok(());
        }
    }
}

/// The engines of `arena play`: one per side that no person plays.
fn engines<A: GameAdapter>(
    o: &PlayOptions,
    humans: &[bool],
) -> Result<Vec<Option<Agent<A>>>, Fail> {
    let spec = match &o.engine {
        Some(text) => {
            Spec::parse::<A>(text).map_err(|e| Fail::usage(format!("--engine: {}", e.reason())))?
        }
        None => Spec::recommended::<A>()
            .map_err(|e| Fail::usage(format!("the game's engine: {}", e.reason())))?,
    };
    let time = parse_duration(&o.time).map_err(|e| Fail::usage(format!("--time: {e}")))?;
    let limits = match o.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(time),
    };
    let mut agents = Vec::new();
    for (p, &human) in humans.iter().enumerate() {
        agents.push(match human {
            true => None,
            false => Some(Agent::try_new(
                &spec,
                limits,
                Some(o.threads),
                p as u64 + 1,
            )?),
        });
    }
    Ok(agents)
}

/// The engine's move, played and shown.
fn engine_move<A: GameAdapter>(
    agent: &mut Agent<A>,
    record: &mut Record<A::Pos>,
) -> Result<(), Fail> {
    let p = record.position().to_move();
    let (mv, report) = agent.choose(record, |_| {});
    let mv = mv.ok_or_else(|| {
        Fail::runtime(format!("the engine found no move in {}", record.position()))
    })?;
    let detail = report
        .map(|r| {
            format!(
                "  (depth {}, score {}, {})",
                r.depth,
                show_score(r.score),
                show_duration(r.elapsed)
            )
        })
        .unwrap_or_default();
    record
        .play(mv)
        .map_err(|e| Fail::runtime(format!("the engine chose the illegal move {mv}: {e}")))?;
    outln!(
        "{} plays {}{}",
        side::<A>(p),
        paint(&mv.to_string(), Paint::Bold),
        detail
    );
    show_board::<A>(record);
    Ok(())
}

/// Whether the game goes on after a person's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AfterLine {
    Go,
    Quit,
}

/// A person's line at the prompt: a command, or a move (`#N`: the N-th legal move).
fn person<A: GameAdapter>(input: &str, record: &mut Record<A::Pos>, humans: &[bool]) -> AfterLine {
    match input.to_ascii_lowercase().as_str() {
        "" => {}
        "help" | "?" | "h" => outln!("{HELP}"),
        "quit" | "exit" | "q" => return AfterLine::Quit,
        "board" | "b" if !is_move::<A>(record, input) => show_board::<A>(record),
        "moves" | "list" | "m" if !is_move::<A>(record, input) => {
            for (i, mv) in legal_moves(record.position()).iter().enumerate() {
                outln!("  #{:<3} {mv}", i + 1);
            }
        }
        "undo" | "u" => match undo::<A>(record, humans) {
            Some(r) => {
                *record = r;
                show_board::<A>(record);
            }
            None => outln!("Nothing to undo."),
        },
        _ => {
            if let Some(text) = chosen_move::<A>(input, record) {
                let p = record.position().to_move();
                match play_text::<A>(record, &text) {
                    Ok(mv) => {
                        outln!(
                            "{} plays {}",
                            side::<A>(p),
                            paint(&mv.to_string(), Paint::Bold)
                        );
                        show_board::<A>(record);
                    }
                    Err(why) => outln!(
                        "{} {}  (`moves` lists the legal moves, `help` the commands)",
                        paint(&format!("Illegal move {text:?}:"), Paint::Red),
                        why.reason()
                    ),
                }
            }
        }
    }
    AfterLine::Go
}

/// The move a person typed: the text, or for `#N` the N-th legal move (`None`, said why,
/// for a number out of range).
fn chosen_move<A: GameAdapter>(input: &str, record: &Record<A::Pos>) -> Option<String> {
    let Some(n) = input.strip_prefix('#') else {
        return Some(input.to_string());
    };
    let moves = legal_moves(record.position());
    match n.trim().parse::<usize>() {
        Ok(i) if i >= 1 && i <= moves.len() => Some(moves[i - 1].to_string()),
        _ => {
            outln!(
                "{}: there are {} legal moves; `moves` lists them",
                paint(&format!("bad choice {input:?}"), Paint::Red),
                moves.len()
            );
            None
        }
    }
}

/// True when the text is also a move (a word like `b` could be in some notation).
fn is_move<A: GameAdapter>(record: &Record<A::Pos>, text: &str) -> bool {
    A::parse_move(record.position(), text).is_ok()
}

/// The record with the last people's move taken back (and the engine replies after it).
fn undo<A: GameAdapter>(record: &Record<A::Pos>, humans: &[bool]) -> Option<Record<A::Pos>> {
    let moves = record.moves();
    // Positions before each move: find the last move made by a person.
    let mut pos = record.start().clone();
    let mut last_human = None;
    for (i, &mv) in moves.iter().enumerate() {
        if humans[pos.to_move()] {
            last_human = Some(i);
        }
        pos.play(mv);
    }
    let keep = last_human?;
    let mut r = Record::<A::Pos>::new(record.start().clone());
    for &mv in &moves[..keep] {
        r.play(mv).ok()?;
    }
    Some(r)
}
