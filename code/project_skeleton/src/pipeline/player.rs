//! Recorded input, played back: develop and test against a recording instead of the live sensor.
//!
//! A [`FrameWriter`] stores frames as they were captured; a [`Player`] reads the whole file when
//! it opens (no disk reads in the frame loop) and serves the frames at their recorded times, as
//! a [`Source`], so the same pipeline runs live or from a file. The format is deliberately plain:
//! an 8-byte magic, then per frame `index`, `captured_at` in nanoseconds (u64), `width`,
//! `height` (u32), all little-endian, and `width × height` grey pixels.

use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::pipeline::pool::Pixels;
use crate::pipeline::source::{Frame, Source};

const MAGIC: &[u8; 8] = b"RTGFRM01";
const HEADER: usize = 8 + 8 + 4 + 4;
/// Larger frames than this are taken for a corrupt file, not a camera.
const MAX_PIXELS: u64 = 1 << 28;

/// What was wrong with a recording, and what to do.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error("could not read or write the recording {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{path} is not a frame recording (it does not start with {MAGIC:?}): record it with FrameWriter"
    )]
    NotARecording { path: PathBuf },
    #[error(
        "{path} ends inside frame {frame} (byte {offset}): the recording was cut short; record it again or cut it at the last whole frame"
    )]
    Truncated {
        path: PathBuf,
        frame: usize,
        offset: usize,
    },
    #[error(
        "frame {frame} of {path} says it is {width} x {height} pixels, which is not a frame this pipeline can take (sides of at least 4, width a multiple of 4): the file is corrupt"
    )]
    BadSize {
        path: PathBuf,
        frame: usize,
        width: u32,
        height: u32,
    },
    #[error(
        "frame {frame} of {path} was captured before the frame ahead of it: a recording must be in capture order"
    )]
    OutOfOrder { path: PathBuf, frame: usize },
    #[error("the recording {path} holds no frames: record at least one")]
    Empty { path: PathBuf },
}

/// Writes frames to a recording.
pub struct FrameWriter {
    out: BufWriter<std::fs::File>,
    path: PathBuf,
}

impl FrameWriter {
    pub fn create(path: impl AsRef<Path>) -> Result<Self, PlayerError> {
        let path = path.as_ref().to_path_buf();
        let io = |source| PlayerError::Io {
            path: path.clone(),
            source,
        };
        let mut out = BufWriter::new(std::fs::File::create(&path).map_err(io)?);
        out.write_all(MAGIC).map_err(io)?;
        Ok(Self { out, path })
    }

    pub fn write(&mut self, frame: &Frame) -> Result<(), PlayerError> {
        let nanos = u64::try_from(frame.captured_at.as_nanos()).unwrap_or(u64::MAX);
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(&frame.index.to_le_bytes());
        header.extend_from_slice(&nanos.to_le_bytes());
        header.extend_from_slice(&frame.width.to_le_bytes());
        header.extend_from_slice(&frame.height.to_le_bytes());
        let io = |source| PlayerError::Io {
            path: self.path.clone(),
            source,
        };
        self.out.write_all(&header).map_err(io)?;
        self.out.write_all(&frame.pixels).map_err(io)
    }

    /// Flushes the file: a recording is complete only once this returns `Ok`.
    pub fn finish(mut self) -> Result<(), PlayerError> {
        self.out.flush().map_err(|source| PlayerError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

// ANCHOR: player
/// Plays a recording back: frame `i` of the file is due at its recorded capture time, counted
/// from the first frame's, and is captured again with the pipeline's time stamp.
pub struct Player {
    frames: Vec<Frame>,
    start: Duration,
}

impl Source for Player {
    type Error = std::convert::Infallible;

    fn due_at(&self, index: u64) -> Option<Duration> {
        let frame = self.frames.get(usize::try_from(index).ok()?)?;
        Some(frame.captured_at.saturating_sub(self.start))
    }

    fn capture(
        &mut self,
        index: u64,
        captured_at: Duration,
        mut pixels: Pixels,
    ) -> Result<Frame, Self::Error> {
        // `due_at` said this index exists; the pipeline never asks for one it did not.
        let recorded = &self.frames[index as usize];
        pixels.extend_from_slice(&recorded.pixels);
        Ok(Frame {
            captured_at,
            pixels,
            ..*recorded
        })
    }
}
// ANCHOR_END: player

impl Player {
    /// Reads and checks the whole recording.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, PlayerError> {
        let path = path.as_ref().to_path_buf();
        let mut bytes = Vec::new();
        std::fs::File::open(&path)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .map_err(|source| PlayerError::Io {
                path: path.clone(),
                source,
            })?;
        Self::parse(&bytes, path)
    }

    /// The recorded frames, in order.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    fn parse(bytes: &[u8], path: PathBuf) -> Result<Self, PlayerError> {
        let Some(mut rest) = bytes.strip_prefix(MAGIC.as_slice()) else {
            return Err(PlayerError::NotARecording { path });
        };
        let mut frames: Vec<Frame> = Vec::new();
        while !rest.is_empty() {
            let frame = frames.len();
            let offset = bytes.len() - rest.len();
            let truncated = || PlayerError::Truncated {
                path: path.clone(),
                frame,
                offset,
            };
            let (header, body) = rest.split_at_checked(HEADER).ok_or_else(truncated)?;
            let u64_at = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap());
            let u32_at = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().unwrap());
            let (index, nanos, width, height) = (u64_at(0), u64_at(8), u32_at(16), u32_at(20));
            let pixels = u64::from(width) * u64::from(height);
            if width < 4 || height < 4 || !width.is_multiple_of(4) || pixels > MAX_PIXELS {
                return Err(PlayerError::BadSize {
                    path,
                    frame,
                    width,
                    height,
                });
            }
            let (pixels, after) = body
                .split_at_checked(pixels as usize)
                .ok_or_else(truncated)?;
            let captured_at = Duration::from_nanos(nanos);
            if frames.last().is_some_and(|l| l.captured_at > captured_at) {
                return Err(PlayerError::OutOfOrder { path, frame });
            }
            frames.push(Frame {
                index,
                captured_at,
                width,
                height,
                pixels: pixels.to_vec().into(),
            });
            rest = after;
        }
        let start = frames
            .first()
            .map(|f| f.captured_at)
            .ok_or(PlayerError::Empty { path })?;
        Ok(Self { frames, start })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::source::{FrameSource, SourceConfig};

    fn recording(dir: &Path, frames: u64) -> (PathBuf, Vec<Frame>) {
        let source = FrameSource::new(SourceConfig::DEFAULT).unwrap();
        let period = SourceConfig::DEFAULT.period;
        let made: Vec<Frame> = (0..frames)
            .map(|i| source.frame(i, Duration::from_secs(3) + period * i as u32))
            .collect();
        let path = dir.join("frames.rec");
        let mut writer = FrameWriter::create(&path).unwrap();
        made.iter().for_each(|f| writer.write(f).unwrap());
        writer.finish().unwrap();
        (path, made)
    }

    #[test]
    fn a_recording_plays_back_the_same_frames_at_their_recorded_pace() {
        let dir = tempfile::tempdir().unwrap();
        let (path, made) = recording(dir.path(), 5);
        let mut player = Player::open(&path).unwrap();
        let period = SourceConfig::DEFAULT.period;
        assert_eq!(player.due_at(0), Some(Duration::ZERO));
        assert_eq!(player.due_at(4), Some(period * 4));
        assert_eq!(player.due_at(5), None, "the recording ends");
        let again = player
            .capture(2, Duration::from_millis(9), Pixels::default())
            .unwrap();
        assert_eq!(again.pixels, made[2].pixels);
        assert_eq!(
            (again.index, again.captured_at),
            (2, Duration::from_millis(9))
        );
    }

    #[test]
    fn damaged_recordings_are_errors_that_say_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let (path, _) = recording(dir.path(), 2);
        let good = std::fs::read(&path).unwrap();
        let parse = |bytes: &[u8]| Player::parse(bytes, path.clone()).err().unwrap();
        assert!(matches!(parse(b"hello"), PlayerError::NotARecording { .. }));
        assert!(matches!(parse(MAGIC), PlayerError::Empty { .. }));
        let cut = parse(&good[..good.len() - 1]);
        assert!(
            matches!(cut, PlayerError::Truncated { frame: 1, .. }),
            "{cut}"
        );
        let mut odd = good.clone();
        odd[8 + 16..8 + 20].copy_from_slice(&7u32.to_le_bytes());
        assert!(matches!(parse(&odd), PlayerError::BadSize { width: 7, .. }));
        let mut huge = good;
        huge[8 + 16..8 + 24].copy_from_slice(&[0xff; 8]);
        assert!(matches!(parse(&huge), PlayerError::BadSize { .. }));
        let missing = Player::open(dir.path().join("nope.rec")).err().unwrap();
        assert!(missing.to_string().contains("nope.rec"), "{missing}");
    }
}
