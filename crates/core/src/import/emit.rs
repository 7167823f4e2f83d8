//! Writing the scenario's YAML: each object with the workspace's one YAML writer
//! (`schedlab_view::yaml`, go-yaml's layout and YAML 1.1 quoting), keys in the object's order.
//! A string is written plain only when it reads back as that same string (`"yes"`, `"0755"`,
//! `"1.0"` and `""` are quoted).

use serde_json::{Map, Value};

/// One object as a YAML document body (no `---`).
pub(super) fn document(obj: &Map<String, Value>) -> String {
    schedlab_view::yaml::to_yaml_in_order(&Value::Object(obj.clone()))
}
