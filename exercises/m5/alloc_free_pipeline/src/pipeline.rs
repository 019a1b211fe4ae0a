//! Your work: the streaming pipeline, which allocates nothing.

use crate::{Block, Settings, SettingsError};

pub struct Pipeline {
    // Your fields: what each stage must remember between chunks.
    settings: Settings,
}

impl Pipeline {
    pub fn new(s: Settings) -> Result<Self, SettingsError> {
        todo!("check the settings as reference::check does, and start empty ({s:?})")
    }

    /// Filters `chunk` and pushes a `Block` onto `out` for every block it completes.
    // The finished method pushes onto `out`, so it needs the Vec, not a slice.
    #[allow(clippy::ptr_arg)]
    pub fn process(&mut self, chunk: &[f32], out: &mut Vec<Block>) {
        let _ = self.settings;
        todo!(
            "filter, accumulate, push a Block per completed block ({}, {})",
            chunk.len(),
            out.len()
        )
    }
}
