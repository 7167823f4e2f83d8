//! The plugins' args as a profile carries them and constructors read them: one slot per
//! plugin name, holding that plugin's own (defaulted, validated) args type, or nothing, which
//! reads as that type's `Default`. The framework never looks inside; each plugin asks for its
//! own type (`args.get_or_default::<FooArgs>()`) when it is built, so nothing here is on the
//! scheduling path.

use crate::vocabulary::PluginName;
use serde::{Serialize, Serializer};
use std::any::Any;
use std::borrow::Cow;
use std::fmt::Debug;
use std::sync::Arc;

/// A plugin's args type as the plugin runs with it (upstream's internal, defaulted type).
/// `Default` is the v1 default of the kind; `PLUGIN` is the slot it lives in.
pub trait Args: Any + Clone + Debug + Default + PartialEq + Serialize + Send + Sync {
    const PLUGIN: PluginName;
}

/// What `PluginArgs` keeps of one slot's value, with its type erased.
trait Slot: Any + Debug + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Slot) -> bool;
    fn is_default(&self) -> bool;
    fn to_json(&self) -> serde_json::Value;
}

impl<T: Args> Slot for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn Slot) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn is_default(&self) -> bool {
        *self == T::default()
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// The args of every plugin of one profile, by plugin name. An empty slot is the plugin's
/// default args (so `PluginArgs::default()` is every plugin at its defaults), and equality
/// reads it that way.
#[derive(Clone, Default)]
pub struct PluginArgs {
    slots: [Option<Arc<dyn Slot>>; PluginName::ALL.len()],
}

impl PluginArgs {
    /// Puts one plugin's args in its slot.
    pub fn set<T: Args>(&mut self, args: T) {
        self.slots[T::PLUGIN as usize] = Some(Arc::new(args));
    }

    /// The args given for `T`'s plugin, if any were.
    pub fn get<T: Args>(&self) -> Option<&T> {
        self.slots[T::PLUGIN as usize]
            .as_deref()
            .and_then(|s| s.as_any().downcast_ref::<T>())
    }

    /// The args of `T`'s plugin: those given, else its defaults.
    pub fn get_or_default<T: Args>(&self) -> Cow<'_, T> {
        match self.get::<T>() {
            Some(a) => Cow::Borrowed(a),
            None => Cow::Owned(T::default()),
        }
    }
}

impl PartialEq for PluginArgs {
    fn eq(&self, other: &Self) -> bool {
        self.slots.iter().zip(&other.slots).all(|(a, b)| match (a, b) {
            (None, None) => true,
            (Some(x), Some(y)) => x.same(y.as_ref()),
            (Some(x), None) | (None, Some(x)) => x.is_default(),
        })
    }
}

impl Debug for PluginArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut m = f.debug_map();
        for (name, slot) in PluginName::ALL.iter().zip(&self.slots) {
            if let Some(s) = slot {
                m.entry(&name.as_str(), s);
            }
        }
        m.finish()
    }
}

/// The given args by plugin name (empty slots left out).
impl Serialize for PluginArgs {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(
            PluginName::ALL
                .iter()
                .zip(&self.slots)
                .filter_map(|(name, slot)| slot.as_ref().map(|v| (name.as_str(), v.to_json()))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize)]
    struct A(i32);
    impl Default for A {
        fn default() -> Self {
            A(7)
        }
    }
    impl Args for A {
        const PLUGIN: PluginName = PluginName::ImageLocality;
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn an_empty_slot_reads_and_compares_as_the_default() {
        let mut a = PluginArgs::default();
        assert_eq!(a.get::<A>(), None);
        assert_eq!(*a.get_or_default::<A>(), A(7));
        a.set(A(7));
        assert_eq!(a, PluginArgs::default());
        a.set(A(8));
        assert_eq!(a.get::<A>(), Some(&A(8)));
        assert_ne!(a, PluginArgs::default());
        assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"ImageLocality":8}"#);
    }
}
