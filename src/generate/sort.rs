//! The listed pages sorted by URL after the walk, on two threads: the sort was a fifth of
//! what a run does after the walk, with the other core idle.

use super::Urls;
use super::workers::Listed;
use crate::scan::Pages;

/// Below this many pages the sort is not split between two threads.
const SPLIT_SORT: usize = 16 * 1024;

/// Sorts by URL, pages of one URL by path: on two threads, when the run may have two
/// and the pages are many. The halves are split in place ([`split_at_pivot`]), so no
/// buffer is added to the run's peak, as a merge sort's would be.
pub(super) fn sort_by_url(pages: &Pages, urls: Urls, listed: &mut [Listed], threads: usize) {
    let rel = |l: &Listed| pages.get(l.page as usize).as_os_str().as_encoded_bytes();
    let by_url = |a: &Listed, b: &Listed| {
        urls.rest(a)
            .cmp(urls.rest(b))
            .then_with(|| rel(a).cmp(rel(b)))
    };
    sort_split(listed, threads, by_url);
}

/// Sorts `items` by `order`, the two halves on two threads when `threads` allows and the
/// items are many (see [`sort_by_url`]).
fn sort_split<T: Send>(
    items: &mut [T],
    threads: usize,
    order: impl Fn(&T, &T) -> std::cmp::Ordering + Sync,
) {
    if threads < 2 || items.len() < SPLIT_SORT {
        return items.sort_unstable_by(order);
    }
    let middle = split_at_pivot(items, &order);
    let (low, high) = items.split_at_mut(middle);
    std::thread::scope(|scope| {
        scope.spawn(|| high.sort_unstable_by(&order));
        low.sort_unstable_by(&order);
    });
}

/// How many items the pivot of [`split_at_pivot`] is the median of.
const PIVOT_SAMPLE: usize = 63;

/// Moves the items before a pivot (the median of a sample spread over them) to the
/// front and the rest after it, in one pass; returns where the rest starts, the pivot
/// first. `select_nth_unstable_by` found the exact middle in several passes, as long as
/// sorting a half took.
fn split_at_pivot<T>(items: &mut [T], order: impl Fn(&T, &T) -> std::cmp::Ordering) -> usize {
    let step = items.len() / PIVOT_SAMPLE;
    let mut sample: Vec<usize> = (0..PIVOT_SAMPLE).map(|k| k * step).collect();
    sample.sort_unstable_by(|&a, &b| order(&items[a], &items[b]));
    items.swap(0, sample[PIVOT_SAMPLE / 2]);
    let Some((pivot, rest)) = items.split_first_mut() else {
        return 0;
    };
    let is_low = |item: &T| order(item, pivot).is_lt();
    let (mut i, mut j) = (0, rest.len());
    loop {
        while i < j && is_low(&rest[i]) {
            i += 1;
        }
        while i < j && !is_low(&rest[j - 1]) {
            j -= 1;
        }
        if i >= j {
            break;
        }
        rest.swap(i, j - 1);
        i += 1;
        j -= 1;
    }
    // The last of the low ones takes the pivot's place at the front.
    items.swap(0, i);
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The split sort sorts, whatever the keys and the threads.
    #[test]
    fn a_split_sort_sorts() {
        // Many duplicates, and sizes around the split's threshold.
        for len in [0, 1, SPLIT_SORT - 1, SPLIT_SORT, 3 * SPLIT_SORT + 7] {
            let mut items: Vec<(u32, u32)> = (0..len as u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) % 1000, i % 7))
                .collect();
            let mut want = items.clone();
            want.sort();
            for threads in [1, 2] {
                let mut got = items.clone();
                sort_split(&mut got, threads, |a, b| a.cmp(b));
                assert_eq!(got, want, "{len} items, {threads} threads");
            }
            // Every item equal: the split is lopsided, the sort still right.
            let mut same = vec![(7u32, 0u32); len];
            sort_split(&mut same, 2, |a, b| a.0.cmp(&b.0));
            assert!(same.iter().all(|&s| s == (7, 0)));
            // Only by the first field: equal keys may land anywhere, the keys in order.
            sort_split(&mut items, 2, |a, b| a.0.cmp(&b.0));
            assert!(items.windows(2).all(|w| w[0].0 <= w[1].0), "{len}");
        }
    }
}
