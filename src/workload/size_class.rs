//! BoT size classes: the groups per-class figures and BoT tables use.

/// BoT size classes of [Iosup08] §3.4, plus the class of single tasks.
pub const SIZE_CLASSES: [(&str, u32, u32); 10] = [
    ("1", 1, 1),
    ("2-4", 2, 4),
    ("5-9", 5, 9),
    ("10-19", 10, 19),
    ("20-49", 20, 49),
    ("50-99", 50, 99),
    ("100-199", 100, 199),
    ("200-499", 200, 499),
    ("500-999", 500, 999),
    ("1000+", 1000, u32::MAX),
];

/// The name of the size class of a BoT of `size` tasks.
pub fn size_class(size: u32) -> &'static str {
    SIZE_CLASSES[size_class_index(size)].0
}

pub fn size_class_index(size: u32) -> usize {
    SIZE_CLASSES.iter().position(|&(_, lo, hi)| size >= lo && size <= hi).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes() {
        let names: Vec<&str> = [1, 2, 4, 5, 9, 10, 49, 50, 999, 1000, 5000].iter().map(|&s| size_class(s)).collect();
        assert_eq!(names, ["1", "2-4", "2-4", "5-9", "5-9", "10-19", "20-49", "50-99", "500-999", "1000+", "1000+"]);
    }
}
