//! The trainer's integration tests, one binary (each file a module, named as its file).

mod cli;
mod quantisation;
mod training;
