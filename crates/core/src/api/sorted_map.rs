//! `SortedMap`: a map kept as one vector of entries sorted by key, for the API's small maps
//! (a resource list names two to five resources).
//!
//! It reads, iterates, compares, prints and serializes as a `BTreeMap` does (in key order), so
//! it can stand in for one. What differs is memory: a `BTreeMap` allocates a leaf of eleven
//! slots for its first entry (464 bytes for a resource list), where this allocates room for the
//! entries it holds (decoding sizes it from the document). Every object of a loaded scenario is
//! fresh memory, a page fault per 4 KiB page, so this is part of reading's time
//! (docs/performance.md). Inserting is linear in the entries: for small maps only.

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap(Vec::new())
    }
}

/// An entry of `SortedMap::entry`, as `btree_map::Entry`'s common uses need it.
pub enum Entry<'m, K, V> {
    Occupied(&'m mut V),
    Vacant(&'m mut Vec<(K, V)>, usize, K),
}

impl<'m, K, V> Entry<'m, K, V> {
    pub fn or_insert(self, v: V) -> &'m mut V {
        self.or_insert_with(|| v)
    }
    pub fn or_insert_with(self, f: impl FnOnce() -> V) -> &'m mut V {
        match self {
            Entry::Occupied(v) => v,
            Entry::Vacant(entries, at, k) => {
                entries.insert(at, (k, f()));
                &mut entries[at].1
            }
        }
    }
}

type Pair<'a, K, V> = (&'a K, &'a V);

/// The entries by reference, in key order.
pub type Iter<'a, K, V> = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> Pair<'a, K, V>>;

impl<K, V> SortedMap<K, V> {
    pub const fn new() -> Self {
        SortedMap(Vec::new())
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn clear(&mut self) {
        self.0.clear();
    }
    pub fn iter(&self) -> Iter<'_, K, V> {
        self.0.iter().map(|(k, v)| (k, v))
    }
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator + '_ {
        self.0.iter().map(|(k, _)| k)
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    fn find<Q: Ord + ?Sized>(&self, k: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(key, _)| key.borrow().cmp(k))
    }
    pub fn get<Q: Ord + ?Sized>(&self, k: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(k).ok().map(|i| &self.0[i].1)
    }
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, k: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(k).ok().map(|i| &mut self.0[i].1)
    }
    pub fn contains_key<Q: Ord + ?Sized>(&self, k: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(k).is_ok()
    }
    /// Inserts or replaces; returns the value replaced.
    pub fn insert(&mut self, k: K, v: V) -> Option<V> {
        match self.find(&k) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, v)),
            Err(i) => {
                self.0.insert(i, (k, v));
                None
            }
        }
    }
    pub fn remove<Q: Ord + ?Sized>(&mut self, k: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(k).ok().map(|i| self.0.remove(i).1)
    }
    pub fn entry(&mut self, k: K) -> Entry<'_, K, V> {
        match self.find(&k) {
            Ok(i) => Entry::Occupied(&mut self.0[i].1),
            Err(i) => Entry::Vacant(&mut self.0, i, k),
        }
    }
}

/// As `BTreeMap`'s: panics when the key is absent.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;
    fn index(&self, k: &Q) -> &V {
        self.get(k).expect("no entry found for key")
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// As `BTreeMap`'s: for a key given twice, the last value.
impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut m = SortedMap::new();
        m.extend(iter);
        m
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Deserialize<'de> for SortedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V_<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>> Visitor<'de> for V_<K, V> {
            type Value = SortedMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                // Room for what the document holds, at most a few thousand (a hostile size).
                let mut m = SortedMap(Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096)));
                while let Some((k, v)) = a.next_entry()? {
                    m.insert(k, v);
                }
                Ok(m)
            }
        }
        d.deserialize_map(V_(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::SortedMap;
    use std::collections::BTreeMap;

    /// Whatever the order and repeats of the keys given, the map reads as a `BTreeMap` given
    /// the same: iteration, lookups, Debug and JSON both ways.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn behaves_as_a_btree_map() {
        let cases: &[&[(&str, i32)]] = &[
            &[],
            &[("cpu", 1)],
            &[("memory", 2), ("cpu", 1)],
            &[("pods", 3), ("cpu", 1), ("memory", 2), ("cpu", 9)],
            &[("b", 1), ("a", 2), ("c", 3), ("a", 4), ("b", 5)],
        ];
        for case in cases {
            let s: SortedMap<String, i32> = case.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let b: BTreeMap<String, i32> = case.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            assert_eq!(s.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>(), "{case:?}");
            assert_eq!(s.len(), b.len());
            for k in ["a", "b", "c", "cpu", "memory", "pods", "zz"] {
                assert_eq!(s.get(k), b.get(k), "{k}");
                assert_eq!(s.contains_key(k), b.contains_key(k));
            }
            assert_eq!(format!("{s:?}"), format!("{b:?}"));
            let json = serde_json::to_string(&s).unwrap();
            assert_eq!(json, serde_json::to_string(&b).unwrap());
            let back: SortedMap<String, i32> = serde_json::from_str(&json).unwrap();
            assert_eq!(back, s);
        }
        // A key repeated in a document: the last value, as BTreeMap's decoding.
        let s: SortedMap<String, i32> = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        let b: BTreeMap<String, i32> = serde_json::from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), b.iter().collect::<Vec<_>>());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn insert_remove_and_entry() {
        let mut s = SortedMap::new();
        assert_eq!(s.insert("m", 1), None);
        assert_eq!(s.insert("c", 2), None);
        assert_eq!(s.insert("m", 3), Some(1));
        *s.entry("a").or_insert(0) += 5;
        *s.entry("c").or_insert(0) += 5;
        *s.entry("z").or_insert_with(|| 0) += 1;
        assert_eq!(
            s.iter().map(|(k, v)| (*k, *v)).collect::<Vec<_>>(),
            [("a", 5), ("c", 7), ("m", 3), ("z", 1)]
        );
        assert_eq!(s.remove("c"), Some(7));
        assert_eq!(s.remove("c"), None);
        assert_eq!(s.keys().copied().collect::<Vec<_>>(), ["a", "m", "z"]);
    }
}
