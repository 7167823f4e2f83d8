//! The structured allocator: finds devices on one node for a set of claims, the way
//! Kubernetes' allocator does with DRAPrioritizedList and DRAAdminAccess on (and partitionable
//! devices, device taints, binding conditions and consumable capacity off).
//!
//! Pools are gathered from the slices the node can use (its own, those whose node selector
//! matches it, and the `allNodes` ones), in slice order; a pool keeps only the slices of its
//! newest generation. Claims are then served in order, request by request, device by device:
//! each device slot takes the first free device (in pool and slice order) that the class and
//! request selectors accept and that keeps the claim's constraints satisfied; when a later slot
//! cannot be filled, the search backtracks to the previous slot's next candidate. For
//! `firstAvailable` requests the subrequests are tried in order. `All` takes every matching
//! device of the node's pools and fails when one of them is busy.

use super::cel::{CelEnv, DeviceValue};
use super::DeviceId;
use crate::api::resource::{
    AllocationResult, Device, DeviceAllocationResult, DeviceClass, DeviceRequestAllocationResult, DeviceSelector, ResourceClaim,
    ResourceSlice,
};
use crate::api::{NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};
use crate::labels::CompiledNodeSelector;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// The most devices one claim may be allocated.
pub const ALLOCATION_RESULTS_MAX_SIZE: usize = 32;

/// The node an allocation is for.
pub struct NodeRef<'a> {
    pub name: &'a str,
    pub labels: &'a crate::api::Labels,
}

/// A pool of devices usable from the node: the slices of its newest generation.
pub struct Pool {
    pub driver: String,
    pub name: String,
    pub slices: Vec<Arc<ResourceSlice>>,
    pub incomplete: bool,
    pub invalid: Option<String>,
}

/// Whether a slice's devices can be used from the node.
pub fn slice_matches_node(slice: &ResourceSlice, node: &NodeRef) -> bool {
    let s = &slice.spec;
    if let Some(n) = s.node_name.as_deref().filter(|n| !n.is_empty()) {
        return n == node.name;
    }
    if s.all_nodes == Some(true) {
        return true;
    }
    match &s.node_selector {
        Some(ns) => CompiledNodeSelector::compile(ns).matches(node.name, node.labels),
        None => false,
    }
}

/// The pools the node can use, in order of their first slice.
pub fn gather_pools(slices: &[Arc<ResourceSlice>], node: &NodeRef) -> Vec<Pool> {
    let mut pools: Vec<Pool> = Vec::new();
    for slice in slices.iter().filter(|s| slice_matches_node(s, node)) {
        let spec = &slice.spec;
        match pools.iter_mut().find(|p| p.driver == spec.driver && p.name == spec.pool.name) {
            None => pools.push(Pool {
                driver: spec.driver.clone(),
                name: spec.pool.name.clone(),
                slices: vec![slice.clone()],
                incomplete: false,
                invalid: None,
            }),
            Some(p) => {
                let current = p.slices[0].spec.pool.generation;
                if spec.pool.generation < current {
                    continue;
                }
                if spec.pool.generation > current {
                    p.slices.clear();
                }
                p.slices.push(slice.clone());
            }
        }
    }
    for p in &mut pools {
        p.incomplete = p.slices.len() as i64 != p.slices[0].spec.pool.resource_slice_count;
        let mut seen = HashSet::new();
        for d in p.slices.iter().flat_map(|s| s.spec.devices.iter()) {
            if !seen.insert(d.name.as_str()) {
                p.invalid = Some(format!("duplicate device name {}", d.name));
                break;
            }
        }
    }
    pools
}

/// One request (or subrequest) as the allocator reads it.
#[derive(Clone)]
struct Req {
    name: String,
    class_name: String,
    all: bool,
    count: i64,
    admin_access: bool,
    selectors: Vec<DeviceSelector>,
}

struct RequestData {
    req: Req,
    /// The request holding this subrequest.
    parent: Option<String>,
    class: Arc<DeviceClass>,
    num_devices: usize,
    all_devices: Vec<(DeviceId, Arc<ResourceSlice>, usize)>,
}

/// (claim, request, subrequest) indices.
type ReqKey = (usize, usize, usize);

struct MatchAttribute {
    requests: Vec<String>,
    attribute: String,
    value: Option<crate::api::resource::DeviceAttribute>,
    num_devices: usize,
}

impl MatchAttribute {
    fn applies(&self, base: &str, sub: &str) -> bool {
        if self.requests.is_empty() {
            return true;
        }
        if sub.is_empty() {
            self.requests.iter().any(|r| r == base)
        } else {
            let full = format!("{base}/{sub}");
            self.requests.iter().any(|r| *r == base || *r == full)
        }
    }
    fn add(&mut self, base: &str, sub: &str, device: &Device, id: &DeviceId) -> bool {
        if !self.applies(base, sub) {
            return true;
        }
        let Some(attr) = lookup_attribute(device, id, &self.attribute) else {
            return false;
        };
        if self.num_devices == 0 {
            self.value = Some(attr.clone());
            self.num_devices = 1;
            return true;
        }
        let first = self.value.as_ref().expect("set with the first device");
        let same = if attr.string.is_some() {
            first.string.is_some() && attr.string == first.string
        } else if attr.int.is_some() {
            first.int.is_some() && attr.int == first.int
        } else if attr.bool.is_some() {
            first.bool.is_some() && attr.bool == first.bool
        } else if attr.version.is_some() {
            first.version.is_some() && attr.version == first.version
        } else {
            false
        };
        if !same {
            return false;
        }
        self.num_devices += 1;
        true
    }
    fn remove(&mut self, base: &str, sub: &str) {
        if !self.applies(base, sub) {
            return;
        }
        self.num_devices -= 1;
    }
}

/// An attribute by fully qualified name; a name of the driver's own domain also matches the
/// unqualified attribute.
fn lookup_attribute<'d>(device: &'d Device, id: &DeviceId, name: &str) -> Option<&'d crate::api::resource::DeviceAttribute> {
    if let Some(a) = device.attributes.get(name) {
        return Some(a);
    }
    let (domain, rest) = name.split_once('/')?;
    if domain != id.driver {
        return None;
    }
    device.attributes.get(rest)
}

struct DeviceResult {
    request: String,
    parent: String,
    id: DeviceId,
    slice: Arc<ResourceSlice>,
    admin_access: bool,
}

/// Allocation for one node.
pub struct Allocation<'a> {
    pub cel: &'a mut CelEnv,
    pub classes: &'a BTreeMap<String, Arc<DeviceClass>>,
    pub slices: &'a [Arc<ResourceSlice>],
    /// Devices allocated to claims (admin access aside): busy.
    pub allocated: &'a HashSet<DeviceId>,
    /// Device values converted for CEL, shared between the nodes of one cycle.
    pub device_values: &'a mut HashMap<DeviceId, Result<DeviceValue, String>>,
}

struct Run<'a, 'b> {
    a: &'b mut Allocation<'a>,
    claims: &'b [&'b ResourceClaim],
    pools: Vec<Pool>,
    request_data: HashMap<ReqKey, RequestData>,
    selected_sub: HashMap<(usize, usize), usize>,
    match_cache: HashMap<(DeviceId, ReqKey), bool>,
    constraints: Vec<Vec<MatchAttribute>>,
    allocating: HashMap<DeviceId, HashSet<usize>>,
    result: Vec<Vec<DeviceResult>>,
}

/// Allocation failed for a reason other than "no devices fit".
enum Stop {
    MaxSizeExceeded,
    Err(String),
}

fn claim_ref(c: &ResourceClaim) -> String {
    format!("{}/{}", c.metadata.namespace.as_deref().unwrap_or(""), c.metadata.name)
}

impl<'a> Allocation<'a> {
    /// Allocates devices on `node` for `claims`: one result per claim, None when they do not
    /// all fit, Err when a claim or class cannot be evaluated (Kubernetes' messages).
    pub fn allocate(&mut self, node: &NodeRef, claims: &[&ResourceClaim]) -> Result<Option<Vec<AllocationResult>>, String> {
        let pools = gather_pools(self.slices, node);
        let mut run = Run {
            a: self,
            claims,
            pools,
            request_data: HashMap::new(),
            selected_sub: HashMap::new(),
            match_cache: HashMap::new(),
            constraints: Vec::new(),
            allocating: HashMap::new(),
            result: claims.iter().map(|_| Vec::new()).collect(),
        };
        for (ci, claim) in claims.iter().enumerate() {
            let mut min_devices = 0usize;
            for (ri, request) in claim.spec.devices.requests.iter().enumerate() {
                if !request.first_available.is_empty() {
                    let mut min_per_request = usize::MAX;
                    for (si, sub) in request.first_available.iter().enumerate() {
                        let req = Req {
                            name: sub.name.clone(),
                            class_name: sub.device_class_name.clone(),
                            all: sub.allocation_mode.as_deref() == Some("All"),
                            count: sub.count.unwrap_or(1),
                            admin_access: false,
                            selectors: sub.selectors.clone(),
                        };
                        let data = run.validate(ci, (ci, ri, si), req, Some(request.name.clone()), None)?;
                        min_per_request = min_per_request.min(data.num_devices);
                        run.request_data.insert((ci, ri, si), data);
                    }
                    min_devices += min_per_request;
                } else if let Some(ex) = &request.exactly {
                    let req = Req {
                        name: request.name.clone(),
                        class_name: ex.device_class_name.clone(),
                        all: ex.allocation_mode.as_deref() == Some("All"),
                        count: ex.count.unwrap_or(1),
                        admin_access: ex.admin_access == Some(true),
                        selectors: ex.selectors.clone(),
                    };
                    let data = run.validate(ci, (ci, ri, 0), req, None, ex.allocation_mode.as_deref())?;
                    min_devices += data.num_devices;
                    run.request_data.insert((ci, ri, 0), data);
                } else {
                    return Err(format!(
                        "claim {}, request {}: missing device class name (unsupported request type?)",
                        claim_ref(claim),
                        request.name
                    ));
                }
            }
            if min_devices > ALLOCATION_RESULTS_MAX_SIZE {
                return Err(format!(
                    "claim {}: number of requested devices {min_devices} exceeds the claim limit of {ALLOCATION_RESULTS_MAX_SIZE}",
                    claim_ref(claim)
                ));
            }
            let mut cs = Vec::new();
            for (i, c) in claim.spec.devices.constraints.iter().enumerate() {
                match &c.match_attribute {
                    Some(attr) => cs.push(MatchAttribute {
                        requests: c.requests.clone(),
                        attribute: attr.clone(),
                        value: None,
                        num_devices: 0,
                    }),
                    None => {
                        return Err(format!(
                            "claim {}, constraint #{i}: empty constraint (unsupported constraint type?)",
                            claim_ref(claim)
                        ))
                    }
                }
            }
            run.constraints.push(cs);
        }
        match run.allocate_one((0, 0, 0, 0), false) {
            Ok(true) => {}
            Ok(false) | Err(Stop::MaxSizeExceeded) => return Ok(None),
            Err(Stop::Err(e)) => return Err(e),
        }
        let mut out = Vec::with_capacity(claims.len());
        for devices in &run.result {
            let results = devices
                .iter()
                .map(|d| DeviceRequestAllocationResult {
                    request: if d.parent.is_empty() {
                        d.request.clone()
                    } else {
                        format!("{}/{}", d.parent, d.request)
                    },
                    driver: d.id.driver.clone(),
                    pool: d.id.pool.clone(),
                    device: d.id.device.clone(),
                    admin_access: d.admin_access.then_some(true),
                })
                .collect();
            out.push(AllocationResult {
                devices: DeviceAllocationResult { results, config: None },
                node_selector: node_selector(devices)?,
                allocation_timestamp: None,
            });
        }
        Ok(Some(out))
    }
}

/// The node selector of an allocation: the node of the first node-local device, else the
/// requirements of the devices' slice node selectors merged into one term, else none.
fn node_selector(devices: &[DeviceResult]) -> Result<Option<NodeSelector>, String> {
    let mut term = NodeSelectorTerm::default();
    for d in devices {
        let s = &d.slice.spec;
        if let Some(n) = s.node_name.as_deref().filter(|n| !n.is_empty()) {
            return Ok(Some(NodeSelector {
                node_selector_terms: vec![NodeSelectorTerm {
                    match_expressions: Vec::new(),
                    match_fields: vec![NodeSelectorRequirement {
                        key: "metadata.name".into(),
                        operator: "In".into(),
                        values: vec![n.to_string()],
                    }],
                }],
            }));
        }
        if let Some(ns) = &s.node_selector {
            match ns.node_selector_terms.len() {
                0 => {}
                1 => {
                    let t = &ns.node_selector_terms[0];
                    merge_requirements(&t.match_fields, &mut term.match_fields);
                    merge_requirements(&t.match_expressions, &mut term.match_expressions);
                }
                n => return Err(format!("unsupported ResourceSlice.NodeSelector with {n} terms")),
            }
        }
    }
    if term.match_fields.is_empty() && term.match_expressions.is_empty() {
        return Ok(None);
    }
    Ok(Some(NodeSelector {
        node_selector_terms: vec![term],
    }))
}

fn merge_requirements(from: &[NodeSelectorRequirement], to: &mut Vec<NodeSelectorRequirement>) {
    for r in from {
        let values: HashSet<&String> = r.values.iter().collect();
        let present = to
            .iter()
            .any(|e| e.key == r.key && e.operator == r.operator && e.values.iter().collect::<HashSet<_>>() == values);
        if !present {
            to.push(r.clone());
        }
    }
}

impl Run<'_, '_> {
    fn validate(&mut self, ci: usize, key: ReqKey, req: Req, parent: Option<String>, mode: Option<&str>) -> Result<RequestData, String> {
        let claim = self.claims[ci];
        let name = req.name.clone();
        for (i, s) in req.selectors.iter().enumerate() {
            if s.cel.is_none() {
                return Err(format!(
                    "claim {}, request {name}, selector #{i}: CEL expression empty (unsupported selector type?)",
                    claim_ref(claim)
                ));
            }
        }
        if req.class_name.is_empty() {
            return Err(format!(
                "claim {}, request {name}: missing device class name (unsupported request type?)",
                claim_ref(claim)
            ));
        }
        let Some(class) = self.a.classes.get(&req.class_name).cloned() else {
            return Err(format!(
                "claim {}, request {name}: could not retrieve device class {}: deviceclass.resource.k8s.io \"{}\" not found",
                claim_ref(claim),
                req.class_name,
                req.class_name
            ));
        };
        if let Some(m) = mode.filter(|m| *m != "ExactCount" && *m != "All") {
            return Err(format!("claim {}, request {name}: unsupported count mode {m}", claim_ref(claim)));
        }
        let mut data = RequestData {
            req,
            parent,
            class,
            num_devices: 0,
            all_devices: Vec::new(),
        };
        if data.req.all {
            let mut all = Vec::new();
            for pi in 0..self.pools.len() {
                let pool = &self.pools[pi];
                if pool.incomplete {
                    return Err(format!(
                        "claim {}, request {name}: asks for all devices, but resource pool {}/{} is currently being updated",
                        claim_ref(claim),
                        pool.driver,
                        pool.name
                    ));
                }
                if pool.invalid.is_some() {
                    return Err(format!(
                        "claim {}, request {name}: asks for all devices, but resource pool {}/{} is currently invalid",
                        claim_ref(claim),
                        pool.driver,
                        pool.name
                    ));
                }
                let slices = pool.slices.clone();
                for slice in slices {
                    for di in 0..slice.spec.devices.len() {
                        if self.selectable(key, &data, &slice, di)? {
                            all.push((
                                DeviceId::new(&slice.spec.driver, &slice.spec.pool.name, &slice.spec.devices[di].name),
                                slice.clone(),
                                di,
                            ));
                        }
                    }
                }
            }
            data.num_devices = all.len();
            data.all_devices = all;
        } else {
            data.num_devices = usize::try_from(data.req.count).unwrap_or(usize::MAX);
        }
        Ok(data)
    }

    fn selectable(&mut self, key: ReqKey, data: &RequestData, slice: &Arc<ResourceSlice>, di: usize) -> Result<bool, String> {
        let device = &slice.spec.devices[di];
        let id = DeviceId::new(&slice.spec.driver, &slice.spec.pool.name, &device.name);
        if let Some(&m) = self.match_cache.get(&(id.clone(), key)) {
            return Ok(m);
        }
        let claim = self.claims[key.0];
        let class = data.class.clone();
        let ok = self.selectors_match(&id, device, Some(&class), &class.spec.selectors, claim)?
            && self.selectors_match(&id, device, None, &data.req.selectors, claim)?;
        self.match_cache.insert((id, key), ok);
        Ok(ok)
    }

    fn selectors_match(
        &mut self,
        id: &DeviceId,
        device: &Device,
        class: Option<&DeviceClass>,
        selectors: &[DeviceSelector],
        claim: &ResourceClaim,
    ) -> Result<bool, String> {
        let whose = || match class {
            Some(c) => format!("class {}", c.metadata.name),
            None => format!("claim {}", claim_ref(claim)),
        };
        for (i, s) in selectors.iter().enumerate() {
            let Some(cel) = &s.cel else { continue };
            let sel = self.a.cel.compile(&cel.expression);
            if let Some(e) = sel.error() {
                return Err(format!("{}: selector #{i}: CEL compile error: {e}", whose()));
            }
            if !self.a.device_values.contains_key(id) {
                let v = self.a.cel.device_value(&id.driver, device);
                self.a.device_values.insert(id.clone(), v);
            }
            let result = match &self.a.device_values[id] {
                Ok(dv) => self.a.cel.matches(&sel, dv),
                Err(e) => Err(e.clone()),
            };
            match result {
                Err(e) => return Err(format!("{}: selector #{i}: CEL runtime error: {e}", whose())),
                Ok(false) => return Ok(false),
                Ok(true) => {}
            }
        }
        Ok(true)
    }

    fn in_use(&self, id: &DeviceId) -> bool {
        self.a.allocated.contains(id) || self.allocating.get(id).is_some_and(|s| !s.is_empty())
    }

    fn allocating_for_claim(&self, id: &DeviceId, ci: usize) -> bool {
        self.allocating.get(id).is_some_and(|s| s.contains(&ci))
    }

    /// Fills the device slot (claim, request, subrequest, device) and everything after it.
    fn allocate_one(&mut self, r: (usize, usize, usize, usize), allocate_sub: bool) -> Result<bool, Stop> {
        let (ci, ri, si, di) = r;
        if ci >= self.claims.len() {
            return Ok(true);
        }
        let claim = self.claims[ci];
        if ri >= claim.spec.devices.requests.len() {
            return match self.allocate_one((ci + 1, 0, 0, 0), false) {
                Err(Stop::MaxSizeExceeded) => Ok(false),
                other => other,
            };
        }
        let key = (ci, ri, si);
        if !allocate_sub && self.request_data[&key].parent.is_some() {
            // Subrequests in order of preference; the first that lets everything fit wins.
            let mut all_exceeded = true;
            let mut sub = 0;
            loop {
                if !self.request_data.contains_key(&(ci, ri, sub)) {
                    return if all_exceeded { Err(Stop::MaxSizeExceeded) } else { Ok(false) };
                }
                match self.allocate_one((ci, ri, sub, di), true) {
                    Err(Stop::MaxSizeExceeded) => {}
                    Err(e) => return Err(e),
                    Ok(ok) => {
                        all_exceeded = false;
                        if ok {
                            self.selected_sub.insert((ci, ri), sub);
                            return Ok(true);
                        }
                    }
                }
                sub += 1;
            }
        }
        let data = &self.request_data[&key];
        let all = data.req.all;
        if all && data.all_devices.is_empty() {
            return Ok(false);
        }
        if di >= data.num_devices {
            return self.allocate_one((ci, ri + 1, 0, 0), false);
        }
        if self.result[ci].len() + data.num_devices - di > ALLOCATION_RESULTS_MAX_SIZE {
            return Err(Stop::MaxSizeExceeded);
        }
        if all {
            let (id, slice, idx) = data.all_devices[di].clone();
            let Some(undo) = self.allocate_device(r, &id, &slice, idx, true)? else {
                return Ok(false);
            };
            let done = self.allocate_one((ci, ri, si, di + 1), allocate_sub);
            if !matches!(done, Ok(true)) {
                self.deallocate(r, undo);
            }
            return done;
        }
        let admin = data.req.admin_access;
        for pi in 0..self.pools.len() {
            if let Some(why) = &self.pools[pi].invalid {
                return Err(Stop::Err(format!("pool {} is invalid: {why}", self.pools[pi].name)));
            }
            let slices = self.pools[pi].slices.clone();
            for slice in &slices {
                for idx in 0..slice.spec.devices.len() {
                    let id = DeviceId::new(&self.pools[pi].driver, &self.pools[pi].name, &slice.spec.devices[idx].name);
                    if admin && self.allocating_for_claim(&id, ci) {
                        continue;
                    }
                    if !admin && self.in_use(&id) {
                        continue;
                    }
                    // The request's data is taken out while the selectors run (they need
                    // the allocator mutably) and put back.
                    let selectable = {
                        let d = self.request_data.remove(&key).expect("present");
                        let s = self.selectable(key, &d, slice, idx);
                        self.request_data.insert(key, d);
                        s.map_err(Stop::Err)?
                    };
                    if !selectable {
                        continue;
                    }
                    let Some(undo) = self.allocate_device(r, &id, slice, idx, false)? else {
                        continue;
                    };
                    match self.allocate_one((ci, ri, si, di + 1), allocate_sub) {
                        Ok(true) => return Ok(true),
                        Ok(false) => self.deallocate(r, undo),
                        Err(e) => {
                            self.deallocate(r, undo);
                            return Err(e);
                        }
                    }
                }
            }
        }
        Ok(false)
    }

    /// Takes a device for the slot; None when it is busy or breaks a constraint. Returns what
    /// `deallocate` needs to give it back.
    fn allocate_device(
        &mut self,
        r: (usize, usize, usize, usize),
        id: &DeviceId,
        slice: &Arc<ResourceSlice>,
        idx: usize,
        must: bool,
    ) -> Result<Option<(String, String, DeviceId)>, Stop> {
        let (ci, ri, si, _) = r;
        let data = &self.request_data[&(ci, ri, si)];
        let admin = data.req.admin_access;
        if admin && self.allocating_for_claim(id, ci) {
            return Ok(None);
        }
        if !admin && self.in_use(id) {
            return Ok(None);
        }
        let (base, sub) = match &data.parent {
            None => (data.req.name.clone(), String::new()),
            Some(p) => (p.clone(), data.req.name.clone()),
        };
        let req_name = data.req.name.clone();
        let device = &slice.spec.devices[idx];
        let n = self.constraints[ci].len();
        for i in 0..n {
            if !self.constraints[ci][i].add(&base, &sub, device, id) {
                if must {
                    return Err(Stop::Err(format!(
                        "claim {}, request {req_name}: cannot add device {} because a claim constraint would not be satisfied",
                        claim_ref(self.claims[ci]),
                        id
                    )));
                }
                for e in 0..i {
                    self.constraints[ci][e].remove(&base, &sub);
                }
                return Ok(None);
            }
        }
        self.allocating.entry(id.clone()).or_default().insert(ci);
        self.result[ci].push(DeviceResult {
            request: req_name,
            parent: if sub.is_empty() { String::new() } else { base.clone() },
            id: id.clone(),
            slice: slice.clone(),
            admin_access: admin,
        });
        Ok(Some((base, sub, id.clone())))
    }

    fn deallocate(&mut self, r: (usize, usize, usize, usize), (base, sub, id): (String, String, DeviceId)) {
        let ci = r.0;
        for c in &mut self.constraints[ci] {
            c.remove(&base, &sub);
        }
        if let Some(s) = self.allocating.get_mut(&id) {
            s.remove(&ci);
        }
        self.result[ci].pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Labels;

    fn slice(yaml: &str) -> Arc<ResourceSlice> {
        Arc::new(crate::load::yaml::from_str(yaml).expect("slice"))
    }
    fn class(name: &str, expr: &str) -> (String, Arc<DeviceClass>) {
        let y = format!("metadata: {{name: {name}}}\nspec: {{selectors: [{{cel: {{expression: '{expr}'}}}}]}}");
        (name.to_string(), Arc::new(crate::load::yaml::from_str(&y).expect("class")))
    }
    fn claim(yaml: &str) -> ResourceClaim {
        let mut c: ResourceClaim = crate::load::yaml::from_str(yaml).expect("claim");
        c.metadata.namespace = Some("default".into());
        c
    }

    /// Two nodes' worth of GPUs: n-1 has gpu-0 (island 0, 16Gi), gpu-1 (island 1, 32Gi),
    /// gpu-2 (island 1, 32Gi); a cluster-wide pool of licences; a pool for zone-a nodes.
    fn slices() -> Vec<Arc<ResourceSlice>> {
        let gpu = |name: &str, island: i64, mem: &str| {
            format!("{{name: {name}, attributes: {{island: {{int: {island}}}}}, capacity: {{memory: {{value: {mem}}}}}}}")
        };
        vec![
            slice(&format!(
                "metadata: {{name: n-1}}\nspec: {{driver: gpu.example.com, nodeName: n-1, pool: {{name: n-1, resourceSliceCount: 1}}, devices: [{}, {}, {}]}}",
                gpu("gpu-0", 0, "16Gi"),
                gpu("gpu-1", 1, "32Gi"),
                gpu("gpu-2", 1, "32Gi")
            )),
            slice("metadata: {name: lic}\nspec: {driver: lic.example.com, allNodes: true, pool: {name: site, resourceSliceCount: 1}, devices: [{name: seat-0}]}"),
            slice("metadata: {name: za}\nspec: {driver: fpga.example.com, nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}, pool: {name: za, resourceSliceCount: 2}, devices: [{name: f-0}]}"),
        ]
    }

    fn run(claims: &[&str], busy: &[&str], node: &str, zone: &str) -> Result<Option<Vec<Vec<String>>>, String> {
        let classes: BTreeMap<String, Arc<DeviceClass>> = [
            class("gpu", "device.driver == \"gpu.example.com\""),
            class("lic", "device.driver == \"lic.example.com\""),
            class("fpga", "device.driver == \"fpga.example.com\""),
            class("broken", "device.attributes[\"gpu.example.com\"].missing"),
        ]
        .into_iter()
        .collect();
        let slices = slices();
        let allocated: HashSet<DeviceId> = busy
            .iter()
            .map(|d| {
                let (driver, rest) = d.split_once('/').unwrap();
                let (pool, dev) = rest.split_once('/').unwrap();
                DeviceId::new(driver, pool, dev)
            })
            .collect();
        let claims: Vec<ResourceClaim> = claims.iter().map(|c| claim(c)).collect();
        let refs: Vec<&ResourceClaim> = claims.iter().collect();
        let mut cel = CelEnv::new();
        let mut values = HashMap::new();
        let mut a = Allocation {
            cel: &mut cel,
            classes: &classes,
            slices: &slices,
            allocated: &allocated,
            device_values: &mut values,
        };
        let mut labels = Labels::new();
        if !zone.is_empty() {
            labels.insert("zone".into(), zone.into());
        }
        let r = a.allocate(
            &NodeRef {
                name: node,
                labels: &labels,
            },
            &refs,
        )?;
        Ok(r.map(|rs| {
            rs.iter()
                .map(|r| r.devices.results.iter().map(|d| format!("{}:{}", d.request, d.device)).collect())
                .collect()
        }))
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn allocation_table() {
        let one = "metadata: {name: c}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, count: 1}}]}}";
        let two = "metadata: {name: c2}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, count: 2}}]}}";
        let pair = "metadata: {name: p}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, count: 2}}], constraints: [{matchAttribute: gpu.example.com/island}]}}";
        let big = "metadata: {name: b}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, count: 1, selectors: [{cel: {expression: 'device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"32Gi\")) >= 0'}}]}}]}}";
        let all = "metadata: {name: a}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, allocationMode: All}}]}}";
        let prio = "metadata: {name: f}\nspec: {devices: {requests: [{name: g, firstAvailable: [{name: three, deviceClassName: gpu, count: 3}, {name: one, deviceClassName: gpu, count: 1}]}]}}";
        let admin =
            "metadata: {name: m}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: gpu, count: 1, adminAccess: true}}]}}";
        let lic = "metadata: {name: l}\nspec: {devices: {requests: [{name: s, exactly: {deviceClassName: lic, count: 1}}]}}";
        let fpga = "metadata: {name: x}\nspec: {devices: {requests: [{name: f, exactly: {deviceClassName: fpga, count: 1}}]}}";
        let fpga_all =
            "metadata: {name: y}\nspec: {devices: {requests: [{name: f, exactly: {deviceClassName: fpga, allocationMode: All}}]}}";
        let broken = "metadata: {name: z}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: broken, count: 1}}]}}";
        let nope = "metadata: {name: n}\nspec: {devices: {requests: [{name: g, exactly: {deviceClassName: nope, count: 1}}]}}";
        let ok = |v: &[&[&str]]| Ok(Some(v.iter().map(|c| c.iter().map(|s| s.to_string()).collect()).collect()));
        type Want = Result<Option<Vec<Vec<String>>>, String>;
        /// (case, claims, busy devices, node, its zone label, result)
        type Case<'a> = (&'a str, Vec<&'a str>, Vec<&'a str>, &'a str, &'a str, Want);
        let cases: Vec<Case> = vec![
            ("first fit in slice order", vec![one], vec![], "n-1", "", ok(&[&["g:gpu-0"]])),
            (
                "busy devices are skipped",
                vec![one],
                vec!["gpu.example.com/n-1/gpu-0"],
                "n-1",
                "",
                ok(&[&["g:gpu-1"]]),
            ),
            (
                "claims in one pod do not share",
                vec![one, two],
                vec![],
                "n-1",
                "",
                ok(&[&["g:gpu-0"], &["g:gpu-1", "g:gpu-2"]]),
            ),
            (
                "too few left",
                vec![two],
                vec!["gpu.example.com/n-1/gpu-1", "gpu.example.com/n-1/gpu-2"],
                "n-1",
                "",
                Ok(None),
            ),
            ("no device on another node", vec![one], vec![], "n-2", "", Ok(None)),
            (
                "constraint backtracks to a matching pair",
                vec![pair],
                vec![],
                "n-1",
                "",
                ok(&[&["g:gpu-1", "g:gpu-2"]]),
            ),
            (
                "constraint cannot be met",
                vec![pair],
                vec!["gpu.example.com/n-1/gpu-2"],
                "n-1",
                "",
                Ok(None),
            ),
            ("capacity selector", vec![big], vec![], "n-1", "", ok(&[&["g:gpu-1"]])),
            (
                "All takes every match",
                vec![all],
                vec![],
                "n-1",
                "",
                ok(&[&["g:gpu-0", "g:gpu-1", "g:gpu-2"]]),
            ),
            (
                "All fails when one is busy",
                vec![all],
                vec!["gpu.example.com/n-1/gpu-1"],
                "n-1",
                "",
                Ok(None),
            ),
            ("All needs at least one", vec![all], vec![], "n-2", "", Ok(None)),
            (
                "firstAvailable falls back",
                vec![prio],
                vec!["gpu.example.com/n-1/gpu-0"],
                "n-1",
                "",
                ok(&[&["g/one:gpu-1"]]),
            ),
            (
                "firstAvailable prefers the first",
                vec![prio],
                vec![],
                "n-1",
                "",
                ok(&[&["g/three:gpu-0", "g/three:gpu-1", "g/three:gpu-2"]]),
            ),
            (
                "admin access ignores busy devices",
                vec![admin],
                vec!["gpu.example.com/n-1/gpu-0"],
                "n-1",
                "",
                ok(&[&["g:gpu-0"]]),
            ),
            ("allNodes pool from any node", vec![lic], vec![], "n-2", "", ok(&[&["s:seat-0"]])),
            ("node selector pool", vec![fpga], vec![], "n-2", "a", ok(&[&["f:f-0"]])),
            ("node selector pool elsewhere", vec![fpga], vec![], "n-2", "b", Ok(None)),
            (
                "All on an incomplete pool",
                vec![fpga_all],
                vec![],
                "n-2",
                "a",
                Err(
                    "claim default/y, request f: asks for all devices, but resource pool fpga.example.com/za is currently being updated"
                        .into(),
                ),
            ),
            (
                "a runtime error is an error",
                vec![broken],
                vec![],
                "n-1",
                "",
                Err("class broken: selector #0: CEL runtime error: no such key: missing".into()),
            ),
            (
                "a missing class",
                vec![nope],
                vec![],
                "n-1",
                "",
                Err(
                    "claim default/n, request g: could not retrieve device class nope: deviceclass.resource.k8s.io \"nope\" not found"
                        .into(),
                ),
            ),
        ];
        for (name, claims, busy, node, zone, want) in cases {
            assert_eq!(run(&claims, &busy, node, zone), want, "{name}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_selector_of_allocations() {
        let s = slices();
        let d = |slice: &Arc<ResourceSlice>| DeviceResult {
            request: "r".into(),
            parent: String::new(),
            id: DeviceId::new("d", "p", "x"),
            slice: slice.clone(),
            admin_access: false,
        };
        // allNodes: no selector; a node-local device pins to its node.
        assert_eq!(node_selector(&[d(&s[1])]).unwrap(), None);
        let pinned = node_selector(&[d(&s[1]), d(&s[0])]).unwrap().unwrap();
        assert_eq!(pinned.node_selector_terms[0].match_fields[0].values, vec!["n-1".to_string()]);
        let zoned = node_selector(&[d(&s[2]), d(&s[2])]).unwrap().unwrap();
        assert_eq!(zoned.node_selector_terms[0].match_expressions.len(), 1);
    }
}
