//! The resumable JSON-lines file that a match ([`crate::matchfile`]) and a tuning run
//! ([`crate::tune::tunefile`]) write: a header line naming the run (its id, a hash of every
//! setting that decides its games), then one line per finished game, each flushed as it is
//! written. A killed process leaves at most its last line cut short; resuming cuts it off,
//! keeps the games before it, and appends. The workers of a sharded run read each other's
//! files ([`Siblings`]).
//!
//! A [`Format`] says what the lines hold; [`Journal`] is the file, written and resumed the
//! same way for every format.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::error::Error;
use crate::schedule::Shard;

/// FNV-1a, 64 bits: a run's id is the hash of its settings' text (stable across machines
/// and versions of Rust, unlike `std`'s hasher).
pub use plyforge::digest::fnv1a;

/// One line of a file of format `F`: its header, or an entry (a game).
#[derive(Clone, Debug, PartialEq)]
pub enum Line<H, E> {
    /// The first line: the run.
    Header(H),
    /// Any further line: a finished game.
    Entry(E),
}

/// What the lines of a kind of file hold, and how each is read and written.
pub trait Format {
    /// The first line.
    type Header;
    /// A further line.
    type Entry;
    /// An entry's place in its run: an entry found twice counts once.
    type Key: Ord + Copy;
    /// What a file holds, in messages (`match`, `tuning run`).
    const RUN: &'static str;
    /// The run's short name before its id (`match`, `run`).
    const SHORT: &'static str;
    /// Who writes one file of a sharded run (`shard`, `worker`).
    const WRITER: &'static str;
    /// Reads one line; the error says what is wrong with it.
    fn parse(text: &str) -> Result<Line<Self::Header, Self::Entry>, String>;
    /// The header as one line of JSON (no newline).
    fn header_json(h: &Self::Header) -> String;
    /// An entry as one line of JSON (no newline).
    fn entry_json(e: &Self::Entry) -> String;
    /// The run's id in its header.
    fn header_id(h: &Self::Header) -> &str;
    /// The slice of the run that the file's process played.
    fn header_shard(h: &Self::Header) -> Option<Shard>;
    /// The settings the id is the hash of, for people.
    fn header_settings(h: &Self::Header) -> &str;
    /// The run's id in an entry.
    fn entry_id(e: &Self::Entry) -> &str;
    /// The entry's key.
    fn key(e: &Self::Entry) -> Self::Key;
}

/// Numbered lines read from a text, and the byte length of its complete lines.
pub type Lines<T> = (Vec<(usize, T)>, usize);

/// The complete lines of a JSON-lines text read by `parse` (each with its number from 1),
/// and the byte length up to the end of the last complete line: a last line without its
/// newline is a write cut short, left out; a malformed complete line is an error naming its
/// number.
pub fn complete_lines<T>(
    text: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Lines<T>, (usize, String)> {
    let mut lines = Vec::new();
    let mut complete = 0;
    for (i, chunk) in text.split_inclusive('\n').enumerate() {
        let Some(body) = chunk.strip_suffix('\n') else {
            break;
        };
        complete += chunk.len();
        let body = body.trim();
        if body.is_empty() {
            continue;
        }
        lines.push((i + 1, parse(body).map_err(|e| (i + 1, e))?));
    }
    Ok((lines, complete))
}

/// What a file being resumed held: its entries of the run with their line numbers, in
/// file order, and the byte length of its complete lines.
struct Resumed<F: Format> {
    entries: Vec<(usize, F::Entry)>,
    complete: u64,
}

/// How [`Journal::open`] found the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// A new file (no resume asked for).
    New,
    /// Resume was asked for, and there was no file: a new one.
    NothingToResume,
    /// The file of this run, with this many entries in it.
    Resumed(usize),
}

/// A file of format `F` being written: the header first, then an entry per finished game.
pub struct Journal<F: Format> {
    path: PathBuf,
    out: BufWriter<File>,
    format: PhantomData<F>,
}

impl<F: Format> Journal<F> {
    /// Opens file `path` for the run of `header`. Without `resume`, the file is new (one
    /// that exists and is not empty is refused). With `resume`, the file's entries (its
    /// header must be this run's and this shard's) are returned and the file is cut back to
    /// its complete lines to append; a file that does not exist is a new one. The entries
    /// come with their line numbers (from 1), in file order.
    #[allow(clippy::type_complexity)]
    pub fn open(
        path: &Path,
        header: &F::Header,
        resume: bool,
    ) -> Result<(Journal<F>, Vec<(usize, F::Entry)>, Opened), Error> {
        let (resumed, opened) = if resume {
            match read_resumed::<F>(path, header)? {
                Some(r) => {
                    let n = r.entries.len();
                    (Some(r), Opened::Resumed(n))
                }
                None => (None, Opened::NothingToResume),
            }
        } else {
            if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
                return Err(Error::settings(format!(
                    "--out {}: the file exists (--resume continues its {}; or remove it)",
                    path.display(),
                    F::SHORT
                )));
            }
            (None, Opened::New)
        };
        let complete = resumed.as_ref().map(|r| r.complete);
        let out = open_lines(path, &F::header_json(header), complete)?;
        let journal = Journal {
            path: path.to_path_buf(),
            out,
            format: PhantomData,
        };
        Ok((
            journal,
            resumed.map(|r| r.entries).unwrap_or_default(),
            opened,
        ))
    }

    /// Appends an entry (a line, flushed).
    pub fn append(&mut self, entry: &F::Entry) -> Result<(), Error> {
        writeln!(self.out, "{}", F::entry_json(entry))
            .and_then(|()| self.out.flush())
            .map_err(|e| Error::output("--out", &self.path, e))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Reads a file to resume: the header must be this run's and this shard's. `None` when the
/// file does not exist.
fn read_resumed<F: Format>(path: &Path, header: &F::Header) -> Result<Option<Resumed<F>>, Error> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::input(format!("--out {}", path.display()), None, e)),
    };
    let file = format!("--resume: {}", path.display());
    let (lines, complete) =
        complete_lines(&text, F::parse).map_err(|(n, e)| Error::input(&file, Some(n), e))?;
    let mut entries = Vec::new();
    let want = F::header_id(header);
    for (n, line) in lines {
        match line {
            Line::Header(h) => check_header::<F>(&file, &h, header)?,
            Line::Entry(e) => {
                if F::entry_id(&e) != want {
                    return Err(Error::input(
                        &file,
                        Some(n),
                        format!("belongs to {} {}, not {want}", F::SHORT, F::entry_id(&e)),
                    ));
                }
                entries.push((n, e));
            }
        }
    }
    Ok(Some(Resumed {
        entries,
        complete: complete as u64,
    }))
}

/// Refuses a header of another run, or of another shard of this one.
fn check_header<F: Format>(file: &str, got: &F::Header, want: &F::Header) -> Result<(), Error> {
    if F::header_id(got) != F::header_id(want) {
        return Err(Error::input(
            file,
            None,
            format!(
                "holds {} {} ({}), but these options make {} {} ({})",
                F::RUN,
                F::header_id(got),
                F::header_settings(got),
                F::SHORT,
                F::header_id(want),
                F::header_settings(want)
            ),
        ));
    }
    if F::header_shard(got) != F::header_shard(want) {
        let show = |s: Option<Shard>| s.map_or("none".to_string(), |s| s.to_string());
        return Err(Error::input(
            file,
            None,
            format!(
                "was written by {} {}, not {}",
                F::WRITER,
                show(F::header_shard(got)),
                show(F::header_shard(want))
            ),
        ));
    }
    Ok(())
}

/// A JSON-lines file created with `header` as its first line, or, when it has `complete`
/// bytes of complete lines (a resumed file), cut back to them (a line a kill cut short goes)
/// and opened to append. A folder that does not exist is bad input.
fn open_lines(path: &Path, header: &str, complete: Option<u64>) -> Result<BufWriter<File>, Error> {
    let fail = |e: std::io::Error| Error::output("--out", path, e);
    if let Some(len) = complete.filter(|&n| n > 0) {
        let mut f = OpenOptions::new().write(true).open(path).map_err(fail)?;
        f.set_len(len).map_err(fail)?;
        f.seek(SeekFrom::End(0)).map_err(fail)?;
        return Ok(BufWriter::new(f));
    }
    let mut w = BufWriter::new(create(path, "--out")?);
    writeln!(w, "{header}")
        .and_then(|()| w.flush())
        .map_err(fail)?;
    Ok(w)
}

/// Creates file `path` (named by `setting`): a folder that does not exist is bad input, any
/// other failure a failure to write.
pub(crate) fn create(path: &Path, setting: &'static str) -> Result<File, Error> {
    File::create(path).map_err(|e| {
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
        match parent {
            Some(dir) if e.kind() == std::io::ErrorKind::NotFound && !dir.exists() => {
                Error::settings(format!(
                    "{setting} {}: the folder {} does not exist",
                    path.display(),
                    dir.display()
                ))
            }
            _ => Error::output(setting, path, e),
        }
    })
}

/// The folder a file is in (`.` for a bare file name).
pub(crate) fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The header of the file at `path`, read from its first line alone (none if the file
/// cannot be read or its first line is no header of this format).
pub(crate) fn header_of<F: Format>(path: &Path) -> Option<F::Header> {
    let mut first = String::new();
    BufReader::new(File::open(path).ok()?)
        .read_line(&mut first)
        .ok()?;
    match F::parse(first.trim()) {
        Ok(Line::Header(h)) => Some(h),
        _ => None,
    }
}

/// The other files of a file's folder (its siblings on a shared volume): the workers of a
/// sharded run read each other's entries there, so that a shard of a test stops when the
/// test is decided on all the shards' games together, and a tuning worker computes each
/// iteration from every worker's games.
pub struct Siblings<F: Format> {
    dir: PathBuf,
    own: PathBuf,
    /// Each file's bytes and lines read so far.
    offsets: HashMap<PathBuf, (u64, usize)>,
    last: Option<Instant>,
    every: Duration,
    format: PhantomData<F>,
}

impl<F: Format> Siblings<F> {
    /// The siblings of file `own` (the other `.jsonl` files of its folder), looked at at
    /// most once every `every`.
    pub fn new(own: &Path, every: Duration) -> Siblings<F> {
        Siblings {
            dir: folder_of(own),
            own: own.file_name().map(PathBuf::from).unwrap_or_default(),
            offsets: HashMap::new(),
            last: None,
            every,
            format: PhantomData,
        }
    }

    /// Adds the entries of run `id` that are new in the sibling files to `into` (at most
    /// every `every`; a line cut short is read when it is complete).
    pub fn poll(&mut self, id: &str, into: &mut BTreeMap<F::Key, F::Entry>) {
        self.poll_each(id, |_, _, e| {
            into.entry(F::key(&e)).or_insert(e);
        });
    }

    /// Hands each entry of run `id` that is new in the sibling files to `each`, with its
    /// file and line number (at most every `every`; a line cut short is read when it is
    /// complete).
    pub fn poll_each(&mut self, id: &str, mut each: impl FnMut(&Path, usize, F::Entry)) {
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
            self.read_new(path, id, &mut each);
        }
    }

    /// The complete lines of one sibling file after what was read of it before.
    fn read_new(&mut self, path: PathBuf, id: &str, each: &mut impl FnMut(&Path, usize, F::Entry)) {
        let (offset, mut line) = self.offsets.get(&path).copied().unwrap_or((0, 0));
        let Ok(mut f) = File::open(&path) else {
            return;
        };
        let mut bytes = Vec::new();
        if f.seek(SeekFrom::Start(offset)).is_err() || f.read_to_end(&mut bytes).is_err() {
            return;
        }
        let text = String::from_utf8_lossy(&bytes);
        let mut used = 0;
        for chunk in text.split_inclusive('\n') {
            if !chunk.ends_with('\n') {
                break;
            }
            used += chunk.len();
            line += 1;
            if let Ok(Line::Entry(e)) = F::parse(chunk.trim()) {
                if F::entry_id(&e) == id {
                    each(&path, line, e);
                }
            }
        }
        self.offsets.insert(path, (offset + used as u64, line));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complete_lines_leave_out_a_line_cut_short() {
        let parse = |s: &str| s.parse::<u32>().map_err(|e| e.to_string());
        let (lines, complete) = complete_lines("1\n\n2\n3", parse).unwrap();
        assert_eq!(lines, vec![(1, 1), (3, 2)]);
        assert_eq!(complete, 5);
        assert_eq!(complete_lines("1\nx\n", parse).unwrap_err().0, 2);
    }

    #[test]
    fn fnv1a_is_the_published_hash() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
