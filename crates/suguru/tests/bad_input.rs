//! Every malformed-input case of issue 2 D gives a `ParseError` at the right line:column with
//! a clear message, never a panic or a large allocation.

use pencilbox_core::{PuzzleError, PuzzleKind, RunOptions};
use pencilbox_suguru::{parse, KIND};

/// (name, input, expected "line:col", a word the message must contain)
const CASES: &[(&str, &str, &str, &str)] = &[
    ("empty file", "", "1:1", "empty"),
    ("blank file", "  \n\n", "1:1", "empty"),
    ("0x0", "0 0\n", "1:1", "at least 1"),
    ("negative height", "-3 4\n", "1:1", "at least 1"),
    ("negative width", "3 -4\n", "1:3", "at least 1"),
    ("overflowing size", "99999999999999999999999 2\n", "1:1", "too large"),
    (
        "100000x100000 with too few tokens",
        "100000 100000\n0 0\n",
        "1:1",
        "more than the supported",
    ),
    ("only one dimension", "3\n", "2:1", "number of columns"),
    (
        "three numbers on the size line",
        "1 2 3\n0 0\n1 1\n",
        "1:5",
        "only `height width`",
    ),
    ("non-numeric hint", "2 2\n0 x\n0 0\n1 1\n1 1\n", "2:3", "found `x`"),
    ("non-numeric label", "1 2\n0 0\n1 b\n", "3:3", "region label"),
    (
        "short hint row",
        "2 3\n0 0\n0 0 0\n1 1 1\n1 1 1\n",
        "2:4",
        "has 2 numbers",
    ),
    ("long hint row", "2 2\n0 0 0\n0 0\n1 1\n1 1\n", "2:5", "more than 2"),
    ("hint rows run out", "3 2\n0 0\n0 0\n", "4:1", "row 3 of the hints"),
    (
        "missing region rows",
        "2 2\n0 0\n0 0\n1 1\n",
        "5:1",
        "missing region rows",
    ),
    ("no region rows at all", "2 2\n0 0\n0 0\n", "4:1", "missing region rows"),
    ("a region row ends early", "1 3\n0 0 0\n1 1", "3:4", "more number"),
    ("negative hint", "1 2\n-1 0\n1 1\n", "2:1", "negative"),
    (
        "hint larger than its region",
        "1 3\n0 0 2\n1 1 2\n",
        "2:5",
        "larger than its region",
    ),
    (
        "hint larger than the grid",
        "1 2\n0 7\n1 1\n",
        "2:3",
        "larger than the whole grid",
    ),
    (
        "overflowing hint",
        "1 2\n0 99999999999999999999\n1 1\n",
        "2:3",
        "too large",
    ),
    ("trailing garbage", "1 2\n0 0\n1 1\nfoo\n", "4:1", "unexpected `foo`"),
    ("binary garbage", "\u{1}\u{2}PNG\u{3}\u{4}", "1:1", "number of rows"),
    ("bad JSON", "{\"height\": 2,", "1:13", "JSON"),
    ("bad URL", "https://puzz.link/p?suguru/2/x/", "1:30", "height"),
];

#[test]
fn every_malformed_input_is_reported_at_its_line_and_column() {
    for &(name, input, at, word) in CASES {
        let e = parse(input).expect_err(name);
        assert_eq!(e.pos.to_string(), at, "{name}: {e}");
        assert!(e.message.contains(word), "{name}: `{e}` should mention `{word}`");
        // The plug-in reports the same error as a parse error.
        match KIND.solve(input, &RunOptions::default()) {
            Err(PuzzleError::Parse(pe)) => assert_eq!(pe, e, "{name}"),
            other => panic!("{name}: expected a parse error, got {other:?}"),
        }
    }
}

#[test]
fn malformed_solutions_are_solution_errors_with_positions_in_the_solution() {
    let puzzle = "1 3\n0 0 0\n1 1 2\n";
    for (sol, at) in [
        ("1 2", "1:4"),
        ("1 x 1", "1:3"),
        ("", "1:1"),
        ("1 2 1\n1", "2:1"),
        ("1 -2 1", "1:3"),
    ] {
        match KIND.verify(puzzle, sol, &RunOptions::default()) {
            Err(PuzzleError::Solution(e)) => assert_eq!(e.pos.to_string(), at, "{sol:?}: {e}"),
            other => panic!("{sol:?}: expected a solution error, got {other:?}"),
        }
    }
}

#[test]
fn raw_binary_bytes_are_refused_by_the_core_reader() {
    let e = pencilbox_core::scan::text_from_bytes(b"\x89PNG\r\n\x1a\n\0\0").unwrap_err();
    assert_eq!(e.pos.to_string(), "1:1");
}

mod never_panics {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        /// Arbitrary text (biased towards digits, spaces and newlines) never panics the parser;
        /// whatever parses round-trips through the text form.
        #[test]
        fn arbitrary_text_is_parsed_or_refused(text in "[0-9 \\-\\n]{0,60}|.{0,40}") {
            if let Ok(p) = pencilbox_suguru::parse(&text) {
                prop_assert_eq!(pencilbox_suguru::parse(&p.to_text()).unwrap(), p);
            }
        }

        #[test]
        fn arbitrary_url_bodies_are_parsed_or_refused(w in 0i64..6, h in 0i64..6, body in "[0-9a-z.+=%é-]{0,30}") {
            let url = format!("https://puzz.link/p?suguru/{w}/{h}/{body}");
            if let Ok(p) = pencilbox_suguru::puzzlink::parse_url(&url) {
                let again = pencilbox_suguru::puzzlink::to_url(&p);
                prop_assert_eq!(pencilbox_suguru::puzzlink::parse_url(&again).unwrap(), p);
            }
        }
    }
}
