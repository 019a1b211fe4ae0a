//! A tiny tracing garbage collector (mark and sweep) over an arena, to contrast with `Rc`.

// ANCHOR: gc
/// A handle into the [`Heap`]: an index, not a pointer, so objects can be freed and reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handle(usize);

#[derive(Debug)]
struct Object {
    value: i64,
    refs: Vec<Handle>,
    marked: bool,
}

/// Objects refer to each other freely (cycles included); nothing counts references. From time
/// to time `collect` finds everything reachable from the roots and frees the rest.
#[derive(Debug, Default)]
pub struct Heap {
    slots: Vec<Option<Object>>,
    free: Vec<usize>,
    pub roots: Vec<Handle>,
}

impl Heap {
    pub fn alloc(&mut self, value: i64) -> Handle {
        let object = Some(Object {
            value,
            refs: Vec::new(),
            marked: false,
        });
        match self.free.pop() {
            Some(i) => {
                self.slots[i] = object;
                Handle(i)
            }
            None => {
                self.slots.push(object);
                Handle(self.slots.len() - 1)
            }
        }
    }

    /// Makes `from` refer to `to`. Storing a reference is a plain write: no count to update.
    pub fn link(&mut self, from: Handle, to: Handle) {
        if let Some(Some(object)) = self.slots.get_mut(from.0) {
            object.refs.push(to);
        }
    }

    pub fn value(&self, h: Handle) -> Option<i64> {
        self.slots.get(h.0)?.as_ref().map(|o| o.value)
    }

    pub fn live(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    /// Mark: walk the graph from the roots. Sweep: free every unmarked object. Returns how many
    /// were freed. The cost grows with the live objects (mark) and the heap size (sweep), and it
    /// is paid all at once — the "pause" — rather than spread over every pointer copy.
    pub fn collect(&mut self) -> usize {
        let mut stack: Vec<Handle> = self.roots.clone();
        while let Some(h) = stack.pop() {
            if let Some(Some(object)) = self.slots.get_mut(h.0)
                && !object.marked
            {
                object.marked = true;
                stack.extend(object.refs.iter().copied());
            }
        }
        let mut freed = 0;
        for (i, slot) in self.slots.iter_mut().enumerate() {
            match slot {
                Some(object) if object.marked => object.marked = false,
                Some(_) => {
                    *slot = None;
                    self.free.push(i);
                    freed += 1;
                }
                None => {}
            }
        }
        freed
    }
}
// ANCHOR_END: gc

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreachable_cycles_are_collected_and_reachable_ones_kept() {
        let mut heap = Heap::default();
        let root = heap.alloc(1);
        let kept = heap.alloc(2);
        heap.link(root, kept);
        heap.link(kept, root); // a reachable cycle
        let (a, b) = (heap.alloc(3), heap.alloc(4));
        heap.link(a, b);
        heap.link(b, a); // an unreachable cycle: Rc would leak it
        heap.roots.push(root);
        assert_eq!(heap.live(), 4);
        assert_eq!(heap.collect(), 2);
        assert_eq!(heap.live(), 2);
        assert_eq!((heap.value(root), heap.value(kept)), (Some(1), Some(2)));
        assert_eq!(heap.value(a), None);
        // Freed slots are reused, and a second collection frees nothing more.
        let c = heap.alloc(5);
        assert!(c == a || c == b);
        heap.link(kept, c);
        assert_eq!(heap.collect(), 0);
        heap.roots.clear();
        assert_eq!(heap.collect(), 3);
    }
}
