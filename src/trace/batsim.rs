//! Batsim's JSON workload: an object with `jobs` (each with `id`, `subtime`, `res`, `profile` and an optional
//! `walltime`), `profiles` (by name, each with a `type`) and usually `nb_res`; other fields are the user's and
//! Batsim ignores them. A job replays here when its profile is a `delay` profile (the job lasts `delay` seconds on
//! any machine); bagsim's own extra fields `user` and `bot` (written by `bagsim generate --format batsim`) give
//! the job's user and executable, so the BoTs of a workload we wrote come back by the Δ rule.
//!
//! The rules are the line rules of the module doc, per entry of `jobs`: an entry that is not a job (a missing or
//! out-of-range field, a profile that is not defined or not a delay) is skipped and reported, naming the entry, its
//! id and the field; a file that is not a JSON object with a `jobs` list is an error.

use super::limits::{MAX_PROCS, MAX_TIME};
use super::rules::Skip;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The fields of a job, for the messages (`Format::fields`).
pub const FIELDS: [&str; 5] = ["id", "subtime", "res", "walltime", "profile"];

/// A JSON value read as a number, or what it was instead (so that a bad field skips its job, not the file).
#[derive(Debug)]
enum Num {
    Ok(f64),
    Bad(String),
}

/// A JSON value read as text (a string, or a number written as text), or what it was instead.
#[derive(Debug)]
enum Text {
    Ok(String),
    Bad(String),
}

struct NumVisitor;
struct TextVisitor;

/// What a JSON value that is not the expected kind was, for a message.
macro_rules! other_kinds {
    ($out:expr, $want:expr) => {
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok($out(format!("{v} is not {}", $want)))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($out(format!("null is not {}", $want)))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            while a.next_element::<IgnoredAny>()?.is_some() {}
            Ok($out(format!("a list is not {}", $want)))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok($out(format!("an object is not {}", $want)))
        }
    };
}

impl<'de> Visitor<'de> for NumVisitor {
    type Value = Num;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a number")
    }
    fn visit_f64<E>(self, v: f64) -> Result<Num, E> {
        // + 0.0: a file's -0 is 0.
        Ok(Num::Ok(v + 0.0))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Num, E> {
        Ok(Num::Ok(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Num, E> {
        Ok(Num::Ok(v as f64))
    }
    fn visit_str<E>(self, v: &str) -> Result<Num, E> {
        Ok(Num::Bad(format!("{:?} is a string, not a number", shown(v))))
    }
    other_kinds!(Num::Bad, "a number");
}

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E>(self, v: &str) -> Result<Text, E> {
        Ok(Text::Ok(v.to_string()))
    }
    // Older Batsim workloads give ids as integers.
    fn visit_i64<E>(self, v: i64) -> Result<Text, E> {
        Ok(Text::Ok(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Text, E> {
        Ok(Text::Ok(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Text, E> {
        Ok(Text::Bad(format!("{v} is a number, not a string")))
    }
    other_kinds!(Text::Bad, "a string");
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Num, D::Error> {
        d.deserialize_any(NumVisitor)
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

/// One entry of `jobs` as the file gives it (a field absent or null is None).
#[derive(Deserialize)]
struct RawJob {
    id: Option<Text>,
    subtime: Option<Num>,
    res: Option<Num>,
    walltime: Option<Num>,
    profile: Option<Text>,
    /// bagsim's extra fields (Batsim ignores them).
    user: Option<Text>,
    bot: Option<Text>,
}

#[derive(Deserialize)]
struct RawProfile {
    #[serde(rename = "type")]
    kind: Option<Text>,
    delay: Option<Num>,
}

#[derive(Deserialize)]
struct RawWorkload {
    nb_res: Option<Num>,
    jobs: Option<Vec<RawJob>>,
    #[serde(default)]
    profiles: Option<BTreeMap<String, RawProfile>>,
}

/// A job read from an entry, before the importer interns its names.
pub(super) struct Read {
    /// 1-based index in `jobs`.
    pub entry: u64,
    pub id: i64,
    pub submit: f64,
    pub run: f64,
    pub procs: u32,
    pub req_time: f64,
    pub user: String,
    pub executable: String,
}

/// The workload read: jobs, skipped entries in order, and the header fields (`nb_res`).
pub(super) struct Parsed {
    pub entries: u64,
    pub jobs: Vec<Read>,
    pub skips: Vec<Skip>,
    pub header: Vec<(String, String)>,
}

const SHOWN: usize = 40;

fn shown(s: &str) -> String {
    if s.chars().count() > SHOWN {
        format!("{}…", s.chars().take(SHOWN).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Why a text is not a Batsim JSON workload (not JSON, not an object, no `jobs` list): the import refuses it as
/// malformed (`ImportError::Malformed`, which the parser makes of it).
#[derive(Debug, Clone, PartialEq)]
pub struct NotBatsim(pub String);

/// Reads a whole Batsim JSON workload; Err: the text is not one.
pub(super) fn parse(text: &[u8]) -> Result<Parsed, NotBatsim> {
    let mut de = serde_json::Deserializer::from_slice(text);
    let raw: RawWorkload = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        NotBatsim(if path == "." || path.is_empty() {
            format!("not a Batsim JSON workload: {inner}")
        } else {
            format!("not a Batsim JSON workload: at {path}: {inner}")
        })
    })?;
    de.end().map_err(|e| NotBatsim(format!("not a Batsim JSON workload: text after the workload's object ({e})")))?;
    let Some(jobs) = raw.jobs else {
        return Err(NotBatsim(
            "not a Batsim JSON workload: no \"jobs\" list (a Batsim workload is a JSON object with \"jobs\", \
             \"profiles\" and \"nb_res\")"
                .into(),
        ));
    };
    let profiles = raw.profiles.unwrap_or_default();
    let mut header = Vec::new();
    match raw.nb_res {
        Some(Num::Ok(n)) => header.push(("nb_res".to_string(), n.to_string())),
        Some(Num::Bad(why)) => header.push(("nb_res".to_string(), format!("not read: {why}"))),
        None => {}
    }
    let mut parsed = Parsed { entries: jobs.len() as u64, jobs: Vec::new(), skips: Vec::new(), header };
    for (i, job) in jobs.into_iter().enumerate() {
        match read_job(i, job, &profiles) {
            Ok(r) => parsed.jobs.push(r),
            Err(s) => parsed.skips.push(s),
        }
    }
    Ok(parsed)
}

/// The checks of one entry, in field order: the first that fails skips it.
fn read_job(i: usize, job: RawJob, profiles: &BTreeMap<String, RawProfile>) -> Result<Read, Skip> {
    let entry = i as u64 + 1;
    let id = match &job.id {
        Some(Text::Ok(s)) => Some(s.clone()),
        _ => None,
    };
    let place = match &id {
        Some(id) => format!("jobs[{i}] (id {:?})", shown(id)),
        None => format!("jobs[{i}]"),
    };
    let skip = |field: &str, kind: &str, reason: String| Skip {
        line: entry,
        field: None,
        field_name: Some(field.to_string()),
        reason,
        kind: kind.to_string(),
        entry: Some(place.clone()),
    };
    let number = |field: &str, v: &Option<Num>| -> Result<Option<f64>, Skip> {
        match v {
            None => Ok(None),
            Some(Num::Ok(x)) => Ok(Some(*x)),
            Some(Num::Bad(why)) => Err(skip(field, "not a number", why.clone())),
        }
    };
    let id = match (&job.id, id) {
        (_, Some(id)) => id,
        (Some(Text::Bad(why)), _) => return Err(skip("id", "not a string", why.clone())),
        _ => return Err(skip("id", "missing field", "missing; every job needs its id (a string)".into())),
    };
    let submit = number("subtime", &job.subtime)?
        .ok_or_else(|| skip("subtime", "missing field", "missing; a job needs its submit time (s)".into()))?;
    if !(0.0..=MAX_TIME).contains(&submit) {
        return Err(skip("subtime", "out of range", format!("{submit} is out of range; allowed 0–{MAX_TIME:e} s")));
    }
    let res = number("res", &job.res)?
        .ok_or_else(|| skip("res", "missing field", "missing; a job needs its number of resources".into()))?;
    if res.fract() != 0.0 {
        return Err(skip("res", "not a whole number", format!("{res} is not a whole number")));
    }
    if !(1.0..=f64::from(MAX_PROCS)).contains(&res) {
        return Err(skip("res", "out of range", format!("{res} is out of range; allowed 1–{MAX_PROCS}")));
    }
    let req_time = match number("walltime", &job.walltime)? {
        None => -1.0,
        Some(w) if w == -1.0 || (0.0..=MAX_TIME).contains(&w) => w,
        Some(w) => {
            return Err(skip(
                "walltime",
                "out of range",
                format!("{w} is out of range; allowed 0–{MAX_TIME:e} s, or -1 = none"),
            ))
        }
    };
    let name = match &job.profile {
        Some(Text::Ok(p)) => p,
        Some(Text::Bad(why)) => return Err(skip("profile", "not a string", why.clone())),
        None => return Err(skip("profile", "missing field", "missing; a job needs its profile's name".into())),
    };
    let Some(profile) = profiles.get(name) else {
        return Err(skip(
            "profile",
            "unknown profile",
            format!("{:?} is not defined in \"profiles\" ({} profiles there)", shown(name), profiles.len()),
        ));
    };
    match &profile.kind {
        Some(Text::Ok(k)) if k == "delay" => {}
        Some(Text::Ok(k)) => {
            return Err(skip(
                "profile",
                "not a delay profile",
                format!(
                    "profile {:?} is of type {:?}; only \"delay\" profiles give a run time bagsim can replay",
                    shown(name),
                    shown(k)
                ),
            ))
        }
        _ => {
            return Err(skip(
                "profile",
                "not a delay profile",
                format!("profile {:?} has no \"type\" string; allowed: \"delay\"", shown(name)),
            ))
        }
    }
    let run = match &profile.delay {
        Some(Num::Ok(d)) if (0.0..=MAX_TIME).contains(d) => *d,
        Some(Num::Ok(d)) => {
            return Err(skip(
                "profile",
                "out of range",
                format!("profile {:?}: delay {d} is out of range; allowed 0–{MAX_TIME:e} s", shown(name)),
            ))
        }
        Some(Num::Bad(why)) => {
            return Err(skip("profile", "not a number", format!("profile {:?}: delay: {why}", shown(name))))
        }
        None => {
            return Err(skip(
                "profile",
                "missing field",
                format!("profile {:?} has no \"delay\" (s); a delay profile needs it", shown(name)),
            ))
        }
    };
    let text = |v: &Option<Text>| match v {
        Some(Text::Ok(s)) => s.clone(),
        _ => "-1".to_string(),
    };
    Ok(Read {
        entry,
        id: job_number(&id, entry),
        submit,
        run,
        procs: res as u32,
        req_time,
        user: text(&job.user),
        executable: text(&job.bot),
    })
}

/// A job number from a Batsim id: the id itself when it is a whole number, or the number after a workload
/// prefix (`w0!12`), else the entry's place in `jobs` (1-based).
fn job_number(id: &str, entry: u64) -> i64 {
    let tail = id.rsplit_once('!').map_or(id, |(_, n)| n);
    tail.parse::<i64>().unwrap_or(entry as i64)
}

/// Writes `w` as a Batsim JSON workload for a platform of `nb_res` processors: one job per task (`res`: the
/// processors the task needs, 1 for a BoT's task), submitted at its BoT's arrival, with no walltime (`-1`, as
/// Batsim writes a job without one) and a `delay` profile of the task's runtime on the reference processor
/// (one profile per distinct runtime). Each job also carries bagsim's `user` and `bot` (0-based), which Batsim
/// ignores and [`parse`] reads back. Jobs are written as they are read from `w`, profiles at the end.
pub fn write_workload(
    o: &mut impl std::io::Write,
    w: &crate::workload::Workload,
    nb_res: u64,
    description: &str,
) -> std::io::Result<()> {
    let num = |x: f64| serde_json::to_string(&x).expect("finite");
    writeln!(o, "{{")?;
    writeln!(o, "  \"nb_res\": {nb_res},")?;
    writeln!(o, "  \"description\": {},", serde_json::to_string(description).expect("a string"))?;
    writeln!(o, "  \"jobs\": [")?;
    let mut delays = std::collections::BTreeSet::new();
    let mut job = 0u64;
    for (b, bot) in w.bots.iter().enumerate() {
        for t in bot.first_task as usize..(bot.first_task + bot.size) as usize {
            let run = w.runtimes[t];
            delays.insert(run.to_bits());
            job += 1;
            let comma = if job as usize == w.tasks() { "" } else { "," };
            writeln!(
                o,
                "    {{\"id\": \"{job}\", \"subtime\": {}, \"res\": {}, \"walltime\": -1, \"profile\": \"{}\", \
                 \"user\": {}, \"bot\": {b}}}{comma}",
                num(bot.arrival),
                w.procs_of(t),
                profile_name(run),
                bot.user,
            )?;
        }
    }
    writeln!(o, "  ],")?;
    writeln!(o, "  \"profiles\": {{")?;
    let n = delays.len();
    for (k, bits) in delays.into_iter().enumerate() {
        let d = f64::from_bits(bits);
        let comma = if k + 1 == n { "" } else { "," };
        writeln!(o, "    \"{}\": {{\"type\": \"delay\", \"delay\": {}}}{comma}", profile_name(d), num(d))?;
    }
    writeln!(o, "  }}")?;
    writeln!(o, "}}")
}

/// The profile of a delay: `delay_` and the runtime's shortest exact decimal (distinct runtimes, distinct names).
fn profile_name(run: f64) -> String {
    format!("delay_{run}")
}
