// Package columnar is the query engine under award_data: typed column
// vectors over Arrow buffers (Vector, Table), row selections as lists or
// lazy bitmaps (Sel, BitSel), bitmap indexes of low-cardinality columns
// (BitIndex), case-insensitive substring search over a text column's
// buffer, radix and multi-key sorting and the first rows of a sort
// (SortKey, SortedRows, TopPositions), dense group ids (KeyIDs,
// CombineIDs, and OrderedGroups for keys whose values number in order),
// aggregation kernels (SumByCode and compensated Sums, QuantileSorted,
// QuantileBuf), window functions within groups of rows (Segments,
// ShiftRows, Differences, CumSum, Rolling, Rank), bins (Bin), text
// (CountWords, MapText, MapDistinct, Extract, SplitText) and the parallel
// helper they share (Parts).
//
// The package holds no package-level mutable state: caches (a column's
// bitmap index, a text column's dictionary encoding and its packed
// distinct values, an int column's span) live in the Vector they
// describe and are built once, safely for concurrent use. Nothing here
// knows about awards; award_data is the front end cells call.
package columnar
