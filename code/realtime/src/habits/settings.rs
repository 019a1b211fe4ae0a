//! Habit: types, not strings, for settings; check them once, at the edge.

use std::collections::BTreeMap;

// ANCHOR: stringly
/// Before: every reader looks its value up by name, converts it, and picks a default. A
/// misspelt key ("windw") or a value that does not parse quietly becomes the default, and a
/// negative window quietly becomes zero: the mistake surfaces, if at all, as odd output.
pub fn window_from_map(config: &BTreeMap<String, String>) -> usize {
    config
        .get("window")
        .and_then(|text| text.parse::<f64>().ok())
        .unwrap_or(8.0) as usize
}
// ANCHOR_END: stringly

// ANCHOR: typed
/// After: one struct, a named field per setting (the unit in the name where there is one).
/// Its fields are private, so the only way to get one is `parse`, which rejects what it does
/// not understand: code that takes a `Settings` needs no checks of its own. The text arrives in a
/// `BTreeMap`, which iterates in key order, so with two bad keys the same one is reported on
/// every run (a `HashMap`'s order changes from run to run).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    sample_rate_hz: u32,
    window: usize,
    gain: i32,
}

/// `|gain| <= MAX_GAIN` keeps `i16 sample * gain` inside `i32` (32 768 × 1000 < 2^31).
pub const MAX_GAIN: i32 = 1000;

impl Settings {
    pub fn parse(config: &BTreeMap<String, String>) -> Result<Self, SettingsError> {
        let mut settings = Settings {
            sample_rate_hz: 48_000,
            window: 8,
            gain: 1,
        };
        for (key, text) in config {
            match key.as_str() {
                "sample_rate_hz" => settings.sample_rate_hz = parse_in(key, text, 1..=384_000)?,
                "window" => settings.window = parse_in(key, text, 1..=4096)?,
                "gain" => settings.gain = parse_in(key, text, -MAX_GAIN..=MAX_GAIN)?,
                _ => return Err(SettingsError::UnknownKey { key: key.clone() }),
            }
        }
        Ok(settings)
    }
}
// ANCHOR_END: typed

impl Settings {
    pub fn sample_rate_hz(&self) -> u32 {
        self.sample_rate_hz
    }

    pub fn window(&self) -> usize {
        self.window
    }

    pub fn gain(&self) -> i32 {
        self.gain
    }
}

fn parse_in<T>(
    key: &str,
    text: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, SettingsError>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match text.trim().parse::<T>() {
        Ok(value) if range.contains(&value) => Ok(value),
        _ => Err(SettingsError::OutOfRange {
            key: key.to_owned(),
            text: text.to_owned(),
            allowed: format!("an integer from {} to {}", range.start(), range.end()),
        }),
    }
}

// ANCHOR: errors
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("unknown setting `{key}`: the settings are sample_rate_hz, window and gain")]
    UnknownKey { key: String },
    #[error("setting `{key}` is `{text}`; it must be {allowed}")]
    OutOfRange {
        key: String,
        text: String,
        allowed: String,
    },
}
// ANCHOR_END: errors

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_string_map_hides_a_misspelt_key_and_a_negative_window() {
        assert_eq!(
            window_from_map(&map(&[("windw", "64")])),
            8,
            "the typo fell back to 8"
        );
        assert_eq!(
            window_from_map(&map(&[("window", "-5")])),
            0,
            "-5 became an empty window"
        );
        assert_eq!(window_from_map(&map(&[("window", "sixty")])), 8);
    }

    #[test]
    fn typed_settings_reject_a_misspelt_key_with_the_known_names() {
        let error = Settings::parse(&map(&[("windw", "64")])).unwrap_err();
        assert_eq!(
            error,
            SettingsError::UnknownKey {
                key: "windw".into()
            }
        );
        assert!(
            error
                .to_string()
                .contains("sample_rate_hz, window and gain")
        );
    }

    #[test]
    fn with_two_bad_keys_the_first_in_key_order_is_reported_every_time() {
        // A fresh map each time: a HashMap would get a new random order on most of them.
        for _ in 0..20 {
            let config = map(&[("windw", "64"), ("gain", "5000")]);
            let error = Settings::parse(&config).unwrap_err();
            assert!(
                matches!(&error, SettingsError::OutOfRange { key, .. } if key == "gain"),
                "{error}"
            );
        }
    }

    #[test]
    fn typed_settings_reject_values_outside_their_range_and_say_the_range() {
        for (key, text) in [
            ("window", "-5"),
            ("window", "0"),
            ("window", "sixty"),
            ("gain", "5000"),
        ] {
            let error = Settings::parse(&map(&[(key, text)])).unwrap_err();
            assert!(
                matches!(error, SettingsError::OutOfRange { .. }),
                "{key} = {text}"
            );
            assert!(
                error.to_string().contains("must be an integer from"),
                "{error}"
            );
        }
    }

    #[test]
    fn typed_settings_accept_good_values_and_keep_defaults_for_the_rest() {
        let settings = Settings::parse(&map(&[("window", " 64 "), ("gain", "-3")])).unwrap();
        assert_eq!((settings.window(), settings.gain()), (64, -3));
        assert_eq!(settings.sample_rate_hz(), 48_000);
        assert_eq!(
            settings,
            Settings {
                sample_rate_hz: 48_000,
                window: 64,
                gain: -3
            }
        );
    }

    #[test]
    fn the_largest_allowed_gain_cannot_overflow_a_calibrated_sample() {
        for sample in [i16::MIN, i16::MAX] {
            for gain in [-MAX_GAIN, MAX_GAIN] {
                assert!(i32::from(sample).checked_mul(gain).is_some());
            }
        }
    }
}
