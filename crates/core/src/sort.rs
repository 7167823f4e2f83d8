//! The engine's one sort. `slice::sort_by` compiles a whole driftsort (quicksort, merges,
//! small-sorts: several KB of wasm) for every element type and comparator it is called with;
//! these functions instead sort the positions `0..n` as `u32`s through one non-generic
//! comparator, so std's stable sort is compiled once, and then move the elements into that
//! order (a few swaps per cycle of the permutation, the only per-type code).
//!
//! The result is exactly `slice::sort_by`'s: a stable sort of the positions, compared by the
//! elements at them, keeps equal elements in their first order, as a stable sort of the
//! elements does. There is no unstable variant: where an unstable sort was enough, equal
//! elements are indistinguishable, so the stable order is one of its results.
//!
//! `collect()` into a `BTreeMap` or `BTreeSet` sorts too (a driftsort for every pair type and
//! every iterator type collected from); `map_of` and `set_of` build them by insertion instead.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `v` stably in ascending order (`slice::sort`).
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Sorts `v` stably by `key` (`slice::sort_by_key`: the key is computed at each comparison).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` stably by `compare` (`slice::sort_by`).
pub fn sort_by<T>(v: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = {
        let v: &[T] = v;
        sorted_positions(v.len(), &mut |a, b| compare(&v[a], &v[b]))
    };
    permute(v, order);
}

/// A map of `pairs`, inserted in order: as `collect()` gives it (a later pair's value replaces
/// an earlier one's under an equal key), without sorting the pairs first.
pub fn map_of<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut m = BTreeMap::new();
    m.extend(pairs);
    m
}

/// A set of `items`, inserted in order: as `collect()` gives it, without sorting them first.
pub fn set_of<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut s = BTreeSet::new();
    s.extend(items);
    s
}

/// The positions `0..n` in the stable order `compare` gives them (the one instance of std's
/// stable sort).
#[inline(never)]
fn sorted_positions(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<u32> {
    let n = u32::try_from(n).expect("a slice of at most u32::MAX elements");
    let mut order: Vec<u32> = (0..n).collect();
    order.sort_by(|&a, &b| compare(a as usize, b as usize));
    order
}

/// Moves `v[order[i]]` to position `i` for every `i`, following each cycle of the
/// permutation (`order` is used up as the record of the positions already placed).
fn permute<T>(v: &mut [T], mut order: Vec<u32>) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at] as usize;
            order[at] = at as u32;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random inputs with many ties (keys from a small range), of lengths around std's
    /// small-sort thresholds and beyond.
    fn inputs() -> Vec<Vec<(u8, u32)>> {
        let mut state = 21u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut out = Vec::new();
        for n in [0usize, 1, 2, 3, 7, 16, 17, 20, 32, 33, 64, 100, 1000, 5000] {
            for range in [1u32, 3, 50, 256] {
                out.push((0..n as u32).map(|i| ((next() % range) as u8, i)).collect());
            }
        }
        out
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn orders_as_the_standard_stable_sort() {
        for v in inputs() {
            // By the key alone: the second field shows that ties keep their first order.
            let mut want = v.clone();
            want.sort_by_key(|e| e.0);
            let mut got = v.clone();
            sort_by_key(&mut got, |e| e.0);
            assert_eq!(got, want, "sort_by_key, n = {}", v.len());

            let compare = |a: &(u8, u32), b: &(u8, u32)| (a.0 % 7).cmp(&(b.0 % 7)).then(b.0.cmp(&a.0));
            let mut want = v.clone();
            want.sort_by(compare);
            let mut got = v.clone();
            sort_by(&mut got, compare);
            assert_eq!(got, want, "sort_by, n = {}", v.len());

            let mut want = v.clone();
            want.sort();
            let mut got = v;
            sort(&mut got);
            assert_eq!(got, want, "sort, n = {}", want.len());
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn builds_maps_and_sets_as_collect_does() {
        for v in inputs() {
            let pairs = || v.iter().map(|&(k, i)| (k, i));
            assert_eq!(map_of(pairs()), pairs().collect::<BTreeMap<_, _>>(), "n = {}", v.len());
            let keys = || v.iter().map(|&(k, _)| k);
            assert_eq!(set_of(keys()), keys().collect::<BTreeSet<_>>(), "n = {}", v.len());
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn moves_elements_that_are_not_copy() {
        let mut v: Vec<String> = ["delta", "alpha", "charlie", "bravo", "alpha"].map(String::from).to_vec();
        sort(&mut v);
        assert_eq!(v, ["alpha", "alpha", "bravo", "charlie", "delta"]);
        let mut v: Vec<Vec<u8>> = vec![vec![3, 1], vec![], vec![2], vec![1, 1, 1]];
        sort_by_key(&mut v, |x| std::cmp::Reverse(x.len()));
        assert_eq!(v, vec![vec![1, 1, 1], vec![3, 1], vec![2], vec![]]);
    }
}
