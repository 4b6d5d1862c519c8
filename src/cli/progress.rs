//! Progress lines of `euref golden` and `euref check` on a terminal (indicatif): the rate as a
//! rounded number (`46.3 k/s`), not indicatif's `{per_sec}` with four decimals
//! (`46,274.2079/s`).

use indicatif::{ProgressState, ProgressStyle};

/// A rate per second, rounded to three significant digits or to a whole number: `812/s`,
/// `46.3 k/s`, `1.06 M/s`.
pub fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec < 0.0 {
        return "-/s".into();
    }
    // Rounded first, so that 999.96 shows as `1.00 k/s`, not `1000/s`.
    let digits3 = |x: f64| {
        if x >= 99.95 {
            format!("{x:.0}")
        } else if x >= 9.995 {
            format!("{x:.1}")
        } else {
            format!("{x:.2}")
        }
    };
    if per_sec.round() < 1000.0 {
        format!("{:.0}/s", per_sec)
    } else if per_sec < 999_950.0 {
        format!("{} k/s", digits3(per_sec / 1e3))
    } else {
        format!("{} M/s", digits3(per_sec / 1e6))
    }
}

/// A progress style from `template`, in which `{rate}` is [`rate`] of the bar's speed.
pub fn style(template: &str, fallback: ProgressStyle) -> ProgressStyle {
    match ProgressStyle::with_template(template) {
        Ok(s) => s.with_key("rate", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rate(st.per_sec()));
        }),
        Err(_) => fallback,
    }
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn rates_are_rounded_to_three_digits() {
        assert_eq!(rate(46_274.207_9), "46.3 k/s");
        assert_eq!(rate(812.4), "812/s");
        assert_eq!(rate(0.0), "0/s");
        assert_eq!(rate(999.6), "1.00 k/s");
        assert_eq!(rate(1_234.0), "1.23 k/s");
        assert_eq!(rate(403_512.9), "404 k/s");
        assert_eq!(rate(999_960.0), "1.00 M/s");
        assert_eq!(rate(1_061_234.5), "1.06 M/s");
        assert_eq!(rate(12_345_678.0), "12.3 M/s");
        assert_eq!(rate(f64::NAN), "-/s");
    }
}
