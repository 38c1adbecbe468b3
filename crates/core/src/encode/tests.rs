//! Tests of the encodings: small models whose solutions are known, counted by the SAT search
//! and checked against the engine's own search.
