//! Shared helpers: the engine's tests read the reference data the same way.

#[path = "../../../grundy/tests/common/mod.rs"]
mod data;

pub use data::data_dir;
