//! The pod heap under activeQ and the backoff queues (upstream `backend/heap`).

use crate::framework::QueuedPodInfo;
use std::collections::HashMap;

pub(super) type Less<'a> = dyn Fn(&QueuedPodInfo, &QueuedPodInfo) -> bool + 'a;

/// A binary heap of pods keyed by pod key, with the exact sift rules of Go's container/heap
/// (which upstream's heap wraps), so that pods comparing equal come out in the same order.
#[derive(Clone, Default)]
pub(super) struct PodHeap {
    pub(super) items: Vec<QueuedPodInfo>,
    /// The slot of each item (parallel to `items`).
    slots: Vec<usize>,
    /// Heap position by slot; `NONE` when the slot is free. Swaps touch only vectors.
    pos: Vec<usize>,
    /// Pod key -> slot (maintained on insert and removal only).
    by_key: HashMap<String, usize>,
    free: Vec<usize>,
}

const NONE: usize = usize::MAX;

impl PodHeap {
    pub(super) fn len(&self) -> usize {
        self.items.len()
    }
    pub(super) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub(super) fn peek(&self) -> Option<&QueuedPodInfo> {
        self.items.first()
    }
    pub(super) fn position(&self, key: &str) -> Option<usize> {
        let &slot = self.by_key.get(key)?;
        self.pos.get(slot).copied().filter(|&i| i != NONE)
    }
    pub(super) fn get(&self, key: &str) -> Option<&QueuedPodInfo> {
        self.position(key).map(|i| &self.items[i])
    }
    pub(super) fn contains(&self, key: &str) -> bool {
        self.position(key).is_some()
    }
    pub(super) fn new_slot(&mut self) -> usize {
        self.free.pop().unwrap_or_else(|| {
            self.pos.push(NONE);
            self.pos.len() - 1
        })
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = &QueuedPodInfo> {
        self.items.iter()
    }
    pub(super) fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
        self.slots.swap(i, j);
        self.pos[self.slots[i]] = i;
        self.pos[self.slots[j]] = j;
    }
    pub(super) fn up(&mut self, mut j: usize, less: &Less) {
        while j > 0 {
            let i = (j - 1) / 2;
            if !less(&self.items[j], &self.items[i]) {
                break;
            }
            self.swap(i, j);
            j = i;
        }
    }
    pub(super) fn down(&mut self, i0: usize, n: usize, less: &Less) -> bool {
        let mut i = i0;
        loop {
            let j1 = 2 * i + 1;
            if j1 >= n {
                break;
            }
            let mut j = j1;
            let j2 = j1 + 1;
            if j2 < n && less(&self.items[j2], &self.items[j1]) {
                j = j2;
            }
            if !less(&self.items[j], &self.items[i]) {
                break;
            }
            self.swap(i, j);
            i = j;
        }
        i > i0
    }
    pub(super) fn fix(&mut self, i: usize, less: &Less) {
        if !self.down(i, self.items.len(), less) {
            self.up(i, less);
        }
    }
    /// Adds the pod, or replaces the pod with the same key and restores the order.
    pub(super) fn add_or_update(&mut self, q: QueuedPodInfo, less: &Less) {
        if let Some(i) = self.position(&q.pod.key) {
            self.items[i] = q;
            self.fix(i, less);
        } else {
            let slot = self.new_slot();
            self.by_key.insert(q.pod.key.clone(), slot);
            self.pos[slot] = self.items.len();
            self.slots.push(slot);
            self.items.push(q);
            self.up(self.items.len() - 1, less);
        }
    }
    pub(super) fn take_last(&mut self) -> Option<QueuedPodInfo> {
        let q = self.items.pop()?;
        let slot = self.slots.pop().expect("parallel to items");
        self.by_key.remove(&q.pod.key);
        self.pos[slot] = NONE;
        self.free.push(slot);
        Some(q)
    }
    pub(super) fn pop(&mut self, less: &Less) -> Option<QueuedPodInfo> {
        if self.items.is_empty() {
            return None;
        }
        let n = self.items.len() - 1;
        self.swap(0, n);
        self.down(0, n, less);
        self.take_last()
    }
    pub(super) fn remove(&mut self, key: &str, less: &Less) -> Option<QueuedPodInfo> {
        let i = self.position(key)?;
        let n = self.items.len() - 1;
        if n != i {
            self.swap(i, n);
            if !self.down(i, n, less) {
                self.up(i, less);
            }
        }
        self.take_last()
    }
}
