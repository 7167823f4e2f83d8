//! Small Go-compatible formatting helpers the configuration code needs to produce kube-scheduler's
//! exact texts: Go's `%q` and `encoding/json` string quoting, compact JSON as `json.Marshal`
//! writes it, and `time.Duration` parsing and printing (`metav1.Duration`).

use serde::{Serialize, Serializer};
use std::fmt;

/// Go's `strconv.Quote` (what `%q` prints for a string).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => {
                if (c as u32) < 0x10000 {
                    out.push_str(&format!("\\u{:04x}", c as u32))
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32))
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A string as Go's `encoding/json` writes it (HTML-safe escaping included).
pub fn json_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Compact JSON as Go's `json.Marshal` prints it (object keys in the given order).
pub fn json_compact(v: &serde_json::Value) -> String {
    let mut out = String::new();
    write_json(v, &mut out);
    out
}

fn write_json(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&json_quote(s)),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(x, out);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&json_quote(k));
                out.push(':');
                write_json(x, out);
            }
            out.push('}');
        }
    }
}

/// A copy of `v` with every object's keys sorted (what a YAML -> JSON round trip through Go
/// maps produces).
pub fn sorted_json(v: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Array(a) => Value::Array(a.iter().map(sorted_json).collect()),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            crate::sort::sort(&mut keys);
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted_json(&m[k]))).collect())
        }
        other => other.clone(),
    }
}

/// A Go `time.Duration` (nanoseconds), printed and parsed the way Go does (`metav1.Duration`
/// serializes as this string).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GoDuration(pub i64);

pub const NANOSECOND: i64 = 1;
pub const MICROSECOND: i64 = 1_000;
pub const MILLISECOND: i64 = 1_000_000;
pub const SECOND: i64 = 1_000_000_000;
pub const MINUTE: i64 = 60 * SECOND;
pub const HOUR: i64 = 60 * MINUTE;

impl GoDuration {
    pub fn from_secs(s: i64) -> GoDuration {
        GoDuration(s * SECOND)
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / SECOND as f64
    }

    /// Go's `time.ParseDuration`, with its error texts.
    pub fn parse(orig: &str) -> Result<GoDuration, String> {
        let invalid = || format!("time: invalid duration {}", go_quote(orig));
        let mut s = orig.as_bytes();
        let mut neg = false;
        if let Some(&c) = s.first() {
            if c == b'-' || c == b'+' {
                neg = c == b'-';
                s = &s[1..];
            }
        }
        if s == b"0" {
            return Ok(GoDuration(0));
        }
        if s.is_empty() {
            return Err(invalid());
        }
        let mut d: u64 = 0;
        while !s.is_empty() {
            if !(s[0] == b'.' || s[0].is_ascii_digit()) {
                return Err(invalid());
            }
            // Integer part.
            let start = s.len();
            let mut v: u64 = 0;
            let mut i = 0;
            while i < s.len() && s[i].is_ascii_digit() {
                if v > (1u64 << 63) / 10 {
                    return Err(invalid());
                }
                v = v * 10 + (s[i] - b'0') as u64;
                if v > 1u64 << 63 {
                    return Err(invalid());
                }
                i += 1;
            }
            s = &s[i..];
            let pre = start != s.len();
            // Fraction.
            let mut f: u64 = 0;
            let mut scale: f64 = 1.0;
            let mut post = false;
            if !s.is_empty() && s[0] == b'.' {
                s = &s[1..];
                let start = s.len();
                let mut overflow = false;
                let mut i = 0;
                while i < s.len() && s[i].is_ascii_digit() {
                    if !overflow {
                        if f > (1u64 << 63) / 10 {
                            overflow = true;
                        } else {
                            let y = f * 10 + (s[i] - b'0') as u64;
                            if y > 1u64 << 63 {
                                overflow = true;
                            } else {
                                f = y;
                                scale *= 10.0;
                            }
                        }
                    }
                    i += 1;
                }
                s = &s[i..];
                post = start != s.len();
            }
            if !pre && !post {
                return Err(invalid());
            }
            // Unit.
            let mut i = 0;
            while i < s.len() && !(s[i] == b'.' || s[i].is_ascii_digit()) {
                i += 1;
            }
            if i == 0 {
                return Err(format!("time: missing unit in duration {}", go_quote(orig)));
            }
            let u = std::str::from_utf8(&s[..i]).unwrap_or("");
            s = &s[i..];
            let unit: u64 = match u {
                "ns" => NANOSECOND as u64,
                "us" | "µs" | "μs" => MICROSECOND as u64,
                "ms" => MILLISECOND as u64,
                "s" => SECOND as u64,
                "m" => MINUTE as u64,
                "h" => HOUR as u64,
                _ => return Err(format!("time: unknown unit {} in duration {}", go_quote(u), go_quote(orig))),
            };
            if v > (1u64 << 63) / unit {
                return Err(invalid());
            }
            v *= unit;
            if f > 0 {
                v += (f as f64 * (unit as f64 / scale)) as u64;
                if v > 1u64 << 63 {
                    return Err(invalid());
                }
            }
            d += v;
            if d > 1u64 << 63 {
                return Err(invalid());
            }
        }
        if neg {
            return Ok(GoDuration(-(d as i128) as i64));
        }
        if d > (1u64 << 63) - 1 {
            return Err(invalid());
        }
        Ok(GoDuration(d as i64))
    }
}

/// Prints `v / 10^prec` with the fraction's trailing zeros (and a bare point) dropped, the way
/// Go's `Duration.String` does; returns the integer part.
fn frac(buf: &mut Vec<u8>, mut v: u64, prec: usize) -> u64 {
    let mut digits = Vec::new();
    let mut print = false;
    for _ in 0..prec {
        let d = v % 10;
        print = print || d != 0;
        if print {
            digits.push(b'0' + d as u8);
        }
        v /= 10;
    }
    if print {
        digits.reverse();
        buf.push(b'.');
        buf.extend_from_slice(&digits);
    }
    v
}

impl fmt::Display for GoDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let neg = self.0 < 0;
        let u: u64 = self.0.unsigned_abs();
        let mut out = String::new();
        if neg {
            out.push('-');
        }
        if u < SECOND as u64 {
            let (prec, unit) = if u == 0 {
                return f.write_str("0s");
            } else if u < MICROSECOND as u64 {
                (0, "ns")
            } else if u < MILLISECOND as u64 {
                (3, "µs")
            } else {
                (6, "ms")
            };
            let mut fr = Vec::new();
            let ip = frac(&mut fr, u, prec);
            out.push_str(&ip.to_string());
            out.push_str(std::str::from_utf8(&fr).unwrap_or(""));
            out.push_str(unit);
        } else {
            let mut fr = Vec::new();
            let mut secs = frac(&mut fr, u, 9);
            let s = secs % 60;
            secs /= 60;
            let mins = secs % 60;
            let hours = secs / 60;
            if hours > 0 {
                out.push_str(&format!("{hours}h{mins}m"));
            } else if secs > 0 {
                out.push_str(&format!("{mins}m"));
            }
            out.push_str(&s.to_string());
            out.push_str(std::str::from_utf8(&fr).unwrap_or(""));
            out.push('s');
        }
        f.write_str(&out)
    }
}

impl Serialize for GoDuration {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

/// A `metav1.Duration` field: a JSON string parsed by Go's `time.ParseDuration`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Dur(pub GoDuration);

impl<'de> serde::Deserialize<'de> for Dur {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Dur, D::Error> {
        let v = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
        match v {
            serde_json::Value::String(s) => GoDuration::parse(&s).map(Dur).map_err(serde::de::Error::custom),
            other => Err(serde::de::Error::custom(format!(
                "json: cannot unmarshal {} into Go value of type string",
                json_type(&other)
            ))),
        }
    }
}

/// The JSON type name Go's decoder uses in its messages.
pub(crate) fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "bool",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn duration_format() {
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (1, "1ns"),
            (1_100, "1.1µs"),
            (2_200_000, "2.2ms"),
            (SECOND, "1s"),
            (1_500 * MILLISECOND, "1.5s"),
            (10 * SECOND, "10s"),
            (90 * SECOND, "1m30s"),
            (HOUR, "1h0m0s"),
            (HOUR + 2 * MINUTE + 3 * SECOND + 4 * MILLISECOND, "1h2m3.004s"),
            (-SECOND, "-1s"),
            (-5 * MILLISECOND, "-5ms"),
        ];
        for (d, want) in cases {
            assert_eq!(GoDuration(*d).to_string(), *want, "{d}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn duration_parse() {
        let ok: &[(&str, i64)] = &[
            ("0", 0),
            ("10s", 10 * SECOND),
            ("1.5s", 1_500 * MILLISECOND),
            ("-1s", -SECOND),
            ("+2m", 2 * MINUTE),
            ("1h2m3s", HOUR + 2 * MINUTE + 3 * SECOND),
            ("100ms", 100 * MILLISECOND),
            ("5us", 5 * MICROSECOND),
            ("5µs", 5 * MICROSECOND),
            (".5s", 500 * MILLISECOND),
            ("3ns", 3),
        ];
        for (s, want) in ok {
            assert_eq!(GoDuration::parse(s), Ok(GoDuration(*want)), "{s}");
        }
        let bad: &[(&str, &str)] = &[
            ("", "time: invalid duration \"\""),
            ("abc", "time: invalid duration \"abc\""),
            ("10", "time: missing unit in duration \"10\""),
            ("10x", "time: unknown unit \"x\" in duration \"10x\""),
            (".s", "time: invalid duration \".s\""),
            ("-", "time: invalid duration \"-\""),
        ];
        for (s, want) in bad {
            assert_eq!(GoDuration::parse(s), Err(want.to_string()), "{s}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn quoting() {
        assert_eq!(go_quote("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(json_quote("<a&b>"), "\"\\u003ca\\u0026b\\u003e\"");
        let v: serde_json::Value = serde_json::json!({"b": [1, "x"], "a": null});
        assert_eq!(json_compact(&v), "{\"b\":[1,\"x\"],\"a\":null}");
        assert_eq!(json_compact(&sorted_json(&v)), "{\"a\":null,\"b\":[1,\"x\"]}");
    }
}
