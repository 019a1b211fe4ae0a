//! A bump allocator: allocation is "move a pointer"; everything is freed at once.

use std::cell::{Cell, RefCell};

// ANCHOR: bump
/// An arena for values of one type `T`. Allocation pushes into the current block; when it is
/// full a new block is started (old blocks never move, so references stay valid). Nothing is
/// freed one by one: dropping the arena frees all blocks together.
pub struct Bump<T> {
    blocks: RefCell<Vec<Vec<T>>>,
    block_len: usize,
    allocated: Cell<usize>,
}

impl<T> Bump<T> {
    // `&self` in, `&mut T` out: sound here because every call hands out a distinct slot (the
    // same signature as bumpalo's `alloc`), which is the case clippy's lint cannot see.
    #[allow(clippy::mut_from_ref)]
    pub fn alloc(&self, value: T) -> &mut T {
        let mut blocks = self.blocks.borrow_mut();
        if blocks.last().is_none_or(|b| b.len() == b.capacity()) {
            blocks.push(Vec::with_capacity(self.block_len));
        }
        let block = blocks.last_mut().expect("a block was just ensured");
        block.push(value); // never reallocates: len < capacity was checked above
        let slot: *mut T = block.last_mut().expect("just pushed");
        self.allocated.set(self.allocated.get() + 1);
        // SAFETY: a block's buffer never moves (we never push past its capacity) and is only
        // freed with the arena, whose borrow bounds the returned reference; each slot is
        // handed out once, so the `&mut` is unique.
        unsafe { &mut *slot }
    }
}
// ANCHOR_END: bump

impl<T> Bump<T> {
    pub fn new(block_len: usize) -> Self {
        let block_len = block_len.max(1);
        Self {
            blocks: RefCell::new(vec![Vec::with_capacity(block_len)]),
            block_len,
            allocated: Cell::new(0),
        }
    }

    pub fn len(&self) -> usize {
        self.allocated.get()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A linked list node, for comparing a bump arena with one `Box` per node.
pub struct ListNode<'a> {
    pub value: u64,
    pub next: Option<&'a ListNode<'a>>,
}

/// Builds a list of `n` nodes in the arena and sums it.
pub fn list_sum_bump(n: u64) -> u64 {
    let arena = Bump::new(4096);
    let mut head: Option<&ListNode> = None;
    for i in 0..n {
        head = Some(arena.alloc(ListNode {
            value: i,
            next: head,
        }));
    }
    let mut sum = 0;
    while let Some(node) = head {
        sum += node.value;
        head = node.next;
    }
    sum
}

pub struct BoxNode {
    pub value: u64,
    pub next: Option<Box<BoxNode>>,
}

/// The same with the global allocator: one allocation and one free per node.
pub fn list_sum_box(n: u64) -> u64 {
    let mut head: Option<Box<BoxNode>> = None;
    for i in 0..n {
        head = Some(Box::new(BoxNode {
            value: i,
            next: head,
        }));
    }
    let mut sum = 0;
    let mut cursor = head.as_deref();
    while let Some(node) = cursor {
        sum += node.value;
        cursor = node.next.as_deref();
    }
    // Free iteratively: the default recursive drop of a long list overflows the stack.
    while let Some(mut node) = head {
        head = node.next.take();
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_stay_valid_across_blocks() {
        let arena = Bump::new(2);
        let a = arena.alloc(1);
        let b = arena.alloc(2);
        let c = arena.alloc(3); // a new block
        *a += 10;
        assert_eq!((*a, *b, *c), (11, 2, 3));
        assert_eq!(arena.len(), 3);
    }

    #[test]
    fn both_lists_sum_the_same() {
        assert_eq!(list_sum_bump(10_000), list_sum_box(10_000));
        assert_eq!(list_sum_bump(0), 0);
    }

    #[test]
    fn values_are_dropped_with_the_arena() {
        let witness = std::rc::Rc::new(());
        {
            let arena = Bump::new(3);
            for _ in 0..10 {
                arena.alloc(witness.clone());
            }
            assert_eq!(std::rc::Rc::strong_count(&witness), 11);
        }
        assert_eq!(std::rc::Rc::strong_count(&witness), 1);
    }
}
