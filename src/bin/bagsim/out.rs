//! Where the CLI writes: the check, before any work, that an output path can be written (`check_output`, which
//! every command with an output uses), and where the figure commands put what the families' figure code says and
//! writes (`FigureOut`): a leaf that the figure command, the study commands and `run` use.

use super::error::{CliError, Failure, Outcome};
use bagsim::family::contract::{FigureError, FigureFailure, FigureOut, FigureOutcome};
use std::io::Write;
use std::path::Path;

/// Checks, before any work, that files can be written at `path` (a file, or a stem that suffixes are added to): its
/// directory exists and takes a new file, and the path is not a directory. A run that would simulate everything and
/// then fail to write is refused at once.
pub fn check_output(option: &str, path: &Path) -> Outcome {
    if path.as_os_str().is_empty() {
        return Err(format!("{option}: an empty path").into());
    }
    if path.is_dir() {
        return Err(format!("{option} {}: is a directory; give a file name (or stem) inside it", path.display()).into());
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        let why = format!("{option} {}: the directory {} does not exist", path.display(), dir.display());
        return Err(CliError::new(Failure::File, why));
    }
    let probe = dir.join(format!(".bagsim-probe-{}", std::process::id()));
    std::fs::File::create(&probe).and_then(|_| std::fs::remove_file(&probe)).map_err(|e| {
        CliError::new(Failure::File, format!("{option} {}: cannot write in {}: {e}", path.display(), dir.display()))
    })
}

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
