//go:build !(linux || darwin)

package apispec

// lockFile is a no-op where flock is unavailable; install tolerates the
// rename race instead.
func lockFile(string) (func(), error) {
	return func() {}, nil
}
