//! CEL device selectors, evaluated as Kubernetes does for DRA.
//!
//! The variable `device` has `driver` (string), `attributes` and `capacity`: maps from a domain
//! to a map from an attribute (or capacity) name to its value. A qualified name `domain/id`
//! lands under its domain, an unqualified one under the driver's name. Attribute values are
//! int, bool, string, or a semantic version (a Kubernetes `Semver` value); capacities are
//! Kubernetes quantities. As in Kubernetes, looking up a domain the device does not have gives
//! an empty map, while looking up a missing name inside a domain is a runtime error
//! (`no such key: <name>`), which makes the selector fail with an error, not a mismatch.
//!
//! The interpreter is the `cel` crate with `kube-cel`'s Kubernetes libraries. It checks types
//! at run time only, so an expression Kubernetes would refuse to compile for a type error fails
//! here when it is evaluated (still an error, with a different message). The empty-map default
//! for unknown domains is applied to the domains an expression names literally
//! (`device.attributes["gpu.example.com"]`, `device.capacity.foo`), which is every domain a
//! selector can name without computing it.
//!
//! The same layer serves the CEL plugin (`plugins/cel`): `compile_expression`, `kubernetes_context`,
//! `json_value` (an object's JSON as a CEL value) and `execute` evaluate any expression over
//! named variables with the same interpreter, libraries and error words.

use crate::api::resource::Device;
use kube_cel::cel::common::ast::{EntryExpr, Expr, LiteralValue};
use kube_cel::cel::objects::{Key, Map};
use kube_cel::cel::{ExecutionError, IdedExpr};
/// The interpreter's types the CEL plugin uses (`dra/cel_off.rs` has stand-ins for them).
pub use kube_cel::cel::{Context, Program, Value};
use kube_cel::KubeCelExt;
use std::collections::HashMap;
use std::sync::Arc;

/// Whether this build evaluates CEL: yes (the `cel` feature; `dra/cel_off.rs` is the build
/// without it).
pub const AVAILABLE: bool = true;

/// What a build without CEL says of an expression (`dra/cel_off.rs`); named in both builds.
pub const NOT_COMPILED_IN: &str = "CEL expressions need the full engine (this build of schedlab has no CEL interpreter)";

/// A compiled selector expression.
pub struct Selector {
    program: Result<Program, String>,
    /// Domains looked up literally in `device.attributes` / `device.capacity`.
    attribute_domains: Vec<String>,
    capacity_domains: Vec<String>,
}

impl Selector {
    /// The compile error, worded as Kubernetes words its start.
    pub fn error(&self) -> Option<&str> {
        self.program.as_ref().err().map(String::as_str)
    }
}

/// A device as selectors see it: its values converted once.
#[derive(Clone, Debug)]
pub struct DeviceValue {
    driver: Arc<String>,
    attributes: HashMap<String, HashMap<String, Value>>,
    capacity: HashMap<String, HashMap<String, Value>>,
}

/// The CEL environment: the Kubernetes function libraries, and compiled expressions by text.
pub struct CelEnv {
    root: Context<'static>,
    semver: Program,
    quantity: Program,
    cache: HashMap<String, Arc<Selector>>,
}

impl Default for CelEnv {
    fn default() -> Self {
        Self::new()
    }
}

impl CelEnv {
    pub fn new() -> CelEnv {
        CelEnv {
            root: kubernetes_context(),
            semver: Program::compile("semver(v)").expect("constant expression"),
            quantity: Program::compile("quantity(v)").expect("constant expression"),
            cache: HashMap::new(),
        }
    }

    /// Compiles an expression (once per text).
    pub fn compile(&mut self, expr: &str) -> Arc<Selector> {
        if let Some(s) = self.cache.get(expr) {
            return s.clone();
        }
        let sel = match compile_expression(expr) {
            Ok(p) => {
                let mut attribute_domains = Vec::new();
                let mut capacity_domains = Vec::new();
                collect_domains(p.expression(), &mut attribute_domains, &mut capacity_domains);
                Selector {
                    program: Ok(p),
                    attribute_domains,
                    capacity_domains,
                }
            }
            Err(e) => Selector {
                program: Err(e),
                attribute_domains: Vec::new(),
                capacity_domains: Vec::new(),
            },
        };
        let sel = Arc::new(sel);
        self.cache.insert(expr.to_string(), sel.clone());
        sel
    }

    /// Converts a device's attributes and capacities into CEL values. A version attribute that
    /// is not a semantic version is an error, as in Kubernetes.
    pub fn device_value(&self, driver: &str, device: &Device) -> Result<DeviceValue, String> {
        let mut attributes: HashMap<String, HashMap<String, Value>> = HashMap::new();
        for (name, a) in &device.attributes {
            let v = if let Some(i) = a.int {
                Value::Int(i)
            } else if let Some(b) = a.bool {
                Value::Bool(b)
            } else if let Some(s) = &a.string {
                Value::String(Arc::new(s.clone()))
            } else if let Some(v) = &a.version {
                self.construct(&self.semver, v)
                    .map_err(|e| format!("attribute {name}: parse semantic version: {e}"))?
            } else {
                return Err(format!("attribute {name}: unsupported attribute value"));
            };
            let (domain, id) = split_qualified(name, driver);
            attributes.entry(domain).or_default().insert(id, v);
        }
        let mut capacity: HashMap<String, HashMap<String, Value>> = HashMap::new();
        for (name, c) in &device.capacity {
            let v = self
                .construct(&self.quantity, &c.value.to_string())
                .map_err(|e| format!("capacity {name}: {e}"))?;
            let (domain, id) = split_qualified(name, driver);
            capacity.entry(domain).or_default().insert(id, v);
        }
        Ok(DeviceValue {
            driver: Arc::new(driver.to_string()),
            attributes,
            capacity,
        })
    }

    fn construct(&self, program: &Program, text: &str) -> Result<Value, String> {
        let mut cx = self.root.new_inner_scope();
        cx.add_variable_from_value("v", Value::String(Arc::new(text.to_string())));
        program.execute(&cx).map_err(|e| error_text(&e))
    }

    /// Evaluates a selector for a device: its boolean result, or the runtime error.
    pub fn matches(&self, sel: &Selector, device: &DeviceValue) -> Result<bool, String> {
        let program = sel.program.as_ref().map_err(Clone::clone)?;
        let outer = |m: &HashMap<String, HashMap<String, Value>>, literal: &[String]| -> Value {
            let mut out: HashMap<Key, Value> = HashMap::with_capacity(m.len() + literal.len());
            for (domain, inner) in m {
                let inner: HashMap<Key, Value> = inner.iter().map(|(k, v)| (Key::String(Arc::new(k.clone())), v.clone())).collect();
                out.insert(Key::String(Arc::new(domain.clone())), Value::Map(Map { map: Arc::new(inner) }));
            }
            for d in literal {
                out.entry(Key::String(Arc::new(d.clone()))).or_insert_with(|| {
                    Value::Map(Map {
                        map: Arc::new(HashMap::new()),
                    })
                });
            }
            Value::Map(Map { map: Arc::new(out) })
        };
        let mut fields: HashMap<Key, Value> = HashMap::with_capacity(3);
        fields.insert(Key::String(Arc::new("driver".into())), Value::String(device.driver.clone()));
        fields.insert(
            Key::String(Arc::new("attributes".into())),
            outer(&device.attributes, &sel.attribute_domains),
        );
        fields.insert(
            Key::String(Arc::new("capacity".into())),
            outer(&device.capacity, &sel.capacity_domains),
        );
        let mut cx = self.root.new_inner_scope();
        cx.add_variable_from_value("device", Value::Map(Map { map: Arc::new(fields) }));
        match program.execute(&cx) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(other) => Err(format!("CEL result of type {} could not be converted to bool", type_name(&other))),
            Err(e) => Err(error_text(&e)),
        }
    }
}

/// The interpreter's root context: every Kubernetes function library this workspace enables.
pub fn kubernetes_context() -> Context<'static> {
    Context::default().with_all()
}

/// Parses an expression; the error is worded as Kubernetes words its start
/// (`compilation failed: ...`, the interpreter's first line after it).
pub fn compile_expression(expr: &str) -> Result<Program, String> {
    Program::compile(expr).map_err(|e| format!("compilation failed: {}", first_line(&e.to_string())))
}

/// Evaluates a compiled expression with `vars` bound in a scope under `root`; a runtime error
/// in cel-go's words where they differ.
pub fn execute(root: &Context<'static>, program: &Program, vars: Vec<(&str, Value)>) -> Result<Value, String> {
    let mut cx = root.new_inner_scope();
    for (name, v) in vars {
        cx.add_variable_from_value(name, v);
    }
    program.execute(&cx).map_err(|e| error_text(&e))
}

/// A JSON value as CEL sees an object's field: objects are maps with string keys, integral
/// numbers ints (uints beyond i64), others doubles.
pub fn json_value(v: &serde_json::Value) -> Value {
    use serde_json::Value as J;
    match v {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(*b),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Value::Int(i),
            (None, Some(u)) => Value::UInt(u),
            _ => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => Value::String(Arc::new(s.clone())),
        J::Array(a) => Value::List(Arc::new(a.iter().map(json_value).collect())),
        J::Object(o) => {
            let m: HashMap<Key, Value> = o.iter().map(|(k, v)| (Key::String(Arc::new(k.clone())), json_value(v))).collect();
            Value::Map(Map { map: Arc::new(m) })
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s).trim()
}

/// CEL's name of a value's type.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "int",
        Value::UInt(_) => "uint",
        Value::Float(_) => "double",
        Value::String(_) => "string",
        Value::Bytes(_) => "bytes",
        Value::List(_) => "list",
        Value::Map(_) => "map",
        Value::Null => "null_type",
        _ => "unknown",
    }
}

/// A runtime error in cel-go's words where they differ.
fn error_text(e: &ExecutionError) -> String {
    match e {
        ExecutionError::NoSuchKey(k) => format!("no such key: {k}"),
        other => other.to_string(),
    }
}

/// `domain/id` → (domain, id); an unqualified name belongs to the driver's domain.
pub fn split_qualified(name: &str, driver: &str) -> (String, String) {
    match name.split_once('/') {
        Some((d, id)) => (d.to_string(), id.to_string()),
        None => (driver.to_string(), name.to_string()),
    }
}

/// Whether `e` is `device.<field>`.
fn is_device_field(e: &IdedExpr, field: &str) -> bool {
    matches!(&e.expr, Expr::Select(s) if s.field == field && matches!(&s.operand.expr, Expr::Ident(i) if i == "device"))
}

/// Collects the domains an expression looks up literally in `device.attributes` and
/// `device.capacity`.
fn collect_domains(e: &IdedExpr, attrs: &mut Vec<String>, caps: &mut Vec<String>) {
    let mut note = |operand: &IdedExpr, domain: &str| {
        if is_device_field(operand, "attributes") {
            attrs.push(domain.to_string());
        } else if is_device_field(operand, "capacity") {
            caps.push(domain.to_string());
        }
    };
    match &e.expr {
        Expr::Call(c) => {
            if (c.func_name == "_[_]" || c.func_name == "_[?_]") && c.args.len() == 2 {
                if let Expr::Literal(LiteralValue::String(s)) = &c.args[1].expr {
                    note(&c.args[0], s.inner());
                }
            }
            if let Some(t) = &c.target {
                collect_domains(t, attrs, caps);
            }
            for a in &c.args {
                collect_domains(a, attrs, caps);
            }
        }
        Expr::Select(s) => {
            if !s.test {
                note(&s.operand, &s.field);
            }
            collect_domains(&s.operand, attrs, caps);
        }
        Expr::Comprehension(c) => {
            for x in [&c.iter_range, &c.accu_init, &c.loop_cond, &c.loop_step, &c.result] {
                collect_domains(x, attrs, caps);
            }
        }
        Expr::List(l) => {
            for x in &l.elements {
                collect_domains(x, attrs, caps);
            }
        }
        Expr::Map(m) => {
            for en in &m.entries {
                if let EntryExpr::MapEntry(me) = &en.expr {
                    collect_domains(&me.key, attrs, caps);
                    collect_domains(&me.value, attrs, caps);
                }
            }
        }
        Expr::Struct(s) => {
            for en in &s.entries {
                match &en.expr {
                    EntryExpr::MapEntry(me) => {
                        collect_domains(&me.key, attrs, caps);
                        collect_domains(&me.value, attrs, caps);
                    }
                    EntryExpr::StructField(f) => collect_domains(&f.value, attrs, caps),
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resource::{DeviceAttribute, DeviceCapacity};

    fn device() -> Device {
        let mut d = Device {
            name: "gpu-0".into(),
            ..Default::default()
        };
        let attr = |f: fn(&mut DeviceAttribute)| {
            let mut a = DeviceAttribute::default();
            f(&mut a);
            a
        };
        d.attributes.insert("model".into(), attr(|a| a.string = Some("a100".into())));
        d.attributes.insert("cores".into(), attr(|a| a.int = Some(108)));
        d.attributes.insert("ecc".into(), attr(|a| a.bool = Some(true)));
        d.attributes.insert("firmware".into(), attr(|a| a.version = Some("2.1.0".into())));
        d.attributes.insert("numa.example.com/node".into(), attr(|a| a.int = Some(1)));
        d.capacity.insert(
            "memory".into(),
            DeviceCapacity {
                value: crate::quantity::Quantity::parse("40Gi").unwrap(),
                request_policy: None,
            },
        );
        d
    }

    /// Selectors against one device; `Err(prefix)` expects a runtime error starting so.
    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn selectors_as_kubernetes_evaluates_them() {
        let mut env = CelEnv::new();
        let dv = env.device_value("gpu.example.com", &device()).unwrap();
        let d = r#"device.attributes["gpu.example.com"]"#;
        let c = r#"device.capacity["gpu.example.com"]"#;
        let cases: Vec<(String, Result<bool, &str>)> = vec![
            (r#"device.driver == "gpu.example.com""#.into(), Ok(true)),
            (r#"device.driver == "nic.example.com""#.into(), Ok(false)),
            // string, int, bool attributes
            (format!(r#"{d}.model == "a100""#), Ok(true)),
            (format!(r#"{d}.model.startsWith("a1")"#), Ok(true)),
            (format!("{d}.cores >= 100"), Ok(true)),
            (format!("{d}.cores > 108"), Ok(false)),
            (format!("{d}.ecc"), Ok(true)),
            (format!("!{d}.ecc"), Ok(false)),
            // regular expressions are RE2's: \d and \w are ASCII classes
            (format!(r#"{d}.model.matches("^a[0-9]+$")"#), Ok(true)),
            (format!(r#"{d}.model.matches("^\\w\\d+$")"#), Ok(true)),
            (r#""a١".matches("^a\\d$")"#.into(), Ok(false)),
            (format!(r#"{d}.model.find("[0-9]+") == "100""#), Ok(true)),
            (format!(r#"{d}.model.findAll("[0-9]").size() == 3"#), Ok(true)),
            (
                format!(r#"{d}.model.matches("(")"#),
                Err("Error executing function 'matches': '(' not a valid regex"),
            ),
            // a qualified attribute lives under its own domain
            (r#"device.attributes["numa.example.com"].node == 1"#.into(), Ok(true)),
            // versions: semver comparisons
            (format!(r#"{d}.firmware.compareTo(semver("2.0.0")) >= 0"#), Ok(true)),
            (format!(r#"{d}.firmware.isLessThan(semver("2.0.0"))"#), Ok(false)),
            (format!(r#"{d}.firmware.isGreaterThan(semver("2.1.0"))"#), Ok(false)),
            (format!(r#"{d}.firmware == semver("2.1.0")"#), Ok(true)),
            (format!("{d}.firmware.major() == 2"), Ok(true)),
            // capacities are quantities
            (format!(r#"{c}.memory.compareTo(quantity("32Gi")) >= 0"#), Ok(true)),
            (format!(r#"{c}.memory.isGreaterThan(quantity("40Gi"))"#), Ok(false)),
            (format!(r#"{c}.memory.isLessThan(quantity("64Gi"))"#), Ok(true)),
            (format!(r#"{c}.memory == quantity("40960Mi")"#), Ok(true)),
            // presence
            (format!(r#""ecc" in {d}"#), Ok(true)),
            (format!(r#""lowLatency" in {d}"#), Ok(false)),
            (format!("has({d}.ecc)"), Ok(true)),
            (format!("has({d}.lowLatency)"), Ok(false)),
            // an unknown domain is an empty map; an unknown name inside a domain is an error
            (r#"device.attributes["other.example.com"].size() == 0"#.into(), Ok(true)),
            (r#""x" in device.attributes["other.example.com"]"#.into(), Ok(false)),
            (r#"device.attributes["other.example.com"].x == 1"#.into(), Err("no such key: x")),
            (format!("{d}.lowLatency"), Err("no such key: lowLatency")),
            (format!(r#"{c}.hbm.compareTo(quantity("1Gi")) > 0"#), Err("no such key: hbm")),
            // short-circuit avoids the error, as in CEL
            (format!(r#""lowLatency" in {d} && {d}.lowLatency"#), Ok(false)),
            // a result that is not a bool is an error
            (format!("{d}.cores"), Err("CEL result of type int")),
        ];
        for (expr, want) in cases {
            let sel = env.compile(&expr);
            assert!(sel.error().is_none(), "{expr}: {:?}", sel.error());
            let got = env.matches(&sel, &dv);
            match (&got, want) {
                (Ok(g), Ok(w)) => assert_eq!(*g, w, "{expr}"),
                (Err(g), Err(w)) => assert!(g.starts_with(w), "{expr}: {g}"),
                _ => panic!("{expr}: got {got:?}, want {want:?}"),
            }
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn compile_errors_and_bad_versions() {
        let mut env = CelEnv::new();
        let sel = env.compile("device.driver ==");
        assert!(sel.error().unwrap().starts_with("compilation failed: "));
        let mut d = device();
        d.attributes.get_mut("firmware").unwrap().version = Some("v2".into());
        let e = env.device_value("gpu.example.com", &d).unwrap_err();
        assert!(e.starts_with("attribute firmware: parse semantic version"), "{e}");
    }
}
