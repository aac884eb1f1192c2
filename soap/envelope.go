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
// name of the body's first element) and that element's XML.
type request struct {
	version   soapVersion
	operation string
	body      []byte
}

// envelope is what decodeEnvelope reads: the body's inner XML.
type envelope struct {
	XMLName xml.Name
	Header  struct {
		Entries []struct {
			XMLName        xml.Name
			MustUnderstand string `xml:"mustUnderstand,attr"`
		} `xml:",any"`
	} `xml:"Header"`
	Body struct {
		Inner []byte `xml:",innerxml"`
	} `xml:"Body"`
}

// decodeEnvelope reads a SOAP 1.1 or 1.2 envelope from r (its version
// from the envelope's namespace, which must agree with the content type
// when that names one).
func decodeEnvelope(contentType string, r io.Reader) (request, error) {
	var env envelope
	dec := xml.NewDecoder(r)
	if err := dec.Decode(&env); err != nil {
		return request{}, fmt.Errorf("the request is not a SOAP envelope: %v", err)
	}
	var v soapVersion
	switch {
	case env.XMLName.Local != "Envelope":
		return request{}, fmt.Errorf("the root element is %s, not a SOAP Envelope", env.XMLName.Local)
	case env.XMLName.Space == ns11:
		v = soap11
	case env.XMLName.Space == ns12:
		v = soap12
	default:
		return request{}, &fault{Code: "VersionMismatch", Reason: fmt.Sprintf("envelope namespace %q is neither SOAP 1.1 nor 1.2", env.XMLName.Space)}
	}
	for _, h := range env.Header.Entries {
		if h.MustUnderstand == "1" || h.MustUnderstand == "true" {
			return request{v, "", nil}, &fault{Code: "MustUnderstand", Reason: fmt.Sprintf("header %s is not understood", h.XMLName.Local)}
		}
	}
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		if mt == "application/soap+xml" && v != soap12 || mt == "text/xml" && v != soap11 {
			return request{v, "", nil}, fmt.Errorf("content type %s does not match a SOAP %s envelope", mt, v)
		}
	}
	op, err := firstElement(env.Body.Inner)
	if err != nil {
		return request{v, "", nil}, err
	}
	if op.Space != namespace {
		return request{v, "", nil}, fmt.Errorf("the operation element %s is in namespace %q, not %q", op.Local, op.Space, namespace)
	}
	return request{version: v, operation: op.Local, body: env.Body.Inner}, nil
}

func (v soapVersion) String() string {
	if v == soap12 {
		return "1.2"
	}
	return "1.1"
}

// firstElement returns the name of the first element in b.
func firstElement(b []byte) (xml.Name, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := dec.Token()
		if err != nil {
			return xml.Name{}, errors.New("the SOAP Body holds no operation element")
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, nil
		}
	}
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
