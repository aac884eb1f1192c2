package soap

import "encoding/xml"

// FieldStatus values (SPEC.md, "SOAP location service: enumerations").
const (
	StatusOK           = "OK"
	StatusNotChecked   = "NotChecked"
	StatusCompleted    = "Completed"
	StatusAlternatives = "Alternatives"
	StatusConflict     = "Conflict"
	StatusIncomplete   = "Incomplete"
	StatusEmpty        = "Empty"
	StatusRangeCheck   = "RangeCheck"
)

// EncodingWGS84 is the EncodingType of longitude/latitude in degrees; the
// specification spells it EPGS4326.
const EncodingWGS84 = "EPGS4326"

// LocationField is one field of a checked location: the value(s) found,
// the field's status and, when the request's value differs, that value.
type LocationField struct {
	Names   []nillableString `xml:"Name"`
	Status  string           `xml:"Status,attr"`
	Current string           `xml:"Current,attr,omitempty"`
}

// nillableString is an element that may be xsi:nil.
type nillableString struct {
	Value string `xml:",chardata"`
	Nil   string `xml:"http://www.w3.org/2001/XMLSchema-instance nil,attr,omitempty"`
}

// Location is a checked location (the Gazetteer's answer).
type Location struct {
	Country   *LocationField `xml:"Country,omitempty"`
	State     *LocationField `xml:"State,omitempty"`
	PostCode  *LocationField `xml:"PostCode,omitempty"`
	City      *LocationField `xml:"City,omitempty"`
	Street    *LocationField `xml:"Street,omitempty"`
	Premise   *LocationField `xml:"Premise,omitempty"`
	PoBox     *LocationField `xml:"PoBox,omitempty"`
	LargeUser *LocationField `xml:"LargeUser,omitempty"`
	locationTail
	FID    string `xml:"fid,attr,omitempty"`
	Status string `xml:"Status,attr"`
}

// locationTail are the elements Location and LocationInput end with.
type locationTail struct {
	Name     string `xml:"Name,omitempty"`
	Type     string `xml:"Type,omitempty"`
	URL      string `xml:"Url,omitempty"`
	Image    string `xml:"Image,omitempty"`
	X        string `xml:"X,omitempty"`
	Y        string `xml:"Y,omitempty"`
	Radius   string `xml:"Radius,omitempty"`
	Time     string `xml:"Time,omitempty"`
	Encoding string `xml:"Encoding"`
}

// LocationInputField is one field of a location to check.
type LocationInputField struct {
	Name string `xml:"Name"`
}

// LocationInput is a location to check (and the location type the
// proximity and map operations return).
type LocationInput struct {
	Country  *LocationInputField `xml:"Country"`
	State    *LocationInputField `xml:"State"`
	City     *LocationInputField `xml:"City"`
	Street   *LocationInputField `xml:"Street"`
	Premise  *LocationInputField `xml:"Premise"`
	PostCode *LocationInputField `xml:"PostCode"`
	locationTail
	FID string `xml:"fid,attr"`
}

// value returns the value of an input field, "" when absent.
func (f *LocationInputField) value() string {
	if f == nil {
		return ""
	}
	return f.Name
}

// gazetteerSimpleRequest is the GazetteerSimple request element.
type gazetteerSimpleRequest struct {
	Country, State, City, Street, Premise, PostCode string
	SubscriptionKey                                 string
}

type gazetteerSimpleResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ GazetteerSimpleResponse"`
	Result  Location `xml:"GazetteerSimpleResult"`
}

// gazetteerRequest is the Gazetteer request element.
type gazetteerRequest struct {
	Request struct {
		Locations []*LocationInput `xml:"LocationInput"`
	} `xml:"GazetteerRequest"`
	SubscriptionKey string
}

type gazetteerResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ GazetteerResponse"`
	Result  struct {
		Locations []Location `xml:"Location"`
	} `xml:"GazetteerResult"`
}

// getSubscriptionKeyRequest is the LocationGetSubscriptionKey request.
type getSubscriptionKeyRequest struct {
	CompanyName, ContactName, Country, State, City, Street, Premise, PostCode string
	EMail                                                                     string `xml:"eMail"`
	Phone, Password                                                           string
}

type getSubscriptionKeyResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ LocationGetSubscriptionKeyResponse"`
	Key     string   `xml:"SubscriptionKey"`
}

// keyOnly reads the key of any request element (LocationUpload's is its
// NameOrSubscriptionKey).
type keyOnly struct {
	SubscriptionKey       string
	NameOrSubscriptionKey string
}
