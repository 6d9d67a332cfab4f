//! Prose told from other text, alone and in the scan's look at a piece of text.

use super::*;

/// Text of bytes that matter (or mostly prose, where two spaces are the rare catch), with
/// `<` and `&` among them when `markup`.
fn random_text(rng: &mut fastrand::Rng, round: usize, markup: bool) -> Vec<u8> {
    let any: &[u8] = b"  aZ!\t\n\r\x0c\x0b\x0e\x0f\x80\xa0\xff\x01-";
    let mostly_prose: &[u8] = b"abcdefgh ijklmn \xa0\xc3";
    let alphabet = [any, mostly_prose][round % 2];
    let len = rng.usize(0..160);
    (0..len)
        .map(|_| match rng.usize(0..40) {
            0 if markup => b'<',
            1 if markup => b'&',
            _ => alphabet[rng.usize(..alphabet.len())],
        })
        .collect()
}

/// Exact in one direction: anything with a tab, line break, form feed, carriage return
/// or two spaces running is never prose; words and single spaces are, but for the rare
/// false alarm (a byte below 15, a space then `!`).
fn check_prose(text: &[u8], got: bool) {
    let other_space = text
        .iter()
        .any(|b| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r'))
        || text.windows(2).any(|w| w == b"  ");
    let alarm = text.iter().any(|&b| b < 15) || text.windows(2).any(|w| w == b" !");
    if other_space {
        assert!(!got, "{text:?}");
    } else if !alarm {
        assert!(got, "{text:?}");
    }
}

#[test]
fn prose_is_words_and_single_spaces() {
    let mut rng = fastrand::Rng::with_seed(5);
    for round in 0..200_000 {
        let text = random_text(&mut rng, round, false);
        // Both ways: 32 bytes at a time (blocks overlapping at the end) where the CPU
        // can, and eight at a time.
        for got in [is_prose(&text), is_prose_by_words(&text)] {
            check_prose(&text, got);
        }
    }
    let prose = "Words and single spaces, at every length: é ü 文字 ".repeat(9);
    for end in 0..prose.len() {
        let text = &prose.as_bytes()[..end];
        assert!(is_prose(text) && is_prose_by_words(text), "{end}");
    }
}

/// A piece ends at the first `<`, holds an `&` when one comes before it, and is prose as
/// the text up to it is (never with an `&`).
#[test]
fn a_piece_is_the_text_to_the_first_lt() {
    let mut rng = fastrand::Rng::with_seed(7);
    for round in 0..200_000 {
        let mut text = random_text(&mut rng, round, true);
        if round % 5 == 0 {
            // Long runs of prose before the markup, across blocks.
            let at = rng.usize(..=text.len());
            text.splice(at..at, b"words and more words ".repeat(rng.usize(0..6)));
        }
        let got = piece(&text);
        let len = memchr::memchr(b'<', &text).unwrap_or(text.len());
        let amp = text[..len].contains(&b'&');
        let want = (len, len < text.len(), amp);
        assert_eq!((got.len, got.lt, got.amp), want, "{text:?}");
        if amp {
            assert!(!got.prose, "{text:?}");
        } else {
            check_prose(&text[..len], got.prose);
        }
    }
}
