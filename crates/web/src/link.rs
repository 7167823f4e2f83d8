//! The state a link carries in the address's hash: the scenario and the view (playhead, editor
//! tab, lower panel). Versioned, so that every link made since version 1 keeps opening the
//! same way.
//!
//! - Version 1 (the first release): `#s=<payload>`, the scenario only.
//! - Version 2: `#v=2&s=<payload>&cycle=6&phase=Filter&tab=pods&view=events`; every key but
//!   `v` is optional (a link without `s` keeps the visitor's own scenario and only moves the
//!   view). Unknown keys are ignored, so later versions can add some. `ctl=off` turns the
//!   workload controllers off (written only when they are off: on is the default, and links
//!   made before the toggle existed open with them on).
//!
//! `<payload>` is the scenario as JSON, deflate-raw compressed, base64url (`storage::encode`).

/// The version this release writes.
pub const VERSION: u32 = 2;

/// A link's state, as read from (or written to) the hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkState {
    /// The compressed scenario.
    pub payload: Option<String>,
    /// The playhead: cycle (1-based; 0 before the first) and the phase's label.
    pub cycle: Option<u32>,
    pub phase: Option<String>,
    /// The editor tab (`Part::id`).
    pub tab: Option<String>,
    /// The lower panel (`cycle`, `events`, `profiles`).
    pub view: Option<String>,
    /// The workload controllers (`ctl=on|off`); `None` leaves them as the scenario has them.
    pub controllers: Option<bool>,
}

/// Why a hash could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Made by a newer schedlab.
    NewerVersion(String),
    /// A value that is not what its key needs.
    BadValue { key: String, value: String },
}

impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::NewerVersion(v) => write!(
                f,
                "the link was made by a newer version of schedlab (link format {v}; this one reads up to {VERSION})"
            ),
            LinkError::BadValue { key, value } => {
                let shown: String = value.chars().take(40).collect();
                write!(f, "its “{key}” part is not valid (“{shown}”)")
            }
        }
    }
}

/// Reads a hash (with or without the leading `#`). `Ok(None)`: the hash carries no link state.
pub fn parse(hash: &str) -> Result<Option<LinkState>, LinkError> {
    let hash = hash.strip_prefix('#').unwrap_or(hash);
    if hash.is_empty() {
        return Ok(None);
    }
    // Version 1: the payload is everything after `s=`.
    if let Some(payload) = hash.strip_prefix("s=") {
        return Ok(Some(LinkState {
            payload: Some(payload.to_string()),
            ..LinkState::default()
        }));
    }
    let mut pairs = hash.split('&').map(|kv| kv.split_once('=').unwrap_or((kv, "")));
    match pairs.next() {
        Some(("v", v)) => match v.parse::<u32>() {
            Ok(n) if n >= 2 && n <= VERSION => {}
            Ok(n) if n > VERSION => return Err(LinkError::NewerVersion(v.to_string())),
            _ => {
                return Err(LinkError::BadValue {
                    key: "v".into(),
                    value: v.into(),
                })
            }
        },
        // Not ours (an anchor some page added): ignore it.
        _ => return Ok(None),
    }
    let mut st = LinkState::default();
    for (k, v) in pairs {
        let bad = || LinkError::BadValue {
            key: k.to_string(),
            value: v.to_string(),
        };
        match k {
            "s" if !v.is_empty() => st.payload = Some(v.to_string()),
            "cycle" => st.cycle = Some(v.parse().map_err(|_| bad())?),
            "phase" if is_word(v) => st.phase = Some(v.to_string()),
            "tab" if is_word(v) => st.tab = Some(v.to_string()),
            "view" if is_word(v) => st.view = Some(v.to_string()),
            "ctl" => {
                st.controllers = Some(match v {
                    "on" => true,
                    "off" => false,
                    _ => return Err(bad()),
                })
            }
            "phase" | "tab" | "view" | "s" => return Err(bad()),
            _ => {}
        }
    }
    Ok(Some(st))
}

/// Writes the hash (with its `#`) in the current version.
pub fn to_hash(st: &LinkState) -> String {
    let mut out = format!("#v={VERSION}");
    let mut put = |k: &str, v: &str| {
        out.push('&');
        out.push_str(k);
        out.push('=');
        out.push_str(v);
    };
    if let Some(p) = &st.payload {
        put("s", p);
    }
    if let Some(c) = st.cycle {
        put("cycle", &c.to_string());
    }
    for (k, v) in [("phase", &st.phase), ("tab", &st.tab), ("view", &st.view)] {
        if let Some(v) = v.as_deref().filter(|v| is_word(v)) {
            put(k, v);
        }
    }
    if st.controllers == Some(false) {
        put("ctl", "off");
    }
    out
}

/// How many of the payloads a tab wrote to its address it remembers (`remember_own`).
const OWN_KEPT: usize = 3;

/// A short digest of a payload (FNV-1a, 64 bits, hex): what a tab remembers of the payloads it
/// wrote to its own address, instead of the payloads themselves (each up to 32 KB).
fn digest(payload: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in payload.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The list of the payloads a tab wrote to its own address (digests, newest first, space
/// separated: what `sessionStorage` keeps) after it writes `payload`.
///
/// More than the last one: a reload can load the address as it was just before the last
/// write (the write landed while the reload was already under way), and that address is as
/// much the tab's own as the last one.
pub fn remember_own(list: &str, payload: &str) -> String {
    let d = digest(payload);
    let mut out = vec![d.as_str()];
    out.extend(list.split(' ').filter(|x| !x.is_empty() && *x != d).take(OWN_KEPT - 1));
    out.join(" ")
}

/// Whether `payload` is one the tab wrote to its own address (`list`: `remember_own`'s).
pub fn is_own(list: &str, payload: &str) -> bool {
    let d = digest(payload);
    list.split(' ').any(|x| x == d)
}

/// Letters, digits, `-` and `_` only (no escaping needed in a hash).
fn is_word(v: &str) -> bool {
    !v.is_empty() && v.len() <= 40 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_knows_its_last_few_addresses_and_no_other() {
        let mut list = String::new();
        for p in ["tour", "lesson", "lesson-edited", "lesson"] {
            list = remember_own(&list, p);
        }
        // The newest first, each once.
        let kept: Vec<&str> = list.split(' ').collect();
        assert_eq!(kept, [digest("lesson"), digest("lesson-edited"), digest("tour")]);
        // The address from just before the last write is the tab's own (a reload that loads
        // it keeps the autosave, which is newer).
        assert!(is_own(&list, "lesson-edited"));
        assert!(is_own(&list, "lesson"));
        // Pushed out, or never written: a link like any other.
        for p in ["tour", "lesson-", "", "someone else's"] {
            list = remember_own(&list, "x");
            list = remember_own(&list, "y");
            assert!(!is_own(&list, p), "{p}");
        }
        assert_eq!(list.split(' ').count(), OWN_KEPT);
        assert!(!is_own("", "tour"));
        assert_ne!(digest("a"), digest("b"));
    }

    #[test]
    fn version_1_links_keep_opening() {
        assert_eq!(
            parse("#s=abc-_DEF").unwrap(),
            Some(LinkState {
                payload: Some("abc-_DEF".into()),
                ..LinkState::default()
            })
        );
    }

    #[test]
    fn round_trip() {
        let st = LinkState {
            payload: Some("pay-load_1".into()),
            cycle: Some(6),
            phase: Some("Filter".into()),
            tab: Some("pods".into()),
            view: Some("events".into()),
            controllers: None,
        };
        let h = to_hash(&st);
        assert_eq!(h, "#v=2&s=pay-load_1&cycle=6&phase=Filter&tab=pods&view=events");
        assert_eq!(parse(&h).unwrap(), Some(st));
    }

    #[test]
    fn view_only_links_and_unknown_keys() {
        let st = parse("#v=2&cycle=3&later=thing").unwrap().unwrap();
        assert_eq!(st.payload, None);
        assert_eq!(st.cycle, Some(3));
    }

    #[test]
    fn controllers_off_travels_and_on_is_the_default() {
        let mut st = LinkState {
            payload: Some("p".into()),
            controllers: Some(false),
            ..LinkState::default()
        };
        assert_eq!(to_hash(&st), "#v=2&s=p&ctl=off");
        assert_eq!(parse("#v=2&s=p&ctl=off").unwrap(), Some(st.clone()));
        // On is the default: not written, and links without the key leave it alone.
        st.controllers = Some(true);
        assert_eq!(to_hash(&st), "#v=2&s=p");
        assert_eq!(parse("#v=2&s=p").unwrap().unwrap().controllers, None);
        assert_eq!(parse("#v=2&ctl=on").unwrap().unwrap().controllers, Some(true));
        // Keys this version does not know are ignored, next to the ones it knows.
        let st = parse("#v=2&s=p&ctl=off&zoom=3&later").unwrap().unwrap();
        assert_eq!((st.payload.as_deref(), st.controllers), (Some("p"), Some(false)));
        assert_eq!(
            parse("#v=2&ctl=maybe"),
            Err(LinkError::BadValue {
                key: "ctl".into(),
                value: "maybe".into()
            })
        );
    }

    #[test]
    fn what_cannot_be_read_is_said() {
        let cases: [(&str, Result<Option<LinkState>, LinkError>); 5] = [
            ("", Ok(None)),
            ("#section-2", Ok(None)),
            ("#v=9&s=x", Err(LinkError::NewerVersion("9".into()))),
            (
                "#v=2&cycle=six",
                Err(LinkError::BadValue {
                    key: "cycle".into(),
                    value: "six".into(),
                }),
            ),
            (
                "#v=2&phase=<script>",
                Err(LinkError::BadValue {
                    key: "phase".into(),
                    value: "<script>".into(),
                }),
            ),
        ];
        for (hash, want) in cases {
            assert_eq!(parse(hash), want, "{hash}");
        }
        assert!(LinkError::NewerVersion("9".into()).to_string().contains("newer version"));
    }
}
