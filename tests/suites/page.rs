//! `shove gui`'s pages in headless Chromium, as people use them, and its server's guards.
//!
//! One test binary for several files (each a module, named as its file), so that the
//! release build links it once.

#[path = "../gui.rs"]
mod gui;
#[path = "../gui_learn.rs"]
mod gui_learn;
#[path = "../gui_play.rs"]
mod gui_play;
#[path = "../gui_puzzles.rs"]
mod gui_puzzles;
#[path = "../gui_rules.rs"]
mod gui_rules;
#[path = "../gui_security.rs"]
mod gui_security;
#[path = "../gui_words.rs"]
mod gui_words;

// The shared helpers, once for the suite (each file uses what it needs).
#[allow(dead_code)]
#[path = "../common/board_page.rs"]
mod board_page;
#[path = "../common/browser.rs"]
mod browser;
#[allow(dead_code)]
#[path = "../common/gui_server.rs"]
mod gui_server;
