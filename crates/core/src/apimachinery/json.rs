//! Decoding typed objects from a `serde_json::Value` as Go's `encoding/json` does.
//!
//! serde_json's own `Value` deserializer also accepts an array for a struct (filling its fields
//! in order), which Go refuses: `metadata: [a, b]` must be `cannot unmarshal array into Go
//! struct field metadata of type object`, not a pod named `a`. `Strict` wraps a value, and
//! every value inside it, and refuses that; everything else is serde_json's.
//!
//! It also tells where an error is: its `Error` carries the field path, each sequence and map
//! access adding its step to the errors that pass up through it, as `serde_path_to_error`
//! would (which wraps every visitor, compiling every `Deserialize` impl a second time: the
//! worker's size). `strict_path_tests.rs` checks the paths against serde_path_to_error's.
//!
//! And, when asked (`Strict::noting_ignored`), it notes the path of every value the decoded
//! type ignores (a field it does not have: serde's derive reads it with `deserialize_ignored_any`),
//! as `serde_ignored` would with a second wrapper around every visitor; config decoding checks
//! ours against serde_ignored's in test builds.

use serde::de::{
    self,
    value::{StrDeserializer, StringDeserializer},
    DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::Value;
use std::cell::RefCell;
use std::fmt;

/// What `Strict` decodes from: a `serde_json::Value`, or anything that reads as one (the
/// loader's position tree reads as the JSON value kubectl's YAML-to-JSON conversion makes of it,
/// without building that value: `load::yaml`).
pub(crate) trait Source: Sized {
    /// A string of the source: owned (a JSON value's, moved to the visitor) or borrowed.
    type Str: AsRef<str>;
    /// The elements of an array.
    type Items: ExactSizeIterator<Item = Self>;
    /// The entries of an object, in order.
    type Entries: ExactSizeIterator<Item = (Self::Str, Self)>;
    /// The value, one level deep.
    fn view(self) -> View<Self>;
    fn is_null(&self) -> bool;
    /// Hands a string to a visitor (`visit_string` for an owned one, `visit_str` otherwise).
    fn visit_str<'de, V: Visitor<'de>>(s: Self::Str, visitor: V) -> Result<V::Value, Error>;
}

/// A value of a `Source`, one level deep, as JSON types it.
pub(crate) enum View<S: Source> {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(S::Str),
    Array(S::Items),
    Object(S::Entries),
}

impl<S: Source> View<S> {
    /// What serde calls the value in an `invalid type` error (serde_json's words).
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            View::Null => Unexpected::Unit,
            View::Bool(b) => Unexpected::Bool(*b),
            View::U64(u) => Unexpected::Unsigned(*u),
            View::I64(i) => Unexpected::Signed(*i),
            View::F64(f) => Unexpected::Float(*f),
            View::Str(s) => Unexpected::Str(s.as_ref()),
            View::Array(_) => Unexpected::Seq,
            View::Object(_) => Unexpected::Map,
        }
    }
}

impl Source for Value {
    type Str = String;
    type Items = std::vec::IntoIter<Value>;
    type Entries = serde_json::map::IntoIter;
    fn view(self) -> View<Value> {
        match self {
            Value::Null => View::Null,
            Value::Bool(b) => View::Bool(b),
            Value::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => View::U64(u),
                (None, Some(i)) => View::I64(i),
                _ => View::F64(n.as_f64().unwrap_or(f64::NAN)),
            },
            Value::String(s) => View::Str(s),
            Value::Array(a) => View::Array(a.into_iter()),
            Value::Object(m) => View::Object(m.into_iter()),
        }
    }
    fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    fn visit_str<'de, V: Visitor<'de>>(s: String, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_string(s)
    }
}

/// A JSON value (or a `Source` read as one) to decode typed objects from, structs only from
/// objects.
pub(crate) struct Strict<'t, S: Source = Value> {
    value: S,
    ignored: Option<&'t Ignored>,
}

impl<S: Source> Strict<'static, S> {
    pub(crate) fn new(value: S) -> Strict<'static, S> {
        Strict { value, ignored: None }
    }
}

impl<'t> Strict<'t> {
    /// Decodes from `value`, noting in `ignored` where the decoded type ignores a value.
    pub(crate) fn noting_ignored(value: Value, ignored: &'t Ignored) -> Strict<'t> {
        Strict {
            value,
            ignored: Some(ignored),
        }
    }
}

/// The paths (outermost step first) of the values a decoding ignored, in document order. The
/// steps are serde_ignored's: an element's index, a map value's key (the key as written, however
/// the type reads it); options, newtypes and enum variants add none.
#[derive(Default)]
pub(crate) struct Ignored {
    /// The path to the value being decoded.
    at: RefCell<Vec<Segment>>,
    found: RefCell<Vec<Vec<Segment>>>,
}

impl Ignored {
    pub(crate) fn into_paths(self) -> Vec<Vec<Segment>> {
        self.found.into_inner()
    }

    /// Decodes within `step` of the path (and leaves it whatever the outcome).
    fn within<T>(this: Option<&Ignored>, step: impl FnOnce() -> Segment, f: impl FnOnce() -> T) -> T {
        let Some(me) = this else { return f() };
        me.at.borrow_mut().push(step());
        let out = f();
        me.at.borrow_mut().pop();
        out
    }
}

/// One step of the path to an error (serde_path_to_error's segments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Segment {
    /// An element of a sequence.
    Seq(usize),
    /// The value of a map's (or struct's) key, or the key itself when it is the error.
    Map(String),
    /// The contents of an enum's variant.
    Enum(String),
    /// A step that has no name (a map key that is not read as a string).
    Unknown,
}

/// serde_json's error for a value, with the path to it. Displays as serde_json's message alone.
pub(crate) struct Error(Box<ErrorImpl>);

struct ErrorImpl {
    /// Innermost step first (steps are added as the error passes up).
    rev_path: Vec<Segment>,
    inner: serde_json::Error,
}

impl Error {
    /// The path from the decoded value to the error, outermost step first.
    pub(crate) fn path(&self) -> impl DoubleEndedIterator<Item = &Segment> + '_ {
        self.0.rev_path.iter().rev()
    }

    /// serde_json's error, without the path.
    pub(crate) fn into_inner(self) -> serde_json::Error {
        self.0.inner
    }

    /// Adds `seg` in front of the path (the error passes up out of it).
    fn within(mut self, seg: Segment) -> Error {
        self.0.rev_path.push(seg);
        self
    }
}

impl From<serde_json::Error> for Error {
    fn from(inner: serde_json::Error) -> Error {
        Error(Box::new(ErrorImpl {
            rev_path: Vec::new(),
            inner,
        }))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Display::fmt(&self.0.inner, f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("Error")
            .field("path", &self.path().collect::<Vec<_>>())
            .field("inner", &self.0.inner)
            .finish()
    }
}

impl std::error::Error for Error {}

/// serde_json's wording for every error (it says `null` where serde says `unit value`).
impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Error {
        <serde_json::Error as de::Error>::custom(msg).into()
    }
    fn invalid_type(unexp: Unexpected, exp: &dyn de::Expected) -> Error {
        <serde_json::Error as de::Error>::invalid_type(unexp, exp).into()
    }
    fn invalid_value(unexp: Unexpected, exp: &dyn de::Expected) -> Error {
        <serde_json::Error as de::Error>::invalid_value(unexp, exp).into()
    }
    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Error {
        <serde_json::Error as de::Error>::invalid_length(len, exp).into()
    }
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Error {
        <serde_json::Error as de::Error>::unknown_variant(variant, expected).into()
    }
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Error {
        <serde_json::Error as de::Error>::unknown_field(field, expected).into()
    }
    fn missing_field(field: &'static str) -> Error {
        <serde_json::Error as de::Error>::missing_field(field).into()
    }
    fn duplicate_field(field: &'static str) -> Error {
        <serde_json::Error as de::Error>::duplicate_field(field).into()
    }
}

/// Decodes `T` from `v` (see `Strict`).
#[cfg(test)]
pub(crate) fn from_value<T: de::DeserializeOwned>(v: Value) -> Result<T, Error> {
    T::deserialize(Strict::new(v))
}

struct Seq<'t, S: Source> {
    items: S::Items,
    /// The index of the next element.
    index: usize,
    ignored: Option<&'t Ignored>,
}

impl<'de, S: Source> SeqAccess<'de> for Seq<'_, S> {
    type Error = Error;
    fn next_element_seed<D: DeserializeSeed<'de>>(&mut self, seed: D) -> Result<Option<D::Value>, Error> {
        let index = self.index;
        self.index += 1;
        match self.items.next() {
            Some(value) => {
                let de = Strict {
                    value,
                    ignored: self.ignored,
                };
                Ignored::within(self.ignored, || Segment::Seq(index), || seed.deserialize(de))
                    .map(Some)
                    .map_err(|e| e.within(Segment::Seq(index)))
            }
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Obj<'t, S: Source> {
    entries: S::Entries,
    value: Option<S>,
    /// The last key read, and whether it was read as an enum (serde_path_to_error names only
    /// keys it sees as strings: the step to an error in its value is then `Unknown`).
    key: Option<(S::Str, bool)>,
    ignored: Option<&'t Ignored>,
}

impl<'de, S: Source> MapAccess<'de> for Obj<'_, S> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        match self.entries.next() {
            Some((k, v)) => {
                self.value = Some(v);
                let mut as_enum = false;
                let got = seed.deserialize(Key {
                    key: k.as_ref(),
                    as_enum: &mut as_enum,
                });
                match got {
                    Ok(key) => {
                        self.key = Some((k, as_enum));
                        Ok(Some(key))
                    }
                    Err(e) => Err(e.within(if as_enum {
                        Segment::Unknown
                    } else {
                        Segment::Map(k.as_ref().to_owned())
                    })),
                }
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let key = self.key.take();
        let Some(value) = self.value.take() else {
            return Err(de::Error::custom("value is missing"));
        };
        let de = Strict {
            value,
            ignored: self.ignored,
        };
        let step = || match &key {
            Some((k, _)) => Segment::Map(k.as_ref().to_owned()),
            None => Segment::Unknown,
        };
        let got = Ignored::within(self.ignored, step, || seed.deserialize(de));
        got.map_err(|e| {
            e.within(match key {
                Some((k, false)) => Segment::Map(k.as_ref().to_owned()),
                _ => Segment::Unknown,
            })
        })
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// A map key: a string, which notes whether it was read as an enum.
struct Key<'a> {
    key: &'a str,
    as_enum: &'a mut bool,
}

impl<'de> Deserializer<'de> for Key<'_> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_str(self.key)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        *self.as_enum = true;
        StrDeserializer::<Error>::new(self.key).deserialize_enum(name, variants, visitor)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// An enum: a string (a unit variant), or an object of one key (the variant) and its value,
/// as serde_json reads them; errors inside the variant's value are at the variant.
struct Enum<'t, S: Source> {
    variant: S::Str,
    value: Option<S>,
    ignored: Option<&'t Ignored>,
}

impl<'de, 't, S: Source> EnumAccess<'de> for Enum<'t, S> {
    type Error = Error;
    type Variant = Variant<'t, S>;
    fn variant_seed<D: DeserializeSeed<'de>>(self, seed: D) -> Result<(D::Value, Variant<'t, S>), Error> {
        let v = seed.deserialize(StringDeserializer::<Error>::new(self.variant.as_ref().to_owned()))?;
        Ok((
            v,
            Variant {
                variant: self.variant,
                value: self.value,
                ignored: self.ignored,
            },
        ))
    }
}

struct Variant<'t, S: Source> {
    variant: S::Str,
    value: Option<S>,
    ignored: Option<&'t Ignored>,
}

impl<S: Source> Variant<'_, S> {
    fn at<T>(variant: S::Str, r: Result<T, Error>) -> Result<T, Error> {
        r.map_err(|e| e.within(Segment::Enum(variant.as_ref().to_owned())))
    }
}

impl<'de, S: Source> VariantAccess<'de> for Variant<'_, S> {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        let r = match self.value {
            Some(v) => <() as de::Deserialize>::deserialize(Strict::new(v)),
            None => Ok(()),
        };
        Variant::<S>::at(self.variant, r)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        let r = match self.value {
            Some(value) => seed.deserialize(Strict {
                value,
                ignored: self.ignored,
            }),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &"newtype variant")),
        };
        Variant::<S>::at(self.variant, r)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        let r = match self.value.map(Source::view) {
            Some(View::Array(a)) if a.len() == 0 => visitor.visit_unit(),
            Some(View::Array(a)) => visit_array::<S, V>(a, self.ignored, visitor),
            Some(other) => Err(invalid_type(&other, &"tuple variant")),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &"tuple variant")),
        };
        Variant::<S>::at(self.variant, r)
    }
    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        let r = match self.value.map(Source::view) {
            Some(View::Object(m)) => visit_object::<S, V>(m, self.ignored, visitor),
            Some(other) => Err(invalid_type(&other, &"struct variant")),
            None => Err(de::Error::invalid_type(Unexpected::UnitVariant, &"struct variant")),
        };
        Variant::<S>::at(self.variant, r)
    }
}

/// The error for a value of the wrong JSON type, worded as serde_json words it. Answering here,
/// instead of handing the value to serde_json's own deserializer, keeps every visitor from
/// being compiled a second time against serde_json's access types (the worker's size).
fn invalid_type<S: Source>(v: &View<S>, exp: &dyn de::Expected) -> Error {
    de::Error::invalid_type(v.unexpected(), exp)
}

fn visit_array<'de, S: Source, V: Visitor<'de>>(items: S::Items, ignored: Option<&Ignored>, visitor: V) -> Result<V::Value, Error> {
    let len = items.len();
    let mut seq = Seq::<S> { items, index: 0, ignored };
    let out = visitor.visit_seq(&mut seq)?;
    if seq.items.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in array"))
    }
}

fn visit_object<'de, S: Source, V: Visitor<'de>>(entries: S::Entries, ignored: Option<&Ignored>, visitor: V) -> Result<V::Value, Error> {
    let len = entries.len();
    let mut obj = Obj::<S> {
        entries,
        value: None,
        key: None,
        ignored,
    };
    let out = visitor.visit_map(&mut obj)?;
    if obj.entries.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in map"))
    }
}

/// A number's visit, as serde_json's `Number` makes it.
macro_rules! number {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.value.view() {
                View::U64(u) => visitor.visit_u64(u),
                View::I64(i) => visitor.visit_i64(i),
                View::F64(f) => visitor.visit_f64(f),
                other => Err(invalid_type(&other, &visitor)),
            }
        }
    )*};
}

/// A string's visit (a JSON string only).
macro_rules! string {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.value.view() {
                View::Str(s) => S::visit_str(s, visitor),
                other => Err(invalid_type(&other, &visitor)),
            }
        }
    )*};
}

/// Every method answers as serde_json's `Value` answers it, but a struct only from an object.
impl<'de, S: Source> Deserializer<'de> for Strict<'_, S> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.view() {
            View::Array(a) => visit_array::<S, V>(a, self.ignored, visitor),
            View::Object(m) => visit_object::<S, V>(m, self.ignored, visitor),
            View::Null => visitor.visit_unit(),
            View::Bool(b) => visitor.visit_bool(b),
            View::U64(u) => visitor.visit_u64(u),
            View::I64(i) => visitor.visit_i64(i),
            View::F64(f) => visitor.visit_f64(f),
            View::Str(s) => S::visit_str(s, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.value.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.view() {
            View::Array(a) => visit_array::<S, V>(a, self.ignored, visitor),
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
        match self.value.view() {
            View::Object(m) => visit_object::<S, V>(m, self.ignored, visitor),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    /// A struct only from an object, as a map.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        // As serde_json's `Value`, whose wording this keeps.
        let _ = (name, variants);
        match self.value.view() {
            View::Str(variant) => visitor.visit_enum(Enum::<S> {
                variant,
                value: None,
                ignored: self.ignored,
            }),
            View::Object(mut entries) => match (entries.next(), entries.next()) {
                (Some((variant, value)), None) => visitor.visit_enum(Enum::<S> {
                    variant,
                    value: Some(value),
                    ignored: self.ignored,
                }),
                _ => Err(de::Error::invalid_value(Unexpected::Map, &"map with a single key")),
            },
            other => Err(invalid_type(&other, &"string or map")),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_byte_buf(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // As serde_json's `Value` (an array's elements are where its errors are).
        match self.value.view() {
            View::Str(s) => S::visit_str(s, visitor),
            View::Array(a) => visit_array::<S, V>(a, self.ignored, visitor),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if let Some(me) = self.ignored {
            let at = me.at.borrow().clone();
            me.found.borrow_mut().push(at);
        }
        visitor.visit_unit()
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.view() {
            View::Bool(b) => visitor.visit_bool(b),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value.view() {
            View::Null => visitor.visit_unit(),
            other => Err(invalid_type(&other, &visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    number!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    );

    string!(deserialize_char deserialize_str deserialize_string deserialize_identifier);
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
