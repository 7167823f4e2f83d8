//! Words shared by configuration, framework, plugins, queue, trace and views: the in-tree plugin
//! names, sets of them, the extension points, and the v1 `Plugins` shape a profile is
//! configured with.
//!
//! A leaf: this module imports nothing from the crate (checked by the architecture test
//! `imports_run_one_way`). What a plugin *is* (its extension points, args, constructor,
//! explanations) is in its descriptor, `plugins::registry`.

use serde::{Serialize, Serializer};
use std::fmt;

/// Declares `PluginName` from one list of variants: the enum, `ALL` (discriminant order),
/// `COUNT`, and each name as kube-scheduler spells it (the variant's own spelling, or the
/// string after `=`: a schedlab extension's qualified name). An attribute on an entry
/// (`#[cfg(test)]`) applies everywhere the entry is used.
macro_rules! plugin_names {
    ($($(#[$attr:meta])* $name:ident $(= $spelling:literal)?,)*) => {
        /// Every in-tree plugin of kube-scheduler, then schedlab's own (`is_schedlab_extension`).
        /// The discriminant indexes the registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum PluginName {
            $($(#[$attr])* $name,)*
        }

        impl PluginName {
            /// How many plugins there are.
            pub const COUNT: usize = [$($(#[$attr])* PluginName::$name,)*].len();
            /// Every name, in discriminant order.
            pub const ALL: [PluginName; PluginName::COUNT] = [$($(#[$attr])* PluginName::$name,)*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($(#[$attr])* PluginName::$name => spelling!($name $(, $spelling)?),)*
                }
            }
        }
    };
}

/// A plugin's spelling: its variant's, unless it gives its own.
macro_rules! spelling {
    ($name:ident) => {
        stringify!($name)
    };
    ($name:ident, $spelling:literal) => {
        $spelling
    };
}

// The one list of plugin names; a new plugin adds its line here, in the registry's order
// (`plugins/mod.rs`), which is the order of the discriminants.
plugin_names! {
    PrioritySort,
    SchedulingGates,
    NodeUnschedulable,
    NodeName,
    TaintToleration,
    NodeAffinity,
    NodePorts,
    NodeResourcesFit,
    VolumeRestrictions,
    NodeVolumeLimits,
    VolumeBinding,
    VolumeZone,
    PodTopologySpread,
    InterPodAffinity,
    DefaultPreemption,
    NodeResourcesBalancedAllocation,
    ImageLocality,
    DefaultBinder,
    DynamicResources,
    // schedlab's own plugins (not kube-scheduler's): qualified names under `schedlab.dev/`
    // (`PluginName::is_schedlab_extension`), after every in-tree one.
    Cel = "schedlab.dev/CEL",
    // A plugin of the unit tests only, following "How to add a plugin" (ARCHITECTURE.md).
    #[cfg(test)]
    TestOnlyLabel,
}

/// The prefix of a schedlab extension's name.
pub const EXTENSION_PREFIX: &str = "schedlab.dev/";

impl PluginName {
    pub fn parse(s: &str) -> Option<PluginName> {
        PluginName::ALL.iter().copied().find(|p| p.as_str() == s)
    }

    /// Whether this is a plugin of schedlab's own, which kube-scheduler does not have (a real
    /// cluster needs a Go plugin compiled into its scheduler for it): its name is qualified
    /// with `schedlab.dev/`, which no in-tree name is.
    pub fn is_schedlab_extension(self) -> bool {
        self.as_str().starts_with(EXTENSION_PREFIX)
    }
}

impl fmt::Display for PluginName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for PluginName {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Words of a `PluginSet`'s bits: enough for every plugin.
const SET_WORDS: usize = PluginName::COUNT.div_ceil(64);

/// A set of plugin names (a bit set, as wide as there are plugins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PluginSet([u64; SET_WORDS]);

impl PluginSet {
    fn bit(p: PluginName) -> (usize, u64) {
        (p as usize / 64, 1 << (p as usize % 64))
    }
    pub fn insert(&mut self, p: PluginName) {
        let (w, b) = PluginSet::bit(p);
        self.0[w] |= b;
    }
    pub fn remove(&mut self, p: PluginName) {
        let (w, b) = PluginSet::bit(p);
        self.0[w] &= !b;
    }
    pub fn contains(&self, p: PluginName) -> bool {
        let (w, b) = PluginSet::bit(p);
        self.0[w] & b != 0
    }
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
    pub fn clear(&mut self) {
        self.0 = [0; SET_WORDS];
    }
    pub fn union(mut self, o: PluginSet) -> PluginSet {
        for (w, o) in self.0.iter_mut().zip(o.0) {
            *w |= o;
        }
        self
    }
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Members in name order (as upstream's sorted sets print).
    pub fn sorted_names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.iter().map(|p| p.as_str()).collect();
        crate::sort::sort(&mut v);
        v
    }
    pub fn iter(&self) -> impl Iterator<Item = PluginName> + '_ {
        PluginName::ALL.iter().copied().filter(move |p| self.contains(*p))
    }
}

impl Serialize for PluginSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.sorted_names())
    }
}

/// The framework's extension points, and EnqueueExtensions (a plugin that registers cluster
/// events with queueing hints), which is an interface a plugin implements like the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExtensionPoint {
    PreEnqueue,
    QueueSort,
    PreFilter,
    Filter,
    PostFilter,
    PreScore,
    Score,
    Reserve,
    Permit,
    PreBind,
    Bind,
    PostBind,
    EnqueueExtensions,
}

impl ExtensionPoint {
    /// The twelve configurable extension points, in the v1 `Plugins` field order.
    pub const CONFIGURABLE: [ExtensionPoint; 12] = [
        ExtensionPoint::PreEnqueue,
        ExtensionPoint::QueueSort,
        ExtensionPoint::PreFilter,
        ExtensionPoint::Filter,
        ExtensionPoint::PostFilter,
        ExtensionPoint::PreScore,
        ExtensionPoint::Score,
        ExtensionPoint::Reserve,
        ExtensionPoint::Permit,
        ExtensionPoint::PreBind,
        ExtensionPoint::Bind,
        ExtensionPoint::PostBind,
    ];

    /// The order in which the framework fills (and checks) the extension points.
    pub const FRAMEWORK_ORDER: [ExtensionPoint; 12] = [
        ExtensionPoint::PreFilter,
        ExtensionPoint::Filter,
        ExtensionPoint::PostFilter,
        ExtensionPoint::Reserve,
        ExtensionPoint::PreScore,
        ExtensionPoint::Score,
        ExtensionPoint::PreBind,
        ExtensionPoint::Bind,
        ExtensionPoint::PostBind,
        ExtensionPoint::Permit,
        ExtensionPoint::PreEnqueue,
        ExtensionPoint::QueueSort,
    ];

    /// The name of the phase (`Filter`, `PreScore`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ExtensionPoint::PreEnqueue => "PreEnqueue",
            ExtensionPoint::QueueSort => "QueueSort",
            ExtensionPoint::PreFilter => "PreFilter",
            ExtensionPoint::Filter => "Filter",
            ExtensionPoint::PostFilter => "PostFilter",
            ExtensionPoint::PreScore => "PreScore",
            ExtensionPoint::Score => "Score",
            ExtensionPoint::Reserve => "Reserve",
            ExtensionPoint::Permit => "Permit",
            ExtensionPoint::PreBind => "PreBind",
            ExtensionPoint::Bind => "Bind",
            ExtensionPoint::PostBind => "PostBind",
            ExtensionPoint::EnqueueExtensions => "EnqueueExtensions",
        }
    }

    /// The Go interface a plugin implements for it (`FilterPlugin`), as kube-scheduler's
    /// framework errors name it.
    pub fn interface_name(self) -> &'static str {
        match self {
            ExtensionPoint::PreEnqueue => "PreEnqueuePlugin",
            ExtensionPoint::QueueSort => "QueueSortPlugin",
            ExtensionPoint::PreFilter => "PreFilterPlugin",
            ExtensionPoint::Filter => "FilterPlugin",
            ExtensionPoint::PostFilter => "PostFilterPlugin",
            ExtensionPoint::PreScore => "PreScorePlugin",
            ExtensionPoint::Score => "ScorePlugin",
            ExtensionPoint::Reserve => "ReservePlugin",
            ExtensionPoint::Permit => "PermitPlugin",
            ExtensionPoint::PreBind => "PreBindPlugin",
            ExtensionPoint::Bind => "BindPlugin",
            ExtensionPoint::PostBind => "PostBindPlugin",
            ExtensionPoint::EnqueueExtensions => "EnqueueExtensions",
        }
    }

    /// The v1 `Plugins` field of its plugin set (`filter`, `preScore`, ...).
    pub fn config_key(self) -> &'static str {
        match self {
            ExtensionPoint::PreEnqueue => "preEnqueue",
            ExtensionPoint::QueueSort => "queueSort",
            ExtensionPoint::PreFilter => "preFilter",
            ExtensionPoint::Filter => "filter",
            ExtensionPoint::PostFilter => "postFilter",
            ExtensionPoint::PreScore => "preScore",
            ExtensionPoint::Score => "score",
            ExtensionPoint::Reserve => "reserve",
            ExtensionPoint::Permit => "permit",
            ExtensionPoint::PreBind => "preBind",
            ExtensionPoint::Bind => "bind",
            ExtensionPoint::PostBind => "postBind",
            ExtensionPoint::EnqueueExtensions => "enqueueExtensions",
        }
    }
}

/// The field of a per-point structure (the v1 `Plugins` shape: `PluginsCfg`, the framework's
/// `ExpandedPlugins`) that holds an extension point's entry, borrowed as `&` or `&mut`: the
/// one table from points to those fields. EnqueueExtensions has no field: PostBind's is given,
/// as nothing asks for it.
macro_rules! point_field {
    (@ $point:expr, $s:ident, [$($r:tt)+]) => {
        match $point {
            ExtensionPoint::PreEnqueue => $($r)+ $s.pre_enqueue,
            ExtensionPoint::QueueSort => $($r)+ $s.queue_sort,
            ExtensionPoint::PreFilter => $($r)+ $s.pre_filter,
            ExtensionPoint::Filter => $($r)+ $s.filter,
            ExtensionPoint::PostFilter => $($r)+ $s.post_filter,
            ExtensionPoint::PreScore => $($r)+ $s.pre_score,
            ExtensionPoint::Score => $($r)+ $s.score,
            ExtensionPoint::Reserve => $($r)+ $s.reserve,
            ExtensionPoint::Permit => $($r)+ $s.permit,
            ExtensionPoint::PreBind => $($r)+ $s.pre_bind,
            ExtensionPoint::Bind => $($r)+ $s.bind,
            ExtensionPoint::PostBind | ExtensionPoint::EnqueueExtensions => $($r)+ $s.post_bind,
        }
    };
    ($point:expr, &mut $s:ident) => {
        point_field!(@ $point, $s, [&mut])
    };
    ($point:expr, & $s:ident) => {
        point_field!(@ $point, $s, [&])
    };
}
pub(crate) use point_field;

/// A set of extension points (what one plugin implements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExtensionPoints(u16);

impl ExtensionPoints {
    pub const fn of(points: &[ExtensionPoint]) -> ExtensionPoints {
        let mut bits = 0u16;
        let mut i = 0;
        while i < points.len() {
            bits |= 1 << points[i] as u16;
            i += 1;
        }
        ExtensionPoints(bits)
    }
    pub fn contains(self, p: ExtensionPoint) -> bool {
        self.0 & (1 << p as u16) != 0
    }
    /// Members in declaration order.
    pub fn iter(self) -> impl Iterator<Item = ExtensionPoint> {
        ExtensionPoint::CONFIGURABLE
            .into_iter()
            .chain([ExtensionPoint::EnqueueExtensions])
            .filter(move |p| self.contains(*p))
    }
}

/// One entry of a v1 plugin set: a plugin's name (as written; it may name no plugin) and
/// its score weight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginRef {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<i32>,
}

impl PluginRef {
    pub fn new(name: &str, weight: Option<i32>) -> PluginRef {
        PluginRef {
            name: name.to_string(),
            weight,
        }
    }
}

/// A v1 `PluginSet`: enabled and disabled names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginSetCfg {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub enabled: Vec<PluginRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disabled: Vec<String>,
}

/// The v1 `Plugins` structure.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PluginsCfg {
    pub pre_enqueue: PluginSetCfg,
    pub queue_sort: PluginSetCfg,
    pub pre_filter: PluginSetCfg,
    pub filter: PluginSetCfg,
    pub post_filter: PluginSetCfg,
    pub pre_score: PluginSetCfg,
    pub score: PluginSetCfg,
    pub reserve: PluginSetCfg,
    pub permit: PluginSetCfg,
    pub pre_bind: PluginSetCfg,
    pub bind: PluginSetCfg,
    pub post_bind: PluginSetCfg,
    pub multi_point: PluginSetCfg,
}

impl PluginsCfg {
    /// (extension point, its set) for every configurable extension point, in field order.
    pub fn points(&self) -> [(ExtensionPoint, &PluginSetCfg); 12] {
        ExtensionPoint::CONFIGURABLE.map(|p| (p, self.set(p)))
    }

    /// The set of one configurable extension point (EnqueueExtensions has none: PostBind's
    /// is returned, as no plugin set can be asked for it).
    pub fn set(&self, point: ExtensionPoint) -> &PluginSetCfg {
        point_field!(point, &self)
    }

    /// multiPoint, then every extension point's set, for merging.
    pub fn sets_mut(&mut self) -> [&mut PluginSetCfg; 13] {
        [
            &mut self.multi_point,
            &mut self.pre_enqueue,
            &mut self.queue_sort,
            &mut self.pre_filter,
            &mut self.filter,
            &mut self.post_filter,
            &mut self.pre_score,
            &mut self.score,
            &mut self.reserve,
            &mut self.permit,
            &mut self.pre_bind,
            &mut self.bind,
            &mut self.post_bind,
        ]
    }

    /// Names enabled anywhere (any extension point or multiPoint), sorted and deduplicated.
    pub fn enabled_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .points()
            .iter()
            .flat_map(|(_, s)| s.enabled.iter())
            .chain(self.multi_point.enabled.iter())
            .map(|r| r.name.clone())
            .collect();
        crate::sort::sort(&mut names);
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_follow_the_discriminants() {
        for (i, p) in PluginName::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
            assert_eq!(PluginName::parse(p.as_str()), Some(*p));
        }
        assert_eq!(PluginName::parse("nodeResourcesFit"), None);
    }

    #[test]
    fn extension_point_sets_hold_what_they_were_built_of() {
        let s = ExtensionPoints::of(&[ExtensionPoint::Filter, ExtensionPoint::EnqueueExtensions]);
        assert!(s.contains(ExtensionPoint::Filter) && s.contains(ExtensionPoint::EnqueueExtensions));
        assert!(!s.contains(ExtensionPoint::PreFilter));
        assert_eq!(
            s.iter().collect::<Vec<_>>(),
            [ExtensionPoint::Filter, ExtensionPoint::EnqueueExtensions]
        );
    }
}
