//! Public tests: `cargo nextest run -p ex_m5_alloc_free_pipeline`.

use ex_m5_alloc_free_pipeline::{Pipeline, Settings, SettingsError, reference};

fn settings() -> Settings {
    Settings {
        block_len: 4,
        pole: 0.9,
        clip: 0.8,
    }
}

#[test]
fn alloc_free_pipeline_public_bad_settings_are_errors() {
    let s = Settings {
        block_len: 0,
        ..settings()
    };
    assert_eq!(Pipeline::new(s).err(), Some(SettingsError::EmptyBlock));
}

#[test]
fn alloc_free_pipeline_public_one_chunk_matches_the_reference() {
    let signal: Vec<f32> = (0..40).map(|i| ((i * 7 % 11) as f32 - 5.0) / 5.0).collect();
    let expected = reference::blocks(&signal, &settings()).unwrap();
    let mut p = Pipeline::new(settings()).unwrap();
    let mut out = Vec::with_capacity(16);
    p.process(&signal, &mut out);
    assert_eq!(out, expected);
    assert_eq!(out.len(), 10);
}
