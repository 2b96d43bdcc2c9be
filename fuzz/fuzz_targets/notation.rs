//! Notation of every fuzzed game: positions and moves parse, display and parse back to
//! themselves; nothing panics on any input. Input: `POSITION\nMOVE` (either may be garbage),
//! fed to each game (see `plyforge::checks::notation`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::notation(data);
});
