package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// benchServer is a `geosvc serve` child process started by the bench.
type benchServer struct {
	cmd *exec.Cmd
	url string
	key string
	// done is closed when the process has exited, with err its end.
	done chan struct{}
	err  error
}

// startServe runs this binary's serve command on a free loopback port with
// a fresh demo key, data from dataDir, and waits until /readyz answers 200.
// Its output goes to logOut. REDIS_URL, when set, is passed on; without it
// serve embeds its Redis.
func startServe(ctx context.Context, dataDir string, logOut io.Writer, extraArgs ...string) (*benchServer, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	key, err := randomKey()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, append([]string{"serve"}, extraArgs...)...)
	// No admin listener: its default port may be another server's.
	cmd.Env = append(os.Environ(), "GEOSVC_ADDR="+addr, "GEOSVC_DATA="+dataDir, "GEOSVC_DEMO_KEY="+key, "GEOSVC_ADMIN_ADDR=")
	cmd.Stdout, cmd.Stderr = logOut, logOut
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start serve: %w", err)
	}
	s := &benchServer{cmd: cmd, url: "http://" + addr, key: key, done: make(chan struct{})}
	exited := make(chan error, 1)
	go func() {
		s.err = cmd.Wait()
		exited <- s.err
		close(s.done)
	}()
	if err := waitReady(ctx, s.url, exited); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// stop asks the server to shut down and waits for it (killing it after
// 15 s).
func (s *benchServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(15 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// waitReady polls url/readyz until it answers 200, the process exits
// (exited receives its end) or ctx ends.
func waitReady(ctx context.Context, url string, exited <-chan error) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/readyz", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-exited:
			return fmt.Errorf("server exited before it was ready: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("server at %s not ready: %w", url, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// freeAddr returns a loopback address with a port free right now.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// randomKey returns a 40-character API key.
func randomKey() (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// peakRSS returns the peak resident set (VmHWM) of process pid in bytes,
// from /proc (Linux only).
func peakRSS(pid int) (int64, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return parseVmHWM(f)
}

// parseVmHWM reads the VmHWM line of a /proc/PID/status file.
func parseVmHWM(r io.Reader) (int64, error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("VmHWM line %q", sc.Text())
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		return kb << 10, err
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no VmHWM line")
}
