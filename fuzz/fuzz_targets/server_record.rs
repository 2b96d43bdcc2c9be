//! The match server's record file read back, its games replayed through their rules.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::server_record(data);
});
