//! What a multi-cluster run sends the page as it goes: the time-series samples and the BoTs finished since the
//! previous message.

use super::sim::Sample;
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
    /// Samples taken since the previous message.
    #[serde(with = "packed::samples")]
    pub samples: Vec<Sample>,
    /// BoTs finished since the previous message.
    #[serde(with = "packed::bots")]
    pub bots: Vec<BotDone>,
}

/// Samples and BoT results cross the worker boundary as byte buffers (a `Uint8Array` in the browser), numbers
/// little-endian: a month of results is a few hundred thousand BoTs and a few thousand samples, and one JavaScript
/// object per BoT or sample cost the worker more time than the simulation between two progress messages, and the
/// page as long again to read.
mod packed {
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::Deserializer;

    /// Reads a byte buffer, or (formats without a byte type, JSON) a sequence of numbers.
    struct Bytes;

    impl<'de> Visitor<'de> for Bytes {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a byte buffer")
        }

        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Self::Value, E> {
            Ok(v.to_vec())
        }

        fn visit_byte_buf<E: Error>(self, v: Vec<u8>) -> Result<Self::Value, E> {
            Ok(v)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(b) = seq.next_element::<u8>()? {
                v.push(b);
            }
            Ok(v)
        }
    }

    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_bytes(Bytes)
    }

    /// Reads little-endian numbers from a buffer, saying which record ran short.
    struct Reader<'a> {
        bytes: &'a [u8],
        at: usize,
    }

    impl Reader<'_> {
        fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
            let b = self.bytes.get(self.at..self.at + N)?.try_into().ok()?;
            self.at += N;
            Some(b)
        }
        fn u32(&mut self) -> Option<u32> {
            self.take().map(u32::from_le_bytes)
        }
        fn u64(&mut self) -> Option<u64> {
            self.take().map(u64::from_le_bytes)
        }
        fn f64(&mut self) -> Option<f64> {
            self.take().map(f64::from_le_bytes)
        }
    }

    /// 28 bytes a BoT: size u32; makespan, NSL and wait f64.
    pub mod bots {
        use super::super::BotDone;
        use serde::de::Error;
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

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BotDone>, D::Error> {
            let bytes = super::read(d)?;
            if bytes.len() % RECORD != 0 {
                return Err(D::Error::custom(format!(
                    "BoT results of {} bytes, not a multiple of {RECORD}",
                    bytes.len()
                )));
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
    }

    /// A sample: time f64, queued u64, running u64, utilization f64, arrived and finished tasks u64; then the
    /// number of clusters u32 and, per cluster, its queued u32; the same for running.
    pub mod samples {
        use super::super::Sample;
        use serde::de::Error;
        use serde::{Deserializer, Serializer};

        pub fn serialize<S: Serializer>(samples: &[Sample], s: S) -> Result<S::Ok, S::Error> {
            let per = |x: &Sample| 48 + 8 + 4 * (x.cluster_queued.len() + x.cluster_running.len());
            let mut buf = Vec::with_capacity(samples.iter().map(per).sum());
            for x in samples {
                buf.extend_from_slice(&x.time.to_le_bytes());
                buf.extend_from_slice(&x.queued.to_le_bytes());
                buf.extend_from_slice(&x.running.to_le_bytes());
                buf.extend_from_slice(&x.utilization.to_le_bytes());
                buf.extend_from_slice(&x.arrived_tasks.to_le_bytes());
                buf.extend_from_slice(&x.finished_tasks.to_le_bytes());
                for per_cluster in [&x.cluster_queued, &x.cluster_running] {
                    let n = u32::try_from(per_cluster.len()).map_err(serde::ser::Error::custom)?;
                    buf.extend_from_slice(&n.to_le_bytes());
                    for v in per_cluster {
                        buf.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            s.serialize_bytes(&buf)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Sample>, D::Error> {
            let bytes = super::read(d)?;
            let mut r = super::Reader { bytes: &bytes, at: 0 };
            let mut samples = Vec::new();
            while r.at < bytes.len() {
                let short = || D::Error::custom(format!("sample {} ends early ({} bytes)", samples.len(), bytes.len()));
                let mut x = Sample {
                    time: r.f64().ok_or_else(short)?,
                    queued: r.u64().ok_or_else(short)?,
                    running: r.u64().ok_or_else(short)?,
                    utilization: r.f64().ok_or_else(short)?,
                    arrived_tasks: r.u64().ok_or_else(short)?,
                    finished_tasks: r.u64().ok_or_else(short)?,
                    ..Sample::default()
                };
                for per_cluster in [&mut x.cluster_queued, &mut x.cluster_running] {
                    let n = r.u32().ok_or_else(short)? as usize;
                    // No more numbers than the buffer holds (a corrupt count must not allocate gigabytes).
                    if n > (bytes.len() - r.at) / 4 {
                        return Err(short());
                    }
                    per_cluster.reserve_exact(n);
                    for _ in 0..n {
                        per_cluster.push(r.u32().ok_or_else(short)?);
                    }
                }
                samples.push(x);
            }
            Ok(samples)
        }
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

    fn sample(time: f64, utilization: f64, queued: Vec<u32>, running: Vec<u32>) -> Sample {
        Sample {
            time,
            queued: u64::MAX,
            running: 7,
            utilization,
            arrived_tasks: 1 << 40,
            finished_tasks: 0,
            cluster_queued: queued,
            cluster_running: running,
        }
    }

    #[test]
    fn packed_samples_round_trip_exactly() {
        let samples = vec![
            sample(0.0, 0.1 + 0.2, vec![1, 2, 3], vec![u32::MAX, 0, 5]),
            sample(86_400.5, f64::NAN, Vec::new(), Vec::new()),
            // Per-cluster lists of different lengths read back as they were.
            sample(1e-300, -0.0, vec![9], vec![4, 4]),
        ];
        let p = McDetail { samples: samples.clone(), bots: Vec::new() };
        let back: McDetail = serde_json::from_str(&serde_json::to_string(&p).unwrap()).unwrap();
        assert_eq!(back.samples.len(), 3);
        for (a, b) in back.samples.iter().zip(&samples) {
            assert_eq!((a.time.to_bits(), a.utilization.to_bits()), (b.time.to_bits(), b.utilization.to_bits()));
            assert_eq!(
                (a.queued, a.running, a.arrived_tasks, a.finished_tasks),
                (b.queued, b.running, b.arrived_tasks, b.finished_tasks)
            );
            assert_eq!((&a.cluster_queued, &a.cluster_running), (&b.cluster_queued, &b.cluster_running));
        }
    }

    #[test]
    fn a_short_or_miscounted_sample_is_an_error_not_a_panic() {
        let one = McDetail { samples: vec![sample(1.0, 0.5, vec![1, 2], vec![3, 4])], bots: Vec::new() };
        let json = serde_json::to_string(&one).unwrap();
        let bytes: Vec<u8> =
            serde_json::from_value(serde_json::from_str::<serde_json::Value>(&json).unwrap()["samples"].clone())
                .unwrap();
        let with = |b: &[u8]| format!(r#"{{"samples":{},"bots":[]}}"#, serde_json::to_string(b).unwrap());
        // One byte short.
        let err = serde_json::from_str::<McDetail>(&with(&bytes[..bytes.len() - 1])).unwrap_err().to_string();
        assert!(err.contains("sample 0 ends early"), "{err}");
        // A cluster count far beyond the buffer.
        let mut bad = bytes.clone();
        bad[48..52].copy_from_slice(&u32::MAX.to_le_bytes());
        let err = serde_json::from_str::<McDetail>(&with(&bad)).unwrap_err().to_string();
        assert!(err.contains("sample 0 ends early"), "{err}");
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
