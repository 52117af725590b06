//! The JSON path of a position in a document's text (`workload.load`, `platform.clusters[2].speed`), for the
//! errors serde_json gives before any field is read: a number that no f64 holds, a misplaced value, a missing comma.

/// The path of the value that holds 1-based `line`, `column` in `text`, as far as the text up to there shows it; ""
/// when it is the document itself.
pub fn path_at(text: &str, line: usize, column: usize) -> String {
    enum Frame {
        Object { key: Option<String>, expect_key: bool },
        Array { index: usize },
    }
    let end = offset(text, line, column);
    let mut stack: Vec<Frame> = Vec::new();
    let mut chars = text[..end].char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        match c {
            '{' => stack.push(Frame::Object { key: None, expect_key: true }),
            '[' => stack.push(Frame::Array { index: 0 }),
            '}' | ']' => {
                stack.pop();
            }
            ',' => match stack.last_mut() {
                Some(Frame::Object { key, expect_key }) => (*key, *expect_key) = (None, true),
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            ':' => {
                if let Some(Frame::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = false;
                }
            }
            '"' => {
                let mut s = String::new();
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some((_, e)) = chars.next() {
                                s.push(e);
                            }
                        }
                        c => s.push(c),
                    }
                }
                if let Some(Frame::Object { key, expect_key: true }) = stack.last_mut() {
                    *key = Some(s);
                }
            }
            _ => {}
        }
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object { key: Some(k), .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Object { key: None, .. } => break,
            Frame::Array { index } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// The byte offset of 1-based `line`, `column` (a column counts bytes, as serde_json's does), within the text.
fn offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let mut at = (start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::path_at;

    /// The path serde_json's error position points into, for texts whose errors were read by hand.
    fn at(text: &str) -> String {
        let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        path_at(text, e.line(), e.column())
    }

    #[test]
    fn the_path_of_a_syntax_error() {
        assert_eq!(at(r#"{"workload": {"load": 1e400}}"#), "workload.load");
        assert_eq!(
            at("{\"a\": 1,\n \"platform\": {\"clusters\": [{\"speed\": 1}, {\"speed\": -}]}}"),
            "platform.clusters[1].speed"
        );
        assert_eq!(at(r#"{"workload": {"load": 0.5 "x": 1}}"#), "workload.load");
        assert_eq!(at(r#"{"a\"b": [1, 2,, 3]}"#), "a\"b[2]");
        assert_eq!(at(r#"{"a": 1} x"#), "");
        assert_eq!(at(r#"{"é": {"x": tru}}"#), "é.x");
    }
}
