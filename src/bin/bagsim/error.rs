//! The CLI's errors and its exit codes (README, "Exit codes"): what went wrong decides the code, so a script or a
//! Slurm job can tell a scenario to fix from a disk to check, a run that stopped, or a study still incomplete.

use std::path::Path;

/// Why a command failed, each with its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// 2: the command line or an input is refused (an option, a scenario, a manifest, a trace, a script that does not
    /// compile); the message names the option or field and what is allowed. clap's own usage errors exit 2 too.
    Input,
    /// 3: a file could not be read or written (missing, not allowed, an output directory that does not exist).
    File,
    /// 4: a run stopped on the way although its scenario was accepted (a script's impossible decision or its
    /// operation budget), or runs of a shard failed (their reasons are in the shard's file).
    Run,
    /// 5: a study is not complete: shards are missing or failed, and nothing was merged.
    Incomplete,
}

impl Failure {
    pub fn code(self) -> i32 {
        match self {
            Failure::Input => 2,
            Failure::File => 3,
            Failure::Run => 4,
            Failure::Incomplete => 5,
        }
    }
}

/// A command's failure: its kind and the message printed after `bagsim: `.
#[derive(Clone, Debug, PartialEq)]
pub struct CliError {
    pub failure: Failure,
    pub message: String,
}

impl CliError {
    pub fn new(failure: Failure, message: impl Into<String>) -> CliError {
        CliError { failure, message: message.into() }
    }

    /// Says the failure on stderr (`bagsim: MESSAGE`) and gives its exit code. Every message, whatever built it,
    /// quotes no huge number or word.
    pub fn report(&self) -> i32 {
        let lines: Vec<String> = self.message.lines().map(bagsim::family::contract::tidy_message).collect();
        eprintln!("bagsim: {}", lines.join("\n"));
        self.failure.code()
    }

    /// A file that could not be read or written: its path and the system's reason.
    pub fn file(path: &Path, e: &std::io::Error) -> CliError {
        CliError::new(Failure::File, format!("{}: {e}", path.display()))
    }
}

/// Every message built as text is an input refused, unless it is made a `CliError` of another kind where it
/// arises.
impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::new(Failure::Input, message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::new(Failure::Input, message)
    }
}

/// Code that still speaks in text keeps the message (its kind is then the caller's to give).
impl From<CliError> for String {
    fn from(e: CliError) -> String {
        e.message
    }
}

/// A study refused (its axes, its size, a manifest or shard file this bagsim does not read) is an input refused.
impl From<bagsim::study::StudyError> for CliError {
    fn from(e: bagsim::study::StudyError) -> CliError {
        CliError::new(Failure::Input, e.to_string())
    }
}

/// A lesson that cannot be opened, or a run of it that failed, is an input refused (as when both were text).
impl From<bagsim::lessons::LessonError> for CliError {
    fn from(e: bagsim::lessons::LessonError) -> CliError {
        CliError::new(Failure::Input, e.to_string())
    }
}

/// A figure command's failure keeps its kind.
impl From<bagsim::family::contract::FigureError> for CliError {
    fn from(e: bagsim::family::contract::FigureError) -> CliError {
        use bagsim::family::contract::FigureFailure;
        let failure = match e.failure {
            FigureFailure::Input => Failure::Input,
            FigureFailure::File => Failure::File,
            FigureFailure::Run => Failure::Run,
        };
        CliError::new(failure, e.message)
    }
}

/// What a command returns.
pub type Outcome<T = ()> = Result<T, CliError>;

/// Writes a whole file, or fails as a file error naming it.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Outcome {
    std::fs::write(path, contents).map_err(|e| CliError::file(path, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_text_is_an_input_error() {
        let all = [Failure::Input, Failure::File, Failure::Run, Failure::Incomplete];
        let mut codes: Vec<i32> = all.iter().map(|f| f.code()).collect();
        codes.dedup();
        assert_eq!(codes, vec![2, 3, 4, 5]);
        assert_eq!(CliError::from(String::from("x")).failure, Failure::Input);
        let e = CliError::file(Path::new("a/b"), &std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(e.failure, Failure::File);
        assert!(e.message.starts_with("a/b: "), "{}", e.message);
    }
}
