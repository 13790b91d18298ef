//! Helpers shared by the text-format tests (`tests/xp.rs` and the real-file
//! suite's `tests/corpus/xp.rs`).

/// Replaces every line number in a serialized model by 0 (keeping whether an
/// optional line-only field is present).
pub fn strip_lines(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    const LINE_KEYS: [&str; 6] = [
        "line",
        "end_cuts",
        "flip_180",
        "hide_tiles",
        "share_y",
        "source_line",
    ];
    match v {
        Value::Object(m) => Value::Object(
            m.into_iter()
                .map(|(k, v)| {
                    if LINE_KEYS.contains(&k.as_str()) && v.is_number() {
                        (k, Value::from(0))
                    } else {
                        (k, strip_lines(v))
                    }
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(strip_lines).collect()),
        other => other,
    }
}
