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

	"github.com/geosvc/geosvc/keys"
)

// Location sets: named lists of locations a key owns, addressed by a key
// of their own (the set key LocationCreateSetSimple returns). Requests
// made with a set key and UseDbSet search its locations (NodeType
// DBLocations); LocationUpload fills it. Set names are the owner's own:
// two keys may each have a set "depots". A set key works only while its
// owner's key is active, cannot create sets, and its requests count in
// the owner's usage and rate limit.
//
// Redis: PREFIX soapset:OWNER:NAME is a hash {key, created}; PREFIX
// soapset:OWNER:NAME:locs the list of its locations (JSON); PREFIX
// soapsets:OWNER the set of the owner's set names; PREFIX
// soapsetkey:KEYID "OWNER:NAME", the set a set key addresses.

// maxSetLocations bounds the locations of one set, maxSetsPerKey the sets
// of one owner.
const (
	maxSetLocations = 10000
	maxSetsPerKey   = 100
)

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
		Items []*locationInput `xml:"LocationInput"`
	} `xml:"Locations"`
	ClearBeforeUpload bool
}

// uploadResult is LocationUpload's answer (its fields are geosvc's: the
// specification does not show them).
type uploadResult struct {
	Uploaded int    `xml:"Uploaded"`
	Rejected int    `xml:"Rejected"`
	Message  string `xml:"Message,omitempty"`
}

type uploadResponse struct {
	XMLName xml.Name     `xml:"http://geosvc.org/LocationService/ LocationUploadResponse"`
	Result  uploadResult `xml:"LocationUploadResult"`
}

// setRef names a set: its owner's key id and its name.
type setRef struct{ owner, name string }

func (s *Service) setKey(r setRef) string     { return s.opts.Prefix + "soapset:" + r.owner + ":" + r.name }
func (s *Service) setLocsKey(r setRef) string { return s.setKey(r) + ":locs" }
func (s *Service) setsOf(owner string) string { return s.opts.Prefix + "soapsets:" + owner }
func (s *Service) setKeyIndex(id string) string {
	return s.opts.Prefix + "soapsetkey:" + id
}

// sets returns the Redis client, or a Receiver fault without one.
func (s *Service) sets() (redis.UniversalClient, error) {
	if s.opts.Redis == nil || s.opts.Gate == nil {
		return nil, receiverFault("location sets are not available on this server")
	}
	return s.opts.Redis, nil
}

// setOfKey returns the set a key addresses (nil when it is no set key),
// or Forbidden when the set's owner key is no longer active.
func (s *Service) setOfKey(ctx context.Context, k keys.Key) (*setRef, error) {
	if s.opts.Redis == nil || s.opts.Gate == nil {
		return nil, nil
	}
	v, err := s.opts.Redis.Get(ctx, s.setKeyIndex(k.ID)).Result()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	owner, name, _ := strings.Cut(v, ":")
	ok, err := s.opts.Gate.Store().Get(ctx, owner)
	if errors.Is(err, keys.ErrNotFound) || err == nil && !ok.Active() {
		return nil, senderFault("Forbidden")
	}
	if err != nil {
		return nil, err
	}
	return &setRef{owner: owner, name: name}, nil
}

// setName reads and checks a LocationSetName.
func setName(body []byte, op string) (string, error) {
	var req createSetRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return "", senderFault("malformed %s request: %v", op, err)
	}
	name := strings.TrimSpace(req.LocationSetName)
	if !setNameRE.MatchString(name) {
		return "", senderFault("LocationSetName %q: 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	return name, nil
}

// createSet makes a set owned by the request's key and a set key for it.
func (s *Service) createSet(ctx context.Context, body []byte) (any, error) {
	name, err := setName(body, "LocationCreateSetSimple")
	if err != nil {
		return nil, err
	}
	rdb, err := s.sets()
	if err != nil {
		return nil, err
	}
	owner := requestKey(ctx)
	ref := setRef{owner: owner.ID, name: name}
	if n, err := rdb.SCard(ctx, s.setsOf(owner.ID)).Result(); err != nil {
		return nil, err
	} else if n >= maxSetsPerKey {
		return nil, senderFault("the key has %d location sets, the most it may have: delete one first", n)
	}
	ok, err := rdb.HSetNX(ctx, s.setKey(ref), "created", time.Now().UTC().Format(time.RFC3339)).Result()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, senderFault("you have a location set %s already", name)
	}
	k, plain, err := s.opts.Gate.Store().Create(ctx, keys.CreateOptions{Owner: "location set " + name + " of key " + owner.ID, Interfaces: []string{Interface}})
	if err != nil {
		rdb.Del(context.WithoutCancel(ctx), s.setKey(ref))
		return nil, fmt.Errorf("create set key: %w", err)
	}
	// No MULTI: the set's keys hash to different slots of a Redis
	// Cluster. The index and the owner's list are written first, the
	// set's key id last: a set is usable once that field is there.
	err = rdb.Set(ctx, s.setKeyIndex(k.ID), owner.ID+":"+name, 0).Err()
	if err == nil {
		err = rdb.SAdd(ctx, s.setsOf(owner.ID), name).Err()
	}
	if err == nil {
		err = rdb.HSet(ctx, s.setKey(ref), "key", k.ID).Err()
	}
	if err != nil {
		bg := context.WithoutCancel(ctx)
		rdb.SRem(bg, s.setsOf(owner.ID), name)
		rdb.Del(bg, s.setKeyIndex(k.ID))
		rdb.Del(bg, s.setKey(ref))
		s.opts.Gate.Store().Revoke(bg, k.ID)
		return nil, err
	}
	return createSetResponse{Key: plain}, nil
}

// deleteSet removes a set of the request's key (or the set of the
// request's set key, by its name) and revokes its set key; false when
// there is no such set.
func (s *Service) deleteSet(ctx context.Context, body []byte) (any, error) {
	name, err := setName(body, "LocationDeleteSetSimple")
	if f, ok := err.(*fault); ok && strings.HasPrefix(f.Reason, "LocationSetName") {
		return deleteSetResponse{Deleted: false}, nil // no set has such a name
	}
	if err != nil {
		return nil, err
	}
	rdb, err := s.sets()
	if err != nil {
		return nil, err
	}
	ref := setRef{owner: requestKey(ctx).ID, name: name}
	if set := requestSet(ctx); set != nil {
		if set.name != name {
			return nil, senderFault("Forbidden")
		}
		ref = *set
	}
	setKeyID, err := rdb.HGet(ctx, s.setKey(ref), "key").Result()
	if errors.Is(err, redis.Nil) {
		return deleteSetResponse{Deleted: false}, nil
	}
	if err != nil {
		return nil, err
	}
	// One key at a time (a Redis Cluster refuses a DEL across slots):
	// the owner's list first, the set's hash last, so that a delete cut
	// short leaves a set that a second delete finds and finishes.
	err = rdb.SRem(ctx, s.setsOf(ref.owner), ref.name).Err()
	for _, key := range []string{s.setLocsKey(ref), s.setKeyIndex(setKeyID), s.setKey(ref)} {
		if err == nil {
			err = rdb.Del(ctx, key).Err()
		}
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.opts.Gate.Store().Revoke(ctx, setKeyID); err != nil && !errors.Is(err, keys.ErrNotFound) {
		return nil, err
	}
	return deleteSetResponse{Deleted: true}, nil
}

// uploadScript empties the list when ARGV[1] is "1", then appends
// ARGV[3..] (1,000 at a time: Lua's unpack has a limit) unless the list
// would hold more than ARGV[2]: it returns the new length, or -1 when full
// (atomic, so concurrent uploads cannot pass the bound).
var uploadScript = redis.NewScript(`
local n = 0
if ARGV[1] ~= "1" then n = redis.call("LLEN", KEYS[1]) end
if n + #ARGV - 2 > tonumber(ARGV[2]) then return -1 end
if ARGV[1] == "1" then redis.call("DEL", KEYS[1]) end
for i = 3, #ARGV, 1000 do
  n = redis.call("RPUSH", KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
return n`)

// upload adds locations to the set of the request's set key (its
// NameOrSubscriptionKey: a set's name alone carries no authority, so the
// set key is needed), after emptying it when ClearBeforeUpload. A
// location needs X and Y (EPGS4326); others are counted as rejected.
func (s *Service) upload(ctx context.Context, body []byte) (any, error) {
	var req uploadRequest
	if err := xml.Unmarshal(body, &req); err != nil {
		return nil, senderFault("malformed LocationUpload request: %v", err)
	}
	rdb, set, err := s.keySet(ctx)
	if err != nil {
		return nil, err
	}
	var res uploadResult
	args := []any{"0", maxSetLocations}
	if req.ClearBeforeUpload {
		args[0] = "1"
	}
	var reasons []string
	for i, li := range req.Locations.Items {
		reject := func(why string) {
			res.Rejected++
			if len(reasons) < 5 {
				reasons = append(reasons, fmt.Sprintf("location %d: %s", i+1, why))
			}
		}
		if li == nil {
			reject("empty")
			continue
		}
		if e := strings.TrimSpace(li.Encoding); e != "" && e != encodingWGS84 {
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
		args = append(args, b)
	}
	if len(args)-2 > maxSetLocations {
		return nil, senderFault("%d locations: a set holds at most %d", len(args)-2, maxSetLocations)
	}
	n, err := uploadScript.Run(ctx, rdb, []string{s.setLocsKey(*set)}, args...).Int()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, senderFault("the set would hold more than %d locations", maxSetLocations)
	}
	res.Uploaded = len(args) - 2
	res.Message = strings.Join(reasons, "; ")
	return uploadResponse{Result: res}, nil
}

// keySet returns the Redis client and the set of the request's set key,
// or a fault when the key is no set key.
func (s *Service) keySet(ctx context.Context) (redis.UniversalClient, *setRef, error) {
	rdb, err := s.sets()
	if err != nil {
		return nil, nil, err
	}
	set := requestSet(ctx)
	if set == nil {
		return nil, nil, senderFault("the key addresses no location set: use the key LocationCreateSetSimple returned")
	}
	return rdb, set, nil
}

// keySetLocations returns the locations of the request key's set.
func (s *Service) keySetLocations(ctx context.Context) ([]*locationInput, error) {
	rdb, set, err := s.keySet(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := rdb.LRange(ctx, s.setLocsKey(*set), 0, -1).Result()
	if err != nil {
		return nil, err
	}
	out := make([]*locationInput, 0, len(raw))
	for _, r := range raw {
		var li locationInput
		if err := json.Unmarshal([]byte(r), &li); err != nil {
			return nil, fmt.Errorf("location set %s: %w", set.name, err)
		}
		out = append(out, &li)
	}
	return out, nil
}
