//! Go's `sort.Slice` (pattern-defeating quicksort, insertion sort up to 12 elements), step for
//! step, so that a `less` which is not a strict weak order leaves the elements where Go leaves
//! them. DefaultPreemption needs it: upstream orders victims with a comparison that reads the
//! clock for pods without a start time, and then says "more important" of both orders of two
//! such pods. Rust's own sorts may order such input differently, or panic.

/// Sorts `v` as Go's `sort.Slice(v, less)` does; `less` is called in Go's order.
pub fn sort_slice<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    let n = v.len();
    // The depth limit: the bit length of n.
    let limit = (usize::BITS - n.leading_zeros()) as usize;
    let mut s = Sorter { v, less: &mut less };
    s.pdqsort(0, n, limit);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Sorter<'a, T, F: FnMut(&T, &T) -> bool> {
    v: &'a mut [T],
    less: &'a mut F,
}

impl<T, F: FnMut(&T, &T) -> bool> Sorter<'_, T, F> {
    fn lt(&mut self, i: usize, j: usize) -> bool {
        (self.less)(&self.v[i], &self.v[j])
    }

    fn insertion(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.lt(j, j - 1) {
                self.v.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                return;
            }
            if child + 1 < hi && self.lt(first + child, first + child + 1) {
                child += 1;
            }
            if !self.lt(first + root, first + child) {
                return;
            }
            self.v.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let hi = b - a;
        for i in (0..=(hi - 1) / 2).rev() {
            self.sift_down(i, hi, a);
        }
        for i in (0..hi).rev() {
            self.v.swap(a, a + i);
            self.sift_down(0, i, a);
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        const MAX_INSERTION: usize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.v[a..b].reverse();
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced && was_partitioned && hint == Hint::Increasing && self.partial_insertion(a, b) {
                return;
            }
            // Many elements equal to the one before the range: put those first and skip them.
            if a > 0 && !self.lt(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already) = self.partition(a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.v.swap(a, pivot);
        // i and j are signed: j may pass below a + 1.
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        while i <= j && self.lt(i as usize, a) {
            i += 1;
        }
        while i <= j && !self.lt(j as usize, a) {
            j -= 1;
        }
        if i > j {
            self.v.swap(j as usize, a);
            return (j as usize, true);
        }
        self.v.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.lt(i as usize, a) {
                i += 1;
            }
            while i <= j && !self.lt(j as usize, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.v.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        self.v.swap(j as usize, a);
        (j as usize, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.v.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        loop {
            while i <= j && !self.lt(a, i as usize) {
                i += 1;
            }
            while i <= j && self.lt(a, j as usize) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.v.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        i as usize
    }

    fn partial_insertion(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.lt(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.v.swap(i, i - 1);
            // The smaller one moves left (down to index 1, as Go's loop bound is absolute)…
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.lt(j, j - 1) {
                        break;
                    }
                    self.v.swap(j, j - 1);
                    j -= 1;
                }
            }
            // …and the greater one right.
            if b - i >= 2 {
                for j in i + 1..b {
                    if !self.lt(j, j - 1) {
                        break;
                    }
                    self.v.swap(j, j - 1);
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1usize << (usize::BITS - length.leading_zeros());
            let start = a + (length / 4) * 2 - 1;
            for idx in start..=start + 2 {
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                let mut other = (random as usize) & (modulus - 1);
                if other >= length {
                    other -= length;
                }
                self.v.swap(idx, a + other);
            }
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, Hint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    /// The two indices ordered by their elements (counting a swap when they were not).
    fn order2(&mut self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.lt(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&mut self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, _) = self.order2(b, c, swaps);
        let (_, b) = self.order2(a, b, swaps);
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn sorts_like_a_sort_for_a_strict_weak_order() {
        // Lengths around the insertion-sort limit, the ninther limit, and beyond; a fixed
        // pseudo-random fill with many duplicates.
        for n in [0usize, 1, 2, 5, 12, 13, 40, 49, 50, 51, 200, 1000] {
            let mut x: u64 = 0x9e37_79b9_7f4a_7c15 ^ n as u64;
            let mut v: Vec<u32> = (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 37) as u32
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            sort_slice(&mut v, |a, b| a < b);
            assert_eq!(v, want, "n = {n}");
            // Already sorted, and reversed (the decreasing hint).
            sort_slice(&mut v, |a, b| a < b);
            assert_eq!(v, want, "sorted, n = {n}");
            v.reverse();
            sort_slice(&mut v, |a, b| a < b);
            assert_eq!(v, want, "reversed, n = {n}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_less_that_always_holds_leaves_go_s_order() {
        // With `less` true for every pair, Go's insertion sort moves each element to the front:
        // the slice comes out reversed (up to 12 elements).
        let mut v: Vec<u32> = (0..12).collect();
        sort_slice(&mut v, |_, _| true);
        assert_eq!(v, (0..12).rev().collect::<Vec<_>>());
        // Beyond 12 elements pdqsort runs; it must terminate and keep every element.
        let mut v: Vec<u32> = (0..100).collect();
        sort_slice(&mut v, |_, _| true);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    }
}
