//! A generic undo trail with level marks.
//!
//! Entries are pushed as state changes; [`Trail::new_level`] marks a decision point and
//! [`Trail::backtrack_to`] hands the entries above a level back in reverse order, so the caller
//! can restore what they recorded. Record an entry only when a value actually changes.

/// A decision level: 0 is the root.
pub type Level = usize;

/// An undo log with level boundaries.
#[derive(Clone, Debug)]
pub struct Trail<T> {
    entries: Vec<T>,
    marks: Vec<usize>,
}

impl<T> Default for Trail<T> {
    fn default() -> Self {
        Trail::new()
    }
}

impl<T> Trail<T> {
    /// An empty trail at level 0.
    pub fn new() -> Self {
        Trail {
            entries: Vec::new(),
            marks: Vec::new(),
        }
    }
    /// The current level.
    #[inline]
    pub fn level(&self) -> Level {
        self.marks.len()
    }
    /// Opens a new level.
    #[inline]
    pub fn new_level(&mut self) {
        self.marks.push(self.entries.len());
    }
    /// Records an entry at the current level.
    #[inline]
    pub fn push(&mut self, e: T) {
        self.entries.push(e);
    }
    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// No entries?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// Makes room for `additional` more entries.
    pub fn reserve(&mut self, additional: usize) {
        self.entries.reserve(additional);
    }
    /// [`Trail::reserve`], false (and nothing reserved) when the system refuses the memory.
    pub fn try_reserve(&mut self, additional: usize) -> bool {
        self.entries.try_reserve(additional).is_ok()
    }
    /// The entries recorded since the last [`Trail::new_level`] (all of them at level 0).
    #[inline]
    pub fn top(&self) -> &[T] {
        &self.entries[self.marks.last().copied().unwrap_or(0)..]
    }
    /// Pops every entry above `level` (newest first), passing each to `undo`, and closes the levels.
    #[inline]
    pub fn backtrack_to(&mut self, level: Level, mut undo: impl FnMut(T)) {
        if level >= self.marks.len() {
            return;
        }
        let keep = self.marks[level];
        self.marks.truncate(level);
        while self.entries.len() > keep {
            if let Some(e) = self.entries.pop() {
                undo(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtracking_replays_entries_above_the_level_newest_first() {
        let mut t = Trail::new();
        t.push(1);
        t.new_level();
        t.push(2);
        t.new_level();
        t.push(3);
        t.push(4);
        let mut seen = vec![];
        t.backtrack_to(1, |e| seen.push(e));
        assert_eq!(seen, vec![4, 3]);
        assert_eq!(t.level(), 1);
        t.backtrack_to(0, |e| seen.push(e));
        assert_eq!(seen, vec![4, 3, 2]);
        assert_eq!(t.len(), 1);
    }
}
