//! Tests that need material outside the repository (tests/common/material.rs) skip with a
//! visible notice when it is absent, and fail when CI=true or EUREF_REQUIRE_CORPUS=1 require
//! it. Checked by running this test binary again on a probe test, with the corpus pointed at
//! a folder that does not exist.

use std::process::{Command, Output};

/// The probe the test below runs in a child process: it asks for the corpus, and checks what
/// it is given when it is there.
#[test]
fn probe_corpus() {
    if let Some(root) = crate::material::corpus() {
        assert!(root.join("mesa/asm").is_dir(), "{}", root.display());
    }
}

fn probe(env: &[(&str, &str)]) -> Output {
    let exe = std::env::current_exe().unwrap();
    let mut c = Command::new(exe);
    c.args([
        "--exact",
        "material_gate::probe_corpus",
        "--test-threads",
        "1",
    ])
    .env("EUREF_CORPUS", "/nonexistent/euref-corpus")
    .env_remove("CI")
    .env_remove("EUREF_REQUIRE_CORPUS");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn absent_material_skips_visibly_or_fails_when_required() {
    // Absent and not required: the probe passes, and says on standard error (past the
    // harness's capture) what it skipped and which variable to set.
    let o = probe(&[]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("SKIPPED material_gate::probe_corpus: needs the Mesa corpus")
            && err.contains("/nonexistent/euref-corpus")
            && err.contains("set EUREF_CORPUS"),
        "{err}"
    );
    // Required: the probe fails, naming what is missing.
    for env in [("CI", "true"), ("EUREF_REQUIRE_CORPUS", "1")] {
        let o = probe(&[env]);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!o.status.success(), "{env:?}: {text}");
        assert!(
            text.contains("needs the Mesa corpus") && text.contains("set EUREF_CORPUS"),
            "{env:?}: {text}"
        );
    }
}
