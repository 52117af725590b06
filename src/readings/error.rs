//! Why readings, seeds or a key path are refused; each says what the CLI prints after `bagsim: `.

/// Why a figure's readings (`--readings`, `--seeds`) are refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadingsError {
    /// A `--readings` argument that is not an axis: its form, an unknown value, a value given twice, a key on two
    /// axes.
    Axis(String),
    /// A reading the figure sets itself in every run, so that it would change none of its runs.
    Overridden { key: String, name: String, figure: String },
    /// A reading's key that the scenario does not hold.
    NotAKey(String),
    /// A combination whose values the scenario's type refuses: its label and why.
    Refused { label: String, why: String },
    /// A combination whose scenario is refused by its checks: its label and why.
    Invalid { label: String, why: String },
    /// `--seeds` out of its range (`min`–100, or auto).
    Seeds { given: String, min: u32 },
    /// The figure the readings are asked of does not exist.
    NoFigure(String),
    /// A reading's key path that does not fit the scenario.
    Path(PathError),
    /// A scenario that does not read back from its own JSON (a value JSON cannot hold): why.
    Json(String),
}

impl std::fmt::Display for ReadingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadingsError::Axis(m) | ReadingsError::NoFigure(m) | ReadingsError::Json(m) => f.write_str(m),
            ReadingsError::Overridden { key, name, figure } => write!(
                f,
                "--readings {key}={name}: {figure} sets {key} itself in every run (it fixes or sweeps it), so this \
                 reading would change none of its runs; leave {key} out of --readings"
            ),
            ReadingsError::NotAKey(k) => write!(f, "readings {k}: not a key of this scenario; it would change nothing"),
            ReadingsError::Refused { label, why } | ReadingsError::Invalid { label, why } => {
                write!(f, "readings {label}: {why}")
            }
            ReadingsError::Seeds { given, min } => write!(f, "--seeds {given:?}: allowed {min}–100 or auto"),
            ReadingsError::Path(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReadingsError {}

impl From<PathError> for ReadingsError {
    fn from(e: PathError) -> ReadingsError {
        ReadingsError::Path(e)
    }
}

/// A key path (`data_grid.data_mb.1`) that does not fit a scenario's JSON: the path, the part that does not fit,
/// and why.
#[derive(Clone, Debug, PartialEq)]
pub struct PathError {
    pub path: String,
    pub part: String,
    pub why: PathFault,
}

/// Why a part of a key path does not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathFault {
    /// The path has no part.
    Empty,
    /// The part is not an index of the list of `len` it meets.
    NotAnIndex { len: usize },
    /// The part meets a value that is neither an object nor a list.
    NotInObject,
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (path, part) = (&self.path, &self.part);
        match self.why {
            PathFault::Empty => write!(f, "--set {path}: empty key"),
            PathFault::NotAnIndex { len } => write!(f, "--set {path}: {part} is not an index of a list of {len}"),
            PathFault::NotInObject => write!(f, "--set {path}: {part} is not inside an object"),
        }
    }
}

impl std::error::Error for PathError {}
