package dataset

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
)

// The flatbuffer metadata of an Arrow file is checked here, before any of
// it reaches arrow-go. arrow-go's generated flatbuffer accessors check
// nothing, and its readers act on what they read (v18.8.0): a field
// count of 2²⁴ in the footer's schema makes schemaFromFB allocate 1.4 GB
// of arrow.Fields; a schema message saying big-endian makes the reader
// byte-swap the dictionaries in place, in our read-only mapping, a
// SIGSEGV no recover catches; a negative null count reaches our index
// code as an array whose NullN panics; a compression entry makes it
// allocate an uncompressed size read from the body; buffer lengths past
// the body are caught only by the slice bounds check. A cache file
// damaged on disk or copied in part would then take the kernel process
// down, where it should be reported and converted again.
//
// checkArrowMetadata therefore walks every flatbuffer in the file (each
// message's metadata in the stream, then the footer) the way the Arrow
// format (format/File.fbs, Schema.fbs, Message.fbs) lays them out, and
// checks, before use, that every offset, vtable, vector, string and
// table lies inside its buffer, that nesting and the number of tables
// visited are bounded, and that the sizes arrow-go acts on are sane:
// the footer's blocks are the stream's messages, message bodies lie in
// the file, buffers lie in their body and lengths are bounded by it.
// Slot numbers below are the fields' positions in those .fbs files.

// fbMaxDepth bounds the nesting of Field.children, as arrow-go's
// kMaxNestingDepth bounds the arrays it loads.
const fbMaxDepth = 64

// fbMaxFields bounds the fields of a schema, nested ones included.
// arrow-go allocates ~2 KiB for each field of a file it opens (the field,
// its array and buffers) from as little as ~150 bytes of file, so without
// a bound a file of many empty columns made OpenFile allocate 13 times its
// size. The converter keeps at most maxCSVColumns columns, plus an index
// for some of the canonical ones.
const fbMaxFields = 2 * maxCSVColumns

// Arrow flatbuffer enum values (Message.fbs, Schema.fbs).
const (
	fbHeaderSchema          = 1
	fbHeaderDictionaryBatch = 2
	fbHeaderRecordBatch     = 3
	fbMaxMetadataVersion    = 4 // V5
	fbMaxType               = 26
	fbBlockSize             = 24 // Block: offset int64, metaDataLength int32, pad, bodyLength int64
	fbFieldNodeSize         = 16 // FieldNode: length, null_count int64
	fbBufferSize            = 16 // Buffer: offset, length int64
)

var fbHeaderNames = [...]string{"NONE", "Schema", "DictionaryBatch", "RecordBatch", "Tensor", "SparseTensor"}

// fbTypeScalars lists, for each Type union member with fields, the byte
// sizes of its scalar fields by slot; 0 marks a slot holding an offset
// (Timestamp.timezone, Union.typeIds), checked separately.
var fbTypeScalars = [fbMaxType + 1][]uint32{
	2:  {4, 1},    // Int: bitWidth, is_signed
	3:  {2},       // FloatingPoint: precision
	7:  {4, 4, 4}, // Decimal: precision, scale, bitWidth
	8:  {2},       // Date: unit
	9:  {2, 4},    // Time: unit, bitWidth
	10: {2, 0},    // Timestamp: unit, timezone
	11: {2},       // Interval: unit
	14: {2, 0},    // Union: mode, typeIds
	15: {4},       // FixedSizeBinary: byteWidth
	16: {4},       // FixedSizeList: listSize
	17: {1},       // Map: keysSorted
	18: {2},       // Duration: unit
}

// fbSlotNames name the fields of fbTypeScalars in errors.
var fbSlotNames = [...]string{"slot0", "slot1", "slot2"}

// fbMessage is a message of the file's stream, as the footer's blocks
// must describe it.
type fbMessage struct {
	offset  int64 // of its continuation marker
	metaLen int64 // marker, length and metadata
	bodyLen int64
	header  uint8
}

// checkArrowMetadata validates the flatbuffer metadata of the Arrow file
// in file, which starts and ends with the Arrow magic, and returns the
// stream's messages (mappedMessages hands them to arrow-go). It reads the
// footer as ipc.FileReader does.
func checkArrowMetadata(file []byte) ([]fbMessage, error) {
	const head, tail = 8, 4 + 6 // padded magic; footer length and magic
	n := int64(len(file))
	if n < head+tail {
		return nil, fmt.Errorf("%d bytes is too short for an Arrow file", n)
	}
	footerLen := int64(binary.LittleEndian.Uint32(file[n-tail:]))
	footerStart := n - tail - footerLen
	if footerLen < 8 || footerStart < head {
		return nil, fmt.Errorf("footer length %d at file offset %d does not fit in the %d-byte file", footerLen, n-tail, n)
	}
	msgs, err := checkArrowMessages(file[:footerStart], head)
	if err != nil {
		return nil, err
	}
	c := fbChecker{buf: file[footerStart : n-tail], base: footerStart, msg: -1}
	if err := c.footer(msgs); err != nil {
		return nil, err
	}
	return msgs, nil
}

// checkArrowMessages checks the messages of the stream in stream[start:]
// (the file up to its footer) up to the end-of-stream marker.
func checkArrowMessages(stream []byte, start int64) ([]fbMessage, error) {
	var msgs []fbMessage
	end := int64(len(stream))
	for off := start; off < end; {
		if end-off < 8 {
			return nil, fmt.Errorf("message %d at file offset %d: %d bytes left, too few for a message header", len(msgs), off, end-off)
		}
		if binary.LittleEndian.Uint32(stream[off:]) != 0xFFFFFFFF {
			return nil, fmt.Errorf("message %d at file offset %d: no continuation marker", len(msgs), off)
		}
		metaLen := int64(int32(binary.LittleEndian.Uint32(stream[off+4:])))
		if metaLen == 0 {
			break // end of stream
		}
		if metaLen < 4 || metaLen > end-off-8 {
			return nil, fmt.Errorf("message %d at file offset %d: metadata length %d outside 4..%d", len(msgs), off, metaLen, end-off-8)
		}
		metaStart := off + 8
		c := fbChecker{
			buf:  stream[metaStart : metaStart+metaLen],
			base: metaStart,
			msg:  len(msgs),
			off:  off,
		}
		header, bodyLen, err := c.message(end - metaStart - metaLen)
		if err != nil {
			return nil, err
		}
		switch {
		case len(msgs) == 0 && header != fbHeaderSchema:
			return nil, fmt.Errorf("%s: the stream starts with a %s message, want Schema", c.what(), fbHeaderNames[header])
		case len(msgs) > 0 && header == fbHeaderSchema:
			return nil, fmt.Errorf("%s: a second Schema message", c.what())
		}
		msgs = append(msgs, fbMessage{offset: off, metaLen: 8 + metaLen, bodyLen: bodyLen, header: header})
		off = metaStart + metaLen + bodyLen
	}
	if len(msgs) == 0 {
		return nil, fmt.Errorf("no messages in the stream at file offset %d", start)
	}
	return msgs, nil
}

// fbChecker checks one flatbuffer: a message's metadata or the footer.
type fbChecker struct {
	buf  []byte
	base int64 // file offset of buf[0], for errors
	msg  int   // index of the message, -1 for the footer
	off  int64 // file offset of the message
	// visited counts the tables visited. A flatbuffer whose tables are
	// not shared holds at most len(buf)/4 of them; more means tables
	// reached along several paths, whose number can grow exponentially
	// with nesting, and walks (here and in arrow-go) with it.
	visited int
	fields  int // Field tables checked, nested ones included
}

// what names the flatbuffer checked, for errors.
func (c *fbChecker) what() string {
	if c.msg < 0 {
		return "footer"
	}
	return fmt.Sprintf("message %d at file offset %d", c.msg, c.off)
}

// fbTable is a checked table: its vtable and inline data lie in the
// buffer and every field the vtable lists lies in the inline data.
type fbTable struct {
	pos    uint32 // of the table's soffset to its vtable
	vtable uint32 // position of the vtable
	slots  uint32 // number of field slots in the vtable
	size   uint32 // inline size of the table
	at     *fbPath
}

// fbPath names a table for errors. It is turned into text only when an
// error is reported, so that checking a valid file builds no strings;
// the elements of a vector share one, updated as the walk moves on.
type fbPath struct {
	up    *fbPath
	name  string // field in up holding the table, or the root's type
	index int    // element of the vector in that field, or -1
	label []byte // a Field's name
}

func (p *fbPath) String() string {
	s := p.name
	if p.up != nil {
		s = p.up.String() + "." + s
	}
	if p.index >= 0 {
		s += fmt.Sprintf("[%d]", p.index)
	}
	if len(p.label) > 0 {
		s += fmt.Sprintf("(%q)", truncate(string(p.label), 40))
	}
	return s
}

// errorf reports a problem at pos in the table at, or in its field when
// field is not empty.
func (c *fbChecker) errorf(pos uint32, at *fbPath, field, format string, args ...any) error {
	path := at.String()
	if field != "" {
		path += "." + field
	}
	return fmt.Errorf("%s: %s (file offset %d): %s", c.what(), path, c.base+int64(pos), fmt.Sprintf(format, args...))
}

func (c *fbChecker) u16(pos uint32) uint32 { return uint32(binary.LittleEndian.Uint16(c.buf[pos:])) }
func (c *fbChecker) u32(pos uint32) uint32 { return binary.LittleEndian.Uint32(c.buf[pos:]) }
func (c *fbChecker) i64(pos uint32) int64  { return int64(binary.LittleEndian.Uint64(c.buf[pos:])) }

// root returns the buffer's root table.
func (c *fbChecker) root(typ string) (fbTable, error) {
	path := &fbPath{name: typ, index: -1}
	if len(c.buf) < 4 {
		return fbTable{}, c.errorf(0, path, "", "%d bytes is too short for a flatbuffer", len(c.buf))
	}
	if len(c.buf) > 1<<31-1 {
		return fbTable{}, c.errorf(0, path, "", "%d bytes is too long for a flatbuffer", len(c.buf))
	}
	return c.table(c.u32(0), path)
}

// table checks the table at pos.
func (c *fbChecker) table(pos uint32, path *fbPath) (fbTable, error) {
	n := int64(len(c.buf))
	c.visited++
	if int64(c.visited) > n/4+1 {
		return fbTable{}, c.errorf(pos, path, "", "more tables than a %d-byte flatbuffer can hold (offsets point back at shared tables)", n)
	}
	if int64(pos)+4 > n {
		return fbTable{}, c.errorf(pos, path, "", "table at %d runs past the end of the %d-byte flatbuffer", pos, n)
	}
	vt := int64(pos) - int64(int32(c.u32(pos)))
	if vt < 0 || vt+4 > n {
		return fbTable{}, c.errorf(pos, path, "", "vtable at %d outside the %d-byte flatbuffer", vt, n)
	}
	vtSize, size := c.u16(uint32(vt)), c.u16(uint32(vt+2))
	if vtSize < 4 || vtSize%2 != 0 || vt+int64(vtSize) > n {
		return fbTable{}, c.errorf(pos, path, "", "vtable at %d of %d bytes: odd, shorter than 4 or past the end of the %d-byte flatbuffer", vt, vtSize, n)
	}
	if size < 4 || int64(pos)+int64(size) > n {
		return fbTable{}, c.errorf(pos, path, "", "table of %d bytes at %d: shorter than 4 or past the end of the %d-byte flatbuffer", size, pos, n)
	}
	t := fbTable{pos: pos, vtable: uint32(vt), slots: (vtSize - 4) / 2, size: size, at: path}
	for i := uint32(0); i < t.slots; i++ {
		if o := c.u16(t.vtable + 4 + 2*i); o != 0 && (o < 4 || o >= size) {
			return fbTable{}, c.errorf(pos, path, "", "field slot %d at table offset %d, outside the table's %d bytes", i, o, size)
		}
	}
	return t, nil
}

// field returns the position of the field in slot, of size bytes, and
// whether the table has it.
func (c *fbChecker) field(t fbTable, slot, size uint32, name string) (uint32, bool, error) {
	if slot >= t.slots {
		return 0, false, nil
	}
	o := c.u16(t.vtable + 4 + 2*slot)
	if o == 0 {
		return 0, false, nil
	}
	if o+size > t.size {
		return 0, false, c.errorf(t.pos, t.at, name, "%d-byte field at table offset %d runs past the table's %d bytes", size, o, t.size)
	}
	return t.pos + o, true, nil
}

// int64Field returns the int64 in slot, or def when absent.
func (c *fbChecker) int64Field(t fbTable, slot uint32, name string, def int64) (int64, error) {
	p, ok, err := c.field(t, slot, 8, name)
	if !ok || err != nil {
		return def, err
	}
	return c.i64(p), nil
}

// smallField returns the unsigned value of the size-byte (1, 2 or 4)
// field in slot, or def when absent.
func (c *fbChecker) smallField(t fbTable, slot, size uint32, name string, def uint32) (uint32, error) {
	p, ok, err := c.field(t, slot, size, name)
	if !ok || err != nil {
		return def, err
	}
	switch size {
	case 1:
		return uint32(c.buf[p]), nil
	case 2:
		return c.u16(p), nil
	}
	return c.u32(p), nil
}

// offset follows the uoffset in slot and returns its target.
func (c *fbChecker) offset(t fbTable, slot uint32, name string) (uint32, bool, error) {
	p, ok, err := c.field(t, slot, 4, name)
	if !ok || err != nil {
		return 0, false, err
	}
	return c.follow(p, t.at, name)
}

func (c *fbChecker) follow(p uint32, at *fbPath, field string) (uint32, bool, error) {
	u := c.u32(p)
	target := int64(p) + int64(u)
	if u == 0 || target >= int64(len(c.buf)) {
		return 0, false, c.errorf(p, at, field, "offset %d points outside the %d-byte flatbuffer", u, len(c.buf))
	}
	return uint32(target), true, nil
}

// subTable returns the table in slot.
func (c *fbChecker) subTable(t fbTable, slot uint32, name string) (fbTable, bool, error) {
	p, ok, err := c.offset(t, slot, name)
	if !ok || err != nil {
		return fbTable{}, false, err
	}
	sub, err := c.table(p, &fbPath{up: t.at, name: name, index: -1})
	return sub, err == nil, err
}

// vector returns the start and length of the vector of elem-byte
// elements in slot, which lies in the buffer.
func (c *fbChecker) vector(t fbTable, slot, elem uint32, name string) (start, n uint32, err error) {
	p, ok, err := c.offset(t, slot, name)
	if !ok || err != nil {
		return 0, 0, err
	}
	if int64(p)+4 > int64(len(c.buf)) {
		return 0, 0, c.errorf(p, t.at, name, "vector length runs past the end of the %d-byte flatbuffer", len(c.buf))
	}
	n = c.u32(p)
	if int64(n)*int64(elem) > int64(len(c.buf))-int64(p)-4 {
		return 0, 0, c.errorf(p, t.at, name, "vector of %d × %d bytes runs past the end of the %d-byte flatbuffer", n, elem, len(c.buf))
	}
	return p + 4, n, nil
}

// str returns the string in slot, which lies in the buffer.
func (c *fbChecker) str(t fbTable, slot uint32, name string) ([]byte, error) {
	start, n, err := c.vector(t, slot, 1, name)
	if err != nil {
		return nil, err
	}
	return c.buf[start : start+n], nil
}

// tables calls fn with each table of the vector of tables in slot.
func (c *fbChecker) tables(t fbTable, slot uint32, name string, fn func(e fbTable) error) error {
	start, n, err := c.vector(t, slot, 4, name)
	if err != nil {
		return err
	}
	path := &fbPath{up: t.at, name: name}
	for i := uint32(0); i < n; i++ {
		path.index, path.label = int(i), nil
		p, _, err := c.follow(start+4*i, path, "")
		if err != nil {
			return err
		}
		e, err := c.table(p, path)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// message checks a Message whose body may be up to limit bytes, and
// returns its header type and body length.
func (c *fbChecker) message(limit int64) (uint8, int64, error) {
	m, err := c.root("Message")
	if err != nil {
		return 0, 0, err
	}
	if v, err := c.smallField(m, 0, 2, "version", 0); err != nil {
		return 0, 0, err
	} else if v > fbMaxMetadataVersion {
		return 0, 0, c.errorf(m.pos, m.at, "version", "metadata version %d, newer than V5", v)
	}
	ht, err := c.smallField(m, 1, 1, "header_type", 0)
	if err != nil {
		return 0, 0, err
	}
	bodyLen, err := c.int64Field(m, 3, "bodyLength", 0)
	if err != nil {
		return 0, 0, err
	}
	if bodyLen < 0 || bodyLen > limit || bodyLen%8 != 0 {
		return 0, 0, c.errorf(m.pos, m.at, "bodyLength", "body of %d bytes: negative, not a multiple of 8 or past the %d bytes before the footer", bodyLen, limit)
	}
	h, ok, err := c.subTable(m, 2, "header")
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		return 0, 0, c.errorf(m.pos, m.at, "header", "missing")
	}
	switch ht {
	case fbHeaderSchema:
		h.at.name = "header(Schema)"
		err = c.schema(h)
	case fbHeaderDictionaryBatch:
		h.at.name = "header(DictionaryBatch)"
		err = c.dictionaryBatch(h, bodyLen)
	case fbHeaderRecordBatch:
		h.at.name = "header(RecordBatch)"
		err = c.recordBatch(h, bodyLen)
	default:
		return 0, 0, c.errorf(m.pos, m.at, "header_type", "header type %d, want Schema (1), DictionaryBatch (2) or RecordBatch (3)", ht)
	}
	if err != nil {
		return 0, 0, err
	}
	if err := c.keyValues(m, 4); err != nil {
		return 0, 0, err
	}
	return uint8(ht), bodyLen, nil
}

// footer checks the Footer, whose blocks must be the stream's messages.
func (c *fbChecker) footer(msgs []fbMessage) error {
	f, err := c.root("Footer")
	if err != nil {
		return err
	}
	if v, err := c.smallField(f, 0, 2, "version", 0); err != nil {
		return err
	} else if v > fbMaxMetadataVersion {
		return c.errorf(f.pos, f.at, "version", "metadata version %d, newer than V5", v)
	}
	s, ok, err := c.subTable(f, 1, "schema")
	if err != nil {
		return err
	}
	if !ok {
		return c.errorf(f.pos, f.at, "schema", "missing")
	}
	if err := c.schema(s); err != nil {
		return err
	}
	if err := c.blocks(f, 2, "dictionaries", fbHeaderDictionaryBatch, msgs); err != nil {
		return err
	}
	if err := c.blocks(f, 3, "recordBatches", fbHeaderRecordBatch, msgs); err != nil {
		return err
	}
	return c.keyValues(f, 4)
}

// blocks checks that each Block in slot describes a message of the
// stream with the given header.
func (c *fbChecker) blocks(f fbTable, slot uint32, name string, header uint8, msgs []fbMessage) error {
	start, n, err := c.vector(f, slot, fbBlockSize, name)
	if err != nil {
		return err
	}
	for i := uint32(0); i < n; i++ {
		p := start + i*fbBlockSize
		off, meta, body := c.i64(p), int64(int32(c.u32(p+8))), c.i64(p+16)
		var m *fbMessage // msgs are in file order
		if k, ok := slices.BinarySearchFunc(msgs, off, func(m fbMessage, off int64) int { return cmp.Compare(m.offset, off) }); ok {
			m = &msgs[k]
		}
		switch {
		case m == nil:
			return c.errorf(p, f.at, fmt.Sprintf("%s[%d]", name, i), "block offset %d is not the start of a message in the stream", off)
		case m.header != header:
			return c.errorf(p, f.at, fmt.Sprintf("%s[%d]", name, i), "block at offset %d is a %s message, want %s", off, fbHeaderNames[m.header], fbHeaderNames[header])
		case meta != m.metaLen || body != m.bodyLen:
			return c.errorf(p, f.at, fmt.Sprintf("%s[%d]", name, i), "block at offset %d has %d metadata and %d body bytes, but the message has %d and %d", off, meta, body, m.metaLen, m.bodyLen)
		}
	}
	return nil
}

// schema checks a Schema table.
func (c *fbChecker) schema(s fbTable) error {
	if e, err := c.smallField(s, 0, 2, "endianness", 0); err != nil {
		return err
	} else if e != 0 {
		return c.errorf(s.pos, s.at, "endianness", "endianness %d, want Little (0)", e)
	}
	if err := c.tables(s, 1, "fields", func(f fbTable) error { return c.arrowField(f, 1) }); err != nil {
		return err
	}
	if err := c.keyValues(s, 2); err != nil {
		return err
	}
	_, _, err := c.vector(s, 3, 8, "features")
	return err
}

// arrowField checks a Field table at nesting depth.
func (c *fbChecker) arrowField(f fbTable, depth int) error {
	if c.fields++; c.fields > fbMaxFields {
		return c.errorf(f.pos, f.at, "", "more than %d fields in the schema", fbMaxFields)
	}
	name, err := c.str(f, 0, "name")
	if err != nil {
		return err
	}
	if len(name) > 0 {
		f.at.label = name
	}
	if _, err := c.smallField(f, 1, 1, "nullable", 0); err != nil {
		return err
	}
	tt, err := c.smallField(f, 2, 1, "type_type", 0)
	if err != nil {
		return err
	}
	if tt == 0 || tt > fbMaxType {
		return c.errorf(f.pos, f.at, "type_type", "type %d, want 1..%d", tt, fbMaxType)
	}
	typ, ok, err := c.subTable(f, 3, "type")
	if err != nil {
		return err
	}
	if !ok {
		return c.errorf(f.pos, f.at, "type", "missing")
	}
	for slot, size := range fbTypeScalars[tt] {
		if size > 0 {
			if _, _, err := c.field(typ, uint32(slot), size, fbSlotNames[slot]); err != nil {
				return err
			}
		}
	}
	switch tt {
	case 10: // Timestamp.timezone
		_, err = c.str(typ, 1, "timezone")
	case 14: // Union.typeIds
		_, _, err = c.vector(typ, 1, 4, "typeIds")
	case 15, 16: // FixedSizeBinary.byteWidth, FixedSizeList.listSize
		var w uint32
		if w, err = c.smallField(typ, 0, 4, "width", 0); err == nil && int32(w) < 0 {
			err = c.errorf(typ.pos, typ.at, "width", "negative width %d", int32(w))
		}
	}
	if err != nil {
		return err
	}
	if d, ok, err := c.subTable(f, 4, "dictionary"); err != nil {
		return err
	} else if ok {
		if err := c.dictionaryEncoding(d); err != nil {
			return err
		}
	}
	if err := c.tables(f, 5, "children", func(ch fbTable) error {
		if depth >= fbMaxDepth {
			return c.errorf(ch.pos, ch.at, "", "fields nested deeper than %d", fbMaxDepth)
		}
		return c.arrowField(ch, depth+1)
	}); err != nil {
		return err
	}
	return c.keyValues(f, 6)
}

// dictionaryEncoding checks a DictionaryEncoding table.
func (c *fbChecker) dictionaryEncoding(d fbTable) error {
	if _, err := c.int64Field(d, 0, "id", 0); err != nil {
		return err
	}
	it, ok, err := c.subTable(d, 1, "indexType")
	if err != nil {
		return err
	}
	if ok {
		w, err := c.smallField(it, 0, 4, "bitWidth", 0)
		if err != nil {
			return err
		}
		if w != 8 && w != 16 && w != 32 && w != 64 {
			return c.errorf(it.pos, it.at, "bitWidth", "index width %d, want 8, 16, 32 or 64", w)
		}
		if _, err := c.smallField(it, 1, 1, "is_signed", 0); err != nil {
			return err
		}
	}
	if _, err := c.smallField(d, 2, 1, "isOrdered", 0); err != nil {
		return err
	}
	_, err = c.smallField(d, 3, 2, "dictionaryKind", 0)
	return err
}

// dictionaryBatch checks a DictionaryBatch with a body of bodyLen bytes.
func (c *fbChecker) dictionaryBatch(d fbTable, bodyLen int64) error {
	if _, err := c.int64Field(d, 0, "id", 0); err != nil {
		return err
	}
	data, ok, err := c.subTable(d, 1, "data")
	if err != nil {
		return err
	}
	if !ok {
		return c.errorf(d.pos, d.at, "data", "missing")
	}
	if err := c.recordBatch(data, bodyLen); err != nil {
		return err
	}
	_, err = c.smallField(d, 2, 1, "isDelta", 0)
	return err
}

// recordBatch checks a RecordBatch with a body of bodyLen bytes: its
// buffers lie in the body and its lengths are bounded by it (a bit per
// value at most, plus slack for empty arrays).
func (c *fbChecker) recordBatch(r fbTable, bodyLen int64) error {
	maxLen := 8*bodyLen + 64
	length, err := c.int64Field(r, 0, "length", 0)
	if err != nil {
		return err
	}
	if length < 0 || length > maxLen {
		return c.errorf(r.pos, r.at, "length", "%d rows: negative or more than %d for a %d-byte body", length, maxLen, bodyLen)
	}
	start, n, err := c.vector(r, 1, fbFieldNodeSize, "nodes")
	if err != nil {
		return err
	}
	for i := uint32(0); i < n; i++ {
		p := start + i*fbFieldNodeSize
		l, nulls := c.i64(p), c.i64(p+8)
		if l < 0 || l > maxLen || nulls < 0 || nulls > l {
			return c.errorf(p, r.at, fmt.Sprintf("nodes[%d]", i), "length %d, null count %d: negative, null count above length, or length more than %d for a %d-byte body", l, nulls, maxLen, bodyLen)
		}
	}
	start, nbufs, err := c.vector(r, 2, fbBufferSize, "buffers")
	if err != nil {
		return err
	}
	for i := uint32(0); i < nbufs; i++ {
		p := start + i*fbBufferSize
		off, l := c.i64(p), c.i64(p+8)
		if off < 0 || l < 0 || off > bodyLen || l > bodyLen-off {
			return c.errorf(p, r.at, fmt.Sprintf("buffers[%d]", i), "offset %d, length %d: outside the %d-byte body", off, l, bodyLen)
		}
	}
	if _, ok, err := c.offset(r, 3, "compression"); err != nil {
		return err
	} else if ok {
		// arrow-go allocates the uncompressed size written in the body.
		return c.errorf(r.pos, r.at, "compression", "compressed body; Convert writes uncompressed files")
	}
	start, n, err = c.vector(r, 4, 8, "variadicBufferCounts")
	if err != nil {
		return err
	}
	var total int64
	for i := uint32(0); i < n; i++ {
		v := c.i64(start + 8*i)
		if v < 0 || v > int64(nbufs)-total {
			return c.errorf(start+8*i, r.at, fmt.Sprintf("variadicBufferCounts[%d]", i), "count %d: negative or more than the %d buffers", v, nbufs)
		}
		total += v
	}
	return nil
}

// keyValues checks the custom_metadata KeyValue vector in slot.
func (c *fbChecker) keyValues(t fbTable, slot uint32) error {
	return c.tables(t, slot, "custom_metadata", func(kv fbTable) error {
		if _, err := c.str(kv, 0, "key"); err != nil {
			return err
		}
		_, err := c.str(kv, 1, "value")
		return err
	})
}
