//! Which Kubernetes minor version's scheduler a run reproduces. Only the name lives here (the
//! page and the worker's protocol carry it); what each version does differently is the
//! engine's (`schedlab_core::version`, one file per version).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A supported kube-scheduler minor version, written `1.34` / `1.35` everywhere (CLI flag,
/// saved scenarios, share links, trace header, JSON output). Ordered oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum KubeVersion {
    #[serde(rename = "1.34")]
    V1_34,
    #[serde(rename = "1.35")]
    V1_35,
}

impl KubeVersion {
    /// Every supported version, oldest first.
    pub const ALL: [KubeVersion; 2] = [KubeVersion::V1_34, KubeVersion::V1_35];
    /// The newest supported version: what a run uses when nothing names one.
    pub const NEWEST: KubeVersion = KubeVersion::V1_35;

    /// `1.34`, as written in flags and files.
    pub fn as_str(self) -> &'static str {
        match self {
            KubeVersion::V1_34 => "1.34",
            KubeVersion::V1_35 => "1.35",
        }
    }

    /// Reads `1.35`, `v1.35` or a patch release of it (`1.35.4`, `v1.35.4`).
    pub fn parse(s: &str) -> Option<KubeVersion> {
        let s = s.trim();
        let s = s.strip_prefix('v').unwrap_or(s);
        KubeVersion::ALL.into_iter().find(|v| {
            s == v.as_str()
                || s.strip_prefix(v.as_str())
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// The supported versions, for messages: `1.34, 1.35`.
    pub fn supported_list() -> String {
        KubeVersion::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
    }
}

impl Default for KubeVersion {
    fn default() -> Self {
        KubeVersion::NEWEST
    }
}

impl fmt::Display for KubeVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let cases: &[(&str, Option<KubeVersion>)] = &[
            ("1.34", Some(KubeVersion::V1_34)),
            ("v1.35", Some(KubeVersion::V1_35)),
            ("1.35.4", Some(KubeVersion::V1_35)),
            ("v1.34.1", Some(KubeVersion::V1_34)),
            ("1.33", None),
            ("1.345", None),
            ("1.35.", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(KubeVersion::parse(text), *want, "{text}");
        }
        for v in KubeVersion::ALL {
            assert_eq!(KubeVersion::parse(&v.to_string()), Some(v));
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{v}\""));
            assert_eq!(serde_json::from_str::<KubeVersion>(&json).unwrap(), v);
        }
        assert_eq!(KubeVersion::NEWEST, *KubeVersion::ALL.last().unwrap());
    }
}
