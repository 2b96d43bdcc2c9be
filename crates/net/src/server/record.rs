//! The record file: every event of every game, one line each, appended and flushed as it
//! happens so that a crash loses nothing already played. The format is in
//! `docs/server-protocol.md` ("Record file").

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use super::reader::OpenGames;
use crate::Error;

/// The record file's format version.
pub const FORMAT: u32 = 1;

/// The default record file name: `arena-serve-GAME-YYYYMMDD-HHMMSS.txt` (UTC, now).
pub fn default_name(game: &str) -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, mo, d) = civil_from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "arena-serve-{game}-{y:04}{mo:02}{d:02}-{:02}{:02}{:02}.txt",
        s / 3600,
        (s / 60) % 60,
        s % 60
    )
}

/// The date of a day number since 1970-01-01 (proleptic Gregorian; H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The open record file, shared by every game.
pub struct Recorder {
    path: PathBuf,
    file: Mutex<File>,
    /// Another handle on the same file, for `fsync` without holding up the writers.
    sync_file: Arc<File>,
    /// A write failed (reported once on stderr).
    failed: Mutex<bool>,
}

/// What opening a record file found of an earlier server run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recovered {
    /// Games of the last run that had no `end` line, now marked `end crashed aborted`.
    pub unfinished: Vec<u64>,
    /// Bytes of a last line cut short (no line end), removed.
    pub torn_bytes: u64,
    /// Lines of the file that could not be read (left as they are).
    pub unreadable: usize,
}

impl Recorder {
    /// Opens (creating or appending to) the record file of a server of `game` (whose sides
    /// are `letters`) and writes the run's first line.
    ///
    /// A file that already holds runs is first repaired, so that nothing is lost silently:
    /// a last line cut short by a crash (no line end) is removed, and every game of the last
    /// run without an `end` line gets one, `ID end crashed aborted plies=N L1=MS …`, before
    /// the new run begins. A file that is not a record of this game is refused.
    pub fn open(
        path: &Path,
        game: &str,
        letters: &[&str],
        settings_text: &str,
    ) -> Result<(Self, Recovered), Error> {
        let fail = |e: std::io::Error| Error::io(format!("record file {}: {e}", path.display()));
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(fail)?;
        let recovered = repair(&mut file, path, game, letters)?;
        let sync_file = Arc::new(file.try_clone().map_err(fail)?);
        let r = Recorder {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            sync_file,
            failed: Mutex::new(false),
        };
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        r.line(&format!("server {FORMAT} {game} {secs} {settings_text}"));
        Ok((r, recovered))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line and hands it to the operating system at once (a crash of the
    /// server loses nothing written; [`Recorder::sync`] makes it survive the machine's).
    pub fn line(&self, text: &str) {
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let r = f
            .write_all(format!("{text}\n").as_bytes())
            .and_then(|()| f.flush());
        if let Err(e) = r {
            self.report(&e);
        }
    }

    /// Waits until what was written is on the disk (`fsync`), off the server's threads.
    pub async fn sync(&self) {
        let file = self.sync_file.clone();
        match tokio::task::spawn_blocking(move || file.sync_data()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => self.report(&e),
            Err(e) => self.report(&std::io::Error::other(e.to_string())),
        }
    }

    fn report(&self, e: &std::io::Error) {
        let mut failed = self.failed.lock().unwrap_or_else(|e| e.into_inner());
        if !*failed {
            *failed = true;
            eprintln!(
                "arena serve: writing the record {}: {e} (games go on)",
                self.path.display()
            );
        }
    }
}

/// Repairs a record file before a new run is appended (see [`Recorder::open`]).
fn repair(file: &mut File, path: &Path, game: &str, letters: &[&str]) -> Result<Recovered, Error> {
    let fail = |e: std::io::Error| Error::io(format!("record file {}: {e}", path.display()));
    let mut found = Recovered::default();
    let len = file.metadata().map_err(fail)?.len();
    if len == 0 {
        return Ok(found);
    }
    file.seek(SeekFrom::Start(0)).map_err(fail)?;
    let mut reader = BufReader::new(&*file);
    let mut tracker = OpenGames::default();
    let mut whole: u64 = 0;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(fail)?;
        if n == 0 {
            break;
        }
        if buf.last() != Some(&b'\n') {
            found.torn_bytes = n as u64;
            break;
        }
        whole += n as u64;
        let line = String::from_utf8_lossy(&buf[..n - 1]);
        if tracker.lines == 0 && !line.starts_with("server ") {
            return Err(Error::io(format!(
                "record file {}: not a record of `arena serve` (its first line is not `server …`); give another --record",
                path.display()
            )));
        }
        tracker.line(&line);
    }
    drop(reader);
    found.unreadable = tracker.unreadable;
    if let Some(other) = tracker.game.as_deref().filter(|g| *g != game) {
        return Err(Error::io(format!(
            "record file {}: it records {other}, this server plays {game}; give another --record",
            path.display()
        )));
    }
    if found.torn_bytes > 0 {
        file.set_len(whole).map_err(fail)?;
    }
    let mut marks = String::new();
    for u in tracker.unfinished(letters) {
        let clocks: Vec<String> = u.clocks.iter().map(|(l, ms)| format!("{l}={ms}")).collect();
        marks.push_str(&format!(
            "{} end crashed aborted plies={} {}\n",
            u.id,
            u.plies,
            clocks.join(" ")
        ));
        found.unfinished.push(u.id);
    }
    if !marks.is_empty() {
        file.write_all(marks.as_bytes()).map_err(fail)?;
    }
    if !marks.is_empty() || found.torn_bytes > 0 {
        file.sync_data().map_err(fail)?;
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
