//! The server's top level: accepting connections, seating agents (pairs in arrival order, or
//! a round robin), starting games, counting standings, and stopping (games done, or Ctrl-C).

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;

use super::conn::{self, ConnHandle, Ctrl, Shared};
use super::game::{self, Finish, Forfeit, NewGame, Summary};
use super::record::Recorder;
use super::Settings;
use crate::Error;
use plyforge::duration::show_duration;
use plyforge::GameAdapter;

/// One agent's results.
#[derive(Clone, Debug, Default)]
struct Standing {
    games: u32,
    half_points: u32,
    wins: u32,
    losses: u32,
    others: u32,
    time_losses: u32,
    left: u32,
    illegal: u32,
    moves: u32,
    used: Duration,
}

/// Results by agent name.
#[derive(Default)]
struct Standings {
    rows: BTreeMap<String, Standing>,
    games: u64,
    uncounted: u64,
}

impl Standings {
    fn add(&mut self, s: &Summary, players: usize) {
        let Some(points) = s.ending.half_points(players) else {
            self.uncounted += 1;
            return;
        };
        self.games += 1;
        for (seat, name) in s.names.iter().enumerate() {
            let row = self.rows.entry(name.clone()).or_default();
            row.games += 1;
            row.half_points += points[seat];
            match points[seat] {
                2 => row.wins += 1,
                0 => row.losses += 1,
                _ => row.others += 1,
            }
            if let Finish::Forfeit(l, why) = s.ending {
                if l == seat {
                    match why {
                        Forfeit::Time => row.time_losses += 1,
                        _ => row.left += 1,
                    }
                }
            }
            row.illegal += s.illegal[seat];
            row.moves += s.moves[seat];
            row.used += s.used[seat];
        }
    }

    fn print(&self, title: &str) {
        game::say(&format!(
            "standings {title}: {} games counted{}",
            self.games,
            if self.uncounted > 0 {
                format!(", {} not counted (aborted or void)", self.uncounted)
            } else {
                String::new()
            }
        ));
        let mut rows: Vec<(&String, &Standing)> = self.rows.iter().collect();
        rows.sort_by(|a, b| {
            b.1.half_points
                .cmp(&a.1.half_points)
                .then(a.1.games.cmp(&b.1.games))
                .then(a.0.cmp(b.0))
        });
        let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(4).max(4);
        game::say(&format!(
            "  #  {:width$}  games  points   win  other  loss  time  left  illegal  avg/move",
            "name"
        ));
        for (i, (name, r)) in rows.iter().enumerate() {
            let avg = if r.moves > 0 {
                show_duration(r.used / r.moves)
            } else {
                "-".to_string()
            };
            game::say(&format!(
                "{:>3}  {name:width$}  {:>5}  {:>6}  {:>4}  {:>5}  {:>4}  {:>4}  {:>4}  {:>7}  {:>8}",
                i + 1,
                r.games,
                format!("{}{}", r.half_points / 2, if r.half_points % 2 == 1 { ".5" } else { "" }),
                r.wins,
                r.others,
                r.losses,
                r.time_losses,
                r.left,
                r.illegal,
                avg
            ));
        }
    }
}

/// How games are made.
enum Mode {
    /// Seat waiting agents in arrival order; stop after `limit` games if set.
    Pairs {
        queue: VecDeque<ConnHandle>,
        limit: Option<u64>,
    },
    /// Wait for `size` agents, then play `schedule` (agent indices per seat).
    RoundRobin {
        size: usize,
        roster: Vec<ConnHandle>,
        busy: Vec<bool>,
        schedule: VecDeque<Vec<usize>>,
        cycles: u64,
    },
}

/// Every seating of a round robin among `n` agents: each pair twice with the seats swapped
/// (two players), each trio three times with the seats rotated (three players).
pub(crate) fn round_robin(n: usize, players: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if players == 2 {
        for a in 0..n {
            for b in a + 1..n {
                out.push(vec![a, b]);
            }
        }
        let swapped: Vec<Vec<usize>> = out.iter().map(|s| vec![s[1], s[0]]).collect();
        out.extend(swapped);
    } else {
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    out.push(vec![a, b, c]);
                    out.push(vec![b, c, a]);
                    out.push(vec![c, a, b]);
                }
            }
        }
    }
    out
}

struct Server<A: GameAdapter> {
    settings: Settings,
    starts: game::GameStarts<A>,
    recorder: Arc<Recorder>,
    stop: watch::Sender<bool>,
    running: JoinSet<Summary>,
    /// Game tasks started.
    launched: u64,
    /// Of those, games that do not count towards `--games`: seats that were not there, or
    /// left before the first move (seating in arrival order).
    void: u64,
    /// Game numbers, taken by each game once its seats are there.
    ids: Arc<AtomicU64>,
    table: Standings,
    mode: Mode,
    /// Ctrl-C: no new games.
    stopping: bool,
}

impl<A: GameAdapter> Server<A> {
    /// Games that count (or may yet count) towards `--games`.
    fn games(&self) -> u64 {
        self.launched - self.void
    }

    fn start_game(&mut self, seats: Vec<ConnHandle>) {
        self.launched += 1;
        let titles: Vec<String> = seats
            .iter()
            .enumerate()
            .map(|(s, c)| format!("{} ({})", c.name, A::player_letter(s)))
            .collect();
        let setup = NewGame::<A> {
            ids: self.ids.clone(),
            pairing: matches!(self.mode, Mode::Pairs { .. }),
            titles,
            starts: self.starts.clone(),
            time: self.settings.time,
            moves: self.settings.moves,
            seats,
            recorder: self.recorder.clone(),
            stop: self.stop.subscribe(),
        };
        self.running.spawn(game::run::<A>(setup));
    }

    /// Starts every game that can start now.
    fn schedule(&mut self) {
        if self.stopping {
            return;
        }
        let players = A::PLAYERS;
        match &mut self.mode {
            Mode::Pairs { queue, limit } => {
                let mut ready = Vec::new();
                let games = self.launched - self.void;
                let room = self.settings.max_games.saturating_sub(self.running.len());
                loop {
                    if limit.is_some_and(|l| games + ready.len() as u64 >= l) || ready.len() >= room
                    {
                        break;
                    }
                    queue.retain(|c| !c.is_gone());
                    if queue.len() < players {
                        break;
                    }
                    ready.push(queue.drain(..players).collect::<Vec<_>>());
                }
                for seats in ready {
                    self.start_game(seats);
                }
            }
            Mode::RoundRobin {
                size,
                roster,
                busy,
                schedule,
                ..
            } => {
                if roster.len() < *size {
                    return;
                }
                let mut ready = Vec::new();
                let room = self.settings.max_games.saturating_sub(self.running.len());
                let mut i = 0;
                while i < schedule.len() && ready.len() < room {
                    if schedule[i].iter().all(|&a| !busy[a]) {
                        let seating = schedule.remove(i).unwrap_or_default();
                        for &a in &seating {
                            busy[a] = true;
                        }
                        ready.push(seating.iter().map(|&a| roster[a].clone()).collect());
                    } else {
                        i += 1;
                    }
                }
                for seats in ready {
                    self.start_game(seats);
                }
            }
        }
    }

    /// An agent said hello.
    fn arrive(&mut self, c: ConnHandle) {
        match &mut self.mode {
            Mode::Pairs { queue, limit } => {
                // Games still going may yet turn out void: only finished games that count
                // close the door; until then newcomers wait (and are told `bye done` at the
                // end if no game needs them).
                if limit.is_some_and(|l| self.table.games >= l) {
                    c.send(super::wire::error_line(
                        "state",
                        "the server plays no more games",
                    ));
                    let c2 = c.clone();
                    tokio::spawn(async move { c2.control(Ctrl::Close("done")).await });
                    return;
                }
                queue.push_back(c);
            }
            Mode::RoundRobin {
                size,
                roster,
                busy,
                schedule,
                cycles,
            } => {
                if roster.len() >= *size {
                    c.send(super::wire::error_line("state", "the round robin is full"));
                    tokio::spawn(async move { c.control(Ctrl::Close("full")).await });
                    return;
                }
                roster.push(c);
                busy.push(false);
                if roster.len() == *size {
                    let one = round_robin(*size, A::PLAYERS);
                    for _ in 0..*cycles {
                        schedule.extend(one.iter().cloned());
                    }
                    game::say(&format!(
                        "round robin of {} agents: {} games",
                        size,
                        schedule.len()
                    ));
                }
            }
        }
        self.schedule();
    }

    /// A game ended.
    fn finished(&mut self, s: Summary) {
        if s.ending == Finish::Unseated {
            // No game: those still there wait again, first in line.
            self.void += 1;
            let gone: Vec<&str> = s
                .names
                .iter()
                .zip(&s.conns)
                .filter(|(_, id)| !s.back.iter().any(|c| c.id == **id))
                .map(|(n, _)| n.as_str())
                .collect();
            game::say(&format!(
                "no game: {} had left before it began",
                gone.join(", ")
            ));
            if let Mode::Pairs { queue, .. } = &mut self.mode {
                for c in s.back.into_iter().rev() {
                    queue.push_front(c);
                }
            }
            self.schedule();
            return;
        }
        if matches!(s.ending, Finish::Unplayed(..)) {
            self.void += 1;
        }
        let plural = if s.plies == 1 { "" } else { "s" };
        game::say(&format!(
            "game {} over: {} ({}) after {} move{plural}",
            s.id,
            s.result,
            s.ending.reason(),
            s.plies
        ));
        self.table.add(&s, A::PLAYERS);
        match &mut self.mode {
            Mode::Pairs { queue, .. } => {
                // Seats rotate: whoever sat first queues last, so rematches swap sides.
                let mut back = s.back;
                if !back.is_empty() {
                    back.rotate_left(1);
                }
                queue.extend(back);
            }
            Mode::RoundRobin { roster, busy, .. } => {
                for conn in &s.conns {
                    if let Some(i) = roster.iter().position(|c| c.id == *conn) {
                        busy[i] = false;
                    }
                }
            }
        }
        self.schedule();
    }

    /// Nothing is left to play.
    fn done(&self) -> bool {
        if !self.running.is_empty() {
            return false;
        }
        if self.stopping {
            // Stopped: once the games in progress have ended (however they end: one that
            // ends void lowers the count of games, which must not keep the server waiting).
            return true;
        }
        match &self.mode {
            Mode::Pairs { limit, .. } => limit.is_some_and(|l| self.games() >= l),
            Mode::RoundRobin {
                size,
                roster,
                schedule,
                ..
            } => roster.len() == *size && schedule.is_empty(),
        }
    }
}

/// Opens the record file (repairing what a crash left) and says where the server listens,
/// what it plays and what the last run left unfinished.
fn open_record<A: GameAdapter>(
    settings: &Settings,
    local: SocketAddr,
) -> Result<Arc<Recorder>, Error> {
    let settings_text = format!(
        "time={} moves={}",
        super::wire::ms(settings.time),
        settings.moves
    );
    let letters: Vec<&str> = (0..A::PLAYERS).map(A::player_letter).collect();
    let (recorder, recovered) =
        Recorder::open(&settings.record, A::NAME, &letters, &settings_text)?;
    game::say(&format!("listening {local}"));
    if !recovered.unfinished.is_empty() || recovered.torn_bytes > 0 {
        game::say(&format!(
            "record {}: the last run stopped without ending {} game(s) (marked `end crashed aborted`){}",
            recorder.path().display(),
            recovered.unfinished.len(),
            if recovered.torn_bytes > 0 {
                format!("; a last line cut short ({} bytes) was removed", recovered.torn_bytes)
            } else {
                String::new()
            }
        ));
    }
    game::say(&format!(
        "arena serve {}: {} per side, {} moves each, record {}",
        A::NAME,
        show_duration(settings.time),
        settings.moves,
        recorder.path().display()
    ));
    Ok(Arc::new(recorder))
}

impl Mode {
    /// The seating of these settings: a round robin, or pairs in arrival order.
    fn of(settings: &Settings) -> Mode {
        match settings.round_robin {
            Some(size) => Mode::RoundRobin {
                size,
                roster: Vec::new(),
                busy: Vec::new(),
                schedule: VecDeque::new(),
                cycles: settings.games.unwrap_or(1),
            },
            None => Mode::Pairs {
                queue: VecDeque::new(),
                limit: settings.games,
            },
        }
    }
}

impl<A: GameAdapter> Server<A> {
    /// Ctrl-C: the games in progress are stopped, and no new one starts.
    fn interrupt(&mut self) {
        game::say("interrupted: stopping the games in progress");
        self.stopping = true;
        let _ = self.stop.send(true);
        let games = self.games();
        if let Mode::Pairs { limit, .. } = &mut self.mode {
            *limit = Some(games);
        } else if let Mode::RoundRobin {
            schedule,
            size,
            roster,
            ..
        } = &mut self.mode
        {
            schedule.clear();
            *size = roster.len();
        }
    }
}

/// Runs the server until its games are played or Ctrl-C: one `select!` over new
/// connections, games ending and Ctrl-C, on the lobby's state (the roster, the schedule,
/// the standings), which every arm changes.
pub(crate) async fn run<A: GameAdapter>(
    settings: Settings,
    starts: game::GameStarts<A>,
) -> Result<(), Error> {
    let listener = TcpListener::bind(settings.addr)
        .await
        .map_err(|e| Error::io(format!("cannot listen on {}: {e}", settings.addr)))?;
    let local = listener
        .local_addr()
        .map_err(|e| Error::io(format!("listening address: {e}")))?;
    let recorder = open_record::<A>(&settings, local)?;
    let (lobby_tx, mut lobby_rx) = mpsc::channel::<ConnHandle>(256);
    let shared = Arc::new(Shared::new(A::NAME, lobby_tx, settings.limits));
    let acceptor = tokio::spawn(accept(listener, shared.clone(), settings.max_clients));
    let (stop, _) = watch::channel(false);
    let mut server = Server::<A> {
        mode: Mode::of(&settings),
        settings,
        starts,
        recorder,
        stop,
        running: JoinSet::new(),
        launched: 0,
        void: 0,
        ids: Arc::new(AtomicU64::new(0)),
        table: Standings::default(),
        stopping: false,
    };
    let interrupted = tokio::signal::ctrl_c();
    tokio::pin!(interrupted);
    let mut signals = true;
    while !server.done() {
        tokio::select! {
            r = &mut interrupted, if signals && !server.stopping => {
                signals = false;
                // Without signal handling here, serve on without it.
                if r.is_ok() {
                    server.interrupt();
                }
            }
            c = lobby_rx.recv() => {
                if let Some(c) = c {
                    if server.stopping {
                        let _ = c.control(Ctrl::Close("shutdown")).await;
                    } else {
                        server.arrive(c);
                    }
                }
            }
            Some(joined) = server.running.join_next() => match joined {
                Ok(summary) => server.finished(summary),
                Err(e) => game::say(&format!("a game failed: {e}")),
            },
        }
    }
    acceptor.abort();
    let stopping = server.stopping;
    server.table.print(if stopping {
        "when stopped"
    } else {
        "at the end"
    });
    game::say(&format!("record: {}", server.recorder.path().display()));
    shared
        .close_all(if stopping { "shutdown" } else { "done" })
        .await;
    drop(server);
    Ok(())
}

async fn accept(listener: TcpListener, shared: Arc<Shared>, max_clients: usize) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => match shared.admit(peer.ip(), max_clients) {
                Ok(()) => {
                    tokio::spawn(conn::session(stream, peer.ip(), shared.clone()));
                }
                Err(why) => {
                    tokio::spawn(conn::refuse(stream, why));
                }
            },
            Err(e) => {
                // Out of file descriptors and the like: wait a little, keep serving.
                eprintln!("arena serve: accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::round_robin;

    #[test]
    fn round_robin_seats_everyone_evenly() {
        let two = round_robin(4, 2);
        assert_eq!(two.len(), 12);
        for a in 0..4 {
            assert_eq!(two.iter().filter(|s| s[0] == a).count(), 3);
            assert_eq!(two.iter().filter(|s| s[1] == a).count(), 3);
        }
        let three = round_robin(4, 3);
        assert_eq!(three.len(), 12);
        for a in 0..4 {
            for seat in 0..3 {
                assert_eq!(three.iter().filter(|s| s[seat] == a).count(), 3);
            }
        }
    }
}
