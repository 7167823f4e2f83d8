//! The apiserver's validation of the objects a scenario may hold, with Kubernetes' field paths
//! and message texts (apimachinery's `field.Error` wording), so an invalid scenario reads like
//! `kubectl apply` output.

mod objects;
mod pod;
mod workloads;

pub(crate) use objects::*;
pub(crate) use pod::{validate_pod, validate_pod_spec};
pub(crate) use workloads::*;

use super::yaml::{Seg, Val, YNode};
use crate::api::{LabelSelector, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, ObjectMeta};
pub(crate) use crate::apimachinery::field_path::PSeg;
pub(crate) use crate::apimachinery::names::*;
pub use crate::apimachinery::FieldPath;
use crate::quantity::Quantity;
use std::collections::BTreeMap;

// ---------------------------------------------------------------------------------------------
// Field paths and errors

/// The path as steps into the YAML tree.
pub(crate) fn segs(path: &FieldPath) -> Vec<Seg<'_>> {
    path.segments()
        .map(|s| match s {
            PSeg::Field(f) | PSeg::Key(f) => Seg::Key(f),
            PSeg::Index(i) => Seg::Index(i),
        })
        .collect()
}

/// A validation error: the field path shown, where it points in the file (when that differs,
/// e.g. the offending key of a label map), and the text after the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FieldError {
    pub path: FieldPath,
    pub at: Option<FieldPath>,
    pub body: String,
    /// `Invalid`, but `NeedsCel` for a CEL expression in a build without CEL (`needs_cel`).
    pub reason: super::ErrorReason,
}

impl FieldError {
    pub fn pointing_at(mut self, at: FieldPath) -> FieldError {
        self.at = Some(at);
        self
    }
}

/// A bad value as Kubernetes prints it: strings quoted, numbers bare, others as JSON.
pub(crate) enum Bad {
    Str(String),
    Int(i64),
    Json(String),
}

impl From<&str> for Bad {
    fn from(s: &str) -> Bad {
        Bad::Str(s.to_string())
    }
}
impl From<&String> for Bad {
    fn from(s: &String) -> Bad {
        Bad::Str(s.clone())
    }
}
impl From<String> for Bad {
    fn from(s: String) -> Bad {
        Bad::Str(s)
    }
}
impl From<i64> for Bad {
    fn from(v: i64) -> Bad {
        Bad::Int(v)
    }
}
impl From<i32> for Bad {
    fn from(v: i32) -> Bad {
        Bad::Int(v as i64)
    }
}

/// Long values are shortened in messages so that a huge input cannot make a huge report.
const MAX_SHOWN: usize = 256;

fn shown(s: &str) -> String {
    if s.len() <= MAX_SHOWN {
        return format!("{s:?}");
    }
    let mut end = MAX_SHOWN;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{:?}...", &s[..end])
}

impl Bad {
    fn render(&self) -> String {
        match self {
            Bad::Str(s) => shown(s),
            Bad::Int(v) => v.to_string(),
            Bad::Json(s) => s.clone(),
        }
    }
}

fn with_detail(mut s: String, detail: &str) -> String {
    if !detail.is_empty() {
        s.push_str(": ");
        s.push_str(detail);
    }
    s
}

fn fe(path: &FieldPath, body: String) -> FieldError {
    FieldError {
        path: path.clone(),
        at: None,
        body,
        reason: super::ErrorReason::Invalid,
    }
}

/// A CEL expression this build cannot evaluate (the `cel` feature off): the scenario is the
/// full engine's (`super::ErrorReason::NeedsCel`).
pub(crate) fn needs_cel(path: &FieldPath) -> FieldError {
    FieldError {
        reason: super::ErrorReason::NeedsCel,
        ..fe(path, crate::dra::cel::NOT_COMPILED_IN.to_string())
    }
}

pub(crate) fn required(path: &FieldPath, detail: &str) -> FieldError {
    fe(path, with_detail("Required value".into(), detail))
}
pub(crate) fn forbidden(path: &FieldPath, detail: &str) -> FieldError {
    fe(path, with_detail("Forbidden".into(), detail))
}
pub(crate) fn invalid(path: &FieldPath, bad: impl Into<Bad>, detail: &str) -> FieldError {
    fe(path, with_detail(format!("Invalid value: {}", bad.into().render()), detail))
}
pub(crate) fn duplicate(path: &FieldPath, bad: impl Into<Bad>) -> FieldError {
    fe(path, format!("Duplicate value: {}", bad.into().render()))
}
pub(crate) fn not_found(path: &FieldPath, bad: impl Into<Bad>, detail: &str) -> FieldError {
    fe(path, with_detail(format!("Not found: {}", bad.into().render()), detail))
}
pub(crate) fn not_supported(path: &FieldPath, bad: impl Into<Bad>, valid: &[&str]) -> FieldError {
    let list: Vec<String> = valid.iter().map(|v| format!("{v:?}")).collect();
    let detail = if list.is_empty() {
        String::new()
    } else {
        format!("supported values: {}", list.join(", "))
    };
    fe(path, with_detail(format!("Unsupported value: {}", bad.into().render()), &detail))
}
pub(crate) fn too_long(path: &FieldPath, max: usize) -> FieldError {
    let unit = if max == 1 { "byte" } else { "bytes" };
    fe(path, format!("Too long: may not be more than {max} {unit}"))
}

/// Collects errors for one object; can read the object's YAML for values as written.
pub(crate) struct Ctx<'a> {
    pub errs: Vec<FieldError>,
    tree: Option<&'a YNode<'a>>,
}

impl<'a> Ctx<'a> {
    pub fn new(tree: Option<&'a YNode<'a>>) -> Ctx<'a> {
        Ctx { errs: Vec::new(), tree }
    }
    pub fn push(&mut self, e: FieldError) {
        self.errs.push(e);
    }
    /// A quantity as Kubernetes prints it, in the format it was written in.
    pub fn qty(&self, q: Quantity, path: &FieldPath) -> String {
        let raw = self.tree.and_then(|t| {
            let mut n = t;
            for seg in segs(path) {
                n = match (seg, &n.val) {
                    (Seg::Key(k), Val::Map(es)) => &es.iter().find(|e| e.key == k)?.value,
                    (Seg::Index(i), Val::Seq(items)) => items.get(i)?,
                    _ => return None,
                };
            }
            n.as_str()
        });
        canonical_quantity(q, raw)
    }
}

// ---------------------------------------------------------------------------------------------
// Quantity rendering (Kubernetes' canonical form)

/// The canonical text of a quantity: binary suffixes when it was written with one and is a
/// whole multiple, an exponent when it was written with one, decimal SI suffixes otherwise.
pub(crate) fn canonical_quantity(q: Quantity, raw: Option<&str>) -> String {
    let n = q.nanos();
    if n == 0 {
        return "0".into();
    }
    let raw = raw.unwrap_or("");
    let binary = raw.ends_with('i');
    let exponent = !binary && raw.trim_start_matches(['+', '-']).contains(['e', 'E']);
    const NANO: i128 = 1_000_000_000;
    if binary && n % NANO == 0 && (n / NANO).abs() >= 1024 {
        let mut v = n / NANO;
        let mut i = 0;
        while i < 6 && v % 1024 == 0 {
            v /= 1024;
            i += 1;
        }
        return format!("{v}{}", ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][i]);
    }
    // Largest power of 1000 that divides the value (in nano-units).
    let mut v = n;
    let mut e = -9i32;
    while e < 18 && v % 1000 == 0 {
        v /= 1000;
        e += 3;
    }
    if exponent {
        return if e == 0 { v.to_string() } else { format!("{v}e{e}") };
    }
    let suffix = match e {
        -9 => "n",
        -6 => "u",
        -3 => "m",
        0 => "",
        3 => "k",
        6 => "M",
        9 => "G",
        12 => "T",
        15 => "P",
        _ => "E",
    };
    format!("{v}{suffix}")
}

pub(crate) fn inclusive_range_error(lo: i64, hi: i64) -> String {
    format!("must be between {lo} and {hi}, inclusive")
}

// ---------------------------------------------------------------------------------------------
// Object metadata, labels, selectors

/// How an object's name must look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRule {
    Subdomain,
    Label,
}

impl NameRule {
    pub fn check(self, name: &str) -> Vec<String> {
        match self {
            NameRule::Subdomain => is_dns1123_subdomain(name),
            NameRule::Label => is_dns1123_label(name),
        }
    }
}

pub(crate) fn validate_object_meta(cx: &mut Ctx, meta: &ObjectMeta, namespaced: bool, rule: NameRule, path: &FieldPath) {
    if let Some(g) = meta.generate_name.as_deref().filter(|g| !g.is_empty()) {
        // The apiserver masks a trailing dash of a prefix before checking it.
        let masked = match g.strip_suffix('-') {
            Some(s) => format!("{s}a"),
            None => g.to_string(),
        };
        for m in rule.check(&masked) {
            cx.push(invalid(&path.child("generateName"), g, &m));
        }
    }
    if meta.name.is_empty() {
        let detail = if meta.generate_name.as_deref().is_some_and(|g| !g.is_empty()) {
            "name or generateName is required; the simulator does not generate names, so give a name"
        } else {
            "name or generateName is required"
        };
        cx.push(required(&path.child("name"), detail));
    } else {
        for m in rule.check(&meta.name) {
            cx.push(invalid(&path.child("name"), &meta.name, &m));
        }
    }
    if namespaced {
        match meta.namespace.as_deref() {
            None | Some("") => cx.push(required(&path.child("namespace"), "")),
            Some(ns) => {
                for m in is_dns1123_label(ns) {
                    cx.push(invalid(&path.child("namespace"), ns, &m));
                }
            }
        }
    }
    if let Some(g) = meta.generation {
        if g < 0 {
            cx.push(invalid(&path.child("generation"), g, "must be greater than or equal to 0"));
        }
    }
    validate_labels(cx, &meta.labels, &path.child("labels"));
    validate_annotations(cx, &meta.annotations, &path.child("annotations"));
    for (i, o) in meta.owner_references.iter().enumerate() {
        let p = path.child("ownerReferences").index(i);
        if o.api_version.is_empty() {
            cx.push(invalid(&p.child("apiVersion"), &o.api_version, "version must not be empty"));
        }
        if o.kind.is_empty() {
            cx.push(invalid(&p.child("kind"), &o.kind, "must not be empty"));
        }
        if o.name.is_empty() {
            cx.push(invalid(&p.child("name"), &o.name, "must not be empty"));
        }
        if o.uid.is_empty() {
            cx.push(invalid(&p.child("uid"), &o.uid, "must not be empty"));
        }
    }
    if let Some(fs) = &meta.finalizers {
        for (i, f) in fs.iter().enumerate() {
            for m in is_qualified_name(f) {
                cx.push(invalid(&path.child("finalizers").index(i), f, &m));
            }
        }
    }
}

pub(crate) fn validate_label_name(cx: &mut Ctx, key: &str, path: &FieldPath) {
    for m in is_qualified_name(key) {
        cx.push(invalid(path, key, &m));
    }
}

/// Label keys and values; errors name the map (as Kubernetes does) but point at the entry.
pub(crate) fn validate_labels(cx: &mut Ctx, labels: &crate::api::Labels, path: &FieldPath) {
    for (k, v) in labels {
        for m in is_qualified_name(k) {
            cx.push(invalid(path, k, &m).pointing_at(path.key(k)));
        }
        for m in is_valid_label_value(v) {
            cx.push(invalid(path, v, &m).pointing_at(path.key(k)));
        }
    }
}

/// The apiserver's limit on all annotations of an object together.
pub(crate) const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

pub(crate) fn validate_annotations(cx: &mut Ctx, ann: &BTreeMap<String, String>, path: &FieldPath) {
    let mut total = 0usize;
    for (k, v) in ann {
        for m in is_qualified_name(&k.to_lowercase()) {
            cx.push(invalid(path, k, &m).pointing_at(path.key(k)));
        }
        total = total.saturating_add(k.len()).saturating_add(v.len());
    }
    if total > TOTAL_ANNOTATION_SIZE_LIMIT {
        cx.push(too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT));
    }
}

pub(crate) fn validate_label_selector(cx: &mut Ctx, sel: Option<&LabelSelector>, path: &FieldPath) {
    let Some(sel) = sel else { return };
    validate_labels(cx, &sel.match_labels, &path.child("matchLabels"));
    for (i, r) in sel.match_expressions.iter().enumerate() {
        let p = path.child("matchExpressions").index(i);
        match r.operator.as_str() {
            "In" | "NotIn" => {
                if r.values.is_empty() {
                    cx.push(required(&p.child("values"), "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            "Exists" | "DoesNotExist" => {
                if !r.values.is_empty() {
                    cx.push(forbidden(
                        &p.child("values"),
                        "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                    ));
                }
            }
            op => cx.push(invalid(&p.child("operator"), op, "not a valid selector operator")),
        }
        validate_label_name(cx, &r.key, &p.child("key"));
        for (j, v) in r.values.iter().enumerate() {
            for m in is_valid_label_value(v) {
                cx.push(invalid(&p.child("values").index(j), v, &m));
            }
        }
    }
}

pub(crate) fn validate_node_selector_requirement(cx: &mut Ctx, r: &NodeSelectorRequirement, check_values: bool, path: &FieldPath) {
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.is_empty() {
                cx.push(required(
                    &path.child("values"),
                    "must be specified when `operator` is 'In' or 'NotIn'",
                ));
            }
        }
        "Exists" | "DoesNotExist" => {
            if !r.values.is_empty() {
                cx.push(forbidden(
                    &path.child("values"),
                    "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
                ));
            }
        }
        "Gt" | "Lt" => {
            if r.values.len() != 1 {
                cx.push(required(
                    &path.child("values"),
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                ));
            }
        }
        op => cx.push(invalid(&path.child("operator"), op, "not a valid selector operator")),
    }
    validate_label_name(cx, &r.key, &path.child("key"));
    if check_values {
        for (i, v) in r.values.iter().enumerate() {
            for m in is_valid_label_value(v) {
                cx.push(invalid(&path.child("values").index(i), v, &m));
            }
        }
    }
}

fn validate_node_field_selector_requirement(cx: &mut Ctx, r: &NodeSelectorRequirement, path: &FieldPath) {
    match r.operator.as_str() {
        "In" | "NotIn" => {
            if r.values.len() != 1 {
                cx.push(required(
                    &path.child("values"),
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                ));
            }
        }
        op => cx.push(invalid(&path.child("operator"), op, "not a valid selector operator")),
    }
    if r.key != "metadata.name" {
        cx.push(invalid(&path.child("key"), &r.key, "not a valid field selector key"));
    } else {
        for (i, v) in r.values.iter().enumerate() {
            for m in is_dns1123_subdomain(v) {
                cx.push(invalid(&path.child("values").index(i), v, &m));
            }
        }
    }
}

pub(crate) fn validate_node_selector_term(cx: &mut Ctx, t: &NodeSelectorTerm, check_values: bool, path: &FieldPath) {
    for (j, r) in t.match_expressions.iter().enumerate() {
        validate_node_selector_requirement(cx, r, check_values, &path.child("matchExpressions").index(j));
    }
    for (j, r) in t.match_fields.iter().enumerate() {
        validate_node_field_selector_requirement(cx, r, &path.child("matchFields").index(j));
    }
}

pub(crate) fn validate_node_selector(cx: &mut Ctx, ns: &NodeSelector, path: &FieldPath) {
    let terms = path.child("nodeSelectorTerms");
    if ns.node_selector_terms.is_empty() {
        cx.push(required(&terms, "must have at least one node selector term"));
        return;
    }
    for (i, t) in ns.node_selector_terms.iter().enumerate() {
        validate_node_selector_term(cx, t, true, &terms.index(i));
    }
}

// ---------------------------------------------------------------------------------------------
// Resource names and quantities

pub(crate) fn is_overcommit_allowed(name: &str) -> bool {
    is_native_resource(name) && !is_huge_page(name)
}
pub(crate) fn is_integer_resource(name: &str) -> bool {
    matches!(
        name,
        "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "configmaps"
            | "persistentvolumeclaims"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || is_extended_resource_name(name)
}
fn is_standard_resource_name(name: &str) -> bool {
    matches!(
        name,
        "cpu"
            | "memory"
            | "ephemeral-storage"
            | "requests.cpu"
            | "requests.memory"
            | "requests.ephemeral-storage"
            | "limits.cpu"
            | "limits.memory"
            | "limits.ephemeral-storage"
            | "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "configmaps"
            | "persistentvolumeclaims"
            | "storage"
            | "requests.storage"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || name.starts_with("hugepages-")
        || name.starts_with("requests.hugepages-")
}

/// A resource name in general (node capacity, quotas): qualified, and standard unless prefixed.
pub(crate) fn validate_resource_name(cx: &mut Ctx, name: &str, path: &FieldPath) -> bool {
    let msgs = is_qualified_name(name);
    let ok = msgs.is_empty();
    for m in msgs {
        cx.push(invalid(path, name, &m));
    }
    if !ok {
        return false;
    }
    if !name.contains('/') && !is_standard_resource_name(name) {
        cx.push(invalid(path, name, "must be a standard resource type or fully qualified"));
        return false;
    }
    true
}

/// A resource name a container may request.
pub(crate) fn validate_container_resource_name(cx: &mut Ctx, name: &str, path: &FieldPath) {
    let before = cx.errs.len();
    validate_resource_name(cx, name, path);
    if !name.contains('/') {
        if !(matches!(name, "cpu" | "memory" | "ephemeral-storage") || is_huge_page(name)) {
            cx.push(invalid(path, name, "must be a standard resource for containers"));
        }
    } else if !is_native_resource(name) && !is_extended_resource_name(name) && cx.errs.len() == before {
        cx.push(invalid(path, name, "doesn't follow extended resource name standard"));
    }
}

pub(crate) fn validate_resource_quantity_value(cx: &mut Ctx, name: &str, q: Quantity, path: &FieldPath) {
    if q.is_negative() {
        let s = cx.qty(q, path);
        cx.push(invalid(path, s, "must be greater than or equal to 0"));
    }
    if is_integer_resource(name) && q.milli_value() % 1000 != 0 {
        let s = cx.qty(q, path);
        cx.push(invalid(path, s, "must be an integer"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn names() {
        assert!(is_dns1123_label("web-1").is_empty());
        assert_eq!(is_dns1123_label("a.b"), vec!["must not contain dots".to_string()]);
        assert_eq!(
            is_dns1123_label("Web"),
            vec!["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')".to_string()]
        );
        assert!(is_dns1123_subdomain("node-a.example.com").is_empty());
        assert_eq!(is_dns1123_subdomain("a..b").len(), 1);
        assert!(is_qualified_name("kubernetes.io/hostname").is_empty());
        assert!(is_qualified_name("app").is_empty());
        assert_eq!(is_qualified_name("/app"), vec!["prefix part must be non-empty".to_string()]);
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert_eq!(is_qualified_name("a b").len(), 1);
        assert!(is_valid_label_value("").is_empty());
        assert_eq!(is_valid_label_value(&"x".repeat(64)), vec![max_len_error(63)]);
        assert!(is_valid_port_name("http").is_empty());
        assert_eq!(is_valid_port_name("80").len(), 1);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn quantities_print_canonically() {
        for (raw, want) in [
            ("2000m", "2"),
            ("1500m", "1500m"),
            ("1000", "1k"),
            ("1.5Gi", "1536Mi"),
            ("1Gi", "1Gi"),
            ("512", "512"),
            ("1e3", "1e3"),
            ("-1", "-1"),
            ("0.1", "100m"),
        ] {
            let q = Quantity::parse(raw).unwrap();
            assert_eq!(canonical_quantity(q, Some(raw)), want, "{raw}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn paths_render_like_kubernetes() {
        let p = FieldPath::new("spec")
            .child("containers")
            .index(0)
            .child("resources")
            .child("limits")
            .key("cpu");
        assert_eq!(p.render(), "spec.containers[0].resources.limits[cpu]");
    }
}
