//! Label selectors (metav1.LabelSelector) and node selectors (v1.NodeSelector), compiled once
//! and matched against label maps many times.

use crate::api::{LabelSelector, Labels, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    In,
    NotIn,
    Exists,
    DoesNotExist,
    Gt,
    Lt,
}

impl Op {
    pub fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "In" => Op::In,
            "NotIn" => Op::NotIn,
            "Exists" => Op::Exists,
            "DoesNotExist" => Op::DoesNotExist,
            "Gt" => Op::Gt,
            "Lt" => Op::Lt,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Requirement {
    pub key: String,
    pub op: Op,
    pub values: Vec<String>,
}

impl Requirement {
    pub fn matches(&self, labels: &Labels) -> bool {
        let v = labels.get(&self.key);
        match self.op {
            Op::In => v.is_some_and(|v| self.values.iter().any(|x| x == v)),
            Op::NotIn => v.is_none_or(|v| !self.values.iter().any(|x| x == v)),
            Op::Exists => v.is_some(),
            Op::DoesNotExist => v.is_none(),
            Op::Gt | Op::Lt => {
                let (Some(v), Some(bound)) = (v, self.values.first()) else {
                    return false;
                };
                let (Ok(v), Ok(bound)) = (v.parse::<i64>(), bound.parse::<i64>()) else {
                    return false;
                };
                if self.op == Op::Gt {
                    v > bound
                } else {
                    v < bound
                }
            }
        }
    }
}

/// A compiled label selector. `Nothing` matches no object (a nil selector); an empty
/// requirement list matches everything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    Nothing,
    Reqs(Vec<Requirement>),
}

impl Selector {
    pub fn everything() -> Selector {
        Selector::Reqs(Vec::new())
    }
    pub fn matches(&self, labels: &Labels) -> bool {
        match self {
            Selector::Nothing => false,
            Selector::Reqs(r) => r.iter().all(|r| r.matches(labels)),
        }
    }
    pub fn is_everything(&self) -> bool {
        matches!(self, Selector::Reqs(r) if r.is_empty())
    }
    pub fn is_nothing(&self) -> bool {
        matches!(self, Selector::Nothing)
    }

    /// metav1.LabelSelectorAsSelector: `None` selects nothing, an empty selector everything.
    pub fn from_label_selector(sel: Option<&LabelSelector>) -> Result<Selector, String> {
        let Some(sel) = sel else { return Ok(Selector::Nothing) };
        let mut reqs = Vec::with_capacity(sel.match_labels.len() + sel.match_expressions.len());
        for (k, v) in &sel.match_labels {
            reqs.push(Requirement {
                key: k.clone(),
                op: Op::In,
                values: vec![v.clone()],
            });
        }
        for e in &sel.match_expressions {
            let op = match e.operator.as_str() {
                "In" => Op::In,
                "NotIn" => Op::NotIn,
                "Exists" => Op::Exists,
                "DoesNotExist" => Op::DoesNotExist,
                other => return Err(format!("{other:?} is not a valid label selector operator")),
            };
            match op {
                Op::In | Op::NotIn if e.values.is_empty() => return Err("for 'in', 'notin' operators, values set can't be empty".into()),
                Op::Exists | Op::DoesNotExist if !e.values.is_empty() => {
                    return Err("values set must be empty for exists and does not exist".into())
                }
                _ => {}
            }
            reqs.push(Requirement {
                key: e.key.clone(),
                op,
                values: e.values.clone(),
            });
        }
        Ok(Selector::Reqs(reqs))
    }

    /// A selector from plain key=value pairs (e.g. a nodeSelector map).
    pub fn from_map(m: &Labels) -> Selector {
        Selector::Reqs(
            m.iter()
                .map(|(k, v)| Requirement {
                    key: k.clone(),
                    op: Op::In,
                    values: vec![v.clone()],
                })
                .collect(),
        )
    }

    /// Adds a requirement (used for matchLabelKeys).
    pub fn push(&mut self, r: Requirement) {
        if let Selector::Reqs(v) = self {
            v.push(r);
        }
    }
}

/// A compiled v1.NodeSelector: terms are ORed; requirements within a term are ANDed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompiledNodeSelector {
    pub terms: Vec<CompiledNodeSelectorTerm>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompiledNodeSelectorTerm {
    pub exprs: Vec<Requirement>,
    /// matchFields: only `metadata.name` is supported upstream.
    pub fields: Vec<Requirement>,
    /// A term that failed to parse matches nothing.
    pub invalid: bool,
}

fn compile_reqs(reqs: &[NodeSelectorRequirement], fields: bool) -> Result<Vec<Requirement>, String> {
    let mut out = Vec::with_capacity(reqs.len());
    for r in reqs {
        let op = Op::parse(&r.operator).ok_or_else(|| format!("{:?} is not a valid node selector operator", r.operator))?;
        if fields {
            if r.key != "metadata.name" {
                return Err(format!("not a valid field selector key: {:?}", r.key));
            }
            if !matches!(op, Op::In | Op::NotIn) || r.values.len() != 1 {
                return Err("field selector requires In/NotIn with exactly one value".into());
            }
        }
        match op {
            Op::In | Op::NotIn if r.values.is_empty() => return Err("values must be non-empty for In and NotIn".into()),
            Op::Exists | Op::DoesNotExist if !r.values.is_empty() => return Err("values must be empty for Exists and DoesNotExist".into()),
            Op::Gt | Op::Lt if r.values.len() != 1 || r.values[0].parse::<i64>().is_err() => {
                return Err("a single integer value is required for Gt and Lt".into())
            }
            _ => {}
        }
        out.push(Requirement {
            key: r.key.clone(),
            op,
            values: r.values.clone(),
        });
    }
    Ok(out)
}

impl CompiledNodeSelectorTerm {
    pub fn compile(t: &NodeSelectorTerm) -> CompiledNodeSelectorTerm {
        match (compile_reqs(&t.match_expressions, false), compile_reqs(&t.match_fields, true)) {
            (Ok(exprs), Ok(fields)) => CompiledNodeSelectorTerm {
                exprs,
                fields,
                invalid: false,
            },
            _ => CompiledNodeSelectorTerm {
                invalid: true,
                ..Default::default()
            },
        }
    }

    /// An empty or invalid term matches no node.
    pub fn matches(&self, node_name: &str, labels: &Labels) -> bool {
        if self.invalid || (self.exprs.is_empty() && self.fields.is_empty()) {
            return false;
        }
        self.exprs.iter().all(|r| r.matches(labels))
            && self.fields.iter().all(|r| {
                let is_in = r.values.iter().any(|v| v == node_name);
                if r.op == Op::In {
                    is_in
                } else {
                    !is_in
                }
            })
    }
}

impl CompiledNodeSelector {
    pub fn compile(ns: &NodeSelector) -> CompiledNodeSelector {
        CompiledNodeSelector {
            terms: ns.node_selector_terms.iter().map(CompiledNodeSelectorTerm::compile).collect(),
        }
    }
    pub fn matches(&self, node_name: &str, labels: &Labels) -> bool {
        self.terms.iter().any(|t| t.matches(node_name, labels))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::LabelSelectorRequirement;

    fn labels(kv: &[(&str, &str)]) -> Labels {
        kv.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn label_selector_semantics() {
        assert!(!Selector::from_label_selector(None).unwrap().matches(&labels(&[])));
        assert!(Selector::from_label_selector(Some(&LabelSelector::default()))
            .unwrap()
            .matches(&labels(&[("a", "b")])));
        let sel = LabelSelector {
            match_labels: labels(&[("app", "web")]),
            match_expressions: vec![LabelSelectorRequirement {
                key: "tier".into(),
                operator: "NotIn".into(),
                values: vec!["db".into()],
            }],
        };
        let s = Selector::from_label_selector(Some(&sel)).unwrap();
        assert!(s.matches(&labels(&[("app", "web")])));
        assert!(s.matches(&labels(&[("app", "web"), ("tier", "fe")])));
        assert!(!s.matches(&labels(&[("app", "web"), ("tier", "db")])));
        assert!(!s.matches(&labels(&[("app", "db")])));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn node_selector_gt_lt_and_fields() {
        let t = NodeSelectorTerm {
            match_expressions: vec![NodeSelectorRequirement {
                key: "cores".into(),
                operator: "Gt".into(),
                values: vec!["4".into()],
            }],
            match_fields: vec![NodeSelectorRequirement {
                key: "metadata.name".into(),
                operator: "NotIn".into(),
                values: vec!["n2".into()],
            }],
        };
        let c = CompiledNodeSelectorTerm::compile(&t);
        assert!(c.matches("n1", &labels(&[("cores", "8")])));
        assert!(!c.matches("n2", &labels(&[("cores", "8")])));
        assert!(!c.matches("n1", &labels(&[("cores", "4")])));
        assert!(!c.matches("n1", &labels(&[("cores", "x")])));
        assert!(!CompiledNodeSelectorTerm::compile(&NodeSelectorTerm::default()).matches("n1", &labels(&[])));
    }
}
