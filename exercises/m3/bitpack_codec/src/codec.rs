use crate::DecodeError;

/// Encodes `values` in the format described in `lib.rs`; the output is exactly
/// `encoded_len(values)` bytes long.
pub fn encode(values: &[u32]) -> Vec<u8> {
    let _ = values;
    todo!("count header, then one width byte and the packed bits per block")
}

/// Decodes a stream made by [`encode`]; any other stream is an error, never a panic.
pub fn decode(bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
    let _ = bytes;
    todo!("read the count, then each block")
}
