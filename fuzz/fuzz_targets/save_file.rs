//! Save files as `bouton play --load FILE` reads them: JSON, format and
//! version, rule set, start, every move replayed, seats
//! (`bouton::reload_save`). A file that loads is written back in a form that
//! loads to exactly the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(saved) = bouton::reload_save("fuzz.json", data) else { return };
    match bouton::reload_save("fuzz.json", saved.as_bytes()) {
        Ok(again) => assert_eq!(again, saved, "a written game reads back the same"),
        Err(e) => panic!("a written game does not load: {e}\n{saved}"),
    }
});
