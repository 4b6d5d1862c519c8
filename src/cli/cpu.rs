//! The processor check of a build for a newer x86-64 level (`.cargo/config.toml` builds for
//! x86-64-v3): a processor without one of the instructions the build was compiled with gets a
//! clear error at start, not an illegal-instruction crash somewhere later.

/// Apply `$m!(feature)` to every x86-64-v3 feature (the levels' lists: x86-64-v2 and v3 of the
/// x86-64 psABI).
#[cfg(target_arch = "x86_64")]
macro_rules! each_feature {
    ($f:ident) => {
        [
            $f!("sse3"),
            $f!("ssse3"),
            $f!("sse4.1"),
            $f!("sse4.2"),
            $f!("popcnt"),
            $f!("cmpxchg16b"),
            $f!("avx"),
            $f!("avx2"),
            $f!("bmi1"),
            $f!("bmi2"),
            $f!("f16c"),
            $f!("fma"),
            $f!("lzcnt"),
            $f!("movbe"),
            $f!("xsave"),
        ]
    };
}

/// The features the build was compiled with, each with whether `has` says the processor has
/// it.
#[cfg(target_arch = "x86_64")]
fn compiled_with(has: impl Fn(&str) -> bool) -> Vec<(&'static str, bool)> {
    macro_rules! entry {
        ($name:tt) => {
            (cfg!(target_feature = $name), $name)
        };
    }
    each_feature!(entry)
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| (name, has(name)))
        .collect()
}

/// Whether this processor has `name` (one of [`each_feature`]'s).
#[cfg(target_arch = "x86_64")]
fn detected(name: &str) -> bool {
    macro_rules! entry {
        ($name:tt) => {
            ($name, std::arch::is_x86_feature_detected!($name))
        };
    }
    each_feature!(entry)
        .into_iter()
        .any(|(n, on)| n == name && on)
}

/// The features the build needs and the processor lacks, as an error.
fn missing(has: impl Fn(&str) -> bool) -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    {
        let lacking: Vec<&str> = compiled_with(has)
            .into_iter()
            .filter(|(_, on)| !on)
            .map(|(n, _)| n)
            .collect();
        if !lacking.is_empty() {
            return Err(format!(
                "this build of euref uses processor instructions this processor lacks ({}); \
                 build it for the baseline instead: RUSTFLAGS=\"-C target-cpu=x86-64\" cargo \
                 build --release (see .cargo/config.toml)",
                lacking.join(", ")
            ));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = has;
    Ok(())
}

/// Check this processor against the build (Err: what it lacks and how to build for it).
pub fn check() -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    {
        missing(detected)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        missing(|_| true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A processor with every feature passes; one with none fails, naming every feature the
    /// build was compiled with (none in a baseline build, which then passes too).
    #[test]
    fn a_processor_lacking_a_compiled_feature_is_refused() {
        assert_eq!(missing(|_| true), Ok(()));
        #[cfg(target_arch = "x86_64")]
        {
            let compiled: Vec<&str> = compiled_with(|_| false).iter().map(|e| e.0).collect();
            match missing(|_| false) {
                Ok(()) => assert!(compiled.is_empty()),
                Err(e) => {
                    assert!(!compiled.is_empty());
                    for f in &compiled {
                        assert!(e.contains(f), "{e}");
                    }
                    assert!(e.contains("target-cpu=x86-64"), "{e}");
                }
            }
            // Lacking only AVX2 names only it (when the build uses it).
            let only = missing(|f| f != "avx2");
            assert_eq!(only.is_err(), cfg!(target_feature = "avx2"));
            if let Err(e) = only {
                assert!(e.contains("(avx2)"), "{e}");
            }
        }
    }

    /// This processor runs this build (the tests run on it).
    #[test]
    fn this_processor_runs_this_build() {
        assert_eq!(check(), Ok(()));
    }
}
