//! Go duration strings (`time.ParseDuration`): `0`, `1500ms`, `2m30s`, `1.5h`, `-3s`.

const UNITS: [(&str, i128); 8] = [
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("μs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Parses a Go duration into nanoseconds, with Go's error texts (`time: invalid duration "x"`,
/// `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`).
pub fn parse_go_duration(s: &str) -> Result<i64, String> {
    let invalid = || format!("time: invalid duration {s:?}");
    let mut rest = s;
    let mut neg = false;
    if let Some(r) = rest.strip_prefix('-') {
        neg = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('+') {
        rest = r;
    }
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: i128 = 0;
    while !rest.is_empty() {
        // The number: digits, optionally a fraction.
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (int_part, after) = rest.split_at(int_len);
        let (frac_part, after) = match after.strip_prefix('.') {
            Some(a) => {
                let n = a.bytes().take_while(u8::is_ascii_digit).count();
                a.split_at(n)
            }
            None => ("", after),
        };
        if int_part.is_empty() && frac_part.is_empty() {
            return Err(invalid());
        }
        // The unit: everything up to the next digit or dot.
        let unit_len = after.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(after.len());
        let (unit, after) = after.split_at(unit_len);
        if unit.is_empty() {
            return Err(format!("time: missing unit in duration {s:?}"));
        }
        let Some(&(_, scale)) = UNITS.iter().find(|(u, _)| *u == unit) else {
            return Err(format!("time: unknown unit {unit:?} in duration {s:?}"));
        };
        let int: i128 = if int_part.is_empty() {
            0
        } else {
            int_part.parse().map_err(|_| invalid())?
        };
        let mut v = int.checked_mul(scale).ok_or_else(invalid)?;
        if !frac_part.is_empty() {
            // Go keeps the fraction's leading digits exactly and truncates below a nanosecond.
            let mut f: i128 = 0;
            let mut div: i128 = 1;
            for d in frac_part.bytes().take(30) {
                f = f * 10 + i128::from(d - b'0');
                div *= 10;
            }
            v += f * scale / div;
        }
        total = total.checked_add(v).ok_or_else(invalid)?;
        if total > i128::from(i64::MAX) {
            return Err(invalid());
        }
        rest = after;
    }
    let total = total as i64;
    Ok(if neg { -total } else { total })
}

/// A duration as Go prints it (`1m30s`, `1.5s`, `250ms`, `0s`).
pub fn format_go_duration(ns: i64) -> String {
    if ns == 0 {
        return "0s".into();
    }
    let neg = ns < 0;
    let u = ns.unsigned_abs();
    let mut out = String::new();
    if u < 1_000_000_000 {
        // Below a second Go uses the largest unit that keeps an integer part.
        let (scale, unit) = if u < 1_000 {
            (1, "ns")
        } else if u < 1_000_000 {
            (1_000, "µs")
        } else {
            (1_000_000, "ms")
        };
        out.push_str(&fraction(u, scale));
        out.push_str(unit);
    } else {
        let h = u / 3_600_000_000_000;
        let m = u / 60_000_000_000 % 60;
        let s_ns = u % 60_000_000_000;
        if h > 0 {
            out.push_str(&format!("{h}h"));
        }
        if h > 0 || m > 0 {
            out.push_str(&format!("{m}m"));
        }
        out.push_str(&fraction(s_ns, 1_000_000_000));
        out.push('s');
    }
    if neg {
        format!("-{out}")
    } else {
        out
    }
}

/// `v / scale` with the fraction's trailing zeros dropped.
fn fraction(v: u64, scale: u64) -> String {
    let int = v / scale;
    let frac = v % scale;
    if frac == 0 {
        return int.to_string();
    }
    let width = scale.ilog10() as usize;
    let digits = format!("{frac:0width$}");
    format!("{int}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_go() {
        let ok: &[(&str, i64)] = &[
            ("0", 0),
            ("0s", 0),
            ("30s", 30_000_000_000),
            ("1500ms", 1_500_000_000),
            ("2m30s", 150_000_000_000),
            ("1h", 3_600_000_000_000),
            ("1.5h", 5_400_000_000_000),
            (".5s", 500_000_000),
            ("1.s", 1_000_000_000),
            ("20500ms", 20_500_000_000),
            ("1us", 1_000),
            ("1µs", 1_000),
            ("3ns", 3),
            ("1h2m3s4ms", 3_723_004_000_000),
            ("-3s", -3_000_000_000),
            ("+3s", 3_000_000_000),
            ("0.0000000019s", 1),
        ];
        for (s, want) in ok {
            assert_eq!(parse_go_duration(s), Ok(*want), "{s}");
        }
        let bad: &[(&str, &str)] = &[
            ("", "time: invalid duration \"\""),
            ("s", "time: invalid duration \"s\""),
            ("1", "time: missing unit in duration \"1\""),
            ("1d", "time: unknown unit \"d\" in duration \"1d\""),
            ("1x2s", "time: unknown unit \"x\" in duration \"1x2s\""),
            ("-", "time: invalid duration \"-\""),
            ("1.2.3s", "time: missing unit in duration \"1.2.3s\""),
            ("3000000h", "time: invalid duration \"3000000h\""),
        ];
        for (s, want) in bad {
            assert_eq!(parse_go_duration(s), Err(want.to_string()), "{s}");
        }
    }

    #[test]
    fn formats_like_go() {
        let cases: &[(i64, &str)] = &[
            (0, "0s"),
            (1, "1ns"),
            (1_500, "1.5µs"),
            (250_000_000, "250ms"),
            (1_500_000_000, "1.5s"),
            (30_000_000_000, "30s"),
            (90_000_000_000, "1m30s"),
            (3_600_000_000_000, "1h0m0s"),
            (-2_000_000_000, "-2s"),
        ];
        for (ns, want) in cases {
            assert_eq!(format_go_duration(*ns), *want, "{ns}");
        }
    }
}
