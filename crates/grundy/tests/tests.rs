//! The engine's tests, in one binary: the sequences against the reference
//! data, the engines against each other, and the periodicity proofs.

mod common;

mod arithmetic;
mod arithmetic_hex;
mod checkpoint;
mod data;
mod engines;
mod hexadecimal;
mod periodicity;
mod proofs;
