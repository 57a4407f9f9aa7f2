//! The progress bar of long runs (matches, self-play, puzzles, review): `done/all` of a
//! unit of work with the time taken and left, on stderr, and only when a person watches it
//! (stderr a terminal), so that logs and pipes stay clean.

#[cfg(feature = "native")]
pub use indicatif::ProgressBar;
#[cfg(feature = "native")]
use indicatif::{ProgressDrawTarget, ProgressStyle};
#[cfg(feature = "native")]
use std::io::IsTerminal;
#[cfg(feature = "native")]
use std::time::Duration;

/// The engine core draws no bar (the browser shows a review's progress from its watch).
#[cfg(not(feature = "native"))]
pub struct ProgressBar;

#[cfg(not(feature = "native"))]
impl ProgressBar {
    pub fn set_length(&self, _: u64) {}
    pub fn set_position(&self, _: u64) {}
    pub fn finish_and_clear(&self) {}
}

#[cfg(not(feature = "native"))]
pub fn progress_bar(_visible: bool, _total: u64, _unit: &str) -> ProgressBar {
    ProgressBar
}

/// A bar of `total` pieces of work called `unit` (`games`, `positions`); hidden unless
/// `visible` and stderr is a terminal. Its message is shown after the times.
#[cfg(feature = "native")]
pub fn progress_bar(visible: bool, total: u64, unit: &str) -> ProgressBar {
    if !visible || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    let template = format!(
        "{{bar:20}} {{pos}}/{{len}} {unit} [{{elapsed_precise}}, eta {{eta}}] {{wide_msg}}"
    );
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}
