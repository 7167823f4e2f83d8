//! The page's colour theme.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    /// The visitor's stored choice, or else what the browser prefers.
    pub fn initial() -> Theme {
        match crate::storage::load_theme().as_deref() {
            Some("dark") => Theme::Dark,
            Some("light") => Theme::Light,
            _ => {
                let dark = web_sys::window()
                    .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
                    .map(|m| m.matches())
                    .unwrap_or(false);
                if dark {
                    Theme::Dark
                } else {
                    Theme::Light
                }
            }
        }
    }
}
