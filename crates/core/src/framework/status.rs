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

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Status {
    pub code: Code,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<Reason>,
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
            reasons: Vec::new(),
            plugin: None,
        }
    }
    pub fn new(code: Code, reason: impl Into<Reason>) -> Status {
        Status {
            code,
            reasons: vec![reason.into()],
            plugin: None,
        }
    }
    pub fn with_reasons(code: Code, reasons: Vec<Reason>) -> Status {
        Status {
            code,
            reasons,
            plugin: None,
        }
    }
    pub fn code_only(code: Code) -> Status {
        Status {
            code,
            reasons: Vec::new(),
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
