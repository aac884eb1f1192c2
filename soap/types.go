package soap

import "encoding/xml"

// FieldStatus values (SPEC.md, "SOAP location service: enumerations").
const (
	statusOK           = "OK"
	statusNotChecked   = "NotChecked"
	statusCompleted    = "Completed"
	statusAlternatives = "Alternatives"
	statusConflict     = "Conflict"
	statusIncomplete   = "Incomplete"
	statusEmpty        = "Empty"
	statusRangeCheck   = "RangeCheck"
)

// encodingWGS84 is the EncodingType of longitude/latitude in degrees; the
// specification spells it EPGS4326.
const encodingWGS84 = "EPGS4326"

// locationField is one field of a checked location: the value(s) found,
// the field's status and, when the request's value differs, that value.
type locationField struct {
	Names   []nillableString `xml:"Name"`
	Status  string           `xml:"Status,attr"`
	Current string           `xml:"Current,attr,omitempty"`
}

// nillableString is an element that may be xsi:nil.
type nillableString struct {
	Value string `xml:",chardata"`
	Nil   string `xml:"http://www.w3.org/2001/XMLSchema-instance nil,attr,omitempty"`
}

// location is a checked location (the Gazetteer's answer).
type location struct {
	Country   *locationField `xml:"Country,omitempty"`
	State     *locationField `xml:"State,omitempty"`
	PostCode  *locationField `xml:"PostCode,omitempty"`
	City      *locationField `xml:"City,omitempty"`
	Street    *locationField `xml:"Street,omitempty"`
	Premise   *locationField `xml:"Premise,omitempty"`
	PoBox     *locationField `xml:"PoBox,omitempty"`
	LargeUser *locationField `xml:"LargeUser,omitempty"`
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

// locationInputField is one field of a location to check.
type locationInputField struct {
	Name string `xml:"Name"`
}

// locationInput is a location to check (and the location type the
// proximity and map operations return).
type locationInput struct {
	Country  *locationInputField `xml:"Country"`
	State    *locationInputField `xml:"State"`
	City     *locationInputField `xml:"City"`
	Street   *locationInputField `xml:"Street"`
	Premise  *locationInputField `xml:"Premise"`
	PostCode *locationInputField `xml:"PostCode"`
	locationTail
	FID string `xml:"fid,attr"`
}

// value returns the value of an input field, "" when absent.
func (f *locationInputField) value() string {
	if f == nil {
		return ""
	}
	return f.Name
}

// gazetteerSimpleRequest is the GazetteerSimple request element.
type gazetteerSimpleRequest struct {
	Country, State, City, Street, Premise, PostCode string
	Language                                        string
	SubscriptionKey                                 string
}

type gazetteerSimpleResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ GazetteerSimpleResponse"`
	Result  location `xml:"GazetteerSimpleResult"`
}

// gazetteerRequest is the Gazetteer request element.
type gazetteerRequest struct {
	Request struct {
		Locations []*locationInput `xml:"LocationInput"`
	} `xml:"GazetteerRequest"`
	Language        string
	SubscriptionKey string
}

type gazetteerResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ GazetteerResponse"`
	Result  struct {
		Locations []location `xml:"Location"`
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
	SubscriptionKey       []string
	NameOrSubscriptionKey []string
}
