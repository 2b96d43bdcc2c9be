//! `arena connect GAME ADDR`: our engine as an agent of the match server. It follows the
//! game from the server's lines and, on its turn, thinks under the server's clock: the
//! time left less a latency margin, shared over the moves left with a reserve, so that it
//! does not lose on time.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use plyforge::search::{Limits, Player, Record};

use super::wire::{self, MAX_LINE};
use crate::Error;
use plyforge::agent::{Agent, Kind, SearchEngine, Spec};
use plyforge::duration::parse_duration;
use plyforge::{parse_player, play_text, result_words, GameAdapter};

use super::ConnectOptions;

/// The player behind the connection.
enum Brain<A: GameAdapter> {
    /// The search engine, thinking on the clock (and within the spec's own limits, if any).
    Search(Box<SearchEngine<A>>, Box<Spec>),
    /// The greedy or random player.
    Other(Box<Agent<A>>),
}

impl<A: GameAdapter> Brain<A> {
    /// A move on the server's clock: `remaining` for this side, `left` moves it may still
    /// have to make by the server's count, `margin` kept for the network and the scheduler
    /// on every move (the floor of the one clock rule, at least the game's own).
    fn choose(
        &mut self,
        record: &Record<A::Pos>,
        remaining: Duration,
        left: u32,
        margin: Duration,
    ) -> Option<A::Move> {
        match self {
            Brain::Search(engine, spec) => {
                let own = spec.limits(Limits::default());
                let limits = A::CLOCK.with_floor(margin).limits(
                    own,
                    remaining,
                    Some(A::moves_to_go(record.position()).map_or(left, |m| m.min(left))),
                );
                let report = engine.think(record, limits, |_| {});
                report
                    .best
                    .or_else(|| record.legal_moves().first().copied())
            }
            Brain::Other(agent) => agent.choose(record, |_| {}).0,
        }
    }
}

/// Sends `ping` every [`PING_EVERY`] while the agent is not in a game (the server closes
/// agents idle outside a game; see `--idle` of `arena serve`).
struct Pinger {
    in_game: std::sync::Arc<std::sync::atomic::AtomicBool>,
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

/// How often an agent outside a game says `ping`.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(60);

impl Pinger {
    fn start(stream: &TcpStream) -> Result<Pinger, Error> {
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let mut w = stream
            .try_clone()
            .map_err(|e| Error::io(format!("socket: {e}")))?;
        let in_game = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let (g, d) = (in_game.clone(), done.clone());
        std::thread::spawn(move || {
            let step = Duration::from_millis(200);
            let mut waited = Duration::ZERO;
            while !d.load(Ordering::SeqCst) {
                std::thread::sleep(step);
                waited += step;
                if g.load(Ordering::SeqCst) {
                    waited = Duration::ZERO;
                } else if waited >= PING_EVERY {
                    waited = Duration::ZERO;
                    // One write of a whole line: it cannot split another line.
                    if w.write_all(b"ping\n").is_err() {
                        return;
                    }
                }
            }
        });
        Ok(Pinger { in_game, done })
    }

    fn in_game(&self, yes: bool) {
        self.in_game.store(yes, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Drop for Pinger {
    fn drop(&mut self) {
        self.done.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes (a longer one is cut); `None` at the end.
fn read_line(r: &mut impl BufRead) -> std::io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_LINE as u64 * 64)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') {
        // Skip the rest of an over-long line.
        let mut rest = Vec::new();
        r.read_until(b'\n', &mut rest)?;
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}

struct Conn {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Conn {
    fn send(&mut self, line: &str) -> Result<(), Error> {
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.writer.flush())
            .map_err(|e| Error::io(format!("writing to the server: {e}")))
    }
    fn recv(&mut self) -> Result<Option<String>, Error> {
        read_line(&mut self.reader).map_err(|e| Error::io(format!("reading from the server: {e}")))
    }
}

/// The game being played.
struct Current<A: GameAdapter> {
    id: String,
    me: Player,
    opponents: String,
    record: Option<Record<A::Pos>>,
    /// Our last move was refused: play the first legal move next, whatever the engine says.
    refused: bool,
}

/// The player of `arena connect`'s options (checked here), and the safety margin.
fn make_brain<A: GameAdapter>(o: &ConnectOptions) -> Result<(Brain<A>, Duration), Error> {
    let margin =
        parse_duration(&o.margin).map_err(|e| Error::settings(format!("--margin: {e}")))?;
    if !wire::valid_name(&o.name) {
        return Err(Error::settings(format!(
            "--name {:?}: 1 to {} letters, digits, `_`, `-` or `.`",
            o.name,
            wire::MAX_NAME
        )));
    }
    if o.threads == 0 || o.threads > 256 {
        return Err(Error::settings(format!(
            "--threads {}: between 1 and 256",
            o.threads
        )));
    }
    let spec = match &o.engine {
        Some(text) => Spec::parse::<A>(text)
            .map_err(|e| Error::settings(format!("--engine: {}", e.reason())))?,
        None => Spec::recommended::<A>()
            .map_err(|e| Error::settings(format!("the game's engine: {}", e.reason())))?,
    };
    let brain: Brain<A> = match spec.kind {
        Kind::Search(_) => Brain::Search(
            Box::new(SearchEngine::try_new(
                spec.config::<A>(Some(o.threads)),
                spec.evaluator::<A>(),
            )?),
            Box::new(spec.clone()),
        ),
        _ => Brain::Other(Box::new(Agent::new(
            &spec,
            Limits::default(),
            Some(o.threads),
            1,
        ))),
    };

    Ok((brain, margin))
}

/// The handshake: the server's hello checked (protocol version, game), ours sent.
fn greet<A: GameAdapter>(conn: &mut Conn, o: &ConnectOptions) -> Result<(), Error> {
    let first = conn
        .recv()?
        .ok_or_else(|| Error::peer("the server closed the connection at once"))?;
    let words: Vec<&str> = first.split_whitespace().collect();
    match words[..] {
        ["hello", "arena-server", version, game] => {
            if version != wire::VERSION.to_string() {
                return Err(Error::peer(format!(
                    "the server speaks protocol version {version}, we speak {}",
                    wire::VERSION
                )));
            }
            if game != A::NAME {
                return Err(Error::settings(format!(
                    "the server plays {game}, not {}",
                    A::NAME
                )));
            }
        }
        ["bye", reason] => return Err(Error::peer(format!("the server said bye: {reason}"))),
        ["error", "limit", ..] => {
            // Turned away (too many connections): the reason, then `bye`.
            return Err(Error::peer(format!(
                "the server turned us away: {}",
                first.splitn(3, ' ').nth(2).unwrap_or("")
            )));
        }
        _ => return Err(Error::peer(format!("not an arena server: {first:?}"))),
    }
    conn.send(&format!("hello {} {}", wire::VERSION, o.name))?;
    Ok(())
}

/// How a finished game went for us: 0 won, 1 another result, 2 lost; and the result in
/// words (the rules' own when they ended it).
fn game_over<A: GameAdapter>(c: &Current<A>, reason: &str, result: &str) -> (usize, String) {
    let mine = A::player_letter(c.me);
    let outcome = if result == format!("winner {mine}") {
        0
    } else if result.starts_with("winner") || result == format!("loss {mine}") {
        2
    } else {
        1
    };
    let words = match c
        .record
        .as_ref()
        .and_then(|r| r.result())
        .filter(|_| reason == "rules")
    {
        Some(o) => result_words::<A>(o),
        None => result.to_string(),
    };
    (outcome, words)
}

/// Plays on the server at `o.addr` until it says goodbye (or `--games` are played): one
/// `match` over the server's line words, each handled by a method of [`Client`].
pub(crate) fn run<A: GameAdapter>(o: &ConnectOptions) -> Result<(), Error> {
    let (brain, margin) = make_brain::<A>(o)?;
    let stream = TcpStream::connect(&o.addr)
        .map_err(|e| Error::io(format!("cannot connect to {}: {e}", o.addr)))?;
    let _ = stream.set_nodelay(true);
    let writer = stream
        .try_clone()
        .map_err(|e| Error::io(format!("socket: {e}")))?;
    let mut conn = Conn {
        reader: BufReader::new(stream),
        writer,
    };
    greet::<A>(&mut conn, o)?;
    let mut client = Client {
        o,
        brain,
        margin,
        name: o.name.clone(),
        current: None,
        played: 0,
        points: [0; 3],
    };
    // Outside a game an agent says nothing, and the server closes agents idle too long: a
    // `ping` now and then keeps us.
    let pinger = Pinger::start(&conn.writer)?;
    loop {
        pinger.in_game(client.current.is_some());
        let line = match conn.recv() {
            Ok(Some(line)) => line,
            Ok(None) => return Err(client.lost("the server closed it without saying bye")),
            Err(e) => return Err(client.lost(&e.to_string())),
        };
        let (word, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        match word {
            "welcome" => client.name = rest.trim().to_string(),
            "game" => client.game(rest, &line)?,
            "start" => client.start(rest)?,
            "moved" => client.moved(rest)?,
            "turn" => client.turn(rest, &mut conn)?,
            "error" => client.error(rest, &line),
            "over" => client.over(rest, &mut conn)?,
            "bye" => {
                if !rest.is_empty() && !matches!(rest.trim(), "quit" | "done" | "shutdown") {
                    client.log(format!("server: bye {rest}"));
                }
                break;
            }
            _ => {}
        }
    }
    client.log(format!(
        "{}: {} games: {} won, {} other results, {} lost",
        client.name, client.played, client.points[0], client.points[1], client.points[2]
    ));
    Ok(())
}

/// What `arena connect` knows while it plays.
struct Client<'o, A: GameAdapter> {
    o: &'o ConnectOptions,
    brain: Brain<A>,
    margin: Duration,
    /// The name the server gave us.
    name: String,
    /// The game being played.
    current: Option<Current<A>>,
    played: u64,
    /// Wins, other results, losses.
    points: [u32; 3],
}

impl<A: GameAdapter> Client<'_, A> {
    fn log(&self, text: String) {
        if !self.o.quiet {
            eprintln!("{text}");
        }
    }

    /// The connection is lost: the failure, naming the game under way.
    fn lost(&self, how: &str) -> Error {
        let during = match &self.current {
            Some(c) => {
                let moves = c.record.as_ref().map_or(0, |r| r.moves().len());
                format!(" during game {} (after {moves} moves)", c.id)
            }
            None => String::new(),
        };
        Error::io(format!(
            "lost the connection to {}{during}: {how}",
            self.o.addr
        ))
    }

    /// `game ID LETTER MS MOVES NAME...`: we are seated.
    fn game(&mut self, rest: &str, line: &str) -> Result<(), Error> {
        let w: Vec<&str> = rest.split_whitespace().collect();
        let me = w.get(1).and_then(|l| parse_player::<A>(l)).ok_or_else(|| {
            Error::peer(format!(
                "the server's game line is not understood: {line:?}"
            ))
        })?;
        let names = w.get(4..).unwrap_or(&[]);
        let opponents: Vec<&str> = names
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != me)
            .map(|(_, n)| *n)
            .collect();
        self.current = Some(Current {
            id: w[0].to_string(),
            me,
            opponents: opponents.join(", "),
            record: None,
            refused: false,
        });
        Ok(())
    }

    /// `start POSITION`.
    fn start(&mut self, rest: &str) -> Result<(), Error> {
        if let Some(c) = self.current.as_mut() {
            let pos = A::parse_position(rest.trim())
                .map_err(|e| Error::peer(format!("the server's start position: {e}")))?;
            c.record = Some(Record::new(pos));
            let text = format!(
                "game {}: {} plays {} against {}",
                c.id,
                self.name,
                A::player_name(c.me),
                c.opponents
            );
            self.log(text);
        }
        Ok(())
    }

    /// `moved LETTER MOVE`.
    fn moved(&mut self, rest: &str) -> Result<(), Error> {
        if let Some(Current {
            record: Some(record),
            ..
        }) = self.current.as_mut()
        {
            let text = rest.split_once(' ').map_or("", |(_, m)| m);
            if let Err(e) = play_text::<A>(record, text) {
                return Err(Error::peer(format!(
                    "the server played {text:?}, which we cannot follow: {}",
                    e.reason()
                )));
            }
        }
        Ok(())
    }

    /// `turn LETTER CLOCKS... left=N`: when it is ours, a move on our clock.
    fn turn(&mut self, rest: &str, conn: &mut Conn) -> Result<(), Error> {
        let Some(c) = self.current.as_mut() else {
            return Ok(());
        };
        let Some(record) = c.record.as_ref() else {
            return Ok(());
        };
        let w: Vec<&str> = rest.split_whitespace().collect();
        if w.first().and_then(|l| parse_player::<A>(l)) != Some(c.me) {
            return Ok(());
        }
        let my_clock = format!("{}=", A::player_letter(c.me));
        let field = |key: &str| {
            w.iter()
                .find_map(|x| x.strip_prefix(key))
                .and_then(|v| v.parse::<u64>().ok())
        };
        let remaining = Duration::from_millis(field(&my_clock).unwrap_or(0));
        let left = field("left=").unwrap_or(1) as u32;
        let mv = if std::mem::take(&mut c.refused) {
            record.legal_moves().first().copied()
        } else {
            self.brain.choose(record, remaining, left, self.margin)
        };
        match mv {
            Some(mv) => conn.send(&format!("move {mv}")),
            None => conn.send("moves"),
        }
    }

    /// `error KIND ...`: shown; an illegal move of ours makes the next one the first legal.
    fn error(&mut self, rest: &str, line: &str) {
        self.log(format!("server: {line}"));
        if rest.starts_with("illegal") {
            if let Some(c) = self.current.as_mut() {
                c.refused = true;
            }
        }
    }

    /// `over REASON RESULT`: the game is scored; after `--games` games we quit.
    fn over(&mut self, rest: &str, conn: &mut Conn) -> Result<(), Error> {
        self.played += 1;
        let (reason, result) = rest.split_once(' ').unwrap_or((rest, ""));
        if let Some(c) = self.current.take() {
            let (outcome, words) = game_over(&c, reason, result);
            self.points[outcome] += 1;
            self.log(format!("game {} over: {words} ({reason})", c.id));
        }
        if self.o.games.is_some_and(|g| self.played >= g) {
            conn.send("quit")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_capped() {
        let long = format!("{}\nnext\r\n", "x".repeat(MAX_LINE * 70));
        let mut r = BufReader::new(long.as_bytes());
        let first = read_line(&mut r).expect("reading a slice").expect("a line");
        assert_eq!(first.len(), MAX_LINE * 64);
        assert_eq!(read_line(&mut r).expect("ok"), Some("next".to_string()));
        assert_eq!(read_line(&mut r).expect("ok"), None);
    }
}
