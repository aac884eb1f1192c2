package geocode

import (
	"strings"
	"unsafe"
)

// strTable is a table of strings by id: while an index is built, a list
// of Go strings (with the map that interns them); once it is finished or
// loaded, one blob of bytes and len+1 offsets into it, from which a
// string is made without copying when it is needed (unsafe.String over
// the blob, which a loaded index maps read-only and never unmaps).
type strTable struct {
	list []string
	ids  map[string]uint32
	blob []byte
	off  []uint32
}

// newStrTable returns a table being built, holding "" as id 0.
func newStrTable() strTable {
	return strTable{list: []string{""}, ids: map[string]uint32{"": 0}}
}

// len returns the number of strings.
func (t *strTable) len() int {
	if t.ids != nil {
		return len(t.list)
	}
	return max(0, len(t.off)-1)
}

// get returns string id; "" for noRef or an id out of range.
func (t *strTable) get(id uint32) string {
	if t.ids != nil {
		if int(id) >= len(t.list) {
			return ""
		}
		return t.list[id]
	}
	if int(id) >= len(t.off)-1 {
		return ""
	}
	lo, hi := t.off[id], t.off[id+1]
	if hi <= lo {
		return ""
	}
	return unsafe.String(&t.blob[lo], hi-lo)
}

// intern returns the id of s in a table being built, adding it (a copy,
// so that it pins no larger buffer) the first time.
func (t *strTable) intern(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	s = strings.Clone(s)
	id := uint32(len(t.list))
	t.list = append(t.list, s)
	t.ids[s] = id
	return id
}

// freeze turns a table being built into its blob and offsets.
func (t *strTable) freeze() {
	if t.ids == nil {
		return
	}
	n := 0
	for _, s := range t.list {
		n += len(s)
	}
	t.blob = make([]byte, 0, n)
	t.off = make([]uint32, 0, len(t.list)+1)
	for _, s := range t.list {
		t.off = append(t.off, uint32(len(t.blob)))
		t.blob = append(t.blob, s...)
	}
	t.off = append(t.off, uint32(len(t.blob)))
	t.list, t.ids = nil, nil
}

// frozenTable returns the table of strs, in that order.
func frozenTable(strs []string) strTable {
	t := strTable{list: strs, ids: map[string]uint32{}}
	t.freeze()
	return t
}

// search returns the id of s in a frozen table whose strings are sorted,
// and whether it is there.
func (t *strTable) search(s string) (uint32, bool) {
	lo, hi := 0, t.len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.get(uint32(m)) < s {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return uint32(lo), lo < t.len() && t.get(uint32(lo)) == s
}
