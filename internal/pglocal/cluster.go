package pglocal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
)

// stateFile is the name of the state file in the state directory.
const stateFile = "cluster.json"

// superuser is the name of the cluster's superuser.
const superuser = "postgres"

// ErrNoCluster is returned, wrapped, by Open when the state directory holds
// no cluster.
var ErrNoCluster = errors.New("no local PostgreSQL")

// Cluster is a local PostgreSQL cluster, as recorded in its state file.
type Cluster struct {
	// Dir is the state directory, which holds the state file cluster.json.
	Dir string `json:"dir"`
	// DataDir is the cluster's data directory, usually Dir/data.
	DataDir string `json:"data_dir"`
	// Port is the TCP port the server listens on, on 127.0.0.1.
	Port int `json:"port"`
	// User is the superuser's name, "postgres".
	User string `json:"user"`
	// Password is the superuser's password.
	Password string `json:"password"`
}

// Open reads the state file of the cluster in dir (DefaultDir if dir is
// empty). It does not check that the cluster is running; see Running. If
// there is no cluster, the error wraps ErrNoCluster.
func Open(dir string) (*Cluster, error) {
	dir, err := resolveDir(dir)
	if err != nil {
		return nil, err
	}
	c, err := readState(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s; run `gqlbench pg start`", ErrNoCluster, dir)
	}
	return c, err
}

// URL returns the superuser's connection URL for database ("postgres" if
// empty): postgres://postgres:PASSWORD@127.0.0.1:PORT/DATABASE?sslmode=disable.
func (c *Cluster) URL(database string) string {
	return c.urlFor(c.user(), c.Password, database)
}

// urlFor returns a connection URL for user with password to database.
func (c *Cluster) urlFor(user, password, database string) string {
	if database == "" {
		database = "postgres"
	}
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(user, password),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.Port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// user returns the superuser's name.
func (c *Cluster) user() string {
	if c.User == "" {
		return superuser
	}
	return c.User
}

// base returns the directory that holds the data directory, the server log
// and, while initdb runs, the password file.
func (c *Cluster) base() string { return filepath.Dir(c.DataDir) }

// logPath returns the path of the server log.
func (c *Cluster) logPath() string { return filepath.Join(c.base(), "postgres.log") }

// readState reads dir's state file. The error wraps fs.ErrNotExist if there
// is none.
func readState(dir string) (*Cluster, error) {
	path := filepath.Join(dir, stateFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c Cluster
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("state file %s is damaged (%v): remove it and run `gqlbench pg start`", path, err)
	}
	if c.DataDir == "" || !filepath.IsAbs(c.DataDir) || c.Port <= 0 || c.Port > 65535 || c.Password == "" {
		return nil, fmt.Errorf("state file %s is incomplete: remove it and run `gqlbench pg start`", path)
	}
	c.Dir = dir
	return &c, nil
}

// writeState writes the state file atomically; it is readable by its owner
// only, as it holds the password.
func (c *Cluster) writeState() error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(c.Dir, stateFile+".*")
	if err != nil {
		return fmt.Errorf("writing the state file: %w", err)
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(c.Dir, stateFile))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing the state file: %w", err)
	}
	return nil
}
