//! Scenarios in links: base64url (no padding) of the scenario's JSON, so that a shared URL reproduces a run.

use crate::family::contract::ErrorKind;
use crate::scenario::{Scenario, ScenarioError};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Base64url without padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// Why a text is not base64url: a character that is not one of its alphabet (and its place), or an end in the
/// middle of a character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    Character { c: char, at: usize },
    Truncated,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DecodeError::Character { c, at } => write!(f, "character {c:?} at position {at} is not base64url"),
            DecodeError::Truncated => f.write_str("the text ends in the middle of a character"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Inverse of [`encode`]; also accepts '+', '/' and trailing '='.
pub fn decode(text: &str) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in text.trim_end_matches('=').bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return Err(DecodeError::Character { c: c as char, at: i }),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err(DecodeError::Truncated);
    }
    Ok(out)
}

/// The link parameter of a scenario.
pub fn to_link(s: &Scenario) -> String {
    encode(serde_json::to_string(s).expect("a scenario serializes").as_bytes())
}

/// The scenario of a link parameter, checked; the error says what is wrong.
pub fn from_link(text: &str) -> Result<Scenario, ScenarioError> {
    let bad = |message: String| ScenarioError::new(ErrorKind::NotAllowed, "link", message);
    let bytes = decode(text).map_err(|m| bad(format!("the scenario in the link is damaged: {m}")))?;
    let json = String::from_utf8(bytes).map_err(|_| bad("the scenario in the link is damaged: not text".into()))?;
    Scenario::from_json(&json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors() {
        for (plain, coded) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert!(decode("ab!c").unwrap_err().to_string().contains("position 2"));
    }

    #[test]
    fn scenarios_round_trip_and_damage_is_named() {
        let mut s = Scenario::default();
        let m = s.multi_cluster_mut().unwrap();
        m.workload.load = Some(0.83);
        m.scheduling = "WQR-2".parse().unwrap();
        assert_eq!(from_link(&to_link(&s)).unwrap(), s);
        assert!(from_link("not-base64!!").unwrap_err().message.contains("damaged"));
        let bad = encode(br#"{"workload":{"load":1.5}}"#);
        assert_eq!(from_link(&bad).unwrap_err().field, "workload.load");
    }
}
