//! Where the CLI's figure commands put what the families' figure code says and writes (`FigureOut`): a leaf that
//! the figure command and the study commands (merge) both use.

use bagsim::family::contract::{FigureError, FigureFailure, FigureOut, FigureOutcome};
use std::io::Write;
use std::path::Path;

/// Where the CLI's figure commands put their lines and files: results on stdout (stopping quietly when it is
/// closed), progress on stderr, files named from the `--out` stem.
pub struct CliOut {
    pub stem: std::path::PathBuf,
}

impl CliOut {
    pub fn new(stem: &Path) -> CliOut {
        CliOut { stem: stem.to_path_buf() }
    }
}

impl FigureOut for CliOut {
    fn stem(&self) -> String {
        self.stem.display().to_string()
    }

    fn say(&mut self, line: &str) {
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(line));
    }

    fn note(&mut self, line: &str) {
        eprintln!("{line}");
    }

    fn write(&mut self, path: &str, text: &str) -> FigureOutcome {
        std::fs::write(path, text).map_err(|e| FigureError::new(FigureFailure::File, format!("{path}: {e}")))
    }
}
