//! The progress bar of long runs (matches, self-play, puzzles, review): `done/all` of a
//! unit of work with the time taken and left, on stderr, and only when a person watches it
//! (stderr a terminal), so that logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// A bar of `total` pieces of work called `unit` (`games`, `positions`); hidden unless
/// `visible` and stderr is a terminal. Its message is shown after the times.
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
