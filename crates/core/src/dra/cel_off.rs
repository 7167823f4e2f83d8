//! The CEL layer of a build without the interpreter (the `cel` feature off: the playground's
//! light worker, docs/hosting.md). It has `dra::cel`'s API so that the allocator and the CEL
//! plugin compile unchanged, but it evaluates nothing: the loader refuses every scenario that
//! holds a CEL expression before anything runs (`ErrorReason::NeedsCel`, at the expression),
//! so none of these functions is reached by a scenario that loaded. Should one be, it answers
//! an error, never a verdict.

use crate::api::resource::Device;
use std::marker::PhantomData;
use std::sync::Arc;

/// Whether this build evaluates CEL: no.
pub const AVAILABLE: bool = false;

/// Why an expression is not evaluated: the words of every refusal.
pub const NOT_COMPILED_IN: &str = "CEL expressions need the full engine (this build of schedlab has no CEL interpreter)";

/// A compiled program: none can exist in this build.
#[derive(Clone, Debug)]
pub enum Program {}

/// The values the CEL plugin reads from a result (there are no results in this build).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
}

/// The interpreter's context: nothing to hold.
pub struct Context<'a>(PhantomData<&'a ()>);

/// A selector expression, never compiled.
pub struct Selector;

impl Selector {
    pub fn error(&self) -> Option<&str> {
        Some(NOT_COMPILED_IN)
    }
}

/// A device as selectors would see it.
#[derive(Clone, Debug)]
pub struct DeviceValue;

#[derive(Default)]
pub struct CelEnv;

impl CelEnv {
    pub fn new() -> CelEnv {
        CelEnv
    }

    pub fn compile(&mut self, _expr: &str) -> Arc<Selector> {
        Arc::new(Selector)
    }

    pub fn device_value(&self, _driver: &str, _device: &Device) -> Result<DeviceValue, String> {
        Ok(DeviceValue)
    }

    pub fn matches(&self, _sel: &Selector, _device: &DeviceValue) -> Result<bool, String> {
        Err(NOT_COMPILED_IN.to_string())
    }
}

pub fn kubernetes_context() -> Context<'static> {
    Context(PhantomData)
}

pub fn compile_expression(_expr: &str) -> Result<Program, String> {
    Err(NOT_COMPILED_IN.to_string())
}

pub fn execute(_root: &Context<'static>, program: &Program, _vars: Vec<(&str, Value)>) -> Result<Value, String> {
    match *program {}
}

pub fn json_value(_v: &serde_json::Value) -> Value {
    Value::Null
}

pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Int(_) => "int",
        Value::UInt(_) => "uint",
        Value::Bool(_) => "bool",
        Value::Null => "null_type",
    }
}
