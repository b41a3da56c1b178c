// Package pglocal runs a throwaway PostgreSQL cluster on the local machine,
// so that gqlbench users and tests never have to set up a database server.
//
// A cluster lives in a state directory (see [Options.Dir]): its data
// directory, its server log and a state file, cluster.json, that records the
// port and the password of the superuser "postgres". [Start] creates the
// cluster with initdb and starts it with pg_ctl; it is idempotent, so calling
// it again returns the running cluster. [Open] reads the state file of a
// cluster started earlier, for example by another process.
//
// The server listens on 127.0.0.1 only. TCP connections need the password
// (scram-sha-256); the Unix socket, which only the owner of the data
// directory can reach, trusts every local user.
//
// PostgreSQL refuses to run as root. When the process runs as root, every
// PostgreSQL binary runs as the "postgres" system user instead, and the data
// directory belongs to that user; if the state directory is one that user
// cannot enter (such as /root/.cache), the data directory is put under
// [os.TempDir] and its path recorded in the state file.
package pglocal
