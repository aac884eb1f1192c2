package glyphs

import "encoding/binary"

// The protobuf wire format of glyphs.proto (Mapbox GL's glyphs message:
// glyphs { repeated fontstack stacks = 1; } fontstack { name = 1; range
// = 2; repeated glyph glyphs = 3; } glyph { id = 1; bitmap = 2; width =
// 3; height = 4; sint32 left = 5; sint32 top = 6; advance = 7; }),
// written by hand: three messages do not need a protobuf library.

func appendTag(b []byte, field, wire int) []byte {
	return binary.AppendUvarint(b, uint64(field<<3|wire))
}

func appendUint(b []byte, field int, v uint64) []byte {
	return binary.AppendUvarint(appendTag(b, field, 0), v)
}

func appendSint(b []byte, field int, v int64) []byte {
	return binary.AppendUvarint(appendTag(b, field, 0), uint64((v<<1)^(v>>63)))
}

func appendBytes(b []byte, field int, v []byte) []byte {
	b = binary.AppendUvarint(appendTag(b, field, 2), uint64(len(v)))
	return append(b, v...)
}

// encode returns the glyphs message of one font stack's range.
func encode(stack, rangeName string, gs []Glyph) []byte {
	var fs []byte
	fs = appendBytes(fs, 1, []byte(stack))
	fs = appendBytes(fs, 2, []byte(rangeName))
	for _, g := range gs {
		var m []byte
		m = appendUint(m, 1, uint64(g.ID))
		if len(g.Bitmap) > 0 {
			m = appendBytes(m, 2, g.Bitmap)
		}
		m = appendUint(m, 3, uint64(g.Width))
		m = appendUint(m, 4, uint64(g.Height))
		m = appendSint(m, 5, int64(g.Left))
		m = appendSint(m, 6, int64(g.Top))
		m = appendUint(m, 7, uint64(g.Advance))
		fs = appendBytes(fs, 3, m)
	}
	return appendBytes(nil, 1, fs)
}
