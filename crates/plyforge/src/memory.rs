//! The machine's memory, against which transposition-table sizes are checked.
//!
//! A table size is checked twice: where it is read (an engine spec's `tt=`, the engine
//! protocol's `Hash` option), against the machine's memory, so that a size no machine of this
//! kind can hold is refused at once with the reason; and where the table is made
//! ([`crate::agent::SearchEngine::try_new`]), against the memory available then, and through an
//! allocation that reports failure instead of aborting the process.
//!
//! "The machine's memory" is the physical memory (`MemTotal` of `/proc/meminfo`) or, when
//! the process runs in a control group with a lower memory limit (a container), that limit.
//! Where these cannot be read (another operating system), sizes are not checked here and
//! only the fallible allocation stands between a size and the machine.
//!
//! ```
//! use plyforge::memory;
//! // Nobody has 2^40 MiB (an exbibyte).
//! let err = memory::check_table_mib(1 << 40).unwrap_err();
//! assert!(err.to_string().contains("more than"), "{err}");
//! assert!(memory::check_table_mib(1).is_ok());
//! ```

use std::fmt;
use std::fs;

/// A table size the memory cannot hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MemoryError {
    /// More than the machine's memory ([`total_mib`]).
    MoreThanMachine {
        /// The size asked for, in MiB.
        mib: usize,
        /// The machine's memory, in MiB.
        total: u64,
    },
    /// More than the memory available now ([`available_mib`]).
    MoreThanAvailable {
        /// The size asked for, in MiB.
        mib: usize,
        /// The memory available, in MiB.
        free: u64,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::MoreThanMachine { mib, total } => write!(
                f,
                "a table of {mib} MiB is more than this machine's memory ({total} MiB)"
            ),
            MemoryError::MoreThanAvailable { mib, free } => write!(
                f,
                "a table of {mib} MiB is more than the memory available now ({free} MiB)"
            ),
        }
    }
}

impl std::error::Error for MemoryError {}

/// The memory this process may use at most, in MiB: the physical memory, or a lower limit of
/// its control group. `None` where it cannot be read.
pub fn total_mib() -> Option<u64> {
    let physical = meminfo("MemTotal:");
    let limit = cgroup_limit().map(|(limit, _)| limit);
    min_known(physical, limit).map(|kib| kib / 1024)
}

/// The memory available now for a new allocation, in MiB: the kernel's estimate
/// (`MemAvailable`), or what is left below the control group's limit if that is less.
/// `None` where it cannot be read.
pub fn available_mib() -> Option<u64> {
    let available = meminfo("MemAvailable:");
    let left = cgroup_limit().map(|(limit, used)| limit.saturating_sub(used));
    min_known(available, left).map(|kib| kib / 1024)
}

/// Checks a table size (MiB) against the machine's memory ([`total_mib`]): the reason when
/// it is more than the machine has.
pub fn check_table_mib(mib: usize) -> Result<(), MemoryError> {
    match total_mib() {
        Some(total) if mib as u64 > total => Err(MemoryError::MoreThanMachine { mib, total }),
        _ => Ok(()),
    }
}

/// Checks a table size (MiB) against the memory available now ([`available_mib`]).
pub fn check_available_mib(mib: usize) -> Result<(), MemoryError> {
    match available_mib() {
        Some(free) if mib as u64 > free => Err(MemoryError::MoreThanAvailable { mib, free }),
        _ => Ok(()),
    }
}

fn min_known(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A field of `/proc/meminfo`, in KiB.
fn meminfo(field: &str) -> Option<u64> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The memory limit of this process's control group and its usage, in KiB, if it has a
/// limit (cgroup v2 `memory.max`, or v1 `memory.limit_in_bytes`).
fn cgroup_limit() -> Option<(u64, u64)> {
    let groups = fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let path = path.trim_start_matches('/');
        let (limit, usage) = if controllers.is_empty() {
            let dir = format!("/sys/fs/cgroup/{path}");
            (
                read_bytes(&format!("{dir}/memory.max")),
                read_bytes(&format!("{dir}/memory.current")),
            )
        } else if controllers.split(',').any(|c| c == "memory") {
            let dir = format!("/sys/fs/cgroup/memory/{path}");
            (
                read_bytes(&format!("{dir}/memory.limit_in_bytes")),
                read_bytes(&format!("{dir}/memory.usage_in_bytes")),
            )
        } else {
            continue;
        };
        // "max", or v1's "no limit" (a number near 2^63): no limit.
        if let Some(limit) = limit.filter(|&l| l < 1 << 60) {
            return Some((limit / 1024, usage.unwrap_or(0) / 1024));
        }
    }
    None
}

fn read_bytes(path: &str) -> Option<u64> {
    fs::read_to_string(path).ok()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_is_read_where_linux_tells_it() {
        if cfg!(target_os = "linux") {
            let total = total_mib().expect("/proc/meminfo");
            let free = available_mib().expect("/proc/meminfo");
            assert!(total >= 16, "{total} MiB");
            assert!(free <= total, "{free} of {total}");
            let err = check_table_mib(total as usize + 1).unwrap_err();
            assert_eq!(
                err,
                MemoryError::MoreThanMachine {
                    mib: total as usize + 1,
                    total
                }
            );
            assert!(err.to_string().contains(&format!("({total} MiB)")), "{err}");
            assert!(check_table_mib(total as usize).is_ok());
            assert!(check_available_mib(total as usize + 1).is_err());
        }
        assert_eq!(min_known(Some(3), None), Some(3));
        assert_eq!(min_known(Some(3), Some(2)), Some(2));
        assert_eq!(min_known(None, None), None);
    }
}
