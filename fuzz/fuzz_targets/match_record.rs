//! `arena match`'s file (`--out`, read by `--resume` and `arena merge`) read back and
//! written again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::match_record(data);
});
