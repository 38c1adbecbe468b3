//! A list of things to look at (numbered below a bound), each listed at most once: the cells a
//! `degree` run still has to check, the sums of a family with something to deduce.

/// Items to look at, each at most once until it is taken.
#[derive(Clone, Debug, Default)]
pub(crate) struct Worklist {
    items: Vec<u32>,
    listed: Vec<bool>,
}

impl Worklist {
    /// An empty list for items `0..n`.
    pub(crate) fn new(n: usize) -> Self {
        Worklist {
            items: Vec::with_capacity(n),
            listed: vec![false; n],
        }
    }

    /// Lists `x` unless it is listed.
    #[inline]
    pub(crate) fn push(&mut self, x: u32) {
        let l = &mut self.listed[x as usize];
        if !*l {
            *l = true;
            self.items.push(x);
        }
    }

    /// Takes the last item listed.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        let x = self.items.pop()?;
        self.listed[x as usize] = false;
        Some(x)
    }

    /// Forgets every item.
    pub(crate) fn clear(&mut self) {
        for &x in &self.items {
            self.listed[x as usize] = false;
        }
        self.items.clear();
    }
}
