//! The version tables and feature gates.

use super::*;

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn every_version_has_its_table() {
    for v in KubeVersion::ALL {
        let r = release(v);
        assert_eq!(r.version, v);
        assert!(r.recorded_with.starts_with(&format!("v{v}.")), "{v}: {}", r.recorded_with);
        // Every plugin once in the default profile, and gates listed once each.
        let mut names: Vec<&str> = r.default_plugins.iter().map(|(p, _)| p.as_str()).collect();
        names.sort_unstable();
        // (The unit tests' own plugin and schedlab's extensions are no default ones.)
        let mut all: Vec<&str> = PluginName::ALL
            .iter()
            .filter(|p| **p != PluginName::TestOnlyLabel && !p.is_schedlab_extension())
            .map(|p| p.as_str())
            .collect();
        all.sort_unstable();
        assert_eq!(names, all, "{v}");
        let mut gates: Vec<Gate> = r.gates.iter().map(|(g, _)| *g).collect();
        gates.sort_unstable();
        gates.dedup();
        assert_eq!(gates.len(), r.gates.len(), "{v}: a gate is listed twice");
    }
}

/// The gate defaults each version's README and kube_features.go give.
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn gate_defaults_per_version() {
    use Gate as G;
    let cases: &[(G, Option<bool>, Option<bool>)] = &[
        // (gate, v1.34, v1.35); None: the version does not know it.
        (G::SchedulerAsyncAPICalls, Some(true), Some(false)),
        (G::NominatedNodeNameForExpectation, Some(false), Some(true)),
        (G::ClearingNominatedNodeNameAfterBinding, Some(false), Some(true)),
        (G::OpportunisticBatching, None, Some(true)),
        (G::GangScheduling, None, Some(false)),
        (G::GenericWorkload, None, Some(false)),
        (G::NodeDeclaredFeatures, None, Some(false)),
        (G::DRAPrioritizedList, Some(true), Some(true)),
        (G::DRADeviceBindingConditions, Some(false), Some(false)),
    ];
    for &(g, v134, v135) in cases {
        assert_eq!(release(KubeVersion::V1_34).gate_default(g), v134, "{g} at 1.34");
        assert_eq!(release(KubeVersion::V1_35).gate_default(g), v135, "{g} at 1.35");
        assert_eq!(Features::new(KubeVersion::V1_35).enabled(g), v135.unwrap_or(false), "{g}");
    }
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn feature_gates_flag() {
    let cases: &[(KubeVersion, &str, Result<&str, &str>)] = &[
        (KubeVersion::V1_35, "", Ok("")),
        (KubeVersion::V1_35, "SchedulerAsyncAPICalls=true", Ok("SchedulerAsyncAPICalls=true")),
        // Setting a gate to its default is no override.
        (KubeVersion::V1_35, "OpportunisticBatching=true", Ok("")),
        (
            KubeVersion::V1_35,
            " GangScheduling=true , DRADeviceBindingConditions=t",
            Ok("DRADeviceBindingConditions=true,GangScheduling=true"),
        ),
        (KubeVersion::V1_35, "GangScheduling=true,GangScheduling=false", Ok("")),
        (
            KubeVersion::V1_34,
            "GangScheduling=true",
            Err("unrecognized feature gate: GangScheduling"),
        ),
        (KubeVersion::V1_35, "NoSuchGate=true", Err("unrecognized feature gate: NoSuchGate")),
        (
            KubeVersion::V1_35,
            "GangScheduling=maybe",
            Err("invalid value of GangScheduling=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax"),
        ),
        (KubeVersion::V1_35, "GangScheduling", Err("missing bool value for GangScheduling")),
    ];
    for (v, flag, want) in cases {
        match (Features::with_gates(*v, flag), want) {
            (Ok(f), Ok(o)) => assert_eq!(f.gates().overrides(), *o, "{v} {flag}"),
            (Err(e), Err(w)) => assert!(e.starts_with(w), "{v} {flag}: {e}"),
            (got, _) => panic!("{v} {flag}: got {got:?}, want {want:?}"),
        }
    }
    let f = Features::with_gates(KubeVersion::V1_35, "SchedulerAsyncAPICalls=true").unwrap();
    assert!(f.enabled(Gate::SchedulerAsyncAPICalls));
    assert!(!Features::new(KubeVersion::V1_35).enabled(Gate::SchedulerAsyncAPICalls));
}

/// What each version's table says about the three measured differences (the behaviour itself
/// is tested beside the code that reads each switch).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn behaviour_switches_per_version() {
    let (a, b) = (release(KubeVersion::V1_34), release(KubeVersion::V1_35));
    assert_eq!(a.behaviour.taint_filter_reason, TaintFilterReason::NamesTheTaint);
    assert_eq!(b.behaviour.taint_filter_reason, TaintFilterReason::Generic);
    assert!(a.behaviour.binding_of_nominated_pod_moves_pods);
    assert!(!b.behaviour.binding_of_nominated_pod_moves_pods);
    assert!(!a.has_point(PluginName::DynamicResources, ExtensionPoint::Score));
    assert!(b.has_point(PluginName::DynamicResources, ExtensionPoint::Score));
    let weight = |r: &Release| {
        r.default_plugins
            .iter()
            .find(|(p, _)| *p == PluginName::DynamicResources)
            .unwrap()
            .1
    };
    assert_eq!((weight(a), weight(b)), (None, Some(2)));
}

/// Taking every switch on which two versions differ from the other gives the other's
/// behaviour: the switches cover everything a table decides (what "what changes if I
/// upgrade?" relies on to attribute a difference to one change).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn taking_every_differing_switch_gives_the_other_version() {
    use crate::vocabulary::ExtensionPoint;
    for (a, b) in [(KubeVersion::V1_34, KubeVersion::V1_35), (KubeVersion::V1_35, KubeVersion::V1_34)] {
        let (fa, fb) = (Features::new(a), Features::new(b));
        let switches = fa.differing_switches(&fb);
        let mut mixed = fa.clone();
        for s in &switches {
            mixed = mixed.with_switch_from(&fb, *s);
        }
        assert_eq!(mixed.behaviour(), fb.behaviour(), "{a}→{b}");
        assert_eq!(mixed.default_plugins(), fb.default_plugins(), "{a}→{b}");
        assert_eq!(mixed.missing_args_fields(), fb.missing_args_fields(), "{a}→{b}");
        for p in PluginName::ALL {
            for pt in ExtensionPoint::CONFIGURABLE {
                assert_eq!(mixed.has_point(p, pt), fb.has_point(p, pt), "{a}→{b}: {p:?} {pt:?}");
            }
        }
        for g in Gate::ALL {
            assert_eq!(mixed.enabled(g), fb.enabled(g), "{a}→{b}: {g}");
        }
        assert!(mixed.differing_switches(&fb).is_empty(), "{a}→{b}");
        // The name stays the run's own.
        assert_eq!(mixed.version(), a);
    }
}

/// The switches v1.34 and v1.35 differ on, each described by the upstream change that made
/// it (gates by their values).
#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_switches_between_v1_34_and_v1_35_and_their_reasons() {
    let (a, b) = (Features::new(KubeVersion::V1_34), Features::new(KubeVersion::V1_35));
    let cases: &[(Switch, Option<&str>)] = &[
        (Switch::TaintFilterReason, Some("kubernetes#134740")),
        (Switch::BindingOfNominatedPodMovesPods, Some("kubernetes#134157")),
        (Switch::Plugins, Some("kubernetes#134711")),
        (Switch::ArgsFields, None),
        (Switch::Gate(Gate::ClearingNominatedNodeNameAfterBinding), None),
        (Switch::Gate(Gate::NominatedNodeNameForExpectation), None),
        (Switch::Gate(Gate::OpportunisticBatching), None),
        (Switch::Gate(Gate::SchedulerAsyncAPICalls), None),
    ];
    assert_eq!(a.differing_switches(&b), cases.iter().map(|c| c.0).collect::<Vec<_>>());
    for &(s, upstream) in cases {
        assert_eq!(a.describe_switch(&b, s).0, upstream, "{s:?}");
        assert_eq!(b.describe_switch(&a, s).0, upstream, "{s:?} (downgrade)");
    }
    assert_eq!(
        a.describe_switch(&b, Switch::Gate(Gate::SchedulerAsyncAPICalls)).1,
        "feature gate SchedulerAsyncAPICalls: on in v1.34, off in v1.35"
    );
}
