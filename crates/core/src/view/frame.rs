//! Frames: everything a screen shows at one stop (the cluster, the queue, the cycle, the
//! events, the claims, the change).

use super::*;

impl Session {
    /// Everything shown at stop `stop`. `want_detail` recovers per-node detail the run did not
    /// record (large runs), at the cost of a re-run.
    pub fn frame(&mut self, stop: u32, want_detail: bool) -> Frame {
        let stop = (stop as usize).min(self.stops.len() - 1);
        let st = self.stops[stop];
        self.seek(st.pos as usize);
        let cycle_view = if st.cycle > 0 && !matches!(st.stage, Stage::Quiet | Stage::Ready | Stage::Change) {
            Some(self.cycle_view(st, want_detail))
        } else {
            None
        };
        let r = &self.replay;
        let model = &self.model;

        // Victims chosen in this cycle and pods deleted in it.
        let mut victims: Vec<(u32, u32)> = Vec::new();
        let mut leaving: Vec<(u32, u32)> = Vec::new();
        if let Some(cv) = &cycle_view {
            if let Some(pf) = &cv.post_filter {
                for c in pf.candidates.iter().filter(|c| c.chosen) {
                    if let Some(&n) = self.node_index.get(&c.node) {
                        for &v in &c.victims {
                            victims.push((v, n));
                        }
                    }
                }
            }
            let start = self.cycles[st.cycle as usize - 1].start;
            for i in start..(st.pos as usize).min(self.trace.events.len()) {
                if let TraceEvent::Deleted { pod, node } = self.trace.events[i] {
                    leaving.push((pod, node));
                }
            }
        }
        victims.retain(|v| !leaving.iter().any(|l| l.0 == v.0));

        let mut nodes = Vec::new();
        let mut heat = Vec::new();
        let mut marks = Vec::new();
        if model.large {
            heat = (0..model.nodes.len())
                .map(|n| {
                    let alloc = &model.nodes[n].allocatable;
                    let mut m = 0i64;
                    for ((col, &a), &u) in model.resources.iter().zip(alloc).zip(&r.used[n]) {
                        let used = if col.name == RESOURCE_PODS {
                            r.node_pods[n].len() as i64
                        } else {
                            u
                        };
                        if a > 0 {
                            m = m.max(used.saturating_mul(100) / a);
                        } else if used > 0 {
                            m = 100;
                        }
                    }
                    m.clamp(0, 100) as u8
                })
                .collect();
            if let Some(cv) = &cycle_view {
                marks = vec![0u8; model.nodes.len()];
                if let Some(f) = &cv.filter {
                    for row in &f.rows {
                        if row.visit.is_some() {
                            marks[row.node as usize] = if row.feasible { 2 } else { 1 };
                        }
                    }
                }
                if let Some(n) = cv.node {
                    marks[n as usize] = 3;
                }
            }
        } else {
            nodes = (0..model.nodes.len())
                .map(|n| {
                    let mut used = r.used[n].clone();
                    for (c, col) in model.resources.iter().enumerate() {
                        if col.name == RESOURCE_PODS {
                            used[c] = r.node_pods[n].len() as i64;
                        }
                    }
                    let st = &r.node_state[n];
                    NodeLive {
                        used,
                        pods: r.node_pods[n].clone(),
                        nominated: Vec::new(),
                        leaving: leaving.iter().filter(|l| l.1 == n as u32).map(|l| l.0).collect(),
                        victims: victims.iter().filter(|v| v.1 == n as u32).map(|v| v.0).collect(),
                        absent: !r.present[n],
                        unschedulable: st.unschedulable,
                        taints: st.taints.clone(),
                        labels: st.labels.clone(),
                    }
                })
                .collect();
            for (i, p) in r.pods.iter().enumerate() {
                if let (Some(nn), None, false) = (p.nominated, p.node, p.deleted) {
                    if let Some(nl) = nodes.get_mut(nn as usize) {
                        nl.nominated.push(i as u32);
                    }
                }
            }
        }

        let queue = self.queue_view();
        let bound = match (st.stage, &cycle_view) {
            (Stage::Bind, Some(cv)) => cv.node.map(|n| (cv.pod, n)),
            _ => None,
        };
        let r = &self.replay;
        let running = r.pods.iter().filter(|p| p.node.is_some()).count() as u32;
        let evicted = r.pods.iter().filter(|p| p.deleted).count() as u32;
        let pending = r
            .pods
            .iter()
            .filter(|p| p.exists && p.node.is_none() && !p.deleted && !p.finished && !p.removed)
            .count() as u32;
        let (events, events_total) = self.events_until(st.pos);
        let changes = if st.stage == Stage::Change {
            let end = (st.pos as usize).min(self.trace.events.len());
            let at = (0..end).rev().find(|&i| matches!(self.trace.events[i], TraceEvent::Change { .. }));
            at.and_then(|at| changes::view(&self.trace.events, &self.trace.header.pods, &self.changes, at, end))
                .into_iter()
                .collect()
        } else {
            Vec::new()
        };
        Frame {
            stop: stop as u32,
            stage: st.stage,
            cycle: st.cycle,
            clock_ms: r.clock_ms,
            nodes,
            heat,
            marks,
            queue,
            cycle_view,
            bound,
            running,
            pending,
            evicted,
            events,
            events_total,
            claims: r.claims.values().cloned().collect(),
            changes,
        }
    }

    fn queue_view(&self) -> QueueView {
        let r = &self.replay;
        let model = &self.model;
        let mut q = QueueView::default();
        let mut active: Vec<u32> = Vec::new();
        let mut backoff: Vec<u32> = Vec::new();
        let mut unsched: Vec<u32> = Vec::new();
        let mut gated: Vec<u32> = Vec::new();
        for (i, p) in r.pods.iter().enumerate() {
            match p.queue {
                QueueName::ActiveQ => active.push(i as u32),
                QueueName::BackoffQ => backoff.push(i as u32),
                QueueName::Unschedulable => unsched.push(i as u32),
                QueueName::Gated => gated.push(i as u32),
                QueueName::InFlight => q.in_flight = Some(i as u32),
                QueueName::None => {
                    let m = &model.pods[i];
                    if !m.has_profile && p.exists && p.node.is_none() && !p.finished && !p.deleted && !p.removed {
                        q.foreign.push(i as u32);
                    }
                }
            }
        }
        // PrioritySort: higher priority first, then earlier entry into the queue.
        crate::sort::sort_by_key(&mut active, |&i| (std::cmp::Reverse(model.pods[i as usize].priority), r.pods[i as usize].since));
        crate::sort::sort_by_key(&mut backoff, |&i| (r.pods[i as usize].backoff_until_ms.unwrap_or(i64::MAX), r.pods[i as usize].since));
        crate::sort::sort_by_key(&mut unsched, |&i| r.pods[i as usize].since);
        crate::sort::sort_by_key(&mut gated, |&i| r.pods[i as usize].since);
        let message = |i: u32| -> Option<String> {
            let ev = r.pods[i as usize].message?;
            match &self.trace.events[ev as usize] {
                TraceEvent::KubeEvent { message, .. } => Some(message.clone()),
                _ => None,
            }
        };
        let item = |i: u32, note: Option<String>| QueueItem {
            pod: i,
            priority: model.pods[i as usize].priority,
            note,
            until_ms: r.pods[i as usize].backoff_until_ms,
            nominated: r.pods[i as usize].nominated,
        };
        q.active_total = active.len() as u32;
        q.active = active.iter().take(LIST_LIMIT).map(|&i| item(i, None)).collect();
        q.backoff_total = backoff.len() as u32;
        q.backoff = backoff.iter().take(LIST_LIMIT).map(|&i| item(i, message(i))).collect();
        q.unschedulable_total = unsched.len() as u32;
        q.unschedulable = unsched.iter().take(LIST_LIMIT).map(|&i| item(i, message(i))).collect();
        q.gated_total = gated.len() as u32;
        q.gated = gated
            .iter()
            .take(LIST_LIMIT)
            .map(|&i| {
                let note = r.pods[i as usize]
                    .gated
                    .and_then(|ev| match &self.trace.events[ev as usize] {
                        TraceEvent::Gated { message, .. } => Some(message.clone()),
                        _ => None,
                    })
                    .or_else(|| {
                        let g = &model.pods[i as usize].gates;
                        (!g.is_empty()).then(|| g.join(", "))
                    });
                item(i, note)
            })
            .collect();
        q
    }
}
