//! Virtual memory: a fresh allocation is only address space until each page is first touched.

/// The base page size on x86-64 and most ARM Linux machines (Apple silicon uses 16 KiB).
pub const PAGE: usize = 4096;

// ANCHOR: touch
/// Writes one byte in every page of `buf`. The first time, each write traps into the kernel,
/// which finds a free physical page, zeroes it and maps it (a *page fault*); the second time
/// the page is mapped and the write is an ordinary store.
#[inline(never)]
pub fn touch_pages(buf: &mut [u8], value: u8) -> usize {
    let mut touched = 0;
    for i in (0..buf.len()).step_by(PAGE) {
        buf[i] = value;
        touched += 1;
    }
    touched
}
// ANCHOR_END: touch

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touches_one_byte_per_page() {
        let mut buf = vec![0u8; 3 * PAGE + 1];
        assert_eq!(touch_pages(&mut buf, 7), 4);
        assert_eq!(buf.iter().filter(|&&b| b == 7).count(), 4);
        assert_eq!((buf[0], buf[PAGE], buf[1]), (7, 7, 0));
        assert_eq!(touch_pages(&mut [], 1), 0);
    }
}
