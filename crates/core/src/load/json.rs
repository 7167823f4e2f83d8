//! Decoding typed objects from a `serde_json::Value` as Go's `encoding/json` does.
//!
//! serde_json's own `Value` deserializer also accepts an array for a struct (filling its fields
//! in order), which Go refuses: `metadata: [a, b]` must be `cannot unmarshal array into Go
//! struct field metadata of type object`, not a pod named `a`. `Strict` wraps a value, and
//! every value inside it, and refuses that; everything else is serde_json's.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde_json::{Error, Map, Value};

/// A JSON value to decode typed objects from, structs only from objects.
pub(crate) struct Strict(pub Value);

/// Decodes `T` from `v` (see `Strict`); the loader goes through `serde_path_to_error` instead.
#[cfg(test)]
pub(crate) fn from_value<T: de::DeserializeOwned>(v: Value) -> Result<T, Error> {
    T::deserialize(Strict(v))
}

struct Seq {
    items: std::vec::IntoIter<Value>,
}

impl<'de> SeqAccess<'de> for Seq {
    type Error = Error;
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Error> {
        match self.items.next() {
            Some(v) => seed.deserialize(Strict(v)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Obj {
    entries: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Obj {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(IntoDeserializer::<Error>::into_deserializer(k)).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(v) => seed.deserialize(Strict(v)),
            None => Err(de::Error::custom("value is missing")),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// The error for a value of the wrong JSON type, worded as serde_json words it. Answering here,
/// instead of handing the value to serde_json's own deserializer, keeps every visitor from
/// being compiled a second time against serde_json's access types (the worker's size).
fn invalid_type(v: &Value, exp: &dyn de::Expected) -> Error {
    let unexpected = match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    };
    de::Error::invalid_type(unexpected, exp)
}

fn visit_array<'de, V: Visitor<'de>>(a: Vec<Value>, visitor: V) -> Result<V::Value, Error> {
    let len = a.len();
    let mut seq = Seq { items: a.into_iter() };
    let out = visitor.visit_seq(&mut seq)?;
    if seq.items.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in array"))
    }
}

fn visit_object<'de, V: Visitor<'de>>(m: Map<String, Value>, visitor: V) -> Result<V::Value, Error> {
    let len = m.len();
    let mut obj = Obj {
        entries: m.into_iter(),
        value: None,
    };
    let out = visitor.visit_map(&mut obj)?;
    if obj.entries.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in map"))
    }
}

macro_rules! scalar {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.0.$method(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Strict {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(a) => visit_array(a, visitor),
            Value::Object(m) => visit_object(m, visitor),
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => visitor.visit_u64(u),
                (None, Some(i)) => visitor.visit_i64(i),
                _ => visitor.visit_f64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_string(s),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            v => visitor.visit_some(Strict(v)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(a) => visit_array(a, visitor),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(m) => visit_object(m, visitor),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(m) => visit_object(m, visitor),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // Kubernetes' enums are strings: no value inside to look after.
        self.0.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.0.deserialize_unit_struct(name, visitor)
    }

    scalar!(
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_unit deserialize_identifier
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        a: String,
        #[serde(default)]
        b: Option<i32>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        inner: Inner,
        list: Vec<Inner>,
        map: std::collections::BTreeMap<String, u8>,
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn structs_only_from_objects() {
        let ok = json!({"inner": {"a": "x"}, "list": [{"a": "y", "b": 2}], "map": {"k": 1}});
        let got: Outer = from_value(ok).unwrap();
        assert_eq!(got.list[0].b, Some(2));
        // serde_json's own Value deserializer would accept these arrays.
        for bad in [
            json!({"inner": ["x"], "list": [], "map": {}}),
            json!({"inner": {"a": "x"}, "list": [["y"]], "map": {}}),
        ] {
            let e = from_value::<Outer>(bad).unwrap_err().to_string();
            assert_eq!(e, "invalid type: sequence, expected struct Inner");
        }
        let e = from_value::<Outer>(json!({"inner": {"a": "x", "c": 1}, "list": [], "map": {}})).unwrap_err();
        assert_eq!(e.to_string(), "unknown field `c`, expected `a` or `b`");
        let e = from_value::<Outer>(json!({"inner": {"a": 1}, "list": [], "map": {}})).unwrap_err();
        assert_eq!(e.to_string(), "invalid type: integer `1`, expected a string");
    }
}
