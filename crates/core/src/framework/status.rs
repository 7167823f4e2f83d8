//! Status: the result of every extension point. Rejection is data, not an error.

use crate::vocabulary::PluginName;
use serde::Serialize;
use std::borrow::Cow;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Code {
    Success,
    Error,
    Unschedulable,
    UnschedulableAndUnresolvable,
    Wait,
    Skip,
    Pending,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Success => "Success",
            Code::Error => "Error",
            Code::Unschedulable => "Unschedulable",
            Code::UnschedulableAndUnresolvable => "UnschedulableAndUnresolvable",
            Code::Wait => "Wait",
            Code::Skip => "Skip",
            Code::Pending => "Pending",
        }
    }
}

pub type Reason = Cow<'static, str>;

/// A status's reasons, in order. Nearly every status has none or one, held in place: a node
/// rejected for a fixed reason ("Insufficient cpu") costs no allocation, and a cycle that
/// rejects thousands of nodes makes thousands of these. Reads as a slice.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Reasons(Held);

#[derive(Clone, Default, PartialEq, Eq)]
enum Held {
    #[default]
    None,
    One(Reason),
    Many(Vec<Reason>),
}

impl Reasons {
    pub const fn new() -> Reasons {
        Reasons(Held::None)
    }
    pub fn push(&mut self, r: Reason) {
        self.0 = match std::mem::take(&mut self.0) {
            Held::None => Held::One(r),
            Held::One(first) => Held::Many(vec![first, r]),
            Held::Many(mut v) => {
                v.push(r);
                Held::Many(v)
            }
        };
    }
    pub fn as_slice(&self) -> &[Reason] {
        match &self.0 {
            Held::None => &[],
            Held::One(r) => std::slice::from_ref(r),
            Held::Many(v) => v,
        }
    }
}

impl std::ops::Deref for Reasons {
    type Target = [Reason];
    fn deref(&self) -> &[Reason] {
        self.as_slice()
    }
}

impl std::fmt::Debug for Reasons {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Reasons {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

impl From<Vec<Reason>> for Reasons {
    fn from(mut v: Vec<Reason>) -> Reasons {
        Reasons(match v.len() {
            0 => Held::None,
            1 => Held::One(v.pop().unwrap_or_default()),
            _ => Held::Many(v),
        })
    }
}

impl FromIterator<Reason> for Reasons {
    fn from_iter<I: IntoIterator<Item = Reason>>(it: I) -> Reasons {
        let mut r = Reasons::new();
        for x in it {
            r.push(x);
        }
        r
    }
}

impl Extend<Reason> for Reasons {
    fn extend<I: IntoIterator<Item = Reason>>(&mut self, it: I) {
        for x in it {
            self.push(x);
        }
    }
}

impl IntoIterator for Reasons {
    type Item = Reason;
    type IntoIter = std::vec::IntoIter<Reason>;
    fn into_iter(self) -> Self::IntoIter {
        match self.0 {
            Held::None => Vec::new().into_iter(),
            Held::One(r) => vec![r].into_iter(),
            Held::Many(v) => v.into_iter(),
        }
    }
}

impl<'a> IntoIterator for &'a Reasons {
    type Item = &'a Reason;
    type IntoIter = std::slice::Iter<'a, Reason>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    pub code: Code,
    #[serde(skip_serializing_if = "<[Reason]>::is_empty")]
    pub reasons: Reasons,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin: Option<PluginName>,
}

impl Default for Status {
    fn default() -> Self {
        Status::success()
    }
}

impl Status {
    pub const fn success() -> Status {
        Status {
            code: Code::Success,
            reasons: Reasons::new(),
            plugin: None,
        }
    }
    pub fn new(code: Code, reason: impl Into<Reason>) -> Status {
        Status {
            code,
            reasons: Reasons(Held::One(reason.into())),
            plugin: None,
        }
    }
    pub fn with_reasons(code: Code, reasons: Reasons) -> Status {
        Status {
            code,
            reasons,
            plugin: None,
        }
    }
    pub fn code_only(code: Code) -> Status {
        Status {
            code,
            reasons: Reasons::new(),
            plugin: None,
        }
    }
    pub fn unschedulable(reason: impl Into<Reason>) -> Status {
        Status::new(Code::Unschedulable, reason)
    }
    pub fn unresolvable(reason: impl Into<Reason>) -> Status {
        Status::new(Code::UnschedulableAndUnresolvable, reason)
    }
    pub fn error(reason: impl Into<Reason>) -> Status {
        Status::new(Code::Error, reason)
    }
    pub fn skip() -> Status {
        Status::code_only(Code::Skip)
    }
    pub fn with_plugin(mut self, p: PluginName) -> Status {
        self.plugin = Some(p);
        self
    }
    pub fn is_success(&self) -> bool {
        self.code == Code::Success
    }
    pub fn is_skip(&self) -> bool {
        self.code == Code::Skip
    }
    pub fn is_wait(&self) -> bool {
        self.code == Code::Wait
    }
    /// Unschedulable, UnschedulableAndUnresolvable or Pending.
    pub fn is_rejected(&self) -> bool {
        matches!(self.code, Code::Unschedulable | Code::UnschedulableAndUnresolvable | Code::Pending)
    }
    /// The reasons joined with ", " (upstream `Status.Message()`).
    pub fn message(&self) -> String {
        self.reasons.join(", ")
    }
}
