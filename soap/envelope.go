package soap

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// namespace is the target namespace of the service's messages and types.
const namespace = "http://geosvc.org/LocationService/"

// The envelope namespaces of SOAP 1.1 and 1.2.
const (
	ns11 = "http://schemas.xmlsoap.org/soap/envelope/"
	ns12 = "http://www.w3.org/2003/05/soap-envelope"
)

// soapVersion is a SOAP version: 11 or 12.
type soapVersion int

// The SOAP versions the service speaks.
const (
	soap11 soapVersion = 11
	soap12 soapVersion = 12
)

func (v soapVersion) namespace() string {
	if v == soap12 {
		return ns12
	}
	return ns11
}

func (v soapVersion) contentType() string {
	if v == soap12 {
		return "application/soap+xml; charset=utf-8"
	}
	return "text/xml; charset=utf-8"
}

// request is a decoded envelope: its version, the operation (the local
// name of the body's first element) and that element's XML, re-encoded
// with every namespace declared on it (so that prefixes declared on the
// Envelope or the Body still resolve when the element is read alone).
type request struct {
	version   soapVersion
	operation string
	body      []byte
}

// headerEntry is a SOAP header block, of which only mustUnderstand is read.
type headerEntry struct {
	XMLName        xml.Name
	MustUnderstand string `xml:"mustUnderstand,attr"`
}

// decodeEnvelope reads a SOAP 1.1 or 1.2 envelope from r (its version
// from the envelope's namespace, which must agree with the content type
// when that names one).
func decodeEnvelope(contentType string, r io.Reader) (request, error) {
	dec := xml.NewDecoder(r)
	root, err := nextStart(dec)
	if err != nil {
		return request{}, fmt.Errorf("the request is not a SOAP envelope: %v", err)
	}
	var v soapVersion
	switch {
	case root.Name.Local != "Envelope":
		return request{}, fmt.Errorf("the root element is %s, not a SOAP Envelope", root.Name.Local)
	case root.Name.Space == ns11:
		v = soap11
	case root.Name.Space == ns12:
		v = soap12
	default:
		return request{}, &fault{Code: "VersionMismatch", Reason: fmt.Sprintf("envelope namespace %q is neither SOAP 1.1 nor 1.2", root.Name.Space)}
	}
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		if mt == "application/soap+xml" && v != soap12 || mt == "text/xml" && v != soap11 {
			return request{v, "", nil}, fmt.Errorf("content type %s does not match a SOAP %s envelope", mt, v)
		}
	}
	for {
		se, err := nextStart(dec)
		if err != nil {
			return request{v, "", nil}, errors.New("the envelope has no SOAP Body")
		}
		switch {
		case se.Name.Local == "Header" && se.Name.Space == root.Name.Space:
			var h struct {
				Entries []headerEntry `xml:",any"`
			}
			if err := dec.DecodeElement(&h, &se); err != nil {
				return request{v, "", nil}, fmt.Errorf("the request is not a SOAP envelope: %v", err)
			}
			for _, e := range h.Entries {
				if e.MustUnderstand == "1" || e.MustUnderstand == "true" {
					return request{v, "", nil}, &fault{Code: "MustUnderstand", Reason: fmt.Sprintf("header %s is not understood", e.XMLName.Local)}
				}
			}
		case se.Name.Local == "Body" && se.Name.Space == root.Name.Space:
			op, err := nextStart(dec)
			if err != nil {
				return request{v, "", nil}, errors.New("the SOAP Body holds no operation element")
			}
			if op.Name.Space != namespace {
				return request{v, "", nil}, fmt.Errorf("the operation element %s is in namespace %q, not %q", op.Name.Local, op.Name.Space, namespace)
			}
			body, err := reencode(dec, op)
			if err != nil {
				return request{v, "", nil}, fmt.Errorf("the request is not a SOAP envelope: %v", err)
			}
			return request{version: v, operation: op.Name.Local, body: body}, nil
		default:
			if err := dec.Skip(); err != nil {
				return request{v, "", nil}, fmt.Errorf("the request is not a SOAP envelope: %v", err)
			}
		}
	}
}

// nextStart returns the next start element of dec at the current level,
// failing at the end of the enclosing element or of the input.
func nextStart(dec *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := dec.Token()
		if err != nil {
			return xml.StartElement{}, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.EndElement:
			return xml.StartElement{}, errors.New("no element")
		}
	}
}

// reencode writes the element that start opens, through its end, as a
// standalone document: names carry their resolved namespaces (the
// encoder declares them), and the source's own xmlns attributes, whose
// prefixes no longer apply, are dropped.
func reencode(dec *xml.Decoder, start xml.StartElement) ([]byte, error) {
	var b bytes.Buffer
	enc := xml.NewEncoder(&b)
	depth := 0
	tok := xml.Token(start)
	for {
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			attrs := t.Attr[:0:0]
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				attrs = append(attrs, a)
			}
			t.Attr = attrs
			tok = t
		case xml.EndElement:
			depth--
		case xml.ProcInst, xml.Directive:
			tok = nil
		}
		if tok != nil {
			if err := enc.EncodeToken(tok); err != nil {
				return nil, err
			}
		}
		if depth == 0 {
			break
		}
		var err error
		if tok, err = dec.Token(); err != nil {
			return nil, err
		}
		tok = xml.CopyToken(tok)
	}
	if err := enc.Flush(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (v soapVersion) String() string {
	if v == soap12 {
		return "1.2"
	}
	return "1.1"
}

// fault is a SOAP fault: Sender (the request is at fault: a bad key, a
// malformed or invalid request; soap:Client in SOAP 1.1) or Receiver (the
// service: an internal error, data not loaded, an operation not
// available; soap:Server).
type fault struct {
	Sender bool
	Reason string
	// Code, when set, is the fault code in place of Sender/Receiver
	// (VersionMismatch, MustUnderstand).
	Code string
}

func (f *fault) Error() string { return f.Reason }

// senderFault and receiverFault make faults.
func senderFault(format string, a ...any) *fault {
	return &fault{Sender: true, Reason: fmt.Sprintf(format, a...)}
}

func receiverFault(format string, a ...any) *fault {
	return &fault{Reason: fmt.Sprintf(format, a...)}
}

// status is the HTTP status of a fault: 500 in SOAP 1.1 (which asks it
// for every fault); 400 for a Sender fault in SOAP 1.2.
func (f *fault) status(v soapVersion) int {
	if v == soap12 && (f.Sender || f.Code == "MustUnderstand") {
		return http.StatusBadRequest
	}
	return http.StatusInternalServerError
}

// writeFault writes f as a SOAP fault of version v.
func writeFault(w http.ResponseWriter, v soapVersion, f *fault) {
	var b strings.Builder
	b.WriteString(xml.Header)
	if v == soap12 {
		code := "soap:Receiver"
		if f.Sender {
			code = "soap:Sender"
		}
		if f.Code != "" {
			code = "soap:" + f.Code
		}
		fmt.Fprintf(&b, `<soap:Envelope xmlns:soap="%s"><soap:Body><soap:Fault><soap:Code><soap:Value>%s</soap:Value></soap:Code>`+
			`<soap:Reason><soap:Text xml:lang="en">%s</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>`,
			ns12, code, escape(f.Reason))
	} else {
		code := "soap:Server"
		if f.Sender {
			code = "soap:Client"
		}
		if f.Code != "" {
			code = "soap:" + f.Code
		}
		fmt.Fprintf(&b, `<soap:Envelope xmlns:soap="%s"><soap:Body><soap:Fault><faultcode>%s</faultcode>`+
			`<faultstring>%s</faultstring></soap:Fault></soap:Body></soap:Envelope>`, ns11, code, escape(f.Reason))
	}
	w.Header().Set("Content-Type", v.contentType())
	w.WriteHeader(f.status(v))
	io.WriteString(w, b.String())
}

// writeResponse writes the response element resp (a struct whose XMLName
// is the operation's response element in Namespace) in an envelope of
// version v.
func writeResponse(w http.ResponseWriter, v soapVersion, resp any) error {
	body, err := xml.Marshal(resp)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, `<soap:Envelope xmlns:soap="%s" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Body>`, v.namespace())
	b.Write(body)
	b.WriteString(`</soap:Body></soap:Envelope>`)
	w.Header().Set("Content-Type", v.contentType())
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b.Bytes())
	return err
}

// escape escapes text for XML character data.
func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
