//! Where solved tables are kept between runs: the user's cache directory.

use std::path::PathBuf;

/// The folder for plyforge's cached tables: `$PLYFORGE_CACHE_DIR` if set, else the platform's
/// cache directory with `plyforge` under it (`$XDG_CACHE_HOME/plyforge` or
/// `~/.cache/plyforge` on Linux and other Unixes, `~/Library/Caches/plyforge` on macOS,
/// `%LOCALAPPDATA%\plyforge` on Windows); `None` when none can be found.
///
/// ```
/// std::env::set_var("PLYFORGE_CACHE_DIR", "/tmp/plyforge-doc-cache");
/// assert_eq!(
///     plyforge::cache_dir(),
///     Some(std::path::PathBuf::from("/tmp/plyforge-doc-cache"))
/// );
/// ```
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = var("PLYFORGE_CACHE_DIR") {
        return Some(dir);
    }
    let base = if cfg!(windows) {
        var("LOCALAPPDATA")
    } else if cfg!(target_os = "macos") {
        var("HOME").map(|h| h.join("Library").join("Caches"))
    } else {
        var("XDG_CACHE_HOME").or_else(|| var("HOME").map(|h| h.join(".cache")))
    };
    base.map(|b| b.join("plyforge"))
}
