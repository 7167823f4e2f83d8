//! `schedlab.dev/CEL`: a plugin of schedlab's own, not kube-scheduler's, whose Filter and Score
//! are CEL expressions written in the configuration (docs/cel-plugin.md). Its args (`CELArgs`,
//! `args.rs`) hold a `filter` expression (a bool: does the pod fit the node?) and a `score`
//! expression (an int), over two variables: `pod` and `node`, each the object as the API
//! would return it (`metadata.labels`, `spec`, `status.allocatable`, … — quantities are
//! strings, read with `quantity(...)`; labels and annotations are always maps, see
//! `variables`). The expressions run with the same interpreter and
//! Kubernetes libraries as DRA's device selectors (`dra::cel`).
//!
//! - Filter: `true` passes; `false` rejects the node as UnschedulableAndUnresolvable (the
//!   expression sees only the pod and the node, so evicting pods cannot change it and
//!   preemption does not try); a runtime error (no such key, a result that is not a bool) is
//!   an Error status, which stops the cycle, as kube-scheduler treats any plugin's error.
//! - Score: the expression's int is the raw score (a runtime error or a result that is not an
//!   int is an Error); NormalizeScore clamps each raw score to 0..100 (`normalize`), with no
//!   regard to the other nodes' scores; the profile's weight multiplies it.
//!
//! A real kube-scheduler has no such plugin (one would be a Go plugin compiled into it), so
//! the name is qualified with `schedlab.dev/` (`PluginName::is_schedlab_extension`), which no
//! kube-scheduler name is, and an export of the configuration leaves it out.

pub mod args;
mod explain;

use crate::api::{Node, Pod};
use crate::dra::cel::{compile_expression, execute, json_value, kubernetes_context, type_name, Context, Program, Value};
use crate::framework::args::PluginArgs;
use crate::framework::registry::Descriptor;
use crate::framework::{Ctx, CycleState, NodeInfo, NodeScore, Plugin, PodInfo, Status};
use crate::vocabulary::PluginName;
use crate::vocabulary::{ExtensionPoint as Ep, ExtensionPoints};
use args::CelArgs;

/// A node the filter expression rejected.
pub const ERR_REASON: &str = "node(s) didn't satisfy the schedlab.dev/CEL filter expression";

/// The lowest and highest normalized score.
pub const MIN_SCORE: i64 = 0;
pub const MAX_SCORE: i64 = 100;

/// NormalizeScore: a raw score clamped to 0..100.
pub fn normalize(raw: i64) -> i64 {
    raw.clamp(MIN_SCORE, MAX_SCORE)
}

/// One expression, compiled (its error kept: validation has refused it already, but a profile
/// built without validation still fails it at run time, as an Error).
struct Expression {
    text: String,
    program: Result<Program, String>,
}

impl Expression {
    fn new(text: &Option<String>) -> Option<Expression> {
        text.as_ref().map(|t| Expression {
            text: t.clone(),
            program: compile_expression(t),
        })
    }
}

pub struct Cel {
    root: Context<'static>,
    filter: Option<Expression>,
    score: Option<Expression>,
}

impl Cel {
    pub fn new(args: &CelArgs) -> Cel {
        Cel {
            root: kubernetes_context(),
            filter: Expression::new(&args.filter),
            score: Expression::new(&args.score),
        }
    }

    /// The filter expression's text, if any.
    pub fn filter_text(&self) -> Option<&str> {
        self.filter.as_ref().map(|e| e.text.as_str())
    }

    /// The score expression's text, if any.
    pub fn score_text(&self) -> Option<&str> {
        self.score.as_ref().map(|e| e.text.as_str())
    }

    fn run(&self, e: &Expression, pod: &Pod, node: &Node) -> Result<Value, String> {
        let program = e.program.as_ref().map_err(Clone::clone)?;
        execute(&self.root, program, variables(pod, node))
    }

    /// The filter expression on a pod and a node: whether it passes (`true` without an
    /// expression), or the runtime error.
    pub fn eval_filter(&self, pod: &Pod, node: &Node) -> Result<bool, String> {
        let Some(e) = &self.filter else { return Ok(true) };
        match self.run(e, pod, node)? {
            Value::Bool(b) => Ok(b),
            other => Err(format!("filter expression: result of type {} is not bool", type_name(&other))),
        }
    }

    /// The score expression's raw score (0 without an expression), or the runtime error.
    pub fn eval_score(&self, pod: &Pod, node: &Node) -> Result<i64, String> {
        let Some(e) = &self.score else { return Ok(0) };
        match self.run(e, pod, node)? {
            Value::Int(i) => Ok(i),
            Value::UInt(u) => Ok(i64::try_from(u).unwrap_or(i64::MAX)),
            other => Err(format!("score expression: result of type {} is not int", type_name(&other))),
        }
    }
}

/// The expressions' variables: `pod` and `node` as their API objects' JSON (absent fields
/// absent, as the API returns them), except that `metadata.labels` and `metadata.annotations`
/// are always there, empty maps when the object has none, so that `"k" in
/// node.metadata.labels` asks about a label and never fails.
pub fn variables(pod: &Pod, node: &Node) -> Vec<(&'static str, Value)> {
    fn object(v: serde_json::Result<serde_json::Value>) -> Value {
        let mut v = v.unwrap_or(serde_json::Value::Null);
        if let Some(meta) = v.get_mut("metadata").and_then(serde_json::Value::as_object_mut) {
            for field in ["labels", "annotations"] {
                meta.entry(field).or_insert_with(|| serde_json::json!({}));
            }
        }
        json_value(&v)
    }
    vec![
        ("pod", object(serde_json::to_value(pod))),
        ("node", object(serde_json::to_value(node))),
    ]
}

impl Plugin for Cel {
    fn name(&self) -> PluginName {
        PluginName::Cel
    }

    fn filter(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Status {
        match self.eval_filter(&pod.pod, &node.node) {
            Ok(true) => Status::success(),
            Ok(false) => Status::unresolvable(ERR_REASON),
            Err(e) => Status::error(e),
        }
    }

    fn score(&self, _cx: &Ctx, _state: &CycleState, pod: &PodInfo, node: &NodeInfo) -> Result<i64, Status> {
        self.eval_score(&pod.pod, &node.node).map_err(Status::error)
    }

    fn has_normalize_score(&self) -> bool {
        true
    }

    fn normalize_score(&self, _cx: &Ctx, _state: &CycleState, _pod: &PodInfo, scores: &mut [NodeScore]) -> Status {
        for s in scores {
            s.score = normalize(s.score);
        }
        Status::success()
    }
}

fn new(args: &PluginArgs, _: &crate::version::Features) -> Box<dyn Plugin> {
    Box::new(Cel::new(&args.get_or_default::<CelArgs>()))
}

/// This plugin, for the registry (`plugins/mod.rs`).
pub const DESCRIPTOR: Descriptor = Descriptor {
    name: PluginName::Cel,
    points: ExtensionPoints::of(&[Ep::Filter, Ep::Score]),
    short: "CEL",
    args: Some(&args::CODEC),
    new,
    explain: explain::EXPLAINERS,
};

#[cfg(test)]
mod tests;
