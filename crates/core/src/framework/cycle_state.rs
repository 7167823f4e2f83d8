//! Per-cycle plugin state: one typed slot per plugin, cloneable for preemption's what-ifs.

use crate::vocabulary::{PluginName, PluginSet};
use std::any::Any;

/// Anything a plugin stores between its extension points in one scheduling cycle.
pub trait StateData: Any {
    fn clone_box(&self) -> Box<dyn StateData>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone> StateData for T {
    fn clone_box(&self) -> Box<dyn StateData> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

#[derive(Default)]
pub struct CycleState {
    slots: Vec<Option<Box<dyn StateData>>>,
    /// Plugins whose PreFilter returned Skip: their Filter is not run this cycle.
    pub skip_filter: PluginSet,
    /// Plugins whose PreScore returned Skip: their Score is not run this cycle.
    pub skip_score: PluginSet,
    /// The Filter plugins to run, computed once per cycle for the skip set it was made from.
    pub(crate) filter_plan: Option<(PluginSet, Vec<PluginName>)>,
}

impl Clone for CycleState {
    fn clone(&self) -> Self {
        CycleState {
            slots: self.slots.iter().map(|s| s.as_ref().map(|b| (**b).clone_box())).collect(),
            skip_filter: self.skip_filter,
            skip_score: self.skip_score,
            filter_plan: self.filter_plan.clone(),
        }
    }
}

impl CycleState {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn write<T: Any + Clone>(&mut self, plugin: PluginName, data: T) {
        let i = plugin as usize;
        if self.slots.len() <= i {
            // Room for every plugin at the first write: one allocation per cycle, not one
            // per plugin of a higher number than any before.
            self.slots.resize_with((i + 1).max(PluginName::COUNT), || None);
        }
        self.slots[i] = Some(Box::new(data));
    }
    pub fn read<T: Any>(&self, plugin: PluginName) -> Option<&T> {
        let b: &dyn StateData = self.slots.get(plugin as usize)?.as_deref()?;
        b.as_any().downcast_ref::<T>()
    }
    pub fn read_mut<T: Any>(&mut self, plugin: PluginName) -> Option<&mut T> {
        let b: &mut dyn StateData = self.slots.get_mut(plugin as usize)?.as_deref_mut()?;
        b.as_any_mut().downcast_mut::<T>()
    }
    /// `plugin`'s data, written first as `T::default()` when the slot holds no `T`.
    pub fn get_or_insert_default<T: Any + Clone + Default>(&mut self, plugin: PluginName) -> &mut T {
        if self.read::<T>(plugin).is_none() {
            self.write(plugin, T::default());
        }
        self.read_mut::<T>(plugin).expect("just written")
    }
    pub fn delete(&mut self, plugin: PluginName) {
        if let Some(s) = self.slots.get_mut(plugin as usize) {
            *s = None;
        }
    }
}
