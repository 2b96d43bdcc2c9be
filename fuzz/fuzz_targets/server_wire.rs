//! The match server's wire: bytes into capped lines, each line parsed as a request.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plyforge_fuzz::server_wire(data);
});
