//! The record file: every event of every game, one line each, appended and flushed as it
//! happens so that a crash loses nothing already played. The format is in
//! `docs/server-protocol.md` ("Record file").

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::fail::Fail;

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
    /// A write failed (reported once on stderr).
    failed: Mutex<bool>,
}

impl Recorder {
    /// Opens (creating or appending to) the file and writes the session's first line.
    pub fn open(path: &Path, game: &str, settings_text: &str) -> Result<Self, Fail> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| Fail::runtime(format!("record file {}: {e}", path.display())))?;
        let r = Recorder {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            failed: Mutex::new(false),
        };
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        r.line(&format!("server {FORMAT} {game} {secs} {settings_text}"));
        Ok(r)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one line and hands it to the operating system at once.
    pub fn line(&self, text: &str) {
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let r = f
            .write_all(format!("{text}\n").as_bytes())
            .and_then(|()| f.flush());
        if let Err(e) = r {
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
