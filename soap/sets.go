package soap

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/geosvc/geosvc/api/keys"
)

// Location sets: named lists of locations a key owns, addressed by a key
// of their own (the set key LocationCreateSetSimple returns). Requests
// made with a set key and UseDbSet search its locations (NodeType
// DBLocations); LocationUpload fills it.
//
// Redis: PREFIX soapset:NAME is a hash {owner, key, created}; PREFIX
// soapset:NAME:locs the list of its locations (JSON); PREFIX
// soapsetkey:KEYID the name of the set a set key addresses.

// MaxSetLocations bounds the locations of one set.
const MaxSetLocations = 10000

var setNameRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

type createSetRequest struct {
	LocationSetName string
}

type createSetResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ LocationCreateSetSimpleResponse"`
	Key     string   `xml:"SubscriptionKey"`
}

type deleteSetResponse struct {
	XMLName xml.Name `xml:"http://geosvc.org/LocationService/ LocationDeleteSetSimpleResponse"`
	Deleted bool     `xml:"CreateDBStatus"`
}

type uploadRequest struct {
	Locations struct {
		Items []*LocationInput `xml:"LocationInput"`
	} `xml:"Locations"`
	ClearBeforeUpload bool
}

// UploadResult is LocationUpload's answer (its fields are geosvc's: the
// specification does not show them).
type UploadResult struct {
	Uploaded int    `xml:"Uploaded"`
	Rejected int    `xml:"Rejected"`
	Message  string `xml:"Message,omitempty"`
}

type uploadResponse struct {
	XMLName xml.Name     `xml:"http://geosvc.org/LocationService/ LocationUploadResponse"`
	Result  UploadResult `xml:"LocationUploadResult"`
}

func (s *Service) setKey(name string) string     { return s.opts.Prefix + "soapset:" + name }
func (s *Service) setLocsKey(name string) string { return s.opts.Prefix + "soapset:" + name + ":locs" }
func (s *Service) setOfKey(id string) string     { return s.opts.Prefix + "soapsetkey:" + id }

// sets returns the Redis client, or a Receiver fault without one.
func (s *Service) sets() (redis.UniversalClient, error) {
	if s.opts.Redis == nil || s.opts.Keys == nil {
		return nil, receiverFault("location sets are not available on this server")
	}
	return s.opts.Redis, nil
}

// createSet makes a set owned by the request's key and a set key for it.
func (s *Service) createSet(ctx context.Context, body []byte) (any, error) {
	var req createSetRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed LocationCreateSetSimple request: %v", err)
	}
	rdb, err := s.sets()
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(req.LocationSetName)
	if !setNameRE.MatchString(name) {
		return nil, senderFault("LocationSetName %q: 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	owner := requestKey(ctx)
	ok, err := rdb.HSetNX(ctx, s.setKey(name), "owner", owner.ID).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, senderFault("location set %s exists", name)
	}
	k, plain, err := s.opts.Keys.Create(ctx, keys.CreateOptions{Owner: "location set " + name + " of key " + owner.ID, Interfaces: []string{Interface}})
	if err != nil {
		rdb.Del(context.WithoutCancel(ctx), s.setKey(name))
		return nil, fmt.Errorf("create set key: %w", err)
	}
	_, err = rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, s.setKey(name), "key", k.ID, "created", time.Now().UTC().Format(time.RFC3339))
		p.Set(ctx, s.setOfKey(k.ID), name, 0)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return createSetResponse{Key: plain}, nil
}

// deleteSet removes a set (its owner's key or its own may) and revokes
// its key; false when there is no such set.
func (s *Service) deleteSet(ctx context.Context, body []byte) (any, error) {
	var req createSetRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed LocationDeleteSetSimple request: %v", err)
	}
	rdb, err := s.sets()
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(req.LocationSetName)
	rec, err := rdb.HGetAll(ctx, s.setKey(name)).Result()
	if err != nil {
		return nil, err
	}
	if len(rec) == 0 || !setNameRE.MatchString(name) {
		return deleteSetResponse{Deleted: false}, nil
	}
	caller := requestKey(ctx)
	if caller.ID != rec["owner"] && caller.ID != rec["key"] {
		return nil, senderFault("Forbidden")
	}
	if err := rdb.Del(ctx, s.setKey(name), s.setLocsKey(name), s.setOfKey(rec["key"])).Err(); err != nil {
		return nil, err
	}
	if rec["key"] != "" {
		if _, err := s.opts.Keys.Revoke(ctx, rec["key"]); err != nil && !errors.Is(err, keys.ErrNotFound) {
			return nil, err
		}
	}
	return deleteSetResponse{Deleted: true}, nil
}

// upload adds locations to the set of the request's set key (its
// NameOrSubscriptionKey: a set's name alone carries no authority, so the
// set key is needed), after emptying it when ClearBeforeUpload. A
// location needs X and Y (EPGS4326); others are counted as rejected.
func (s *Service) upload(ctx context.Context, body []byte) (any, error) {
	var req uploadRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed LocationUpload request: %v", err)
	}
	rdb, err := s.sets()
	if err != nil {
		return nil, err
	}
	name, err := s.setOf(ctx, rdb)
	if err != nil {
		return nil, err
	}
	var res UploadResult
	var vals []any
	var reasons []string
	for i, li := range req.Locations.Items {
		reject := func(why string) {
			res.Rejected++
			if len(reasons) < 5 {
				reasons = append(reasons, fmt.Sprintf("location %d: %s", i+1, why))
			}
		}
		if li == nil {
			reject("nil")
			continue
		}
		if e := strings.TrimSpace(li.Encoding); e != "" && e != EncodingWGS84 {
			reject("Encoding " + e + " is not supported")
			continue
		}
		if _, err := parsePoint("", li.X, li.Y); err != nil {
			reject(err.Error())
			continue
		}
		b, err := json.Marshal(li)
		if err != nil {
			return nil, err
		}
		vals = append(vals, b)
	}
	n, err := rdb.LLen(ctx, s.setLocsKey(name)).Result()
	if err != nil {
		return nil, err
	}
	if req.ClearBeforeUpload {
		n = 0
	}
	if int(n)+len(vals) > MaxSetLocations {
		return nil, senderFault("the set would hold %d locations; at most %d", int(n)+len(vals), MaxSetLocations)
	}
	_, err = rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if req.ClearBeforeUpload {
			p.Del(ctx, s.setLocsKey(name))
		}
		if len(vals) > 0 {
			p.RPush(ctx, s.setLocsKey(name), vals...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Uploaded = len(vals)
	res.Message = strings.Join(reasons, "; ")
	return uploadResponse{Result: res}, nil
}

// setOf returns the name of the set the request's key addresses, or a
// Sender fault when it is no set key.
func (s *Service) setOf(ctx context.Context, rdb redis.UniversalClient) (string, error) {
	name, err := rdb.Get(ctx, s.setOfKey(requestKey(ctx).ID)).Result()
	if errors.Is(err, redis.Nil) {
		return "", senderFault("the key addresses no location set: use the key LocationCreateSetSimple returned")
	}
	return name, err
}

// keySetLocations returns the locations of the request key's set.
func (s *Service) keySetLocations(ctx context.Context) ([]*LocationInput, error) {
	rdb, err := s.sets()
	if err != nil {
		return nil, err
	}
	name, err := s.setOf(ctx, rdb)
	if err != nil {
		return nil, err
	}
	raw, err := rdb.LRange(ctx, s.setLocsKey(name), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	out := make([]*LocationInput, 0, len(raw))
	for _, r := range raw {
		var li LocationInput
		if err := json.Unmarshal([]byte(r), &li); err != nil {
			return nil, fmt.Errorf("location set %s: %w", name, err)
		}
		out = append(out, &li)
	}
	return out, nil
}
