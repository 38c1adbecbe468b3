//! Engine variables by number, and the two values of a Boolean variable: the vocabulary the
//! engine ([`crate::engine`]) and the encoders ([`crate::encode`]) share, below both.

use crate::domain::Domain;

/// A variable of an [`Engine`](crate::engine::Engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct VarId(pub u32);

impl VarId {
    /// The variable's index (variables are numbered from 0 in creation order).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The variable with this index.
    #[inline]
    pub fn from_index(i: usize) -> Self {
        VarId(i as u32)
    }
}

/// The value a Boolean variable takes when false. Boolean variables are ordinary variables
/// whose domain is a subset of `{FALSE, TRUE}` (see [`BOOL`]).
pub const FALSE: u32 = 1;
/// The value a Boolean variable takes when true.
pub const TRUE: u32 = 2;
/// The initial domain of a Boolean variable: `{FALSE, TRUE}`.
pub const BOOL: Domain = Domain(0b11);
