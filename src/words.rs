//! The words messages use: a summary line without signed zeros or NaN, a message without huge numbers or words,
//! numbers, counts, bytes and seconds in words, and quoted values cut short.

/// A line of a summary or table as a person reads it: a zero printed with a sign (`-0`, `-0.00`, which a fixed
/// number of decimals makes of −0.001) loses it, and a number that has no value (`NaN`, `inf`) reads `undefined`.
/// The CLI's printing goes through it, so no summary, table or report shows them, whichever line built them.
pub fn tidy_line(s: &str) -> String {
    let b = s.as_bytes();
    let boundary = |i: usize| i >= b.len() || !(b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'_');
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        let start_ok = i == 0 || boundary(i - 1) && b[i - 1] != b'-';
        if start_ok && b[i] == b'-' {
            let mut j = i + 1;
            while j < b.len() && (b[j] == b'0' || b[j] == b'.') {
                j += 1;
            }
            if j > i + 1 && b[i + 1] == b'0' && boundary(j) {
                out.push_str(&s[i + 1..j]);
                i = j;
                continue;
            }
        }
        if start_ok && b[i].is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_alphanumeric() {
                j += 1;
            }
            let word = &s[i..j];
            if boundary(j) && matches!(word, "NaN" | "nan" | "inf" | "Infinity") {
                out.push_str("undefined");
            } else {
                out.push_str(word);
            }
            i = j;
            continue;
        }
        let c = s[i..].chars().next().expect("a char");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// A message as a person reads it: a number printed in full (0.000…5, 330 digits) in its short form (5e-324),
/// and any other word longer than 60 characters (a 1 MB key echoed back) cut, saying how long it was.
pub fn tidy_message(s: &str) -> String {
    // A control character (a NUL in a key, an escape from a script's string) is shown as `\u{0}`, never sent to the
    // user's terminal raw.
    let shown;
    let s = if s.chars().any(char::is_control) {
        shown = s
            .chars()
            .map(|c| if c.is_control() { c.escape_unicode().to_string() } else { c.to_string() })
            .collect::<String>();
        shown.as_str()
    } else {
        s
    };
    if !s.split(char::is_whitespace).any(|w| w.chars().count() > 60) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len().min(4096));
    for (k, w) in s.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let n = w.chars().count();
        if n <= 60 {
            out.push_str(w);
            continue;
        }
        let core = w.trim_end_matches([',', ';', ':', '.', ')']);
        match core.parse::<f64>() {
            Ok(x) => {
                out.push_str(&short_number(x));
                out.push_str(&w[core.len()..]);
            }
            Err(_) => {
                out.extend(w.chars().take(40));
                out.push_str(&format!("… ({n} characters)"));
            }
        }
    }
    out
}

/// A number as a message quotes it: never hundreds of digits (5e-324, not 0.000…5), never "inf" or "NaN" (∞, "not
/// a number"), never −0.
pub fn short_number(x: f64) -> String {
    if x.is_nan() {
        "not a number".into()
    } else if x.is_infinite() {
        if x > 0.0 { "∞" } else { "−∞" }.into()
    } else if x == 0.0 {
        "0".into()
    } else if (1e-4..1e15).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Digits in groups of three from the right: "1234567" → "1 234 567".
pub fn group_digits(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// A count in words: "12 000", "3.4 million", "2 billion", "2.1e13", "unboundedly many".
pub fn count_words(n: f64) -> String {
    let short = |x: f64, unit: &str| format!("{} {unit}", format!("{x:.1}").trim_end_matches(".0"));
    if !n.is_finite() {
        "unboundedly many".into()
    } else if n >= 1e12 {
        format!("{n:.1e}")
    } else if n >= 1e9 {
        short(n / 1e9, "billion")
    } else if n >= 1e6 {
        short(n / 1e6, "million")
    } else {
        let n = if n >= 1e4 { (n / 1e3).round() * 1e3 } else { n.round() };
        group_digits(&format!("{n:.0}"))
    }
}

/// Bytes in words: "12 MB", "3.4 GB".
pub fn bytes_words(b: f64) -> String {
    if !b.is_finite() {
        "unboundedly much".into()
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} kB", (b / 1e3).max(1.0))
    }
}

/// Seconds in words: "under a second", "12 s", "4 min", "3 h".
pub fn seconds_words(s: f64) -> String {
    if !s.is_finite() {
        "without end".into()
    } else if s < 1.0 {
        "under a second".into()
    } else if s < 120.0 {
        format!("{s:.0} s")
    } else if s < 7200.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.0} h", s / 3600.0)
    }
}

/// Longest stretch of a value a message quotes; a longer one is cut and its length given.
const QUOTE_MAX: usize = 60;

/// Shortens every quoted value (between backticks or double quotes) of a message to `QUOTE_MAX` characters.
pub(crate) fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let inner = &rest[open + 1..];
        let close = inner.find(quote).unwrap_or(inner.len());
        let value = &inner[..close];
        let n = value.chars().count();
        if n > QUOTE_MAX {
            out.extend(value.chars().take(QUOTE_MAX));
            out.push_str(&format!("… ({n} characters)"));
        } else {
            out.push_str(value);
        }
        rest = &inner[close..];
        if let Some(q) = rest.chars().next() {
            out.push(q);
            rest = &rest[q.len_utf8()..];
        }
    }
    out.push_str(rest);
    out
}

/// A ratio such as an NSL (a makespan over an ideal one) as a readable factor: digits grouped from 1 000 on, one
/// decimal from 10, two below; "—" for an undefined one.
pub fn factor_words(v: f64) -> String {
    if !v.is_finite() {
        "—".into()
    } else {
        format!("{}×", number_words(v))
    }
}

/// The one format of a measured number in the page's and the CLI's tables and cards: three significant digits, and
/// from 1 000 on the whole number in groups of three ("907 825", "27.3", "0.316", "0.00123"); "—" for no value.
/// Below 10⁻⁶ in scientific notation.
pub fn number_words(x: f64) -> String {
    let a = x.abs();
    let sign = if x < 0.0 { "−" } else { "" };
    if !x.is_finite() {
        "—".into()
    } else if a == 0.0 {
        "0".into()
    } else if a >= 999.5 {
        format!("{sign}{}", group_digits(&format!("{a:.0}")))
    } else if a < 1e-6 {
        format!("{x:.2e}")
    } else {
        // Three significant digits: 0 decimals from 99.95 on (it rounds to three digits), one more per decade below.
        let (mut d, mut from) = (0, 99.95);
        while a < from {
            d += 1;
            from /= 10.0;
        }
        format!("{sign}{a:.d$}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn factors_read_by_their_size() {
        use super::factor_words;
        assert_eq!(factor_words(142_950.435), "142 950×");
        assert_eq!(factor_words(1_000.0), "1 000×");
        assert_eq!(factor_words(999.96), "1 000×");
        assert_eq!(factor_words(9.996), "10.0×");
        assert_eq!(factor_words(27.349), "27.3×");
        assert_eq!(factor_words(0.316), "0.316×");
        assert_eq!(factor_words(f64::NAN), "—");
    }

    #[test]
    fn numbers_have_three_significant_digits_and_grouped_thousands() {
        use super::number_words as n;
        assert_eq!(n(907_825.203), "907 825");
        assert_eq!(n(35_230.0), "35 230");
        assert_eq!(n(999.4), "999");
        assert_eq!(n(999.6), "1 000");
        assert_eq!(n(123.456), "123");
        assert_eq!(n(27.349), "27.3");
        assert_eq!(n(9.996), "10.0");
        assert_eq!(n(3.14659), "3.15");
        assert_eq!(n(0.31649), "0.316");
        assert_eq!(n(0.099_96), "0.100");
        assert_eq!(n(0.001_234_5), "0.00123");
        assert_eq!(n(-42.42), "−42.4");
        assert_eq!(n(-1_234_567.0), "−1 234 567");
        assert_eq!(n(0.0), "0");
        assert_eq!(n(2.5e-9), "2.50e-9");
        assert_eq!(n(f64::INFINITY), "—");
    }

    use super::*;

    #[test]
    fn lines_never_show_signed_zeros_or_nan() {
        assert_eq!(
            tidy_line("growth -0.00 per day, -0 s, -0.5, x-0, 10-0"),
            "growth 0.00 per day, 0 s, -0.5, x-0, 10-0"
        );
        assert_eq!(tidy_line("RWT NaN% and inf, Information"), "RWT undefined% and undefined, Information");
        assert_eq!(tidy_line("a – b ± c"), "a – b ± c");
    }

    #[test]
    fn messages_never_hold_huge_numbers_or_words() {
        let tiny = format!("{}", 5e-324);
        assert!(tiny.len() > 300);
        let m = tidy_message(&format!("x: {tiny} is out of range; allowed {}", "k".repeat(100_000)));
        assert_eq!(m, format!("x: 5e-324 is out of range; allowed {}… (100000 characters)", "k".repeat(40)));
        assert_eq!(short_number(-0.0), "0");
        assert_eq!(short_number(f64::INFINITY), "∞");
        assert_eq!(short_number(1.5), "1.5");
        assert_eq!(short_number(1e300), "1e300");
    }
}
