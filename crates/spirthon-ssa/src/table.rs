//! Compressed tables: rows of small items stored in one array, built by a stable counting
//! sort. Adjacency lists, per-block and per-variable indexes and phi users all use it.

/// A compressed table: row `i` is `items[start[i]..start[i + 1]]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Table<T> {
    start: Vec<u32>,
    items: Vec<T>,
}

impl<T: Copy> Table<T> {
    /// Stable counting sort of `(row, item)` pairs.
    pub(crate) fn group(rows: usize, pairs: impl Iterator<Item = (usize, T)> + Clone) -> Table<T> {
        let mut start = vec![0u32; rows + 1];
        let mut first = None;
        for (r, item) in pairs.clone() {
            start[r + 1] += 1;
            first.get_or_insert(item);
        }
        for i in 0..rows {
            start[i + 1] += start[i];
        }
        let Some(first) = first else {
            return Table {
                start,
                items: Vec::new(),
            };
        };
        // `start[r]` serves as row `r`'s cursor and ends at row `r + 1`'s start; shifting the
        // table by one restores the starts without a second array.
        let mut items = vec![first; start[rows] as usize];
        for (r, item) in pairs {
            items[start[r] as usize] = item;
            start[r] += 1;
        }
        start.copy_within(0..rows, 1);
        start[0] = 0;
        Table { start, items }
    }

    /// Row by row: `fill(i, items)` appends row `i`'s items; `capacity` bounds their number
    /// (reserved up front: growing by doubling would touch about twice the memory).
    pub(crate) fn from_rows(
        rows: usize,
        capacity: usize,
        mut fill: impl FnMut(usize, &mut Vec<T>),
    ) -> Table<T> {
        let mut start = Vec::with_capacity(rows + 1);
        let mut items = Vec::with_capacity(capacity);
        start.push(0);
        for r in 0..rows {
            fill(r, &mut items);
            start.push(items.len() as u32);
        }
        Table { start, items }
    }

    /// Keeps only the first occurrence of each item within each row (items are blocks,
    /// numbered below `n`), compacting the table in place.
    pub(crate) fn dedup_rows(mut self, n: usize, index: impl Fn(T) -> usize) -> Table<T> {
        // `seen[item] == row` once `item` is kept in `row`.
        let mut seen = vec![u32::MAX; n];
        let mut kept = 0;
        let mut row_start = 0;
        for r in 0..self.num_rows() {
            let row_end = self.start[r + 1] as usize;
            for i in row_start..row_end {
                let item = self.items[i];
                if seen[index(item)] != r as u32 {
                    seen[index(item)] = r as u32;
                    self.items[kept] = item;
                    kept += 1;
                }
            }
            row_start = row_end;
            self.start[r + 1] = kept as u32;
        }
        self.items.truncate(kept);
        self
    }

    /// The row starts and the items of all rows together.
    pub(crate) fn into_parts(self) -> (Vec<u32>, Vec<T>) {
        (self.start, self.items)
    }

    pub(crate) fn num_rows(&self) -> usize {
        self.start.len() - 1
    }

    /// Items in all rows together.
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn row(&self, i: usize) -> &[T] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}
