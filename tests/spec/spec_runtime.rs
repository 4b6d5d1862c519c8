//! spec/runtime.toml is generated as `euref::spec::runtime` and appears in the spec's ID list,
//! its JSON dump and its Markdown reference (`euref spec`).

use euref::spec::{runtime, ALL_IDS, SPEC_JSON, SPEC_MARKDOWN};

#[test]
fn rows_are_generated_with_constants_and_lookup() {
    assert_eq!(runtime::GRF_OUT_OF_RANGE.id, "runtime.grf-out-of-range");
    assert_eq!(runtime::ACC_WORD_OVERFLOW.undefined, "flags");
    assert_eq!(runtime::ACC_READ_TYPE_MISMATCH.undefined, "dst");
    assert!(runtime::ACC_READ_TYPE_MISMATCH.note.is_some());
    assert!(runtime::ELEMENT_MISALIGNED.note.is_none());
    assert!(runtime::RULES.len() >= 7);
    for r in runtime::RULES {
        assert!(r.id.starts_with("runtime."));
        assert!(!r.msg.is_empty() && !r.cite.is_empty());
        assert!(["dst", "flags", "all", "none"].contains(&r.undefined));
        assert!(std::ptr::eq(runtime::by_id(r.id).unwrap(), r));
        assert!(ALL_IDS
            .iter()
            .any(|(id, f)| id == &r.id && f.ends_with("runtime.toml")));
    }
    assert!(runtime::by_id("runtime.no-such-rule").is_none());
}

#[test]
fn runtime_table_is_in_the_json_dump_and_the_reference() {
    let v: serde_json::Value = serde_json::from_str(SPEC_JSON).unwrap();
    let rows = v["files"]["spec/runtime.toml"]["runtime"]
        .as_array()
        .unwrap();
    assert_eq!(rows.len(), runtime::RULES.len());
    assert_eq!(rows[0]["id"], runtime::RULES[0].id);
    assert!(v["ids"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i == "runtime.indirect-a0-range"));
    let md = SPEC_MARKDOWN;
    let at = md.find("## spec/runtime.toml").expect("a runtime section");
    let section = &md[at..];
    assert!(section.contains("### [[runtime]]"));
    for r in runtime::RULES {
        assert!(section.contains(r.id), "{} not in the reference", r.id);
    }
}

#[test]
fn executor_errors_come_from_the_rows() {
    use euref::exec::{runtime::Violation, ExecError};
    let v = Violation::new(&runtime::ACC_DWORD_OVERFLOW, 0x3);
    assert_eq!(v.rule, "runtime.acc-dword-overflow");
    match v.refusal() {
        ExecError::Runtime { rule, msg } => {
            assert_eq!(rule, runtime::ACC_DWORD_OVERFLOW.id);
            assert!(msg.starts_with(runtime::ACC_DWORD_OVERFLOW.msg));
            assert!(msg.ends_with("channels 0x3"));
        }
        e => panic!("{e:?}"),
    }
}
