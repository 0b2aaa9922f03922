// Package columnar is the query engine under award_data: typed column
// vectors over Arrow buffers (Vector, Table), row selections as lists or
// lazy bitmaps (Sel, BitSel), bitmap indexes of low-cardinality columns
// (BitIndex), case-insensitive substring search over a text column's
// buffer, radix and multi-key sorting (SortKey, SortedRows), dense group
// ids (KeyIDs, CombineIDs), aggregation kernels (SumByCode,
// QuantileSorted) and the parallel helper they share (Parts).
//
// The package holds no package-level mutable state: caches (a column's
// bitmap index, a text column's dictionary encoding) live in the Vector
// they describe and are built once, safely for concurrent use. Nothing
// here knows about awards; award_data is the front end cells call.
package columnar
