//! Bad input never panics: each malformed instance is a `ParseError` at the expected line and
//! column with a message naming the problem; tolerated variations parse.

use pencilbox_core::{PuzzleError, PuzzleKind, RunOptions};
use pencilbox_pathpuzzle::{PathPuzzle, KIND};

/// `(input, line, col, words the message must contain)`.
const CASES: &[(&str, u32, u32, &str)] = &[
    ("", 1, 1, "number of rows"),
    ("   \n\n", 3, 1, "number of rows"),
    ("garbage", 1, 1, "found `garbage`"),
    ("3 x\n", 1, 3, "number of columns"),
    ("0 3\n1 1\n1 3\n\n\n1 1 1\n", 1, 1, "at least 1"),
    ("-2 3\n", 1, 1, "at least 1"),
    ("100000 100000\n1 1\n1 2\n", 1, 1, "more than the supported"),
    ("99999999999999999999 2\n", 1, 1, "too large"),
    ("3 3\n2 1\n", 3, 1, "row of door B"),
    ("3 3\n4 1\n3 2\n\n3 2 2\n2 2 3\n", 2, 1, "between 1 and 3"),
    ("3 3\n2 0\n3 2\n\n3 2 2\n2 2 3\n", 2, 3, "between 1 and 3"),
    (
        "3 3\n2 1\n2 2\n\n3 2 2\n2 2 3\n",
        3,
        1,
        "door B (2, 2) is not on the edge",
    ),
    (
        "3 3\n2 1\n3 2\n\n3 4 2\n2 2 3\n",
        5,
        3,
        "clue of row 2 must be between -1 (no clue) and 3",
    ),
    ("3 3\n2 1\n3 2\n\n3 2 2\n2 -2 3\n", 6, 3, "clue of column 2"),
    (
        "3 3\n2 1\n3 2\n\n3 2\n2 2 3\n",
        5,
        4,
        "line 5 holds 2 row clues, expected 3",
    ),
    (
        "3 3\n2 1\n3 2\n\n3 2 2 1\n2 2\n",
        5,
        7,
        "line 5 holds 4 row clues, expected 3",
    ),
    (
        "3 3\n2 1\n3 2\n\n3 2 2\n2 2\n",
        6,
        4,
        "line 6 holds 2 column clues, expected 3",
    ),
    ("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3 3\n", 6, 7, "line 6 holds 4 column clues"),
    (
        "3 3\n2 1\n3 2\n\n3 2 2 2 2 3 7\n",
        5,
        13,
        "unexpected `7` after the 3 column clues",
    ),
    ("3 3\n2 1\n3 2\n\n3 2 2\n", 6, 1, "expected 3 column clues, found 0"),
    ("3 3\n2 1\n3 2\n\n3 2 2\n2 2 x\n", 6, 5, "found `x`"),
    ("3 3\n2 1\n3 2\n\n3 2 2.5\n2 2 3\n", 5, 5, "found `2.5`"),
];

#[test]
fn every_bad_input_is_a_positioned_parse_error() {
    for &(input, line, col, words) in CASES {
        let e = PathPuzzle::parse(input).expect_err(input);
        assert_eq!((e.pos.line, e.pos.col), (line, col), "{input:?}: {e}");
        assert!(e.message.contains(words), "{input:?}: `{}` lacks `{words}`", e.message);
        // The plug-in reports the same error (exit 2 in the CLI), never a panic.
        match KIND.solve(input, &RunOptions::default()) {
            Err(PuzzleError::Parse(p)) => assert_eq!(p, e),
            other => panic!("{input:?}: {other:?}"),
        }
    }
}

#[test]
fn tolerated_variations_parse_to_the_same_puzzle() {
    let canonical = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap();
    for variant in [
        "3 3\n2 1\n3 2\n3 2 2\n2 2 3\n",           // no blank line
        "3 3\r\n2 1\r\n3 2\r\n\r\n3 2 2\r\n2 2 3", // CRLF, no final newline
        "\u{feff}3 3\n2 1 \n3 2\n\n\n3 2 2 \n2 2 3\n\n\n",
        "3 3 2 1 3 2 3 2 2 2 2 3", // one line
        "3 3\n2 1\n3 2\n\n3\n2\n2\n2\n2\n3\n",
    ] {
        assert_eq!(PathPuzzle::parse(variant).as_ref(), Ok(&canonical), "{variant:?}");
    }
}

#[test]
fn binary_and_random_bytes_never_panic() {
    let mut state = 0x1234_5678_u64;
    for len in 0..400 {
        let bytes: Vec<u8> = (0..len % 60)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                b"0123456789 -\n\nx"[(state >> 33) as usize % 15]
            })
            .collect();
        let text = String::from_utf8(bytes).unwrap();
        let _ = PathPuzzle::parse(&text);
        let _ = KIND.solve(&text, &RunOptions::default());
        let _ = KIND.verify("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n", &text, &RunOptions::default());
    }
}
