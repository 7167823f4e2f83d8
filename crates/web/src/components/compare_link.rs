//! The compare view in the address: `?compare=seed-N`, `?compare=version-1.35` or `?compare=config-<the configuration,
//! URI-encoded>` in the query (which the address keeper leaves as it is while it rewrites the
//! hash), so copying the address — or Share — opens the same comparison.

use crate::protocol::CompareWith;

/// The comparison the address asks for.
pub fn read() -> Option<CompareWith> {
    let search = web_sys::window()?.location().search().ok()?;
    let value = search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("compare="))?;
    if let Some(v) = value.strip_prefix("version-") {
        return schedlab_view::KubeVersion::parse(v).map(CompareWith::Version);
    }
    if let Some(n) = value.strip_prefix("seed-") {
        return n.parse().ok().map(CompareWith::Seed);
    }
    let text = js_sys::decode_uri_component(value.strip_prefix("config-")?).ok()?.as_string()?;
    Some(CompareWith::Config(text))
}

/// The query's `compare=…` pair for a comparison (none for another scenario text, which no
/// address carries).
pub fn pair(with: &CompareWith) -> Option<String> {
    match with {
        CompareWith::Seed(n) => Some(format!("compare=seed-{n}")),
        CompareWith::Version(v) => Some(format!("compare=version-{v}")),
        CompareWith::Config(c) => Some(format!("compare=config-{}", String::from(js_sys::encode_uri_component(c)))),
        CompareWith::Text(_) => None,
    }
}

/// Writes (or, with `None`, removes) the comparison in the address.
pub fn write(with: Option<&CompareWith>) {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return;
    };
    let search = loc.search().unwrap_or_default();
    let mut keys: Vec<String> = search
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("compare="))
        .map(str::to_string)
        .collect();
    keys.extend(with.and_then(pair));
    let query = if keys.is_empty() {
        String::new()
    } else {
        format!("?{}", keys.join("&"))
    };
    crate::storage::replace_url(&format!(
        "{}{}{}",
        loc.pathname().unwrap_or_default(),
        query,
        loc.hash().unwrap_or_default()
    ));
}
