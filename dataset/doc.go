// Package dataset turns the public SBIR/STTR awards CSV into a typed Apache
// Arrow file and loads it back, memory-mapped and zero-copy.
//
// The pieces, in the order data flows through them:
//
//   - [Convert] reads an awards CSV (RFC 4180, either header shape seen in the
//     wild) and writes an Arrow IPC file holding one record batch with every
//     row, typed by [Schema]. Everything that could not be represented exactly
//     is counted in a [LoadReport], which is stored in the file's schema
//     metadata.
//   - [Locate] picks the data to use ($SBIR_CSV_PATH, then the cached
//     download, then the synthetic sample compiled into the binary), makes sure
//     its Arrow file is current (converting under a file lock, atomically) and
//     returns a [Source] describing it.
//   - [OpenFile] maps an Arrow file written by Convert and validates it; the
//     returned [Dataset] gives direct access to the columns.
//   - [Download] fetches the bulk CSV into the cache without ever replacing good
//     data with a bad or partial download.
//   - [Generate] writes synthetic award CSVs with the distributions and quirks
//     of the real file, for tests, benchmarks and the embedded sample.
//
// # Schema
//
// Column names are the 42-column bulk header (see the Col* constants).
// Text columns are utf8 and lossless except that invalid UTF-8 is replaced by
// U+FFFD (and counted); an empty field is null in every column. Agency,
// Branch, Phase, Program, State and the three Y/N/U flags are
// dictionary<int16, utf8>. Award Amount is float64 ("148309.0000",
// "171,433" and "$69,731.00" are accepted). Award Year, Solicitation Year and
// Number Employees are nullable int64 (9999 employees is a placeholder in the
// source data and is kept as is). The five date columns are date32, parsed
// from YYYY-MM-DD or M/D/YYYY. A canonical column the CSV lacks (UEI in the
// older 41-column shape) is present and all null; CSV columns with unknown
// names follow the canonical ones as utf8, in file order.
//
// # Bad input
//
// A file whose header lacks the core award columns is refused with an error
// naming them. A record with the wrong number of fields is skipped and its
// line number kept in the report. An unparseable number or date becomes null
// and is counted per column (a numeric or date field of only spaces is
// simply null). A quoted field still open at the end of the
// input (the signature of a truncated download) is an error naming the line
// where the field started: recovering would silently drop or merge records.
// Input that ends inside a record outside quotes is reported in
// LoadReport.TruncatedLine, and Download refuses it. A cut exactly at a
// record boundary cannot be told from a complete file by its content;
// downloads are also checked against their Content-Length.
package dataset
