//! Embedding in another page (`?embed`): the options an author puts in the iframe's address,
//! read and written here (pure, tested natively), and whether the visitor asked for less motion.
//! How an embed starts and pauses out of view is the player's (`crate::player`, `StartUp`,
//! `Intent::Visible`; `crate::playback::watch_visibility` observes it).
//!
//! Address: `?embed&autoplay=0&speed=3&cycle=4&phase=Filter&panels=cluster,cycle&theme=dark&height=500`
//! (every option is optional; the scenario travels in the hash as a share link's `#s=` payload,
//! or as `preset=<id>`).

use crate::theme::Theme;
use schedlab_view::view::Stage;

/// Which panels an embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Panels {
    pub cluster: bool,
    pub queue: bool,
    pub cycle: bool,
    pub events: bool,
}

impl Default for Panels {
    fn default() -> Self {
        Panels {
            cluster: true,
            queue: true,
            cycle: true,
            events: false,
        }
    }
}

impl Panels {
    pub const NAMES: [&'static str; 4] = ["cluster", "queue", "cycle", "events"];

    pub fn get(&self, name: &str) -> bool {
        match name {
            "cluster" => self.cluster,
            "queue" => self.queue,
            "cycle" => self.cycle,
            "events" => self.events,
            _ => false,
        }
    }

    pub fn set(&mut self, name: &str, on: bool) {
        match name {
            "cluster" => self.cluster = on,
            "queue" => self.queue = on,
            "cycle" => self.cycle = on,
            "events" => self.events = on,
            _ => {}
        }
    }

    /// A comma-separated list (`cluster,cycle`); unknown names are ignored, and a list that
    /// names no panel gives the default.
    pub fn parse(list: &str) -> Panels {
        let mut p = Panels {
            cluster: false,
            queue: false,
            cycle: false,
            events: false,
        };
        let mut any = false;
        for name in list.split(',').map(str::trim) {
            let name = name.to_ascii_lowercase();
            if Self::NAMES.contains(&name.as_str()) {
                p.set(&name, true);
                any = true;
            }
        }
        if any {
            p
        } else {
            Panels::default()
        }
    }

    pub fn list(&self) -> String {
        Self::NAMES.iter().filter(|n| self.get(n)).copied().collect::<Vec<_>>().join(",")
    }
}

/// Playback speeds an embed accepts (the transport's 1–4).
pub const SPEED_RANGE: std::ops::RangeInclusive<u8> = 1..=4;
pub const DEFAULT_SPEED: u8 = 2;

/// The options of an embedded playground, as its address carries them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbedOptions {
    /// Start playing once loaded and visible (never with prefers-reduced-motion).
    pub autoplay: bool,
    /// 1–4, as the transport's speed buttons (1×, 2×, 4×, 16×).
    pub speed: u8,
    /// Start at this cycle (1-based; 0 = before the first) ...
    pub cycle: Option<u32>,
    /// ... and phase (a stage as the pipeline names it: Filter, Score, PostFilter, Bind …).
    pub phase: Option<Stage>,
    pub panels: Panels,
    /// None: the visitor's own preference.
    pub theme: Option<Theme>,
    /// The iframe's height the author chose (for the snippet; the page fits any height).
    pub height: Option<u32>,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        EmbedOptions {
            autoplay: true,
            speed: DEFAULT_SPEED,
            cycle: None,
            phase: None,
            panels: Panels::default(),
            theme: None,
            height: None,
        }
    }
}

/// `a%2Cb` → `a,b` (percent-decoding of a query value; `+` is a space).
fn unescape(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => match u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or(""), 16) {
                Ok(x) => {
                    out.push(x);
                    i += 3;
                    continue;
                }
                Err(_) => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The query's `(name, value)` pairs (`?a=1&b` → `[("a","1"), ("b","")]`).
pub fn query_pairs(search: &str) -> Vec<(String, String)> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (unescape(k), unescape(v))
        })
        .collect()
}

fn flag(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" | "" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// Where a page starts: a cycle and, optionally, a phase in it (`cycle=4&phase=Filter`).
pub fn start_from_query(search: &str) -> Option<(u32, Option<Stage>)> {
    let o = EmbedOptions::from_query(search);
    o.cycle.map(|c| (c, o.phase))
}

impl EmbedOptions {
    /// Reads the options from a query string (`?embed&speed=3…`, with or without the `?`).
    /// Unknown or malformed values are ignored (the default stays).
    pub fn from_query(search: &str) -> EmbedOptions {
        let mut o = EmbedOptions::default();
        for (k, v) in query_pairs(search) {
            match k.as_str() {
                "autoplay" => {
                    if let Some(b) = flag(&v) {
                        o.autoplay = b;
                    }
                }
                "speed" => {
                    if let Ok(s) = v.trim().parse::<u8>() {
                        if SPEED_RANGE.contains(&s) {
                            o.speed = s;
                        }
                    }
                }
                "cycle" => o.cycle = v.trim().parse().ok(),
                "phase" => o.phase = Stage::from_name(v.trim()),
                "panels" => o.panels = Panels::parse(&v),
                "theme" => {
                    o.theme = match v.to_ascii_lowercase().as_str() {
                        "dark" => Some(Theme::Dark),
                        "light" => Some(Theme::Light),
                        _ => None,
                    }
                }
                "height" => o.height = v.trim().parse().ok().filter(|&h: &u32| h > 0),
                _ => {}
            }
        }
        if o.cycle.is_none() {
            o.phase = None;
        }
        o
    }

    /// The query string (without `?`) that reads back as these options: `embed` and only the
    /// options that differ from the defaults.
    pub fn to_query(&self) -> String {
        let d = EmbedOptions::default();
        let mut q = vec!["embed".to_string()];
        if self.autoplay != d.autoplay {
            q.push(format!("autoplay={}", u8::from(self.autoplay)));
        }
        if self.speed != d.speed && SPEED_RANGE.contains(&self.speed) {
            q.push(format!("speed={}", self.speed));
        }
        if let Some(c) = self.cycle {
            q.push(format!("cycle={c}"));
            if let Some(p) = self.phase {
                q.push(format!("phase={}", p.label()));
            }
        }
        if self.panels != d.panels {
            q.push(format!("panels={}", self.panels.list()));
        }
        if let Some(t) = self.theme {
            q.push(format!("theme={}", if t == Theme::Dark { "dark" } else { "light" }));
        }
        if let Some(h) = self.height {
            q.push(format!("height={h}"));
        }
        q.join("&")
    }
}

/// Whether the visitor asked for less motion.
pub fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn defaults_when_the_address_says_nothing() {
        assert_eq!(EmbedOptions::from_query("?embed"), EmbedOptions::default());
        assert_eq!(EmbedOptions::from_query(""), EmbedOptions::default());
        assert_eq!(EmbedOptions::default().to_query(), "embed");
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn reads_every_option() {
        let o = EmbedOptions::from_query("?embed&autoplay=0&speed=3&cycle=4&phase=PostFilter&panels=cluster,events&theme=dark&height=500");
        assert_eq!(
            o,
            EmbedOptions {
                autoplay: false,
                speed: 3,
                cycle: Some(4),
                phase: Some(Stage::PostFilter),
                panels: Panels {
                    cluster: true,
                    queue: false,
                    cycle: false,
                    events: true
                },
                theme: Some(Theme::Dark),
                height: Some(500),
            }
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn round_trips_through_the_query() {
        let cases = [
            EmbedOptions::default(),
            EmbedOptions {
                autoplay: false,
                speed: 4,
                cycle: Some(0),
                phase: None,
                panels: Panels {
                    cluster: true,
                    queue: false,
                    cycle: true,
                    events: true,
                },
                theme: Some(Theme::Light),
                height: Some(360),
            },
            EmbedOptions {
                cycle: Some(12),
                phase: Some(Stage::Failed),
                ..EmbedOptions::default()
            },
        ];
        for o in cases {
            let q = o.to_query();
            assert_eq!(EmbedOptions::from_query(&q), o, "{q}");
            assert_eq!(EmbedOptions::from_query(&format!("?{q}&preset=tour")), o, "{q}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn ignores_what_it_cannot_read() {
        let o = EmbedOptions::from_query("?embed&speed=9&autoplay=maybe&theme=pink&cycle=x&phase=Filter&height=-3&panels=nope");
        assert_eq!(o, EmbedOptions::default());
        // A phase without a cycle means nothing.
        assert_eq!(EmbedOptions::from_query("?embed&phase=Score").phase, None);
        // Phase names as the pipeline shows them, any case; percent-encoded lists.
        let o = EmbedOptions::from_query("?embed&cycle=2&phase=normalizescore&panels=cycle%2Cqueue");
        assert_eq!(o.phase, Some(Stage::NormalizeScore));
        assert_eq!(o.panels.list(), "queue,cycle");
        assert!(o.autoplay);
        assert!(EmbedOptions::from_query("?embed&autoplay").autoplay);
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_start_position_alone() {
        assert_eq!(start_from_query("?cycle=6&phase=Bind"), Some((6, Some(Stage::Bind))));
        assert_eq!(start_from_query("?cycle=6"), Some((6, None)));
        assert_eq!(start_from_query("?phase=Bind"), None);
    }
}
