//! Every family's readings table, printed and written (`bagsim figure … --readings`): one leaf the families'
//! figure commands call, so that the figure command and theirs do not import each other.

use super::error::Outcome;
use bagsim::readings::{flips, flips_markdown, ReadingsTable};
use std::io::Write;
use std::path::Path;

/// println! that stops quietly when stdout is closed.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), "{}", bagsim::family::contract::tidy_line(&format!($($arg)*)));
    }};
}

/// Every family's readings table, printed (each finding under each reading, and which reading flips it) and
/// written as STEM-NAME-readings.md and .csv; `name` is the figure's (`fig11`), `heading` what the lines open with.
pub fn finish_readings(
    name: &str,
    heading: &str,
    table: &ReadingsTable,
    combos: usize,
    out: &Path,
    elapsed: Option<f64>,
) -> Outcome {
    let stem = out.display().to_string();
    let (md_path, csv_path) = (format!("{stem}-{name}-readings.md"), format!("{stem}-{name}-readings.csv"));
    let mut text = table.markdown();
    if combos > 1 {
        text.push_str(&flips_markdown(table));
    }
    super::error::write(md_path.as_ref(), text)?;
    super::error::write(csv_path.as_ref(), table.csv())?;
    let t = elapsed.map_or(String::new(), |t| format!(" ({t:.1} s)"));
    say!("\n{heading} under {combos} reading(s){t}");
    let flips = flips(table);
    for (k, claim) in table.rows.first().map_or(&[][..], |r| &r.claims[..]).iter().enumerate() {
        say!("  paper: {}", claim.paper);
        for row in &table.rows {
            let c = &row.claims[k];
            say!("    {:<40} {:<13} ({} seeds) {}", row.label, c.verdict.label(), row.seeds, c.ours);
        }
        if combos > 1 {
            say!("    → {}", flips[k].text());
        }
    }
    for row in &table.rows {
        for f in &row.failures {
            say!("  {}: failed: {f}", row.label);
        }
    }
    say!("  wrote {md_path} and {csv_path}");
    Ok(())
}
