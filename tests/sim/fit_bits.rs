//! A real trace's fitted row, bit for bit. Fitted models feed runs ("use the fitted model" in the page), so fitting
//! must give the same bits natively and in wasm32, as the generator does. The bits below come from a native run;
//! tests/web.rs includes this file and holds wasm32 (headless Chromium) to the same ones.
//!
//! After a deliberate change to fitting, `cargo test --test sim fitted_bits -- --nocapture` prints the new tables.

use bagsim::scenario::Scenario;
use bagsim::share::{from_link, to_link};
use bagsim::trace::bots::{extract, BotRule, MultiProc};
use bagsim::trace::Trace;
use bagsim::workload::dist::Dist;
use bagsim::workload::fit::{fit, fit_intervals_truncated, fit_workload, DataError, Family, Fit};
use bagsim::workload::model::Calibration;

/// tests/data/hpc2n.swf, parallel jobs split: every number of `fit_workload`'s row as `f64::to_bits` (the counts
/// as they are).
pub const ROW: &[(&str, u64)] = &[
    ("users.alpha", 0x3ff44962c51bd7f3), // 1.2679164599953736
    ("users.n", 17),
    ("users.ks", 0x3fb2c550a1683764),                          // 0.0733232873974124
    ("iat.normal.mu", 0x40200f076e8daa35),                     // 8.029353575509143
    ("iat.normal.sigma", 0x40099adc29031097),                  // 3.2006152347622208
    ("iat.normal.ks", 0x3fba543500df0e5c),                     // 0.10284739753029143
    ("iat.normal.log_likelihood", 0xc0a8f4908c653ae0),         // -3194.282321132123
    ("daily_cycle.normal.mu", 0x403c5d7d26ec2035),             // 28.365190918586638
    ("daily_cycle.normal.sigma", 0x4028641ad3aedec4),          // 12.195517172905404
    ("daily_cycle.normal.ks", 0x3fa17e23f37b3f4e),             // 0.03416550013719065
    ("daily_cycle.normal.log_likelihood", 0xc0c025ae6411edb4), // -8267.36242889506
    ("size.normal.mu", 0x400f516ac2127d65),                    // 3.9147544061558386
    ("size.normal.sigma", 0x3ffb176d9f7b4fc5),                 // 1.6932197789910657
    ("size.normal.ks", 0x3fc1cf4d2f9427d6),                    // 0.1391388399427444
    ("size.normal.log_likelihood", 0xc0c28ffee6c9118f),        // -9503.991418012212
    ("art.normal.mu", 0x40243815a9c2fd20),                     // 10.10954027657732
    ("art.normal.sigma", 0x400fc5fdac3ca5e4),                  // 3.9716752487190536
    ("art.normal.ks", 0x3fb4ec920d8445c0),                     // 0.08173477964398668
    ("art.normal.log_likelihood", 0xc0b826d358bc1827),         // -6182.825572734734
    ("rtv.normal.mu", 0x4028214544f4c993),                     // 12.064981608277582
    ("rtv.normal.sigma", 0x401ce8ccdf8e1ad2),                  // 7.22734402947272
    ("rtv.normal.ks", 0x3fb259ce691e5870),                     // 0.07168283525820285
    ("rtv.normal.log_likelihood", 0xc09058debf01469c),         // -1046.217525501189
    ("bots", 2218),
];

/// Every family fitted to the daily cycle's slot counts (interval-censored, truncated to [0, 48)) and to the
/// inter-arrival times in hours (exact): a digest of [`candidates`]. The chosen families of [`ROW`] are all normal;
/// these also take the gamma (ψ, ln Γ, Q), Weibull and hyper-exponential paths, and the KS selection compares them.
pub const CANDIDATES: u64 = 0x2509357e69105880;

/// The workload both platforms fit.
fn workload(trace: &Trace) -> bagsim::workload::Workload {
    extract(trace, &BotRule { multi_proc: MultiProc::Split, ..BotRule::default() }).expect("BoTs").workload
}

fn params(d: &Dist) -> Vec<(&'static str, f64)> {
    match *d {
        Dist::Exponential { mean } => vec![("mean", mean)],
        Dist::HyperExponential { p, mean1, mean2 } => vec![("p", p), ("mean1", mean1), ("mean2", mean2)],
        Dist::Normal { mu, sigma } | Dist::LogNormal { mu, sigma } => vec![("mu", mu), ("sigma", sigma)],
        Dist::Gamma { shape, scale } | Dist::Weibull { shape, scale } => vec![("shape", shape), ("scale", scale)],
        Dist::Constant { value } => vec![("value", value)],
        Dist::Uniform { low, high } => vec![("low", low), ("high", high)],
    }
}

/// `what.family.parameter`, `what.family.ks` and `what.family.log_likelihood`, or the error (bits 0).
fn push_fit(out: &mut Vec<(String, u64)>, what: &str, family: Family, r: &Result<Fit, DataError>) {
    match r {
        Ok(f) => {
            assert_eq!(Family::of(&f.dist), Some(family));
            for (name, v) in params(&f.dist) {
                out.push((format!("{what}.{family}.{name}"), v.to_bits()));
            }
            out.push((format!("{what}.{family}.ks"), f.ks.to_bits()));
            out.push((format!("{what}.{family}.log_likelihood"), f.log_likelihood.to_bits()));
        }
        Err(e) => out.push((format!("{what}.{family}: {e}"), 0)),
    }
}

/// Counts, which [`source`] shows as integers; everything else is `f64::to_bits`.
fn is_count(name: &str) -> bool {
    name == "users.n" || name == "bots"
}

/// Every number of the fitted row, named.
pub fn row(trace: &Trace) -> Vec<(String, u64)> {
    let m = fit_workload(&workload(trace)).expect("a fitted row");
    let mut out = vec![
        ("users.alpha".to_string(), m.users.alpha.to_bits()),
        ("users.n".to_string(), u64::from(m.users.n)),
        ("users.ks".to_string(), m.users.ks.to_bits()),
    ];
    for (what, f) in
        [("iat", &m.iat), ("daily_cycle", &m.daily_cycle), ("size", &m.size), ("art", &m.art), ("rtv", &m.rtv)]
    {
        push_fit(&mut out, what, Family::of(&f.dist).expect("a fitted family"), &Ok(f.clone()));
    }
    out.push(("bots".to_string(), m.bots as u64));
    out
}

/// Every candidate family on the slot counts and on the inter-arrival times (see [`CANDIDATES`]).
pub fn candidates(trace: &Trace) -> Vec<(String, u64)> {
    let w = workload(trace);
    let mut arrivals: Vec<f64> = w.bots.iter().map(|b| b.arrival).collect();
    arrivals.sort_by(f64::total_cmp);
    let mut slots = [0u64; 48];
    for &t in &arrivals {
        slots[((t.rem_euclid(86_400.0) / 1_800.0) as usize).min(47)] += 1;
    }
    let bins: Vec<(f64, f64, u64)> = (0..48).map(|s| (s as f64, s as f64 + 1.0, slots[s])).collect();
    let hours: Vec<f64> = arrivals.windows(2).map(|a| (a[1] - a[0]) / 3_600.0).filter(|&v| v > 0.0).collect();
    let mut out = Vec::new();
    for family in Family::ALL {
        push_fit(&mut out, "slots", family, &fit_intervals_truncated(family, &bins, 0.0, 48.0));
        push_fit(&mut out, "iat_hours", family, &fit(family, &hours));
    }
    out
}

/// FNV-1a over the names and the bits.
pub fn digest(bits: &[(String, u64)]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for (name, b) in bits {
        for byte in name.bytes().chain(b.to_le_bytes()) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
        }
    }
    h
}

/// The lists as Rust source, to compare two platforms' output or to update the pins.
pub fn source(bits: &[(String, u64)]) -> String {
    let line = |(name, b): &(String, u64)| {
        if is_count(name) {
            format!("    ({name:?}, {b}),\n")
        } else {
            format!("    ({name:?}, {b:#018x}), // {}\n", f64::from_bits(*b))
        }
    };
    bits.iter().map(line).collect()
}

/// Panics, with every number of this platform, unless the row and the candidates have the pinned bits, and the
/// row's model comes back from a share link with the same bits (the page's "use the fitted model" puts it there).
pub fn check(trace: &Trace, platform: &str) {
    let model = fit_workload(&workload(trace)).expect("a fitted row").to_model();
    let mut s = Scenario::default();
    let m = s.multi_cluster_mut().unwrap();
    m.workload.model = Some(model.clone());
    m.workload.calibration = Calibration::Seconds;
    let back =
        from_link(&to_link(&s)).expect("the link of a fitted model").multi_cluster().unwrap().workload.model.clone();
    assert!(
        back.as_ref() == Some(&model),
        "{platform}: the fitted model changed through a link: {back:?} != {model:?}"
    );

    let (row, candidates) = (row(trace), candidates(trace));
    let pinned: Vec<(String, u64)> = ROW.iter().map(|&(n, b)| (n.to_string(), b)).collect();
    assert!(
        row == pinned,
        "{platform}: the fitted row's bits differ from the native ones pinned in tests/sim/fit_bits.rs; this \
         platform's row:\n{}",
        source(&row)
    );
    assert!(
        digest(&candidates) == CANDIDATES,
        "{platform}: the candidate fits' digest {:#018x} differs from the native {CANDIDATES:#018x}; this platform's \
         candidates:\n{}",
        digest(&candidates),
        source(&candidates)
    );
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn fitted_bits_are_pinned() {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/hpc2n.swf");
    let trace = bagsim::trace::import_path(&path, None).expect("the hpc2n excerpt");
    let (r, c) = (row(&trace), candidates(&trace));
    println!("ROW:\n{}CANDIDATES: {:#018x}\n{}", source(&r), digest(&c), source(&c));
    check(&trace, "native");
}
