//! The in-tree registry, `IN_TREE`: one descriptor per plugin, each declared in the plugin's
//! folder and listed once, in `plugins/mod.rs`. Configuration, framework, queue, views and the
//! page's labels iterate it.

pub use super::IN_TREE;

/// Whether `name` (as a configuration spells it) is a schedlab extension: a plugin of
/// schedlab's own that a real kube-scheduler does not have (`schedlab.dev/CEL`).
pub fn is_schedlab_extension(name: &str) -> bool {
    IN_TREE.is_schedlab_extension(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::PluginName;

    #[test]
    fn descriptors_sit_at_their_names_index() {
        for (i, d) in IN_TREE.iter().enumerate() {
            assert_eq!(d.name as usize, i, "{}", d.name);
            assert_eq!(IN_TREE.get(d.name).name, d.name);
            assert_eq!(IN_TREE.find(d.name.as_str()).map(|x| x.name), Some(d.name));
        }
        assert_eq!(IN_TREE.iter().count(), PluginName::ALL.len());
    }

    /// An explainer speaks for cells of a point the plugin runs at: a filter explainer for a
    /// Filter plugin, a score explainer for a Score plugin.
    #[test]
    fn explainers_explain_points_the_plugin_implements() {
        use crate::vocabulary::ExtensionPoint;
        for d in IN_TREE.iter() {
            if d.explain.filter.is_some() {
                assert!(d.implements(ExtensionPoint::Filter), "{}", d.name);
            }
            if d.explain.score.is_some() {
                assert!(d.implements(ExtensionPoint::Score), "{}", d.name);
            }
        }
    }

    #[test]
    fn schedlab_extensions_are_named_so() {
        assert!(is_schedlab_extension("schedlab.dev/CEL"));
        assert!(!is_schedlab_extension("NodeResourcesFit"));
        assert!(!is_schedlab_extension("schedlab.dev/Nothing"), "not a plugin");
        let ext: Vec<&str> = PluginName::ALL.iter().filter(|p| p.is_schedlab_extension()).map(|p| p.as_str()).collect();
        assert_eq!(ext, ["schedlab.dev/CEL"]);
    }

    #[test]
    fn every_plugin_builds_from_default_args_under_its_name() {
        let args = crate::config::PluginArgs::default();
        for d in IN_TREE.iter() {
            assert_eq!((d.new)(&args, &crate::version::Features::default()).name(), d.name);
        }
    }
}
