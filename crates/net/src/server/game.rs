//! One game: the seats' connections, the record through [`plyforge::search::Record`], one clock per
//! side that runs only while that side is to move, the server's move limit, and the record
//! file's lines.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use plyforge::search::{Game, Outcome, Player, Record};
use tokio::sync::{mpsc, watch};
use tokio::time::{sleep_until, Instant};

use super::conn::{ConnHandle, Ctrl, Leaving, SeatEvent};
use super::record::Recorder;
use super::wire;
use crate::Error;
use plyforge::{legal_moves, play_text, result_text, GameAdapter};

/// Where each game starts: `--position` as `arena match` reads it (a position, or `random`
/// / `fair`: a new one per game, of seed + game number); without it the rules' start.
pub(crate) struct GameStarts<A: GameAdapter>(lab::book::Starts<A>);

impl<A: GameAdapter> Clone for GameStarts<A> {
    fn clone(&self) -> Self {
        GameStarts(self.0.clone())
    }
}

impl<A: GameAdapter> GameStarts<A> {
    /// From `--position` and `--seed`.
    pub(crate) fn new(position: Option<&str>, seed: u64) -> Result<Self, Error> {
        use lab::book::Starts as S;
        Ok(GameStarts(match position {
            None => S::Fixed(A::start()),
            Some(_) => S::from_position(position, seed)?,
        }))
    }

    pub(crate) fn for_game(&self, id: u64) -> A::Pos {
        // A fair start is solved: let the runtime move its other tasks off this thread
        // meanwhile (the server's runtime has several). A seed without one within the game's
        // bound gets the rules' start, and the server says so.
        tokio::task::block_in_place(|| self.0.start(id)).unwrap_or_else(|e| {
            say(&format!("game {id}: {e}; it starts from the rules' start"));
            A::start()
        })
    }
}

/// Writes a line on stdout; a closed stdout does not stop the server.
pub(crate) fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Finish {
    /// The game's rules (or its history rules) ended it.
    Rules(Outcome),
    /// The server's move limit ended it.
    Limit(Outcome),
    /// A seat lost without the rules: its clock ran out, it left, or it was not there.
    Forfeit(Player, Forfeit),
    /// Several seats were not there: nobody scores.
    Void,
    /// The server was stopped during the game: nobody scores.
    Stopped,
    /// A seat left before making a move of its own (seating in arrival order): the game
    /// never started for it, nobody scores, and the others wait for another game.
    Unplayed(Player, Forfeit),
    /// A seat's connection had closed when the game was to begin: no game at all (nothing
    /// is recorded), and the others wait for another game.
    Unseated,
}

/// Why a seat forfeited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Forfeit {
    /// Its clock reached zero.
    Time,
    /// Its connection closed (or it did not read its lines).
    Disconnect,
    /// It said `quit`.
    Quit,
    /// It had gone before the game began.
    Absent,
}

impl Finish {
    /// The reason word of the `over` line and the record.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Finish::Rules(_) => "rules",
            Finish::Limit(_) => "limit",
            Finish::Forfeit(_, Forfeit::Time) => "time",
            Finish::Forfeit(_, Forfeit::Disconnect) => "disconnect",
            Finish::Forfeit(_, Forfeit::Quit) => "quit",
            Finish::Forfeit(_, Forfeit::Absent) => "absent",
            Finish::Void => "absent",
            Finish::Stopped => "stopped",
            Finish::Unplayed(s, why) => Finish::Forfeit(s, why).reason(),
            Finish::Unseated => "unseated",
        }
    }

    /// The outcome in the game's terms, where there is one: a two-player forfeit is a win
    /// of the other side.
    pub(crate) fn outcome(self, players: usize) -> Option<Outcome> {
        match self {
            Finish::Rules(o) | Finish::Limit(o) => Some(o),
            Finish::Forfeit(p, _) if players == 2 => Some(Outcome::Win(1 - p)),
            _ => None,
        }
    }

    /// The result text: as `arena apply` writes it (`winner X`, `draw score`, …), or
    /// `loss X` (a three-player forfeit), `void`, `aborted`.
    pub(crate) fn result<A: GameAdapter>(self) -> String {
        match (self.outcome(A::PLAYERS), self) {
            (Some(o), _) => result_text::<A>(o),
            (None, Finish::Forfeit(p, _)) => format!("loss {}", A::player_letter(p)),
            (None, Finish::Stopped) => "aborted".to_string(),
            (None, _) => "void".to_string(),
        }
    }

    /// Half-points per seat (win 2, loss 0, anything else 1, as `arena match` counts), or
    /// `None` when the game does not count.
    pub(crate) fn half_points(self, players: usize) -> Option<Vec<u32>> {
        match (self.outcome(players), self) {
            (Some(Outcome::Win(w)), _) => {
                Some((0..players).map(|p| if p == w { 2 } else { 0 }).collect())
            }
            (Some(_), _) => Some(vec![1; players]),
            (None, Finish::Forfeit(l, _)) => {
                Some((0..players).map(|p| if p == l { 0 } else { 1 }).collect())
            }
            (None, _) => None,
        }
    }
}

/// What a finished game reports to the lobby.
#[derive(Debug)]
pub(crate) struct Summary {
    /// The game number (0 for [`Finish::Unseated`]: no game).
    pub id: u64,
    /// Names in seat order.
    pub names: Vec<String>,
    /// Connection ids in seat order.
    pub conns: Vec<u64>,
    pub ending: Finish,
    /// The result text.
    pub result: String,
    pub plies: usize,
    /// Refused moves per seat.
    pub illegal: Vec<u32>,
    /// Thinking time per seat (moves played and refused attempts).
    pub used: Vec<Duration>,
    /// Moves played per seat.
    pub moves: Vec<u32>,
    /// The seats' connections that are still open, in seat order.
    pub back: Vec<ConnHandle>,
}

/// Everything a game needs to start.
pub(crate) struct NewGame<A: GameAdapter> {
    /// Game numbers: the game takes the next once its seats are there.
    pub ids: Arc<AtomicU64>,
    /// Seating in arrival order (not a round robin): a game whose seats are not all there,
    /// or that a seat leaves before the first move, does not count.
    pub pairing: bool,
    /// How each seat was given, for the `game N begins` line.
    pub titles: Vec<String>,
    /// Where games start (a random start is chosen by the game number).
    pub starts: GameStarts<A>,
    pub time: Duration,
    /// Moves per side.
    pub moves: u32,
    pub seats: Vec<ConnHandle>,
    pub recorder: Arc<Recorder>,
    pub stop: watch::Receiver<bool>,
}

struct Seating<A: GameAdapter> {
    id: u64,
    seats: Vec<ConnHandle>,
    present: Vec<bool>,
    recorder: Arc<Recorder>,
    _game: std::marker::PhantomData<fn() -> A>,
}

impl<A: GameAdapter> Seating<A> {
    fn all(&self, line: &str) {
        for (s, c) in self.seats.iter().enumerate() {
            if self.present[s] {
                c.send(line.to_string());
            }
        }
    }
    fn to(&self, seat: usize, line: String) {
        if self.present[seat] {
            self.seats[seat].send(line);
        }
    }
    fn rec(&self, text: &str) {
        self.recorder.line(&format!("{} {text}", self.id));
    }
}

fn letter<A: GameAdapter>(p: Player) -> &'static str {
    A::player_letter(p)
}

/// Plays one game to its end and reports it: the life of one game in order — seating (a
/// void game when a seat is gone), the opening lines, the play ([`play`]), the ending, the
/// record's end line and fsync, the summary.
pub(crate) async fn run<A: GameAdapter>(setup: NewGame<A>) -> Summary {
    let NewGame {
        ids,
        pairing,
        titles,
        starts,
        time,
        moves: limit,
        seats,
        recorder,
        mut stop,
    } = setup;
    let players = A::PLAYERS;
    let (inbox, mut events) = mpsc::channel::<(usize, SeatEvent)>(64);
    let mut present = vec![true; players];
    for (s, c) in seats.iter().enumerate() {
        present[s] = c.join(inbox.clone(), s).await;
    }
    drop(inbox);
    let names: Vec<String> = seats.iter().map(|c| c.name.clone()).collect();
    if pairing && present.contains(&false) {
        // A connection closed before the game began: no game. The others wait again.
        return unseated(seats, &present, names, players).await;
    }
    let id = ids.fetch_add(1, Ordering::SeqCst) + 1;
    say(&format!("game {id} begins: {}", titles.join(" vs ")));
    let mut t = Seating::<A> {
        id,
        seats,
        present,
        recorder,
        _game: std::marker::PhantomData,
    };
    let mut record: Record<A::Pos> = Record::new(starts.for_game(id));
    let mut clocks = vec![time; players];
    let mut illegal = vec![0u32; players];
    let mut used = vec![Duration::ZERO; players];
    let mut made = vec![0u32; players];
    announce(&t, &record, time, limit, &names);

    let absent: Vec<usize> = (0..players).filter(|&s| !t.present[s]).collect();
    let ending = match absent[..] {
        [] => {
            play(
                &mut t,
                &mut record,
                Clocks {
                    clocks: &mut clocks,
                    illegal: &mut illegal,
                    used: &mut used,
                    made: &mut made,
                },
                limit as usize * players,
                &mut events,
                &mut stop,
            )
            .await
        }
        [one] => Finish::Forfeit(one, Forfeit::Absent),
        _ => Finish::Void,
    };
    // A seat that forfeited by leaving is gone already; say nothing more to it.
    let mut ending = ending;
    if let Finish::Forfeit(s, why @ (Forfeit::Disconnect | Forfeit::Quit)) = ending {
        t.present[s] = false;
        if pairing && made[s] == 0 {
            // Left before making a move: the game never started for it (it may have left
            // before it even knew it was seated); not a result.
            ending = Finish::Unplayed(s, why);
        }
    }
    let result = conclude(&t, &record, ending, &clocks).await;
    Summary {
        id,
        names,
        conns: t.seats.iter().map(|c| c.id).collect(),
        ending,
        result,
        plies: record.moves().len(),
        illegal,
        used,
        moves: made,
        back: back_to_lobby(&t.seats, &t.present).await,
    }
}

/// The seats still there, sent back to the lobby (those that are not gone).
async fn back_to_lobby(seats: &[ConnHandle], present: &[bool]) -> Vec<ConnHandle> {
    let mut back = Vec::new();
    for (s, c) in seats.iter().enumerate() {
        if present[s] && c.control(Ctrl::Leave).await && !c.is_gone() {
            back.push(c.clone());
        }
    }
    back
}

/// The summary of a game that never began (a seat was gone before it): void, the others
/// back to the lobby.
async fn unseated(
    seats: Vec<ConnHandle>,
    present: &[bool],
    names: Vec<String>,
    players: usize,
) -> Summary {
    Summary {
        id: 0,
        names,
        conns: seats.iter().map(|c| c.id).collect(),
        ending: Finish::Unseated,
        result: "void".to_string(),
        plies: 0,
        illegal: vec![0; players],
        used: vec![Duration::ZERO; players],
        moves: vec![0; players],
        back: back_to_lobby(&seats, present).await,
    }
}

/// The game's first lines: to the record and to each seat.
fn announce<A: GameAdapter>(
    t: &Seating<A>,
    record: &Record<A::Pos>,
    time: Duration,
    limit: u32,
    names: &[String],
) {
    t.rec(&format!(
        "game {} {} {limit} {}",
        A::NAME,
        wire::ms(time),
        names.join(" ")
    ));
    t.rec(&format!("start {}", record.position()));
    for s in 0..A::PLAYERS {
        t.to(
            s,
            format!(
                "game {} {} {} {limit} {}",
                t.id,
                letter::<A>(s),
                wire::ms(time),
                names.join(" ")
            ),
        );
    }
    t.all(&format!("start {}", record.position()));
}

/// The end of a game: its end line on the record, made durable before anybody hears that
/// it is over, then `over` to the seats. Returns the result.
async fn conclude<A: GameAdapter>(
    t: &Seating<A>,
    record: &Record<A::Pos>,
    ending: Finish,
    clocks: &[Duration],
) -> String {
    let result = ending.result::<A>();
    let clock_text: Vec<String> = (0..A::PLAYERS)
        .map(|s| format!("{}={}", letter::<A>(s), wire::ms(clocks[s])))
        .collect();
    t.rec(&format!(
        "end {} {} plies={} {}",
        ending.reason(),
        result,
        record.moves().len(),
        clock_text.join(" ")
    ));
    t.recorder.sync().await;
    t.all(&format!("over {} {result}", ending.reason()));
    result
}

/// The per-seat counters a game keeps.
struct Clocks<'a> {
    clocks: &'a mut [Duration],
    illegal: &'a mut [u32],
    used: &'a mut [Duration],
    made: &'a mut [u32],
}

/// Moves the side to move may still make, at most: the plies left shared out in turn.
fn moves_left(plies_left: usize, players: usize) -> u32 {
    plies_left.div_ceil(players) as u32
}

/// What a seat's message did to the turn.
enum Turn {
    /// The side to move still has to move.
    Goes,
    /// The side to move has moved.
    Moved,
    /// The game is over.
    Over(Finish),
}

impl Clocks<'_> {
    /// `side` has used `spent` of its clock on this turn.
    fn spend(&mut self, side: usize, spent: Duration) {
        self.used[side] += spent;
        self.clocks[side] = self.clocks[side].saturating_sub(spent);
    }

    /// `side`'s clock has run out: it loses on time.
    fn flag(&mut self, side: usize) -> Finish {
        self.used[side] += self.clocks[side];
        self.clocks[side] = Duration::ZERO;
        Finish::Forfeit(side, Forfeit::Time)
    }
}

/// The moves of one game until it ends: the turn line, then one `select!` over the seats'
/// messages, the mover's clock and the server's stop, until a move is made.
async fn play<A: GameAdapter>(
    t: &mut Seating<A>,
    record: &mut Record<A::Pos>,
    mut k: Clocks<'_>,
    limit_plies: usize,
    events: &mut mpsc::Receiver<(usize, SeatEvent)>,
    stop: &mut watch::Receiver<bool>,
) -> Finish {
    let players = A::PLAYERS;
    loop {
        if let Some(o) = record.result() {
            return Finish::Rules(o);
        }
        let plies = record.moves().len();
        if plies >= limit_plies {
            return Finish::Limit(A::limit_outcome(record.position()));
        }
        let side = record.position().to_move();
        let left = moves_left(limit_plies - plies, players);
        let turn = |clocks: &[Duration]| {
            let c: Vec<(&str, Duration)> =
                (0..players).map(|s| (letter::<A>(s), clocks[s])).collect();
            wire::turn_line(letter::<A>(side), &c, left)
        };
        t.all(&turn(k.clocks));
        let began = Instant::now();
        let deadline = began + k.clocks[side];
        loop {
            // Checked here too, not only by the timer below: requests that keep arriving
            // (another seat flooding `moves`) must not put off a flag.
            if Instant::now() >= deadline {
                return k.flag(side);
            }
            tokio::select! {
                biased;
                changed = stop.changed() => {
                    if changed.is_err() || *stop.borrow() {
                        k.spend(side, began.elapsed());
                        return Finish::Stopped;
                    }
                }
                ev = events.recv() => {
                    let Some((seat, ev)) = ev else {
                        // Every session has ended (each reports `Gone` first; this is a
                        // safety net).
                        return Finish::Forfeit(side, Forfeit::Disconnect);
                    };
                    match on_event(t, record, &mut k, (side, began), seat, ev, &turn) {
                        Turn::Goes => {}
                        Turn::Moved => break,
                        Turn::Over(f) => return f,
                    }
                }
                () = sleep_until(deadline) => return k.flag(side),
            }
        }
    }
}

/// One seat's message during the turn of `side` (which began at `began`): a move, a move
/// out of turn, `moves`, `position`, or the seat gone.
fn on_event<A: GameAdapter>(
    t: &mut Seating<A>,
    record: &mut Record<A::Pos>,
    k: &mut Clocks<'_>,
    (side, began): (usize, Instant),
    seat: usize,
    ev: SeatEvent,
    turn: &dyn Fn(&[Duration]) -> String,
) -> Turn {
    match ev {
        SeatEvent::Gone(how) => {
            if seat == side {
                k.spend(side, began.elapsed());
            }
            let why = match how {
                Leaving::Quit => Forfeit::Quit,
                Leaving::Disconnect => Forfeit::Disconnect,
            };
            Turn::Over(Finish::Forfeit(seat, why))
        }
        SeatEvent::Moves => {
            let list: Vec<String> = legal_moves(record.position())
                .iter()
                .map(|m| m.to_string())
                .collect();
            t.to(
                seat,
                format!("legal {}", list.join(";")).trim_end().to_string(),
            );
            Turn::Goes
        }
        SeatEvent::Position => {
            t.to(seat, format!("position {}", record.position()));
            Turn::Goes
        }
        SeatEvent::Move(_) if seat != side => {
            t.to(
                seat,
                wire::error_line("turn", &format!("it is {}'s turn", letter::<A>(side))),
            );
            Turn::Goes
        }
        SeatEvent::Move(text) => on_move(t, record, k, (side, began), &text, turn),
    }
}

/// A move sent by the side to move: played and recorded, or refused (recorded, the reason
/// sent, the turn again) while its clock runs on.
fn on_move<A: GameAdapter>(
    t: &mut Seating<A>,
    record: &mut Record<A::Pos>,
    k: &mut Clocks<'_>,
    (side, began): (usize, Instant),
    text: &str,
    turn: &dyn Fn(&[Duration]) -> String,
) -> Turn {
    let spent = began.elapsed();
    if spent >= k.clocks[side] {
        return Turn::Over(k.flag(side));
    }
    match play_text::<A>(record, text) {
        Ok(mv) => {
            k.spend(side, spent);
            k.made[side] += 1;
            t.rec(&format!(
                "move {} {} {mv}",
                letter::<A>(side),
                wire::ms(spent)
            ));
            t.all(&format!("moved {} {mv}", letter::<A>(side)));
            Turn::Moved
        }
        Err(reason) => {
            k.illegal[side] += 1;
            let shown = wire::shown(text, 80);
            t.rec(&format!(
                "illegal {} {} {shown}",
                letter::<A>(side),
                wire::ms(spent)
            ));
            t.to(
                side,
                wire::error_line("illegal", &format!("{shown}: {}", reason.reason())),
            );
            let mut now = k.clocks.to_vec();
            now[side] = now[side].saturating_sub(spent);
            t.to(side, turn(&now));
            Turn::Goes
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plyforge::games::{Chexers, Throne};

    #[test]
    fn endings_score_and_read() {
        let time = Finish::Forfeit(0, Forfeit::Time);
        assert_eq!(time.result::<Throne>(), "winner w");
        assert_eq!(time.half_points(2), Some(vec![0, 2]));
        assert_eq!(time.reason(), "time");
        let gone = Finish::Forfeit(1, Forfeit::Disconnect);
        assert_eq!(gone.result::<Chexers>(), "loss g");
        assert_eq!(gone.half_points(3), Some(vec![1, 0, 1]));
        assert_eq!(Finish::Stopped.half_points(2), None);
        assert_eq!(Finish::Stopped.result::<Throne>(), "aborted");
        let draw = Finish::Limit(Outcome::Draw(plyforge::search::DrawKind::Score));
        assert_eq!(draw.result::<Throne>(), "draw score");
        assert_eq!(draw.half_points(2), Some(vec![1, 1]));
    }

    #[test]
    fn moves_left_shares_plies() {
        assert_eq!(moves_left(300, 2), 150);
        assert_eq!(moves_left(299, 2), 150);
        assert_eq!(moves_left(1, 2), 1);
        assert_eq!(moves_left(768, 3), 256);
    }
}
