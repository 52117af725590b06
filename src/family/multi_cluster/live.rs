//! What a multi-cluster run sends the page as it goes: the time-series samples and the BoTs finished since the
//! previous message.

use super::simulation::Sample;
use serde::{Deserialize, Serialize};

/// A BoT that finished: its size, makespan (s), NSL and wait (s).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotDone {
    pub size: u32,
    pub makespan: f64,
    pub nsl: f64,
    pub wait: f64,
}

/// The samples and finished BoTs since the previous progress message.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct McDetail {
    pub samples: Vec<Sample>,
    /// BoTs finished since the previous message.
    #[serde(with = "packed_bots")]
    pub bots: Vec<BotDone>,
}

/// BoT results cross the worker boundary as one byte buffer (a `Uint8Array` in the browser), 28 bytes a BoT
/// (size u32, makespan, NSL and wait f64, little-endian): a month of results is a few hundred thousand BoTs, and
/// one JavaScript object per BoT cost the worker more time than the simulation between two progress messages.
mod packed_bots {
    use super::BotDone;
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    const RECORD: usize = 28;

    pub fn serialize<S: Serializer>(bots: &[BotDone], s: S) -> Result<S::Ok, S::Error> {
        let mut buf = Vec::with_capacity(bots.len() * RECORD);
        for b in bots {
            buf.extend_from_slice(&b.size.to_le_bytes());
            for x in [b.makespan, b.nsl, b.wait] {
                buf.extend_from_slice(&x.to_le_bytes());
            }
        }
        s.serialize_bytes(&buf)
    }

    fn unpack<E: Error>(bytes: &[u8]) -> Result<Vec<BotDone>, E> {
        if bytes.len() % RECORD != 0 {
            return Err(E::custom(format!("BoT results of {} bytes, not a multiple of {RECORD}", bytes.len())));
        }
        let f = |r: &[u8], at: usize| f64::from_le_bytes(r[at..at + 8].try_into().expect("8 bytes"));
        Ok(bytes
            .chunks_exact(RECORD)
            .map(|r| BotDone {
                size: u32::from_le_bytes(r[0..4].try_into().expect("4 bytes")),
                makespan: f(r, 4),
                nsl: f(r, 12),
                wait: f(r, 20),
            })
            .collect())
    }

    struct Packed;

    impl<'de> Visitor<'de> for Packed {
        type Value = Vec<BotDone>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "packed BoT results ({RECORD} bytes a BoT)")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
            unpack(v)
        }

        fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
            unpack(&v)
        }

        // Formats without a byte type (JSON) give a sequence of numbers.
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(b) = seq.next_element::<u8>()? {
                v.push(b);
            }
            unpack(&v)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BotDone>, D::Error> {
        d.deserialize_bytes(Packed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress(bots: Vec<BotDone>) -> McDetail {
        McDetail { samples: Vec::new(), bots }
    }

    #[test]
    fn packed_bot_results_round_trip_exactly() {
        let bots = vec![
            BotDone { size: 1, makespan: 12.5, nsl: 0.1 + 0.2, wait: 0.0 },
            BotDone { size: u32::MAX, makespan: f64::MAX, nsl: f64::MIN_POSITIVE, wait: -0.0 },
            BotDone { size: 4000, makespan: 1e-300, nsl: 3.0e7, wait: 86_400.123456789 },
        ];
        let p = progress(bots.clone());
        let json = serde_json::to_string(&p).unwrap();
        let back: McDetail = serde_json::from_str(&json).unwrap();
        assert_eq!(back.bots.len(), 3);
        for (a, b) in back.bots.iter().zip(&bots) {
            assert_eq!(
                (a.size, a.makespan.to_bits(), a.nsl.to_bits(), a.wait.to_bits()),
                (b.size, b.makespan.to_bits(), b.nsl.to_bits(), b.wait.to_bits())
            );
        }
        let empty: McDetail = serde_json::from_str(&serde_json::to_string(&progress(Vec::new())).unwrap()).unwrap();
        assert!(empty.bots.is_empty());
    }

    #[test]
    fn a_truncated_buffer_is_an_error_not_a_panic() {
        let json = serde_json::to_string(&progress(vec![BotDone { size: 2, makespan: 1.0, nsl: 1.0, wait: 1.0 }]))
            .unwrap()
            .replacen("[2,0,0,0,", "[2,0,0,", 1);
        let err = serde_json::from_str::<McDetail>(&json).unwrap_err().to_string();
        assert!(err.contains("not a multiple of 28"), "{err}");
    }
}
