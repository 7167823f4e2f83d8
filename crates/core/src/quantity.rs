//! Kubernetes resource quantities with exact integer arithmetic.
//!
//! A quantity is stored as a signed count of nano-units (10^-9), which is the finest precision
//! Kubernetes keeps: anything finer is rounded up on parse, as the apiserver does. All
//! arithmetic is integer; floats never appear. Values are bounded to ±2^63 whole units so that
//! every `value()` and `milli_value()` fits an `i64` like upstream's `Value()`/`MilliValue()`.

use std::fmt;

const NANO: i128 = 1_000_000_000;
/// The largest magnitude accepted, in nano-units: 2^63 whole units.
const MAX_NANOS: i128 = (1i128 << 63) * NANO;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Quantity {
    nanos: i128,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    #[error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")]
    Syntax,
    #[error("quantity is too large")]
    TooLarge,
}

impl Quantity {
    pub const ZERO: Quantity = Quantity { nanos: 0 };

    pub fn from_nanos(nanos: i128) -> Self {
        Quantity { nanos }
    }
    pub fn from_milli(m: i64) -> Self {
        Quantity {
            nanos: m as i128 * 1_000_000,
        }
    }
    pub fn from_value(v: i64) -> Self {
        Quantity { nanos: v as i128 * NANO }
    }
    pub fn nanos(self) -> i128 {
        self.nanos
    }
    pub fn is_zero(self) -> bool {
        self.nanos == 0
    }
    pub fn is_negative(self) -> bool {
        self.nanos < 0
    }

    /// Whole units, rounded up (upstream `Value()`), saturating at the i64 range.
    pub fn value(self) -> i64 {
        sat(ceil_div(self.nanos, NANO))
    }
    /// Thousandths, rounded up (upstream `MilliValue()`), saturating at the i64 range.
    pub fn milli_value(self) -> i64 {
        sat(ceil_div(self.nanos, 1_000_000))
    }
    pub fn checked_add(self, o: Quantity) -> Option<Quantity> {
        let n = self.nanos.checked_add(o.nanos)?;
        Some(Quantity { nanos: n })
    }
    pub fn saturating_add(self, o: Quantity) -> Quantity {
        Quantity {
            nanos: self.nanos.saturating_add(o.nanos),
        }
    }

    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        parse(s)
    }
}

fn sat(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// Division rounding towards +infinity.
fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if a % b != 0 && ((a > 0) == (b > 0)) {
        q + 1
    } else {
        q
    }
}

fn parse(s: &str) -> Result<Quantity, QuantityError> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 128 {
        return Err(if b.is_empty() {
            QuantityError::Syntax
        } else {
            QuantityError::TooLarge
        });
    }
    let mut i = 0;
    let mut neg = false;
    if b[0] == b'+' || b[0] == b'-' {
        neg = b[0] == b'-';
        i = 1;
    }
    // Mantissa digits; we keep at most 40 significant digits and count the rest as scale.
    let mut mant: i128 = 0;
    let mut scale: i32 = 0; // value = mant * 10^scale
    let mut digits = 0usize;
    let mut seen_digit = false;
    let mut dropped_nonzero = false;
    while i < b.len() && b[i].is_ascii_digit() {
        seen_digit = true;
        push_digit(&mut mant, &mut scale, &mut digits, b[i] - b'0', false, &mut dropped_nonzero);
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            seen_digit = true;
            push_digit(&mut mant, &mut scale, &mut digits, b[i] - b'0', true, &mut dropped_nonzero);
            i += 1;
        }
    }
    if !seen_digit {
        return Err(QuantityError::Syntax);
    }
    let suffix = &s[i..];
    // (binary multiplier, decimal exponent)
    let (bin_pow, dec_exp): (u32, i32) = match suffix {
        "" => (0, 0),
        "Ki" => (10, 0),
        "Mi" => (20, 0),
        "Gi" => (30, 0),
        "Ti" => (40, 0),
        "Pi" => (50, 0),
        "Ei" => (60, 0),
        "n" => (0, -9),
        "u" => (0, -6),
        "m" => (0, -3),
        "k" => (0, 3),
        "M" => (0, 6),
        "G" => (0, 9),
        "T" => (0, 12),
        "P" => (0, 15),
        "E" => (0, 18),
        _ => {
            let rest = suffix
                .strip_prefix('e')
                .or_else(|| suffix.strip_prefix('E'))
                .ok_or(QuantityError::Syntax)?;
            let (eneg, digits) = match rest.as_bytes().first() {
                Some(b'+') => (false, &rest[1..]),
                Some(b'-') => (true, &rest[1..]),
                _ => (false, rest),
            };
            if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(QuantityError::Syntax);
            }
            let e: i32 = if digits.len() > 6 {
                1_000_000
            } else {
                digits.parse().map_err(|_| QuantityError::Syntax)?
            };
            (0, if eneg { -e } else { e })
        }
    };
    // nanos = mant * 10^(scale + dec_exp + 9) * 2^bin_pow, rounded up when fractional.
    let exp10 = scale as i64 + dec_exp as i64 + 9;
    let mut nanos: i128 = mant;
    let mut frac = dropped_nonzero;
    if nanos != 0 {
        if exp10 >= 0 {
            if exp10 > 38 {
                return Err(QuantityError::TooLarge);
            }
            nanos = nanos.checked_mul(10i128.pow(exp10 as u32)).ok_or(QuantityError::TooLarge)?;
        } else {
            let e = (-exp10) as u32;
            if e > 38 {
                frac = true;
                nanos = 0;
            } else {
                let d = 10i128.pow(e);
                if nanos % d != 0 {
                    frac = true;
                }
                nanos /= d;
            }
        }
        nanos = nanos.checked_mul(1i128 << bin_pow).ok_or(QuantityError::TooLarge)?;
    }
    if frac {
        // Precision below a nano-unit is rounded up (away from zero for the magnitude).
        nanos += 1;
    }
    if nanos > MAX_NANOS {
        return Err(QuantityError::TooLarge);
    }
    Ok(Quantity {
        nanos: if neg { -nanos } else { nanos },
    })
}

fn push_digit(mant: &mut i128, scale: &mut i32, digits: &mut usize, d: u8, fractional: bool, dropped: &mut bool) {
    if *mant == 0 && d == 0 {
        if fractional {
            *scale -= 1;
        }
        return;
    }
    if *digits < 36 {
        *mant = *mant * 10 + d as i128;
        *digits += 1;
        if fractional {
            *scale -= 1;
        }
    } else {
        // Too many significant digits: keep the magnitude, remember any lost non-zero digit.
        if d != 0 {
            *dropped = true;
        }
        if !fractional {
            *scale += 1;
        }
    }
}

impl fmt::Display for Quantity {
    /// A canonical-ish rendering: integers as-is, otherwise milli- or nano-units.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.nanos;
        if n % NANO == 0 {
            write!(f, "{}", n / NANO)
        } else if n % 1_000_000 == 0 {
            write!(f, "{}m", n / 1_000_000)
        } else if n % 1000 == 0 {
            write!(f, "{}u", n / 1000)
        } else {
            write!(f, "{}n", n)
        }
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({})", self)
    }
}

impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Quantity;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a quantity such as 500m, 2, 1.5Gi")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Quantity, E> {
                parse(v).map_err(|e| E::custom(format!("quantity {v:?}: {e}")))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Quantity, E> {
                Ok(Quantity::from_value(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Quantity, E> {
                if v > i64::MAX as u64 {
                    return Err(E::custom("quantity is too large"));
                }
                Ok(Quantity::from_value(v as i64))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Quantity, E> {
                if !v.is_finite() {
                    return Err(E::custom("quantity must be a finite number"));
                }
                // The shortest decimal that round-trips is what a YAML author wrote.
                let s = format!("{v}");
                parse(&s).map_err(|e| E::custom(format!("quantity {s:?}: {e}")))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn table() {
        let cases: &[(&str, i64, i64)] = &[
            // (input, milli_value, value)
            ("0", 0, 0),
            ("1", 1000, 1),
            ("500m", 500, 1),
            ("1500m", 1500, 2),
            ("0.5", 500, 1),
            (".5", 500, 1),
            ("5.", 5000, 5),
            ("1Ki", 1_024_000, 1024),
            ("1Mi", 1_048_576_000, 1_048_576),
            ("128Gi", 137_438_953_472_000, 137_438_953_472),
            ("1k", 1_000_000, 1000),
            ("1M", 1_000_000_000, 1_000_000),
            ("1e3", 1_000_000, 1000),
            ("1E3", 1_000_000, 1000),
            ("1e-3", 1, 1),
            ("100n", 1, 1),
            ("1u", 1, 1),
            ("0.1m", 1, 1),
            ("+2", 2000, 2),
            ("1.5Gi", 1_610_612_736_000, 1_610_612_736),
            ("250M", 250_000_000_000, 250_000_000),
        ];
        for (s, m, v) in cases {
            let q = Quantity::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(q.milli_value(), *m, "milli of {s}");
            assert_eq!(q.value(), *v, "value of {s}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn sub_nano_rounds_up() {
        assert_eq!(Quantity::parse("0.0000000001").unwrap().nanos(), 1);
        assert_eq!(Quantity::parse("1.0000000001").unwrap().nanos(), NANO + 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn errors() {
        for s in ["", "abc", "1x", "1 Gi", "--1", "1e", "1e+", "Gi", ".", "1.2.3", "1ki", "1e1.5"] {
            assert_eq!(Quantity::parse(s), Err(QuantityError::Syntax), "{s:?}");
        }
        for s in ["1e40", "9999999999999999999999999999Ei", "1e999999999"] {
            assert_eq!(Quantity::parse(s), Err(QuantityError::TooLarge), "{s:?}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn exact_sums() {
        let a = Quantity::parse("0.5").unwrap();
        let s = a.checked_add(a).unwrap();
        assert_eq!(s.value(), 1);
        assert_eq!(a.value() + a.value(), 2);
    }
}
