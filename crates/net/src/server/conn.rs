//! One task per connection: it reads the agent's lines (capped, parsed), answers what needs
//! no game (`hello`, `ping`, errors), and passes game requests to the game the agent sits
//! in. Another task writes the agent's lines from a bounded queue: an agent that does not
//! read fills its queue and is dropped, so nobody ever waits for it.
//!
//! Everything an agent controls is bounded ([`Limits`], `docs/server-protocol.md`,
//! "Limits"): line length, lines and bytes queued for it, connections from its address,
//! time to say `hello`, time idle outside a game, refused lines in a row.

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch, Notify};
use tokio::time::{sleep_until, timeout, Instant};

use super::wire::{self, Input, LineReader, Refusal, Request};

/// Lines queued for one agent before it counts as not reading (and is dropped).
pub(crate) const OUT_QUEUE: usize = 1024;

/// Bytes queued for one agent before it counts as not reading (and is dropped): with the
/// line count, this bounds the server's memory per connection.
pub(crate) const OUT_BYTES: usize = 256 * 1024;

/// Time an agent has to say `hello` after connecting.
pub(crate) const HELLO_TIME: Duration = Duration::from_secs(30);

/// Refused lines in a row (syntax, unknown, long, state errors) after which an agent is
/// closed (`bye errors`).
pub(crate) const MAX_REFUSED: u32 = 64;

/// Time a seat has to confirm that it is there before a game begins.
const JOIN_TIME: Duration = Duration::from_secs(5);

/// The limits of a server run that its options set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Connections at once from one IP address.
    pub per_address: usize,
    /// Time an agent that said hello may stay silent outside a game.
    pub idle: Duration,
}

/// Time the writer gets to deliver a last line (`bye`) before the socket is dropped.
const LAST_WORDS: Duration = Duration::from_secs(2);

/// What a session forwards to its game.
#[derive(Debug)]
pub(crate) enum SeatEvent {
    /// `move TEXT`.
    Move(String),
    /// `moves`.
    Moves,
    /// `position`.
    Position,
    /// The agent left.
    Gone(Leaving),
}

/// How an agent left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leaving {
    /// `quit`.
    Quit,
    /// The connection closed or failed, or the agent did not read its lines.
    Disconnect,
}

/// A game's inbox: (seat, event).
pub(crate) type GameInbox = mpsc::Sender<(usize, SeatEvent)>;

/// What the lobby and games tell a session.
#[derive(Debug)]
pub(crate) enum Ctrl {
    /// Sit at this seat of this game: forward game requests there. The session answers
    /// whether its connection is still there (a peer that has closed is not seated).
    Join(GameInbox, usize, oneshot::Sender<bool>),
    /// The game is over: back to the lobby.
    Leave,
    /// Say `bye REASON` and close.
    Close(&'static str),
}

/// One line out, or the end.
#[derive(Debug)]
enum Out {
    Line(String),
    Close,
}

/// What the lobby and the games hold of a connection. Cloning shares the connection.
#[derive(Clone, Debug)]
pub(crate) struct ConnHandle {
    /// Unique per server run.
    pub id: u64,
    /// The agent's name (unique among the connections open at once).
    pub name: String,
    out: Outbox,
    ctrl: mpsc::Sender<Ctrl>,
}

/// The queue of lines to one agent, bounded in lines and in bytes.
#[derive(Clone, Debug)]
struct Outbox {
    tx: mpsc::Sender<Out>,
    /// Bytes queued and not yet written.
    bytes: Arc<AtomicUsize>,
    /// Raised when the agent does not read: the session closes.
    kill: Arc<Notify>,
}

impl Outbox {
    /// Queues a line; never waits. An agent whose queue is full is dropped.
    fn send(&self, line: String) {
        let len = line.len() + 1;
        if self
            .bytes
            .fetch_add(len, Ordering::SeqCst)
            .saturating_add(len)
            > OUT_BYTES
        {
            self.bytes.fetch_sub(len, Ordering::SeqCst);
            self.kill.notify_one();
            return;
        }
        if let Err(e) = self.tx.try_send(Out::Line(line)) {
            self.bytes.fetch_sub(len, Ordering::SeqCst);
            if matches!(e, mpsc::error::TrySendError::Full(_)) {
                self.kill.notify_one();
            }
        }
    }
}

impl ConnHandle {
    /// Queues a line; never waits. An agent whose queue is full is dropped.
    pub(crate) fn send(&self, line: String) {
        self.out.send(line);
    }

    /// Tells the session something; false when the session has ended.
    pub(crate) async fn control(&self, c: Ctrl) -> bool {
        self.ctrl.send(c).await.is_ok()
    }

    /// Seats the agent at `seat` of the game with this inbox; false when its connection has
    /// closed (or its session does not answer in time), in which case it is not seated.
    pub(crate) async fn join(&self, inbox: GameInbox, seat: usize) -> bool {
        let (tx, rx) = oneshot::channel();
        if !self.control(Ctrl::Join(inbox, seat, tx)).await {
            return false;
        }
        matches!(timeout(JOIN_TIME, rx).await, Ok(Ok(true)))
    }

    /// The connection has closed (its session has ended, or its writer has failed).
    pub(crate) fn is_gone(&self) -> bool {
        self.ctrl.is_closed() || self.out.tx.is_closed()
    }
}

/// What a session needs of the server.
pub(crate) struct Shared {
    /// `hello arena-server …` names this game.
    pub game: &'static str,
    /// Sessions that said hello go here.
    pub lobby: mpsc::Sender<ConnHandle>,
    /// Names in use.
    names: Mutex<HashSet<String>>,
    /// Connections open now.
    pub open: AtomicUsize,
    /// Connections open now per address.
    by_address: Mutex<HashMap<IpAddr, usize>>,
    /// The limits set by the options.
    pub limits: Limits,
    next_id: AtomicU64,
    /// Set when the server closes: every session says `bye REASON` and ends.
    closing: watch::Sender<Option<&'static str>>,
}

impl Shared {
    pub(crate) fn new(game: &'static str, lobby: mpsc::Sender<ConnHandle>, limits: Limits) -> Self {
        Shared {
            game,
            lobby,
            names: Mutex::new(HashSet::new()),
            open: AtomicUsize::new(0),
            by_address: Mutex::new(HashMap::new()),
            limits,
            next_id: AtomicU64::new(1),
            closing: watch::channel(None).0,
        }
    }

    /// Counts a new connection from `ip` if the limits allow it: the connections at once
    /// (`max`) and those from one address. The reason when they do not.
    pub(crate) fn admit(&self, ip: IpAddr, max: usize) -> Result<(), String> {
        let mut by = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        if self.open.load(Ordering::SeqCst) >= max {
            return Err(format!("the server has its {max} connections"));
        }
        let n = by.entry(ip).or_insert(0);
        if *n >= self.limits.per_address {
            return Err(format!(
                "{} connections from {ip} already (at most {})",
                *n, self.limits.per_address
            ));
        }
        *n += 1;
        self.open.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    fn release(&self, ip: IpAddr) {
        let mut by = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = by.get_mut(&ip) {
            *n -= 1;
            if *n == 0 {
                by.remove(&ip);
            }
        }
        self.open.fetch_sub(1, Ordering::SeqCst);
    }

    /// Closes every session with `bye reason` and waits (a little) for them to end.
    pub(crate) async fn close_all(&self, reason: &'static str) {
        self.closing.send_replace(Some(reason));
        let until = Instant::now() + LAST_WORDS + Duration::from_millis(500);
        while self.open.load(Ordering::SeqCst) > 0 && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Reserves `wanted`, or `wanted-2`, `wanted-3`, … if it is taken.
    fn claim_name(&self, wanted: &str) -> String {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        let mut name = wanted.to_string();
        let mut n = 2;
        while names.contains(&name) {
            name = format!("{wanted}-{n}");
            n += 1;
        }
        names.insert(name.clone());
        name
    }

    fn release_name(&self, name: &str) {
        let mut names = self.names.lock().unwrap_or_else(|e| e.into_inner());
        names.remove(name);
    }
}

/// Counts an open connection (and its address) until dropped.
struct OpenGuard(Arc<Shared>, IpAddr);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.release(self.1);
    }
}

/// Turns a connection away without reading from it: `error limit REASON`, `bye full`.
pub(crate) async fn refuse(mut stream: TcpStream, why: String) {
    let text = format!("{}\nbye full\n", wire::error_line("limit", &why));
    let _ = timeout(Duration::from_secs(1), stream.write_all(text.as_bytes())).await;
    let _ = stream.shutdown().await;
}

async fn writer(mut w: OwnedWriteHalf, mut rx: mpsc::Receiver<Out>, bytes: Arc<AtomicUsize>) {
    while let Some(out) = rx.recv().await {
        match out {
            Out::Line(mut line) => {
                let len = line.len() + 1;
                line.push('\n');
                let written = w.write_all(line.as_bytes()).await;
                bytes.fetch_sub(len, Ordering::SeqCst);
                if written.is_err() {
                    return;
                }
            }
            Out::Close => break,
        }
    }
    let _ = w.shutdown().await;
}

/// The session of one accepted connection from `ip` (already counted by
/// [`Shared::admit`]): one connection's state machine (hello, waiting, seated, leaving) as
/// one `select!` loop over the socket, the game's messages, the deadlines and the server's
/// closing; the state is a [`ConnState`], each event handled by one of its methods.
pub(crate) async fn session(stream: TcpStream, ip: IpAddr, shared: Arc<Shared>) {
    let _guard = OpenGuard(shared.clone(), ip);
    let _ = stream.set_nodelay(true);
    let id = shared.next_id.fetch_add(1, Ordering::SeqCst);
    let (rd, wr) = stream.into_split();
    let (out_tx, out_rx) = mpsc::channel(OUT_QUEUE);
    let bytes = Arc::new(AtomicUsize::new(0));
    let mut writer_task = tokio::spawn(writer(wr, out_rx, bytes.clone()));
    let (ctrl_tx, mut ctrl_rx) = mpsc::channel::<Ctrl>(16);
    let kill = Arc::new(Notify::new());
    let outbox = Outbox {
        tx: out_tx.clone(),
        bytes,
        kill: kill.clone(),
    };
    let mut closing = shared.closing.subscribe();
    outbox.send(wire::hello_line(shared.game));
    let mut reader = LineReader::new(rd);
    let hello_deadline = Instant::now() + HELLO_TIME;
    let idle = shared.limits.idle;
    let mut st = ConnState {
        id,
        shared: shared.clone(),
        outbox: outbox.clone(),
        idle_deadline: Instant::now() + idle,
        refused: 0,
        name: None,
        ctrl_tx: Some(ctrl_tx),
        seat: None,
        bye: None,
    };
    let leaving = loop {
        if st.refused >= MAX_REFUSED {
            st.say(wire::error_line(
                "limit",
                &format!("{MAX_REFUSED} refused lines in a row"),
            ));
            break st.leave("errors");
        }
        let step = tokio::select! {
            biased;
            c = ctrl_rx.recv() => st.control(c, peer_closed(reader.get_ref().as_ref())),
            () = kill.notified() => Some(Leaving::Disconnect),
            // The value only ever changes from None to the reason.
            _ = closing.changed() => {
                let reason = (*closing.borrow()).unwrap_or("shutdown");
                Some(st.leave(reason))
            }
            () = sleep_until(hello_deadline), if st.name.is_none() => {
                st.say(wire::error_line("state", "no hello in time"));
                Some(st.leave("timeout"))
            }
            () = sleep_until(st.idle_deadline), if st.name.is_some() && st.seat.is_none() => {
                st.say(wire::error_line(
                    "limit",
                    &format!("idle for {} s outside a game", idle.as_secs()),
                ));
                Some(st.leave("idle"))
            }
            input = reader.next() => {
                st.idle_deadline = Instant::now() + idle;
                st.input(input).await
            }
        };
        if let Some(leaving) = step {
            break leaving;
        }
    };
    if let Some((inbox, s)) = st.seat.take() {
        let _ = inbox.send((s, SeatEvent::Gone(leaving))).await;
    }
    if let Some(n) = &st.name {
        shared.release_name(n);
    }
    drop(ctrl_rx);
    if let Some(reason) = st.bye {
        // Counted like every line (the writer takes each line's bytes off the count).
        outbox.send(format!("bye {reason}"));
    }
    let _ = out_tx.try_send(Out::Close);
    drop(out_tx);
    // The writer finishes the queue and closes; a peer that reads nothing gets no longer.
    if timeout(LAST_WORDS, &mut writer_task).await.is_err() {
        writer_task.abort();
    }
}

/// The state of one connection's session.
struct ConnState {
    id: u64,
    shared: Arc<Shared>,
    outbox: Outbox,
    /// When an agent outside a game that says nothing is closed.
    idle_deadline: Instant,
    /// Refused lines in a row.
    refused: u32,
    /// The name, once hello was said.
    name: Option<String>,
    /// The lobby's handle on us, until hello hands it over.
    ctrl_tx: Option<mpsc::Sender<Ctrl>>,
    /// The game we are seated in, and our seat.
    seat: Option<(GameInbox, usize)>,
    /// The reason given in the last line, `bye REASON`.
    bye: Option<&'static str>,
}

impl ConnState {
    fn say(&self, line: String) {
        self.outbox.send(line);
    }

    /// Leaves with `bye REASON`.
    fn leave(&mut self, reason: &'static str) -> Leaving {
        self.bye = Some(reason);
        Leaving::Disconnect
    }

    /// A message from the lobby or a game (`None`: the lobby is gone, the server stops).
    /// `closed`: the peer has closed its side.
    fn control(&mut self, c: Option<Ctrl>, closed: bool) -> Option<Leaving> {
        match c {
            Some(Ctrl::Join(inbox, s, ack)) => {
                // A peer that has closed (its end of input already here) is not seated.
                let _ = ack.send(!closed);
                if closed {
                    return Some(Leaving::Disconnect);
                }
                self.seat = Some((inbox, s));
            }
            Some(Ctrl::Leave) => {
                self.seat = None;
                self.idle_deadline = Instant::now() + self.shared.limits.idle;
            }
            Some(Ctrl::Close(reason)) => return Some(self.leave(reason)),
            None => return Some(Leaving::Disconnect),
        }
        None
    }

    /// What the agent sent.
    async fn input(&mut self, input: std::io::Result<Input>) -> Option<Leaving> {
        let line = match input {
            Ok(Input::Line(l)) => l,
            Ok(Input::TooLong) => {
                self.refused += 1;
                self.say(wire::error_line(
                    "long",
                    &format!("line longer than {} bytes ignored", wire::MAX_LINE),
                ));
                return None;
            }
            Ok(Input::NotUtf8) => {
                self.refused += 1;
                self.say(wire::error_line("syntax", "line is not UTF-8"));
                return None;
            }
            Ok(Input::Eof) | Err(_) => return Some(Leaving::Disconnect),
        };
        let req = match wire::parse_request(&line) {
            Ok(r) => r,
            Err(refusal) => {
                self.refused += 1;
                self.say(refusal.line());
                return None;
            }
        };
        self.refused = 0;
        let ev = match req {
            Request::Empty => return None,
            Request::Ping => {
                self.say("pong".to_string());
                return None;
            }
            Request::Quit => {
                self.bye = Some("quit");
                return Some(Leaving::Quit);
            }
            Request::Hello {
                version,
                name: wanted,
            } => return self.hello(version, &wanted).await,
            Request::Move(text) => SeatEvent::Move(text),
            Request::Moves => SeatEvent::Moves,
            Request::Position => SeatEvent::Position,
        };
        let named = self.name.is_some();
        let outbox = self.outbox.clone();
        self.refused += forward(&mut self.seat, ev, &|l| outbox.send(l), named).await;
        None
    }

    /// `hello VERSION NAME`: the agent joins the lobby under a name of its own.
    async fn hello(&mut self, version: u32, wanted: &str) -> Option<Leaving> {
        if self.name.is_some() {
            self.refused += 1;
            self.say(Refusal::new("state", "hello was already said").line());
        } else if version != wire::VERSION {
            self.say(
                Refusal::new(
                    "version",
                    format!("this server speaks version {}", wire::VERSION),
                )
                .line(),
            );
            return Some(self.leave("version"));
        } else if let Some(ctrl) = self.ctrl_tx.take() {
            let n = self.shared.claim_name(wanted);
            self.say(format!("welcome {n}"));
            self.name = Some(n.clone());
            let handle = ConnHandle {
                id: self.id,
                name: n,
                out: self.outbox.clone(),
                ctrl,
            };
            if self.shared.lobby.send(handle).await.is_err() {
                return Some(self.leave("shutdown"));
            }
        }
        None
    }
}

/// Whether the peer has closed its side, as the kernel knows it now (its end of input, or
/// an error, is there to read), without waiting and without reading anything: a look
/// (`MSG_PEEK`) through a second handle on the socket, since the runtime's own reads see only
/// what its event loop has already reported.
#[cfg(unix)]
fn peer_closed(stream: &TcpStream) -> bool {
    use std::os::fd::AsFd;
    let Ok(fd) = stream.as_fd().try_clone_to_owned() else {
        return false;
    };
    let probe = std::net::TcpStream::from(fd);
    let mut byte = [0u8; 1];
    match probe.peek(&mut byte) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}

/// Elsewhere: only what the session has read tells.
#[cfg(not(unix))]
fn peer_closed(_: &TcpStream) -> bool {
    false
}

/// Passes a game request to the game, or says why there is none; 1 when refused.
async fn forward(
    seat: &mut Option<(GameInbox, usize)>,
    ev: SeatEvent,
    say: &impl Fn(String),
    named: bool,
) -> u32 {
    match seat {
        Some((inbox, s)) => {
            if inbox.send((*s, ev)).await.is_err() {
                // The game ended between our Join and its Leave.
                *seat = None;
                say(wire::error_line("state", "no game in progress"));
                return 1;
            }
            0
        }
        None if !named => {
            say(wire::error_line("state", "say hello first"));
            1
        }
        None => {
            say(wire::error_line("state", "no game in progress"));
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outbox_counts_lines_and_bytes_and_drops_a_reader_that_lags() {
        let (tx, mut rx) = mpsc::channel(OUT_QUEUE);
        let bytes = Arc::new(AtomicUsize::new(0));
        let kill = Arc::new(Notify::new());
        let out = Outbox {
            tx,
            bytes: bytes.clone(),
            kill: kill.clone(),
        };
        out.send("abc".to_string());
        assert_eq!(bytes.load(Ordering::SeqCst), 4);
        // What the writer does with a line: takes its bytes off.
        let Some(Out::Line(l)) = rx.try_recv().ok() else {
            panic!("a line")
        };
        bytes.fetch_sub(l.len() + 1, Ordering::SeqCst);
        assert_eq!(bytes.load(Ordering::SeqCst), 0);
        // Over the byte limit: not queued, and the session is told to close.
        out.send("x".repeat(OUT_BYTES));
        assert_eq!(bytes.load(Ordering::SeqCst), 0);
        assert!(rx.try_recv().is_err());
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            timeout(Duration::from_secs(5), kill.notified())
                .await
                .expect("told to close");
        });
    }
}
