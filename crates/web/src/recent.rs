//! The user's recent scenarios: each scenario of their own that a preset, an import, a file or
//! a link replaced is kept (newest first, the last `MAX`), with a name and the time it was
//! replaced, and the scenario menu offers each back. Pure list handling; `storage` keeps the
//! list in the browser.

use crate::scenario::Saved;
use serde::{Deserialize, Serialize};

/// How many scenarios are kept.
pub const MAX: usize = 5;

/// A scenario kept aside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Kept {
    pub name: String,
    /// When it was replaced (ms since the epoch, the browser's clock).
    pub at_ms: f64,
    pub saved: Saved,
}

/// What keeping a scenario did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Keeping {
    /// Added at the front; the oldest was let go (its name) when the list was full.
    Added { dropped: Option<String> },
    /// The same scenario was kept already: it moved to the front with the new time.
    Again,
}

/// The list after keeping `saved` at `at_ms`.
pub fn keep(mut list: Vec<Kept>, saved: &Saved, at_ms: f64) -> (Vec<Kept>, Keeping) {
    let before = list.len();
    list.retain(|k| k.saved.parts != saved.parts || k.saved.generated != saved.generated);
    let again = list.len() < before;
    list.insert(
        0,
        Kept {
            name: name_of(saved),
            at_ms,
            saved: saved.clone(),
        },
    );
    let dropped = (list.len() > MAX)
        .then(|| list.split_off(MAX))
        .and_then(|d| d.into_iter().next())
        .map(|k| k.name);
    let outcome = if again { Keeping::Again } else { Keeping::Added { dropped } };
    (list, outcome)
}

const NAME_LEN: usize = 48;

/// A short name for a scenario: its first comment line, or what it holds ("3 nodes, 12 pods").
pub fn name_of(saved: &Saved) -> String {
    if let Some(g) = &saved.generated {
        return format!("Generated cluster ({} nodes, {} pods)", g.nodes, g.pods);
    }
    let p = &saved.parts;
    let texts = [&p.other, &p.nodes, &p.pods, &p.config, &p.timeline];
    let comment = texts.iter().find_map(|t| {
        t.lines()
            .map(str::trim)
            .take_while(|l| l.starts_with('#') || l.is_empty() || *l == "---")
            .find_map(|l| l.strip_prefix('#').map(str::trim).filter(|c| !c.is_empty()))
    });
    if let Some(c) = comment {
        return if c.chars().count() > NAME_LEN {
            format!("{}…", c.chars().take(NAME_LEN - 1).collect::<String>().trim_end())
        } else {
            c.to_string()
        };
    }
    let count = |t: &str, kind: &str| {
        t.lines()
            .filter(|l| {
                l.trim_end() == format!("kind: {kind}") || l.contains(&format!("kind: {kind},")) || l.contains(&format!("kind: {kind}}}"))
            })
            .count()
    };
    let all = texts.iter().map(|t| t.as_str()).collect::<Vec<_>>().join("\n");
    let (nodes, pods) = (count(&all, "Node"), count(&all, "Pod"));
    if nodes + pods == 0 {
        return "Untitled scenario".into();
    }
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    // The first node's name tells two clusters of the same size apart.
    let first = p.nodes.split("name:").nth(1).and_then(|rest| {
        let name = rest.trim_start().split(|c: char| c.is_whitespace() || ",}'\"".contains(c)).next()?;
        (!name.is_empty()).then(|| name.to_string())
    });
    match first {
        Some(f) => format!(
            "{}, {} ({f}{})",
            n(nodes, "node"),
            n(pods, "pod"),
            if nodes > 1 { ", …" } else { "" }
        ),
        None => format!("{}, {}", n(nodes, "node"), n(pods, "pod")),
    }
}

/// When it was kept, for the menu: `HH:MM` today, else `D Mon HH:MM`. The arguments are the
/// local calendar fields (year, month 0-11, day, hour, minute) of then and now.
pub fn when(then: (i32, u32, u32, u32, u32), now: (i32, u32, u32, u32, u32)) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let (y, mo, d, h, mi) = then;
    if (y, mo, d) == (now.0, now.1, now.2) {
        format!("{h:02}:{mi:02}")
    } else {
        format!("{d} {} {h:02}:{mi:02}", MONTHS[(mo as usize).min(11)])
    }
}

/// The menu's words for a kept scenario: its name and when it was kept (the browser's clock
/// and time zone).
pub fn label(k: &Kept) -> String {
    let fields = |d: &js_sys::Date| {
        (
            d.get_full_year() as i32,
            d.get_month(),
            d.get_date(),
            d.get_hours(),
            d.get_minutes(),
        )
    };
    let then = js_sys::Date::new(&k.at_ms.into());
    let now = js_sys::Date::new_0();
    format!("↩ {} · {}", k.name, when(fields(&then), fields(&now)))
}

/// The preset list's value for the recent scenario `i`.
pub fn option_value(i: usize) -> String {
    format!("{OPTION_PREFIX}{i}")
}

/// The recent scenario a preset list value names.
pub fn from_option_value(v: &str) -> Option<usize> {
    v.strip_prefix(OPTION_PREFIX)?.parse().ok()
}

const OPTION_PREFIX: &str = "recent:";

/// The sentence that says where the replaced scenario went.
pub fn told(kept: &Kept, keeping: &Keeping, stored: bool) -> String {
    let place = format!("Preset ▸ “↩ {}”", kept.name);
    let mut out = match keeping {
        Keeping::Added { .. } => format!("Your previous scenario is kept: {place}"),
        Keeping::Again => format!("Your previous scenario was kept already: {place}"),
    };
    if let Keeping::Added { dropped: Some(d) } = keeping {
        out.push_str(&format!(" (the oldest of the {MAX} kept, “{d}”, was let go)"));
    }
    if !stored {
        out.push_str(" — for this tab only: the browser's storage refused it");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{split, Parts};

    fn saved(text: &str) -> Saved {
        Saved {
            parts: split(text),
            seed: 1,
            preset: None,
            generated: None,
            controllers: true,
            kubernetes_version: crate::scenario::PRESET_VERSION,
            feature_gates: String::new(),
            lesson: None,
        }
    }

    const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\n";

    #[test]
    fn the_last_five_are_kept_newest_first_and_a_scenario_kept_again_moves_up() {
        let mut list = Vec::new();
        let names: Vec<String> = (1..=6).map(|i| format!("# scenario {i}\n{NODE}")).collect();
        let mut outcomes = Vec::new();
        for (i, n) in names.iter().enumerate() {
            let (l, o) = keep(list, &saved(n), i as f64);
            list = l;
            outcomes.push(o);
        }
        assert_eq!(list.len(), MAX);
        let kept: Vec<&str> = list.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(kept, ["scenario 6", "scenario 5", "scenario 4", "scenario 3", "scenario 2"]);
        assert_eq!(outcomes[4], Keeping::Added { dropped: None });
        assert_eq!(
            outcomes[5],
            Keeping::Added {
                dropped: Some("scenario 1".into())
            }
        );
        // The same scenario again: one entry, at the front, with the new time.
        let (list, o) = keep(list, &saved(&names[3]), 99.0);
        assert_eq!(o, Keeping::Again);
        assert_eq!(list.len(), MAX);
        assert_eq!((list[0].name.as_str(), list[0].at_ms), ("scenario 4", 99.0));
        assert_eq!(list.iter().filter(|k| k.name == "scenario 4").count(), 1);
    }

    #[test]
    fn names_say_what_the_scenario_is() {
        assert_eq!(name_of(&saved(&format!("# Draining a node\n{NODE}"))), "Draining a node");
        let long = format!("# {}\n{NODE}", "x".repeat(80));
        assert_eq!(name_of(&saved(&long)).chars().count(), NAME_LEN);
        let pods = format!(
            "{NODE}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: a}}\n---\n{{apiVersion: v1, kind: Pod, metadata: {{name: b}}}}\n"
        );
        assert_eq!(name_of(&saved(&pods)), "1 node, 2 pods (n)");
        let two = format!("{NODE}---\napiVersion: v1\nkind: Node\nmetadata:\n  name: 'm'\n");
        assert_eq!(name_of(&saved(&two)), "2 nodes, 0 pods (n, …)");
        assert_eq!(
            name_of(&saved("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")),
            "0 nodes, 1 pod"
        );
        assert_eq!(name_of(&saved("")), "Untitled scenario");
        let g = Saved {
            parts: Parts::default(),
            generated: Some(schedlab_view::protocol::GenSpec {
                nodes: 100,
                pods: 300,
                zones: 3,
            }),
            ..saved("")
        };
        assert_eq!(name_of(&g), "Generated cluster (100 nodes, 300 pods)");
    }

    #[test]
    fn the_message_tells_where_the_scenario_went() {
        let (list, o) = keep(Vec::new(), &saved(&format!("# mine\n{NODE}")), 0.0);
        assert_eq!(told(&list[0], &o, true), "Your previous scenario is kept: Preset ▸ “↩ mine”");
        let o = Keeping::Added {
            dropped: Some("old".into()),
        };
        assert_eq!(
            told(&list[0], &o, false),
            "Your previous scenario is kept: Preset ▸ “↩ mine” (the oldest of the 5 kept, “old”, was let go) — for this tab only: the browser's storage refused it"
        );
        assert_eq!(when((2026, 10, 26, 9, 5), (2026, 10, 26, 23, 0)), "09:05");
        assert_eq!(when((2026, 10, 25, 9, 5), (2026, 10, 26, 23, 0)), "25 Nov 09:05");
    }
}
