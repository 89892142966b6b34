//! The JSON API suite of `api.rs` again, on a throw-away PostgreSQL: one
//! suite, two backends (`common::on_postgres` tells by this binary's name).

#[path = "api.rs"]
mod suite;
