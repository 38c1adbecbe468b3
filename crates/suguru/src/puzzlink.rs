//! puzz.link / pzprjs URLs for the `suguru` genre: `https://puzz.link/p?suguru/W/H/BODY`.
//!
//! The body is pzprjs's `encodeBorder` followed by `encodeNumber16`
//! (pzprjs, `src/variety-common/Encode.js`): the region borders 5 bits to a base-32 character,
//! then the hints in row-major order, runs of empty cells as `g`..`z`. The codec is the core's
//! [`pencilbox_core::regions::puzzlink`] (see there for the details) with the genre of
//! [`FAMILY`]; a `.` ("some number") constrains nothing in Suguru and is read as an empty cell.

use crate::model::{Suguru, FAMILY};
use pencilbox_core::ParseError;

/// Parses a puzz.link (or pzv.jp) `suguru` URL.
///
/// ```
/// let p = pencilbox_suguru::puzzlink::parse_url("https://puzz.link/p?suguru/3/3/bg10j5i3").unwrap();
/// assert_eq!(p.num_regions(), 3);
/// assert_eq!(pencilbox_suguru::puzzlink::to_url(&p), "https://puzz.link/p?suguru/3/3/bg10j5i3");
/// ```
pub fn parse_url(text: &str) -> Result<Suguru, ParseError> {
    FAMILY.parse_url(text).map(Suguru::from)
}

/// Writes the puzz.link URL of an instance.
pub fn to_url(p: &Suguru) -> String {
    FAMILY.to_url(p.board())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fig1_url_decodes_to_fig1_and_encodes_back() {
        let p = crate::parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let url = to_url(&p);
        assert_eq!(url, "https://puzz.link/p?suguru/3/3/bg10j5i3");
        assert_eq!(parse_url(&url).unwrap(), p);
    }

    /// A URL made by the pzprjs editor (pzprxs fork), from the public noqx solver's examples.
    const KNOWN: &str = "https://pzprxs.vercel.app/p?suguru/6/6/adbli15d2tluj2g1l2l3l4l5g";

    #[test]
    fn a_known_editor_url_decodes_to_a_unique_puzzle_and_reencodes_to_the_same_body() {
        let p = parse_url(KNOWN).unwrap();
        assert_eq!((p.shape().height, p.shape().width), (6, 6));
        assert_eq!(p.hints().as_slice()[..7], [0, 0, 0, 0, 2, 0, 1]);
        assert_eq!(to_url(&p), "https://puzz.link/p?suguru/6/6/adbli15d2tluj2g1l2l3l4l5g");
        assert!(crate::solver::is_unique(&p, &Default::default()));
    }

    #[test]
    fn a_url_with_a_hole_is_refused_at_the_hole_s_bit() {
        // pzprjs appends a hole mask (one bit per cell, base 32) when some cell is a hole; a
        // Suguru here has none, so the hole is named at the mask character that holds its bit.
        let url = "https://pzprxs.vercel.app/p?suguru/16/6/gkca9ilcv6lapem2c8fraajtje56rd8u3r2j5h1n3k3p4m4j42j2m2p5k5g2l2h2j3000g0000000000000000";
        let e = parse_url(url).unwrap_err();
        assert_eq!(e.pos.col, 110, "{e}");
        assert!(e.message.starts_with("r1c16 is a hole"), "{e}");
    }

    #[test]
    fn long_runs_of_empty_cells_and_big_hints_round_trip() {
        let mut text = String::from("1 30\n");
        let hints: Vec<String> = (0..30)
            .map(|i| if i == 29 { "17".into() } else { "0".into() })
            .collect();
        text.push_str(&hints.join(" "));
        text.push('\n');
        text.push_str(&vec!["1"; 30].join(" "));
        let p = crate::parse(&text).unwrap();
        let url = to_url(&p);
        assert!(url.ends_with("/30/1/000000zo-11"), "{url}");
        assert_eq!(parse_url(&url).unwrap(), p);
    }

    #[test]
    fn bad_urls_name_the_offending_character() {
        let e = parse_url("https://puzz.link/p?suguru/3/3/bg1#").unwrap_err();
        assert_eq!(e.pos.col, 35);
        let e = parse_url("https://puzz.link/p?nurikabe/3/3/").unwrap_err();
        assert!(e.message.contains("suguru"), "{e}");
        let e = parse_url("https://puzz.link/p?suguru/0/3/").unwrap_err();
        assert!(e.message.contains("at least 1"), "{e}");
        let e = parse_url("https://puzz.link/p?suguru/3/3/bgé0j5i3").unwrap_err();
        assert_eq!(e.pos.col, 34, "{e}");
        let e = parse_url("https://puzz.link/p?suguru/3/3/bg10j5i3é").unwrap_err();
        assert!(e.message.contains("unexpected"), "{e}");
        let e = parse_url("https://puzz.link/p?suguru/3/3/bg10j9").unwrap_err();
        assert!(e.message.contains("larger than its region"), "{e}");
    }
}
