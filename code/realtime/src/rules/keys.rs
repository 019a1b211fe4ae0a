//! Rule: when a fixed set of names will do, use an enum, not a string key.

use std::collections::HashMap;

// ANCHOR: strings
/// Before: channels are looked up by name in a hash map (hash the string, compare bytes).
pub struct ByName(HashMap<String, f64>);

impl ByName {
    pub fn new() -> Self {
        let names = ["temperature", "pressure", "humidity", "light"];
        Self(names.iter().map(|n| ((*n).to_owned(), 0.0)).collect())
    }

    /// A misspelt name is a run-time error (here: silently ignored), found late.
    pub fn add(&mut self, name: &str, value: f64) {
        if let Some(total) = self.0.get_mut(name) {
            *total += value;
        }
    }

    pub fn get(&self, name: &str) -> f64 {
        self.0.get(name).copied().unwrap_or(0.0)
    }
}

impl Default for ByName {
    fn default() -> Self {
        Self::new()
    }
}
// ANCHOR_END: strings

// ANCHOR: enums
/// After: the channels are a type; a misspelling does not compile, and a lookup is an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Temperature,
    Pressure,
    Humidity,
    Light,
}

impl Channel {
    pub const ALL: [Channel; 4] = [
        Channel::Temperature,
        Channel::Pressure,
        Channel::Humidity,
        Channel::Light,
    ];

    /// The name, for the one place that needs text: display and logs.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Temperature => "temperature",
            Channel::Pressure => "pressure",
            Channel::Humidity => "humidity",
            Channel::Light => "light",
        }
    }
}

#[derive(Default)]
pub struct ByEnum([f64; 4]);

impl ByEnum {
    pub fn add(&mut self, channel: Channel, value: f64) {
        self.0[channel as usize] += value;
    }

    pub fn get(&self, channel: Channel) -> f64 {
        self.0[channel as usize]
    }
}
// ANCHOR_END: enums
